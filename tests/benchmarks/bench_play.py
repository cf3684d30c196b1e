"""Playing the gradient steps in Chromium: how long each animation frame takes while the page steps.

    python tests/benchmarks/bench_play.py [--seconds 5] [--rounds 3]

The exported page, playing (a gradient step per animation frame, every figure and readout drawn live) at
K = 3 and at K = 10 with the draws on (N = 10,000 and N = 100,000, counted again on every frame), and with the
Jacobian and the naive softmax open too; the peer is the same page left still, whose frames are the browser's own
rhythm (60 per second where the display allows it). A second peer is Bokeh alone: the explainer's three figures
(logits, probabilities with the draws, the loss) with none of the page, their sources replaced on every animation
frame by a bare loop that takes the same gradient step and counts the same 10,000 draws: what Bokeh itself
costs for these figures on this machine. Rounds alternate the pages, so a busy machine slows them alike.

Measured inside the page: the time between consecutive animation frames, what a learner sees (16.7 ms is 60
frames a second; a frame whose step, drawing and paint take longer delays the next), the share of frames
dropped (an interval of two display frames or more), and the steps taken.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bokeh.document import Document  # noqa: E402
from bokeh.embed import file_html  # noqa: E402
from bokeh.models import Column  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from app.document import build  # noqa: E402
from app.export import OwnOnly  # noqa: E402
from app.export import main as export  # noqa: E402
from app.state import Lesson  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tests.browser import lessonpage as lp  # noqa: E402

TEN = "2,1,0.1,-0.5,0.8,-1.2,0.3,-2,1.4,-0.7"
PAGES = {
    "still, K = 3 (the peer)": ("", False),
    "playing, K = 3": ("learn=1&lr=0.05", True),
    "playing, K = 10, N = 10,000 draws (issue 16's case)": (f"z={TEN}&learn=1&lr=0.05&sample=1&n=10000", True),
    "playing, K = 10, N = 10,000 draws, Jacobian, naive": (
        f"z={TEN}&learn=1&lr=0.05&sample=1&n=10000&jacobian=1&naive=1", True),
    "playing, K = 10, N = 100,000 draws": (f"z={TEN}&learn=1&lr=0.05&sample=1&n=100000", True),
}
# Bokeh alone: a gradient step on z per animation frame (η = 0.05, T = 1, the first class true), every figure's
# source replaced as the page replaces it, and the draws counted again under kept noise (N = 10,000).
BARE_LOOP = """() => { const find = """ + lp.FIND + """;
  const [logits, probs, arrows, labels, samples, history, target] =
    ['logits', 'probs', 'arrows', 'point_labels', 'samples', 'loss_history', 'target'].map(find);
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
  let z = [""" + TEN + """]; const K = z.length, x = z.map((_, k) => k), N = 10000, one = x.map((k) => +(k === 0));
  for (const name of ['logit_figure', 'prob_figure']) {
    const fig = find(name);
    fig.x_range.setv({start: -0.6, end: K - 0.4});
    const axis = fig.below.find((m) => 'ticker' in m);
    axis.ticker.ticks = x;
    axis.formatter.args = {names};
  }
  find('logit_figure').y_range.setv({start: -6.6, end: 6.6});
  target.data = {x, y: one, x0: x.map((k) => k - 0.31), x1: x.map((k) => k + 0.31)};
  const noise = Float64Array.from({length: N * K}, () => -Math.log(-Math.log(Math.random())));
  const steps = [], losses = [];
  const tick = () => {
    const m = Math.max(...z), e = z.map((v) => Math.exp(v - m)), total = e.reduce((a, b) => a + b, 0);
    const p = e.map((v) => v / total), g = p.map((v, k) => one[k] - v);
    steps.push(steps.length);
    losses.push(-Math.log(p[0]));
    const counts = x.map(() => 0);
    for (let d = 0; d < N; d++) {
      let best = 0;
      for (let k = 1; k < K; k++) if (z[k] + noise[d * K + k] > z[best] + noise[d * K + best]) best = k;
      counts[best]++;
    }
    const freq = counts.map((c) => c / N), sd = p.map((v) => 2 * Math.sqrt(v * (1 - v) / N));
    logits.data = {z: [...z], name: names};
    probs.data = {x, p, label: p.map((v) => v.toFixed(3)), is_true: one, label_y: p, label_alpha: x.map(() => 0)};
    arrows.data = {x: x.map((k) => k + 0.2), y0: [...z], y1: z.map((v, k) => v + 2 * g[k]), clipped: x.map(() => 0),
                   head: x.map(() => 8), mark_y: [...z], mark: x.map(() => 'circle'), mark_alpha: x.map(() => 0),
                   mark_angle: x.map(() => 0), mark_size: x.map(() => 6), label: x.map(() => ''),
                   label_dy: x.map(() => 16)};
    labels.data = {x, z: [...z], text: z.map((v) => v.toFixed(2)), dy: x.map(() => 12), alpha: x.map(() => 0)};
    samples.data = {x, count: counts, freq, lower: freq.map((f, k) => f - sd[k]), upper: freq.map((f, k) => f + sd[k])};
    history.data = {step: [...steps], loss: [...losses], y: [...losses]};
    find('loss_figure').x_range.setv({start: 0, end: Math.max(10, 10 * Math.ceil(steps.length / 10))});
    find('loss_figure').y_range.setv({start: 0, end: 1});
    z = z.map((v, k) => v + 0.05 * g[k]);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


BARE = "Bokeh alone: the same figures, K = 10, N = 10,000, stepped by a bare loop"
PROBE = """(seconds) => new Promise((done) => {
  const intervals = [];
  let last = null;
  const end = performance.now() + 1000 * seconds;
  const tick = (t) => {
    if (last !== null) intervals.push(t - last);
    last = t;
    if (performance.now() < end) requestAnimationFrame(tick); else done(intervals);
  };
  requestAnimationFrame(tick);
})"""


def bare_page():
    """The explainer's three figures for K = 10 with the draws on, drawn once in Python, none of the page."""
    lesson = Lesson(logits=[float(v) for v in TEN.split(",")], show_steps=True, show_samples=True)
    built = build(lesson.state(), mode="file")
    figures = built.layout.children[1]
    loss = next(m for m in built.layout.references() if m.name == "loss_figure")
    loss.visible = True
    root = Column(figures, loss, sizing_mode="stretch_width")
    for model in root.references():
        model.js_property_callbacks, model.js_event_callbacks = {}, {}
    doc = Document()
    doc.add_root(root)
    return file_html(doc, OwnOnly(), title="Bokeh alone")


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    out = Path(tempfile.mkdtemp()) / "explainer.html"
    export([str(out), "--overwrite"])
    bare = out.parent / "bare.html"
    bare.write_text(bare_page(), encoding="utf-8")
    pages = {**PAGES, BARE: None}
    results = {name: [] for name in pages}
    steps_per_second = {name: [] for name in pages}
    with sync_playwright() as p:
        browser = chromium.launch(p)
        for _ in range(args.rounds):
            for name, how in pages.items():
                pg = browser.new_page(viewport={"width": 1280, "height": 900})
                if how is None:
                    pg.goto(bare.as_uri())
                    pg.wait_for_function(f"() => window.Bokeh && Bokeh.documents.length > 0 && "
                                         f"({lp.FIND})('logit_figure')?.inner_width > 0")
                    pg.evaluate(BARE_LOOP)
                    count = f"() => ({lp.FIND})('loss_history').data.step.length"
                    before = pg.evaluate(count)
                    results[name].extend(pg.evaluate(PROBE, args.seconds))
                    after = pg.evaluate(count)
                    steps_per_second[name].append((after - before) / args.seconds)
                    pg.close()
                    continue
                link, playing = how
                pg.goto(f"{out.as_uri()}#{link}")
                lp.wait_ready(pg)
                if playing:
                    lp.click(pg, "play")
                    pg.wait_for_function(f"() => ({lp.FIND})('play').label === 'Pause'")
                before = pg.evaluate(f"() => ({lp.FIND})('loss_history').data.step.at(-1) ?? 0")
                results[name].extend(pg.evaluate(PROBE, args.seconds))
                after = pg.evaluate(f"() => ({lp.FIND})('loss_history').data.step.at(-1) ?? 0")
                steps_per_second[name].append((after - before) / args.seconds)
                pg.close()
        browser.close()
    peer = percentile(results["still, K = 3 (the peer)"], 0.95)
    # A frame dropped: an interval of two display frames or more (the display's frame is the still page's p50).
    display = statistics.median(results["still, K = 3 (the peer)"])
    print("| page | frame interval p50 / p95 (ms) | p95 / still | frames dropped | steps per second |")
    print("|---|---|---|---|---|")
    for name, intervals in results.items():
        p95 = percentile(intervals, 0.95)
        dropped = sum(v > 1.5 * display for v in intervals) / len(intervals)
        print(f"| {name} | {statistics.median(intervals):.1f} / {p95:.1f} | {p95 / peer:.2f} | {100 * dropped:.1f} % | "
              f"{statistics.median(steps_per_second[name]):.0f} |")


if __name__ == "__main__":
    main()
