// From a lesson's state to everything drawn: figure data, axes, readouts and the live text. The page is the
// only renderer: it draws every frame with this, the first one included. `view` holds the drawing rules,
// handed over from Python (VIEW in app/document.py). The numbers are core/'s (app/state.py computes the same
// for Python), checked with the readouts and their digits in tests/js/lessons.test.mjs.

/** The logit axis [start, end] for logits z: ±half_window, grown on a side in whole steps of half_window
 * only where a logit would leave it, plus `pad`. A function of z alone, which stays still while the logits move
 * inside it: "add 1" lifts the points on an axis that does not move, until one would leave it. */
export function logit_window(z, view) {
  const w = view.half_window;
  const hi = w * Math.max(1, Math.ceil(Math.max(...z) / w));
  const lo = -w * Math.max(1, Math.ceil(-Math.min(...z) / w));
  return [lo - view.pad, hi + view.pad];
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

/** Everything drawn for state s with strings t: sources' data, axes, readouts' HTML and the live text. */
export function frame(s, t, view) {
  const n = lesson_numbers(s);
  const { z, y } = s;
  const K = z.length;
  const x = z.map((_, k) => k);
  const [lo, hi] = logit_window(z, view);
  const half = view.bar_width / 2;
  return {
    K,
    window: [lo, hi],
    x_range: [-0.6, K - 0.4],
    many: K > view.many_classes,
    sources: {
      logits: { z: [...z], name: [...s.names] },
      probs: { x, p: n.p, label: n.log_p.map(fmt_exp_text), is_true: x.map((k) => (k === y ? 1 : 0)) },
      neg_grad: { x, g: n.g },
      arrows: drawn_arrows(z, n.g, [lo, hi], view),
      target: { x, y: n.target, x0: x.map((k) => k - half), x1: x.map((k) => k + half) },
      settings: { T: [s.T], y: [y], eps: [s.eps] },
      point_labels: { x, z: [...z], text: z.map((v) => v.toFixed(2)) },
    },
    readouts: render_readouts(n, s, t),
    live: live_text(n, s, t),
  };
}
