// What a lesson may hold: the limits of every value and the rules for class names. The JavaScript twin of
// app/rules.py; the limits and character sets arrive from Python as data (`rules`), so both sides refuse
// exactly the same names. A refusal is a Refusal whose `key` names the reason in the string table.

export class Refusal extends Error {
  constructor(key, message) {
    super(message);
    this.key = key;
  }
}

// What a refused value is, told by its type alone: stringifying an untrusted value can throw (a Symbol, an
// object whose toPrimitive throws) or be huge, and a refusal must always be a Refusal.
function described(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  const type = typeof value;
  return type === "undefined" ? "undefined" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

// Whether text has more than `max` code points, counting no further than that.
function longer_than(text, max) {
  let n = 0;
  for (const _ of text) if (++n > max) return true;
  return false;
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

// The confusable prototypes of static/confusables.json as a Map, built once per rules object. In
// rules.confusables, groups "prototype:sources" joined by ";", in base 36: the prototype's code points joined
// by ".", each source the difference from the previous one's code point (the first from 0), joined by ",".
const CONFUSABLE_MAPS = new WeakMap();

function confusable_map(rules) {
  let map = CONFUSABLE_MAPS.get(rules);
  if (!map) {
    map = new Map();
    for (const group of rules.confusables.split(";")) {
      const [proto_points, sources] = group.split(":");
      const proto = String.fromCodePoint(...proto_points.split(".").map((p) => parseInt(p, 36)));
      let o = 0;
      for (const delta of sources.split(",")) {
        o += parseInt(delta, 36);
        map.set(String.fromCodePoint(o), proto);
      }
    }
    CONFUSABLE_MAPS.set(rules, map);
  }
  return map;
}

/** UTS #39's skeleton: NFD, each character replaced by its confusable prototype, NFD again. */
function skeleton(text, rules) {
  const map = confusable_map(rules);
  let out = "";
  for (const c of text.normalize("NFD")) out += map.get(c) ?? c;
  return out.normalize("NFD");
}

/** What two names are compared by, so that names that draw alike are equal: the confusable skeleton of the
 * name's NFKC with invisible characters removed and blank ones read as spaces, without spaces at its ends and
 * with one space for a run of them (the order is explained at name_key in app/names.py). */
export function name_key(name, rules) {
  const spaced = Array.from(name, (c) => (within_ranges(c, rules.blank_glyphs) ? " " : c)).join("");
  const key = skeleton(drop_invisible(drop_invisible(spaced, rules).normalize("NFKC"), rules), rules);
  return key.split(" ").filter(Boolean).join(" ");
}

/** A class name as the lesson keeps it: NFC, stripped; a Refusal when it breaks a rule. */
export function clean_name(name, rules) {
  if (typeof name !== "string") throw new Refusal("name_type", `a class name must be text, got ${described(name)}`);
  // Before any character is looked at, as app/names.py does (RAW_NAME_MAX): a code point is one or two UTF-16
  // units, so a name of more than twice the cap in units is refused without counting.
  const raw_max = rules.name_raw_max;
  if (name.length > 2 * raw_max || longer_than(name, raw_max)) {
    throw new Refusal("name_long", "a class name is too long");
  }
  // Before normalising: what Python's Unicode tables do not know, the two sides could normalise apart.
  for (const c of name) if (unknown_to_python(c, rules)) throw new Refusal("name_unknown", "an unknown character");
  const text = strip_space(name.normalize("NFC"), rules);
  for (const c of text) {
    if (within_ranges(c, rules.control)) throw new Refusal("name_control", "a class name holds a control character");
    if (within_ranges(c, rules.bidi)) throw new Refusal("name_bidi", "a class name holds a direction control");
    if (c === rules.comma) throw new Refusal("name_comma", "a class name holds a comma");
  }
  if (Array.from(name_key(text, rules)).every((c) => within_ranges(c, rules.blank))) {
    throw new Refusal("name_blank", "a class name is blank");
  }
  if (Array.from(text).length > rules.name_max) throw new Refusal("name_long", "a class name is too long");
  return text;
}

/** Every name cleaned, two to ten of them, no two alike after name_key. */
export function clean_names(names, rules) {
  if (!Array.isArray(names)) throw new Refusal("name_type", "class names must be a list of text");
  const [lo, hi] = rules.K;
  if (names.length < lo || names.length > hi) throw new Refusal("class_count", `${names.length} names`);
  const cleaned = names.map((n) => clean_name(n, rules));
  const keys = new Set();
  for (const name of cleaned) {
    const key = name_key(name, rules);
    if (keys.has(key)) throw new Refusal("name_duplicate", `${name} is there twice`);
    keys.add(key);
  }
  return cleaned;
}

/** A real number (not a boolean, not text): NaN and ±Infinity are refused. */
export function number(value) {
  if (typeof value !== "number") throw new Refusal("not_number", `not a number: ${described(value)}`);
  if (!Number.isFinite(value)) throw new Refusal("not_finite", "not finite: NaN or an infinity");
  return value;
}

/** Logits: two to ten finite numbers, each within ±rules.logit. */
export function logits(values, rules) {
  if (!Array.isArray(values)) throw new Refusal("not_number", "logits must be a list of numbers");
  const [lo, hi] = rules.K;
  if (values.length < lo || values.length > hi) throw new Refusal("class_count", `${values.length} logits`);
  const z = values.map(number);
  if (z.some((v) => Math.abs(v) > rules.logit)) throw new Refusal("logit_range", "a logit is out of range");
  return z;
}

/** Link keys of field f's choices, none twice, in the order of the choices (app/rules.py keys). */
export function keys(value, f) {
  if (!Array.isArray(value)) throw new Refusal("refused", `${f.key} must be a list of link keys`);
  for (let k = 0; k < value.length; k++) {
    if (typeof value[k] !== "string" || !f.choices.includes(value[k])) throw new Refusal("refused", f.key);
  }
  if (new Set(value).size !== value.length) throw new Refusal("refused", `${f.key} names a key twice`);
  return f.choices.filter((key) => value.includes(key));
}

/** A finite number within [lo, hi]; the refusal's `key` names the reason in the string table. */
export function within(value, [lo, hi], key) {
  const x = number(value);
  if (!(x >= lo && x <= hi)) throw new Refusal(key, `out of range: ${x}`); // x: a checked, finite number
  return x;
}

/** A whole number within [lo, hi] (app/rules.py count); the refusal's `key` names the reason. */
export function count(value, [lo, hi], key) {
  if (!Number.isInteger(value)) throw new Refusal("not_whole", `not a whole number: ${described(value)}`);
  if (!(value >= lo && value <= hi)) throw new Refusal(key, `out of range: ${value}`);
  return value;
}

// A number as people type it: each part can match a digit in only one way, so a long hostile string fails
// in linear time (the twin of NUMBER in app/rules.py).
export const NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A finite number from text in the NUMBER form (no "0x10", "Infinity" or spaces, which Number() takes). */
export function parse_number(text) {
  if (typeof text !== "string") throw new Refusal("not_number", `not text: ${described(text)}`);
  if (!NUMBER.test(text)) throw new Refusal("not_number", `not a number: ${text.slice(0, 40)}`);
  return number(Number(text));
}

/** A notice: "" or a key of the string table, with a detail after a colon for the link notices. */
export function notice(value, rules) {
  if (typeof value !== "string") throw new Refusal("refused", "a notice is text");
  const i = value.indexOf(":");
  const key = i < 0 ? value : value.slice(0, i);
  const ok = value === "" || (i < 0 ? rules.notices.includes(key) : rules.notices_with_detail.includes(key));
  if (!ok) throw new Refusal("refused", "unknown notice");
  return value;
}
