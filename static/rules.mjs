// What a lesson may hold: the limits of every value and the rules for class names. The JavaScript twin of
// app/rules.py; the limits and character sets arrive from Python as data (`rules`), so both sides refuse
// exactly the same names. A refusal is a RuleError whose `key` names the reason in the string table.

export class RuleError extends Error {
  constructor(key, message) {
    super(message);
    this.key = key;
  }
}

function within_ranges(c, ranges) {
  const o = c.codePointAt(0);
  return ranges.some(([lo, hi]) => lo <= o && o <= hi);
}

// The unknown ranges are many (about 700) and sorted: halve them.
function unknown_to_python(c, rules) {
  const o = c.codePointAt(0);
  const ranges = rules.unknown;
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (o < ranges[mid][0]) hi = mid - 1;
    else if (o > ranges[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

function strip_space(text, rules) {
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && within_ranges(chars[start], rules.space)) start += 1;
  while (end > start && within_ranges(chars[end - 1], rules.space)) end -= 1;
  return chars.slice(start, end).join("");
}

function drop_invisible(text, rules) {
  return Array.from(text).filter((c) => !within_ranges(c, rules.invisible)).join("");
}

/** What two names are compared by: NFKC, invisible characters removed, so look-alikes are equal. */
export function name_key(name, rules) {
  return drop_invisible(drop_invisible(name, rules).normalize("NFKC"), rules);
}

/** A class name as the lesson keeps it: NFC, stripped; a RuleError when it breaks a rule. */
export function clean_name(name, rules) {
  if (typeof name !== "string") throw new RuleError("name_type", `a class name must be text, got ${name}`);
  // Before normalising: what Python's Unicode tables do not know, the two sides could normalise apart.
  for (const c of name) if (unknown_to_python(c, rules)) throw new RuleError("name_unknown", "an unknown character");
  const text = strip_space(name.normalize("NFC"), rules);
  for (const c of text) {
    if (within_ranges(c, rules.control)) throw new RuleError("name_control", "a class name holds a control character");
    if (within_ranges(c, rules.bidi)) throw new RuleError("name_bidi", "a class name holds a direction control");
    if (c === rules.comma) throw new RuleError("name_comma", "a class name holds a comma");
  }
  if (!strip_space(name_key(text, rules), rules)) throw new RuleError("name_blank", "a class name is blank");
  if (Array.from(text).length > rules.name_max) throw new RuleError("name_long", "a class name is too long");
  return text;
}

/** Every name cleaned, two to ten of them, no two alike after name_key. */
export function clean_names(names, rules) {
  if (!Array.isArray(names)) throw new RuleError("name_type", "class names must be a list of text");
  const [lo, hi] = rules.K;
  if (names.length < lo || names.length > hi) throw new RuleError("class_count", `${names.length} names`);
  const cleaned = names.map((n) => clean_name(n, rules));
  const keys = new Set();
  for (const name of cleaned) {
    const key = name_key(name, rules);
    if (keys.has(key)) throw new RuleError("name_duplicate", `${name} is there twice`);
    keys.add(key);
  }
  return cleaned;
}

/** A real number (not a boolean, not text): NaN and ±Infinity are refused. */
export function rule_number(value) {
  if (typeof value !== "number") throw new RuleError("not_number", `not a number: ${value}`);
  if (!Number.isFinite(value)) throw new RuleError("not_finite", `not finite: ${value}`);
  return value;
}

/** Logits: two to ten finite numbers, each within ±rules.logit. */
export function rule_logits(values, rules) {
  if (!Array.isArray(values)) throw new RuleError("not_number", "logits must be a list of numbers");
  const [lo, hi] = rules.K;
  if (values.length < lo || values.length > hi) throw new RuleError("class_count", `${values.length} logits`);
  const z = values.map(rule_number);
  if (z.some((v) => Math.abs(v) > rules.logit)) throw new RuleError("logit_range", "a logit is out of range");
  return z;
}

/** A finite number within [lo, hi]; the refusal's `key` names the reason in the string table. */
export function rule_within(value, [lo, hi], key) {
  const x = rule_number(value);
  if (!(x >= lo && x <= hi)) throw new RuleError(key, `out of range: ${value}`);
  return x;
}

// A number as people type it: each part can match a digit in only one way, so a long hostile string fails
// in linear time (the twin of NUMBER in app/rules.py).
const NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A finite number from text in the NUMBER form (no "0x10", "Infinity" or spaces, which Number() takes). */
export function parse_number(text) {
  if (!NUMBER.test(text)) throw new RuleError("not_number", `not a number: ${text.slice(0, 40)}`);
  return rule_number(Number(text));
}

/** A notice: "" or a key of the string table, with a detail after a colon for the link notices. */
export function rule_notice(value, rules) {
  if (typeof value !== "string") throw new RuleError("refused", "a notice is text");
  const i = value.indexOf(":");
  const key = i < 0 ? value : value.slice(0, i);
  const ok = value === "" || (i < 0 ? rules.notices.includes(key) : rules.notices_with_detail.includes(key));
  if (!ok) throw new RuleError("refused", "unknown notice");
  return value;
}
