"""Opening the exported page in Chromium four ways, as the browser tests may: the CPU and the time to ready.

    python tests/benchmarks/bench_tabs.py [--rounds 6]

Each round opens the page once each way, in turn: in a browser context of its own (a fresh profile's
processes and caches), as a tab of one shared context, as a tab of that context beside an idle tab kept on
the same file (tests/browser/conftest.py `Page`: the new tab starts in the idle tab's renderer, whose scripts are
compiled already), and that third way in Chromium's headless shell, which runs the browser tests
(tests/browser/chromium.py `shell`; left out when it is not installed). Ready is `lessonpage.wait_ready`; the
CPU is the whole machine's busy time from the start of the load until 1.5 s after ready (every process the
browser runs, the page's last frames included), so run it on a quiet machine. The first round is a warm-up,
left out. Ratios are to the context of its own.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import page_html  # noqa: E402
from app.state import Lesson  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402

SIZE = {"width": 1280, "height": 960}
WAYS = ["a context of its own", "a tab of a shared context", "a tab beside an idle tab of the file",
        "the same in the headless shell"]


def busy_seconds():
    """The machine's CPU time spent outside idle and I/O wait since boot (/proc/stat), in seconds."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / 100


def open_once(browser, shared, way, url):
    cpu, t0 = busy_seconds(), time.monotonic()
    context = browser.new_context(viewport=SIZE) if way == WAYS[0] else shared[way]
    page = context.new_page()
    page.goto(url)
    lp.wait_ready(page)
    ready = time.monotonic() - t0
    time.sleep(1.5)
    cpu = busy_seconds() - cpu
    (context if way == WAYS[0] else page).close()
    return ready, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    args = ap.parse_args()
    path = Path(tempfile.mkdtemp()) / "explainer.html"
    path.write_text(page_html(Lesson()), encoding="utf-8")
    url = path.as_uri()
    ways = WAYS if chromium.shell() != chromium.executable() else WAYS[:3]
    figures = {way: [] for way in ways}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        shell = chromium.launch(pw, chromium.shell())
        shared = {way: (shell if way == WAYS[3] else browser).new_context(viewport=SIZE) for way in ways[1:]}
        for way in ways[2:]:
            shared[way].new_page().goto(url, wait_until="load")  # the idle tab
        for k in range(args.rounds):
            for way in ways:
                ready, cpu = open_once(browser, shared, way, f"{url}#z=1,2,{k}")
                if k:
                    figures[way].append((ready, cpu))
        browser.close()
        shell.close()
    base_ready, base_cpu = (statistics.median(v[i] for v in figures[WAYS[0]]) for i in (0, 1))
    print(f"the exported page opened {args.rounds - 1} times each way (medians; ratios to a context of its own)")
    for way in ways:
        ready, cpu = (statistics.median(v[i] for v in figures[way]) for i in (0, 1))
        print(f"  {way:38} ready {ready:5.2f} s ({ready / base_ready:4.2f} x)   "
              f"CPU {cpu:5.2f} s ({cpu / base_cpu:4.2f} x)")


if __name__ == "__main__":
    main()
