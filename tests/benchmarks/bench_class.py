"""A class opening the served app in the same ten seconds: one process alone, then the stack behind nginx.

    python tests/benchmarks/bench_class.py [--students 60] [--within 10] [--workers 2] [--rounds 2] [--browsers 3]

Each target is started here on the loopback: `softmax-explainer serve` (one process, with the stack's options for a
class: app/stack.py CLASS_OPTIONS), then `softmax-explainer serve --workers N`. For each round, S students start at
even steps within W seconds. Each does what a browser does on a first visit: fetches the page and the explainer's
script and fonts it links (gzip accepted; app/page.py), then opens the page's own session
(`bokeh.client.pull_session` with the session id of the page's token and the page's cookie, which keeps it on the
page's process behind nginx), times its first document, makes one gesture (one lesson write on the session's wire,
then a round trip to the server, which answers after it has taken the write) and leaves. A few Chromium pages open
among them and time the explainer ready. Then the class has left: the sessions are freed once unused (5 s) and the
memory is read again.

It prints first-document p50/p95, the gesture round trip's p95, errors, the server's CPU per session (the app
processes', and nginx's in front of them), their memory before, at its peak and after each round, and the page's
size as sent. The students run in this process (their pages and documents are read here too), on the same
two cores as the servers: a real class brings its own machines. Bounded: it stops by itself, and every server
it started is stopped.
"""

import argparse
import gzip
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urljoin
from urllib.request import Request, urlopen

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
# The students sign their session ids with the servers' key; set before Bokeh is imported (Panel's import reads
# the settings once, and a key set later is not the clients').
os.environ.update(BOKEH_SECRET_KEY=secrets.token_urlsafe(32), BOKEH_SIGN_SESSIONS="yes")

import bokeh.client.connection  # noqa: E402
from bokeh.util.token import get_session_id  # noqa: E402
from tornado.httpclient import HTTPRequest  # noqa: E402

import app.document  # noqa: E402, F401 - the wire's model class, which a session's document holds
from app.stack import CLASS_OPTIONS, free_port  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")
PID = re.compile(r"app process (\d+): pid (\d+)")
FREED_S = 12  # unused sessions last 5 s and are looked for every 2 s


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def nginx_pids(root):
    """nginx's master and workers among the descendants of process `root`."""
    parent, name = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        pid, rest = int(stat.parent.name), text.rsplit(")", 1)
        name[pid], parent[pid] = rest[0].split("(", 1)[1], int(rest[1].split()[1])

    def under(pid):
        while pid in parent and pid != root:
            pid = parent[pid]
        return pid == root

    return [pid for pid in parent if name[pid] == "nginx" and under(pid)]


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Target:
    """A server started here: its URL, its app processes' pids, and how to stop it."""

    def __init__(self, name, extra):
        self.name, self.port = name, free_port()
        self.log = Path(f"/tmp/bench-class-{self.port}.log")
        with self.log.open("w") as f:
            self.proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(self.port), *extra],
                                         cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=os.environ)
        self.url = f"http://localhost:{self.port}/main"
        deadline = time.monotonic() + 180
        while True:
            try:
                with urlopen(f"http://127.0.0.1:{self.port}/liveness", timeout=10):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"{name} did not start:\n{self.log.read_text()}") from None
                time.sleep(0.3)

    def pids(self):
        """The app processes, and nginx's when it is in front: the proxy's gzip is the server's work too."""
        found = {int(n): int(pid) for n, pid in PID.findall(self.log.read_text())}
        return (list(found.values()) or [self.proc.pid]) + nginx_pids(self.proc.pid)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if os.environ.get("BENCH_KEEP_LOG") != "1":
            self.log.unlink(missing_ok=True)


# bokeh.client sends no cookie with its websocket, and nginx keeps a visitor on their process by one (app/stack.py):
# each student's thread gives its page's cookie to the websocket request as a browser would.
_visitor = threading.local()


def _with_cookie(url, **kwargs):
    cookie = getattr(_visitor, "cookie", None)
    return HTTPRequest(url, headers={"Cookie": cookie} if cookie else None, **kwargs)


bokeh.client.connection.HTTPRequest = _with_cookie
TOKEN = re.compile(r'"token":"([\w.-]+)"')
LINKED = re.compile(r'(?:src|href)="(explainer-static/[^"]+)"')  # the explainer's script and the fonts' style


def session_id_of(page):
    """The session id that the served page's token names (Bokeh's own reading of it)."""
    return get_session_id(TOKEN.search(page).group(1))


def student(url, out):
    """A visitor as a browser is one: the page (its HTML holds the explainer), then the page's own session over
    the websocket, with the page's cookie; one lesson write and its round trip; gone."""
    from bokeh.client import pull_session

    t0 = time.perf_counter()
    try:
        with urlopen(Request(url, headers={"Accept-Encoding": "gzip"}), timeout=120) as r:
            body = r.read()
            page = (gzip.decompress(body) if r.headers.get("Content-Encoding") == "gzip" else body).decode("utf-8")
            _visitor.cookie = "; ".join(c.split(";", 1)[0] for c in r.headers.get_all("Set-Cookie") or [])
        sent = len(body)
        for src in LINKED.findall(page):  # a first visit: the browser keeps them after
            headers = {"Accept-Encoding": "gzip", "Cookie": _visitor.cookie}
            with urlopen(Request(urljoin(url, src), headers=headers), timeout=120) as r:
                sent += len(r.read())
        session = pull_session(session_id=session_id_of(page), url=url)
        t1 = time.perf_counter()
        wire = session.document.select_one({"name": "session_wire"})
        state = json.loads(wire.text) if wire.text else {}
        state["T"] = 2.0
        wire.text = json.dumps(state)
        session.force_roundtrip()
        t2 = time.perf_counter()
        session.close()
        out.append((t1 - t0, t2 - t1, None, sent))
    except Exception as e:  # noqa: BLE001 - a student who could not join is counted, not fatal
        out.append((None, None, f"{type(e).__name__}: {e}"[:200], 0))


def browsers(url, n, within, out):
    from playwright.sync_api import sync_playwright

    from tests.browser import chromium
    from tests.browser import lessonpage as lp

    with sync_playwright() as pw:
        b = chromium.launch(pw)
        for _ in range(n):
            time.sleep(within / (n + 1))
            pg = b.new_page(viewport={"width": 1280, "height": 960})
            t0 = time.perf_counter()
            try:
                pg.goto(url)
                lp.wait_ready(pg, timeout=60000)
                out.append(time.perf_counter() - t0)
            except Exception:  # noqa: BLE001
                out.append(None)
            pg.close()
        b.close()


def p95(values):
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


def one_round(target, students, within, n_browsers):
    pids = target.pids()
    cpu0, rss0 = sum(map(cpu_seconds, pids)), sum(map(rss_mb, pids))
    results, seen, peak = [], [], [rss0]
    stop = threading.Event()

    def watch():
        while not stop.wait(0.5):
            peak.append(sum(map(rss_mb, target.pids())))

    threads = [threading.Thread(target=watch)]
    if n_browsers:
        threads.append(threading.Thread(target=browsers, args=(target.url, n_browsers, within, seen)))
    for t in threads:
        t.start()
    start = time.perf_counter()
    class_threads = []
    for i in range(students):
        time.sleep(max(0.0, start + i * within / students - time.perf_counter()))
        t = threading.Thread(target=student, args=(target.url, results))
        t.start()
        class_threads.append(t)
    for t in class_threads:
        t.join(timeout=300)
    for t in threads[1:]:
        t.join(timeout=300)
    cpu1 = sum(map(cpu_seconds, target.pids()))
    time.sleep(FREED_S)
    stop.set()
    threads[0].join()
    rss_after = sum(map(rss_mb, target.pids()))
    docs = [d for d, _, e, _ in results if e is None]
    trips = [r for _, r, e, _ in results if e is None]
    errors = [e for _, _, e, _ in results if e is not None]
    sent = [n for _, _, e, n in results if e is None]
    nan = float("nan")
    return {"doc_p50": statistics.median(docs) if docs else nan, "doc_p95": p95(docs) if docs else nan,
            "trip_p95": p95(trips) * 1000 if trips else nan, "errors": errors,
            "cpu_ms": (cpu1 - cpu0) / students * 1000, "rss": (rss0, max(peak), rss_after),
            "browsers": seen, "page_kb": statistics.median(sent) / 1000 if sent else nan}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=60)
    ap.add_argument("--within", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--browsers", type=int, default=3)
    args = ap.parse_args()
    targets = [("one process", ["--address", "127.0.0.1", *CLASS_OPTIONS]),
               (f"--workers {args.workers} behind nginx", ["--workers", str(args.workers)])]
    print(f"{args.students} students within {args.within:g} s, {args.rounds} rounds, {args.browsers} Chromium pages "
          "each round")
    print(f"{'target':28} {'round':>5} {'doc p50 s':>9} {'p95 s':>6} {'gesture p95 ms':>14} {'errors':>6} "
          f"{'CPU/session ms':>14} {'RSS MB before/peak/after':>25} {'kB sent':>12} {'Chromium ready s':>16}")
    for name, extra in targets:
        target = Target(name, extra)
        try:
            for r in range(args.rounds):
                got = one_round(target, args.students, args.within, args.browsers)
                rss = "/".join(f"{v:.0f}" for v in got["rss"])
                ready = ", ".join("failed" if s is None else f"{s:.1f}" for s in got["browsers"])
                print(f"{name:28} {r + 1:5d} {got['doc_p50']:9.2f} {got['doc_p95']:6.2f} {got['trip_p95']:14.1f} "
                      f"{len(got['errors']):6d} {got['cpu_ms']:14.0f} {rss:>25} {got['page_kb']:12.0f} {ready:>16}",
                      flush=True)
                for e in sorted(set(got["errors"]))[:3]:
                    print(f"    error: {e}")
        finally:
            target.stop()


if __name__ == "__main__":
    main()
