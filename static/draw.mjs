// Drawing a state: the figures' sources, axes and look, the readouts, the logit inputs, the live region and the
// link. Every write is skipped when the page already shows its value, so a frame costs what changed. A live
// frame (a gesture in progress) leaves the logits source to the drawing tool and the controls, the live
// region and the link to the gesture's end, and so does a readout scrolled out of sight: nothing is written
// that the eye cannot see during a drag.

function strings(page, s = now(page)) {
  return page.a.strings[s.lang];
}

function same_array(shown, value) {
  if (shown == null || shown.length !== value.length) return false;
  for (let i = 0; i < value.length; i++) if (shown[i] !== value[i]) return false;
  return true;
}

function same_columns(data, columns) {
  for (const [name, value] of Object.entries(columns)) if (!same_array(data[name], value)) return false;
  return Object.keys(data).length === Object.keys(columns).length;
}

function set_if_changed(model, values) {
  const changed = {};
  for (const [key, value] of Object.entries(values)) {
    const held = model[key];
    const same = Array.isArray(value) ? JSON.stringify(Array.from(held ?? [])) === JSON.stringify(value)
      : held === value;
    if (!same) changed[key] = value;
  }
  if (Object.keys(changed).length) model.setv(changed);
}

/** Draw state s; `live` while a gesture is in progress. */
function draw(page, s, { live = false } = {}) {
  const { a } = page;
  const t = strings(page, s);
  const f = frame(s, t, a.view);
  for (const [name, data] of Object.entries(f.sources)) {
    if (name === "logits" && live) continue;
    if (!same_columns(a.sources[name].data, data)) a.sources[name].data = data;
  }
  // A gesture's frames keep the axis it began on (a point dragged back inside it would shrink it mid-drag).
  if (!live) set_if_changed(a.figs.logit.y_range, { start: f.window[0], end: f.window[1] });
  for (const fig of Object.values(a.figs)) set_if_changed(fig.x_range, { start: f.x_range[0], end: f.x_range[1] });
  for (const [key, html] of Object.entries(f.readouts)) {
    if (live && page.unseen.has(a.divs[key])) continue; // off screen: written at the gesture's end
    show(page, a.divs[key], html, live);
    if (key === "gap" || key === "sigmoid") set_if_changed(a.divs[key], { visible: html !== "" });
  }
  const notice = page.local_notice ?? s.notice;
  show(page, a.notice, notice_html({ ...s, notice }, t, a.rules.fields) + connection_html(page, s, t), live);
  draw_axes(page, s, f);
  if (!(live && page.unseen.has(a.inputs))) draw_inputs(page, s, t);
  if (live) return;
  draw_look(page, s);
  draw_fonts(page, s);
  // The document's language, for a screen reader's voice and the browser's line breaking; a notebook's is its own.
  if (a.mode !== "notebook" && document.documentElement.lang !== s.lang) document.documentElement.lang = s.lang;
  draw_controls(page, s, t);
  show_live(page, f.live);
  write_link(page, s);
}

// ---- readouts: from one frame to the next a readout changes its numbers, not its elements --------------

