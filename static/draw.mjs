// Drawing a state: the figures' sources, axes and look, the readouts, the logit inputs, the live region and the
// link. Every write is skipped when the page already shows its value, so a frame costs what changed. A live
// frame (a gesture in progress) leaves the logits source to the drawing tool and the controls, the live
// region and the link to the gesture's end, and so does a readout scrolled out of sight: nothing is written
// that the eye cannot see during a drag.

import {
  element_of, inner_width_of, markup_of, one_layout, repaint_clean, scalar, set_draggable, set_markup, tick_interval
} from "./bokeh_adapter.mjs";
import { calibration_frame, draw_calibration } from "./calibration_view.mjs";
import { draw_controls } from "./controls.mjs";
import { logit_text } from "./digits.mjs";
import { class_labels, fit, frame, loss_window, prob_end, wrapped } from "./frame.mjs";
import { chain_html, jacobian_cells, naive_html, race_html, sample_columns, update_html } from "./lab.mjs";
import { now } from "./lesson.mjs";
import { link_of } from "./link.mjs";
import { draw_lm, lm_frame } from "./lm_view.mjs";
import { escape_html, fill, notice_html, pasted_html } from "./readouts.mjs";
import { history_of, kept_noise } from "./record.mjs";
import { draw_teach } from "./teach.mjs";
import { draw_tour, on_phone, tour_live } from "./tour.mjs";

export function strings(page, s = now(page)) {
  return page.a.strings[s.lang];
}

export function same_array(shown, value) {
  if (shown == null || shown.length !== value.length) return false;
  for (let i = 0; i < value.length; i++) if (shown[i] !== value[i]) return false;
  return true;
}

function same_columns(data, columns) {
  for (const [name, value] of Object.entries(columns)) if (!same_array(data[name], value)) return false;
  return Object.keys(data).length === Object.keys(columns).length;
}

export function set_if_changed(model, values) {
  const changed = {};
  for (const [key, value] of Object.entries(values)) {
    const held = model[key];
    // A glyph's scalar comes back as its spec ({value: 22}): a plain === made every frame set it again, and
    // repaint the logits' figure in each frame of a T drag.
    const same = Array.isArray(value) ? JSON.stringify(Array.from(held ?? [])) === JSON.stringify(value)
      : scalar(held) === value;
    if (!same) changed[key] = value;
  }
  if (Object.keys(changed).length) model.setv(changed);
}

/** Draw state s; `live` while a gesture is in progress, and then `text` false leaves the readouts, the notice,
 * the logit inputs and the Jacobian's numbers to a later frame (playing writes them every sixth step:
 * gestures.mjs gesture_frame). */
export function draw(page, s, { live = false, text = true } = {}) {
  const { a } = page;
  const t = strings(page, s);
  const f = frame(s, t, a.view, { text });
  const point_size = fit_to_figures(page, f, s, live);
  if (point_size) {
    for (const glyph of [a.glyphs.points, a.glyphs.selected, a.glyphs.unselected]) set_if_changed(glyph, { size: point_size });
  }
  const lab = lab_frame(page, s, f, t, text);
  const calibration = calibration_frame(page, s, t, text);
  const lm = lm_frame(page, s, t, text, live);
  const dragging = live && page.gesture?.kind === "drag";
  for (const [name, data] of Object.entries({ ...f.sources, ...lab.sources, ...calibration.sources, ...lm.sources })) {
    if (name === "logits" && dragging) continue; // the tool's own, mid-drag
    if (!same_columns(a.sources[name].data, data)) a.sources[name].data = data;
  }
  // A drag's frames keep the axis it began on (a point dragged back inside it would shrink it mid-drag).
  if (!dragging) set_if_changed(a.figs.logit.y_range, { start: f.window[0], end: f.window[1] });
  // Opening a view, showing a figure or a readout, a new look, new labels: each may move a box, and Bokeh lays the
  // whole page out for each. Laid out once, after them all (nothing in between reads a size).
  const tour_done = one_layout(page, () => draw_parts(page, s, f, t, { live, text,
    readouts: { ...f.readouts, ...lab.readouts, ...calibration.readouts, ...lm.readouts } }));
  if (live) return;
  fit_class_axes(page, s);
  fit_y_ticks(page, s);
  // The document's language, for a screen reader's voice and the browser's line breaking; a notebook's is its own.
  if (a.mode !== "notebook" && document.documentElement.lang !== s.lang) document.documentElement.lang = s.lang;
  // After every title and key of this frame is written (a language, a vocabulary unpacked); a gesture's frames
  // change neither them nor a figure's width.
  const size = a.sizes[s.lecture ? "lecture" : "normal"];
  fit_hints(page, size);
  fit_hints(page, size, a.lab_hints, a.lab_figs);
  draw_locks(page, s, t);
  show_live(page, tour_live(page, s, t, tour_done) || f.live);
  write_link(page, s);
  // What is on screen now, whole: a waiting test (tests/browser/lessonpage.py settled) or a debugger reads it.
  page.record.shown = s;
}

