// The JavaScript twin of core/decoding.py, core/attention.py and core/distillation.py, for the road to language
// models (lm_view.mjs): the same names, rules, ties and order of operations.
// tests/js/decoding.test.mjs checks it against core on Python's answers.

import { float_row, log_softmax, pairwise_sum, softmax, softmax_row } from "./softmax.mjs";

// A vocabulary comes in rank order: its probabilities are non-increasing, and then the k-th largest and the
// ascending stable order are read off in one pass instead of a sort of 50,000 words in every frame of a drag.
function non_increasing(x) {
  for (let i = 1; i < x.length; i++) if (x[i] > x[i - 1]) return false;
  return true;
}

// Inside the pipeline every row is a Float64Array (softmax.mjs float_row) and every mask a Uint8Array (one byte
// a word, filled by loops, not 50,000 closures): loops that see one kind of array stay fast. The exported
// functions take lists and hand back core's booleans.
const booleans = (keep) => Array.from(keep, Boolean);

// For non-increasing x, the classes with x_i ≥ bound are a prefix.
function kept_prefix(x, bound) {
  let n = 0;
  while (n < x.length && x[n] >= bound) n++;
  return new Uint8Array(x.length).fill(1, 0, n);
}

// x_i ≥ bound, by a loop: a top-p that stops inside a run of equal words leaves p out of order for min-p.
function at_least(x, bound) {
  const keep = new Uint8Array(x.length);
  for (let i = 0; i < x.length; i++) keep[i] = x[i] >= bound;
  return keep;
}

function top_k_keep(z, k) {
  if (k >= z.length) return new Uint8Array(z.length).fill(1);
  if (non_increasing(z)) return kept_prefix(z, z[k - 1]);
  return at_least(z, Array.from(z).sort((a, b) => b - a)[k - 1]);
}

// The classes in ascending order of a key, ties by index (a stable sort's order), each passed to `drop` until it
// says stop. For a non-increasing key that order is its runs of equal values taken from the last, each run in index
// order, walked in place: no sort and no order of 50,000 words in every frame.
function in_ascending_order(key, drop) {
  if (!non_increasing(key)) {
    for (const i of Array.from(key, (_, i) => i).sort((a, b) => key[a] - key[b] || a - b)) if (!drop(i)) return;
    return;
  }
  for (let end = key.length; end > 0;) {
    let start = end - 1;
    while (start > 0 && key[start - 1] === key[end - 1]) start--;
    for (let i = start; i < end; i++) if (!drop(i)) return;
    end = start;
  }
}

// top-p of p in the ascending order of `key`: p itself, or in the pipeline the scores z/T, as transformers sorts.
function top_p_keep(p, top_p, key = p) {
  const keep = new Uint8Array(p.length).fill(1);
  let running = 0, left = p.length - 1; // the last class in the order always stays
  // the running sum only grows: from the first class it keeps, every later one stays
  in_ascending_order(key, (i) => {
    running += p[i];
    if (left === 0 || !(running <= 1 - top_p)) return false;
    keep[i] = 0;
    left--;
    return true;
  });
  return keep;
}

function min_p_keep(p, min_p) {
  if (non_increasing(p)) return kept_prefix(p, min_p * p[0]);
  let top = -Infinity;
  for (let i = 0; i < p.length; i++) if (p[i] > top) top = p[i];
  return at_least(p, min_p * top);
}

// p on the kept classes over their mass, as a Float64Array. Only the classes up to the last kept one are read or
// written: a filter keeps the head of a vocabulary, and its 49,000 dropped words stay the array's zeros.
function renormalised(p, keep) {
  let live = keep.length;
  while (live > 0 && !keep[live - 1]) live--;
  const q = new Float64Array(p.length);
  for (let i = 0; i < live; i++) if (keep[i]) q[i] = p[i];
  const total = pairwise_sum(q, 0, q.length, live);
  if (!(total > 0)) throw new Error("renormalise needs a kept class with probability > 0");
  for (let i = 0; i < live; i++) q[i] /= total;
  return q;
}

/** Which classes top-k keeps: z_i ≥ the k-th largest logit (ties with the k-th stay); k ≥ K keeps all. In the
 * pipeline it ranks the scores z/T (decode_kept). */
export function top_k_mask(z, k) {
  return booleans(top_k_keep(float_row(z), k));
}

/** Which classes top-p keeps from probabilities p, by Hugging Face's rule: sorted ascending (stable), a class
 * is dropped where the running sum is ≤ 1 − top_p; the most probable always stays. */
export function top_p_mask(p, top_p) {
  return booleans(top_p_keep(float_row(p), top_p));
}

/** Which classes min-p keeps: p_i ≥ min_p · max_j p_j. */
export function min_p_mask(p, min_p) {
  return booleans(min_p_keep(float_row(p), min_p));
}

