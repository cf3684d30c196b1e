// static/rules.mjs against app/rules.py and app/names.py: `node --test tests/js/`.
// The fixture (tests/js/make_fixture.py, written by tests/js/fixtures.py) holds rules_data() and Python's name_key
// and clean_name answers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import { Refusal, clean_name, clean_names, name_key } from "../../static/rules.mjs";

const fixture = read_fixture("rules.json");
const rules = fixture.rules;
const show = (s) => Array.from(s, (c) => "U+" + c.codePointAt(0).toString(16).toUpperCase()).join(" ");

test("name_key agrees with Python on every name of the fixture", () => {
  for (const { name, key } of fixture.names) assert.equal(name_key(name, rules), key, `${name} (${show(name)})`);
});

test("name_key agrees with Python on every single character of the fixture", () => {
  const chars = Array.from(fixture.singles);
  const keys = fixture.single_keys.split("\n");
  assert.equal(chars.length, keys.length);
  const wrong = chars.filter((c, i) => name_key(c, rules) !== keys[i]);
  assert.deepEqual(wrong.map(show), []);
});

test("clean_name keeps or refuses every name as Python does", () => {
  for (const { name, clean, refusal } of fixture.names) {
    if (refusal === null) {
      assert.equal(clean_name(name, rules), clean, show(name));
    } else {
      assert.throws(() => clean_name(name, rules), (e) => e instanceof Refusal && e.key === refusal, show(name));
    }
  }
});

test("look-alikes across scripts are duplicates", () => {
  for (const pair of [["cat", "сat"], ["dog", "dοg"], ["paypal", "pаypal"], ["ｃａｔ", "cat"], ["rn", "m"]]) {
    assert.throws(() => clean_names(pair, rules), (e) => e.key === "name_duplicate", pair.join(" / "));
  }
  assert.deepEqual(clean_names(["고양이", "개", "새"], rules), ["고양이", "개", "새"]);
});

test("a blank at either end or standing for a space makes a duplicate (issue 36)", () => {
  const pairs = [["cat", "cat\u2800"], ["cat", "\u2800cat"], ["a b", "a\u3164b"], ["a b", "a\uffa0b"],
    ["a b", "a\u115fb"], ["a b", "a\u1160b"], ["a b", "a\u{1d159}b"], ["a b", "a  b"], ["고양이 과", "고양이\u3164과"]];
  for (const pair of pairs) {
    assert.throws(() => clean_names(pair, rules), (e) => e.key === "name_duplicate", pair.map(show).join(" / "));
  }
  assert.deepEqual(clean_names(["고양이 과", "고양이과"], rules), ["고양이 과", "고양이과"]);
});

test("the map is built once per rules object", () => {
  const copy = { ...rules, confusables: "3c:35" }; // "x" (U+0078) for "q" (U+0071)
  assert.equal(name_key("q", copy), "x");
  assert.equal(name_key("q", rules), "q");
});
