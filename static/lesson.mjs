// The lesson in the page: the state every gesture builds on, the page's gatekeeper, and the one commit.
// The lesson lives in one model (`lesson.state`), the page's own (syncable=False). Python hears of a lesson
// only through `wire.text`, the lesson as JSON text, written once per commit (one message when served) and
// written by Python to send one back. Text is all that travels: a value a script forges on `lesson.state` (a
// Date, a Symbol, a structure nested a thousand deep) is checked here and never reaches the server, which
// could not decode it.

import { draw } from "./draw.mjs";
import { whole } from "./gestures.mjs";
import { tell_lesson } from "./host.mjs";
import {
  Refusal, clean_names, count as rule_count, keys as rule_keys, logits as rule_logits,
  notice as rule_notice, within as rule_within
} from "./rules.mjs";
import { stored_tour } from "./tour.mjs";

// Per lesson model (one per document or notebook output): what the page remembers. Kept on the window, not in
// the module: BokehJS compiles a CustomJS module anew for each trigger that fires before its first compile is
// done (both figures' first layouts come in one tick), and two modules with two records of one page would
// each listen to the hash and read a link twice.
const PAGES = (globalThis.__softmax_explainer_pages ??= new WeakMap());

export function page_of(a, context) {
  let page = PAGES.get(a.lesson);
  if (page === undefined) {
    page = {
      a,
      // The lesson: the last valid state (every gesture builds on it), the one a link or the page opened with
      // ("reset everything" goes back to it), the wire's last text sent or received and Python's last lesson,
      // the page's own notice (never sent), the state last drawn whole, and a pasted row's fold (static/fold.mjs),
      // which the notice area describes while the lesson holds the classes it made.
      record: { valid: first_state(a), opened: null, sent: a.wire.text, from_python: null, notice: null, shown: null,
        pasted: null },
      // The gesture in progress (static/gestures.mjs), a pointer held down, the lab playing.
      gesture: null, pointer_down: false, playing: false,
      // The guided path: the steps seen (kept in the browser's storage), the set-up a learner may undo, whether a
      // step moved the path, what the live region last said of it, each step's guess, and, for the page's host
      // (host.mjs), whether each step was done when last drawn and the steps reported completed.
      path: { seen: new Set(stored_tour().seen), undo: null, moved: false, said: null, guesses: new Map(),
        done: new Map(), reported: new Set() },
      // What the drawing keeps: the values last applied (draw.mjs), the memo (record.mjs), the elements out of
      // sight, the shadow roots listened to, the figures' sizes last fitted to and whether a fit waits for the
      // next frame, and the page's own progress in starting up.
      applied: {}, history: null, loss_shown: false, unseen: new WeakSet(), shadows: new WeakSet(),
      sizes: null, fit_due: false, listening: false, drawn: false, connection: null, hangul_loaded: false,
    };
    PAGES.set(a.lesson, page);
  }
  page.a = a;
  page.index = context.index ?? page.index;
  return page;
}

// The first state is the wire's: Python built the page from it and may have changed it since (a notebook
// cell that ran before its output was drawn). It is the truth, even where the page's own check would differ
// (it never should; the twins are tested, and this keeps a page alive if they drift), and it needs no answer.
function first_state(a) {
  let first = a.lesson.state;
  try {
    first = JSON.parse(a.wire.text);
  } catch {
    // a page built without a wire text starts from its lesson model
  }
  try {
    return checked(first, a);
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return first;
  }
}

/** The lesson every gesture builds on: the last valid state this page drew or wrote. */
export function now(page) {
  return page.record.valid;
}

/** The state s, checked by the lesson's rules (app/rules.py has the twin), as a new plain object; a Refusal
 * when it breaks one. Total: whatever a script put there (a Symbol, a sparse array, a Proxy or getter that
 * throws, a toPrimitive that throws), the answer is a checked state or a Refusal. */
function checked(s, a) {
  try {
    return checked_state(s, a.rules);
  } catch (e) {
    if (e instanceof Refusal) throw e;
    throw new Refusal("refused", "an unreadable value");
  }
}

// A list as plain values: holes read as undefined (which the rules refuse), a list longer than any lesson
// holds is refused before it is read.
function dense(value, rules) {
  if (!Array.isArray(value)) return value;
  if (value.length > rules.K[1]) throw new Refusal("class_count", "too many entries");
  return Array.from({ length: value.length }, (_, k) => value[k]);
}