/** The part of `draw` that sets the figures' views, the readouts, the path, the axes and the logit inputs, and
 * (a whole frame) the look, the fonts and the controls; answers whether the guided path's step is done. */
function draw_parts(page, s, f, t, { live, text, readouts }) {
  const { a } = page;
  draw_lab_figures(page, s, f);
  draw_function(page, s, f, t, live);
  draw_calibration(page, s, t);
  draw_lm(page, s, t, live);
  for (const fig of Object.values(a.figs)) set_if_changed(fig.x_range, { start: f.x_range[0], end: f.x_range[1] });
  for (const [key, html] of Object.entries(readouts)) {
    if (live && page.unseen.has(a.divs[key])) continue; // off screen: written at the gesture's end
    // Left out: a readout of a section the learner has not opened, and an empty one (the gap without ε, the
    // sigmoid past two classes). Shown before it is written: Bokeh draws a Div anew when it appears.
    const section = a.view.section_of[key];
    set_if_changed(a.divs[key], { visible: html !== "" && (!section || s.open.includes(section)) });
    show(page, a.divs[key], html, live);
  }
  const tour_done = text ? draw_tour(page, f.numbers, s, t, live) : null;
  const notice = page.record.notice ?? s.notice;
  if (text) {
    show(page, a.notice, notice_html({ ...s, notice }, t, a.rules.fields)
      + pasted_html(page.record.pasted, s, t, a.rules.fields) + connection_html(page, s, t), live);
  }
  draw_axes(page, s, f);
  if (text && !(live && page.unseen.has(a.inputs))) draw_inputs(page, s, t);
  if (!live) {
    draw_look(page, s);
    draw_fonts(page, s);
    draw_controls(page, s, t);
    draw_teach(page, s, t);
  }
  return tour_done;
}

// ---- the lab (static/lab.mjs) ------------------------------------------------------------------------------

const NO_SAMPLES = { x: [], count: [], freq: [], lower: [], upper: [] };

/** The lab's sources and readouts for state s: the loss history, the draws (when shown), the Jacobian and the
 * naive softmax. */
function lab_frame(page, s, f, t, text) {
  const n = f.numbers;
  const h = history_of(page, s, n.loss);
  const noise = s.sample ? kept_noise(page, s) : null;
  const samples = noise ? sample_columns(s, n.p, noise) : NO_SAMPLES;
  // A bar's value sits above its draws' whisker, which would cross it.
  if (noise) f.sources.probs.label_y = f.sources.probs.label_y.map((y, k) => Math.max(y, samples.upper[k]));
  // A closed part costs a drag frame nothing: its source keeps what it held, its readout is empty. The heatmap
  // is numbers too (K² of them, painted anew whenever a cell changes): it follows the text's rhythm.
  const { J, cells } = s.jacobian && text ? jacobian_cells(s.z, s.T)
    : { J: null, cells: page.a.sources.jacobian.data };
  return {
    sources: { loss_history: !s.learn ? page.a.sources.loss_history.data : { step: [...h.step], loss: [...h.loss],
      y: s.logloss ? h.loss.map((v) => Math.log10(Math.max(v, 1e-300))) : [...h.loss] }, samples, jacobian: cells },
    readouts: !text ? {} : { update: s.learn ? update_html(s, n, t) : "",
      race: noise ? race_html(s, noise, t, samples.count) : "",
      chain: s.jacobian ? chain_html(s, n, J, t) : "", naive: naive_html(s, t) },
  };
}

