// From a lesson's state to everything drawn: figure data, axes, readouts and the live text. The page is the
// only renderer: it draws every frame with this, the first one included. `view` holds the drawing rules,
// handed over from Python (VIEW in app/document.py). The numbers are core/'s (app/state.py computes the same
// for Python), checked with the readouts and their digits in tests/js/lessons.test.mjs.

/** The logit axis [start, end] for logits z: ±half_window around 0, moved in whole units to hold them, or
 * widened around them when a move by whole units would push the other end past a logit. A function of z alone,
 * so a drag (which cannot leave the axis) never moves it. */
export function logit_window(z, view) {
  const w = view.half_window;
  const zmin = Math.min(...z);
  const zmax = Math.max(...z);
  const shift = zmax > w ? Math.ceil(zmax - w) : zmin < -w ? -Math.ceil(-w - zmin) : 0;
  let [lo, hi] = [shift - w, shift + w];
  if (zmin < lo || zmax > hi) {
    const half = (zmax - zmin) / 2 + 1;
    const mid = (zmax + zmin) / 2;
    [lo, hi] = [mid - half, mid + half];
  }
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

function arrow_heads(z, y1, view) {
  return z.map((a, k) => {
    const length = Math.abs(y1[k] - a);
    return length < view.min_arrow ? 0 : Math.min(view.head, view.head_per_unit * length);
  });
}

/** Everything drawn for state s with strings t: sources' data, axes, readouts' HTML and the live text. */
export function frame(s, t, view) {
  const n = lesson_numbers(s);
  const { z, y } = s;
  const K = z.length;
  const x = z.map((_, k) => k);
  const [lo, hi] = logit_window(z, view);
  const [bottom, top] = [lo + view.arrow_margin, hi - view.arrow_margin];
  const y1 = z.map((v, k) => Math.min(top, Math.max(bottom, v + view.arrow_scale * n.g[k])));
  const half = view.bar_width / 2;
  return {
    K,
    window: [lo, hi],
    x_range: [-0.6, K - 0.4],
    many: K > view.many_classes,
    sources: {
      logits: { z: [...z], name: [...s.names] },
      probs: { x, p: n.p, label: n.log_p.map(fmt_exp_text), is_true: x.map((k) => (k === y ? 1 : 0)) },
      neg_grad: {
        x, g: n.g, y0: [...z], y1, x_arrow: x.map((k) => k + view.arrow_dx), head: arrow_heads(z, y1, view),
      },
      target: { x, y: n.target, x0: x.map((k) => k - half), x1: x.map((k) => k + half) },
      settings: { T: [s.T], y: [y], eps: [s.eps] },
      point_labels: { x, z: [...z], text: z.map((v) => v.toFixed(2)) },
    },
    readouts: render_readouts(n, s, t),
    live: live_text(n, s, t),
  };
}
