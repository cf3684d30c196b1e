// The JavaScript twin of core/'s functions for one row of K logits (the page uses most; the parity test checks
// them all): the same names, formulas, summation order and edge-case rules. The Python core is the truth;
// tests/js/twins.test.mjs checks this file against it on a shared fixture (tests/parity_cases.py). It shares
// one module scope with the other files of the bundle (app/bundle.py).

// One indexed pass: `for of` and `every` over rows of 50,000 words took a frame's tenth (bench_vocabulary.mjs).
function check_logits(z) {
  if (z.length < 1) throw new Error("logits must hold at least one class");
  let some_class = false;
  for (let k = 0; k < z.length; k++) {
    const v = z[k];
    if (Number.isNaN(v)) throw new Error("logits contain NaN");
    if (v === Infinity) throw new Error("logits contain +inf");
    if (v !== -Infinity) some_class = true;
  }
  if (!some_class) throw new Error("every logit is -inf: no class has any probability");
}

function check_temperature(T) {
  if (!(T > 0) || !Number.isFinite(T)) throw new Error(`temperature T must be finite and > 0, got ${T}`);
}

/**
 * Σ values in NumPy's order: a plain loop below 8 terms, eight running sums up to 128, halves beyond. The
 * twins then round alike where a sum lands on a display tie (ten equal logits, ε = 0.25: −∂L/∂z = 0.3375).
 * Terms from index `live` on are +0 and not read: a block of them sums to +0 in any order, and x + 0 = x, so the
 * sum is the same to the bit (a renormalisation of 1,000 kept words out of 50,000 reads 1,000).
 */
