// The lesson in motion: gradient steps on the logits, draws by the Gumbel-max trick, the Jacobian, and softmax
// computed in a finite floating-point type. Pure functions of a state (and of the draws' kept noise): the
// JavaScript twins of core/cross_entropy.py gradient_step, core/sampling.py and core/floating.py, checked
// against them in tests/js/twins.test.mjs.

import { fmt, fmt_exp, fmt_text } from "./digits.mjs";
import { escape_html, fill, grouped } from "./readouts.mjs";
import { gumbel_max_counts } from "./sampling.mjs";
import { grad_logits, log_softmax, pairwise_sum, smoothed_target, softmax_jacobian } from "./softmax.mjs";

/** One step of gradient descent on the logits, z ← z − η·(p − y′)/T (core gradient_step). */
export function gradient_step(z, y, lr, T = 1.0, eps = 0.0) {
  const g = grad_logits(z, y, T, eps);
  return z.map((v, k) => v - lr * g[k]);
}

// ---- softmax in float64, float32 and float16 (core/floating.py) ------------------------------------------

/** x rounded to the nearest float16 (ties to even): 65520 and beyond overflow to ±∞, below 2^−24 to ±0. */
export function f16round(x) {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1; // log2 may round up just below a power of two
  const q = 2 ** (Math.max(e, -14) - 10); // the spacing of float16 at a: 10 bits after the point, subnormal below 2^−14
  const v = a / q; // exact: a power of two
  let r = Math.round(v);
  if (r - v === 0.5 && r % 2 !== 0) r -= 1; // Math.round takes a tie up; float16 takes it to even
  return Math.sign(x) * r * q;
}

const ROUND = { float64: (x) => x, float32: Math.fround, float16: f16round };

/** ln M, M the type's largest finite value: exp(x) overflows past it (core overflow_at). */
export const OVERFLOW_AT = { float64: Math.log(Number.MAX_VALUE), float32: Math.log(3.4028234663852886e38),
  float16: Math.log(65504) };

function rounded_sum(values, r) {
  let total = 0;
  for (const v of values) total = r(total + v);
  return total;
}

// Everything the three ways compute in the type, every operation rounded: u = z/T, LSE(u) = m + ln Σ exp(u − m)
// with m = max u, and the three softmaxes (core/floating.py _three_ways).
function three_ways_in(z, T, dtype) {
  const r = ROUND[dtype];
  const u = z.map((v) => r(r(v) / r(T)));
  const m = Math.max(...u);
  const shifted = u.map((v) => r(Math.exp(r(v - m))));
  const total = rounded_sum(shifted, r);
  const e = u.map((v) => r(Math.exp(v)));
  const sum = rounded_sum(e, r);
  const lse = r(m + r(Math.log(total)));
  return { r, u, lse, sum, naive: e.map((v) => r(v / sum)), shifted: shifted.map((v) => r(v / total)),
    log: u.map((v) => r(Math.exp(r(v - lse)))) };
}

// H(y′, p) two ways from the three ways `w`: from ln of the shifted softmax, and from u − LSE(u).
function losses_of(w, target) {
  const { r, u, lse, shifted } = w;
  const weighed = (f) => rounded_sum(target.flatMap((v, k) => (v > 0 ? [r(-r(r(v) * f(k)))] : [])), r);
  return [weighed((k) => r(Math.log(shifted[k]))), weighed((k) => r(u[k] - lse))];
}

/** softmax(z/T) three ways in `dtype`: naive exp/Σexp, max-shifted, and exp of log-softmax (core
 * softmax_three_ways). */
export function softmax_three_ways(z, T, dtype) {
  const { naive, shifted, log } = three_ways_in(z, T, dtype);
  return { naive, shifted, log };
}

/** H(y′, p) in `dtype` two ways: from ln of the shifted softmax, and from u − LSE(u) (core loss_two_ways). */
export function loss_two_ways(z, y, T, eps, dtype) {
  return losses_of(three_ways_in(z, T, dtype), smoothed_target(y, z.length, eps));
}

// ---- the Jacobian ∂p/∂z (core softmax_jacobian) -----------------------------------------------------------

// A diverging scale, blue (negative) through white to red (positive): ColorBrewer's RdBu, 11 classes, of which
// the seven middle ones are used, so the cells' dark text stays legible on every one.
const RDBU = ["#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7", "#fddbc7", "#f4a582", "#d6604d",
  "#b2182b", "#67001f"];

