// static/fold.mjs against app/fold.py: `node --test tests/js/`. The fixture (tests/js/make_fold.py, written by
// tests/js/fixtures.py) holds rows of logits and Python's Fold of each, in both languages.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import { fold } from "../../static/fold.mjs";
import { Refusal } from "../../static/rules.mjs";

const { rules, strings, cases } = read_fixture("fold.json");

function close(got, want, what) {
  assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${what}: ${got} against Python's ${want}`);
}

test("every row is folded as Python folds it: the same classes, names, true class and counts, logits to 1e-12", () => {
  assert.ok(cases.some((c) => c.row.length === 50257 && c.fold.folded === 50248));
  assert.ok(cases.some((c) => c.fold.shift !== 0) && cases.some((c) => c.fold.clamped > 0));
  for (const { row, y, lang, fold: want } of cases) {
    const got = fold(row, rules, strings[lang], y);
    const what = `${row.length} values, y ${y}, ${lang}`;
    assert.deepEqual({ size: got.size, kept: got.kept, folded: got.folded, clamped: got.clamped, names: got.names,
      y: got.y }, { size: want.size, kept: want.kept, folded: want.folded, clamped: want.clamped,
      names: want.names, y: want.y }, what);
    close(got.rest_p, want.rest_p, `${what}: the rest's p`);
    close(got.shift, want.shift, `${what}: the shift`);
    assert.equal(got.logits.length, want.logits.length, what);
    got.logits.forEach((v, k) => close(v, want.logits[k], `${what}: logit ${k}`));
  }
});

test("a row of one value is refused, as the parser refuses it", () => {
  assert.throws(() => fold([1.0], rules, strings.en), (e) => e instanceof Refusal && e.key === "paste_count");
});