export function checked_state(s, rules) {
  const keys = s && typeof s === "object" && !Array.isArray(s) ? Object.keys(s).sort() : [];
  if (JSON.stringify(keys) !== JSON.stringify([...rules.state_keys].sort())) throw new Refusal("refused", "keys");
  const out = {}; // in the table's order, which is Python's
  for (const f of rules.lesson_fields) out[f.key] = checked_field(f, s[f.key], rules);
  const K = out.z.length;
  if (out.initial.length !== K || out.names.length !== K) throw new Refusal("class_count", "counts differ");
  if (out.y >= K) throw new Refusal("not_number", "the true class");
  return out;
}

// One field of a state by its kind in the lesson's table (app/fields.py, which lists the kinds).
function checked_field(f, value, rules) {
  if (f.kind === "logits") return rule_logits(dense(value, rules), rules);
  if (f.kind === "names") return clean_names(dense(value, rules), rules);
  if (f.kind === "real") return rule_within(value, f.bounds, f.refusal);
  if (f.kind === "count") return rule_count(value, f.bounds, f.refusal);
  if (f.kind === "notice") return rule_notice(value, rules);
  if (f.kind === "index") {
    if (!Number.isInteger(value) || value < 0) throw new Refusal("not_number", "a class index");
    return value;
  }
  if (f.kind === "choice") {
    if (typeof value !== "string" || !f.choices.includes(value)) throw new Refusal("refused", f.key);
    return value;
  }
  if (f.kind === "flag") {
    if (typeof value !== "boolean") throw new Refusal("refused", f.key);
    return value;
  }
  if (f.kind === "keys") return rule_keys(value, f);
  throw new Error(`the lesson's table has a field of an unknown kind: ${f.kind}`);
}

/** The end of every gesture: check the next state once, keep it, tell Python, draw it. A state the rules
 * refuse leaves the lesson as it was, drawn again with a notice. */
export function commit(page, next) {
  let s;
  try {
    s = checked(next, page.a);
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    refuse(page, e.key);
    return;
  }
  page.record.notice = null;
  // A gesture that changes nothing (a point let go where it was, the page's own first frame of the logits
  // source) tells Python nothing: a message crossing one of Python's would undo it there.
  const changed = !same_json(s, page.record.valid);
  page.record.valid = s;
  if (changed) {
    send(page, s);
    tell_lesson(page.a, "state", s);
  }
  if (same_json(s, page.a.lesson.state)) draw(page, s);
  else page.a.lesson.state = s; // its trigger draws it, knowing it as the page's own
}

// Whether the model already holds s: then writing it again fires nothing. What a script left there may not
// even have a JSON form (a BigInt), and then it is not s.
export function same_json(s, held) {
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
  page.record.sent = text;
  page.a.wire.text = text;
}

/** A gesture the rules refuse: the lesson stays as it was, drawn again (controls included), with a notice. */
export function refuse(page, key) {
  page.record.notice = key;
  draw(page, now(page));
}

/** A whole gesture from a named action: the action's state, committed, or its refusal. */
export function act(page, action) {
  let next;
  try {
    next = action(now(page));
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    refuse(page, e.key);
    return;
  }
  whole(page, next);
}

/** The lesson changed: this page's commit, Python, or a script. A lesson that breaks the rules is never drawn:
 * the last valid one goes back, with a notice (when served, Python refuses it too). */
export function on_state(page) {
  const held = page.a.lesson.state;
  if (held === page.record.valid) {
    draw(page, held);
    return;
  }
  page.record.notice = null;
  let s;
  try {
    s = checked(held, page.a);
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    commit(page, { ...page.record.valid, notice: "refused" });
    return;
  }
  page.record.valid = s;
  // What Python sent needs no answer unless the page's rules changed it (they never should: twins).
  if (held !== page.record.from_python || !same_json(s, held)) send(page, s);
  draw(page, s);
}

/** Python sent a lesson (a notebook cell, a refusal put back); the page's own text comes back here too. */
export function on_wire(page) {
  const text = page.a.wire.text;
  if (text === page.record.sent) return;
  page.record.sent = text;
  try {
    page.record.from_python = JSON.parse(text);
  } catch {
    return;
  }
  page.a.lesson.state = page.record.from_python;
}
