// static/pasted.mjs against app/pasted.py: `node --test tests/js/`. The fixture (tests/js/make_pasted.py, written
// by tests/js/fixtures.py) holds texts and Python's answer to each: the floats read, or the refusal's key.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import { parse_logits } from "../../static/pasted.mjs";
import { Refusal } from "../../static/rules.mjs";

const fixture = read_fixture("pasted.json");
const rules = { paste_max: fixture.paste_max };

function answer(text) {
  try {
    return { row: parse_logits(text, rules), refusal: null };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return { row: null, refusal: e.key };
  }
}

test("every text is read as Python reads it: the same floats exactly (-0 too), or the same refusal", () => {
  assert.ok(fixture.cases.length > 300);
  assert.ok(fixture.cases.some((c) => c.row && c.row.length === 50257));
  for (const { text, row, refusal } of fixture.cases) {
    assert.deepEqual(answer(text), { row, refusal }, JSON.stringify(text.slice(0, 200)));
  }
});

test("texts at the length limit are counted in code points, as Python counts them", () => {
  assert.equal(fixture.long.length, 6);
  for (const { repeat: [unit, times, tail], n, refusal } of fixture.long) {
    const got = answer(unit.repeat(times) + tail);
    assert.deepEqual({ refusal: got.refusal, n: got.row && got.row.length }, { refusal, n },
      `${unit} x ${times}`);
  }
});

test("hostile text at the longest is answered as Python answers it", () => {
  const n = fixture.paste_max;
  const texts = [["[".repeat(n / 2) + "]".repeat(n / 2), "paste_batch"], [" ".repeat(n), "paste_count"],
    ["1 ".repeat(n / 2), n / 2], ["1,".repeat(n / 2), n / 2], ["1".repeat(n), "paste_not_finite"],
    ["1e".repeat(n / 2), "paste_format"], ["tensor(" + "[1,".repeat(n / 3 - 3) + ")", "paste_count"],
    ["[1, 2]" + ", a=1".repeat(n / 5 - 2), "paste_format"]];
  for (const [text, expected] of texts) {
    const got = answer(text);
    if (typeof expected === "number") assert.equal(got.row.length, expected, text.slice(0, 20));
    else assert.equal(got.refusal, expected, text.slice(0, 20));
  }
});

test("a value that is not text is refused as Python refuses it", () => {
  for (const value of [undefined, null, 3, [1, 2], { length: 2 }]) assert.equal(answer(value).refusal, "paste_format");
});
