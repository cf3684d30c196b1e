"""Drag feedback in Chromium: pointer move → the frame that shows it, painted.

    python tests/benchmarks/bench_drag_latency.py [--moves 200] [--rounds 3] [--also OTHER.html ...]

Seven pages in one run, in turn, each dragged the same way: the default lesson (K = 3) and the heaviest (K = 10
with label smoothing, every readout on), each exported and served; the peer, a bare Bokeh page whose point is
dragged by the same PointDrawTool with no callback at all; and the explainer's own two figures with none of
the page (one small callback redraws their bars, arrows and labels), at K = 3 and K = 10, which is what Bokeh
itself costs for them.
Rounds alternate the pages, so a busy machine slows them alike, and the ratios are the figures to read. `--also`
adds an exported page of another version (the release before's, exported from its own checkout) to the same
rounds: a change's effect, read where the machine's hour cannot move it.

Measured inside the page: t0 is the pointermove event's arrival; t1 is when the frame that shows the change
has been painted: the first animation frame after the watched source changed (the `probs` source; the peer's
`logits`), then a message posted from it, which the browser runs once that frame's style, layout and paint
are done. A second figure, to the animation frame alone, is what earlier versions of this script measured.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bokeh.embed import file_html  # noqa: E402
from bokeh.models import ColumnDataSource, LabelSet, PointDrawTool, Range1d  # noqa: E402
from bokeh.plotting import figure  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import OwnOnly, page_html  # noqa: E402
from app.state import Lesson  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402
from tests.browser.conftest import free_port, wait_serving  # noqa: E402

PROBE = "(watched) => { const find = " + lp.FIND + """;
  window.__painted = []; window.__frame = []; window.__t0 = null;
  document.addEventListener('pointermove', () => { if (window.__t0 === null) window.__t0 = performance.now(); },
                            {capture: true});
  const src = find(watched);
  const channel = new MessageChannel();
  let pending = [];
  channel.port1.onmessage = () => { const t0 = pending.shift(); window.__painted.push(performance.now() - t0); };
  // The tool moves points in place (change), a callback replaces the data (data change): catch both.
  const on_change = () => {
    if (window.__t0 === null) return;
    const t0 = window.__t0; window.__t0 = null;
    requestAnimationFrame(() => {
      window.__frame.push(performance.now() - t0);
      pending.push(t0);
      channel.port2.postMessage(0);
    });
  };
  src.change.connect(on_change);
  src.properties.data.change.connect(on_change);
}"""


def peer_page():
    src = ColumnDataSource({"x": [0, 1, 2], "z": [2.0, 1.0, 0.1]}, name="logits")
    fig = figure(width=540, height=420, toolbar_location=None, y_range=Range1d(-6.6, 6.6), name="logit_figure")
    points = fig.scatter(x="x", y="z", size=22, source=src)
    tool = PointDrawTool(renderers=[points], add=False)
    fig.add_tools(tool)
    fig.toolbar.active_tap = tool
    return file_html(fig, OwnOnly(), title="peer")


# The same two figures as the explainer's (its own document's, every renderer at its level), with none of the
# page: one small callback redraws the bars, arrows and labels from the dragged logits. What Bokeh itself costs
# for these figures; the explainer's ratio to it is what the page adds.
FIGURES_ONLY = """
const z = Array.from(src.data.z), K = z.length, x = z.map((_, k) => k);
const m = Math.max(...z), e = z.map((v) => Math.exp(v - m)), total = e.reduce((a, b) => a + b, 0);
const p = e.map((v) => v / total), g = p.map((v, k) => (k === 0 ? 1 : 0) - v);
probs.data = {x, p, label: p.map((v) => v.toFixed(3)), is_true: x.map((k) => (k === 0 ? 1 : 0)),
              label_y: p.map((v) => v + 0.03), label_alpha: x.map(() => 1)};
arrows.data = {x: x.map((k) => k + 0.2), y0: z, y1: z.map((v, k) => v + 2 * g[k]), clipped: x.map(() => 0),
               head: x.map(() => 12), mark_y: z, mark: x.map(() => "circle"), mark_alpha: x.map(() => 0),
               mark_angle: x.map(() => 0), mark_size: x.map(() => 8), label: x.map(() => ""),
               label_dy: x.map(() => 16)};
point_labels.data = {x, z, text: z.map((v) => v.toFixed(2)), dy: x.map(() => 16), alpha: x.map(() => 1)};
"""


def figures_only_page(lesson):
    """The explainer's two figures for `lesson`, drawn once in Python, redrawn by FIGURES_ONLY during a drag."""
    import numpy as np
    from bokeh.document import Document
    from bokeh.models import CustomJS

    import core
    from app.document import VIEW, build

    built = build(lesson.state(), mode="file")
    def names(m):
        return [getattr(c, "name", None) for c in getattr(m, "children", [])]

    (figures,) = [m for m in built.layout.references() if names(m) == ["logit_figure", "prob_figure"]]
    for model in figures.references():
        model.js_property_callbacks, model.js_event_callbacks = {}, {}
    sources = {m.name: m for m in figures.references() if isinstance(m, ColumnDataSource)}
    z = np.asarray(lesson.logits, dtype=float)
    K, p = len(z), core.softmax(z)
    g = -core.grad_logits(z, 0)
    x = list(range(K))
    sources["logits"].data = {"z": list(z), "name": lesson.class_names}
    sources["probs"].data = {"x": x, "p": list(p), "label": [f"{v:.3f}" for v in p],
                             "is_true": [int(k == 0) for k in x], "label_y": list(p + 0.03), "label_alpha": [1] * K}
    sources["arrows"].data = {"x": [k + 0.2 for k in x], "y0": list(z), "y1": list(z + 2 * g), "clipped": [0] * K,
                              "head": [12] * K, "mark_y": list(z), "mark": ["circle"] * K, "mark_alpha": [0] * K,
                              "mark_angle": [0] * K, "mark_size": [8] * K, "label": [""] * K, "label_dy": [16] * K}
    sources["point_labels"].data = {"x": x, "z": list(z), "text": [f"{v:.2f}" for v in z], "dy": [16] * K,
                                    "alpha": [1] * K}
    sources["target"].data = {"x": x, "y": [float(k == 0) for k in x], "x0": [k - 0.31 for k in x],
                              "x1": [k + 0.31 for k in x]}
    for axis in (figures.children[0].xaxis[0], figures.children[1].xaxis[0]):
        axis.ticker.ticks = x
    for labels in figures.select({"type": LabelSet}):  # as the page hides the point labels of many classes
        if labels.source is sources["point_labels"]:
            labels.visible = K <= VIEW["many_classes"]
    logit_figure = figures.children[0]
    logit_figure.js_on_event("pan", CustomJS(args={"src": sources["logits"], "probs": sources["probs"],
                                                   "arrows": sources["arrows"],
                                                   "point_labels": sources["point_labels"]}, code=FIGURES_ONLY))
    doc = Document()
    doc.add_root(figures)
    return file_html(doc, OwnOnly(), title="figures only")


