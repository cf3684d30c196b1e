// A row of logits read from text as people print it: PyTorch (tensor([...]) with keywords after it, a batch of
// one row), NumPy (repr and str, wrapped) or a list. The JavaScript twin of app/pasted.py, step for step, with
// the same refusals' keys (tests/js/pasted.test.mjs reads Python's answers on shared cases). The limit of the
// text's length arrives from Python as data (`rules.paste_max`, code points as Python counts them).
import { NUMBER, Refusal } from "./rules.mjs";

const BLANKS = " \t\n\r";
const PRINTED = /^[\x20-\x7e\t\n\r]*$/;
const WRAPPER = /^(?:(?:torch\.)?tensor\(|(?:np\.|numpy\.)?array\()/;
const KEYWORD = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[A-Za-z0-9_.:-]*'|<[A-Za-z0-9_.]+>|[A-Za-z0-9_.]+)$/;
const NOT_FINITE = /^[+-]?(?:nan|inf|infinity)$/i;
const NUMBER_CHARS = /^[0-9.eE+\-, \t\n\r]*$/;

function strip(text) {
  let start = 0;
  let end = text.length;
  while (start < end && BLANKS.includes(text[start])) start++;
  while (end > start && BLANKS.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

// Code points, as Python's len counts them; counted only when the UTF-16 length is past the limit.
function longer_than(text, max) {
  if (text.length <= max) return false;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || (text.charCodeAt(i - 1) & 0xfc00) !== 0xd800) n++;
  }
  return n > max;
}

/** The numbers of one row of logits printed by PyTorch, NumPy or as a list; a Refusal whose key says why not. */
export function parse_logits(text, rules) {
  if (typeof text !== "string") throw new Refusal("paste_format", "a pasted row is text");
  if (longer_than(text, rules.paste_max)) throw new Refusal("paste_long", `at most ${rules.paste_max} characters`);
  text = text.replace(/\u2212/g, "-").replace(/\u00a0/g, " ");
  if (text.includes("...") || text.includes("\u2026")) {
    throw new Refusal("paste_summary", "the row is a summary: values are missing");
  }
  if (!PRINTED.test(text)) throw new Refusal("paste_format", "a printed row holds only printable ASCII");
  const row = values(row_of(data(strip(text))));
  if (row.length < 2) throw new Refusal("paste_count", `a row of logits has at least 2 values, got ${row.length}`);
  return row;
}

// The row with its brackets: the text itself, or what tensor( or array( wraps, keywords after it dropped.
function data(text) {
  const wrapper = WRAPPER.exec(text);
  if (!wrapper) {
    if (text.includes("(") || text.includes(")")) throw new Refusal("paste_format", "not a printed row");
    return text;
  }
  let inner = text.slice(wrapper[0].length);
  if (!inner.endsWith(")")) throw new Refusal("paste_format", `${wrapper[0]} is not closed`);
  inner = inner.slice(0, -1);
  const end = inner.lastIndexOf("]");
  if (end < 0) throw new Refusal("paste_count", "a single number is not a row of logits");
  const after = inner.slice(end + 1).split(",");
  if (strip(after[0])) throw new Refusal("paste_format", "unexpected text after the row");
  for (const keyword of after.slice(1)) {
    if (!KEYWORD.test(strip(keyword))) throw new Refusal("paste_format", "not a keyword after the row");
  }
  return strip(inner.slice(0, end + 1));
}

// The items' text inside the row's brackets: one pair, or two ([[…]], a batch of one row).
function row_of(text) {
  let start = 0;
  let end = text.length;
  let opened = 0;
  let closed = 0;
  while (start < end && (text[start] === "[" || BLANKS.includes(text[start]))) opened += text[start++] === "[";
  while (end > start && (text[end - 1] === "]" || BLANKS.includes(text[end - 1]))) closed += text[--end] === "]";
  const body = text.slice(start, end);
  if (opened !== closed) throw new Refusal("paste_format", "the brackets do not match");
  if (body.includes("[") || body.includes("]")) throw new Refusal("paste_batch", "one row, not a batch");
  if (opened > 2) throw new Refusal("paste_batch", "one row, not a row inside more brackets");
  return body;
}

// The row's numbers: separated by commas (a trailing one allowed) or by blanks, not both.
function values(body) {
  let items;
  if (body.includes(",")) {
    items = body.split(",").map(strip);
    if (items.length > 1 && !items[items.length - 1]) items.pop();
  } else {
    items = body.split(/[ \t\n\r]+/).filter((item) => item);
  }
  if (items.includes("")) throw new Refusal("paste_format", "two commas with no number between them");
  if (items.some((item) => /[ \t\n\r]/.test(item))) {
    throw new Refusal("paste_format", "separate the numbers by commas or by spaces, not both");
  }
  if (!NUMBER_CHARS.test(body) || !items.every((item) => NUMBER.test(item))) {
    for (const item of items) {
      if (NOT_FINITE.test(item)) throw new Refusal("paste_not_finite", "every logit must be a finite number");
      if (!NUMBER.test(item)) throw new Refusal("paste_format", "not a number");
    }
  }
  const row = items.map(Number);
  if (row.some((v) => !Number.isFinite(v))) throw new Refusal("paste_not_finite", "past float64's largest");
  return row;
}
