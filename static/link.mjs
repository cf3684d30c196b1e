// A lesson in a link: the JavaScript twin of app/link.py (which the served app uses for its query). The
// exported page reads its hash here, and "copy link" writes one. A value that cannot be used is replaced by
// its default, and the notice names the keys that were.

import { default_logits, default_names } from "./actions.mjs";
import { logit_text, real_text } from "./digits.mjs";
import {
  Refusal, clean_names, count as rule_count, keys as rule_keys, logits as rule_logits, parse_number,
  within as rule_within
} from "./rules.mjs";

const LINK_INDEX = /^[0-9]{1,2}$/;
const LINK_WHOLE = /^[0-9]{1,10}$/; // a count: ten digits hold 2^32 − 1
const FIELDS_MAX = 64;
const LONGEST = 1000;
const SHOWN_KEY = 24;
const SHOWN_KEYS = 8;

// The fields a link carries, by their link key, in the order of the lesson's table (app/fields.py).
function linked_fields(rules) {
  return new Map(rules.lesson_fields.filter((f) => f.link).map((f) => [f.link, f]));
}

/** The lesson a link without values opens, for K classes in `lang` (app/fields.py default_state). */
export function default_state(rules, strings, lang, K) {
  const z = default_logits(K);
  const computed = { z, initial: [...z], names: default_names(strings, lang, K), lang };
  const default_of = (f) => (f.kind === "keys" ? [...f.default] : f.default);
  return Object.fromEntries(rules.lesson_fields.map((f) => [f.key, f.key in computed ? computed[f.key] : default_of(f)]));
}

// One key's value from its text, by its field's kind.
function parse_value(f, text, rules) {
  if (text.length > LONGEST) throw new Refusal("refused", `${f.link} is too long`);
  if (f.kind === "logits") return rule_logits(text.split(",").map(parse_number), rules);
  if (f.kind === "names") return clean_names(text.split(","), rules);
  if (f.kind === "real") return rule_within(parse_number(text), f.bounds, f.refusal);
  if (f.kind === "index") {
    if (!LINK_INDEX.test(text)) throw new Refusal("not_number", "a class index");
    return Number(text);
  }
  if (f.kind === "count") {
    if (!LINK_WHOLE.test(text)) throw new Refusal("not_whole", `${f.link} is not a whole number`);
    return rule_count(Number(text), f.bounds, f.refusal);
  }
  if (f.kind === "flag") {
    if (text !== "0" && text !== "1") throw new Refusal("refused", f.link);
    return text === "1";
  }
  if (f.kind === "keys") return rule_keys(text.split(","), f);
  if (!f.choices.includes(text)) throw new Refusal("refused", f.link);
  return text;
}

function link_decode(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null; // a "%" without two hex digits, or bytes that are not UTF-8
  }
}

/** The [key, value] pairs of a query or hash text (without its "?" or "#"): fields split on "&", each at its
 * first "="; a value that cannot be decoded is null. At most FIELDS_MAX + 1 fields are decoded. */
export function link_pairs(text) {
  const pairs = [];
  for (const field of text.split("&")) {
    if (pairs.length > FIELDS_MAX) break;
    if (!field) continue;
    const i = field.indexOf("=");
    const [raw_key, raw_value] = i < 0 ? [field, ""] : [field.slice(0, i), field.slice(i + 1)];
    const key = link_decode(raw_key);
    pairs.push(key === null ? [raw_key, null] : [key, link_decode(raw_value)]);
  }
  return pairs;
}

/** The state a link describes, from its [key, value] pairs in order: [state, refused keys]. */
export function parse_link(pairs, lang, rules, strings) {
  const given = new Map();
  const refused = [];
  const refuse = (key) => {
    const shown = Array.from(key).slice(0, SHOWN_KEY).join("");
    if (!refused.includes(shown)) refused.push(shown);
  };
  const linked = linked_fields(rules);
  const too_many = pairs.length > FIELDS_MAX;
  for (const [key, value] of pairs) {
    if (!too_many && value !== null && linked.has(key) && !given.has(key) && !refused.includes(key)) {
      given.set(key, value);
    } else {
      refuse(key);
      given.delete(key); // a repeated key is ambiguous: none of its values is used
    }
  }
  const values = {};
  for (const key of ["lang", ...[...linked.keys()].filter((k) => k !== "lang")]) {
    if (!given.has(key)) continue;
    try {
      values[key] = parse_value(linked.get(key), given.get(key), rules);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      refuse(key);
    }
  }
  const counted = values.z ?? values.z0; // the class count: z's, else z0's
  for (const key of ["z0", "names"]) {
    if (counted && values[key] && values[key].length !== counted.length) {
      delete values[key];
      refuse(key);
    }
  }
  const use_lang = values.lang ?? lang;
  const K = (values.z ?? values.z0 ?? values.names ?? [0, 0, 0]).length;
  if ((values.y ?? 0) >= K) {
    delete values.y;
    refuse("y");
  }
  const state = default_state(rules, strings, use_lang, K);
  for (const [key, value] of Object.entries(values)) state[linked.get(key).key] = value;
  state.z = values.z ?? values.z0 ?? state.z; // z0 alone: the lesson starts where it returns
  state.initial = [...(values.z0 ?? state.z)];
  if (refused.length) {
    state.notice = `link_bad:${refused.slice(0, SHOWN_KEYS).join(", ")}${refused.length > SHOWN_KEYS ? ", …" : ""}`;
  }
  return [state, refused];
}

// Whether state s holds field f's default, as a link sees it (app/fields.py is_default).
export function link_default(f, s, strings) {
  if (f.key === "initial") return s.initial.every((v, k) => v === s.z[k]);
  if (f.key === "names") return same_items(s.names, default_names(strings, s.lang, s.names.length));
  if (f.kind === "keys") return same_items(s[f.key], f.default);
  return s[f.key] === f.default;
}

export function same_items(a, b) {
  return a.length === b.length && a.every((n, k) => n === b[k]);
}

// Logits with at most 4 decimals (digits.mjs logit_text), the real fields with 4 significant digits
// (real_text): what a gesture makes has fewer (a drag moves a logit by 0.01, the log sliders give 3
// significant digits, η down to 0.001), and a link stays short whatever made its numbers.
function link_text(f, value) {
  if (f.kind === "logits") return value.map(logit_text).join(",");
  if (f.kind === "real") return real_text(value);
  if (f.kind === "names" || f.kind === "keys") return value.join(",");
  if (f.kind === "flag") return value ? "1" : "0";
  return String(value);
}

/** The link text (query or hash, without its "?" or "#") that opens state s, its numbers to 4 decimals: short
 * keys, commas left readable. */
export function link_of(s, strings, rules) {
  const pairs = [...linked_fields(rules).values()].filter((f) => f.always || !link_default(f, s, strings))
    .map((f) => [f.link, link_text(f, s[f.key])]);
  return pairs.map(([key, value]) => `${key}=${encodeURIComponent(value).replace(/%2C/g, ",")}`).join("&");
}
