// Browser glue: every gesture becomes a named action on the lesson's state, and every state becomes a frame.
// One CustomJS runs this bundle for every trigger (app/document.py); `trigger_of` names what fired it and an
// unknown trigger is an error. The lesson lives in one model (`lesson.state`), the page's own: a finished
// gesture writes it once; during a drag or a slide the page draws live frames from an unwritten state.
// Python hears of a lesson only through `wire.text`, the lesson as JSON text, written once per commit (one
// message when served) and written by Python to send one back. Text is all that travels: a value a script
// forges on `lesson.state` (a Date, a Symbol, a structure nested a thousand deep) is checked here and never
// reaches the server, which could not decode it. Every other model is syncable=False.

const PAGES = new WeakMap(); // per lesson model (one per document or notebook output): what the page remembers

function page_of(a, context) {
  let page = PAGES.get(a.lesson);
  if (page === undefined) {
    page = { pointer_down: false, applied: {}, local_notice: null, ready: new WeakSet(), listening: false,
      valid: null, sent: null, from_python: null, connection: null, at_edge: false };
    PAGES.set(a.lesson, page);
  }
  page.a = a;
  page.index = context.index ?? page.index;
  if (page.valid === null) {
    // The first state is the wire's: Python built the page from it and may have changed it since (a notebook
    // cell that ran before its output was drawn). It is the truth, even where the page's own check would
    // differ (it never should; the twins are tested, and this keeps a page alive if they drift), and it needs
    // no answer.
    let first = a.lesson.state;
    try {
      first = JSON.parse(a.wire.text);
    } catch {
      // a page built without a wire text starts from its lesson model
    }
    try {
      page.valid = checked(first, a);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      page.valid = first;
    }
    page.sent = a.wire.text;
  }
  return page;
}

/** The lesson every gesture builds on: the last valid state this page drew or wrote. */
function now(page) {
  return page.valid;
}

function strings(page, s = now(page)) {
  return page.a.strings[s.lang];
}

// ---- writing the lesson: the page's gatekeeper, then one write -----------------------------------------

/** The state s, checked by the lesson's rules (app/rules.py has the twin), as a new plain object; a RuleError
 * when it breaks one. Total: whatever a script put there (a Symbol, a sparse array, a Proxy or getter that
 * throws, a toPrimitive that throws), the answer is a checked state or a RuleError. */
function checked(s, a) {
  try {
    return checked_state(s, a);
  } catch (e) {
    if (e instanceof RuleError) throw e;
    throw new RuleError("refused", "an unreadable value");
  }
}

// A list as plain values: holes read as undefined (which the rules refuse), a list longer than any lesson
// holds is refused before it is read.
function dense(value, rules) {
  if (!Array.isArray(value)) return value;
  if (value.length > rules.K[1]) throw new RuleError("class_count", "too many entries");
  return Array.from({ length: value.length }, (_, k) => value[k]);
}

function checked_state(s, a) {
  const { rules } = a;
  const keys = s && typeof s === "object" && !Array.isArray(s) ? Object.keys(s).sort() : [];
  if (JSON.stringify(keys) !== JSON.stringify([...rules.state_keys].sort())) throw new RuleError("refused", "keys");
  const out = {}; // in the table's order, which is Python's
  for (const f of rules.lesson_fields) out[f.key] = checked_field(f, s[f.key], rules);
  const K = out.z.length;
  if (out.initial.length !== K || out.names.length !== K) throw new RuleError("class_count", "counts differ");
  if (out.y >= K) throw new RuleError("not_number", "the true class");
  return out;
}

// One field of a state by its kind in the lesson's table (app/fields.py, which lists the kinds).
function checked_field(f, value, rules) {
  if (f.kind === "logits") return rule_logits(dense(value, rules), rules);
  if (f.kind === "names") return clean_names(dense(value, rules), rules);
  if (f.kind === "real") return rule_within(value, f.bounds, f.refusal);
  if (f.kind === "notice") return rule_notice(value, rules);
  if (f.kind === "index") {
    if (!Number.isInteger(value) || value < 0) throw new RuleError("not_number", "a class index");
    return value;
  }
  if (f.kind === "choice") {
    if (typeof value !== "string" || !f.choices.includes(value)) throw new RuleError("refused", f.key);
    return value;
  }
  if (f.kind === "flag") {
    if (typeof value !== "boolean") throw new RuleError("refused", f.key);
    return value;
  }
  throw new Error(`the lesson's table has a field of an unknown kind: ${f.kind}`);
}

