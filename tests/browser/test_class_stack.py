"""`softmax-explainer serve --workers 2`: Debian's nginx in front of two app processes, driven in Chromium.

The page comes through the proxy, the lesson syncs with the process nginx chose (its address is the response's
X-Explainer-Worker header), every process is killed and kept down, the learner is told and is not told the server
is back while nginx alone answers, the stack starts them again, and the page's reconnect link reloads the whole
lesson from a live process; a stack killed outright takes nginx and its processes with it. nginx is installed by
.ci/run; without it the test skips, or fails under REQUIRE_BROWSER=1.
"""

import contextlib
import functools
import gzip
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.request import Request

import numpy as np
import pytest
from bokeh.embed import server_document

import core
from app.stack import nginx_path
from tests.browser import lessonpage as lp
from tests.browser.conftest import ROOT, _missing, free_port, wait_serving
from tests.browser.test_embed import Quiet

PID = re.compile(r"app process (\d+): pid (\d+) on 127\.0\.0\.1:(\d+)")


@contextlib.contextmanager
def class_stack(workers=2, *extra):
    """`python -m app serve --workers N` on a free port; yields (url, log, stack process). A test may kill the stack
    itself; else it is stopped as a service manager stops it, and must exit cleanly."""
    if nginx_path() is None:
        _missing("nginx is not installed (.ci/run installs Debian's nginx-light)")
    port = free_port()
    folder = tempfile.TemporaryDirectory()
    out = Path(folder.name) / "stack.log"
    with out.open("w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--workers", str(workers), "--port", str(port),
                                 *extra], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
    read = lambda: out.read_text(errors="replace")  # noqa: E731
    try:
        # nginx answers first (its /healthz); the stack says when its processes answer too.
        wait_serving(f"http://127.0.0.1:{port}/healthz", alive=lambda: proc.poll() is None, log=read, timeout=120)
        deadline = time.monotonic() + 120
        while "serving a class at" not in read():
            assert proc.poll() is None and time.monotonic() < deadline, read()
            time.sleep(0.2)
        yield f"http://localhost:{port}", read, proc
    finally:
        killed = proc.poll() is not None
        if not killed:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        text = read()
        folder.cleanup()
        assert killed or proc.returncode == 0, text
        assert "Traceback" not in text, text


def workers(text):
    """{port: pid} of the app processes the stack's log names (the latest start of each)."""
    return {int(port): int(pid) for _, pid, port in PID.findall(text)}


def gone(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"  # dead, not yet reaped
    except FileNotFoundError:
        return True


def test_a_class_behind_nginx_is_told_the_server_is_back_only_when_a_process_answers(new_page):
    """Every app process dies and stays down (the supervisor is stopped): the learners are told, the page keeps
    working, and nginx's own answer (502) is not taken for the server's return. Let go, the supervisor starts them
    again on their ports; the page says the server is back and its link reloads the whole lesson from a process.
    Then the stack is killed outright: nginx and the app processes die with it and the port is free."""
    with class_stack() as (url, read, stack):
        assert len(workers(read())) == 2
        p = new_page()
        response = p.pg.goto(f"{url}/main?z=1,2,3&T=0.5")
        assert response.headers["x-explainer-worker"].rsplit(":", 1)[1].isdigit()
        lp.wait_ready(p.pg)
        lp.drag(p.pg, 0, 50)
        lp.click(p.pg, "add_one")
        lp.wait_state(p.pg, "(s) => s.z[1] === 3")
        np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax(lp.state(p.pg)["z"], T=0.5), rtol=1e-12)

        down = workers(read())
        stack.send_signal(signal.SIGSTOP)  # it restarts nobody until it is let go
        try:
            for pid in down.values():
                os.kill(pid, signal.SIGKILL)
            p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('connection')", timeout=10000)
            lp.drag(p.pg, 2, 40)  # the page keeps working without its process
            kept = lp.state(p.pg)
            # The page asks again and again, and nginx answers each time (502), for nobody behind it: until three
            # answers, the page must not say the server is back.
            p.pg.wait_for_function(f"""() => ({lp.FIND})('notice').text.includes('reconnect')
                || performance.getEntriesByType('resource').filter((e) => e.responseStatus === 502).length >= 3""",
                                   timeout=20000)
            assert "reconnect" not in lp.text(p.pg, "notice"), "nginx's 502 is not the server"
        finally:
            stack.send_signal(signal.SIGCONT)
        p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('reconnect')", timeout=90000)
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
        p.errors.clear()  # the old page's socket errors and its polls' 502s while its processes were down

        restarts = [line for line in read().splitlines() if "starting it again" in line]
        assert len(restarts) == 2, read()
        assert set(workers(read())) == set(down), "started again on their own ports"

        children = [*workers(read()).values(), int(re.search(r"nginx pid (\d+)", read()).group(1))]
        stack.kill()
        stack.wait(timeout=10)
        lp.wait_until(lambda: all(gone(pid) for pid in children), timeout=10)
        port = int(url.rsplit(":", 1)[1])
        with socket.socket() as free:
            free.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as nginx binds: past closed connections
            free.bind(("127.0.0.1", port))  # nothing listens on the class's port