/** The heatmap's cells, row-major: i, j, ∂p_i/∂z_j, its colour on a scale symmetric about 0 (7 steps from
 * −max|J| to max|J|) and its text (left out beyond six classes). */
export function jacobian_cells(z, T) {
  const J = softmax_jacobian(z, T);
  const K = z.length;
  const top = Math.max(...J.flat().map(Math.abs));
  const cells = { i: [], j: [], value: [], color: [], text: [] };
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      const v = J[i][j];
      const step = top > 0 ? Math.round((v / top) * 3) : 0;
      cells.i.push(i);
      cells.j.push(j);
      cells.value.push(v);
      cells.color.push(RDBU[5 + step]);
      cells.text.push(K <= 6 ? fmt_text(v) : "");
    }
  }
  return { J, cells };
}

/** (∂L/∂p)ᵀJ: the chain rule through the Jacobian, ∂L/∂p_i = −y′_i/p_i; it equals (p − y′)/T. */
export function chain_through(J, p, target) {
  const K = p.length;
  const dL_dp = target.map((w, i) => (w > 0 ? -w / p[i] : 0));
  return Array.from({ length: K }, (_, j) => dL_dp.reduce((acc, d, i) => (d === 0 ? acc : acc + d * J[i][j]), 0));
}

// ---- draws by the Gumbel-max trick (core/sampling.py) -----------------------------------------------------

/** The draws' columns for state s and its kept noise (n×K, row-major): each class's count, its frequency f
 * and the whisker f ± 2σ, σ = √(p(1 − p)/N), kept within [0, 1]. */
export function sample_columns(s, p, noise) {
  const counts = gumbel_max_counts(s.z, noise, s.T);
  const n = noise.length / s.z.length;
  const freq = counts.map((c) => c / n);
  const sigma = p.map((pk) => Math.sqrt((pk * (1 - pk)) / n));
  return { x: counts.map((_, k) => k), count: counts, freq,
    lower: freq.map((f, k) => Math.max(0, f - 2 * sigma[k])), upper: freq.map((f, k) => Math.min(1, f + 2 * sigma[k])) };
}

/** The first `rows` draws as a race: each class's z_k/T + g_k, and the winner's index. */
export function race(s, noise, rows) {
  const K = s.z.length;
  const out = [];
  for (let d = 0; d < Math.min(rows, noise.length / K); d++) {
    const scores = s.z.map((v, k) => v / s.T + noise[d * K + k]);
    let best = 0;
    for (let k = 1; k < K; k++) if (scores[k] > scores[best]) best = k;
    out.push({ scores, best });
  }
  return out;
}

// ---- the readouts of the lab, as HTML ---------------------------------------------------------------------

function badge(x) {
  if (Number.isNaN(x)) return '<span class="badge nan">NaN</span>';
  if (x === Infinity) return '<span class="badge inf">+inf</span>';
  if (x === -Infinity) return '<span class="badge inf">−inf</span>';
  return null;
}

// A value of the naive view: a badge for inf or NaN (never a number), else 4 significant digits.
function typed(x) {
  return badge(x) ?? (x === 0 ? "0" : x.toPrecision(4).replace("-", "\u2212"));
}

/** The naive softmax view: the three ways side by side in s.dtype, the overflow threshold and the loss two
 * ways; "" when the view is closed. */
// ln of half of each type's smallest subnormal (2^-1074, 2^-149, 2^-24): a value below it rounds to 0.
const ZERO_BELOW = { float64: -1075 * Math.LN2, float32: -150 * Math.LN2, float16: -25 * Math.LN2 };

