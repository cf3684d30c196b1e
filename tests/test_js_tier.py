"""The pure JavaScript twins under `node --test` (tests/js/), on JSON fixtures that Python writes.

The fixtures in tests/js/fixtures/ let `node --test tests/js/` run on its own; here each is first checked to be
what its script writes today (a changed twin, case, string or oracle needs the script rerun), then node runs on
fresh copies. The tier holds the pure twins (core, rules, actions, links against Python's answers) and the page's
renderer (numbers against core's, every shown digit against tests/digits_oracle.py).
"""

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = {"rules.json": ("make_fixture.py", "RULES_FIXTURE"), "twins.json": ("make_twins.py", "TWINS_FIXTURE"),
            "lessons.json": ("make_lessons.py", "LESSONS_FIXTURE"), "digits.json": ("make_digits.py", "DIGITS_FIXTURE"),
            "calibration.json": ("make_calibration.py", "CALIBRATION_FIXTURE"),
            "decoding.json": ("make_decoding.py", "DECODING_FIXTURE")}


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fresh():
    """{fixture file: the text its script writes now}."""
    return {name: load(ROOT / "tests" / "js" / script).build() for name, (script, _) in FIXTURES.items()}


# What names the versions a fixture was made with: another version of a package writing the same cases makes
# the same fixture (CI's Python may have an older mpmath than the one that wrote it).
VERSIONS = ("python", "numpy", "mpmath")  # rules.json names the Unicode version of its Python instead


def content(text):
    """A fixture without the versions it names."""
    data = json.loads(text)
    return {key: value for key, value in data.items() if key not in VERSIONS}


@pytest.mark.parametrize("name", FIXTURES)
def test_each_fixture_is_what_its_script_writes(fresh, name):
    stored = (ROOT / "tests" / "js" / "fixtures" / name).read_text(encoding="utf-8")
    assert "produced_by" in json.loads(stored), "a fixture names the script that made it"
    assert content(fresh[name]) == content(stored), f"rerun python tests/js/{FIXTURES[name][0]}"


def test_the_javascript_twins_agree_with_python(fresh, tmp_path):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail("REQUIRE_BROWSER=1 but node is missing")
        pytest.skip("node is missing")
    env = dict(os.environ)
    for name, (_, variable) in FIXTURES.items():
        (tmp_path / name).write_text(fresh[name], encoding="utf-8")
        env[variable] = str(tmp_path / name)
    done = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "# fail 0" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.M)
    # rules, twins, lessons, digits, calibration (38 tests) and decoding (7) ran
    assert passed and int(passed.group(1)) >= 45, done.stdout[-500:]