export function pairwise_sum(a, start = 0, n = a.length - start, live = start + n) {
  if (start >= live) return 0;
  if (n < 8) {
    let res = 0;
    for (let i = start; i < start + n; i++) res += a[i];
    return res;
  }
  if (n <= 128) {
    const r = a.slice(start, start + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise_sum(a, start, n2, live) + pairwise_sum(a, start + n2, n - n2, live);
}

// max z, found without spreading the array (K may be 50,257).
function max_of(z) {
  let m = -Infinity;
  for (let k = 0; k < z.length; k++) if (z[k] > m) m = z[k];
  return m;
}

// Above this T, z − max z could overflow to −inf and hide a non-zero exp(−gap/T): divide first instead.
const DIVIDE_FIRST = Number.MAX_VALUE / 1024;

// (v − m)/T for a logit v and the row's max m: ≤ 0, exactly 0 at the max, so exp never overflows, and for
// T → 0 the tied maxima stay at 0 while the rest go to −inf.
const shift_scale = (v, m, T) => (T > DIVIDE_FIRST ? v / T - m / T : (v - m) / T);

// (z_k − max z)/T, the shifted and scaled logits, as a Float64Array filled by a loop: rows of 50,000 words stay
// within a frame (bench_vocabulary.mjs).
function scaled_shifted(z, T) {
  const m = max_of(z);
  const u = new Float64Array(z.length);
  for (let k = 0; k < z.length; k++) u[k] = shift_scale(z[k], m, T);
  return u;
}

// log Σ_k e^{u_k} for u ≤ 0 with u[top] = 0: log1p of the others, the top term left out (as core does).
function log1p_others(u, top) {
  const e = Array.from(u, (v, k) => (k === top ? 0 : Math.exp(v)));
  return Math.log1p(pairwise_sum(e));
}

/** logsumexp(z) = max z + log1p(Σ_{k≠argmax} e^{z_k − max z}); keeps e^−40-sized terms. */
export function logsumexp(z) {
  check_logits(z);
  const m = max_of(z);
  return m + log1p_others(z.map((v) => v - m), z.indexOf(m));
}

// check_logits and max_of in one pass, for softmax_row's Float64Array alone: a loop that reads one kind of array
// stays fast, and check_logits reads every kind (the lesson's lists, a vocabulary's row), which made the
// checks of a row of 50,000 words cost a frame of a drag 2 ms.
function checked_max(x) {
  if (x.length < 1) throw new Error("logits must hold at least one class");
  let m = -Infinity;
  for (let k = 0; k < x.length; k++) {
    const v = x[k];
    if (v <= m) continue;
    if (Number.isNaN(v)) throw new Error("logits contain NaN");
    if (v === Infinity) throw new Error("logits contain +inf");
    m = v;
  }
  if (m === -Infinity) throw new Error("every logit is -inf: no class has any probability");
  return m;
}

export const float_row = (z) => (z instanceof Float64Array ? z : Float64Array.from(z));

// softmax(z, T) as a Float64Array, divided in place: decoding.mjs keeps a row of 50,000 words in it, uncopied.
export function softmax_row(z, T) {
  const x = float_row(z);
  const m = checked_max(x);
  check_temperature(T);
  // A vocabulary's logits come in runs of equal values (wordfreq's frequency buckets): one shift, scale and exp
  // per run (the same numbers as one per class), in the pass that fills the row.
  const e = new Float64Array(x.length);
  let z_run = NaN, e_run = NaN;
  for (let k = 0; k < x.length; k++) {
    if (x[k] !== z_run) {
      z_run = x[k];
      e_run = Math.exp(shift_scale(z_run, m, T));
    }
    e[k] = e_run;
  }
  const s = pairwise_sum(e);
  for (let k = 0; k < e.length; k++) e[k] /= s;
  return e;
}

/** softmax(z, T)_k = e^{(z_k − max z)/T} / Σ_j e^{(z_j − max z)/T}. */
export function softmax(z, T = 1.0) {
  return Array.from(softmax_row(z, T));
}

/** log_softmax(z, T)_k = u_k − logsumexp(u), u = (z − max z)/T. */
export function log_softmax(z, T = 1.0) {
  check_logits(z);
  check_temperature(T);
  const u = scaled_shifted(z, T);
  const lse = log1p_others(u, z.indexOf(max_of(z)));
  return Array.from(u, (v) => v - lse);
}

/** log softmax(z/T)_y alone: log_softmax(z, T)[y] to the bit, without the other entries (a mean NLL needs one
 * per example). */
export function log_softmax_at(z, y, T = 1.0) {
  check_logits(z);
  check_temperature(T);
  const u = scaled_shifted(z, T);
  return u[y] - log1p_others(u, z.indexOf(max_of(z)));
}

/** The smoothed one-hot target y'_k = (1 − ε)[k = y] + ε/K. */
export function smoothed_target(y, K, label_smoothing = 0.0) {
  if (!Number.isInteger(y) || y < 0 || y >= K) throw new Error(`target ${y} is out of range for ${K} classes`);
  if (!(label_smoothing >= 0 && label_smoothing <= 1)) {
    throw new Error(`label_smoothing must lie in [0, 1], got ${label_smoothing}`);
  }
  const t = new Array(K).fill(label_smoothing / K);
  t[y] += 1 - label_smoothing;
  return t;
}

/**
 * cross_entropy(z, y; T, ε) = −Σ_k y'_k log softmax(z/T)_k, in nats; −log p_y when ε = 0. Computed as core
 * does: (1 − ε)(lse − u_y) + (ε/K)·Σ_k (lse − u_k), u = (z − max z)/T, without forming log p.
 */
export function cross_entropy(z, y, T = 1.0, label_smoothing = 0.0) {
  check_logits(z);
  check_temperature(T);
  smoothed_target(y, z.length, label_smoothing);
  const eps = label_smoothing;
  const u = scaled_shifted(z, T);
  const lse = log1p_others(u, z.indexOf(max_of(z)));
  const nll = lse - u[y];
  if (!eps) return nll;
  const a = eps / z.length;
  const smooth = eps * lse - pairwise_sum(u.map((v) => a * v));
  return eps < 1 ? (1 - eps) * nll + smooth : smooth;
}

/**
 * grad_logits(z, y; T, ε) = ∂L/∂z = (softmax(z/T) − y')/T; the arrows draw its negative.
 * The target entry is −Σ_{k≠y} p_k rather than p_y − 1, so a confident, correct prediction keeps its tiny
 * exact push instead of 0, and the entries sum to 0.
 */
export function grad_logits(z, y, T = 1.0, label_smoothing = 0.0) {
  const K = z.length;
  smoothed_target(y, K, label_smoothing);
  const p = softmax(z, T);
  const g = p.slice();
  g[y] = 0;
  g[y] = -pairwise_sum(g);
  const eps = label_smoothing;
  for (let k = 0; k < K; k++) g[k] *= 1 - eps;
  if (eps) {
    const a = eps / K;
    for (let k = 0; k < K; k++) g[k] += p[k] * eps - a; // Σ_k ε/K is ε exactly, not a rounded sum
  }
  return g.map((v) => v / T);
}

/** H(y') = −(1 − m) log(1 − m) − m (log ε − log K), m = ε(K − 1)/K: the floor label smoothing puts under the loss. */
export function label_smoothing_floor(K, eps) {
  const moved = eps * ((K - 1) / K);
  let h = moved < 1 ? -(1 - moved) * Math.log1p(-moved) : 0;
  if (eps) h -= moved * (Math.log(eps) - Math.log(K));
  return h + 0;
}

/** ln((1 − ε + ε/K)/(ε/K)) = log1p(K(1 − ε)/ε): the logit gap at which the smoothed loss is lowest (T = 1). */
export function label_smoothing_optimal_gap(K, eps) {
  if (!eps) return Infinity;
  const ratio = K * (1 - eps) / eps;
  return ratio < Infinity ? Math.log1p(ratio) : Math.log(K) + Math.log1p(-eps) - Math.log(eps);
}

/** ln K: the loss of a model that knows nothing (all logits equal). */
export function uniform_loss(K) {
  return Math.log(K);
}

function check_distribution(p, name) {
  for (const v of p) {
    if (!(v >= 0 && v <= 1)) throw new Error(`${name} must hold probabilities: every entry in [0, 1], got ${v}`);
  }
}

/** entropy(p) = −Σ_k p_k log p_k (0·log 0 = 0), in nats, or in bits with base = 2. */
export function entropy(p, base = null) {
  check_distribution(p, "p");
  const h = pairwise_sum(p.map((v) => (v > 0 ? v * Math.log(v) : 0)));
  return -h / (base === null ? 1 : Math.log(base)) + 0;
}

/** kl_divergence(p, q) = Σ_k p_k (log p_k − log q_k), +inf where q_k = 0 < p_k (no p/q overflow). */
export function kl_divergence(p, q, base = null) {
  check_distribution(p, "p");
  check_distribution(q, "q");
  if (p.length !== q.length) throw new Error(`p and q differ in length: ${p.length} and ${q.length}`);
  const d = pairwise_sum(p.map((v, k) => (v > 0 ? v * (Math.log(v) - Math.log(q[k])) : 0)));
  return d / (base === null ? 1 : Math.log(base)) + 0;
}

/**
 * softmax_jacobian(z, T)_ij = ∂p_i/∂z_j = p_i(δ_ij − p_j)/T. The diagonal p_i(1 − p_i) is computed as
 * minus the row's off-diagonal sum, so it keeps its tiny value where p_i rounds to 1.
 */
export function softmax_jacobian(z, T = 1.0) {
  const p = softmax(z, T);
  return p.map((pi, i) => {
    const r = p.map((pj, j) => (i === j ? 0 : pi * -pj));
    r[i] = -pairwise_sum(r);
    return r.map((v) => v / T);
  });
}
