// The controls, by their rows in app/controls.py (the page receives the rows as `control_rows`): what each
// widget kind shows for a state, what it reads back, its labels, and what a change of it does.

import {
  add_class, add_one, paste, preset, PRESETS, remove_class, rename, reset, set_lang, subtract_max
} from "./actions.mjs";
import { fit_T } from "./calibration_view.mjs";
import { logit_text } from "./digits.mjs";
import { set_if_changed, shown_theme } from "./draw.mjs";
import { pause, play, slide, stepped } from "./gestures.mjs";
import { act, now, refuse } from "./lesson.mjs";
import { same_items } from "./link.mjs";
import { Refusal, parse_number } from "./rules.mjs";
import { copy_link, download_png, download_svg } from "./startup.mjs";
import { tour_move, tour_setup } from "./tour.mjs";

// A row's `action`: a state action (static/actions.mjs) or a page command, which changes no state.
const ACTIONS = {
  add_one: (s, a) => add_one(s, a.rules),
  subtract_max: (s, a) => subtract_max(s, a.rules),
  reset: (s) => reset(s),
  add_class: (s, a) => add_class(s, a.rules, a.strings),
  remove_class: (s, a) => remove_class(s, a.rules),
  preset: (s, a, name) => preset(s, name, a.strings),
  rename: (s, a, text) => rename(s, text, a.rules),
  set_lang: (s, a, lang) => {
    if (!Object.hasOwn(a.strings, lang)) throw new Refusal("refused", "an unknown language");
    return set_lang(s, lang, a.strings);
  },
};
const COMMANDS = { copy_link: (page) => copy_link(page), download_png: (page) => download_png(page),
  download_svg: (page) => download_svg(page),
  reset_all: (page) => act(page, (s) => reset_all(s, page.record.opened, page.a)),
  step: (page) => act(page, (s) => stepped(page, s)), play: (page) => (page.playing ? pause(page) : play(page)),
  tour_back: (page) => tour_move(page, -1), tour_next: (page) => tour_move(page, 1),
  tour_setup: (page) => tour_setup(page), fit_T: (page) => fit_T(page) };
const MENUS = { preset: PRESETS }; // a menu's choices: its action's arguments
const HOLDS = { log_slider: "value", slider: "value", number: "value", select: "value", radio: "active",
  toggle: "active", text: "value", menu: "value", checks: "active", paste: "value" };

function field_of(c, a) {
  return a.rules.lesson_fields.find((f) => f.key === c.field);
}

// A typed number in the NUMBER form of the rules; "2,5" is refused with a notice that says to use a point (a
// browser's number field reads it as 25 or as nothing, by the reader's locale, and says nothing).
export function typed_number(text) {
  if (/^[+-]?[0-9]*,[0-9]+$/.test(text)) throw new Refusal("decimal_comma", `a decimal comma: ${text}`);
  return parse_number(text);
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
  if (c.widget === "toggle") return f.kind === "flag" ? v : shown_choice(f, s) === f.choices[1];
  if (c.widget === "text") return v.join(", ");
  if (c.widget === "number") return logit_text(v);
  if (c.widget === "checks") return v.map((key) => f.choices.indexOf(key));
  return v;
}

// A log slider's position as its field's value: 3 significant digits (its steps of 0.01 in log10 are 2.3 %
// apart, so no two positions share a value), what its label shows and a link writes.
function slider_value(position) {
  return Number((10 ** position).toPrecision(3));
}

/** The field's value that control c's model holds, read against state s: a log slider's position for s reads
 * back as s's value exactly (10 ** log10(T) need not be T), another as its 3 significant digits, and a value outside the field's bounds is clamped. */
