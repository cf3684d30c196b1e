"""One hostile page against the served app: does anyone else notice?

    python tests/benchmarks/bench_hostile_load.py [--seconds 10] [--rate 5]

The app is served in this process as app/main.py serves it (app/server.py `install`, the websocket message
limit of `softmax-explainer serve`). Three measurements:

1. Server time to refuse one forged lesson text with a 4,000,000-character name, and with the largest message
   the websocket takes (WEBSOCKET_MAX: a 60,000-character name), in the view's own handler (median of 20).
2. Quiet, then while a hostile page writes such a 60 kB lesson text `--rate` times a second: another learner's
   page (the server's answer to GET /main, as the issue measured it, and navigation → the explainer ready in
   Chromium) and their gesture's trip to Python (the page's wire write → Python's handler, both clocks of this
   machine), for `--seconds` each.
3. The log: characters written per refused write.

Acceptance (issue 13): refusal under 50 ms, page load under 1 s, gesture under 200 ms, log under 1 kB a write.
"""

import argparse
import json
import logging
import statistics
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import panel as pn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from app import Explainer  # noqa: E402
from app.page import serve_session  # noqa: E402
from app.server import WEBSOCKET_MAX, install  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402
from tests.browser.conftest import free_port, wait_serving  # noqa: E402


def refusal_ms(name_length):
    explainer = Explainer()
    text = json.dumps({**explainer.lesson.state(), "names": ["x" * name_length, "dog", "bird"]})
    times = []
    for _ in range(20):
        start = time.perf_counter()
        explainer._from_page("text", None, text)
        times.append((time.perf_counter() - start) * 1000)
        explainer.lesson.notice = ""
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--rate", type=float, default=5)
    args = ap.parse_args()

    print(f"refusal, 4,000,000-character name: {refusal_ms(4_000_000):.2f} ms (median of 20)")
    print(f"refusal, 60,000-character name:    {refusal_ms(60_000):.2f} ms")

    install()
    arrivals, log_chars = [], [0]

    class Count(logging.Handler):
        def emit(self, record):
            log_chars[0] += len(self.format(record))

    logging.getLogger("softmax_explainer").addHandler(Count())
    logging.getLogger("softmax_explainer").propagate = False  # counted, not printed

    def app():
        session = serve_session()
        session._wire.on_change("text", lambda attr, old, new: arrivals.append(time.time() * 1000))

    port = free_port()
    server = pn.serve({"main": app}, port=port, address="127.0.0.1", show=False, threaded=True, location=False,
                      websocket_origin=[f"127.0.0.1:{port}"], websocket_max_message_size=WEBSOCKET_MAX)
    url = f"http://127.0.0.1:{port}/main"
    wait_serving(url)
    forged = f"JSON.stringify({{...s, names: ['x'.repeat({60_000}), 'dog', 'bird']}})"

    with sync_playwright() as pw:
        browser = chromium.launch(pw)

        def learner(label):
            answers, readies, trips = [], [], []
            deadline = time.monotonic() + args.seconds
            while time.monotonic() < deadline:
                start = time.perf_counter()
                urllib.request.urlopen(url).read()
                answers.append((time.perf_counter() - start) * 1000)
                page = browser.new_page()
                start = time.perf_counter()
                page.goto(url)
                lp.wait_ready(page)
                readies.append((time.perf_counter() - start) * 1000)
                page.evaluate(f"() => {{ const w = ({lp.FIND})('wire');"
                              " w.properties.text.change.connect(() => { window.__wrote = Date.now(); }); }")
                for dy in (30, -30):
                    before = len(arrivals)
                    lp.drag(page, 0, dy, steps=5)
                    lp.wait_until(lambda b=before: len(arrivals) > b, timeout=10)
                    trips.append(arrivals[-1] - page.evaluate("() => window.__wrote"))
                page.close()
            p95 = statistics.quantiles(trips, n=20, method="inclusive")[-1]
            print(f"{label}: GET /main p50 {statistics.median(answers):.0f} ms, max {max(answers):.0f} ms; "
                  f"explainer ready p50 {statistics.median(readies):.0f} ms, max {max(readies):.0f} ms "
                  f"({len(readies)} pages); gesture to Python p95 {p95:.1f} ms, max {max(trips):.1f} ms")

        learner("quiet")
        hostile = browser.new_page()
        hostile.goto(url)
        lp.wait_ready(hostile)
        before_log = log_chars[0]
        # The hostile page times its own writes (each one differs, so each is a message).
        hostile.evaluate(f"""() => {{ const w = ({lp.FIND})('wire'); const s = ({lp.FIND})('lesson').state;
            window.__writes = 0; window.__attack = setInterval(() => {{
              window.__writes += 1; w.text = {forged} + ' '.repeat(window.__writes % 7); }}, {1000 / args.rate}); }}""")
        learner(f"with a hostile page writing {args.rate:g}/s")
        written = hostile.evaluate("() => { clearInterval(window.__attack); return window.__writes; }")
        print(f"log: {(log_chars[0] - before_log) / max(written, 1):.0f} characters per refused write "
              f"({written} writes)")
        browser.close()
    server.stop()


if __name__ == "__main__":
    main()
