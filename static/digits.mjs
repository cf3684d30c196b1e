// Numbers as people read them, with every shown digit right (tests/js/digits.test.mjs checks every function
// against the oracle, tests/digits_oracle.py).
//
// Display of a real y: fixed with 3 decimals (toFixed(3)) when y = 0 or 1e-3 ≤ |y| < 1e6, else 3
// significant digits (toExponential(2)) as m×10<sup>e</sup>. toFixed/toExponential round the exact value of
// their double, so fmt is exact; fmt_exp must get e^u right first, for every double u, even where Math.exp
// is subnormal (exp(−744) is 7.67×10⁻³²⁴, the double 9.88e-324), 0 or Infinity.
//
// Why the fast path is almost always enough: each shown string covers one interval of reals (the
// boundaries are the ties m.mm5×10^e and x.xxx5 and the switches at 1e-3 and 1e6), so if lo ≤ e^u ≤ hi and
// lo, hi show the same string, so does e^u. lo, hi = estimate·(1 ∓ EXP_EPS). Boundaries are at least 5e-10
// apart relatively (999999.9995 vs 1e6), far more than the bracket's 3e-14, so when the strings differ
// exactly one boundary b lies between them, and one exact comparison, u < ln b, settles it.

// Relative error allowed for the estimate of e^u (or of the mantissa 10^f): Math.exp's error (< 1 ulp =
// 2^-52 in V8, SpiderMonkey and JavaScriptCore; 2^-47 is allowed) plus the mantissa path's roundings
// (< 2^-50) and those of y·(1 ∓ EXP_EPS). The exact path then runs for about 1e-11 of scientific outputs.
const EXP_EPS = 2 ** -46;
const MINUS = "\u2212";
const SUPERSCRIPT = { 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹", "\u2212": "⁻" };

/** A double as people read it: 0.417, −2.500, 1.50×10<sup>−17</sup>, ∞. */
export function fmt(x) {
  if (Number.isNaN(x)) return "—";
  if (x === Infinity) return "∞";
  if (x === -Infinity) return MINUS + "∞";
  const a = Math.abs(x);
  if (x === 0 || (a >= 1e-3 && a < 1e6)) return (x + 0).toFixed(3).replace("-", MINUS);
  return sci_html(x.toExponential(2));
}

/** e^u as people read it, correctly rounded for every double u. */
export function fmt_exp(u) {
  if (Number.isNaN(u)) return "—";
  if (u === Infinity) return "∞";
  if (u === -Infinity) return "0.000";
  if (Math.abs(u) <= 708) {
    // e^u is a normal double here, so Math.exp is accurate; no double lies between 10^-3 and 1e-3.
    const y = Math.exp(u);
    const a = shown(y * (1 - EXP_EPS));
    const b = shown(y * (1 + EXP_EPS));
    return sci_html(a === b || exp_below(u, ...upper_edge(a, 0n)) ? a : b);
  }
  // e^u = 10^k · 10^f, far outside [1e-3, 1e6): always scientific, with digits from the mantissa 10^f.
  const [k, f] = log10_split(u);
  const m = Math.exp(f * Math.LN10);
  const a = (m * (1 - EXP_EPS)).toExponential(2);
  const b = (m * (1 + EXP_EPS)).toExponential(2);
  return sci_html(a === b || exp_below(u, ...upper_edge(a, k)) ? a : b, k);
}

// A number's HTML as plain text, its exponent in superscript characters: for labels drawn on a canvas.
function as_text(html) {
  if (!html.includes("<sup>")) return html;
  const [mantissa, exponent] = html.replace("</sup>", "").split("<sup>");
  return mantissa + Array.from(exponent, (c) => SUPERSCRIPT[c] ?? c).join("");
}

/** fmt_exp as plain text for labels drawn on a canvas: 7.67×10⁻³²⁴. */
export function fmt_exp_text(u) {
  return as_text(fmt_exp(u));
}

/** fmt as plain text for labels drawn on a canvas: −2.500, 1.50×10⁻⁵. */
export function fmt_text(x) {
  return as_text(fmt(x));
}

/** A logit or a real field as its input and a link write it: at most 4 decimals (a tie away from zero), the
 * shortest text of that, so 0.1 − 1 + 1 shows as 0.1 and a link carries z=11.4932, not 11.493243243243244. */
export function logit_text(z) {
  return String(Number(z.toFixed(4)));
}

/** A real field (T, ε, η) as a link writes it: 4 significant digits (a tie to the larger magnitude), the
 * shortest text of that: a slider's η = 0.00123 keeps its digits, a typed T = 0.50001 is written 0.5. */
export function real_text(x) {
  return String(Number(x.toPrecision(4)));
}

// toFixed(3) or toExponential(2) of a double x > 0, by the display rule.
function shown(x) {
  return x >= 1e-3 && x < 1e6 ? x.toFixed(3) : x.toExponential(2);
}

// HTML of a toFixed/toExponential string s, its decimal exponent raised by k.
function sci_html(s, k = 0n) {
  const i = s.indexOf("e");
  if (i < 0) return s.replace("-", MINUS);
  const e = BigInt(s.slice(i + 1)) + k;
  const a = e < 0n ? -e : e;
  const exponent = a < 1000000n ? String(a) : fmt_integer(a);
  return `${s.slice(0, i).replace("-", MINUS)}×10<sup>${e < 0n ? MINUS : ""}${exponent}</sup>`;
}

// fmt of an exact integer 1e6 ≤ a < 2^1024. Past 2^53 Number(a) is itself a rounding of a, so bracket it
// as fmt_exp does, and read the decimal digits only next to a tie.
function fmt_integer(a) {
  const x = Number(a);
  const s = (x * (1 - 2 ** -50)).toExponential(2);
  if (s === (x * (1 + 2 ** -50)).toExponential(2)) return sci_html(s);
  const d = a.toString();
  let n = Number(d.slice(0, 3)) + (d[3] >= "5" ? 1 : 0);
  let e = d.length - 1;
  if (n === 1000) { n = 100; e += 1; }
  return `${String(n)[0]}.${String(n).slice(1)}×10<sup>${e}</sup>`;
}

// The boundary just above every real that shows as s (times 10^k), as [m, q] meaning m·10^q/2: the next
// tie, or the switch to the other format.
function upper_edge(s, k) {
  const i = s.indexOf("e");
  if (i < 0) {
    const N = BigInt(s.replace(".", ""));
    return N === 1000000000n ? [2n, 6n] : [2n * N + 1n, -3n];
  }
  const n = BigInt(s.slice(0, i).replace(".", ""));
  const q = BigInt(s.slice(i + 1)) + k - 2n;
  return n === 100n && q === -5n ? [2n, -3n] : [2n * n + 1n, q]; // 1.00e-3 ends at 1e-3
}

// ---- exact arithmetic: BigInt fixed point, a real x stored as x·2^F ----

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

// u = M·2^E exactly.
function decompose(u) {
  F64[0] = u;
  const bits = U64[0];
  const biased = Number((bits >> 52n) & 0x7ffn);
  let M = bits & 0xfffffffffffffn;
  if (biased) M |= 1n << 52n;
  return [bits >> 63n ? -M : M, Math.max(biased, 1) - 1075];
}

const bit_length = (x) => (x < 0n ? -x : x).toString(2).length;

// atanh(p/q)·2^F for 0 ≤ p/q ≤ 1/3: each truncated term is off by < 2.8 units of 2^-F, so with fewer than
// F/3.17 + 1.5 terms and a tail below 2 units, the error stays under 2F units for F ≥ 6.
function atanh_fixed(p, q, F) {
  const x = (p << BigInt(F)) / q;
  const x2 = (x * x) >> BigInt(F);
  let sum = 0n;
  for (let term = x, j = 1n; term !== 0n; j += 2n, term = (term * x2) >> BigInt(F)) sum += term / j;
  return sum;
}

// ln 2 = 2 atanh(1/3) and ln 10 = 3 ln 2 + 2 atanh(1/9), computed once at the highest precision asked for.
let LN_CACHE = { F: 0, ln2: 0n, ln10: 0n };
function ln_constants(F) {
  if (F > LN_CACHE.F) {
    const ln2 = 2n * atanh_fixed(1n, 3n, F);
    LN_CACHE = { F, ln2, ln10: 3n * ln2 + 2n * atanh_fixed(1n, 9n, F) };
  }
  const drop = BigInt(LN_CACHE.F - F);
  return [LN_CACHE.ln2 >> drop, LN_CACHE.ln10 >> drop];
}

// Is e^u < b = m·10^q/2 (m ≥ 2)? Compares u with ln b = ln m + q ln 10 − ln 2 in fixed point, doubling the
// precision until the error bound (17F(|q| + s + 2) units) separates them. It ends: u ≠ ln b for any u.
function exp_below(u, m, q) {
  const [M, E] = decompose(u);
  const s = bit_length(m) - 1; // m = 2^s·(1 + z)/(1 − z) with 0 ≤ z < 1/3
  const two = 1n << BigInt(s);
  const absq = q < 0n ? -q : q;
  for (let F = bit_length(q) + 96; ; F *= 2) {
    const [ln2, ln10] = ln_constants(F);
    const lnb = 2n * atanh_fixed(m - two, m + two, F) + BigInt(s - 1) * ln2 + q * ln10;
    const err = BigInt(17 * F) * (absq + BigInt(s) + 2n) + 1n;
    const U = E + F >= 0 ? M << BigInt(E + F) : M >> BigInt(-E - F);
    if (U < lnb - err) return true;
    if (U > lnb + err) return false;
  }
}

// u·log10(e) = k + f with k a BigInt and f a double in [0, 1] (error < 2^-54 + 2^-63.9). Only the bits of
// log10(e) that matter for 2^E are used, so a huge u costs no more than a small one.
const SPLIT_P = 1152;
const SPLIT_W = 117n;
let LOG10E; // 2^SPLIT_P·log10 e, to within 1, computed on first use
function log10_split(u) {
  const [M, E] = decompose(u);
  LOG10E ??= (1n << BigInt(2 * SPLIT_P + 64)) / ln_constants(SPLIT_P + 64)[1];
  const X = M * (LOG10E >> (BigInt(SPLIT_P - E) - SPLIT_W));
  return [X >> SPLIT_W, Number(BigInt.asUintN(Number(SPLIT_W), X)) * 2 ** -Number(SPLIT_W)];
}
