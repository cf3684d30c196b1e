// The JavaScript twin of core/calibration.py, for the calibration view (calibration_view.mjs): the same names,
// formulas, bins and summation order (NumPy's, through softmax.mjs `pairwise_sum`), on rows of logits. The
// Python core is the truth; tests/js/calibration.test.mjs checks this file against it on the shipped data.

import { log_softmax_at, pairwise_sum, softmax } from "./softmax.mjs";

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
  // ECE and MCE with the bins, as core's Bins has them (its properties `ece` and `mce`), and each bin's gap
  // |acc − conf| (the calibration view says which bin MCE comes from).
  b.gap = b.accuracy.map((a, m) => Math.abs(a - b.confidence[m]));
  b.ece = pairwise_sum(b.count.map((n, m) => n * b.gap[m])) / pairwise_sum(b.count);
  b.mce = Math.max(...b.gap);
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
  return -pairwise_sum(z.map((row, i) => log_softmax_at(row, labels[i], T))) / z.length;
}

// frexp's exponent e of v > 0 (v = m·2^e, m in [1/2, 1)), read from the bits: Math.log2 rounds near powers of two.
function frexp_exponent(v) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const field = (view.getUint16(0) >> 4) & 0x7ff;
  return v === 0 ? 0 : field === 0 ? frexp_exponent(v * 2 ** 64) - 64 : field - 1022;
}

// Each row's E_q[z] and Var_q[z] / unit², q = softmax(β z), with unit = 4^k the largest |z − E_q[z]| that q
// weighs, to a power of 4: the NLL's slope and curvature in β, averaged, with no curvature underflowing where the
// only gaps q still weighs are tiny (core's _moments).
function moments(z, beta) {
  const rows = z.map((row) => {
    const q = softmax(row, 1 / beta);
    const mean = pairwise_sum(q.map((qk, k) => qk * row[k]));
    return { q, mean, deviation: row.map((v, k) => (q[k] > 0 ? v - mean : 0)) };
  });
  const top = rows.reduce((m, r) => r.deviation.reduce((n, d) => Math.max(n, Math.abs(d)), m), 0);
  const unit = 4 ** Math.floor(frexp_exponent(top) / 2);
  return {
    unit,
    rows: rows.map(({ q, mean, deviation }) => (
      { mean, variance: pairwise_sum(q.map((qk, k) => qk * (deviation[k] / unit) ** 2)) })),
  };
}

const beta_slope = (z, labels, m) => pairwise_sum(m.rows.map((r, i) => r.mean - z[i][labels[i]])) / z.length;

/** d NLL / dT = −(1/T²)·(1/n) Σ_i (E_q[z_i] − z_{i,y_i}), q = softmax(z_i/T). */
export function nll_slope(z, labels, T = 1.0) {
  examples(z, labels);
  return -beta_slope(z, labels, moments(z, 1 / T)) / T / T; // T·T underflows below T = 1.5e-154
}

// The β that fit_temperature tries, in its scaled units: 1/β and β both finite and normal (core BETA_RANGE).
const BETA_RANGE = [2 ** -1022, 2 ** 1022];

/** Temperature scaling: Newton's method on β = 1/T from β = 1, kept inside the bracket where the slope changes
 * sign (rtsafe's safeguards: a step outside it, or one that does not halve the step before, becomes the
 * bracket's geometric midpoint, or a step 2, 4, 16, … times further out while one side is open), on the logits
 * scaled by a power of 4; it stops when Newton's step is within tol·β, the slope within its rounding error, or the
 * bracket holds no float. {T, path} with path the iterates' T (1 first). Step for step core's fit_temperature;
 * the callers' data admits a finite T (core checks why not; the page fits only the shipped data). */
export function fit_temperature(z, labels, tol = 1e-13, max_iter = 50) {
  examples(z, labels);
  const top = Math.max(...z.map((row) => Math.max(...row.map(Math.abs))));
  const scale = 4 ** Math.min(Math.max(Math.floor(frexp_exponent(top) / 2), -500), 500);
  const x = z.map((row) => row.map((v) => v / scale));
  const K = z[0].length;
  // Each logit less its example's label's: no cancellation between E_q[z_i] and z_{i,y_i} (core tells why).
  const gaps = x.map((row, i) => row.map((v) => v - row[labels[i]]));
  let lo = 0, hi = Infinity, beta = scale, reach = 2, last = Infinity;
  const path = [1];
  for (let it = 0; it < max_iter; it++) {
    const { rows, unit } = moments(gaps, beta);
    const slope = pairwise_sum(rows.map((r) => r.mean)) / x.length;
    const curvature = pairwise_sum(rows.map((r) => r.variance)) / x.length; // in unit²
    // The slope's rounding error, bounded by what q weighs (core's fit_temperature).
    const weighed = pairwise_sum(rows.map((r) => Math.abs(r.mean) + Math.sqrt(r.variance) * unit)) / x.length;
    const noise = 4 * K * Number.EPSILON * weighed;
    if (slope > 0) hi = beta;
    else lo = beta;
    // A curvature within the square of the slope's rounding is rounding alone (ties: core's fit_temperature).
    const newton = curvature > (noise / unit) ** 2 ? beta - slope / unit / curvature / unit : NaN;
    let step, done;
    if (Math.abs(newton - beta) <= tol * beta || Math.abs(slope) <= noise) {
      step = lo < newton && newton < hi ? newton : beta;
      done = true;
    } else if (lo < newton && newton < hi && Math.abs(newton - beta) <= 0.5 * last) {
      step = newton;
      done = false;
    } else if (lo === 0 || hi === Infinity) {
      // The range's end is tried before the fit gives up (core's fit_temperature).
      const end = hi === Infinity ? BETA_RANGE[1] : BETA_RANGE[0];
      if (beta === end) throw new Error("no temperature within float64's range fits");
      step = hi === Infinity ? Math.min(beta * reach, end) : Math.max(beta / reach, end);
      reach = Math.min(reach * reach, 2 ** 512);
      done = false;
    } else {
      step = Math.sqrt(lo) * Math.sqrt(hi);
      if (!(lo < step && step < hi)) step = beta;
      done = Math.abs(step - beta) <= tol * beta;
    }
    last = Math.abs(step - beta);
    beta = step;
    path.push(scale / beta); // a converged step may round to β: it is still a step
    if (done) {
      if (!(scale / beta > 0 && scale / beta < Infinity)) throw new Error("no temperature within float64's range fits");
      return { T: scale / beta, path };
    }
  }
  throw new Error(`fit_temperature did not converge in ${max_iter} iterations`);
}
