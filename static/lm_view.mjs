// The road to language models: a real vocabulary's next word under the decoding filters, then three more
// softmaxes drawn on the logits a learner drags (attention with ALiBi, a router, distillation). The words come
// from the `lexicon` source, which Python fills (app/vocabulary.py `packed`); every number is computed here
// with decoding.mjs, the twin of core/decoding.py, core/attention.py and core/distillation.py.

import {
  alibi_bias, alibi_slopes, attention_weights, decode_kept, distillation_grad, router_weights
} from "./decoding.mjs";
import { fmt, fmt_text, logit_text } from "./digits.mjs";
import { draw, set_if_changed } from "./draw.mjs";
import { TEXT_EVERY } from "./gestures.mjs";
import { now } from "./lesson.mjs";
import { last, memo } from "./record.mjs";
import { aside, escape_html, fill, grouped, info_html, label, value_span } from "./readouts.mjs";
import { pairwise_sum, softmax } from "./softmax.mjs";

// The teacher of the distillation figure: the reference's v = (3, 0, −1, −2), one less per further class.
const TEACHER = [3, 0, -1, -2, -3, -4, -5, -6, -7, -8];
const DISTILL_GRID = Array.from({ length: 121 }, (_, i) => 10 ** (-2 + i / 30)); // T from 0.01 to 100
const DISTILL_AT = [1, 2, 4, 8, 20, 100]; // the reference's temperatures, in the readout
const DISTILL_DECADES = 6;
const CURVE_RANKS = 400; // the rank-probability plot's ranks, log-spaced: a line, not 50,000 points
const GPT2_VOCABULARY = 50257;
// A sequential scale for the attention weights, white (0) to dark blue (1): ColorBrewer's Blues, 7 classes; the
// cells' dark text is written light on the two darkest.
const BLUES = ["#eff3ff", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#084594"];

async function unpack(packed) {
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

/** The words of `lang` in rank order and their logits ln(frequency), as app/vocabulary.py `unigram` reads
 * them; null while they are being unpacked (the page draws again once they are). */
function vocabulary_of(page, lang) {
  page.lexicon ??= {};
  const entry = page.lexicon[lang];
  if (entry) return entry.words ? entry : null;
  page.lexicon[lang] = { pending: true };
  const data = page.a.sources.lexicon.data;
  unpack(data.packed[data.lang.indexOf(lang)]).then((buckets) => {
    const words = [], z = [];
    for (const [cB, text] of buckets) {
      for (const word of text.split(" ")) {
        words.push(word);
        z.push(-cB / 100 * Math.LN10);
      }
    }
    page.lexicon[lang] = { words, z: Float64Array.from(z) };
    if (!page.gesture) draw(page, now(page));
  });
  return null;
}

/** The filters a state turns on, in Hugging Face's order; a filter at its "off" value is left out. */
export function decoding_stages(s) {
  return [...(s.topk > 0 ? [["top_k", s.topk]] : []), ...(s.topp < 1 ? [["top_p", s.topp]] : []),
    ...(s.minp > 0 ? [["min_p", s.minp]] : [])];
}

const LOG_RANKS = new Map(); // V → its ranks, once: a drag asks in every frame

function log_ranks(V) {
  if (!LOG_RANKS.has(V)) {
    const ranks = new Set();
    for (let i = 0; i < CURVE_RANKS; i++) ranks.add(Math.round(V ** (i / (CURVE_RANKS - 1))));
    LOG_RANKS.set(V, [...ranks]);
  }
  return LOG_RANKS.get(V);
}

/** The decoding figures at state s, once per vocabulary, T and filters (a drag of the logits leaves them). */
function decoding_numbers(page, s, vocab) {
  return memo(page, "decoding", [s.vlang, s.T, s.topk, s.topp, s.minp], () => decoded(s, vocab));
}

/** The decoding of a vocabulary at state s: the kept words with their renormalised p, the probability mass they
 * held before the filters, and the rank-probability plot's points before and after. */
function decoded(s, vocab) {
  const { words, z } = vocab;
  const { before, p, kept: keep } = decode_kept(z, s.T, decoding_stages(s));
  const kept = { word: [], p: [], rank: [] };
  let mass = 0;
  for (let i = 0; i < words.length; i++) {
    if (!keep[i]) continue;
    kept.word.push(words[i]);
    kept.p.push(p[i]);
    kept.rank.push(i + 1);
    mass += before[i];
  }
  const curve = { rank: [], p: [] }, shown = { rank: [], p: [] };
  for (const r of log_ranks(words.length)) {
    if (before[r - 1] > 0) {
      curve.rank.push(r);
      curve.p.push(before[r - 1]);
    }
    if (keep[r - 1] && p[r - 1] > 0) {
      shown.rank.push(r);
      shown.p.push(p[r - 1]);
    }
  }
  return { lang: s.vlang, kept, mass, curve, shown, V: words.length };
}

/** The slope m of ALiBi head h of the view's 8 (2^(−h)); 0 for head 0, no bias. */
export function head_slope(head) {
  return Number(head) > 0 ? alibi_slopes(8)[Number(head) - 1] : 0;
}

/** The last of K tokens' weight on the token d back over its weight on itself, for d = 0 … K − 1: the softmax's
 * denominator cancels, leaving e^((z_(K−1−d) − z_(K−1))/T − m·d), which never divides two underflowed weights. */
export function alibi_relative(z, T, m) {
  const K = z.length;
  return z.map((_, d) => Math.exp((z[K - 1 - d] - z[K - 1]) / T - m * d));
}

/** Each token's attention weights over the tokens before it and itself: the classes as tokens, s_ij = z_j/T,
 * and ALiBi's bias −m(i − j) of head h (m = 0 for none), with the identity's other side softmax_j(s_ij + m·j). */
export function attention_numbers(z, T, head) {
  const K = z.length;
  const m = head_slope(head);
  const scores = Array.from({ length: K }, () => z.map((v) => v / T));
  const weights = attention_weights(scores, alibi_bias(K, m));
  let diff = 0;
  for (let i = 0; i < K; i++) {
    const tilted = softmax(scores[i].map((v, j) => (j <= i ? v + m * j : -Infinity)), 1);
    for (let j = 0; j < K; j++) diff = Math.max(diff, Math.abs(tilted[j] - weights[i][j]));
  }
  return { m, weights, diff };
}

/** ‖∂KL(q_T ‖ p_T)/∂z‖ at temperature T and its T²-scaled size: the student z against the teacher v. */
export function distill_point(v, z, T) {
  const g = distillation_grad(v, z, T);
  const norm = Math.sqrt(pairwise_sum(g.map((x) => x * x)));
  return { grad: norm, grad_T2: norm * T * T };
}

// The next word's sources: the plot's two series, and with `text` the kept words and the filters' row, which no
// figure draws and the readouts show (they follow with the text: a gesture's 1,000 kept words a frame cost 0.7 ms).
function decoding_sources(s, d, text = true) {
  if (!d) return {};
  const plot = { vocab_curve: d.curve, vocab_kept: d.shown };
  if (!text) return plot;
  return { ...plot, vocab: d.kept,
    decoding: { T: [s.T], top_k: [s.topk], top_p: [s.topp], min_p: [s.minp], kept: [d.kept.word.length] } };
}

// Attention, the router and distillation on the lesson's logits: their numbers and sources.
function softmax_sources(s) {
  const K = s.z.length;
  const att = attention_numbers(s.z, s.T, Number(s.head));
  const cells = { i: [], j: [], weight: [], color: [], ink: [], text: [] };
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      const w = att.weights[i][j];
      const step = Math.min(BLUES.length - 1, Math.floor(w * BLUES.length));
      cells.i.push(i);
      cells.j.push(j);
      cells.weight.push(w);
      cells.color.push(j <= i ? BLUES[step] : "rgba(0, 0, 0, 0)");
      cells.ink.push(step >= BLUES.length - 2 ? "#ffffff" : "#1d2733");
      cells.text.push(j <= i && K <= 6 ? fmt_text(w) : "");
    }
  }
  const d = s.z.map((_, k) => k);
  const ratio = alibi_relative(s.z, s.T, att.m);
  const line = Array.from({ length: 101 }, (_, i) => (K - 1) * i / 100);
  const weights = router_weights(s.z, s.rk);
  const v = TEACHER.slice(0, K);
  const grid = DISTILL_GRID.map((T) => distill_point(v, s.z, T));
  const now_point = distill_point(v, s.z, s.T);
  return {
    att, weights, v,
    sources: {
      attention: cells,
      alibi_decay: { d, ratio },
      alibi_factor: { d: line, factor: line.map((x) => Math.exp(-att.m * x)) },
      router: { expert: s.z.map((_, k) => k), x: s.z.map((_, k) => k), weight: weights,
        label: weights.map((w) => (w > 0 ? fmt_text(w) : "")) },
      distill: { T: DISTILL_GRID, grad: grid.map((g) => g.grad), grad_T2: grid.map((g) => g.grad_T2) },
      distill_now: { T: [s.T], grad: [now_point.grad], grad_T2: [now_point.grad_T2] },
    },
  };
}

