// The guided path (app/steps.py; the page receives its rows as `steps`): the twins of app/tour.py (what a
// step's check reads from a lesson, the lesson entering a step makes, whether a lesson does its task and what it
// still misses), the step's text with its live numbers, and the path's three buttons.

import { element_of } from "./bokeh_adapter.mjs";
import { router_weights } from "./decoding.mjs";
import { fmt, fmt_exp, real_text } from "./digits.mjs";
import { draw, set_if_changed, show } from "./draw.mjs";
import { tell_statement } from "./host.mjs";
import { OVERFLOW_AT } from "./lab.mjs";
import { act, now } from "./lesson.mjs";
import { default_state } from "./link.mjs";
import { alibi_relative, head_slope } from "./lm_view.mjs";
import { escape_html, fill, fixed3, plain_text, with_minus } from "./readouts.mjs";
import { cross_entropy, entropy, label_smoothing_floor, logsumexp, softmax, uniform_loss } from "./softmax.mjs";

// A lesson's keys that a step starting from a fresh lesson keeps (app/fields.py, a row's `kept`).
const kept_keys = (rules) => rules.lesson_fields.filter((f) => f.kept).map((f) => f.key);
// The keys the class count shapes (app/tour.py COUNTED).
const counted_keys = (rules) => rules.lesson_fields.filter((f) => ["logits", "names", "index"].includes(f.kind))
  .map((f) => f.key);

/** What a step's check reads from lesson state s (app/tour.py `quantities`). */
export function tour_quantities(s) {
  const { z, T, y, eps } = s;
  const K = z.length;
  const p = softmax(z, T);
  const loss = cross_entropy(z, y, T, eps);
  const zmax_T = Math.max(...z) / T;
  const q = { ...s, K, loss, entropy_bits: entropy(p) / Math.LN2, lse_gap: logsumexp(z.map((v) => v / T)) - zmax_T,
    zmax_T, above_floor: loss - label_smoothing_floor(K, eps), from_ln_k: Math.abs(loss - uniform_loss(K)) };
  q.alibi_far = alibi_relative(z, T, head_slope(s.head)).at(-1);
  router_weights(z, s.rk).forEach((w, k) => { q[`routed:${k}`] = w > 0; });
  p.forEach((v, k) => { q[`p:${k}`] = v; });
  z.forEach((v, k) => { q[`z:${k}`] = v; });
  s.initial.forEach((v, k) => { q[`start:${k}`] = v; });
  return q;
}

/** The lesson entering `step` makes from s (app/tour.py `enter`): a step that sets logits starts from a fresh
 * lesson with its values and what s keeps; any other changes only what it names; what a link locks or hides is
 * never changed; the step's logits become the initial ones. */
export function tour_enter(step, s, rules, strings) {
  const held = new Set([...s.lock, ...s.hide]);
  const changes = Object.fromEntries(Object.entries(structuredClone(step.setup ?? {}))
    .filter(([key]) => !held.has(key)));
  let out;
  if (changes.z && !counted_keys(rules).some((key) => held.has(key))) {
    const fresh = default_state(rules, strings, s.lang, changes.z.length);
    const kept = Object.fromEntries([...kept_keys(rules), ...held].filter((key) => key in s).map((key) => [key, s[key]]));
    out = { ...fresh, ...kept, ...changes };
  } else {
    delete changes.z;
    out = { ...s, ...changes };
  }
  out.initial = [...out.z];
  return out;
}

/** The lesson a link opens at its step (app/tour.py `opened`): a link that names nothing of the lesson itself
 * enters its step, as Next does; one that names lesson values opens them as they are. */
export function tour_opened(s, steps, rules, strings) {
  const fresh = default_state(rules, strings, s.lang, s.z.length);
  const kept = kept_keys(rules);
  const own = Object.keys(s).filter((key) => !kept.includes(key) && key !== "notice");
  if (own.some((key) => JSON.stringify(s[key]) !== JSON.stringify(fresh[key]))) return s;
  return tour_enter(steps[s.step - 1], s, rules, strings);
}

