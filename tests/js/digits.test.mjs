// static/digits.mjs against the oracle (tests/digits_oracle.py: mpmath and exact fractions): `node --test tests/js/`.
// The fixture (tests/js/make_digits.py, written by tests/js/fixtures.py) holds doubles with the oracle's string for
// each function. Every comparison is exact: a shown digit is right or wrong.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import { fmt, fmt_exp, fmt_exp_text, logit_text, real_text } from "../../static/digits.mjs";

const fixture = read_fixture("digits.json");
const NUMBER = { inf: Infinity, "-inf": -Infinity, nan: NaN };
const cases = fixture.cases.map(([u, ...want]) => [Object.hasOwn(NUMBER, u) ? NUMBER[u] : u, ...want]);

// Every mismatch of one function over all cases, at most 20 of them shown.
function mismatches(name, shown, column) {
  const wrong = [];
  for (const c of cases) {
    const want = c[column];
    if (want === null) continue; // not defined there (logit_text of ±∞; fmt_exp_text past a plain exponent)
    const got = shown(c[0]);
    if (got !== want) wrong.push(`${name}(${Object.is(c[0], -0) ? "-0" : c[0]}): page ${got}, oracle ${want}`);
  }
  return wrong.slice(0, 20);
}

test("the fixture holds hand cases, near ties, random doubles and every lesson's numbers", () => {
  assert.ok(cases.length >= 10000, cases.length);
  assert.ok(cases.some(([u]) => Number.isNaN(u)) && cases.some(([u]) => u === -Infinity));
});

test("fmt_exp writes exactly the oracle's e^u, for every double of the fixture", () => {
  assert.deepEqual(mismatches("fmt_exp", fmt_exp, 1), []);
});

test("fmt writes exactly the oracle's display of every double of the fixture", () => {
  assert.deepEqual(mismatches("fmt", fmt, 2), []);
});

test("fmt_exp_text writes exactly the oracle's plain-text e^u (a bar's label)", () => {
  assert.deepEqual(mismatches("fmt_exp_text", fmt_exp_text, 3), []);
});

test("logit_text writes exactly the oracle's 4 decimals (a logit input's value, a link's number)", () => {
  assert.deepEqual(mismatches("logit_text", logit_text, 4), []);
});

test("real_text writes exactly the oracle's 4 significant digits (a link's T, ε and η)", () => {
  assert.deepEqual(mismatches("real_text", real_text, 6), []);
});

test("JavaScript's String is the oracle's js_string, which logit_text's truth is built on", () => {
  assert.deepEqual(mismatches("String", String, 5), []);
});

test("hand values: subnormal probabilities, the switches and the carries", () => {
  // Issue 7: z = (0, −7.44) at T = 0.01 gives log p = −744; the exact e^−744 is 7.67×10⁻³²⁴ (mpmath), where
  // the double p = 9.88e-324 would show 9.88.
  assert.equal(fmt_exp(-744), "7.67×10<sup>−324</sup>");
  assert.equal(fmt_exp(-743), "2.09×10<sup>−323</sup>");
  assert.equal(fmt_exp_text(-744), "7.67×10⁻³²⁴");
  // e^u just below 1e-3 is scientific; 9.995 rounds up into the next power of ten.
  assert.equal(fmt_exp(Math.log(0.00099996)), "1.00×10<sup>−3</sup>");
  assert.equal(fmt_exp(Math.log(999999.9996)), "1000000.000");
  assert.equal(fmt_exp(Math.log(9.9951e10)), "1.00×10<sup>11</sup>");
  assert.equal(fmt_exp(0), "1.000");
  assert.equal(fmt_exp(1000), "1.97×10<sup>434</sup>");
  assert.deepEqual([0.41703, -2.5, 1.5e-17, 0, Infinity].map(fmt), ["0.417", "−2.500", "1.50×10<sup>−17</sup>",
    "0.000", "∞"]);
  assert.deepEqual([0.09999999999999998, 2, -0.9].map(logit_text), ["0.1", "2", "-0.9"]);
});
