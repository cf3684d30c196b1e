// The readouts as HTML, from one frame's numbers (tests/js/lessons.test.mjs checks their digits against
// tests/digits_oracle.py). Class names always go through escape_html: a name a person typed is text, never
// markup. Information readouts show the chosen unit first and the other one beside it.

import { fmt, fmt_exp, fmt_exp_text, logit_text } from "./digits.mjs";

/** HTML's text alone, its tags dropped: a string's sub- and superscripts where text is all a place can show (a
 * live region, a menu's option, a message to another page). */
export function plain_text(html) {
  return html.replace(/<[^>]+>/g, "");
}

export function escape_html(s) {
  return String(s).replace(/[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** A template's {field}s filled with text; a replacer function, because replacement strings would read
 * "$&" in a class name as a pattern. */
export function fill(template, fields) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in fields ? String(fields[key]) : whole));
}

export function with_minus(s) {
  return s.replace(/^-/, "\u2212");
}

// Three decimals, so a learner compares at a glance, and the exact size beside it when that is 0.000: the
// loss never reaches 0 for finite logits.
export function fixed3(x, unit) {
  const tiny = x > 0 && x < 5e-4 ? ` <span class="aside">(${fmt(x)})</span>` : "";
  return `${with_minus(x.toFixed(3))} ${unit}${tiny}`;
}

function table_row(cells, tag, cls) {
  const attr = cls ? ` class="${cls}"` : "";
  return `<tr${attr}>` + cells.map((c) => `<${tag}>${c}</${tag}>`).join("") + "</tr>";
}

export function label(text) {
  return `<span class="label">${text}</span>`;
}

// A class name (escaped) in a line with no room for a long one: cut with "…" by the page's CSS, whole in its title
// (on hover) and in the table.
function name_span(name) {
  return `<span class="name" title="${name}">${name}</span>`;
}

// A readout's value with its exact number as data-value (for tests and tools), and a remark beside it.
export function value_span(x, text) {
  return `<span class="value" data-value="${x}">${text}</span>`;
}

export function aside(html) {
  return ` <span class="aside">${html}</span>`;
}

// A count with its thousands grouped, as both languages write it: 50,000.
export function grouped(n) {
  return n.toLocaleString("en");
}

/** An information readout's value: `nats` in the unit state s chose, the other unit beside it; `exact` adds
 * the value in nats as the value's data-value (for tests and tools). */
export function info_html(nats, s, t, exact = false) {
  const bits = s.units === "bits";
  const [unit, other] = bits ? [t.bits, t.nats] : [t.nats, t.bits];
  const [first, second] = bits ? [nats / Math.LN2, nats] : [nats, nats / Math.LN2];
  const value = exact ? ` data-value="${nats}"` : "";
  return `<span class="value"${value}>${fixed3(first, unit)}</span> <span class="aside">= ${fixed3(second, other)}</span>`;
}

// A bar's width in %, written as the readouts write widths (two decimals).
const bar = (share) => `<span class="track"><span class="fill" style="width:${(100 * share).toFixed(2)}%"></span></span>`;

/** Softmax in its three moves, one row per class: z, then e^(z/T) with a bar of its share of the largest
 * (e^((z − max z)/T)), then ÷ Σ: p with a bar of its share of 1. The numbers are the table's. */
function strip_html(s, n, t, names) {
  const zmax = Math.max(...s.z);
  const head = `<span class="strip-head">${t.col_class}</span><span class="strip-head">z</span>` +
    `<span class="strip-head">→ e<sup>z/T</sup></span><span class="strip-head">÷ Σ → p</span>`;
  const rows = s.z.map((z, k) => `<span class="strip-name">${names[k]}</span><span class="num">${fmt(z)}</span>` +
    `<span class="stage">${bar(Math.exp((z - zmax) / s.T))}<span class="num">${fmt_exp(z / s.T)}</span></span>` +
    `<span class="stage">${bar(n.p[k])}<span class="num">${fmt_exp(n.log_p[k])}</span></span>`).join("");
  return `<div class="label">${t.strip_title}</div><div class="strip">${head}${rows}</div>`;
}