/** Write the next state if the rules allow it, else keep the lesson and say why (a notice, a redraw). */
function commit(page, next) {
  let s;
  try {
    s = checked(next, page.a);
  } catch (e) {
    if (!(e instanceof RuleError)) throw e;
    refuse(page, e.key);
    return;
  }
  page.local_notice = null;
  send(page, s);
  if (same_json(s, page.a.lesson.state)) {
    draw(page, s);
  } else {
    page.valid = s; // the next gesture builds on it, and the "state" trigger knows it as the page's own
    page.a.lesson.state = s;
  }
}

// Whether the model already holds s: then writing it again fires nothing, and the page draws it itself. What
// a script left there may not even have a JSON form (a BigInt), and then it is not s.
function same_json(s, held) {
  try {
    return JSON.stringify(s) === JSON.stringify(held);
  } catch {
    return false;
  }
}

/** Tell Python (when served, or in a notebook) of a checked state: its JSON text on the wire, once. */
function send(page, s) {
  const text = JSON.stringify(s);
  if (text === page.a.wire.text) return;
  page.sent = text;
  page.a.wire.text = text;
}

/** A gesture the rules refuse: the lesson stays as it was, drawn again (controls included), with a notice. */
function refuse(page, key) {
  page.local_notice = key;
  draw(page, now(page));
}

function act(page, action) {
  try {
    commit(page, action(now(page)));
  } catch (e) {
    if (!(e instanceof RuleError)) throw e;
    refuse(page, e.key);
  }
}

// ---- drawing a state -------------------------------------------------------------------------------------

// Bokeh's Div lays out the whole page again whenever its text changes (MarkupView.rerender walks up to the
// root): 40 ms on every drag frame. A readout's box does not depend on its text (static/layout.css), so set
// the model's text silently and write the same HTML into the view's element.
function show(page, div, html) {
  if (div.text === html) return;
  const view = page.index?.find_one(div);
  if (view?.markup_el) {
    div.setv({ text: html }, { silent: true });
    view.markup_el.innerHTML = html;
  } else {
    div.text = html;
  }
}

function same_array(shown, value) {
  return JSON.stringify(Array.from(shown ?? [])) === JSON.stringify(value);
}

function set_if_changed(model, values) {
  const changed = {};
  for (const [key, value] of Object.entries(values)) {
    const same = Array.isArray(value) ? same_array(model[key], value) : model[key] === value;
    if (!same) changed[key] = value;
  }
  if (Object.keys(changed).length) model.setv(changed);
}

/** Draw state s. A live frame (a drag or a slide in progress) leaves the logits source to the tool, and the
 * controls, links and the live region to the end of the gesture. */
function draw(page, s, { live = false, notice = null } = {}) {
  const { a } = page;
  const t = strings(page, s);
  const f = frame(s, t, a.view);
  for (const [name, data] of Object.entries(f.sources)) {
    if (name === "logits" && live) continue;
    if (name === "logits" && same_array(a.sources.logits.data.z, data.z)
        && same_array(a.sources.logits.data.name, data.name)) continue;
    a.sources[name].data = data;
  }
  set_if_changed(a.figs.logit.y_range, { start: f.window[0], end: f.window[1] });
  for (const fig of Object.values(a.figs)) set_if_changed(fig.x_range, { start: f.x_range[0], end: f.x_range[1] });
  for (const [key, html] of Object.entries(f.readouts)) {
    show(page, a.divs[key], html);
    if (key === "gap" || key === "sigmoid") set_if_changed(a.divs[key], { visible: html !== "" });
  }
  const key = notice ?? page.local_notice ?? s.notice;
  show(page, a.notice, notice_html({ ...s, notice: key }, t, a.rules.fields) + connection_html(page, s, t));
  if (!live) draw_look(page, s);
  draw_axes(page, s, f);
  draw_inputs(page, s, t);
  if (live) return;
  draw_controls(page, s, t);
  show_live(page, f.live);
  write_link(page, s);
}

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

