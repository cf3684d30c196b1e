"""`python -m panel serve app/main.py`, exactly as the README starts it, serves a working lesson at /main; so does
`softmax-explainer serve` (`python -m app serve`), whose pages link their explainer as a script browsers keep.

Also: bad `--args` stop the server at start with one line (with --warm, as the README and
`softmax-explainer serve` run it), and without --warm a visitor sees that line while the server lives on.
"""

import contextlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import core
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.conftest import ROOT, free_port, wait_serving


@contextlib.contextmanager
def panel_serve(*extra, command=("-m", "panel", "serve", "app/main.py")):
    port = free_port()
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(
        [sys.executable, *command, "--port", str(port), "--address", "127.0.0.1",
         "--allow-websocket-origin", f"127.0.0.1:{port}", *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True)

    def read_log():
        log.seek(0)
        return log.read()

    url = f"http://127.0.0.1:{port}/main"
    try:
        wait_serving(url, alive=lambda: proc.poll() is None, log=read_log)
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = read_log()
    assert "Traceback" not in text and "Error running application handler" not in text, text


@pytest.fixture(scope="module")
def script_url():
    with panel_serve("--warm") as (url, _):
        yield url


def test_panel_serve_main_serves_the_lesson(script_url, new_page):
    p = new_page()
    p.pg.goto(script_url)
    lp.wait_ready(p.pg)
    lp.drag(p.pg, 2, -80)
    z = np.array(lp.data(p.pg, "logits")["z"])
    assert z[2] > 0.1 + 0.5
    np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax(z), rtol=1e-9)
    assert p.errors == []


def test_the_query_opens_its_lesson(script_url, new_page):
    p = new_page()
    p.pg.goto(script_url + "?z=-1,3,0.5&T=0.5&y=2")
    lp.wait_ready(p.pg)
    s = lp.state(p.pg)
    assert (s["z"], s["T"], s["y"], s["notice"]) == ([-1.0, 3.0, 0.5], 0.5, 2, "")
    np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax([-1, 3, 0.5], T=0.5), rtol=1e-12)


def test_panel_serve_in_korean(new_page):
    with panel_serve("--warm", "--args", "--lang", "ko") as (url, _):
        p = new_page()
        p.pg.goto(url)
        lp.wait_ready(p.pg)
        assert lp.text(p.pg, "readout-loss").startswith("손실 L = −ln py 0.417 내트 = 0.602 비트")
        assert lp.data(p.pg, "logits")["name"] == ["고양이", "개", "새"]
        # The title the server writes, before any script runs (a tab that is still loading, a link preview).
        served_html = urllib.request.urlopen(url, timeout=30).read().decode("utf-8")
        assert f"<title>{TEXT['ko']['title']}</title>" in served_html
        assert p.errors == []


def test_softmax_explainer_serve_links_its_explainer_as_a_script_browsers_keep(new_page):
    """The page's HTML is its links (a few kB, not 1.2 MB), its explainer one script a language and its fonts
    one style, each named by its content's hash and sent with a cache time of years; the lesson works from
    them, in either language, with the page's own Hangul."""
    extra = Path(tempfile.mkdtemp())
    (extra / "note.txt").write_text("the instructor's own file", encoding="utf-8")
    with panel_serve(f"--static-dirs=notes={extra}", command=("-m", "app", "serve")) as (url, _):
        # An instructor's own --static-dirs are served beside the explainer's (app/server.py with_static_dir).
        with urllib.request.urlopen(f"{url.rsplit('/', 1)[0]}/notes/note.txt", timeout=30) as r:
            assert r.read() == b"the instructor's own file"
        scripts = {}
        for lang in ("en", "ko"):
            html = urllib.request.urlopen(f"{url}?lang={lang}", timeout=30).read().decode("utf-8")
            (src,) = re.findall(r'<script src="(explainer-static/explainer-[a-z]+-[0-9a-f]{12}\.js\?v=[0-9a-f]{12})"',
                                html)
            assert len(html) < 20_000, len(html)
            with urllib.request.urlopen(f"{url.rsplit('/', 1)[0]}/{src}", timeout=30) as r:
                age = int(r.headers["Cache-Control"].removeprefix("max-age="))
                assert age >= 365 * 24 * 3600 and r.headers["Content-Type"] == "application/javascript"
                assert b"embed_items" in r.read()
            scripts[lang] = src
        assert scripts["en"] != scripts["ko"] and f"-{'ko'}-" in scripts["ko"]
        p = new_page()
        p.pg.goto(f"{url}?lang=ko&z=-1,3,0.5&T=0.5")
        lp.wait_ready(p.pg)
        lp.drag(p.pg, 2, -80)
        s = lp.state(p.pg)
        assert s["z"][2] > 0.5 + 0.5 and lp.data(p.pg, "logits")["name"] == ["고양이", "개", "새"]
        faces = p.pg.evaluate("() => [...document.fonts].map((f) => `${f.family} ${f.weight} ${f.status}`)")
        assert sorted(faces) == ["SX Hangul 400 loaded", "SX Hangul 700 loaded"], faces
        np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax(s["z"], T=0.5), rtol=1e-9)
        assert p.errors == []


def run_to_exit(*args):
    port = free_port()
    return subprocess.run([sys.executable, "-m", "panel", "serve", "app/main.py", "--port", str(port),
                           "--address", "127.0.0.1", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [["--lang", "xx"], ["--nope"], ["--lang"]])
def test_bad_args_stop_the_server_at_start_with_one_line(args):
    done = run_to_exit("--warm", "--args", *args)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("app/main.py: error:")]
    assert len(lines) == 1 and "usage: panel serve app/main.py" in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_help_prints_usage_and_stops():
    done = run_to_exit("--warm", "--args", "--help")
    assert done.returncode == 0 and "usage: panel serve app/main.py" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_warm_a_bad_arg_is_shown_to_the_visitor_and_the_server_lives(new_page):
    with panel_serve("--args", "--lang", "xx") as (url, proc):
        p = new_page()
        for _ in range(2):  # the first visitor found the server dying before
            p.pg.goto(url)
            p.pg.wait_for_selector("text=app/main.py: error:", timeout=30000)
        time.sleep(0.5)
        assert proc.poll() is None, "the server died at a visitor"