/** The lesson "Start again" makes: the step entered again from its initial logits (app/tour.py `restart`). */
export function tour_restart(step, s, rules, strings) {
  return tour_enter(step, { ...s, z: [...s.initial] }, rules, strings);
}

function tour_holds([name, op, operand], q, setup) {
  if (!(name in q)) return false; // a class the lesson does not have
  const value = q[name];
  if (op === "near" || op === "rose") {
    const start = q[name.replace("z:", "start:")];
    if (start === undefined) return false;
    return op === "near" ? Math.abs(value - start) <= operand : value >= start + operand - 1e-9;
  }
  if (op === "set") return value === setup[name];
  if (op === "=") return value === operand;
  const than = typeof operand === "string" ? q[operand] : operand;
  if (than === undefined) return false;
  return op === "<" ? value < than : value > than;
}

/** The indices of the conditions of step's check that s does not meet; none when it does the task
 * (app/tour.py `missing`). */
export function step_missing(step, s) {
  const q = tour_quantities(s);
  return step.check.flatMap((c, i) => (tour_holds(c, q, step.setup ?? {}) ? [] : [i]));
}

/** Whether lesson state s does step's task: every condition of its check holds (app/tour.py `done`). */
export function step_done(step, s) {
  return step_missing(step, s).length === 0;
}

// The step's live numbers from the frame's numbers n (frame.mjs lesson_numbers), each as the readout that shows
// the same number writes it (static/readouts.mjs), in a span the tests compare with that readout; class names as
// text.
function live_numbers(n, s, t) {
  const bits = s.units === "bits";
  const unit = bits ? t.bits : t.nats;
  const in_unit = (nats) => (bits ? nats / Math.LN2 : nats);
  const zmax = Math.max(...s.z) / s.T;
  const naive_now = zmax > OVERFLOW_AT[s.dtype] ? t.tour_naive_over : t.tour_naive_fine;
  const numbers = { p_y: fmt_exp(n.log_p[s.y]), z0: fmt(s.z[0]), T: real_text(s.T), loss: fixed3(in_unit(n.loss), unit),
    entropy_bits: with_minus((n.entropy / Math.LN2).toFixed(3)), lse: fmt(n.lse), zmax: fmt(zmax),
    ln_k: fixed3(in_unit(n.ln_k), unit), floor: fixed3(in_unit(n.floor), unit), g_y: fmt(n.g[s.y]), n: String(s.n),
    z0_start: fmt(s.initial[0]), lnK: fmt(n.ln_k), cT: real_text(s.cT), topp: real_text(s.topp),
    alibi_far: fmt(alibi_relative(s.z, s.T, head_slope(s.head)).at(-1)) };
  n.log_p.slice(0, 2).forEach((log_p, k) => { numbers[`p${k}`] = fmt_exp(log_p); });
  const out = Object.fromEntries(Object.entries(numbers)
    .map(([key, text]) => [key, `<span class="live" data-live="${key}">${text}</span>`]));
  s.names.slice(0, 3).forEach((name, k) => { out[`name${k}`] = escape_html(name); });
  out.name_y = escape_html(s.names[s.y]);
  out.routed = router_weights(s.z, s.rk).flatMap((w, k) => (w > 0 ? [escape_html(s.names[k])] : [])).join(", ");
  out.rk = String(s.rk);
  out.naive_now = naive_now;
  return out;
}

/** The path's two Divs for state s and its frame's numbers n: the step's paragraph under where it is on the
 * path, and its task, which says when it is done (`data-done`) and, until then, what is still missing (`missing`:
 * step_missing's indices, each said by its `missing` string where the step has one), with its hint a learner
 * opens. A step that asks for a prediction asks it first, with a button for each choice, and shows the task once
 * the learner has chosen (`guess`, the choice's index), with whether they were right. Every other way the task
 * line can read is laid in the same place, unseen, so it keeps one height while a learner acts: nothing below it
 * moves (two slips at once may take a line more). `fold`: the paragraph behind a line a learner opens, where the
 * screen is short of room (`folded`). */
