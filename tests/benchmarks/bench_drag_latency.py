"""Drag feedback in Chromium: pointer move → first frame drawn with the new probabilities.

    python tests/benchmarks/bench_drag_latency.py [--moves 200]

Three pages in one run: the default lesson (K = 3), the heaviest (K = 10 with label smoothing, every view on,
so every readout, the target marks and the information bar redraw each frame) and the peer.

Measured inside the page: t0 is the pointermove event's arrival, t1 is the first animation frame after the
`probs` source changed (Bokeh paints in an earlier callback of that same frame, so the bars are drawn by then).
Beside it, the same measurement on a peer: a bare Bokeh page whose point is dragged by the same
PointDrawTool with no callback at all (t1 = first frame after the tool moved the point). The ratio shows
what the explainer's maths and readouts add to Bokeh's own drag. The target is p95 ≤ 16.7 ms (one 60 Hz frame).
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bokeh.embed import file_html  # noqa: E402
from bokeh.models import ColumnDataSource, PointDrawTool, Range1d  # noqa: E402
from bokeh.plotting import figure  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import InlineOnly, page_html  # noqa: E402
from app.state import Lesson  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402

PROBE = "(watched) => { const find = " + lp.FIND + """;
  window.__lat = []; window.__t0 = null;
  document.addEventListener('pointermove', () => { if (window.__t0 === null) window.__t0 = performance.now(); },
                            {capture: true});
  const src = find(watched);
  // The tool moves points in place (change), a callback replaces the data (data change): catch both.
  const on_change = () => {
    if (window.__t0 === null) return;
    const t0 = window.__t0; window.__t0 = null;
    requestAnimationFrame(() => window.__lat.push(performance.now() - t0));
  };
  src.change.connect(on_change);
  src.properties.data.change.connect(on_change);
}"""


def peer_page():
    src = ColumnDataSource({"x": [0, 1, 2], "z": [2.0, 1.0, 0.1]}, name="logits")
    fig = figure(width=540, height=420, toolbar_location=None, y_range=Range1d(-6.6, 6.6))
    points = fig.scatter(x="x", y="z", size=22, source=src)
    tool = PointDrawTool(renderers=[points], add=False)
    fig.add_tools(tool)
    fig.toolbar.active_tap = tool
    return file_html(fig, InlineOnly(), title="peer")


def measure(browser, path, watched, moves, ready):
    pg = browser.new_page(viewport={"width": 1280, "height": 960})
    pg.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:"))
             else r.abort())
    pg.goto(path.as_uri())
    ready(pg)
    pg.evaluate(PROBE, watched)
    x, y = lp.point_xy(pg, 1)
    pg.mouse.move(x, y)
    pg.mouse.down()
    for i in range(moves):
        # Up and down within ±2 units, one move per frame, as a hand would.
        dy = 60 * ((i % 40) / 20 - 1 if (i // 40) % 2 == 0 else 1 - (i % 40) / 20)
        pg.mouse.move(x, y + dy)
        pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    pg.mouse.up()
    lat = pg.evaluate("() => window.__lat")
    pg.close()
    return lat


def summary(values):
    q = statistics.quantiles(values, n=20)
    return statistics.median(values), q[18]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    ours, peer = tmp / "explainer.html", tmp / "peer.html"
    ours.write_text(page_html(Lesson()), encoding="utf-8")
    heavy = tmp / "ten_smoothed.html"
    ten = Lesson(lang="ko")
    ten.load_preset("ten")
    ten.param.update(label_smoothing=0.1, true_class=3)
    heavy.write_text(page_html(ten), encoding="utf-8")
    peer.write_text(peer_page(), encoding="utf-8")
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        rows = []
        for name, path, watched, ready in (("explainer, K = 3", ours, "probs", lp.wait_ready),
                                           ("explainer, K = 10, ε = 0.1", heavy, "probs", lp.wait_ready),
                                           ("peer: bare PointDrawTool drag", peer, "logits", lp.wait_drawn)):
            lat = measure(browser, path, watched, args.moves, ready)
            rows.append((name, len(lat), *summary(lat)))
        browser.close()
    print(f"{'page':32} {'frames':>6} {'p50 ms':>8} {'p95 ms':>8}")
    for name, n, p50, p95 in rows:
        print(f"{name:32} {n:6d} {p50:8.2f} {p95:8.2f}")
    peer_row = rows[-1]
    for name, _, p50, p95 in rows[:-1]:
        print(f"{name}: ratio to the peer p50 {p50 / peer_row[2]:.2f}, p95 {p95 / peer_row[3]:.2f}; "
              f"p95 {p95:.2f} ms of a 16.7 ms frame ({'within' if p95 <= 16.7 else 'OVER'})")


if __name__ == "__main__":
    main()
