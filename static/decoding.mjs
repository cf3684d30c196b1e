// The JavaScript twin of core/decoding.py, core/attention.py and core/distillation.py, for the road to language
// models (lm_view.mjs): the same names, rules, ties and order of operations.
// tests/js/decoding.test.mjs checks it against core on Python's answers.

// A vocabulary comes in rank order: its probabilities are non-increasing, and then the k-th largest and the
// ascending stable order are read off in one pass instead of a sort of 50,000 words in every frame of a drag.
function non_increasing(x) {
  for (let i = 1; i < x.length; i++) if (x[i] > x[i - 1]) return false;
  return true;
}

/** Which classes top-k keeps: z_i ≥ the k-th largest logit (ties with the k-th stay); k ≥ K keeps all. */
export function top_k_mask(z, k) {
  if (k >= z.length) return new Array(z.length).fill(true);
  if (non_increasing(z)) return kept_prefix(z, z[k - 1]);
  const kth = [...z].sort((a, b) => b - a)[k - 1];
  return Array.from(z, (v) => v >= kth);
}

// For non-increasing x, the classes with x_i ≥ bound are a prefix: written by two fills, not 50,000 closures.
function kept_prefix(x, bound) {
  let n = 0;
  while (n < x.length && x[n] >= bound) n++;
  return new Array(x.length).fill(false).fill(true, 0, n);
}

// The classes in ascending order of p, ties by index (a stable sort's order), handed to `visit` until it returns
// false (top-p stops where the running sum passes 1 − top_p). For non-increasing p that is its runs of equal
// values taken from the last, each run in index order: no sort of 50,000 words in every frame of a drag.
function ascending_until(p, visit) {
  if (!non_increasing(p)) {
    const order = p.map((_, i) => i).sort((a, b) => p[a] - p[b] || a - b);
    for (const i of order) if (!visit(i)) return;
    return;
  }
  for (let end = p.length; end > 0;) {
    let start = end - 1;
    while (start > 0 && p[start - 1] === p[end - 1]) start--;
    for (let i = start; i < end; i++) if (!visit(i)) return;
    end = start;
  }
}

/** Which classes top-p keeps from probabilities p, by Hugging Face's rule: sorted ascending (stable), a class
 * is dropped where the running sum is ≤ 1 − top_p; the most probable always stays. */
export function top_p_mask(p, top_p) {
  const keep = new Array(p.length).fill(true);
  let running = 0, dropped = 0;
  ascending_until(p, (i) => {
    running += p[i];
    // the running sum only grows: from the first class it keeps, every later one stays
    if (dropped === p.length - 1 || !(running <= 1 - top_p)) return false;
    keep[i] = false;
    dropped++;
    return true;
  });
  return keep;
}

/** Which classes min-p keeps: p_i ≥ min_p · max_j p_j. */
export function min_p_mask(p, min_p) {
  if (non_increasing(p)) return kept_prefix(p, min_p * p[0]);
  let top = -Infinity;
  for (const v of p) if (v > top) top = v;
  return Array.from(p, (v) => v >= min_p * top);
}

/** p on the kept classes, divided by their mass (NumPy's pairwise sum, as core's). */
export function renormalise(p, keep) {
  const kept = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) if (keep[i]) kept[i] = p[i];
  const total = pairwise_sum(kept);
  if (!(total > 0)) throw new Error("renormalise needs a kept class with probability > 0");
  const q = new Array(p.length);
  for (let i = 0; i < p.length; i++) q[i] = kept[i] / total;
  return q;
}

const MASKS = { top_k: top_k_mask, top_p: top_p_mask, min_p: min_p_mask };

/** softmax(z/T), then each stage [name, value] in the order given, each renormalising (core decode). */
export function decode(z, T = 1.0, stages = []) {
  return decode_kept(z, T, stages).p;
}

/** `decode`'s distribution p, which classes every stage kept (the AND of their masks: not p > 0, which a small
 * T underflows), and softmax(z/T) before the stages (core decode_kept, which returns p and kept). */
export function decode_kept(z, T = 1.0, stages = []) {
  const before = softmax(z, T);
  let p = before;
  const kept = new Array(z.length).fill(true);
  for (const [name, value] of stages) {
    if (!Object.hasOwn(MASKS, name)) throw new Error(`a stage must be one of ${Object.keys(MASKS)}, got ${name}`);
    const mask = MASKS[name](p, value);
    for (let i = 0; i < kept.length; i++) kept[i] &&= mask[i];
    p = renormalise(p, mask);
  }
  return { before, p, kept };
}

/** A mixture-of-experts router: the top k experts' weights, summing to 1; either published order. */
export function router_weights(scores, k, order = "mask_then_softmax") {
  const keep = top_k_mask(scores, k);
  if (order === "mask_then_softmax") return softmax(scores.map((s, i) => (keep[i] ? s : -Infinity)), 1);
  if (order === "softmax_then_renormalise") return renormalise(softmax(scores, 1), keep);
  throw new Error(`order must be mask_then_softmax or softmax_then_renormalise, got ${order}`);
}

/** ALiBi's slopes m_h = 2^(−8h/n), h = 1 … n. */
export function alibi_slopes(n) {
  return Array.from({ length: n }, (_, h) => 2 ** (-8 * (h + 1) / n));
}

/** The causal ALiBi bias: −m·(i − j) for j ≤ i, −∞ for j > i. */
export function alibi_bias(n, m) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? -m * (i - j) : -Infinity)));
}

/** Each query's weights over the keys: softmax_j(s_ij + B_ij), row by row. */
export function attention_weights(scores, bias = null) {
  return scores.map((row, i) => softmax(bias ? row.map((s, j) => s + bias[i][j]) : row, 1));
}

/** KL(q_T ‖ p_T) in nats, q_T = softmax(v/T) the teacher's, p_T = softmax(z/T) the student's. */
export function distillation_loss(v, z, T = 1.0) {
  const q = softmax(v, T), log_q = log_softmax(v, T), log_p = log_softmax(z, T);
  return Math.max(pairwise_sum(q.map((qk, k) => qk * (log_q[k] - log_p[k]))), 0);
}

/** ∂ KL(q_T ‖ p_T) / ∂z = (p_T − q_T)/T. */
export function distillation_grad(v, z, T = 1.0) {
  const q = softmax(v, T), p = softmax(z, T);
  return p.map((pk, k) => (pk - q[k]) / T);
}