/** p on the kept classes, divided by their mass (NumPy's pairwise sum, as core's). */
export function renormalise(p, keep) {
  return Array.from(renormalised(float_row(p), keep));
}

const KEEPS = { top_k: top_k_keep, top_p: top_p_keep, min_p: min_p_keep };

/** softmax(z/T), then each stage [name, value] in the order given, each renormalising (core decode). */
export function decode(z, T = 1.0, stages = []) {
  return decode_kept(z, T, stages).p;
}

// Which classes top-k keeps of the scores z/T, as transformers' TemperatureLogitsWarper divides them, the classes
// dropped so far at −∞; only the head [0, live) is read. Division by T > 0 keeps the order of z (it may round two
// logits equal, and both stay, as in transformers), so a vocabulary in rank order with nothing dropped in its head
// is read in one pass with no sort, dividing only around the k-th.
function top_k_scores(x, T, keep, live, k) {
  if (k >= live) return new Uint8Array(live).fill(1);
  let whole = true;
  for (let i = 0; i < live && whole; i++) whole = keep[i] === 1;
  if (whole && non_increasing(live === x.length ? x : x.subarray(0, live))) {
    const bound = x[k - 1] / T;
    let n = k;
    while (n < live && x[n] / T >= bound) n++;
    return new Uint8Array(live).fill(1, 0, n);
  }
  const u = new Float64Array(live);
  for (let i = 0; i < live; i++) u[i] = keep[i] ? x[i] / T : -Infinity;
  return top_k_keep(u, k);
}

/** `decode`'s distribution p, which classes every stage kept (the AND of their masks: not p > 0, which a small
 * T underflows), and softmax(z/T) before the stages (core decode_kept, which returns p and kept). Top-k ranks the
 * scores z/T, top-p and min-p the current p. Like core's NumPy arrays, before and p are Float64Arrays and kept a
 * Uint8Array, 1 where kept: a frame of a drag over 50,000 words does not copy them into lists. */
export function decode_kept(z, T = 1.0, stages = []) {
  const x = float_row(z);
  const before = softmax_row(x, T);
  let p = before, scores = null;
  const keep = new Uint8Array(z.length).fill(1);
  // After a stage every class from `live` on is dropped and has p = +0 (renormalised copies only what a mask
  // kept), so the next stage reads and writes only the head before it: its mask there is the whole row's (top-p
  // drops the zeros first, adding +0 to its running sum), and a dropped class's mask is ANDed away. After top-k
  // 1000 the other stages read 1,000 words of 50,000.
  let live = z.length;
  for (const [name, value] of stages) {
    if (!Object.hasOwn(KEEPS, name)) throw new Error(`a stage must be one of ${Object.keys(KEEPS)}, got ${name}`);
    const head = (a) => (live === a.length ? a : a.subarray(0, live));
    if (name === "top_p" && !scores) {
      // The key of top-p's order. A dropped class keeps its score, not −∞: its p is 0, so where it comes in the
      // order adds nothing to the running sum (and the most probable class, last in the order, is always kept).
      scores = new Float64Array(x.length);
      for (let i = 0; i < x.length; i++) scores[i] = x[i] / T;
    }
    const mask = name === "top_k" ? top_k_scores(x, T, keep, live, value)
      : name === "top_p" ? top_p_keep(head(p), value, head(scores)) : KEEPS[name](head(p), value);
    for (let i = 0; i < live; i++) keep[i] &= mask[i];
    p = renormalised(p, mask);
    while (live > 0 && !keep[live - 1]) live--;
  }
  return { before, p, kept: keep };
}

/** A mixture-of-experts router: exactly k experts' weights, summing to 1, a tie at the k-th broken by the lower
 * index; either published order. */
export function router_weights(scores, k, order = "mask_then_softmax") {
  const keep = new Uint8Array(scores.length);
  for (const i of Array.from(scores, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, k)) keep[i] = 1;
  if (order === "mask_then_softmax") return softmax(scores.map((s, i) => (keep[i] ? s : -Infinity)), 1);
  if (order === "softmax_then_renormalise") return renormalise(softmax(scores, 1), keep);
  throw new Error(`order must be mask_then_softmax or softmax_then_renormalise, got ${order}`);
}

/** ALiBi's slopes by Press et al.'s get_slopes: m_h = 2^(−8h/c), h = 1 … c, for c = 2^⌊log₂ n⌋, then
 * 2^(−8h/2c) for h = 1, 3, 5, … until there are n (core alibi_slopes). */
export function alibi_slopes(n) {
  let c = 1;
  while (2 * c <= n) c *= 2;
  return [...Array.from({ length: c }, (_, h) => 2 ** (-8 * (h + 1) / c)),
    ...Array.from({ length: n - c }, (_, j) => 2 ** (-8 * (2 * j + 1) / (2 * c)))];
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