function draw_lab_figures(page, s, f) {
  const { a } = page;
  // The loss figure appears with the first step and stays: before it, one point would be an empty chart.
  page.loss_shown ||= page.history.step.length > 1;
  set_if_changed(a.lab_figs.loss, { visible: s.learn && page.loss_shown });
  if (s.learn) {
    const w = loss_window(page.history.step, page.history.loss, s.logloss);
    set_if_changed(a.lab_figs.loss.x_range, { start: w.x[0], end: w.x[1] });
    set_if_changed(a.lab_figs.loss.y_range, { start: w.y[0], end: w.y[1] });
  }
  if (a.lab_axes.loss_y.formatter.args.log !== s.logloss) {
    a.lab_axes.loss_y.formatter.args = { log: s.logloss };
  }
  for (const [r, flag] of Object.entries(a.view.flag_rows)) set_if_changed(a.flag_rows[r], { visible: s[flag] });
  // The stability limit η = 4T² on the learning rate's log track, where the track holds it.
  const slider = element_of(page, a.controls.learning_rate);
  const mark = 4 * s.T * s.T;
  if (slider && (page.applied.mark?.slider !== slider || page.applied.mark.at !== mark)) {
    const [lo, hi] = a.rules.lesson_fields.find((field) => field.key === "lr").bounds.map(Math.log10);
    const at = (Math.log10(mark) - lo) / (hi - lo);
    slider.style.setProperty("--sx-mark", `${(100 * at).toFixed(2)}%`);
    slider.style.setProperty("--sx-mark-shown", at >= 0 && at <= 1 ? "block" : "none");
    page.applied.mark = { slider, at: mark }; // written again only for a new T or a new element
  }
  const fig = a.lab_figs.jacobian;
  set_if_changed(fig, { visible: s.jacobian });
  const K = f.K;
  set_if_changed(fig.x_range, { start: -0.5, end: K - 0.5 });
  set_if_changed(fig.y_range, { start: K - 0.5, end: -0.5 });
  const names = JSON.stringify(s.names);
  if (page.applied.jacobian_names !== names) {
    for (const axis of [a.lab_axes.jacobian_x, a.lab_axes.jacobian_y]) axis.ticker.ticks = f.sources.probs.x;
    page.applied.jacobian_names = names;
  }
}

// The frame fitted to the figures as laid out now (frame.mjs `fit`): their pixels per class and per unit, the
// points' and labels' sizes, and each label's width as the canvas measures it. Before the first layout there
// is nothing to fit yet: the layout that follows draws again (startup.mjs ready).
function fit_to_figures(page, f, s, live) {
  const { a } = page;
  const { logit, prob } = a.figs;
  if (!(logit.inner_width > 0 && prob.inner_width > 0)) return null;
  const size = a.sizes[s.lecture ? "lecture" : "normal"];
  const span = ([lo, hi]) => hi - lo;
  const window = live ? [logit.y_range.start, logit.y_range.end] : f.window;
  const labels = { label_height: parseFloat(size.labels), target_half: size.target / 2 };
  if (!live) set_if_changed(prob.y_range, { end: prob_end(prob.inner_height, labels, a.view) });
  const font = `${size.labels} ${scalar(a.glyphs.bar_labels.text_font)}`;
  const room = {
    logit: { x: logit.inner_width / span(f.x_range), y: logit.inner_height / span(window) },
    prob: { x: prob.inner_width / span(f.x_range), y: y_per_unit(prob) },
    radius: size.point / 2, ...labels, width_of: (text) => text_width(page, font, text),
  };
  return fit(f, room, a.view);
}

// A figure's title and its key (the line under it), each in the look's size or smaller where the figure's frame
// is narrower than the text (a canvas never wraps it; lecture mode's sizes run past a half screen at 1024 px). A
// figure not laid out (the lab's, closed) keeps them as they are until its first layout draws again.
function fit_hints(page, size, hints = page.a.hints, figs = page.a.figs) {
  for (const [key, hint] of Object.entries(hints)) {
    const room = inner_width_of(figs[key]);
    if (!(room > 0)) continue;
    fit_text(page, hint, size.hint, room, size.least);
    fit_text(page, figs[key].title, size.title, room, size.least);
  }
}

/** A figure's title or key at its size, made smaller to fit its room, but never below `least` px (11 px, lecture
 * mode's 20 px for the back row): there it takes another line instead, broken between words. A key cut at the
 * figure's edge, at 10 px, was what a long one did before. */
function fit_text(page, model, size, room, least = 0) {
  page.unwrapped ??= new WeakMap();
  const was = page.unwrapped.get(model);
  const text = was?.wrapped === model.text ? was.text : model.text;
  const wanted = parseFloat(size);
  const font = `${scalar(model.text_font_style)} ${wanted}px ${scalar(model.text_font)}`;
  const px = Math.min(wanted, Math.floor(wanted * room / text_width(page, font, text)));
  if (px >= least) {
    set_if_changed(model, { text, text_font_size: `${px}px` });
    return;
  }
  const lines = wrapped(text, room, (line) => text_width(page, font, line), " ");
  const joined = lines.join("\n");
  page.unwrapped.set(model, { text, wrapped: joined });
  set_if_changed(model, { text: joined, text_font_size: `${wanted}px` });
}

