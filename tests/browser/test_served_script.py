"""`python -m panel serve app/main.py`, exactly as the README starts it, serves a working lesson at /main."""

import contextlib
import subprocess
import sys

import numpy as np
import pytest

import core
from tests.browser import lessonpage as lp
from tests.browser.conftest import free_port, wait_serving


@contextlib.contextmanager
def panel_serve(*extra):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "panel", "serve", "app/main.py", "--port", str(port), "--address", "127.0.0.1",
         "--allow-websocket-origin", f"127.0.0.1:{port}", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/main"
    wait_serving(url, alive=lambda: proc.poll() is None)
    try:
        yield url
    finally:
        proc.terminate()
        log = proc.communicate(timeout=10)[0]
    assert "Traceback" not in log and "Error running application handler" not in log, log


@pytest.fixture(scope="module")
def script_url():
    with panel_serve() as url:
        yield url


def test_panel_serve_main_serves_the_lesson(script_url, new_page):
    url = script_url
    p = new_page()
    p.pg.goto(url)
    lp.wait_ready(p.pg)
    lp.drag(p.pg, 2, -80)
    z = np.array(lp.data(p.pg, "logits")["z"])
    assert z[2] > 0.1 + 0.5
    np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax(z), rtol=1e-9)
    assert p.errors == []


def test_panel_serve_in_korean(new_page):
    with panel_serve("--args", "--lang", "ko") as url:
        p = new_page()
        p.pg.goto(url)
        lp.wait_ready(p.pg)
        assert lp.text(p.pg, "readout-loss") == "손실 L = −ln py 0.417 내트 = 0.602 비트"
        assert p.errors == []
