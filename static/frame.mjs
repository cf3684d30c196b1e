// From a lesson's state to everything drawn: figure data, axes, readouts and the live text. The page is the
// only renderer: it draws every frame with this, the first one included. `view` holds the drawing rules,
// handed over from Python (VIEW in app/document.py). The numbers are core/'s (app/state.py computes the same
// for Python), checked with the readouts and their digits in tests/js/lessons.test.mjs.

import { fmt_exp_text, fmt_text } from "./digits.mjs";
import { caption_text, live_text, render_readouts } from "./readouts.mjs";
import {
  cross_entropy, entropy, grad_logits, label_smoothing_floor, label_smoothing_optimal_gap, log_softmax, logsumexp,
  smoothed_target, softmax, uniform_loss
} from "./softmax.mjs";

/** The logit axis [start, end] for logits z: ±half_window, or `headroom` past the outermost logit where that is
 * further, plus `pad`. A function of z alone, which stays still while the logits move well inside it; beyond, it
 * grows by exactly as much as the outermost logit moved, so "add 1" lifts every point on screen (none ever moves
 * down), and a point released near an end can be dragged on past it. */
export function logit_window(z, view) {
  const [w, room] = [view.half_window, view.headroom];
  return [Math.min(-w, Math.min(...z) - room) - view.pad, Math.max(w, Math.max(...z) + room) + view.pad];
}

/** The smallest 1, 2 or 5 times a power of ten that is at least v > 0: an axis end that stays put while a
 * line grows toward it (a moving end would lay the figure out again every frame). */
export function nice_ceiling(v) {
  const unit = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * unit).find((end) => end >= v * (1 - 1e-12));
}

/** The loss figure's axes for the steps and losses recorded, on a linear or a log10 scale: x from the first step
 * to a nice end at least 10 steps on; y from 0 to a nice ceiling of the largest loss, or (log) whole decades
 * around the line. Each end moves only when the line crosses it. */
export function loss_window(step, loss, log) {
  const x = [step[0], step[0] + nice_ceiling(Math.max(10, step.at(-1) - step[0]))];
  const positive = loss.filter((v) => v > 0);
  if (!positive.length) return { x, y: log ? [-1, 0] : [0, 1] };
  if (!log) return { x, y: [0, nice_ceiling(Math.max(...positive))] };
  const [lo, hi] = [Math.min(...positive), Math.max(...positive)].map(Math.log10);
  return { x, y: [Math.floor(lo), Math.max(Math.ceil(hi), Math.floor(lo) + 1)] };
}

/** The lesson's maths for state s, as plain numbers and arrays (the readouts' input). */
export function lesson_numbers(s) {
  const { z, T, y, eps } = s;
  const K = z.length;
  const p = softmax(z, T);
  const log_p = log_softmax(z, T);
  const target = smoothed_target(y, K, eps);
  const g = grad_logits(z, y, T, eps).map((v) => -v);
  // KL(y'‖p) from log p, not p: finite where p underflows to 0 but log p does not.
  let kl = 0;
  for (let k = 0; k < K; k++) if (target[k] > 0) kl += target[k] * (Math.log(target[k]) - log_p[k]);
  let g_sum = 0;
  for (const v of g) g_sum += v;
  const others = z.filter((_, k) => k !== y);
  return {
    p, log_p, target, g,
    // Σ(y′ − p)/T is 0 in exact arithmetic; what remains is rounding a learner would misread.
    g_sum: Math.abs(g_sum) < 1e-9 ? 0 : g_sum,
    loss: cross_entropy(z, y, T, eps),
    floor: label_smoothing_floor(K, eps),
    kl: Math.max(kl, 0),
    entropy: entropy(p),
    lse: logsumexp(z.map((v) => v / T)),
    ln_k: uniform_loss(K),
    gap_best: T * label_smoothing_optimal_gap(K, eps),
    gap_now: z[y] - Math.max(...others),
  };
}

/** The arrows as drawn: from each logit z_k, arrow_scale·(−∂L/∂z_k) logit units long, or cut arrow_margin
 * short of the frame's edge, with a break mark near the cut and its value written beside it; an arrow too short
 * for a head is a dot (never a bare dash). */