export function tour_html(n, s, t, steps, missing, seen, guess, fold = false) {
  const step = steps[s.step - 1];
  const words = t.tour_steps[step.id];
  const fields = live_numbers(n, s, t);
  const path = steps.map((st, k) => `<li${k === s.step - 1 ? ' aria-current="step"' : ""}` +
    `${seen.has(st.id) ? ' class="seen"' : ""}>${k + 1}</li>`).join("");
  const task = fill(words.task, fields);
  const asks = step.predict !== null && step.predict !== undefined;
  const verdict = (g) => (g === undefined ? "" : `<span class="verdict">${fill(g === step.predict ? t.tour_right
    : t.tour_wrong, { guess: fill(words.choices[g], fields), answer: fill(words.choices[step.predict], fields) })}</span> `);
  const line = (which, g) => {
    if (which.length === 0) {
      return `<strong>✓ ${t.tour_done}</strong> ${verdict(g)}${task} <span class="aside">${fill(words.done, fields)}</span>`;
    }
    if (asks && g === undefined) {
      return `<strong>${t.tour_predict}</strong> ${fill(words.predict, fields)} <span class="choices">` +
        words.choices.map((c, i) => `<button type="button" data-guess="${i}">${fill(c, fields)}</button>`).join(" ") +
        "</span>";
    }
    return `<strong>${t.tour_task}</strong> ${verdict(g)}${task}` + which.filter((i) => words.missing?.[i])
      .map((i) => ` <span class="missing">${fill(words.missing[i], fields)}</span>`).join("");
  };
  const done = missing.length === 0;
  const said = step.check.map((_, i) => i).filter((i) => words.missing?.[i]);
  const guesses = asks ? [undefined, ...words.choices.map((_, i) => i)] : [undefined];
  const rooms = guesses.flatMap((g) => [[], [0], ...said.map((i) => [i])].map((which) => line(which, g)))
    .map((html) => `<p class="task room" aria-hidden="true">${html.replace(/ class="live" data-live="\w+"/g, "")
      .replace(/<button [^>]*>/g, '<span class="choice">').replace(/<\/button>/g, "</span>")}</p>`);
  const of = `${fill(t.tour_of, { k: s.step, n: steps.length })} · <strong>${words.title}</strong>`;
  const paragraph = `<p>${fill(words.text, fields)}</p>`;
  return {
    // Folded, the step's line is the one line shown: it opens the paragraph.
    text: fold
      ? `<div class="tour folded"><details class="step-text"><summary><span class="tour-of">${of}</span></summary>` +
        `${paragraph}</details></div>`
      : `<div class="tour"><p class="tour-of">${of}</p><ol class="path" aria-hidden="true">${path}</ol>${paragraph}</div>`,
    status: `<div class="tour${fold ? " folded" : ""}"><div class="task-lines"><p class="task${done ? " tour-done" : ""}" data-done="${done}">` +
      `${line(missing, guess)}</p>${rooms.join("")}</div>` +
      `<details><summary>${t.tour_hint}</summary><p>${fill(words.hint, fields)}</p></details></div>`,
  };
}

/** Draw the path for state s and its frame's numbers n (draw.mjs draw): its Divs, shown while the path is; its
 * set-up button says "undo" while the lesson is the one it set up; a step done is remembered. Answers whether
 * the step is done (null when the path is hidden), for the live region. */