// A text's metrics as the figures' canvas draws it, measured once per font and text.
function text_metrics(page, font, text) {
  page.widths ??= new Map();
  const key = `${font}\n${text}`;
  if (!page.widths.has(key)) {
    page.measure ??= document.createElement("canvas").getContext("2d");
    page.measure.font = font;
    page.widths.set(key, page.measure.measureText(text));
  }
  return page.widths.get(key);
}

// A label's width in px.
function text_width(page, font, text) {
  return text_metrics(page, font, text).width;
}

// A font's height in px (its ascent and descent): what a label of any text takes across its line.
function font_height(page, font) {
  const m = text_metrics(page, font, "");
  return m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
}

// Every axis that names the classes, with its figure and side.
function class_axes(a) {
  const { lab_axes: lab, lab_figs: figs } = a;
  return [[a.axes.logit_x, a.figs.logit, "below"], [a.axes.prob_x, a.figs.prob, "below"],
    [lab.jacobian_x, figs.jacobian, "below"], [lab.jacobian_y, figs.jacobian, "left"],
    [lab.attention_x, figs.attention, "below"], [lab.attention_y, figs.attention, "left"],
    [lab.router_x, figs.router, "below"]];
}

// The class names on every class axis, shortened to the room each figure's layout gives them (frame.mjs
// class_labels). A figure not laid out yet shows the names whole: its first layout draws again.
function fit_class_axes(page, s) {
  const { a } = page;
  const many = s.names.length > a.view.many_classes;
  for (const [axis, fig, side] of class_axes(a)) {
    const font = `${scalar(axis.major_label_text_font_style)} ${scalar(axis.major_label_text_font_size)} ` +
      scalar(axis.major_label_text_font);
    const width_of = (text) => text_width(page, font, text);
    let fitted = { angle: side === "below" && many ? Math.PI / 4 : 0, labels: [...s.names] };
    if (fig.visible && inner_width_of(fig) > 0) {
      const range = side === "below" ? fig.x_range : fig.y_range;
      const per_class = (side === "below" ? fig.inner_width : fig.inner_height) / Math.abs(range.end - range.start);
      fitted = class_labels(s.names, {
        side, per_class, many, height: font_height(page, font),
        lead: scalar(fig.min_border_left) + (0 - Math.min(range.start, range.end)) * per_class,
        depth: a.view.name_depth * (side === "below" ? fig.outer_height : fig.outer_width),
      }, width_of);
    }
    if (JSON.stringify(axis.formatter.args.names) !== JSON.stringify(fitted.labels)) {
      axis.formatter.args = { names: fitted.labels };
    }
    set_if_changed(axis, { major_label_orientation: fitted.angle });
  }
}

// ---- readouts: from one frame to the next a readout changes its numbers, not its elements --------------

