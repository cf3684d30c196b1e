// The readouts as HTML, from the numbers of one lesson state. app/readouts.py is its Python twin, which
// draws the first frame; tests/browser/test_parity.py checks that both write the same HTML.

export function escape_html(s) {
  return String(s).replace(/[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function minus(s) {
  return s.replace(/^-/, "\u2212");
}

// m×10^e, with the exponent written out so that a projector shows it large enough; an exponent of a
// million or more (e^(z/T) for z = −1e308) is itself written as m×10^e.
function scientific(mantissa, exponent) {
  const e = Math.abs(exponent) < 1e6 ? minus(String(exponent)) : fmt(exponent);
  return `${minus(mantissa)}×10<sup>${e}</sup>`;
}

/** A number as people read it: 3 decimals from 0.001 to 10^6, m×10^e outside, and 0 as 0.000. */
export function fmt(x, digits = 3) {
  if (Number.isNaN(x)) return "—";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "\u2212∞";
  const a = Math.abs(x);
  if (a === 0 || (a >= 1e-3 && a < 1e6)) return minus((x + 0).toFixed(digits));
  const [m, e] = x.toExponential(2).split("e");
  return scientific(m, Number(e));
}

/** e^u without overflow or underflow: through log10 once e^u leaves the range of a double. */
export function fmt_exp(u) {
  if (Math.abs(u) < 700 || !Number.isFinite(u)) return fmt(Math.exp(u));
  const l = u / Math.LN10;
  let e = Math.floor(l);
  let m = (10 ** (l - e)).toFixed(2);
  if (m === "10.00") { m = "1.00"; e += 1; }
  return scientific(m, e);
}

/** A probability, from its log when it underflows to 0: p = e^−20000 is tiny, not zero. */
export function fmt_prob(p, log_p) {
  return p === 0 && log_p > -Infinity ? fmt_exp(log_p) : fmt(p);
}

// The loss always with three decimals, so a learner can compare it at a glance, and its exact size beside
// it when that rounds to 0.000: the loss never reaches 0 for finite logits.
function fmt_loss(x, unit) {
  const tiny = x > 0 && x < 5e-4 ? ` <span class="aside">(${fmt(x)})</span>` : "";
  return `${minus(x.toFixed(3))} ${unit}${tiny}`;
}

function row(cells, tag, cls) {
  const attr = cls ? ` class="${cls}"` : "";
  return `<tr${attr}>` + cells.map((c) => `<${tag}>${c}</${tag}>`).join("") + "</tr>";
}

/**
 * Every readout's HTML for one state s = {names, z, T, y, p, log_p, g, loss, entropy_bits, lse}; t = strings.
 * Class names go through escape_html: a name a person typed is text, never markup.
 */
export function render_readouts(s, t) {
  const K = s.z.length;
  const names = s.names.map(escape_html);
  const head = row([t.col_class, "z", "e<sup>z/T</sup>", t.col_prob, t.col_arrow], "th");
  const body = s.z.map((z, k) => row(
    [names[k], fmt(z), fmt_exp(z / s.T), fmt_prob(s.p[k], s.log_p[k]), fmt(s.g[k])], "td",
    k === s.y ? "true" : ""));
  let g_sum = 0;
  for (const g of s.g) g_sum += g;
  // Σ(y − p)/T is 0 in exact arithmetic; what remains is rounding in the last bits of the p_k, which a
  // learner would misread as a real imbalance of the arrows.
  if (Math.abs(g_sum) < 1e-9) g_sum = 0;
  const zmax = Math.max(...s.z) / s.T;
  const yname = names[s.y];
  return {
    probs: `<table>${head}${body.join("")}</table>`,
    loss: `<span class="label">${t.loss}</span> <span class="value">${fmt_loss(s.loss, t.nats)}</span>` +
      ` <span class="aside">= ${fmt_loss(s.loss / Math.LN2, t.bits)}</span>`,
    entropy: `<span class="label">${t.entropy}</span> <span class="value">${fmt(s.entropy_bits)} ${t.bits}</span>` +
      ` <span class="aside">≤ ${t.entropy_max} = ${fmt(Math.log2(K))} ${t.bits}</span>`,
    lse: `<span class="label">${t.lse}</span> <span class="value">${fmt(s.lse)}</span>` +
      ` <span class="aside">${fmt(zmax)} ≤ ${fmt(s.lse)} ≤ ${fmt(zmax + Math.log(K))}</span>`,
    arrows: `<span class="label">${t.arrow_sum}</span> <span class="value">${fmt(g_sum)}</span>`,
    formula: `<span class="label">${t.formula}</span> ` +
      `p<sub>${yname}</sub> = <span class="frac"><span>e<sup>z<sub>${yname}</sub>/T</sup></span>` +
      `<span>Σ<sub>k</sub> e<sup>z<sub>k</sub>/T</sup></span></span> = ` +
      `<span class="frac"><span>${fmt_exp(s.z[s.y] / s.T)}</span><span>${fmt_exp(s.lse)}</span></span>` +
      ` = <span class="value">${fmt_prob(s.p[s.y], s.log_p[s.y])}</span>`,
  };
}