export function naive_html(s, t) {
  if (!s.naive) return "";
  const { z, T, y, eps, dtype } = s;
  const names = s.names.map(escape_html);
  const ways = three_ways_in(z, T, dtype);
  const [from_log_p, from_lse] = losses_of(ways, smoothed_target(y, z.length, eps));
  const top = Math.max(...ways.u);
  const at = OVERFLOW_AT[dtype];
  const over = top > at;
  const head = [t.col_class, "z/T", t.naive_col_naive, t.naive_col_shifted, t.naive_col_log];
  const rows = z.map((_, k) => [names[k], typed(ways.u[k]), typed(ways.naive[k]), typed(ways.shifted[k]),
    typed(ways.log[k])]);
  const row = (cells, tag) => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`;
  // No term overflows but their sum does (float16 z/T = 11, 11, 0): the naive way shows zeros, not NaN.
  const text = over ? t.naive_over : ways.sum === Infinity ? t.naive_sum : t.naive_under;
  const limit = fill(text, { dtype, at: at.toFixed(2), top: typed(top) });
  const every = Object.entries(OVERFLOW_AT).map(([d, v]) =>
    (d === dtype ? `<b>${d} ${v.toFixed(2)}</b>` : `${d} ${v.toFixed(2)}`)).join(" · ");
  // A p below half the type's smallest number rounds to 0 in every way here, while the bars and the table of
  // classes write it exactly from log p: said, so the two never seem to disagree.
  const log_p = log_softmax(z, T);
  const tiny = z.flatMap((_, k) => (log_p[k] < ZERO_BELOW[dtype] ? [`${names[k]} ${fmt_exp(log_p[k])}`] : []));
  const note = tiny.length ? `<p class="aside">${fill(t.naive_tiny, { dtype, values: tiny.join(" · ") })}</p>` : "";
  return `<div class="label">${fill(t.naive_title, { dtype })}</div>` +
    `<p class="${over || ways.sum === Infinity ? "over" : "under"}">${limit} <span class="aside">ln(max): ${every}</span></p>` +
    `<table><thead>${row(head, "th")}</thead><tbody>${rows.map((r) => row(r, "td")).join("")}</tbody></table>` + note +
    `<p>${t.naive_loss_log_p} <span class="value">${typed(from_log_p)}</span> · ${t.naive_loss_lse} ` +
    `<span class="value">${typed(from_lse)}</span></p>`;
}

/** The update of one step, written with the lesson's numbers for the true class, and Σz. */
export function update_html(s, n, t) {
  const { z, y, T, lr } = s;
  const next = z[y] - lr * -n.g[y];
  return `${t.update_label} z<sub>${escape_html(s.names[y])}</sub> ← ${fmt(z[y])} − ${fmt(lr)}·(${fmt(n.p[y])} − ` +
    `${fmt(n.target[y])})/${fmt(T)} = <span class="value">${fmt(next)}</span>` +
    ` <span class="aside">· ${fill(t.update_stable, { limit: fmt(4 * T * T) })}</span>` +
    `<br>${t.update_sum} Σz = <span class="value">${fmt(pairwise_sum(z))}</span>`;
}

/** The Jacobian's rows' sums and the chain rule through it, beside the arrows' (p − y′)/T. */
export function chain_html(s, n, J, t) {
  const chain = chain_through(J, n.p, n.target);
  const row_sums = J.map((r) => pairwise_sum(r));
  const top = Math.max(...row_sums.map(Math.abs));
  const list = (values) => values.map((v) => badge(v) ?? fmt(v)).join(", ");
  return `${t.jacobian_rows} <span class="value">${fmt(top < 1e-12 ? 0 : top)}</span>` +
    `<br>${t.jacobian_chain} <span class="value">${list(chain)}</span>` +
    `<br>${t.jacobian_arrows} <span class="value">${list(n.g.map((v) => -v))}</span>`;
}

/** The race of the first draws: z_k/T + g_k per class, the winner marked; then the wins of every class in all N
 * draws (`counts`: what the diamonds on the bars show as shares). */
export function race_html(s, noise, t, counts) {
  const names = s.names.map(escape_html);
  const draws = race(s, noise, 5);
  const head = `<tr><th>${t.race_draw}</th>${names.map((nm) => `<th>${nm}</th>`).join("")}</tr>`;
  const body = draws.map((d, i) => `<tr><td>${i + 1}</td>` + d.scores.map((v, k) =>
    `<td${k === d.best ? ' class="win"' : ""}>${fmt(v)}</td>`).join("") + "</tr>").join("");
  const tally = names.map((nm, k) => `${nm} ${grouped(counts[k])}`).join(" · ");
  return `<div class="label">${t.race_title}</div><table><thead>${head}</thead><tbody>${body}</tbody></table>` +
    `<p>${fill(t.race_counts, { n: grouped(noise.length / s.z.length), counts: tally })}</p>`;
}