function drawn_arrows(z, g, window, view) {
  const [lo, hi] = window;
  const [bottom, top] = [lo + view.arrow_margin, hi - view.arrow_margin];
  const x = z.map((_, k) => k + view.arrow_dx);
  const want = z.map((v, k) => v + view.arrow_scale * g[k]);
  const y1 = want.map((v) => Math.min(top, Math.max(bottom, v)));
  const clipped = want.map((v, k) => (v !== y1[k] ? 1 : 0));
  const length = y1.map((v, k) => Math.abs(v - z[k]));
  const tiny = length.map((l) => l < view.min_arrow);
  const mark_y = y1.map((v, k) => (clipped[k] ? v - Math.sign(g[k]) * view.break_at * (hi - lo) : z[k]));
  return {
    x, y0: [...z], y1, clipped,
    head: length.map((l) => (l < view.min_arrow ? 0 : Math.min(view.head, view.head_per_unit * l))),
    mark_y, mark: clipped.map((c) => (c ? "dash" : "circle")), mark_alpha: clipped.map((c, k) => (c || tiny[k] ? 1 : 0)),
    mark_angle: clipped.map((c) => (c ? view.break_angle : 0)),
    mark_size: clipped.map((c) => (c ? view.break_size : view.dot_size)),
    label: g.map((v, k) => (clipped[k] ? `−∂L/∂z = ${fmt_text(v)}` : "")),
    label_dy: g.map((v) => (v > 0 ? -view.label_gap : view.label_gap)),
  };
}

// A point's value to 2 decimals, and never "-0.00": a step leaves a logit at −0.0001.
function point_text(z) {
  const r = Number(z.toFixed(2));
  return (r === 0 ? 0 : r).toFixed(2);
}

const FN_POINTS = 201; // a curve's points: smooth at any width the figure has
const FN_T = Array.from({ length: 121 }, (_, i) => -2 + i / 30); // log10 T from 0.01 to 100, the slider's range

