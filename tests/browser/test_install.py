"""Installed as a package, not run from the checkout: `pip install <clone>` (not editable) into a fresh venv.

Then, from a folder that has nothing to do with the project, `softmax-explainer export x.html` writes a page
that works with every non-file request refused, and `from app import Explainer, Lesson` works. The clone is
the repository's files as git would commit them (tracked, plus new ones not ignored).
"""

import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.browser import lessonpage as lp
from tests.browser.conftest import ROOT


def repository_files():
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode:
        pytest.fail(f"git could not list the repository's files: {listed.stderr}")
    return [path for path in listed.stdout.splitlines() if (ROOT / path).is_file()]


@pytest.fixture(scope="module")
def browser(real_browser):
    """The installed export opened in the whole Chromium, as a learner opens it (conftest.py `real_browser`)."""
    return real_browser


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python of a fresh venv holding the installed package, an unrelated folder)."""
    clone = tmp_path_factory.mktemp("clone")
    for path in repository_files():
        (clone / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, clone / path)
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir)  # no pip of its own: this environment's pip installs into it (pip --python)
    python = env_dir / "bin" / "python"
    # The dependencies come from this environment's site-packages, as a path after the venv's own (a .pth line;
    # the editable install's finder there is not run, so `app` can only be the venv's): pip finds them
    # satisfied and installs the package alone, rather than spending 50 s copying pandas and Bokeh. That the
    # declared dependencies install from nothing is what the README's own command proves on a fresh clone in CI.
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    outer = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(site) / "outer.pth").write_text("".join(f"{path}\n" for path in outer))
    done = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", str(clone)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return python, tmp_path_factory.mktemp("elsewhere")


def test_the_installed_package_has_its_browser_files(installed):
    python, elsewhere = installed
    done = subprocess.run([python, "-c", "import app, static; from app import Explainer, Lesson; "
                           "from app.bundle import bundle; from app import calibration; "
                           "print(app.__file__); print(len(bundle())); print(len(calibration.data().labels))"],
                          cwd=elsewhere, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    location, size, heldout = done.stdout.split()
    assert "site-packages" in location and str(ROOT) not in location
    assert int(size) > 40_000
    assert int(heldout) == 1597  # the calibration data (app/data) ships as package data


def test_the_installed_command_exports_a_page_that_works_offline(installed, new_page):
    python, elsewhere = installed
    script = python.parent / "softmax-explainer"
    done = subprocess.run([script, "export", "x.html", "--logits", "-2,1,0.5", "--lang", "ko"], cwd=elsewhere,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    page = elsewhere / "x.html"
    p = new_page(block_network=True)
    p.pg.goto(page.as_uri())
    lp.wait_ready(p.pg)
    lp.drag(p.pg, 0, -40)
    z = lp.state(p.pg)["z"]
    assert z[0] > -2 and z[1:] == [1.0, 0.5]
    assert lp.text(p.pg, "readout-loss").startswith("손실")
    assert p.errors == [] and p.blocked == [], (p.errors, p.blocked)


def test_a_damaged_install_names_the_real_cause(installed):
    python, elsewhere = installed
    site = subprocess.run([python, "-c", "import static, pathlib; print(pathlib.Path(static.__file__).parent)"],
                          cwd=elsewhere, capture_output=True, text=True).stdout.strip()
    assert "site-packages" in site, site  # the installed copy, never the checkout's
    moved = elsewhere / "frame.mjs.away"
    shutil.move(f"{site}/frame.mjs", moved)
    try:
        done = subprocess.run([python.parent / "softmax-explainer", "export", "y.html"], cwd=elsewhere,
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.move(moved, f"{site}/frame.mjs")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "missing its browser file static/frame.mjs" in done.stderr and "reinstall" in done.stderr
    assert not (elsewhere / "y.html").exists()