// The logits without dragging: labelled number inputs inside the `logit_inputs` Div, rebuilt when the
// classes change, otherwise only their values are written (a focused input keeps its focus).
function draw_inputs(page, s, t) {
  const view = page.index?.find_one(page.a.inputs);
  const root = view?.markup_el;
  if (!root) return;
  const fields = root.querySelectorAll(".logit-input");
  const labels = JSON.stringify([s.names, t.input_label, t.inputs_title]);
  if (fields.length !== s.z.length || page.applied.inputs !== labels) {
    const html = inputs_html(s, t, page.a.rules);
    page.a.inputs.setv({ text: html }, { silent: true });
    root.innerHTML = html;
    page.applied.inputs = labels;
  }
  root.querySelectorAll(".logit-input").forEach((input, k) => {
    const text = logit_text(s.z[k]);
    if (input.value !== text) input.value = text;
  });
}

/** The inputs' HTML: the twin of inputs_html in app/document.py. */
export function inputs_html(s, t, rules) {
  const fields = s.names.map((name, k) =>
    `<label><span>${escape_html(name)}</span><input class="logit-input" type="number" step="0.1" ` +
    `min="${-rules.logit}" max="${rules.logit}" value="${logit_text(s.z[k])}" data-k="${k}" ` +
    `aria-label="${escape_html(fill(t.input_label, { name }))}"></label>`).join("");
  return `<div class="inputs-title">${t.inputs_title}</div><div class="inputs">${fields}</div>`;
}

// The names box's text as the page writes it ("a, b"): spaces around a comma do not change the names.
function names_text(text) {
  return text.split(",").map((n) => n.trim()).join(", ");
}