export function draw_tour(page, n, s, t, live) {
  const { a } = page;
  for (const div of Object.values(a.tour)) set_if_changed(div, { visible: s.tour });
  const step = a.steps[s.step - 1];
  // Next or Back that moves the path brings it into sight; so does a page opened at such a step (a link, or where
  // the learner was), unless it is in a frame or a notebook, whose reader is reading something else.
  if (!live) {
    const moved = place_path(page, s.tour && view_open(a, s, step.beside) ? step.beside : null);
    const opened = page.record.shown === null && a.mode !== "notebook" && window.self === window.top;
    if (moved && (page.path.moved || opened)) requestAnimationFrame(() => show_path(page));
    page.path.moved = false;
  }
  if (!s.tour) return null;
  const missing = step_missing(step, s);
  const done = missing.length === 0;
  if (!live) report_step(page, step, s, done);
  if (done && !live) remember_step(page, step.id, s.step);
  const html = tour_html(n, s, t, a.steps, missing, page.path.seen, page.path.guesses.get(s.step), folded(s));
  show(page, a.tour.text, html.text, live);
  show(page, a.tour.status, html.status, live);
  if (live) return done;
  const undo = page.path.undo && same_lesson(page.path.undo.after, s);
  set_if_changed(a.controls.tour_setup, { label: undo ? t.tour_undo : t.tour_setup });
  return done;
}

// Where the step's paragraph folds behind a line: a phone, and lecture mode on a screen under 900 px tall, where
// the figures, T and the loss must share the first screen with the path (static/explainer.css hides the dots of
// the path there too). Start-up draws again when either query changes.
export const FOLD_QUERIES = ["(max-width: 599.98px)", "(max-height: 899.98px)"];

const matches = (query) => window.matchMedia?.(query).matches ?? false;

export function on_phone() {
  return matches(FOLD_QUERIES[0]);
}

function folded(s) {
  return on_phone() || (s.lecture && matches(FOLD_QUERIES[1]));
}

/** Put the path (its paragraph, its task and its buttons) above the figures, or above the view a step is about
 * (`beside`: a key of app/document.py's `path.above`), so the text sits beside the figure it explains. Moving it
 * lays the page out once: it happens when a step is entered, never while a learner acts. Answers whether it
 * moved. */
function place_path(page, beside) {
  const { root, path } = page.a;
  const anchor = path.above[beside ?? "figures"];
  const kids = root.children;
  const at = kids.indexOf(path.block[0]);
  if (kids[at + path.block.length] === anchor) return false;
  const rest = kids.filter((kid) => !path.block.includes(kid));
  rest.splice(rest.indexOf(anchor), 0, ...path.block);
  root.children = rest;
  return true;
}

/** Whether the view a step's text sits beside is open: its anchor is a row of controls shown with a flag
 * (app/document.py VIEW["flag_rows"]). */
function view_open(a, s, beside) {
  if (!beside) return true;
  const row = Object.keys(a.flag_rows).find((r) => a.flag_rows[r] === a.path.above[beside]);
  return row === undefined || s[a.view.flag_rows[row]];
}

/** Bring the path's paragraph to the top of the window once it is laid out where it moved (after Next or Back
 * to a step whose text sits elsewhere): a few frames at most, while Bokeh builds its place. */
function show_path(page, frames = 30) {
  const el = element_of(page, page.a.tour.text);
  if (el?.isConnected && el.getBoundingClientRect().height > 0) {
    el.scrollIntoView({ block: "start" });
    return;
  }
  if (frames > 0) requestAnimationFrame(() => show_path(page, frames - 1));
}

/** What the live region says of the path, given whether the step is done (draw_tour's answer): the step when it
 * changes, the task once it is done (and the same again while the lesson stays as it was then: a later drawing
 * of the same lesson is no news). */