// σ(x) = 1/(1 + e^(−x)), written so that neither side overflows.
function sigmoid(x) {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

const spaced = (lo, hi, n = FN_POINTS) => Array.from({ length: n }, (_, i) => lo + (hi - lo) * i / (n - 1));

/** The figure of a function for state s and its numbers n (app/fields.py `fn`): each curve's points, the lesson's
 * points on them, and the axes' ends. "nll": −ln p (in the loss's units) against p, the dot at the true class's p;
 * "sigmoid": the true class's p = σ(m) against its margin m = z_y/T − LSE_{j≠y}(z_j/T) (for two classes
 * (z_y − z_other)/T); "sweep": each p_k, and the entropy over ln K dashed, against log10 T, dots at the lesson's T.
 * "none": empty sources. */
export function function_figure(s, n) {
  const { z, T, y } = s;
  const K = z.length;
  const none = { fn_curves: { xs: [], ys: [] }, fn_dashed: { xs: [], ys: [] }, fn_points: { x: [], y: [] } };
  if (s.fn === "nll") {
    const unit = s.units === "bits" ? Math.LN2 : 1;
    const log_py = n.log_p[y];
    // Evenly spaced in ln p: the steep end near p = 0 is where the curve needs its points.
    const lows = spaced(Math.min(Math.log(1e-3), log_py), 0);
    const top = -Math.min(Math.log(1e-3), log_py) / unit;
    return { sources: { ...none, fn_curves: { xs: [lows.map(Math.exp)], ys: [lows.map((l) => -l / unit)] },
      fn_points: { x: [Math.exp(log_py)], y: [-log_py / unit] } }, x_range: [0, 1.02], y_range: [0, top * 1.05] };
  }
  if (s.fn === "sigmoid") {
    const others = z.flatMap((v, k) => (k === y ? [] : [v / T]));
    const m = z[y] / T - logsumexp(others);
    const [lo, hi] = [Math.min(-8, m - 1), Math.max(8, m + 1)];
    const xs = spaced(lo, hi);
    return { sources: { ...none, fn_curves: { xs: [xs], ys: [xs.map(sigmoid)] },
      fn_points: { x: [m], y: [n.p[y]] } }, x_range: [lo, hi], y_range: [-0.03, 1.05] };
  }
  if (s.fn === "sweep") {
    const ps = FN_T.map((l) => softmax(z, 10 ** l));
    const ln_k = Math.log(K);
    return { sources: {
      fn_curves: { xs: z.map(() => FN_T), ys: z.map((_, k) => ps.map((p) => p[k])) },
      fn_dashed: { xs: [FN_T], ys: [ps.map((p) => entropy(p) / ln_k)] },
      fn_points: { x: [...z.map(() => Math.log10(T)), Math.log10(T)], y: [...n.p, n.entropy / ln_k] },
    }, x_range: [-2.1, 2.1], y_range: [-0.03, 1.05] };
  }
  return { sources: none, x_range: [0, 1], y_range: [0, 1] };
}

/** Everything drawn for state s with strings t: sources' data, axes, readouts' HTML and the live text (`text`
 * false: the figures' part alone, for a frame that writes no text). */
export function frame(s, t, view, { text = true } = {}) {
  const n = lesson_numbers(s);
  const { z, y } = s;
  const K = z.length;
  const x = z.map((_, k) => k);
  const [lo, hi] = logit_window(z, view);
  const half = view.bar_width / 2;
  const fn = function_figure(s, n);
  const zmax = Math.max(...z);
  const lse_marks = s.open.includes("lse")
    ? { y0: [zmax], y1: [zmax + s.T * n.ln_k], y: [s.T * n.lse] } : { y0: [], y1: [], y: [] };
  return {
    fn,
    K,
    window: [lo, hi],
    x_range: [-0.6, K - 0.4],
    many: K > view.many_classes,
    sources: {
      logits: { z: [...z], name: [...s.names] },
      probs: { x, p: n.p, label: n.log_p.map(fmt_exp_text), is_true: x.map((k) => (k === y ? 1 : 0)),
        label_y: [...n.p], label_alpha: x.map(() => 1), name: [...s.names] },
      neg_grad: { x, g: n.g },
      arrows: drawn_arrows(z, n.g, [lo, hi], view),
      target: { x, y: n.target, x0: x.map((k) => k - half), x1: x.map((k) => k + half) },
      settings: { T: [s.T], y: [y], eps: [s.eps] },
      point_labels: { x, z: [...z], text: z.map(point_text), dy: x.map(() => view.point_label_dy),
        alpha: x.map(() => 1) },
      ...fn.sources,
      lse_marks,
    },
    numbers: n,
    readouts: text ? render_readouts(n, s, t) : {},
    live: text ? live_text(n, s, t) : "",
    caption: text ? caption_text(n, s, t) : "",
  };
}

/** The probability axis's end for a frame H px tall: `view.prob_end`, or more where the highest a bar's value goes
 * (`fit`: above its bar at p = 1, or above a target mark at 1) would run past the frame's top. That value's top
 * is at 1 + (lift + label height + clearance)·end/H, so end ≥ H/(H − those px); a frame too short ends at 2. */
export function prob_end(H, room, view) {
  const above = Math.max(view.bar_label_offset, room.target_half + 1) + room.label_height + view.clearance;
  return Math.max(view.prob_end, H > 2 * above ? H / (H - above) : 2);
}

/** Frame f fitted to the figures' sizes, so that nothing drawn covers anything else. `room` holds, for each
 * figure, its pixels per class (`x`) and per unit of its y axis (`y`), the points' radius and the labels'
 * height in px, and `width_of(text)`, a label's width in px. Each arrow sits clear of its point and of the
 * next one (the points shrink where classes are narrow); a bar's label that is wider than its bar's share is
 * left out (the table has it), and one that a target mark would cross sits above the mark; the points' values
 * are left out where one would run into the class before, and move off the zero line; a cut arrow's value
 * keeps to its class, as a bare number where its full text would not fit. Returns the points' size in px. */
export function fit(f, room, view) {
  const { logit, prob, width_of } = room;
  const { arrows, probs, point_labels: labels, target } = f.sources;
  const W = logit.x;
  const r = Math.min(room.radius, 0.2 * W);
  const half_head = view.head / 2;
  const dx = Math.max(view.arrow_dx * W, r + half_head + view.clearance);
  arrows.x = arrows.x.map((_, k) => k + dx / W);
  // A dot for an arrow too short for a head stays smaller than the points, however small they get.
  arrows.mark_size = arrows.mark_size.map((size, k) => (arrows.mark[k] === "circle" ? Math.min(size, r) : size));
  // A cut arrow's value, written right of its arrow, must end before the next point.
  const room_right = W - dx - view.label_offset - r - view.clearance;
  arrows.label = arrows.label.map((text) => {
    if (!text || width_of(text) <= room_right) return text;
    const bare = text.split(" = ").at(-1);
    return width_of(bare) <= room_right ? bare : "";
  });
  const h = room.label_height;
  probs.label_alpha = probs.label.map((text) => (width_of(text) + view.clearance <= prob.x ? 1 : 0));
  probs.label_y = probs.p.map((p, k) => {
    const [bottom, mark] = [p * prob.y + view.bar_label_offset, target.y[k] * prob.y];
    const crossed = mark + room.target_half >= bottom - 1 && mark - room.target_half <= bottom + h + 1;
    return crossed ? target.y[k] + (room.target_half + 1) / prob.y : p;
  });
  // A point's value ends point_label_dx px left of its point, and must start after the arrow of the class before.
  const fits = !f.many && labels.text.every((text) => width_of(text) + view.point_label_dx + view.clearance <=
    W - dx - half_head);
  labels.alpha = labels.text.map(() => (fits ? 1 : 0));
  labels.dy = labels.z.map((z) => {
    const base = z * logit.y + view.point_label_dy; // the text's bottom, in px from the zero line
    if (base > 1 || base + h < -1) return view.point_label_dy;
    return z >= 0 ? 2 - z * logit.y : -2 - h - z * logit.y;
  });
  return 2 * r;
}

const ELLIPSIS = "\u2026";

// A text's characters as a reader counts them: a Hangul syllable, a letter with its marks, an emoji sequence.
const graphemes = (text) => Array.from(new Intl.Segmenter().segment(text), (g) => g.segment);

/** `text` in at most `room` px (`width_of(text)`: its width): whole, or its longest start of whole characters
 * that fits with "…" after it, the spaces before the "…" left out; "" where not even "…" fits. */
export function shortened(text, room, width_of) {
  if (width_of(text) <= room) return text;
  if (width_of(ELLIPSIS) > room) return "";
  const parts = graphemes(text);
  const cut = (n) => parts.slice(0, n).join("").trimEnd() + ELLIPSIS;
  let [fits, over] = [0, parts.length]; // cut(fits) fits, cut(over) would be the whole text
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    if (width_of(cut(mid)) <= room) fits = mid;
    else over = mid;
  }
  return cut(fits);
}

