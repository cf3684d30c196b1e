// The lesson's named actions, as pure functions from a state to the next: the JavaScript twin of
// app/actions.py (the page's buttons call these, Lesson's events call the twins). An action that cannot be
// done leaves the state as it was and says why in `notice`; one that can clears it.

import { fold } from "./fold.mjs";
import { gradient_step } from "./lab.mjs";
import { parse_logits } from "./pasted.mjs";
import { Refusal, clean_names, name_key, number as rule_number } from "./rules.mjs";

export const TEN = [2.0, 1.0, 0.1, -0.5, 0.8, -1.2, 0.3, -2.0, 1.4, -0.7];
export const PRESETS = ["seed", "two", "ten", "uniform"];

/** The starting logits for K classes: the first K of TEN. */
export function default_logits(K) {
  return TEN.slice(0, K);
}

/** The first K default class names in `lang`. */
export function default_names(strings, lang, K) {
  return strings[lang].class_names.slice(0, K);
}

/** z + 1: nothing derived changes; refused at the logit limit. */
export function add_one(s, rules) {
  const z = s.z.map((v) => v + 1.0);
  if (Math.max(...z) > rules.logit) return { ...s, notice: "at_limit" };
  return { ...s, z, notice: "" };
}

/** z − max z: the largest logit becomes 0, so e^(z/T) cannot overflow; nothing derived changes; refused where
 * the smallest logit would pass the limit. */
export function subtract_max(s, rules) {
  const top = Math.max(...s.z);
  const z = s.z.map((v) => v - top);
  if (Math.min(...z) < -rules.logit) return { ...s, notice: "at_limit" };
  return { ...s, z, notice: "" };
}

/** One gradient step on the logits, z ← z − η·(p − y′)/T; refused where a logit would pass the limit. */
export function step(s, rules) {
  const z = gradient_step(s.z, s.y, s.lr, s.T, s.eps);
  if (z.some((v) => Math.abs(v) > rules.logit)) return { ...s, notice: "at_limit" };
  return { ...s, z, notice: "" };
}

/** Back to the initial logits. */
export function reset(s) {
  return { ...s, z: [...s.initial], notice: "" };
}

/** A new class at the end, a little less likely than the least likely one; refused beyond ten classes. */
export function add_class(s, rules, strings) {
  const K = s.z.length;
  if (K >= rules.K[1]) return { ...s, notice: "max_classes" };
  const used = new Set(s.names.map((n) => name_key(n, rules)));
  // Nine classes block at most nine of the ten default names, so one is always free.
  const name = strings[s.lang].class_names.find((n) => !used.has(name_key(n, rules)));
  const logit = Math.max(Math.min(...s.z) - 1.0, -rules.logit);
  return { ...s, z: [...s.z, logit], initial: [...s.initial, logit], names: [...s.names, name], notice: "" };
}

/** Remove the last class; refused below two. A true class that goes with it moves to the new last one. */
export function remove_class(s, rules) {
  const K = s.z.length;
  if (K <= rules.K[0]) return { ...s, notice: "min_classes" };
  return {
    ...s, z: s.z.slice(0, -1), initial: s.initial.slice(0, -1), names: s.names.slice(0, -1),
    y: Math.min(s.y, K - 2), notice: "",
  };
}

/** A prepared scenario; "uniform" keeps the classes and makes every logit 0, so the loss is ln K. */
export function preset(s, name, strings) {
  if (name === "uniform") {
    const z = s.z.map(() => 0.0);
    return { ...s, z, initial: [...z], notice: "" };
  }
  const K = { seed: 3, two: 2, ten: 10 }[name];
  if (K === undefined) throw new Error(`unknown scenario ${name}`);
  const z = default_logits(K);
  return {
    ...s, z, initial: [...z], names: default_names(strings, s.lang, K), T: 1.0, y: 0, eps: 0.0, notice: "",
  };
}

/** Switch the language; class names that are the old language's defaults become the new one's. */
export function set_lang(s, lang, strings) {
  const K = s.names.length;
  const old = default_names(strings, s.lang, K);
  const same = s.names.every((n, k) => n === old[k]);
  return { ...s, lang, names: same ? default_names(strings, lang, K) : [...s.names] };
}

/** Rename every class from comma-separated text; the count must stay the same. */
export function rename(s, text, rules) {
  const names = clean_names(String(text).split(","), rules);
  if (names.length !== s.names.length) throw new Refusal("class_count", `${names.length} names for ${s.names.length}`);
  return { ...s, names, notice: "" };
}

/** A row of one's own logits, pasted as PyTorch, NumPy or a list prints it (static/pasted.mjs), folded into at
 * most ten classes (static/fold.mjs), as Lesson.from_logits makes it (app/actions.py `paste`): the logits, the initial logits, the names
 * and the true class (the largest logit's) at once, T and the rest kept. The state and the fold; a Refusal whose
 * key says why the text is not such a row. */
export function paste(s, text, rules, strings) {
  const folded = fold(parse_logits(text, rules), rules, strings[s.lang]);
  const state = { ...s, z: folded.logits, initial: [...folded.logits], names: folded.names, y: folded.y, notice: "" };
  return { state, folded };
}

/** Set logit k to a typed or stepped value, within the limit. */
export function set_logit(s, k, value, rules) {
  const v = rule_number(value);
  if (Math.abs(v) > rules.logit) throw new Refusal("logit_range", `logit ${v} is out of range`);
  const z = [...s.z];
  z[k] = v;
  return { ...s, z, notice: "" };
}

/** One step of a logit input: ±0.1, or ±1 with Shift, to 12 significant digits so that steps leave no float
 * noise behind (2 + 3 steps of 0.1 is 2.3, not 2.3000000000000003). */
export function nudge(s, k, step, rules) {
  const v = Number((s.z[k] + step).toPrecision(12));
  return set_logit(s, k, Math.min(rules.logit, Math.max(-rules.logit, v)), rules);
}