// Whether attention, the router and distillation follow this frame: every frame but a gesture's, where they follow
// at the rhythm of playing's text (gestures.mjs TEXT_EVERY: ten times a second) and at its end.
const follows = (page, live) => !(live && page.gesture && page.gesture.frames % TEXT_EVERY !== 1);

/** The view's sources and readouts for state s (none while it is closed: its sources keep what they held). */
export function lm_frame(page, s, t, text, live = false) {
  if (!s.lm) {
    const emptied = text ? Object.fromEntries(page.a.view.readouts_of.lm.map((k) => [k, ""])) : {};
    return { sources: {}, readouts: emptied };
  }
  const vocab = vocabulary_of(page, s.vlang);
  const d = vocab ? decoding_numbers(page, s, vocab) : null;
  // The next word's plot follows every frame, the rest of the view at `follows`' rhythm: their four figures and
  // text repainted in every frame took a drag of the logits from 27 to 75 ms a frame (bench_drag_latency.py's
  // probe; 37 to 46 ms with this), where the page closed takes 27 to 38.
  if (!follows(page, live)) return { sources: decoding_sources(s, d, false), readouts: {} };
  const n = softmax_sources(s);
  const sources = { ...decoding_sources(s, d), ...n.sources };
  if (!text) return { sources, readouts: {} };
  const rows = d ? d.kept.word.slice(0, page.a.view.top_words).map((word, r) =>
    `<tr><td>${d.kept.rank[r]}</td><td>${escape_html(word)}</td><td>${fmt(d.kept.p[r])}</td></tr>`).join("") : "";
  const router_b = router_weights(s.z, s.rk, "softmax_then_renormalise");
  const router_diff = Math.max(...n.weights.map((w, k) => Math.abs(w - router_b[k])));
  const readouts = {
    decoding: d ? `${label(t.decoding_label)} ` +
      value_span(d.kept.word.length, fill(t.decoding_kept, { kept: grouped(d.kept.word.length), unit: t.vocab_unit[s.vlang],
        V: grouped(d.V) })) +
      aside("· " + fill(t.decoding_mass, { mass: fmt(d.mass) })) +
      `<p>${t.decoding_top}</p><table class="words"><tbody>${rows}</tbody></table>` : "…",
    uniform: d ? `${label(t.uniform_label)} ${info_html(Math.log(d.V), s, t, true)}` +
      aside("· " + fill(t.uniform_aside, { gpt2: fmt(Math.log(GPT2_VOCABULARY)) })) : "",
    alibi: n.att.m > 0 ? fill(t.alibi_identity, { m: `1/${2 ** Number(s.head)}`,
      diff: value_span(n.att.diff, fmt(n.att.diff)) }) : t.alibi_none,
    routing: fill(t.router_orders, { diff: value_span(router_diff, fmt(router_diff)) }),
    distillation: fill(t.distill_limit, { v: n.v.map(logit_text).join(", "),
      at: DISTILL_AT.join(", "), values: DISTILL_AT.map((T) => fmt(distill_point(n.v, s.z, T).grad_T2)).join(", "),
      limit: fmt(distill_limit(n.v, s.z)) }),
    lm: t.lm_text,
  };
  return { sources, readouts };
}