/** `text` in lines of at most `room` px, broken only at a `separator` (which ends no line); a part wider than
 * `room` is a line of its own. */
export function wrapped(text, room, width_of, separator = " \u00b7 ") {
  const lines = [];
  for (const part of text.split(separator)) {
    const longer = lines.length ? `${lines.at(-1)}${separator}${part}` : part;
    if (lines.length && width_of(longer) <= room) lines[lines.length - 1] = longer;
    else lines.push(part);
  }
  return lines;
}

/** The class names as an axis draws them, each shortened to the room its class has (the full names are in the
 * table and in the bars' hover), and the angle they are drawn at. `axis` in px: `side` ("below" or "left"),
 * `per_class` (the distance between two classes' ticks), `height` (a label's: its font's ascent and descent),
 * `lead` (from the canvas's edge to the first tick), `depth` (how far the labels may reach from the axis) and
 * `many` (more classes than fit side by side). Labels never meet: side by side each is at most its class's width
 * less a quarter of its height (a gap the eye reads between two names); slanted they are as steep as keeps each
 * clear of the next, and a shallow slant's first labels end inside the canvas; where even upright ones would
 * touch, every other one is left out. Below, `many` labels slant, and fewer slant where that shows more of them. */
export function class_labels(names, axis, width_of) {
  const { per_class: w, height: h, lead, depth } = axis;
  const every = Math.ceil((h + 1) / w);
  if (axis.side === "left") {
    return { angle: 0, labels: names.map((name, k) => (k % every ? "" : shortened(name, depth, width_of))) };
  }
  const angle = Math.max(Math.PI / 4, Math.asin(Math.min(1, (h + 1) / (every * w))));
  const [sin, cos] = [Math.sin(angle), Math.cos(angle)];
  const slanted = names.map((name, k) => {
    if (k % every) return "";
    const deep = (depth - h * cos) / sin;
    const inside = cos > 1e-9 ? (lead + k * w - (h / 2) * sin) / cos : Infinity;
    return shortened(name, Math.min(deep, inside), width_of);
  });
  if (axis.many) return { angle, labels: slanted };
  const across = names.map((name) => shortened(name, w - h / 4, width_of));
  const shown = (labels) => labels.reduce((n, label) => n + graphemes(label.replace(/\u2026$/, "")).length, 0);
  return shown(slanted) > shown(across) ? { angle, labels: slanted } : { angle: 0, labels: across };
}
