"""`softmax-explainer serve --workers 2`: Debian's nginx in front of two app processes, driven in Chromium.

The page comes through the proxy, the lesson syncs with the process nginx chose (its address is the response's
X-Explainer-Worker header), that process is killed, the learner is told, the stack starts it again, and the
page's reconnect link reloads the whole lesson from a live process. nginx is installed by .ci/run; without it
the test skips, or fails under REQUIRE_BROWSER=1.
"""

import contextlib
import gzip
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from urllib.request import Request

import numpy as np
import pytest

import core
from app.stack import nginx_path
from tests.browser import lessonpage as lp
from tests.browser.conftest import ROOT, _missing, free_port, wait_serving

PID = re.compile(r"app process (\d+): pid (\d+) on 127\.0\.0\.1:(\d+)")


@contextlib.contextmanager
def class_stack(workers=2):
    """`python -m app serve --workers N` on a free port; yields (url, log, stack process)."""
    if nginx_path() is None:
        _missing("nginx is not installed (.ci/run installs Debian's nginx-light)")
    port = free_port()
    folder = tempfile.TemporaryDirectory()
    out = Path(folder.name) / "stack.log"
    with out.open("w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--workers", str(workers), "--port", str(port)],
                                cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
    read = lambda: out.read_text(errors="replace")  # noqa: E731
    try:
        wait_serving(f"http://127.0.0.1:{port}/healthz", alive=lambda: proc.poll() is None, log=read, timeout=120)
        yield f"http://localhost:{port}", read, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        text = read()
        folder.cleanup()
        assert proc.returncode == 0, text
        assert "Traceback" not in text, text


def workers(text):
    """{port: pid} of the app processes the stack's log names (the latest start of each)."""
    return {int(port): int(pid) for _, pid, port in PID.findall(text)}


def test_a_class_behind_nginx_survives_a_process_that_dies(new_page):
    with class_stack() as (url, read, stack):
        assert len(workers(read())) == 2
        p = new_page()
        response = p.pg.goto(f"{url}/main?z=1,2,3&T=0.5")
        port = int(response.headers["x-explainer-worker"].rsplit(":", 1)[1])
        lp.wait_ready(p.pg)
        lp.drag(p.pg, 0, 50)
        lp.click(p.pg, "add_one")
        lp.wait_state(p.pg, "(s) => s.z[1] === 3")
        np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax(lp.state(p.pg)["z"], T=0.5), rtol=1e-12)
        kept = lp.state(p.pg)

        os.kill(workers(read())[port], signal.SIGKILL)
        p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('connection')", timeout=10000)
        lp.drag(p.pg, 2, 40)  # the page keeps working without its process
        kept = lp.state(p.pg)
        p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('reconnect')", timeout=30000)
        link = f"Bokeh.index.find_one(({lp.FIND})('notice')).el.shadowRoot.querySelector('a')"
        p.pg.evaluate(f"() => {link}.click()")
        p.pg.wait_for_url(f"{url}/main?z=*")
        lp.wait_ready(p.pg)
        back = lp.state(p.pg)
        # The link writes each logit as its shortest decimal: -0.21 for -1.21 + 1 = -0.20999999999999996.
        np.testing.assert_allclose(back["z"], kept["z"], rtol=0, atol=1e-12)
        assert {**back, "z": kept["z"]} == {**kept, "notice": ""}
        lp.click(p.pg, "add_one")  # the new page works, on a connected session
        lp.wait_state(p.pg, f"(s) => Math.abs(s.z[0] - ({back['z'][0]}) - 1) < 1e-9")
        assert lp.text(p.pg, "notice") == ""
        p.errors.clear()  # the old page's socket errors as its process went away

        restarts = [line for line in read().splitlines() if "starting it again" in line]
        assert len(restarts) == 1, read()
        assert port in workers(read())  # started again on its own port


def test_the_stack_serves_the_exported_lesson_gzipped_and_answers_health_checks():
    with class_stack(workers=1) as (url, _, _stack):
        with urllib.request.urlopen(f"{url}/healthz", timeout=10) as r:
            assert r.read() == b"ok\n"
        with urllib.request.urlopen(f"{url}/liveness", timeout=10) as r:
            assert r.status == 200
        request = urllib.request.Request(f"{url}/explainer.html", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as r:
            assert r.headers["Content-Encoding"] == "gzip"
            assert r.headers["Content-Type"].startswith("text/html")
            body = r.read()
        html = gzip.decompress(body)
        assert len(body) < 0.5 * len(html) and b"softmax" in html
        # The page's explainer script, from the disk as it is: gzipped, and kept by the browser (app/page.py).
        page = urllib.request.urlopen(f"{url}/main", timeout=30).read().decode("utf-8")
        (src,) = re.findall(r'<script src="(explainer-static/[^"]+)"', page)
        with urllib.request.urlopen(Request(f"{url}/{src}", headers={"Accept-Encoding": "gzip"}), timeout=10) as r:
            assert r.headers["Content-Encoding"] == "gzip" and r.headers["Content-Type"] == "text/javascript"
            assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            script = gzip.decompress(r.read())
        assert b"embed_items" in script and len(page) < 20_000
        (css,) = re.findall(r'<link rel="stylesheet" href="(explainer-static/[^"]+)"', page)
        with urllib.request.urlopen(Request(f"{url}/{css}", headers={"Accept-Encoding": "gzip"}), timeout=10) as r:
            assert r.headers["Content-Encoding"] == "gzip" and r.headers["Content-Type"] == "text/css"
            assert b"@font-face" in gzip.decompress(r.read())


@pytest.mark.parametrize("args, says", [(["--workers", "0"], "--workers takes a whole number"),
                                        (["--workers", "2", "--port", "http"], "--port takes a port number")])
def test_bad_stack_options_stop_with_one_line(args, says):
    run = subprocess.run([sys.executable, "-m", "app", "serve", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2
    assert says in run.stderr and "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr
