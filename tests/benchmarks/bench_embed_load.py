"""Twenty requests for the embedded app's autoload.js, four at a time: does another visitor notice?

    python tests/benchmarks/bench_embed_load.py [--trials 6] [--requests 20] [--concurrency 4] [--workers 2]

Each target is started here on the loopback, as tests/benchmarks/bench_class.py starts them: `softmax-explainer
serve` (one process, with the stack's options for a class), then `softmax-explainer serve --workers N` behind nginx.
Another visitor has the page open: their session (a student of bench_class.py's, the page's own session with its
cookie) makes a gesture every GESTURE_EVERY_S, one lesson written on the wire, and times its round trip to the
server (`force_roundtrip`). Trials alternate quiet and loaded; in each, the visitor also opens the page in Chromium
until the explainer is ready (lessonpage.wait_ready). A loaded trial starts, at the same moment, `--requests` GETs of
/main/autoload.js, `--concurrency` at a time: what Bokeh's `server_document` tag asks for (no cookie, no signature
needed), with a lesson in its arguments. The trial lasts until the page is ready and the requests are answered;
the gestures made meanwhile are that trial's.

Each such request built a whole explainer in its session (0.4-0.6 s of the server's CPU, 5 MB) until an embed's
session became a page's session of a wire (app/page.py): 20 of them, 4 at a time, took another visitor's gesture
from 0.09 s to 10 s and their page load from 0.9 s to 5 s. It prints the page load and the gesture round trip quiet
and loaded (p50 / p95, and the worst) and their ratio (issue 36's acceptance: within 2x), and the requests' time.
"""

import argparse
import json
import multiprocessing
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote
from urllib.request import Request, urlopen

sys.path.insert(0, str(Path(__file__).resolve().parent))
# bench_class sets the servers' session key and the students' cookies before Bokeh is imported.
import bench_class  # noqa: E402
from bench_class import CLASS_OPTIONS, Target, p95, session_id_of  # noqa: E402

from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402

GESTURE_EVERY_S = 0.05
SETTLE_S = 1.0  # between trials: the last trial's sessions and requests are done


def autoload_url(url, i):
    """What `server_document(url, arguments={"z": "1,2,3", "T": "0.5"})` makes the embedding page ask for."""
    return (f"{url}/autoload.js?bokeh-autoload-element=e{i}&bokeh-app-path=/main&bokeh-absolute-url={quote(url)}"
            "&z=1,2,3&T=0.5")


# The loads, each `--requests` GETs `--concurrency` at a time: the embed's autoload.js; its peer, the page itself
# (what the embed must not cost more than); and a control, Bokeh's metadata (no session: the requests alone).
LOADS = {"autoload": autoload_url, "page": lambda url, i: f"{url}?z=1,2,3&T=0.5",
         "metadata": lambda url, i: f"{url}/metadata"}


def requests_of(load, url, requests, concurrency):
    """`requests` GETs of `load`, `concurrency` at a time: [(seconds, error or None)]."""

    def one(i):
        start = time.perf_counter()
        try:
            with urlopen(LOADS[load](url, i), timeout=300) as r:
                r.read()
            return time.perf_counter() - start, None
        except Exception as e:  # noqa: BLE001 - a refused request is counted, not fatal
            return time.perf_counter() - start, f"{type(e).__name__}: {e}"[:120]

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(one, range(requests)))


def other_client(conn):
    """Another client, in a process of its own as it would be on another machine (in the visitor's process its
    threads took the visitor's GIL): each (load, url, requests, concurrency) it receives, it requests and answers
    with `requests_of`' results; None stops it."""
    for job in iter(conn.recv, None):
        conn.send(requests_of(*job))


def gestures(url, stop, out):
    """The visitor's open page: its session, and a gesture every GESTURE_EVERY_S until `stop`: (when it began,
    seconds)."""
    from bokeh.client import pull_session

    with urlopen(Request(url), timeout=120) as r:
        page = r.read().decode("utf-8")
        bench_class._visitor.cookie = "; ".join(c.split(";", 1)[0] for c in r.headers.get_all("Set-Cookie") or [])
    session = pull_session(session_id=session_id_of(page), url=url)
    wire = session.document.select_one({"name": "session_wire"})
    state, T = {}, 1.0
    while not stop.is_set():
        T = 3.0 - T  # 1 and 2 in turn: each gesture is a change
        state["T"] = T
        when, start = time.monotonic(), time.perf_counter()
        wire.text = json.dumps(state)
        session.force_roundtrip()
        out.append((when, time.perf_counter() - start))
        time.sleep(GESTURE_EVERY_S)
    session.close()


def trial(url, browser, load, args, client):
    """(page load s, (start, end) of the window, [request results]) of one trial with `load` (None: quiet);
    `client` is the connection to `other_client`."""
    results = []

    def requests():
        client.send((load, url, args.requests, args.concurrency))
        results.extend(client.recv())

    loader = threading.Thread(target=requests)
    begin = time.monotonic()
    if load:
        loader.start()
    page = browser.new_page(viewport={"width": 1280, "height": 960})
    start = time.perf_counter()
    page.goto(url)
    lp.wait_ready(page, timeout=300000)
    ready = time.perf_counter() - start
    page.close()
    if load:
        loader.join()
    return ready, (begin, time.monotonic()), results


def summary(values, scale):
    if not values:
        return "none"
    return f"{statistics.median(values) * scale:7.2f} / {p95(values) * scale:7.2f} (worst {max(values) * scale:7.2f})"


def ratio(values, quiet):
    """p50 / p95 of `values` over those of `quiet`."""
    return f"{statistics.median(values) / statistics.median(quiet):.2f} / {p95(values) / p95(quiet):.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=6, help="of each kind: quiet, then each load, in turn")
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    targets = [("one process", ["--address", "127.0.0.1", *CLASS_OPTIONS]),
               (f"--workers {args.workers} behind nginx", ["--workers", str(args.workers)])]
    kinds = (None, *LOADS)
    print(f"another visitor, {args.trials} trials each quiet and with {args.requests} requests {args.concurrency} at a "
          f"time of {', '.join(LOADS)}; p50 / p95 (worst), and the ratio to quiet")
    from playwright.sync_api import sync_playwright

    client, theirs = multiprocessing.Pipe()
    other = multiprocessing.get_context("spawn").Process(target=other_client, args=(theirs,), daemon=True)
    other.start()
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        for name, extra in targets:
            target = Target(name, extra)
            stop, trips = threading.Event(), []
            visitor = threading.Thread(target=gestures, args=(target.url, stop, trips))
            runs = {kind: [] for kind in kinds}
            try:
                visitor.start()
                lp.wait_until(lambda t=trips: len(t) > 5, timeout=120)
                for i in range(args.trials * len(kinds)):
                    kind = kinds[i % len(kinds)]
                    runs[kind].append(trial(target.url, browser, kind, args, client))
                    time.sleep(SETTLE_S)
                stop.set()
                visitor.join()
            finally:
                stop.set()
                target.stop()
            print(name)
            figures = {}
            for kind in kinds:
                windows = [w for _, w, _ in runs[kind]]
                pages = [r for r, _, _ in runs[kind]]
                during = [s for when, s in trips if any(a <= when <= b for a, b in windows)]
                figures[kind] = pages, during
                quiet_pages, quiet_trips = figures[None]
                ratios = (f"   ratio page load {ratio(pages, quiet_pages)}, gesture {ratio(during, quiet_trips)}"
                          if kind else "")
                print(f"  {kind or 'quiet':8} page load in Chromium {summary(pages, 1)} s   gesture round trip "
                      f"{summary(during, 1000)} ms ({len(during)}){ratios}")
                served = [r for _, _, results in runs[kind] for r in results]
                if served:
                    times = [s for s, e in served if e is None] or [float("nan")]
                    errors = [e for _, e in served if e is not None]
                    example = f" (e.g. {errors[0]})" if errors else ""
                    print(f"           its {len(served)} requests: p50 / p95 {statistics.median(times) * 1000:.0f} / "
                          f"{p95(times) * 1000:.0f} ms, {len(errors)} errors{example}", flush=True)
        browser.close()
    client.send(None)
    other.join()


if __name__ == "__main__":
    main()