/** Every readout's HTML for the numbers n of one frame (frame.mjs), its state s and strings t. */
export function render_readouts(n, s, t) {
  const K = s.z.length;
  const { y, T, eps } = s;
  const names = s.names.map(escape_html);
  const bits = s.units === "bits";
  const [unit, other] = bits ? [t.bits, t.nats] : [t.nats, t.bits];
  const in_units = (nats) => (bits ? [nats / Math.LN2, nats] : [nats, nats / Math.LN2]);
  const info = (nats) => info_html(nats, s, t);
  const head = [t.col_class, "z", "e<sup>z/T</sup>", t.col_prob, ...(eps ? [t.col_target] : []), t.col_arrow];
  const body = s.z.map((z, k) => table_row(
    [names[k], fmt(z), fmt_exp(z / T), fmt_exp(n.log_p[k]), ...(eps ? [fmt(n.target[k])] : []), fmt(n.g[k])],
    "td", k === y ? "true" : ""));
  const zmax = Math.max(...s.z) / T;
  const [log_k, log_k_other] = in_units(n.ln_k);
  const start = fill(t.start, { value: `${with_minus(log_k.toFixed(3))} ${unit}` });
  const scale = Math.max(n.ln_k, n.loss) * 1.1;
  const [floor_w, kl_w, start_x] = [n.floor, n.kl, n.ln_k].map((v) => (100 * v / scale).toFixed(2));
  return {
    // thead and tbody written out: the parser adds a tbody the HTML lacks, and a frame whose HTML is not the
    // shape the page shows is written whole (draw.mjs patch_html), every cell afresh on every drag frame.
    probs: `<table><thead>${table_row(head, "th")}</thead><tbody>${body.join("")}</tbody></table>`,
    strip: strip_html(s, n, t, names),
    // The value before the name: a long name is what the line shortens.
    py: `<div class="line">${label(t.py)} <span class="value">${fmt_exp(n.log_p[y])}</span> ` +
      `<span class="aside">(${name_span(names[y])})</span></div>`,
    loss: `${label(eps ? t.loss_smoothed : t.loss)} ${info(n.loss)} <span class="start">· ${start}</span>`,
    entropy: `${label(t.entropy)} ${info(n.entropy)}` +
      ` <span class="aside">≤ ${t.entropy_max} = ${fixed3(log_k, unit)} = ${fixed3(log_k_other, other)}</span>`,
    lse: `${label(t.lse)} <span class="value">${fmt(n.lse)}</span>` +
      ` <span class="aside">${fmt(zmax)} ≤ ${fmt(n.lse)} ≤ ${fmt(zmax + n.ln_k)}</span>`,
    arrows: `${label(t.arrow_sum)} <span class="value">${fmt(n.g_sum)}</span>`,
    formula: `${label(t.formula)} p<sub>${name_span(names[y])}</sub> = <span class="frac"><span>e<sup>z<sub>` +
      `${name_span(names[y])}</sub>/T</sup></span><span>Σ<sub>k</sub> e<sup>z<sub>k</sub>/T</sup></span></span> = ` +
      `<span class="frac"><span>${fmt_exp(s.z[y] / T)}</span><span>${fmt_exp(n.lse)}</span></span>` +
      ` = <span class="value">${fmt_exp(n.log_p[y])}</span>`,
    floor: `${label(t.floor)} ${info(n.floor)}` + (eps ? "" : ` <span class="aside">· ${t.floor_zero}</span>`),
    kl: `${label(t.kl)} ${info(n.kl)}`,
    // e^L in nats is 2^L in bits: the same number, named as the loss beside it is written.
    perplexity: `${label(bits ? t.perplexity_bits : t.perplexity)} <span class="value">${fmt_exp(n.loss)}</span>`,
    gap: !eps ? "" : `${label(t.gap)} <span class="value">${fmt(n.gap_best)}</span>` +
      ` <span class="aside">${t.gap_now} ${fmt(n.gap_now)}</span>`,
    info: `<div class="bar"><span class="floor" style="width:${floor_w}%"></span>` +
      `<span class="kl" style="width:${kl_w}%"></span><span class="start" style="left:${start_x}%"></span>` +
      `</div><div class="legend"><span class="key floor"></span> ${t.info_floor}` +
      ` <span class="key kl"></span> ${t.info_kl} <span class="key start"></span> ${t.info_start}</div>`,
    sigmoid: K !== 2 ? "" : `${label(t.sigmoid)} = σ(${fmt((s.z[0] - s.z[1]) / T)}) = ` +
      `<span class="value">${fmt_exp(n.log_p[0])}</span>`,
  };
}

/** What the ARIA live region announces after a change: the true class's p and the loss, as plain text. */
export function live_text(n, s, t) {
  const bits = s.units === "bits";
  const loss = bits ? n.loss / Math.LN2 : n.loss;
  return fill(t.live, {
    name: s.names[s.y], p: fmt_exp_text(n.log_p[s.y]), loss: with_minus(loss.toFixed(3)), unit: bits ? t.bits : t.nats,
  });
}

/** The caption under the saved figures (the PNG): the settings and the loss it shows, as plain text. */
export function caption_text(n, s, t) {
  const bits = s.units === "bits";
  const loss = bits ? n.loss / Math.LN2 : n.loss;
  return fill(t.caption, {
    T: logit_text(s.T), eps: logit_text(s.eps), K: s.z.length, name: s.names[s.y], p: fmt_exp_text(n.log_p[s.y]),
    loss: with_minus(loss.toFixed(3)), unit: bits ? t.bits : t.nats,
  });
}

/** What the page says of a pasted row (static/fold.mjs's fold of it) while state s holds its classes and
 * logits: how many values the rest holds and their p at T = 1, the shift and the raised logits; "" when the
 * row was kept whole, as printed, or the lesson has moved on. */
export function pasted_html(folded, s, t, fields) {
  if (!folded || !same_row(folded, s)) return "";
  const said = [];
  if (folded.folded) {
    said.push(fill(t.paste_folded, { size: grouped(folded.size), kept: String(folded.kept.length),
      folded: grouped(folded.folded), rest: escape_html(folded.names[folded.names.length - 1]),
      p: fmt(folded.rest_p) }));
  }
  if (folded.shift) said.push(fill(t.paste_shifted, { ...fields, shift: (folded.shift > 0 ? "+" : "") + with_minus(logit_text(folded.shift)) }));
  if (folded.clamped) said.push(fill(t.paste_clamped, { ...fields, n: String(folded.clamped) }));
  return said.length ? `<div class="pasted">${said.join(" ")}</div>` : "";
}

function same_row(folded, s) {
  return s.z.length === folded.logits.length && s.z.every((v, k) => v === folded.logits[k])
    && s.names.every((name, k) => name === folded.names[k]);
}

/** The notice for state s: its key's sentence, with the limits and any detail after the key ("link_bad:z, T")
 * filled in as escaped text; "" when all is well. */
export function notice_html(s, t, fields) {
  const i = s.notice.indexOf(":");
  const [key, detail] = i < 0 ? [s.notice, ""] : [s.notice.slice(0, i), s.notice.slice(i + 1)];
  if (!key) return "";
  const template = Object.hasOwn(t, key) ? t[key] : t.refused; // a forged key says "refused", never throws
  return fill(template, { ...fields, K: String(s.z.length), keys: escape_html(detail), url: escape_html(detail) });
}