export function tour_live(page, s, t, done) {
  if (!s.tour) return "";
  const said = page.path.said;
  if (said && same_lesson(said.s, s)) return said.text;
  const words = t.tour_steps[page.a.steps[s.step - 1].id];
  // A live region is read as text: the strings' sub- and superscripts go.
  let text = "";
  if (said?.step !== s.step) text = fill(t.tour_live, { k: s.step, n: page.a.steps.length, title: plain_text(words.title) });
  else if (done && !said.done) text = fill(t.tour_live_done, { done: plain_text(words.done) });
  page.path.said = { step: s.step, done, text, s };
  return text;
}

// Where the path was: the steps done and the step last shown, in the reader's localStorage where it is allowed
// (a file page in some browsers, a sandboxed frame or a private window may refuse it: the path then simply
// forgets). One record per page address: two lessons of one site (two exported files, two SCORM packages of one
// course) share a storage, and one learner's step in the first would open the second there.
const tour_store = () => `softmax-explainer.tour:${location.pathname}`;

export function stored_tour() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(tour_store()) ?? "{}");
    return { step: Number.isInteger(kept.step) ? kept.step : null, seen: Array.isArray(kept.seen) ? kept.seen : [] };
  } catch {
    return { step: null, seen: [] };
  }
}

function store_tour(page, step) {
  try {
    window.localStorage.setItem(tour_store(), JSON.stringify({ step, seen: [...page.path.seen] }));
  } catch {
    // storage refused: nothing to remember with
  }
}

// A step is reported completed (host.mjs, when the link asks) when a learner's change does its task: not when
// the page opens on a lesson that already does it, and once per step while the page is open.
function report_step(page, step, s, done) {
  const was = page.path.done.get(step.id);
  page.path.done.set(step.id, done);
  if (done && was === false && !page.path.reported.has(step.id)) {
    page.path.reported.add(step.id);
    tell_statement(page.a, s, "completed", step, { completion: true });
  }
}

function remember_step(page, id, step) {
  if (page.path.seen.has(id)) return;
  page.path.seen.add(id);
  store_tour(page, step);
}

// Whether two lessons hold the same values, whatever their keys' order and notice.
function same_lesson(s, other) {
  return Object.keys(s).every((key) => key === "notice" || JSON.stringify(s[key]) === JSON.stringify(other[key]));
}

// The path's buttons (controls.mjs COMMANDS): next and back enter the step they move to (tour_enter: what its
// text describes, with no set-up to press); "start again" enters the step again from its initial logits, and
// pressed again before anything else changes, puts the lesson back as it was.
export function tour_move(page, by) {
  const { a } = page;
  const s = now(page);
  const step = Math.min(a.steps.length, Math.max(1, s.step + by));
  if (step === s.step) return;
  page.path.undo = null;
  page.path.moved = true; // the drawing that moves the path brings it into sight (draw_tour)
  act(page, (was) => ({ ...tour_enter(a.steps[step - 1], { ...was, step }, a.rules, a.strings), notice: "" }));
  store_tour(page, step);
}

// A choice pressed in a step's prediction (the status Div's buttons, startup.mjs): kept for the step while the
// page is open, and the task shown with whether it was right.
export function on_guess(page, ev) {
  const button = ev.target.closest?.("button[data-guess]");
  if (!button) return;
  const s = now(page);
  const guess = Number(button.dataset.guess);
  page.path.guesses.set(s.step, guess);
  const step = page.a.steps[s.step - 1];
  tell_statement(page.a, s, "answered", step, {
    success: guess === step.predict, response: page.a.strings[s.lang].tour_steps[step.id].choices[guess] ?? "",
  });
  draw(page, s);
}

export function tour_setup(page) {
  const { a } = page;
  const s = now(page);
  if (page.path.undo && same_lesson(page.path.undo.after, s)) {
    const back = page.path.undo.before;
    page.path.undo = null;
    act(page, () => ({ ...back, step: s.step, notice: "" }));
    return;
  }
  const next = { ...tour_restart(a.steps[s.step - 1], s, a.rules, a.strings), notice: "" };
  page.path.undo = { before: s, after: next };
  act(page, () => next);
}