def measure(browser, url, watched, moves, ready):
    pg = browser.new_page(viewport={"width": 1280, "height": 960})
    # Nothing from the network: only the page itself (a file, or the app on this machine).
    chromium.local_only(pg, "http://127.0.0.1")
    pg.goto(url)
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
    painted, frame = pg.evaluate("() => [window.__painted, window.__frame]")
    pg.close()
    return painted, frame


def p50_p95(values):
    return statistics.median(values), statistics.quantiles(values, n=20)[18]


def heavy_lesson():
    ten = Lesson(lang="ko")
    ten.load_preset("ten")
    ten.param.update(label_smoothing=0.1, true_class=3)
    return ten


def serve(port):
    """The app as `softmax-explainer serve` runs it, on `port`."""
    return subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--also", action="append", default=[], metavar="HTML",
                    help="another version's exported page, dragged in the same rounds")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    ours, heavy, peer = tmp / "explainer.html", tmp / "ten_smoothed.html", tmp / "peer.html"
    ours.write_text(page_html(Lesson()), encoding="utf-8")
    heavy.write_text(page_html(heavy_lesson()), encoding="utf-8")
    peer.write_text(peer_page(), encoding="utf-8")
    only, only_ten = tmp / "figures_only.html", tmp / "figures_only_ten.html"
    only.write_text(figures_only_page(Lesson()), encoding="utf-8")
    only_ten.write_text(figures_only_page(heavy_lesson()), encoding="utf-8")
    port = free_port()
    server = serve(port)
    app = f"http://127.0.0.1:{port}/main"
    pages = [("K = 3, exported", ours.as_uri(), "probs", lp.wait_ready),
             ("K = 10, ε = 0.1, exported", heavy.as_uri(), "probs", lp.wait_ready),
             ("K = 3, served", app, "probs", lp.wait_ready),
             ("K = 10, ε = 0.1, served", f"{app}?z=2,1,0.1,-0.5,0.8,-1.2,0.3,-2,1.4,-0.7&eps=0.1&y=3&lang=ko",
              "probs", lp.wait_ready),
             ("the same figures, no page, K = 3", only.as_uri(), "probs", lp.wait_drawn),
             ("the same figures, no page, K = 10", only_ten.as_uri(), "probs", lp.wait_drawn),
             ("peer: bare PointDrawTool drag", peer.as_uri(), "logits", lp.wait_drawn)]
    pages[4:4] = [(f"also: {Path(other).name}", Path(other).resolve().as_uri(), "probs", lp.wait_ready)
                  for other in args.also]
    try:
        wait_serving(app, alive=lambda: server.poll() is None)
        with sync_playwright() as pw:
            browser = chromium.launch(pw)
            got = {name: ([], []) for name, *_ in pages}
            for _ in range(args.rounds):
                for name, url, watched, ready in pages:
                    painted, frame = measure(browser, url, watched, args.moves, ready)
                    got[name][0].extend(painted)
                    got[name][1].extend(frame)
            browser.close()
    finally:
        server.terminate()
        server.wait()
    print(f"{'page':32} {'frames':>6} {'painted p50':>12} {'p95 ms':>7} {'rAF p50':>8} {'p95 ms':>7}")
    rows = {name: (*p50_p95(painted), *p50_p95(frame), len(painted)) for name, (painted, frame) in got.items()}
    for name, (pp50, pp95, fp50, fp95, n) in rows.items():
        print(f"{name:32} {n:6d} {pp50:12.2f} {pp95:7.2f} {fp50:8.2f} {fp95:7.2f}")
    peer_row = rows[pages[-1][0]]
    only_rows = {"K = 3": rows[pages[-3][0]], "K = 10": rows[pages[-2][0]]}
    for name, (pp50, pp95, _, fp95, _) in list(rows.items())[:-1]:
        print(f"{name}: painted frame p95 {pp95 / peer_row[1]:.2f} × the peer's (p50 {pp50 / peer_row[0]:.2f} ×); "
              f"to the animation frame p95 {fp95 / peer_row[3]:.2f} ×")
    for name, (pp50, pp95, *_) in list(rows.items())[:4]:
        only_row = only_rows[name.split(",")[0]]
        print(f"{name}: painted frame p95 {pp95 / only_row[1]:.2f} × the same figures with no page "
              f"(p50 {pp50 / only_row[0]:.2f} ×)")


if __name__ == "__main__":
    main()