const PATCHES = new WeakMap(); // element → what it shows: its HTML's tags and its text and element nodes
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" }; // escape_html's
const ENTITY = /&(amp|lt|gt|quot|#39);/g;
const OTHER_ENTITY = /&(?!(amp|lt|gt|quot|#39);)/;
const ATTRIBUTE = /([\w-]+)="([^"]*)"/g;
// Text and attribute values in HTML are escaped; a node's data and setAttribute take them unescaped.
const unescaped = (html) => html.replace(ENTITY, (e) => ENTITIES[e]);

export function show(page, div, html, live = false) {
  set_markup(page, div, html, (el) => patch_html(el, html), live);
}

/** Write html into el. When only its text and attribute values differ from what el shows (a readout's numbers,
 * a bar's width), only those are written: a changed text node or attribute restyles nothing else, where new
 * elements would be styled and laid out afresh on every frame of a drag. */
function patch_html(el, html) {
  let memo = PATCHES.get(el);
  // Bokeh draws a Div's element again from its model at times (a change of its classes, its visibility): then
  // the nodes remembered are gone, and the element is written whole.
  if (memo && memo.first !== el.firstChild) memo = undefined;
  if (memo?.html === html) return;
  const parts = html.split(/(<[^>]*>)/);
  const texts = parts.filter((p, i) => i % 2 === 0 && p !== "");
  const tags = parts.filter((_, i) => i % 2 === 1);
  const shape = tags.map((tag) => tag.replace(ATTRIBUTE, "$1")).join("") + `|${texts.length}`;
  // Attributes unescaped as the text is (an href set as the HTML held it kept "&amp;": the notice's link to reload
  // the lesson read its own query wrong).
  if (memo?.shape === shape && ![...texts, ...tags].some((part) => OTHER_ENTITY.test(part))) {
    texts.forEach((text, i) => {
      const data = unescaped(text);
      if (memo.texts[i].data !== data) memo.texts[i].data = data;
    });
    tags.filter((tag) => !tag.startsWith("</")).forEach((tag, i) => {
      for (const [, name, raw] of tag.matchAll(ATTRIBUTE)) {
        const value = unescaped(raw);
        if (memo.elements[i].getAttribute(name) !== value) memo.elements[i].setAttribute(name, value);
      }
    });
    memo.html = html;
    return;
  }
  el.innerHTML = html;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  const found = { texts: [], elements: [] };
  while (walker.nextNode()) {
    const node = walker.currentNode;
    found[node.nodeType === Node.TEXT_NODE ? "texts" : "elements"].push(node);
  }
  const opening = tags.filter((tag) => !tag.startsWith("</")).length;
  // The parser may not keep the HTML's shape (text it moves out of a table): then el is always written whole.
  const kept = found.texts.length === texts.length && found.elements.length === opening;
  PATCHES.set(el, { html, first: el.firstChild, ...(kept ? { shape, ...found } : { shape: null }) });
}

// ---- figures ---------------------------------------------------------------------------------------------

function draw_axes(page, s, f) {
  const { a } = page;
  const axes = JSON.stringify([s.names, f.many, s.lecture]);
  if (page.applied.axes === axes) return;
  const size = a.sizes[s.lecture ? "lecture" : "normal"];
  for (const axis of [a.axes.logit_x, a.axes.prob_x]) {
    axis.ticker.ticks = f.sources.probs.x;
    axis.major_label_text_font_size = f.many ? size.ticks_many : size.ticks; // their names and angle: fit_class_axes
  }
  a.glyphs.point_labels.visible = !f.many;
  page.applied.axes = axes;
}

// The least room from one tick's label to the next, in font sizes: a digit is about 0.7 of its font size tall,
// and half a digit's height is left clear between two.
const TICK_ROOM = 1.1;

/** The two main figures' vertical axes with as many ticks as their labels have room for: the bars' p every 0.2, or
 * every 0.5 where that is too close, and the logits as Bokeh ticks them (6 asked for), or asked for fewer until
 * its interval leaves the room. On a phone, 79 px frames held seven and six labels of 12 px 10–12 px apart,
 * touching. After the frame's layout, as `fit_class_axes`: it reads the frames' heights, and a new look's font
 * size comes with new heights; a gesture's frames keep the ticks they started with. */
function fit_y_ticks(page, s) {
  const { logit, prob } = page.a.figs;
  if (!(logit.inner_height > 0 && prob.inner_height > 0)) return;
  const room = parseFloat(page.a.sizes[s.lecture ? "lecture" : "normal"].yticks) * TICK_ROOM;
  const ticker = page.a.axes.logit_y.ticker;
  const { start, end } = logit.y_range;
  let n = 6;
  while (n > 2 && tick_interval(ticker, start, end, n) * y_per_unit(logit) < room) n -= 1;
  set_if_changed(ticker, { desired_num_ticks: n });
  const ticks = 0.2 * y_per_unit(prob) >= room ? [0, 0.2, 0.4, 0.6, 0.8, 1] : [0, 0.5, 1];
  set_if_changed(page.a.axes.prob_y.ticker, { ticks });
}

// A figure's vertical pixels per unit of its y range, as last laid out.
function y_per_unit(fig) {
  return fig.inner_height / (fig.y_range.end - fig.y_range.start);
}

// The sweep's x is log10 T: its ticks are written as the T they stand for.
const LOG_T_TICKS = [[-2, "0.01"], [-1, "0.1"], [0, "1"], [1, "10"], [2, "100"]];

/** The figure of a function (frame.mjs function_figure): shown with its mode, its axes' ends, and its title, key
 * and axis labels in the language and the loss's units; on the logit figure, the key to the log-sum-exp band
 * while it is drawn, and on the bars the key to the draws while they are; the class axes' label, but on a phone. */
function draw_function(page, s, f, t, live) {
  const { a } = page;
  const fig = a.lab_figs.function;
  set_if_changed(fig, { visible: s.fn !== "none" });
  const lse = s.open.includes("lse");
  const phone = on_phone();
  const texts = JSON.stringify([s.lang, s.fn, s.units, lse, phone, s.sample]);
  if (page.applied.fn_texts !== texts) {
    a.hints.logit.text = lse ? `${t.logit_hint} · ${t.lse_marks_hint}` : t.logit_hint;
    a.hints.prob.text = s.sample ? `${t.prob_hint} · ${t.draws_hint}` : t.prob_hint;
    // On a phone the names under the ticks say what the axis is: its line goes to the loss on the first screen.
    for (const axis of [a.axes.logit_x, a.axes.prob_x]) axis.axis_label = phone ? null : t.class_axis;
    if (s.fn !== "none") {
      const unit = s.units === "bits" ? t.bits : t.nats;
      fig.title.text = t[`fn_${s.fn}_title`];
      a.lab_hints.function.text = t[`fn_${s.fn}_hint`];
      a.lab_axes.function_x.axis_label = t[`fn_${s.fn}_x`];
      a.lab_axes.function_y.axis_label = fill(t[`fn_${s.fn}_y`], { unit });
      a.lab_axes.function_x.major_label_overrides = new Map(s.fn === "sweep" ? LOG_T_TICKS : []);
    }
    page.applied.fn_texts = texts;
  }
  if (!live) place_beside(page, s);
  if (s.fn === "none") return;
  set_if_changed(fig.x_range, { start: f.fn.x_range[0], end: f.fn.x_range[1] });
  set_if_changed(fig.y_range, { start: f.fn.y_range[0], end: f.fn.y_range[1] });
}

// Where three figures fit in a row (three 420 px bases, two gaps, the page's margins), one figure sits beside the
// bars: the function's while one is chosen, else the loss after each step; the other, and both where a row holds
// two, under p_y, the loss and T, which stay on the first screen. Start-up draws again when the width crosses it.
export const THREE_FIGURES = "(min-width: 1324px)";

function place_beside(page, s) {
  const { beside, below } = page.a.function_rows;
  const { function: fn, loss } = page.a.lab_figs;
  const third = window.matchMedia?.(THREE_FIGURES).matches ? (s.fn !== "none" ? fn : loss) : null;
  const main = beside.children.filter((kid) => kid !== fn && kid !== loss);
  const want = new Map([[beside, third ? [...main, third] : main], [below, [fn, loss].filter((fig) => fig !== third)]]);
  // The row a figure leaves is written first: a model is never in two rows at once.
  const rows = below.children.includes(third) ? [below, beside] : [beside, below];
  for (const model of rows) {
    const kids = want.get(model);
    if (kids.length !== model.children.length || kids.some((kid, i) => model.children[i] !== kid)) {
      model.children = kids;
    }
  }
}

export function every_figure(a) {
  return [...Object.values(a.figs), ...Object.values(a.lab_figs)];
}

// The theme the page shows: theme=auto follows the reader's own (prefers-color-scheme, which start-up
// watches), so a course page in dark mode shows a dark explainer.
export function shown_theme(s) {
  if (s.theme !== "auto") return s.theme;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

// The models a row of the look (app/document.py LOOK) names by a group rather than by its path.
const LOOK_GROUPS = {
  figures: (a) => every_figure(a),
  titles: (a) => every_figure(a).map((fig) => fig.title),
  hints: (a) => [...Object.values(a.hints), ...Object.values(a.lab_hints)],
  grids: (a) => a.grids,
  axes: (a) => [...Object.values(a.axes), ...Object.values(a.lab_axes)],
  small_ticks: (a) => [a.axes.logit_y, a.axes.prob_y, ...Object.values(a.lab_axes)],
};

/** The models of a row of the look: a group, or one model by its path in the page's arguments. */
function look_targets(a, target) {
  if (Object.hasOwn(LOOK_GROUPS, target)) return LOOK_GROUPS[target](a);
  return [target.split(".").reduce((model, key) => model[key], a)];
}

/** `model`'s classes with `name` on or off, the others as they are; written only when that changes them. */
function with_class(model, name, on) {
  const classes = [...model.css_classes.filter((c) => c !== name), ...(on ? [name] : [])];
  if (!same_array(model.css_classes, classes)) model.css_classes = classes;
}

// The dark and projector themes and lecture mode: a class on the root (colours and type sizes are CSS variables there) and on
// each model whose own sheet sizes it ("lecture-mode", never "lecture": a class never shares a control's name,
// and tools find models by either), and the figures' colours and sizes, which Bokeh draws on a canvas, from the
// look's table. Python builds every model without them.
function draw_look(page, s) {
  const theme = shown_theme(s);
  const look = JSON.stringify([theme, s.lecture]);
  if (page.applied.look === look) return;
  const { a } = page;
  const p = a.themes[theme];
  const size = a.sizes[s.lecture ? "lecture" : "normal"];
  with_class(a.root, "dark", theme === "dark");
  with_class(a.root, "projector", theme === "projector");
  const lecture = [a.root, ...every_figure(a), ...Object.values(a.controls), a.header, a.tour.text, a.tour.status];
  for (const model of lecture) with_class(model, "lecture-mode", s.lecture);
  for (const [target, properties] of a.look) {
    const values = Object.fromEntries(Object.entries(properties).map(([property, key]) =>
      [property, key.startsWith("size.") ? size[key.slice(5)] : p[key]]));
    for (const model of look_targets(a, target)) model.setv(values);
  }
  if (a.mode !== "notebook") document.body.style.background = theme === "dark" ? p.bg : "";
  // The first look of a light page is drawn over Bokeh's own white: nothing of another one to clear.
  if (page.applied.look !== undefined || theme !== "light") {
    for (const fig of every_figure(a)) repaint_clean(page, fig);
  }
  page.applied.look = look;
}

// A canvas draws its text with the fonts loaded when it draws, and never again: once the lesson shows Hangul
// (its language, or a class name), the figures are given the page's Hangul font (static/hangul.css) as soon as
// both its weights have loaded, which draws them again. A page with no Hangul loads no font and draws nothing
// twice. Where the page declares no such font (a notebook's output), the list falls through to the machine's.
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/;

function draw_fonts(page, s) {
  const { a } = page;
  // Until the page's Hangul has loaded, the figures draw in the named faces alone: Bokeh's default, helvetica, is
  // on a machine with no alias for it whatever font fontconfig offers first (a serif, seen).
  const font = page.hangul_loaded ? a.view.font : a.view.font.replace(`"${a.view.hangul}", `, "");
  if (page.applied.font !== font) {
    for (const fig of every_figure(a)) fig.title.text_font = font;
    for (const hint of [...Object.values(a.hints), ...Object.values(a.lab_hints)]) hint.text_font = font;
    for (const axis of [...Object.values(a.axes), ...Object.values(a.lab_axes)]) {
      axis.setv({ axis_label_text_font: font, major_label_text_font: font });
    }
    for (const labels of [a.glyphs.point_labels, a.glyphs.bar_labels, a.glyphs.arrow_labels]) labels.text_font = font;
    a.calibration.legend.label_text_font = font;
    page.applied.font = font;
  }
  if (page.fonts || (s.lang !== "ko" && !s.names.some((name) => HANGUL.test(name)))) return;
  page.fonts = true;
  const loads = [400, 700].map((weight) => document.fonts.load(`${weight} 16px "${a.view.hangul}"`, "가"));
  Promise.all(loads).catch(() => null).then(() => {
    page.hangul_loaded = true;
    // Drawn again in the font with the Hangul, and the labels fitted again: a Hangul name is as wide as its font
    // makes it.
    if (!page.gesture) draw(page, now(page));
  });
}

// ---- the logit inputs, the live region, the link -----------------------------------------------------------

/** The labelled inputs that change a logit without dragging: text (a number field would turn a typed "2,5" into
 * 25 or nothing, by locale, before the page could say why), announced as the spin buttons they act as. */
function inputs_html(s, t, rules) {
  const fields = s.names.map((name, k) =>
    `<label><span title="${escape_html(name)}">${escape_html(name)}</span><input class="logit-input" type="text" inputmode="decimal" ` +
    `spellcheck="false" autocomplete="off" role="spinbutton" aria-valuemin="${-rules.logit}" ` +
    `aria-valuemax="${rules.logit}" aria-valuenow="${s.z[k]}" value="${logit_text(s.z[k])}" data-k="${k}" ` +
    `aria-label="${escape_html(fill(t.input_label, { name }))}"></label>`).join("");
  return `<div class="inputs-title">${t.inputs_title}</div><div class="inputs">${fields}</div>`;
}

// Rebuilt when the classes or the language change; otherwise only their values are written (a focused input
// keeps its focus).
function draw_inputs(page, s, t) {
  const labels = JSON.stringify([s.names, t.input_label, t.inputs_title]);
  let root = markup_of(page, page.a.inputs);
  if (page.applied.inputs !== labels || root?.querySelectorAll(".logit-input").length !== s.z.length) {
    const html = inputs_html(s, t, page.a.rules);
    root = set_markup(page, page.a.inputs, html, (el) => { el.innerHTML = html; });
    page.applied.inputs = root ? labels : null;
  }
  root?.querySelectorAll(".logit-input").forEach((input, k) => {
    const text = logit_text(s.z[k]);
    if (input.value !== text) input.value = text;
    if (input.getAttribute("aria-valuenow") !== String(s.z[k])) input.setAttribute("aria-valuenow", s.z[k]);
  });
}

// What a link locks or hides, said under the title; when it is z, the points stay where they are (their tool
// off) and their inputs are inert or left out (the buttons that move them are controls: controls.mjs
// control_off).
function draw_locks(page, s, t) {
  const { a } = page;
  const fixed = [...s.lock, ...s.hide.filter((key) => !s.lock.includes(key))].map((key) => t.lock_names[key]);
  const note = fixed.length ? `<p class="locked-note">${fill(t.locked_note, { keys: fixed.join(", ") })}</p>` : "";
  set_if_changed(a.header, { text: `<h1>${t.title}</h1><p class="subtitle">${t.subtitle}</p>${note}` });
  const locked = s.lock.includes("z") || s.hide.includes("z");
  set_draggable(page, a.figs.logit, !locked);
  set_if_changed(a.inputs, { visible: !s.hide.includes("z") });
  markup_of(page, a.inputs)?.querySelectorAll(".logit-input").forEach((input) => {
    if (input.disabled !== locked) input.disabled = locked;
  });
}

/** The polite ARIA live region (app/document.py writes the element, for a screen reader to know it before
 * its text changes); the page writes its text once a gesture is done, never during one. */
function show_live(page, text) {
  const region = markup_of(page, page.a.live)?.querySelector(".live-region");
  if (region && region.textContent !== text) region.textContent = text;
}

/** Where the served app is: its address, its link (query text) and whether this page is the app itself (its
 * address bar then holds the lesson). The page's own where the page is the app (app/page.py: one explainer for
 * every visitor, built with no address); Python's where it built the explainer in a session of its own (an
 * `Explainer` in an app of one's own); and where the app is embedded in another page (server_document), the
 * box its session's bridge drew the explainer in names them (static/session_bridge.mjs): that page's own
 * address and query are not the app's. Null until the explainer is drawn. */
export function served_home(page) {
  if (page.home) return page.home;
  const { a } = page;
  const root = element_of(page, a.root);
  if (!root) return null;
  const box = root.closest("[data-softmax-explainer-app]");
  page.home = box ? { url: box.getAttribute("data-softmax-explainer-app"), own: false,
    link: box.getAttribute("data-softmax-explainer-app-link") ?? "" }
    : { url: a.app_url || `${location.origin}${location.pathname}`, link: location.search,
      own: location.pathname === (a.app_path || location.pathname) };
  return page.home;
}

/** Where link text opens (a lesson's link_of): the served app's address with it as its query (its own address,
 * from Python: the page may sit inside a course page at another address), the exported file's with it as its
 * hash, or, in a notebook, which has no address of its own, the keys to put after an explainer's "#". */
export function link_address(page, link) {
  const { a } = page;
  if (a.mode === "served") return `${served_home(page).url}?${link}`;
  if (a.mode === "file") return `${location.href.split("#")[0]}#${link}`;
  return link;
}

// The lesson in the address bar: the exported file keeps it in the hash, the served app in the query (only
// where it is the page itself, not embedded in another page); a notebook leaves the address alone.
function write_link(page, s) {
  const { a } = page;
  if (a.mode === "served" && !served_home(page)?.own) return;
  const link = link_of(s, a.strings, a.rules);
  if (page.applied.link === link) return;
  page.applied.link = link;
  if (a.mode === "file" && page.link_ready) history.replaceState(history.state, "", `#${link}`);
  if (a.mode === "served") history.replaceState(history.state, "", `?${link}${location.hash}`);
}

function connection_html(page, s, t) {
  if (!page.connection) return "";
  const { a } = page;
  const link = link_of(s, a.strings, a.rules);
  const home = served_home(page);
  const url = home.own ? `?${link}` : `${home.url}?${link}`;
  return `<div class="connection">${fill(t[`connection_${page.connection}`], { url: escape_html(url) })}</div>`;
}
