"""A new width in Chromium, with every view open: the window resized until the page has drawn its new layout.

    python tests/benchmarks/bench_resize.py [--rounds 3] [--also OTHER.html ...]

The exported page opens in lecture mode with the lab's parts, the calibration view, the road to language models
and the function figure open, and is taken through 1440, 375 and 1024 px twice; a width counts from the resize
to the animation frame after the page has drawn the lesson at the new layout. `--also` adds an exported page of
another version (the release before's, exported from its own checkout): rounds alternate the pages, so a busy
machine slows them alike, and the ratio to this version's page is the figure to read. This is what the layout
tests (test_calm_page, test_long_names, test_classroom) pay at each of their widths.
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

OPEN = "lecture=1&tour=0&learn=1&jacobian=1&calib=1&lm=1&fn=sweep"
WIDTHS = (1440, 375, 1024, 1440, 375, 1024)
INNER = f"() => ({lp.FIND})('vocab_figure').inner_width"


def resizes(browser, url):
    """Seconds from each resize to the page drawn at its new layout."""
    pg = browser.new_page(viewport={"width": 1024, "height": 900})
    chromium.local_only(pg)
    pg.goto(f"{url}#{OPEN}")
    lp.wait_ready(pg)
    out = []
    for width in WIDTHS:
        before = pg.evaluate(INNER)
        t0 = time.perf_counter()
        pg.set_viewport_size({"width": width, "height": 900})
        lp.wait_until(lambda b=before: pg.evaluate(INNER) != b, timeout=15)
        lp.settled(pg)
        lp.painted(pg)
        out.append(time.perf_counter() - t0)
    pg.close()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--also", action="append", default=[], metavar="HTML",
                    help="another version's exported page, resized in the same rounds")
    args = ap.parse_args()
    ours = Path(tempfile.mkdtemp()) / "explainer.html"
    ours.write_text(page_html(Lesson()), encoding="utf-8")
    pages = [("this version", ours.as_uri())] + [(f"also: {Path(p).name}", Path(p).resolve().as_uri())
                                                  for p in args.also]
    got = {name: [] for name, _ in pages}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        for r in range(args.rounds):
            for name, url in pages if r % 2 == 0 else pages[::-1]:
                got[name] += resizes(browser, url)
        browser.close()
    mine = statistics.median(got[pages[0][0]])
    print(f"{'page':24} {'widths':>6} {'median s':>9} {'p90 s':>7} {'× this':>7}")
    for name, values in got.items():
        median = statistics.median(values)
        print(f"{name:24} {len(values):6d} {median:9.3f} {statistics.quantiles(values, n=10)[8]:7.3f} "
              f"{median / mine:7.2f}")


if __name__ == "__main__":
    main()
