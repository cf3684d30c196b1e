// The JavaScript twin of the part of core/ the page needs, for one row of K logits: the same names, formulas
// and edge-case rules. The Python core is the truth; tests/browser/test_parity.py checks this file against it
// on a shared fixture. It shares one module scope with the other files of the bundle (app/bundle.py).

function check_logits(z) {
  if (z.length < 1) throw new Error("logits must hold at least one class");
  for (const v of z) {
    if (Number.isNaN(v)) throw new Error("logits contain NaN");
    if (v === Infinity) throw new Error("logits contain +inf");
  }
  if (z.every((v) => v === -Infinity)) throw new Error("every logit is -inf: no class has any probability");
}

function check_temperature(T) {
  if (!(T > 0) || !Number.isFinite(T)) throw new Error(`temperature T must be finite and > 0, got ${T}`);
}

// max z, found without spreading the array (K may be 50,257).
function max_of(z) {
  let m = -Infinity;
  for (const v of z) if (v > m) m = v;
  return m;
}

// Above this T, z − max z could overflow to −inf and hide a non-zero exp(−gap/T): divide first instead.
const DIVIDE_FIRST = Number.MAX_VALUE / 1024;

// (z_k − max z)/T, the shifted and scaled logits: every entry ≤ 0 and the largest is exactly 0, so exp
// never overflows, and for T → 0 the tied maxima stay at 0 while the rest go to −inf.
function scaled_shifted(z, T) {
  const m = max_of(z);
  if (T > DIVIDE_FIRST) return z.map((v) => v / T - m / T);
  return z.map((v) => (v - m) / T);
}

/** logsumexp(z) = max z + log1p(Σ_{k≠argmax} e^{z_k − max z}); keeps e^−40-sized terms. */
export function logsumexp(z) {
  check_logits(z);
  const m = max_of(z);
  let rest = 0;
  let seen_max = false;
  for (const v of z) {
    if (v === m && !seen_max) { seen_max = true; continue; }
    rest += Math.exp(v - m);
  }
  return m + Math.log1p(rest);
}

/** softmax(z, T)_k = e^{(z_k − max z)/T} / Σ_j e^{(z_j − max z)/T}. */
export function softmax(z, T = 1.0) {
  check_logits(z);
  check_temperature(T);
  const e = scaled_shifted(z, T).map(Math.exp);
  let s = 0;
  for (const v of e) s += v;
  return e.map((v) => v / s);
}

/** log_softmax(z, T)_k = u_k − logsumexp(u), u = (z − max z)/T. */
export function log_softmax(z, T = 1.0) {
  check_logits(z);
  check_temperature(T);
  const u = scaled_shifted(z, T);
  const lse = logsumexp(u);
  return u.map((v) => v - lse);
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

/** cross_entropy(z, y; T, ε) = −Σ_k y'_k log softmax(z/T)_k, in nats; −log p_y when ε = 0. */
export function cross_entropy(z, y, T = 1.0, label_smoothing = 0.0) {
  const t = smoothed_target(y, z.length, label_smoothing);
  const lp = log_softmax(z, T);
  let loss = 0;
  for (let k = 0; k < z.length; k++) if (t[k] !== 0) loss -= t[k] * lp[k];
  return loss;
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
  let others = 0;
  for (const v of g) others += v;
  g[y] = -others;
  const eps = label_smoothing;
  for (let k = 0; k < K; k++) g[k] *= 1 - eps;
  if (eps) {
    const a = eps / K;
    let a_sum = 0;
    for (let k = 0; k < K; k++) a_sum += a;
    for (let k = 0; k < K; k++) g[k] += p[k] * a_sum - a;
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
  let h = 0;
  for (const v of p) if (v > 0) h += v * Math.log(v);
  return -h / (base === null ? 1 : Math.log(base)) + 0;
}

/** kl_divergence(p, q) = Σ_k p_k (log p_k − log q_k), +inf where q_k = 0 < p_k (no p/q overflow). */
export function kl_divergence(p, q, base = null) {
  check_distribution(p, "p");
  check_distribution(q, "q");
  if (p.length !== q.length) throw new Error(`p and q differ in length: ${p.length} and ${q.length}`);
  let d = 0;
  for (let k = 0; k < p.length; k++) {
    if (p[k] > 0) d += p[k] * (Math.log(p[k]) - Math.log(q[k]));
  }
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
    let s = 0;
    for (const v of r) s += v;
    r[i] = -s;
    return r.map((v) => v / T);
  });
}
