"""A new look in Chromium: lecture mode, the dark theme and the language switched, each until its frame is drawn.

    python tests/benchmarks/bench_look.py [--rounds 5]

Two exported pages, in turn: the default lesson, and one with every section of readouts and every view open
(the lab's parts, the calibration view, the road to language models). Each switch sets a control as a click
does and waits for the animation frame after the page has drawn the new lesson; its peer, in the same page, is
one layout of the whole page as Bokeh computes it (the explainer's root view laid out again), which a new look
cannot do with less of: the ratios are the figures to read.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import page_html  # noqa: E402
from app.state import Lesson  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402

SWITCH = f"""async ([name, attr, value]) => {{
  const m = ({lp.FIND})(name); const t0 = performance.now(); m[attr] = value;
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - t0; }}"""
ONE_LAYOUT = f"""() => {{ const root = Bokeh.index.find_one(({lp.FIND})('explainer'));
  const t0 = performance.now(); root.invalidate_layout(); return performance.now() - t0; }}"""
# (what is switched, the control, its property, the value there and back)
SWITCHES = [("lecture mode", "lecture", "active", True, False), ("dark theme", "theme", "active", True, False),
            ("language", "lang", "value", "ko", "en")]


def everything_open():
    lesson = Lesson()
    lesson.param.update(open_sections=["table", "info", "lse"], show_steps=True, show_samples=True,
                        show_jacobian=True, show_naive=True, show_calibration=True, show_language_model=True,
                        function_figure="sweep")
    return lesson


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    pages = {"default lesson": tmp / "default.html", "every view open": tmp / "open.html"}
    pages["default lesson"].write_text(page_html(Lesson()), encoding="utf-8")
    pages["every view open"].write_text(page_html(everything_open()), encoding="utf-8")
    times = {(page, what): [] for page in pages for what, *_ in SWITCHES}
    layouts = {page: [] for page in pages}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        for _ in range(args.rounds):
            for page, path in pages.items():
                pg = browser.new_page(viewport={"width": 1280, "height": 960})
                chromium.local_only(pg)
                pg.goto(path.as_uri())
                lp.wait_ready(pg)
                lp.settled(pg, timeout=30000)
                for what, name, attr, there, back in SWITCHES:
                    for value in (there, back):
                        times[(page, what)].append(pg.evaluate(SWITCH, [name, attr, value]))
                        lp.settled(pg, timeout=30000)
                layouts[page].extend(pg.evaluate(ONE_LAYOUT) for _ in range(3))
                pg.close()
        browser.close()
    for page in pages:
        layout = statistics.median(layouts[page])
        print(f"{page}: one layout of the page {layout:.0f} ms (median)")
        for what, *_ in SWITCHES:
            ms, worst = statistics.median(times[(page, what)]), max(times[(page, what)])
            print(f"  {what:13s} p50 {ms:6.0f} ms, max {worst:6.0f} ms, {ms / layout:5.1f} x a layout")


if __name__ == "__main__":
    main()