def test_the_stack_serves_the_exported_lesson_gzipped_and_answers_health_checks(new_page, tmp_path):
    course = free_port()
    with class_stack(1, "--allow-websocket-origin", f"127.0.0.1:{course}") as (url, _, _stack):
        with urllib.request.urlopen(f"{url}/healthz", timeout=10) as r:
            assert r.read() == b"ok\n"
        with urllib.request.urlopen(f"{url}/liveness", timeout=10) as r:
            assert r.status == 200
        # Panel's check of the app itself builds a document: a session of a wire, as a page's (it logged a
        # traceback: the document has no session).
        with urllib.request.urlopen(f"{url}/liveness?endpoint=/main", timeout=10) as r:
            assert json.loads(r.read()) == {"/main": True}
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
        # An app embedded in a course page of another site: the bridge loads the explainer's script from nginx.
        tag = server_document(f"{url}/main")
        (tmp_path / "course.html").write_text(f"<!doctype html><title>Course</title><h1>Softmax</h1>{tag}",
                                              encoding="utf-8")
        (tmp_path / "favicon.ico").write_bytes(b"")
        site = ThreadingHTTPServer(("127.0.0.1", course), functools.partial(Quiet, directory=tmp_path))
        threading.Thread(target=site.serve_forever, daemon=True).start()
        try:
            p = new_page()
            p.pg.goto(f"http://127.0.0.1:{course}/course.html")
            lp.wait_ready(p.pg)
            assert f"{url}/{src.split('?')[0]}" in [r.split("?")[0] for r in p.requests], "the shared file"
            lp.drag(p.pg, 0, 40)
            assert lp.state(p.pg)["z"][0] < 2.0
            assert p.errors == [], p.errors
        finally:
            site.shutdown()


def test_a_port_nginx_cannot_have_is_said_at_once():
    """nginx starts first, and its reason is the stack's last line (it was a bare "nginx stopped")."""
    if nginx_path() is None:
        _missing("nginx is not installed (.ci/run installs Debian's nginx-light)")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        run = subprocess.run([sys.executable, "-m", "app", "serve", "--workers", "1", "--port",
                              str(held.getsockname()[1])], cwd=ROOT, capture_output=True, text=True, timeout=120)
    last = run.stderr.strip().splitlines()[-1]
    assert run.returncode == 1 and "nginx stopped" in last and "Address already in use" in last, run.stderr
    assert "app process" not in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("args, says", [(["--workers", "0"], "--workers takes a whole number"),
                                        (["--workers", "2", "--port", "http"], "--port takes a port number")])
def test_bad_stack_options_stop_with_one_line(args, says):
    run = subprocess.run([sys.executable, "-m", "app", "serve", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2
    assert says in run.stderr and "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr
