"""A drag of T over 50,000 words in Chromium: pointer move on the temperature slider → the frame that shows it.

    python tests/benchmarks/bench_vocabulary_drag.py [--moves 150] [--rounds 3]

Two exported pages in one run, in turn, each with its temperature slider dragged the same way by the mouse: the
road to language models open (every frame decodes wordfreq's 50,000 English words with top-k 1000, top-p 0.9
and min-p 0.05, then fills the kept words, the rank-probability plot and the rest of the page), and the same
lesson with it closed (the page's own cost of a T drag). Measured as bench_drag_latency.py does, inside the
page: from the pointermove event's arrival to the painted frame after the watched source changed (`vocab_curve`
open, `probs` closed); both figures beside a 60 Hz frame (16.7 ms). Then the same drag at a hand's pace, a pointer
move in every frame (noUiSlider's mousemove, dispatched from the page's own frame callback as a 60 Hz mouse would
send them): the frames per second the page keeps and its share of frames longer than 20 ms, each frame handling one
move and painting the one before.
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import page_html  # noqa: E402
from app.state import Lesson  # noqa: E402
from tests.benchmarks.bench_drag_latency import PROBE, p50_p95  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402
from tests.browser.test_tour import handle_centre  # noqa: E402

FRAME_MS = 1000 / 60


def measure(browser, url, watched, moves):
    pg = browser.new_page(viewport={"width": 1280, "height": 960})
    chromium.local_only(pg)
    pg.goto(url)
    lp.wait_ready(pg)
    if watched == "vocab_curve":  # the vocabulary unpacked and drawn once before the drag
        lp.wait_until(lambda: lp.data(pg, "decoding")["kept"] != [], timeout=15)
    x, y = handle_centre(pg, "temperature")
    pg.evaluate(PROBE, watched)
    pg.mouse.move(x, y)
    pg.mouse.down()
    for i in range(moves):
        # Back and forth over ±60 px of the track (T from about 0.5 to 2), one move per two frames.
        dx = 60 * ((i % 40) / 20 - 1 if (i // 40) % 2 == 0 else 1 - (i % 40) / 20)
        pg.mouse.move(x + dx, y)
        pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    pg.mouse.up()
    painted = pg.evaluate("() => window.__painted")
    pg.close()
    return painted


# One move a frame for `moves` frames, from the page's frame callback: each frame's T and its interval.
EVERY_FRAME = """([x, y, moves]) => new Promise((done) => {
  const slider = (""" + lp.FIND + """)('temperature');
  let seen = 0;
  slider.properties.value.change.connect(() => { seen++; });
  const ticks = [];
  requestAnimationFrame(function tick(t) {
    ticks.push(t);
    if (ticks.length > moves) { done([ticks, seen]); return; }
    const k = ticks.length % 80, dx = 60 * (k < 40 ? k / 20 - 1 : 1 - (k - 40) / 20);
    document.documentElement.dispatchEvent(new MouseEvent('mousemove', {clientX: x + dx, clientY: y,
      bubbles: true, buttons: 1}));
    requestAnimationFrame(tick);
  });
})"""


def every_frame(browser, url, watched, moves):
    """The frame intervals of a drag with a move in every frame, after the pointer went down on T's handle."""
    pg = browser.new_page(viewport={"width": 1280, "height": 960})
    chromium.local_only(pg)
    pg.goto(url)
    lp.wait_ready(pg)
    if watched == "vocab_curve":
        lp.wait_until(lambda: lp.data(pg, "decoding")["kept"] != [], timeout=15)
    x, y = handle_centre(pg, "temperature")
    pg.mouse.move(x, y)
    pg.mouse.down()
    pg.mouse.move(x + 1, y)  # the drag under way: noUiSlider listens for its moves from the first
    ticks, seen = pg.evaluate(EVERY_FRAME, [x, y, moves])
    pg.mouse.up()
    pg.close()
    assert seen >= moves * 0.9, f"the slider took {seen} of {moves} moves"
    return [b - a for a, b in zip(ticks[:-1], ticks[1:], strict=True)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    opened, closed = tmp / "language_model.html", tmp / "closed.html"
    filters = {"top_k": 1000, "top_p": 0.9, "min_p": 0.05, "show_tour": False}
    opened.write_text(page_html(Lesson(show_language_model=True, **filters)), encoding="utf-8")
    closed.write_text(page_html(Lesson(**filters)), encoding="utf-8")
    pages = [("50,000 words, three filters", opened.as_uri(), "vocab_curve"),
             ("the view closed", closed.as_uri(), "probs")]
    got = {name: [] for name, *_ in pages}
    frames = {name: [] for name, *_ in pages}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        for _ in range(args.rounds):
            for name, url, watched in pages:
                got[name].extend(measure(browser, url, watched, args.moves))
                frames[name].extend(every_frame(browser, url, watched, 2 * args.moves))
        browser.close()
    print(f"{'page':30} {'frames':>6} {'painted p50':>12} {'p95 ms':>7}")
    rows = {name: (*p50_p95(v), len(v)) for name, v in got.items()}
    for name, (p50, p95, n) in rows.items():
        print(f"{name:30} {n:6d} {p50:12.2f} {p95:7.2f}  p50 {p50 / FRAME_MS:.2f} × a 60 Hz frame")
    (o50, o95, _), (c50, c95, _) = rows.values()
    print(f"open / closed: p50 {o50 / c50:.2f} ×, p95 {o95 / c95:.2f} ×")
    print(f"\na move in every frame: {'page':30} {'frames':>6} {'per s':>6} {'interval p95 ms':>16} {'> 20 ms':>8}")
    for name, d in frames.items():
        print(f"{'':22} {name:30} {len(d):6d} {1000 * len(d) / sum(d):6.1f} {p50_p95(d)[1]:16.2f} "
              f"{sum(v > 20 for v in d) / len(d):8.1%}")


if __name__ == "__main__":
    main()
