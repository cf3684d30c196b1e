// The controls, by their rows in app/controls.py (the page receives the rows as `control_rows`): what each
// widget kind shows for a state, what it reads back, its labels, and what a change of it does.

// A row's `action`: a state action (static/actions.mjs) or a page command, which changes no state.
const ACTIONS = {
  add_one: (s, a) => add_one(s, a.rules),
  reset: (s) => reset(s),
  add_class: (s, a) => add_class(s, a.rules, a.strings),
  remove_class: (s, a) => remove_class(s, a.rules),
  preset: (s, a, name) => preset(s, name, a.strings),
  rename: (s, a, text) => rename(s, text, a.rules),
  set_lang: (s, a, lang) => {
    if (!Object.hasOwn(a.strings, lang)) throw new RuleError("refused", "an unknown language");
    return set_lang(s, lang, a.strings);
  },
};
const COMMANDS = { copy_link: (page) => copy_link(page), download_png: (page) => download_png(page) };
const MENUS = { preset: PRESETS }; // a menu's choices: its action's arguments
const HOLDS = { log_slider: "value", slider: "value", number: "value", select: "value", radio: "active",
  toggle: "active", text: "value", menu: "value" };

function field_of(c, a) {
  return a.rules.lesson_fields.find((f) => f.key === c.field);
}

// The names box's text as the page writes it ("a, b"): spaces around a comma do not change the names.
function names_text(text) {
  return String(text).split(",").map((n) => n.trim()).join(", ");
}

/** What control c holds for state s (its model's value or active). */
function shown_value(c, s, a) {
  const f = field_of(c, a);
  const v = s[c.field];
  if (c.widget === "log_slider") return Math.log10(v);
  if (c.widget === "select") return String(v);
  if (c.widget === "radio") return f.choices.indexOf(v);
  if (c.widget === "toggle") return f.kind === "flag" ? v : v === f.choices[1];
  if (c.widget === "text") return v.join(", ");
  return v;
}

/** The field's value that control c's model holds, read against state s: a log slider's position for s reads
 * back as s's value exactly (10 ** log10(T) need not be T), and a value outside the field's bounds is clamped. */
function read_value(c, model, s, a) {
  const f = field_of(c, a);
  const held = model[HOLDS[c.widget]];
  if (c.widget === "log_slider") {
    if (Math.abs(held - Math.log10(s[c.field])) < 1e-12) return s[c.field];
    return Math.min(f.bounds[1], Math.max(f.bounds[0], 10 ** held));
  }
  if (c.widget === "select") return f.kind === "index" ? Number(held) : held;
  if (c.widget === "radio") return f.choices[held];
  if (c.widget === "toggle") return f.kind === "flag" ? Boolean(held) : f.choices[held ? 1 : 0];
  return held;
}

function holds_state(c, value, s, a) {
  return c.widget === "text" ? names_text(value) === shown_value(c, s, a) : value === s[c.field];
}

/** Write every control's value for state s, and their labels when the language changed. */
function draw_controls(page, s, t) {
  const { a } = page;
  for (const c of a.control_rows) {
    const model = a.controls[c.name];
    if (c.widget === "select" && field_of(c, a).kind === "index") {
      set_if_changed(model, { options: s.names.map((name, k) => [String(k), name]) });
    }
    if (c.field && !holds_state(c, read_value(c, model, s, a), s, a)) {
      set_if_changed(model, { [HOLDS[c.widget]]: shown_value(c, s, a) });
    }
  }
  if (page.applied.lang === s.lang) return;
  for (const c of a.control_rows) draw_labels(c, a.controls[c.name], t, a);
  draw_texts(page, t);
  if (a.mode !== "notebook") {
    document.documentElement.lang = s.lang;
    document.title = t.title;
  }
  page.applied.lang = s.lang;
}

function draw_labels(c, model, t, a) {
  if (c.widget === "button" || c.widget === "toggle") model.label = t[c.label];
  else model.title = t[c.label];
  const f = c.field ? field_of(c, a) : null;
  if (c.widget === "radio") model.labels = f.choices.map((choice) => t[choice]);
  if (c.widget === "select" && f.kind === "choice") {
    model.options = f.choices.map((choice) => [choice, t[`${c.label}_options`][choice]]);
  }
  if (c.widget === "menu") {
    model.options = [["", t[`${c.label}_none`]], ...MENUS[c.action].map((v) => [v, t[`${c.label}_${v}`]])];
  }
}

// The figures' titles, hints and axis labels, and the header.
function draw_texts(page, t) {
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
}

/** Control c changed (a learner, a key, a script, or the page writing it): the next state, as a gesture. */
function on_control(page, c) {
  const { a } = page;
  const model = a.controls[c.name];
  if (c.widget === "button") {
    if (Object.hasOwn(COMMANDS, c.action)) COMMANDS[c.action](page);
    else act(page, (s) => ACTIONS[c.action](s, a));
    return;
  }
  if (c.widget === "menu") {
    const choice = model.value;
    if (choice === "") return;
    model.value = ""; // a menu: choosing the same scenario again loads it again
    if (!MENUS[c.action].includes(choice)) refuse(page, "refused");
    else act(page, (s) => ACTIONS[c.action](s, a, choice));
    return;
  }
  const s = now(page);
  const value = read_value(c, model, s, a);
  if (holds_state(c, value, s, a) && !page.gesture) return; // what the page wrote itself, or no change
  const next = (from) => (c.action ? ACTIONS[c.action](from, a, value) : { ...from, [c.field]: value, notice: "" });
  if (c.widget.endsWith("slider") && page.pointer_down) slide(page, next);
  else act(page, next);
}
