// A lesson in a link: the JavaScript twin of app/link.py (which the served app uses for its query). The
// exported page reads its hash here, and "copy link" writes one. A value that cannot be used is replaced by
// its default, and the notice names the keys that were.

export const LINK_KEYS = ["z", "T", "y", "names", "eps", "units", "lang", "theme", "lecture"];
const LINK_INDEX = /^[0-9]{1,2}$/;
const LONGEST = 1000;
const SHOWN_KEY = 24;
const SHOWN_KEYS = 8;

function parse_value(key, text, rules, langs) {
  if (text.length > LONGEST) throw new RuleError("refused", `${key} is too long`);
  if (key === "z") return rule_logits(text.split(",").map(parse_number), rules);
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

/** The state a link describes, from its [key, value] pairs in order: [state, refused keys]. */
export function parse_link(pairs, lang, rules, strings) {
  const given = new Map();
  const refused = [];
  const refuse = (key) => {
    const shown = Array.from(key).slice(0, SHOWN_KEY).join("");
    if (!refused.includes(shown)) refused.push(shown);
  };
  for (const [key, value] of pairs) {
    if (key.startsWith("bokeh-")) continue;
    if (LINK_KEYS.includes(key) && !given.has(key) && !refused.includes(key)) {
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
  if (values.z && values.names && values.z.length !== values.names.length) {
    delete values.names;
    refuse("names");
  }
  const use_lang = values.lang ?? lang;
  const K = (values.z ?? values.names ?? [0, 0, 0]).length;
  if ((values.y ?? 0) >= K) {
    delete values.y;
    refuse("y");
  }
  const z = values.z ?? default_logits(K);
  const more = refused.length > SHOWN_KEYS ? ", …" : "";
  const state = {
    z, initial: [...z], names: values.names ?? default_names(strings, use_lang, K),
    T: values.T ?? 1.0, y: values.y ?? 0, eps: values.eps ?? 0.0, units: values.units ?? "nats", lang: use_lang,
    theme: values.theme ?? "light", lecture: values.lecture ?? false,
    notice: refused.length ? `link_bad:${refused.slice(0, SHOWN_KEYS).join(", ")}${more}` : "",
  };
  return [state, refused];
}

/** The link text (query or hash, without its "?" or "#") that opens state s exactly: short keys, the
 * shortest numbers that round-trip, commas left readable. */
export function link_of(s, strings) {
  const pairs = [["z", s.z.map(String).join(",")], ["T", String(s.T)], ["y", String(s.y)]];
  const defaults = default_names(strings, s.lang, s.names.length);
  if (s.names.some((n, k) => n !== defaults[k])) pairs.push(["names", s.names.join(",")]);
  if (s.eps) pairs.push(["eps", String(s.eps)]);
  if (s.units !== "nats") pairs.push(["units", s.units]);
  pairs.push(["lang", s.lang]);
  if (s.theme !== "light") pairs.push(["theme", s.theme]);
  if (s.lecture) pairs.push(["lecture", "1"]);
  return pairs.map(([key, value]) => `${key}=${encodeURIComponent(value).replace(/%2C/g, ",")}`).join("&");
}