function draw_controls(page, s, t) {
  const c = page.a.controls;
  if (Math.abs(c.temperature.value - Math.log10(s.T)) > 1e-12) c.temperature.value = Math.log10(s.T);
  if (c.label_smoothing.value !== s.eps) c.label_smoothing.value = s.eps;
  set_if_changed(c.true_class, { options: s.names.map((name, k) => [String(k), name]) });
  set_if_changed(c.true_class, { value: String(s.y) });
  set_if_changed(c.units, { active: s.units === "bits" ? 1 : 0 });
  set_if_changed(c.lang, { value: s.lang });
  set_if_changed(c.theme, { active: s.theme === "dark" });
  set_if_changed(c.lecture, { active: s.lecture });
  const names = s.names.join(", ");
  if (names_text(c.class_names.value) !== names) c.class_names.value = names;
  if (page.applied.lang === s.lang) return;
  const { a } = page;
  a.header.text = `<h1>${t.title}</h1><p>${t.subtitle}</p>`;
  a.figs.logit.title.text = t.logit_title;
  a.figs.prob.title.text = t.prob_title;
  a.hints.logit.text = t.logit_hint;
  a.hints.prob.text = t.prob_hint;
  a.axes.logit_y.axis_label = t.logit_axis;
  a.axes.prob_y.axis_label = t.prob_axis;
  a.axes.logit_x.axis_label = t.class_axis;
  a.axes.prob_x.axis_label = t.class_axis;
  for (const name of ["temperature", "true_class", "label_smoothing", "preset", "lang"]) c[name].title = t[name];
  c.class_names.title = t.class_names_box;
  for (const name of ["add_one", "reset", "add_class", "remove_class", "copy_link", "download_png", "theme",
    "lecture"]) c[name].label = t[name];
  c.units.labels = [t.nats, t.bits];
  c.preset.options = [["", t.preset_none], ...PRESETS.map((p) => [p, t[`preset_${p}`]])];
  c.lang.options = Object.keys(a.strings).map((code) => [code, t.lang_options[code]]);
  if (a.mode !== "notebook") {
    document.documentElement.lang = s.lang;
    document.title = t.title;
  }
  page.applied.lang = s.lang;
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

function show_live(page, text) {
  const region = page.index?.find_one(page.a.live)?.markup_el?.querySelector(".live-region");
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

// ---- the server: lost and back ---------------------------------------------------------------------------

// A served page whose server goes away keeps working (every frame is computed here) and says so; once the
// server answers again it offers the way back: the page's own link, which holds the whole lesson.
const POLL_MS = 2000;

function lost(page) {
  if (page.a.mode !== "served" || page.connection) return;
  page.connection = "lost";
  draw(page, now(page));
  // HEAD: any answer at all (Tornado's 405 included) means the server is back, and it opens no session.
  const poll = () => fetch(page.a.app_url || location.href, { method: "HEAD", mode: "no-cors", cache: "no-store" })
    .then(() => {
      page.connection = "back";
      draw(page, now(page));
    }, () => setTimeout(poll, POLL_MS));
  setTimeout(poll, POLL_MS);
}

function connection_html(page, s, t) {
  if (!page.connection) return "";
  const { a } = page;
  const link = link_of(s, a.strings, a.rules);
  const url = location.pathname === a.app_path ? `?${link}` : `${a.app_url}?${link}`;
  return `<div class="connection">${fill(t[`connection_${page.connection}`], { url: escape_html(url) })}</div>`;
}

// ---- the triggers ----------------------------------------------------------------------------------------

// Where a point may be dragged: inside the plot frame, and never past ±limit.
function drag_window(page) {
  const { a } = page;
  const r = a.figs.logit.y_range;
  return [Math.max(r.start + a.view.pad, -a.rules.logit), Math.min(r.end - a.view.pad, a.rules.logit)];
}

function dragged_z(page, ev) {
  const src = page.a.sources.logits;
  const z = src.data.z;
  const r = page.a.figs.logit.y_range;
  const [lo, hi] = drag_window(page);
  let clamped = false;
  for (let k = 0; k < z.length; k++) {
    const c = Math.min(hi, Math.max(lo, z[k]));
    if (c !== z[k]) { z[k] = c; clamped = true; }
  }
  // Past the frame's edge the tool stops following the pointer: put the point at the edge it ran to.
  for (const k of src.selected.indices) {
    if (ev?.y > r.end && z[k] !== hi) { z[k] = hi; clamped = true; }
    if (ev?.y < r.start && z[k] !== lo) { z[k] = lo; clamped = true; }
  }
  if (clamped) src.change.emit();
  const at_edge = src.selected.indices.some((k) => z[k] === lo || z[k] === hi);
  return [Array.from(z), at_edge];
}

function commit_logits(page) {
  const z = Array.from(page.a.sources.logits.data.z ?? [], Number); // a script may write anything here
  const s = now(page);
  if (z.length !== s.z.length) {
    // A point deleted with Backspace (the drawing tool's own shortcut) comes back where the learner last saw
    // it: the last frame drawn, live or not.
    const seen = Array.from(page.a.sources.point_labels.data.z);
    commit(page, { ...s, z: seen.length === s.z.length ? seen : s.z });
    return;
  }
  if (z.every((v, k) => v === s.z[k])) return; // the page wrote these logits itself, from the state
  // Whether the drag ended at the edge is what its last frame said: by the time the gesture ends, the tool
  // has let go of its selection, so the points cannot tell.
  const at_edge = page.at_edge;
  page.at_edge = false;
  commit(page, { ...s, z, notice: at_edge ? "clamped" : "" });
}

function slide(page, key, value) {
  const s = now(page);
  if (s[key] === value) return;
  if (page.pointer_down) draw(page, { ...s, [key]: value }, { live: true });
  else commit(page, { ...s, [key]: value, notice: "" });
}

const TRIGGERS = {
  // The lesson changed: a commit of this page, Python, or a script. A lesson that breaks the rules is never
  // drawn: the last valid one goes back, with a notice (when served, Python refuses it too).
  state(page) {
    const held = page.a.lesson.state;
    if (held === page.valid) { // this page's own commit
      draw(page, held);
      return;
    }
    page.local_notice = null;
    let s;
    try {
      s = checked(held, page.a);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      if (page.valid) commit(page, { ...page.valid, notice: "refused" });
      return;
    }
    page.valid = s;
    // What Python sent needs no answer unless the page's rules changed it (they never should: twins).
    if (held !== page.from_python || JSON.stringify(s) !== JSON.stringify(held)) send(page, s);
    draw(page, s);
  },
  // Python sent a lesson (a notebook cell, a refusal put back). The page's own text comes back here too.
  wire(page) {
    const text = page.a.wire.text;
    if (text === page.sent) return;
    page.sent = text;
    try {
      page.from_python = JSON.parse(text);
    } catch {
      return;
    }
    page.a.lesson.state = page.from_python;
  },
  connection_lost(page) {
    lost(page);
  },
  layout(page) {
    ready(page);
  },
  pan(page, ev) {
    const [z, at_edge] = dragged_z(page, ev);
    page.at_edge = at_edge;
    draw(page, { ...page.valid, z }, { live: true, notice: at_edge ? "clamped" : "" });
  },
  panend(page) {
    commit_logits(page);
  },
  logits(page) {
    if (!page.pointer_down) commit_logits(page);
  },
  // A tap selects a point; clearing it keeps the next drag from moving two points at once.
  tap(page) {
    page.a.sources.logits.selection_manager.clear();
  },
  temperature(page) {
    const v = page.a.controls.temperature.value;
    if (Math.abs(v - Math.log10(now(page).T)) < 1e-12) return; // the page itself wrote it from the state
    const [lo, hi] = page.a.rules.T;
    slide(page, "T", Math.min(hi, Math.max(lo, 10 ** v)));
  },
  label_smoothing(page) {
    slide(page, "eps", page.a.controls.label_smoothing.value);
  },
  true_class(page) {
    const y = Number(page.a.controls.true_class.value);
    if (y !== now(page).y) commit(page, { ...now(page), y, notice: "" });
  },
  units(page) {
    const units = ["nats", "bits"][page.a.controls.units.active];
    if (units !== now(page).units) commit(page, { ...now(page), units });
  },
  lang(page) {
    const lang = page.a.controls.lang.value;
    if (lang === now(page).lang) return;
    if (!Object.hasOwn(page.a.strings, lang)) {
      refuse(page, "refused");
      return;
    }
    act(page, (s) => set_lang(s, lang, page.a.strings));
  },
  theme(page) {
    const theme = page.a.controls.theme.active ? "dark" : "light";
    if (theme !== now(page).theme) commit(page, { ...now(page), theme });
  },
  lecture(page) {
    const lecture = Boolean(page.a.controls.lecture.active);
    if (lecture !== now(page).lecture) commit(page, { ...now(page), lecture });
  },
  class_names(page) {
    const text = page.a.controls.class_names.value;
    if (names_text(text) === now(page).names.join(", ")) return;
    act(page, (s) => rename(s, text, page.a.rules));
  },
  preset(page) {
    const name = page.a.controls.preset.value;
    if (name === "") return;
    page.a.controls.preset.value = ""; // a menu: choosing the same scenario again loads it again
    if (!PRESETS.includes(name)) {
      refuse(page, "refused");
      return;
    }
    act(page, (s) => preset(s, name, page.a.strings));
  },
  add_one(page) {
    act(page, (s) => add_one(s, page.a.rules));
  },
  reset(page) {
    act(page, reset);
  },
  add_class(page) {
    act(page, (s) => add_class(s, page.a.rules, page.a.strings));
  },
  remove_class(page) {
    act(page, (s) => remove_class(s, page.a.rules));
  },
  copy_link(page) {
    copy_link(page);
  },
  download_png(page) {
    download_png(page);
  },
};

// ---- once per page: keyboard, pointer, links --------------------------------------------------------------

function ready(page) {
  const { a } = page;
  if (!page.listening) {
    page.listening = true;
    // A slider or a point moved by a pointer is a gesture in progress until the pointer is up: live frames
    // meanwhile, one write at the end. A value set by a script or a key is a whole gesture at once.
    const down = (ev) => { if (ev.isPrimary) page.pointer_down = true; };
    const up = (ev) => { if (ev.isPrimary) page.pointer_down = false; };
    window.addEventListener("pointerdown", down, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
    // A pointer released outside this window (a course page around the frame) is never seen going up.
    window.addEventListener("blur", () => { page.pointer_down = false; });
    // A page opened without a link keeps its plain address until the learner changes something; one opened
    // with a link gets it back cleaned (defaults in place of what could not be used).
    if (!(a.mode === "file" ? location.hash : location.search).replace(/^[#?]/, "")) {
      page.applied.link = link_of(now(page), a.strings, a.rules);
    }
    // An exported page inside an iframe tells its course page how tall it is, whenever that changes
    // (examples/course_page.html sets the frame's height from it): a learner never scrolls inside a frame.
    // Bokeh's page keeps <body> at the frame's height, so it is the explainer's own element that is watched.
    const root = page.index?.find_one(a.root)?.el;
    if (a.mode === "file" && window.parent !== window && root) {
      const tell = () => {
        const height = root.getBoundingClientRect().bottom + window.scrollY;
        window.parent.postMessage({ softmax_explainer_height: Math.ceil(height) }, "*");
      };
      new ResizeObserver(tell).observe(root);
    }
    if (a.mode === "file") {
      page.link_ready = true;
      window.addEventListener("hashchange", () => read_link(page));
      read_link(page);
    }
  }
  const inputs = page.index?.find_one(a.inputs);
  const shadow = inputs?.shadow_el;
  if (shadow && !page.ready.has(shadow)) {
    page.ready.add(shadow);
    shadow.addEventListener("keydown", (ev) => on_input_key(page, ev));
    shadow.addEventListener("change", (ev) => on_input_change(page, ev));
  }
  if (!page.drawn) { // the first layout; later ones (a resize) need no new frame, Bokeh redraws the figures
    page.drawn = true;
    if (same_json(page.valid, a.lesson.state)) draw(page, page.valid);
    else a.lesson.state = page.valid; // the "state" trigger draws it, as the page's own
  }
  if (inputs) inputs.el.dataset.ready = "1"; // for tests and tools: the page answers keys and links from here on
}

function input_index(ev) {
  const input = ev.target;
  return input?.classList?.contains("logit-input") ? Number(input.dataset.k) : null;
}

function on_input_key(page, ev) {
  const k = input_index(ev);
  if (k === null || (ev.key !== "ArrowUp" && ev.key !== "ArrowDown")) return;
  ev.preventDefault(); // the browser's own step would ignore Shift and skip the lesson's rules
  const step = (ev.shiftKey ? 1 : 0.1) * (ev.key === "ArrowUp" ? 1 : -1);
  // A value typed but not yet entered is where the step starts, as in any number field.
  const typed = ev.target.value.trim();
  act(page, (s) => {
    const from = typed !== "" && Number.isFinite(Number(typed)) ? set_logit(s, k, Number(typed), page.a.rules) : s;
    return nudge(from, k, step, page.a.rules);
  });
}

function on_input_change(page, ev) {
  const k = input_index(ev);
  if (k === null) return;
  const text = ev.target.value.trim();
  act(page, (s) => set_logit(s, k, text === "" ? NaN : Number(text), page.a.rules));
}

function read_link(page) {
  const text = location.hash.replace(/^#/, "");
  if (!text) return;
  const [s] = parse_link(link_pairs(text), now(page).lang, page.a.rules, page.a.strings);
  page.applied.link = null; // write the cleaned link back, even when the lesson itself does not change
  commit(page, s);
}

// The served app's own address comes from Python (the page may sit inside a course page at another
// address); a notebook has no address of its own, so it gives the keys to put after an explainer's "#".
function copy_link(page) {
  const { a } = page;
  const link = link_of(now(page), a.strings, a.rules);
  const url = a.mode === "served" ? `${a.app_url}?${link}`
    : a.mode === "file" ? `${location.href.split("#")[0]}#${link}` : link;
  const say = (key) => {
    page.local_notice = `${key}:${url}`;
    draw(page, now(page));
  };
  // The link shows at once; the clipboard may ask for permission, or never answer (file pages, some browsers).
  say("link_shown");
  navigator.clipboard?.writeText(url).then(() => say("link_copied"), () => {});
}

function download_png(page) {
  const views = Object.values(page.a.figs).map((fig) => page.index.find_one(fig));
  const layers = views.map((view) => view.export("png", true).canvas);
  const out = document.createElement("canvas");
  out.width = layers.reduce((w, c) => w + c.width, 0);
  out.height = Math.max(...layers.map((c) => c.height));
  const ctx = out.getContext("2d");
  ctx.fillStyle = page.a.themes[now(page).theme].bg;
  ctx.fillRect(0, 0, out.width, out.height);
  let x = 0;
  for (const layer of layers) {
    ctx.drawImage(layer, x, 0);
    x += layer.width;
  }
  out.toBlob((blob) => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "softmax-explainer.png";
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
}

// One callback serves every trigger, told apart by what fired it: a model whose property changed, an event
// (pan, tap, a button's click) with the model it came from, or a document event (the document, and the event
// as `data`).
function trigger_of(a, obj, data) {
  if (obj === a.lesson) return "state";
  if (obj === a.wire) return "wire";
  if (data?.event_name === "connection_lost") return "connection_lost";
  if (obj === a.sources.logits) return "logits";
  if (obj === a.figs.logit) return "layout";
  const origin = obj.event_name === "button_click" ? obj.origin : obj;
  for (const [name, model] of Object.entries(a.controls)) if (model === origin) return name;
  if (obj.event_name === "pan" || obj.event_name === "panend" || obj.event_name === "tap") return obj.event_name;
  throw new Error(`the explainer has no action for ${obj.event_name ?? obj.type ?? String(obj)}`);
}

export default (args, obj, data, context) => {
  const page = page_of(args, context);
  TRIGGERS[trigger_of(args, obj, data)](page, obj);
};
