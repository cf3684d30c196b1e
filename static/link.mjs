// A lesson in a link: the JavaScript twin of app/link.py (which the served app uses for its query). The
// exported page reads its hash here, and "copy link" writes one. A value that cannot be used is replaced by
// its default, and the notice names the keys that were.

export const LINK_KEYS = ["z", "z0", "T", "y", "names", "eps", "units", "lang", "theme", "lecture"];
const LINK_INDEX = /^[0-9]{1,2}$/;
const FIELDS_MAX = 64;
const LONGEST = 1000;
const SHOWN_KEY = 24;
const SHOWN_KEYS = 8;

function parse_value(key, text, rules, langs) {
  if (text.length > LONGEST) throw new RuleError("refused", `${key} is too long`);
  if (key === "z" || key === "z0") return rule_logits(text.split(",").map(parse_number), rules);
  if (key === "names") return clean_names(text.split(","), rules);
  if (key === "T") return rule_within(parse_number(text), rules.T, "T_range");
  if (key === "eps") return rule_within(parse_number(text), rules.eps, "eps_range");
  if (key === "y") {
    if (!LINK_INDEX.test(text)) throw new RuleError("not_number", text);
    return Number(text);
  }
  if (key === "lang") {
    if (!langs.includes(text)) throw new RuleError("lang", text);
    return text;
  }
  if (key === "lecture") {
    if (text !== "0" && text !== "1") throw new RuleError("refused", text);
    return text === "1";
  }
  if (!rules.choices[key].includes(text)) throw new RuleError("refused", text);
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
  const too_many = pairs.length > FIELDS_MAX;
  for (const [key, value] of pairs) {
    if (key.startsWith("bokeh-")) continue;
    if (!too_many && value !== null && LINK_KEYS.includes(key) && !given.has(key) && !refused.includes(key)) {
      given.set(key, value);
    } else {
      refuse(key);
      given.delete(key); // a repeated key is ambiguous: none of its values is used
    }
  }
  const values = {};
  for (const key of ["lang", ...LINK_KEYS.filter((k) => k !== "lang")]) {
    if (!given.has(key)) continue;
    try {
      values[key] = parse_value(key, given.get(key), rules, Object.keys(strings));
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
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
  const initial = values.z0 ?? values.z ?? default_logits(K);
  const z = values.z ?? initial;
  const more = refused.length > SHOWN_KEYS ? ", …" : "";
  const state = {
    z, initial: [...initial], names: values.names ?? default_names(strings, use_lang, K),
    T: values.T ?? 1.0, y: values.y ?? 0, eps: values.eps ?? 0.0, units: values.units ?? "nats", lang: use_lang,
    theme: values.theme ?? "light", lecture: values.lecture ?? false,
    notice: refused.length ? `link_bad:${refused.slice(0, SHOWN_KEYS).join(", ")}${more}` : "",
  };
  return [state, refused];
}

/** The link text (query or hash, without its "?" or "#") that opens state s exactly: short keys, the
 * shortest numbers that round-trip, commas left readable. */
export function link_of(s, strings) {
  const pairs = [["z", s.z.map(String).join(",")]];
  if (s.initial.some((v, k) => v !== s.z[k])) pairs.push(["z0", s.initial.map(String).join(",")]);
  pairs.push(["T", String(s.T)], ["y", String(s.y)]);
  const defaults = default_names(strings, s.lang, s.names.length);
  if (s.names.some((n, k) => n !== defaults[k])) pairs.push(["names", s.names.join(",")]);
  if (s.eps) pairs.push(["eps", String(s.eps)]);
  if (s.units !== "nats") pairs.push(["units", s.units]);
  pairs.push(["lang", s.lang]);
  if (s.theme !== "light") pairs.push(["theme", s.theme]);
  if (s.lecture) pairs.push(["lecture", "1"]);
  return pairs.map(([key, value]) => `${key}=${encodeURIComponent(value).replace(/%2C/g, ",")}`).join("&");
}