function read_value(c, model, s, a) {
  const f = field_of(c, a);
  const held = model[HOLDS[c.widget]];
  if (c.widget === "log_slider") {
    if (Math.abs(held - Math.log10(s[c.field])) < 1e-12) return s[c.field];
    return Math.min(f.bounds[1], Math.max(f.bounds[0], slider_value(held)));
  }
  if (c.widget === "select") return f.kind === "index" ? Number(held) : held;
  if (c.widget === "radio") return f.choices[held];
  if (c.widget === "toggle") return f.kind === "flag" ? Boolean(held) : f.choices[held ? 1 : 0];
  if (c.widget === "checks") return f.choices.filter((key, k) => held.includes(k));
  return held;
}

// A text box holds the state when its text is the state's text: a number box's typed text becomes a value only
// in its action (typed_number), which may refuse it.
function holds_state(c, value, s, a) {
  if (c.widget === "text") return names_text(value) === shown_value(c, s, a);
  if (c.widget === "number") return String(value).trim() === shown_value(c, s, a);
  if (c.widget === "toggle") return value === shown_choice(field_of(c, a), s);
  if (c.widget === "checks") return same_items(value, s[c.field]);
  return value === s[c.field];
}

// A choice as the page shows it: theme=auto shows as the theme it resolves to, so the "Dark theme" toggle is on
// when the page is dark, and pressing it picks the other theme for good.
function shown_choice(f, s) {
  return f.key === "theme" ? shown_theme(s) : s[f.key];
}

/** What a link's lock and hide make of control c in state s: inert when its field or a key its action writes
 * is locked or hidden, left out when its field is hidden (app/controls.py `locked` and `hidden`). */
function control_off(c, s) {
  const off = (key) => s.lock.includes(key) || s.hide.includes(key);
  return { disabled: [c.field, ...c.writes].some((key) => key && off(key)), visible: !s.hide.includes(c.field) };
}

/** Control c in state s as the link (control_off) and the guided path make it: back and next inert at the
 * path's ends, and the first screen's controls a step does not need dimmed (still usable: a learner may go
 * another way). */
function tour_control(page, c, s) {
  const off = control_off(c, s);
  const { steps } = page.a;
  if (c.action === "tour_back") off.disabled ||= s.step === 1;
  if (c.action === "tour_next") off.disabled ||= s.step === steps.length;
  const dim = s.tour && c.row <= 1 && !steps[s.step - 1].needs.includes(c.name);
  const classes = page.a.controls[c.name].css_classes.filter((name) => name !== "dim");
  return { ...off, css_classes: dim ? [...classes, "dim"] : classes };
}

/** "Reset everything": the lesson as the page opened it (its link, or Python's lesson), but for the fields a
 * link locks or hides and the reader's own (language, theme, lecture mode, open sections), which stay. */
function reset_all(s, opened, a) {
  const kept = new Set([...s.lock, ...s.hide, "lang", "theme", "lecture", "open", "lock", "hide"]);
  if (kept.has("z")) kept.add("initial");
  const back = set_lang(opened, s.lang, a.strings); // default names in today's language
  return { ...s, ...Object.fromEntries(Object.entries(back).filter(([key]) => !kept.has(key))), notice: "" };
}

/** Write every control's value for state s, and their labels when the language changed. */
export function draw_controls(page, s, t) {
  const { a } = page;
  for (const c of a.control_rows) {
    const model = a.controls[c.name];
    if (c.widget === "select" && field_of(c, a).kind === "index") {
      set_if_changed(model, { options: s.names.map((name, k) => [String(k), name]) });
    }
    if (c.field && !holds_state(c, read_value(c, model, s, a), s, a)) {
      set_if_changed(model, { [HOLDS[c.widget]]: shown_value(c, s, a) });
    }
    set_if_changed(model, tour_control(page, c, s));
  }
  // The controls and the sections' titles are built with their labels in the lesson's language (a relabelled
  // widget draws itself anew), so the page writes them only in another; the figures' texts are the page's alone.
  if ((page.applied.lang ?? a.built_lang) !== s.lang) {
    for (const c of a.control_rows) draw_labels(c, a.controls[c.name], t, a);
    a.sections_title.text = t.sections_title;
    a.lab_title.text = t.lab_title;
  }
  if (page.applied.lang !== s.lang) {
    draw_texts(page, t);
    // The document's language is draw.mjs `draw`'s, at every whole frame.
    if (a.mode !== "notebook") document.title = t.title;
    page.applied.lang = s.lang;
  }
  draw_play(page, t);
}