/** lim_{T→∞} ‖∇‖·T² = ‖(z − z̄) − (v − v̄)‖/K: softmax(x/T) ≈ 1/K + (x − x̄)/(K·T). */
export function distill_limit(v, z) {
  const K = z.length;
  const mz = pairwise_sum(z) / K, mv = pairwise_sum(v) / K;
  return Math.sqrt(pairwise_sum(z.map((x, k) => ((x - mz) - (v[k] - mv)) ** 2))) / K;
}

/** The view's figures for state s: shown with it, their axes' ends and ticks, the mark at its T, their texts
 * in the language, and their glyphs in the theme. */
export function draw_lm(page, s, t, live = false) {
  const { a } = page;
  const figs = [a.lab_figs.vocab, a.lab_figs.attention, a.lab_figs.decay, a.lab_figs.router, a.lab_figs.distill];
  for (const fig of figs) set_if_changed(fig, { visible: s.lm });
  if (!s.lm) return;
  place_lm_figures(a.lm_layout);
  const K = s.z.length;
  const decoded = last(page, "decoding");
  const d = decoded?.lang === s.vlang && page.lexicon?.[s.vlang]?.words ? decoded : null;
  // A gesture's frames keep the axes they began on (a new axis lays its figure out again, every frame); its end
  // fits them to what is shown.
  if (d && !live) {
    const lows = [...d.curve.p, ...d.shown.p];
    const lo = 10 ** Math.floor(Math.log10(Math.min(...lows)));
    set_if_changed(a.lab_figs.vocab.y_range, { start: lo, end: 2 });
    set_if_changed(a.lab_figs.vocab.x_range, { start: 0.8, end: d.V * 1.3 });
  }
  set_if_changed(a.lab_figs.attention.x_range, { start: -0.5, end: K - 0.5 });
  set_if_changed(a.lab_figs.attention.y_range, { start: K - 0.5, end: -0.5 });
  set_if_changed(a.lab_figs.router.x_range, { start: -0.6, end: K - 0.4 });
  set_if_changed(a.lab_figs.decay.x_range, { start: -0.6, end: K - 0.4 });
  // A dragged score can lift a far token's bar past its own: the axis follows it, up to 20 times its own weight
  // (beyond, the bar runs off the top; the hover and the heatmap still say its weight).
  const tallest = Math.max(...a.sources.alibi_decay.data.ratio.filter(Number.isFinite), 1);
  if (!live) set_if_changed(a.lab_figs.decay.y_range, { start: 0, end: Math.min(20, 1.1 * tallest) });
  const grads = a.sources.distill.data.grad.concat(a.sources.distill.data.grad_T2).filter((g) => g > 0);
  if (grads.length && !live) {
    // Six decades at most: at small T both softmaxes are nearly one-hot and the gradient vanishes like e^(−gap/T),
    // a line that would otherwise squeeze the large-T plateau (the point of the figure) into a sliver.
    const top = Math.ceil(Math.log10(Math.max(...grads)));
    const bottom = Math.max(Math.floor(Math.log10(Math.min(...grads))), top - DISTILL_DECADES);
    set_if_changed(a.lab_figs.distill.y_range, { start: 10 ** bottom, end: 10 ** top });
  }
  // The mark of T on distillation's plot moves with its dot: a repaint of that figure in every frame of a drag of T
  // cost as much as the next word's plot.
  if (follows(page, live)) set_if_changed(a.lm.span, { location: s.T });
  const names = JSON.stringify(s.names);
  if (page.applied.lm_names !== names) {
    for (const axis of [a.lab_axes.attention_x, a.lab_axes.attention_y, a.lab_axes.router_x]) {
      axis.ticker.ticks = s.z.map((_, k) => k); // their names: draw.mjs fit_class_axes
    }
    page.applied.lm_names = names;
  }
  const texts = JSON.stringify([s.lang, s.vlang, s.rk, d?.V]);
  if (page.applied.lm_texts !== texts) {
    const V = d ? grouped(d.V) : "…";
    for (const key of ["vocab", "attention", "decay", "router", "distill"]) {
      a.lab_figs[key].title.text = t[`${key}_title`];
      a.lab_hints[key].text = fill(t[`${key}_hint`], { k: s.rk, V, unit: t.vocab_unit[s.vlang] });
    }
    a.lab_axes.vocab_x.axis_label = t.vocab_x;
    a.lab_axes.vocab_y.axis_label = t.vocab_y;
    a.lab_axes.attention_x.axis_label = t.attention_x;
    a.lab_axes.attention_y.axis_label = t.attention_y;
    a.lab_axes.router_y.axis_label = t.router_y;
    a.lab_axes.decay_x.axis_label = t.decay_x;
    a.lab_axes.decay_y.axis_label = t.decay_y;
    a.lab_axes.distill_x.axis_label = t.distill_x;
    a.lab_axes.distill_y.axis_label = t.distill_y;
    page.applied.lm_texts = texts;
  }
}

// The view's figures join the layout when it is first opened (app/document.py keeps them out while it is
// closed), as the calibration view's do.
function place_lm_figures({ top, bottom, vocab, figures }) {
  if (!top.children.includes(vocab)) top.children = [vocab, ...top.children];
  if (!bottom.children.includes(figures)) bottom.children = [figures, ...bottom.children];
}
