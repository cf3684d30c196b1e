// The JavaScript twin of core/calibration.py, for the calibration view (calibration_view.mjs): the same names,
// formulas, bins and summation order (NumPy's, through softmax.mjs `pairwise_sum`), on rows of logits. The
// Python core is the truth; tests/js/calibration.test.mjs checks this file against it on the shipped data.

function examples(z, labels) {
  if (z.length === 0 || z[0].length < 2) throw new Error("logits must be n × K with n ≥ 1 and K ≥ 2");
  if (labels.length !== z.length) throw new Error(`labels must be ${z.length} class indices`);
}

/** Each example's confidence, max_k softmax(z/T)_k, and whether its argmax (the first on a tie) is its label. */
export function confidence_and_correct(z, labels, T = 1.0) {
  examples(z, labels);
  const confidence = z.map((row) => Math.max(...softmax(row, T)));
  const correct = z.map((row, i) => row.indexOf(Math.max(...row)) === labels[i]);
  return { confidence, correct };
}

/** M equal-width bins of confidence, ((m − 1)/M, m/M] (0 in the first), empty ones left out; edges as
 * np.linspace(0, 1, M + 1). */
export function reliability_bins(confidence, correct, M = 15) {
  if (confidence.length === 0) throw new Error("no examples: confidence is empty");
  const edges = Array.from({ length: M + 1 }, (_, m) => (m === M ? 1 : m * (1 / M)));
  const count = new Array(M).fill(0), sum_c = new Array(M).fill(0), sum_ok = new Array(M).fill(0);
  confidence.forEach((c, i) => {
    let m = 0;
    while (m < M - 1 && edges[m + 1] < c) m++;
    count[m]++;
    sum_c[m] += c;
    sum_ok[m] += correct[i] ? 1 : 0;
  });
  const kept = count.flatMap((n, m) => (n > 0 ? [m] : []));
  const b = {
    lower: kept.map((m) => edges[m]), upper: kept.map((m) => edges[m + 1]),
    confidence: kept.map((m) => sum_c[m] / count[m]), accuracy: kept.map((m) => sum_ok[m] / count[m]),
    count: kept.map((m) => count[m]),
  };
  // ECE and MCE with the bins, as core's Bins has them (its properties `ece` and `mce`).
  const gaps = b.accuracy.map((a, m) => Math.abs(a - b.confidence[m]));
  b.ece = pairwise_sum(b.count.map((n, m) => n * gaps[m])) / pairwise_sum(b.count);
  b.mce = Math.max(...gaps);
  return b;
}

/** ECE = Σ_m (|B_m| / n)·|acc(B_m) − conf(B_m)|. */
export function expected_calibration_error(confidence, correct, M = 15) {
  return reliability_bins(confidence, correct, M).ece;
}

/** MCE = max_m |acc(B_m) − conf(B_m)| over the non-empty bins. */
export function maximum_calibration_error(confidence, correct, M = 15) {
  return reliability_bins(confidence, correct, M).mce;
}

/** The mean NLL in nats, (1/n) Σ_i −log softmax(z_i/T)_{y_i}. */
export function mean_nll(z, labels, T = 1.0) {
  examples(z, labels);
  return -pairwise_sum(z.map((row, i) => log_softmax(row, T)[labels[i]])) / z.length;
}

// Each row's E_q[z] and Var_q[z], q = softmax(β z): the NLL's slope and curvature in β, averaged.
function moments(z, beta) {
  return z.map((row) => {
    const q = softmax(row, 1 / beta);
    const mean = pairwise_sum(q.map((qk, k) => qk * row[k]));
    return { mean, variance: pairwise_sum(q.map((qk, k) => qk * (row[k] - mean) ** 2)) };
  });
}

const beta_slope = (z, labels, m) => pairwise_sum(m.map((r, i) => r.mean - z[i][labels[i]])) / z.length;

/** d NLL / dT = −(1/T²)·(1/n) Σ_i (E_q[z_i] − z_{i,y_i}), q = softmax(z_i/T). */
export function nll_slope(z, labels, T = 1.0) {
  examples(z, labels);
  return -beta_slope(z, labels, moments(z, 1 / T)) / (T * T);
}

/** Temperature scaling: Newton's method on β = 1/T from β = 1, kept inside the bracket where the slope changes
 * sign; {T, path} with path the iterates' T (1 first). The callers' data admits a finite T (core checks why
 * not; the page fits only the shipped data). */
export function fit_temperature(z, labels, tol = 1e-13, max_iter = 50) {
  examples(z, labels);
  let lo = 0, hi = Infinity, beta = 1;
  const path = [1];
  for (let it = 0; it < max_iter; it++) {
    const m = moments(z, beta);
    const slope = beta_slope(z, labels, m), curvature = pairwise_sum(m.map((r) => r.variance)) / z.length;
    if (slope > 0) hi = beta;
    else lo = beta;
    let step = curvature > 0 ? beta - slope / curvature : Infinity;
    if (!(lo < step && step < hi)) step = hi === Infinity ? 2 * beta : 0.5 * (lo + hi);
    const done = Math.abs(step - beta) <= tol * beta;
    beta = step;
    path.push(1 / beta);
    if (done) return { T: 1 / beta, path };
  }
  throw new Error(`fit_temperature did not converge in ${max_iter} iterations`);
}