const PATCHES = new WeakMap(); // element → what it shows: its HTML's tags and its text and element nodes
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" }; // escape_html's
const ENTITY = /&(amp|lt|gt|quot|#39);/g;
const OTHER_ENTITY = /&(?!(amp|lt|gt|quot|#39);)/;
const ATTRIBUTE = /([\w-]+)="([^"]*)"/g;

function show(page, div, html, live = false) {
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
  if (memo?.shape === shape && texts.every((text) => !OTHER_ENTITY.test(text))) {
    texts.forEach((text, i) => {
      const data = text.replace(ENTITY, (e) => ENTITIES[e]);
      if (memo.texts[i].data !== data) memo.texts[i].data = data;
    });
    tags.filter((tag) => !tag.startsWith("</")).forEach((tag, i) => {
      for (const [, name, value] of tag.matchAll(ATTRIBUTE)) {
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
    axis.formatter.args = { names: [...s.names] };
    axis.setv({
      major_label_orientation: f.many ? Math.PI / 4 : 0, major_label_text_font_size: f.many ? size.ticks_many : size.ticks,
    });
  }
  a.glyphs.point_labels.visible = !f.many;
  page.applied.axes = axes;
}

// The dark theme and lecture mode: a class on the root (colours and type sizes are CSS variables there) and
// the figures' own colours and sizes, which Bokeh draws on a canvas.
function draw_look(page, s) {
  const look = JSON.stringify([s.theme, s.lecture]);
  if (page.applied.look === look) return;
  const { a } = page;
  const p = a.themes[s.theme];
  const size = a.sizes[s.lecture ? "lecture" : "normal"];
  const extra = [...(s.theme === "dark" ? ["dark"] : []), ...(s.lecture ? ["lecture-mode"] : [])];
  a.root.css_classes = ["explainer", ...extra];
  for (const fig of Object.values(a.figs)) {
    fig.css_classes = ["fig", ...(s.lecture ? ["lecture-mode"] : [])];
    fig.setv({ background_fill_color: p.bg, border_fill_color: p.bg, outline_line_color: p.grid });
    fig.title.setv({ text_color: p.fg, text_font_size: size.title });
  }
  for (const hint of Object.values(a.hints)) hint.setv({ text_color: p.muted, text_font_size: size.hint });
  for (const grid of a.grids) grid.grid_line_color = p.grid;
  for (const control of Object.values(a.controls)) {
    control.css_classes = ["control", ...(s.lecture ? ["lecture-mode"] : [])];
  }
  for (const axis of Object.values(a.axes)) {
    axis.setv({
      axis_label_text_color: p.fg, major_label_text_color: p.fg, axis_line_color: p.muted,
      major_tick_line_color: p.muted, minor_tick_line_color: p.muted, axis_label_text_font_size: size.axis,
    });
  }
  const g = a.glyphs;
  g.arrows.setv({ line_color: p.arrow, line_width: size.arrow });
  g.heads.setv({ fill_color: p.arrow, line_color: p.arrow });
  g.marks.setv({ fill_color: p.arrow, line_color: p.arrow });
  g.arrow_labels.setv({ text_color: p.arrow, text_font_size: size.hint });
  g.points.setv({ fill_color: p.point, line_color: p.point_line, size: size.point });
  g.bars.fill_color = p.bar;
  g.outer.line_width = size.outline;
  g.inner.line_width = size.outline_inner;
  g.targets.setv({ line_color: p.target, line_width: size.target });
  g.point_labels.setv({ text_color: p.fg, text_font_size: size.labels });
  g.bar_labels.setv({ text_color: p.fg, text_font_size: size.labels });
  g.span.line_color = p.span;
  if (a.mode !== "notebook") document.body.style.background = s.theme === "dark" ? p.bg : "";
  page.applied.look = look;
}

// A canvas draws its text with the fonts loaded when it draws, and never again: once the lesson shows Hangul
// (its language, or a class name), the figures are given the page's Hangul font (static/hangul.css) as soon as
// both its weights have loaded, which draws them again. A page with no Hangul loads no font and draws nothing
// twice. Where the page declares no such font (a notebook's output), the list falls through to the machine's.
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/;

function draw_fonts(page, s) {
  if (page.fonts || (s.lang !== "ko" && !s.names.some((name) => HANGUL.test(name)))) return;
  page.fonts = true;
  const { a } = page;
  const loads = [400, 700].map((weight) => document.fonts.load(`${weight} 16px "${a.view.hangul}"`, "가"));
  Promise.all(loads).catch(() => null).then(() => {
    const font = a.view.font;
    for (const fig of Object.values(a.figs)) fig.title.text_font = font;
    for (const hint of Object.values(a.hints)) hint.text_font = font;
    for (const axis of Object.values(a.axes)) axis.setv({ axis_label_text_font: font, major_label_text_font: font });
    for (const labels of [a.glyphs.point_labels, a.glyphs.bar_labels, a.glyphs.arrow_labels]) labels.text_font = font;
  });
}

// ---- the logit inputs, the live region, the link -----------------------------------------------------------

/** The labelled number inputs that change a logit without dragging. */
function inputs_html(s, t, rules) {
  const fields = s.names.map((name, k) =>
    `<label><span>${escape_html(name)}</span><input class="logit-input" type="number" step="0.1" ` +
    `min="${-rules.logit}" max="${rules.logit}" value="${logit_text(s.z[k])}" data-k="${k}" ` +
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
  });
}

/** The polite ARIA live region (app/document.py writes the element, for a screen reader to know it before
 * its text changes); the page writes its text once a gesture is done, never during one. */
function show_live(page, text) {
  const region = markup_of(page, page.a.live)?.querySelector(".live-region");
  if (region && region.textContent !== text) region.textContent = text;
}

// The lesson in the address bar: the exported file keeps it in the hash, the served app in the query (only
// where it is the page itself, not embedded in another page); a notebook leaves the address alone.
function write_link(page, s) {
  const { a } = page;
  const link = link_of(s, a.strings, a.rules);
  if (page.applied.link === link) return;
  page.applied.link = link;
  if (a.mode === "file" && page.link_ready) history.replaceState(history.state, "", `#${link}`);
  if (a.mode === "served" && location.pathname === a.app_path) {
    history.replaceState(history.state, "", `?${link}${location.hash}`);
  }
}

function connection_html(page, s, t) {
  if (!page.connection) return "";
  const { a } = page;
  const link = link_of(s, a.strings, a.rules);
  const url = location.pathname === a.app_path ? `?${link}` : `${a.app_url}?${link}`;
  return `<div class="connection">${fill(t[`connection_${page.connection}`], { url: escape_html(url) })}</div>`;
}