function draw_labels(c, model, t, a) {
  const f = c.field ? field_of(c, a) : null;
  if (c.widget === "checks") {
    model.labels = f.choices.map((choice) => t[`${c.label}_options`][choice]);
    return;
  }
  if (c.widget === "button" || c.widget === "toggle") model.label = t[c.label];
  else model.title = t[c.label];
  if (c.widget === "radio") model.labels = f.choices.map((choice) => t[choice]);
  if (c.widget === "select" && f.kind === "choice") {
    model.options = f.choices.map((choice) => [choice, t[`${c.label}_options`][choice]]);
  }
  if (c.widget === "menu") {
    model.options = [["", t[`${c.label}_none`]], ...MENUS[c.action].map((v) => [v, t[`${c.label}_${v}`]])];
  }
}

// The figures' titles, hints and axis labels but the class axes' and the two figures' keys (draw.mjs
// draw_function) and the views' own (calibration_view.mjs, lm_view.mjs); the header is drawn with the locks
// (draw.mjs draw_locks).
function draw_texts(page, t) {
  const { a } = page;
  a.figs.logit.title.text = t.logit_title;
  a.figs.prob.title.text = t.prob_title;
  a.axes.logit_y.axis_label = t.logit_axis;
  a.axes.prob_y.axis_label = t.prob_axis;
  a.lab_figs.loss.title.text = t.loss_title;
  a.lab_hints.loss.text = t.loss_hint;
  a.lab_axes.loss_x.axis_label = t.loss_x;
  a.hovers.loss.tooltips = [[t.loss_step, "@step"], ["L", "@loss{0.0000}"]];
  a.hovers.probs.tooltips = [[t.class_axis, "@name"], ["p", "@label"]];
  a.lab_figs.jacobian.title.text = t.jacobian_title;
  a.lab_hints.jacobian.text = t.jacobian_hint;
}

/** The play button says what pressing it does: play, or pause while playing. */
export function draw_play(page, t) {
  set_if_changed(page.a.controls.play, { label: page.playing ? t.pause : t.play,
    button_type: page.playing ? "warning" : "default" });
}

/** A row of logits pasted into its box (and Enter): one gesture, the box emptied; a refused text stays in the
 * box to be mended, with the notice. What the fold did is kept for the notice area (readouts.mjs
 * pasted_html), which says it while the lesson holds the pasted classes. */
function paste_text(page, model) {
  const text = model.value;
  if (text === "") return; // the page emptied it
  let done = false;
  act(page, (s) => {
    const { state, folded } = paste(s, text, page.a.rules, page.a.strings);
    page.record.pasted = folded;
    done = true;
    return state;
  });
  if (done) model.value = "";
}

/** Control c changed (a learner, a key, a script, or the page writing it): the next state, as a gesture. */
export function on_control(page, c) {
  const { a } = page;
  const model = a.controls[c.name];
  if (c.widget === "button") {
    if (Object.hasOwn(COMMANDS, c.action)) COMMANDS[c.action](page);
    else act(page, (s) => ACTIONS[c.action](s, a));
    return;
  }
  if (c.widget === "paste") {
    paste_text(page, model);
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
  const next = (from) => {
    if (c.action) return ACTIONS[c.action](from, a, value);
    return { ...from, [c.field]: c.widget === "number" ? typed_number(String(value).trim()) : value, notice: "" };
  };
  if (c.widget.endsWith("slider") && page.pointer_down) slide(page, next);
  else act(page, next);
}
