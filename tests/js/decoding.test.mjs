// static/decoding.mjs against core/decoding.py, core/attention.py and core/distillation.py: `node --test tests/js/`.
// The fixture (tests/js/make_decoding.py, written by tests/js/fixtures.py) holds Python's answers.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import * as decoding from "../../static/decoding.mjs";
import * as softmax from "../../static/softmax.mjs";

const fixture = read_fixture("decoding.json");
const twin = { ...decoding, ...softmax };

const near = (got, want, rel = 1e-12, abs = 1e-300) => Math.abs(got - want) <= rel * Math.abs(want) + abs;
function all_near(got, want, what) {
  assert.equal(got.length, want.length, what);
  got.forEach((v, i) => assert.ok(near(v, want[i]), `${what} [${i}]: ${v} vs ${want[i]}`));
}

test("top-k, top-p and min-p keep exactly core's classes, ties and boundaries included", () => {
  for (const c of fixture.cases.filter((c) => c.p)) {
    for (const [k, want] of Object.entries(c.top_k)) assert.deepEqual(twin.top_k_mask(c.z, Number(k)), want, `k=${k}`);
    for (const [v, want] of Object.entries(c.top_p)) assert.deepEqual(twin.top_p_mask(c.p, Number(v)), want, `p=${v}`);
    for (const [v, want] of Object.entries(c.min_p)) assert.deepEqual(twin.min_p_mask(c.p, Number(v)), want, `m=${v}`);
  }
});

test("the issue's reference: top-p 0.95 keeps three, renormalised to 0.526, 0.316, 0.158", () => {
  const p = [0.5, 0.3, 0.15, 0.03, 0.02];
  const kept = twin.renormalise(p, twin.top_p_mask(p, 0.95));
  assert.deepEqual(kept.map((v) => Number(v.toFixed(3))), [0.526, 0.316, 0.158, 0, 0]);
});

test("the pipeline in every order equals core's, and so does what it kept", () => {
  for (const c of fixture.cases) {
    for (const d of c.decode) {
      all_near(twin.decode(c.z, d.T, d.stages), d.p, JSON.stringify(d.stages));
      const got = twin.decode_kept(c.z, d.T, d.stages);
      assert.deepEqual(Array.from(got.kept, Boolean), d.kept, JSON.stringify(d.stages));
      all_near(got.before, twin.softmax(c.z, d.T), "softmax before the stages");
    }
  }
});

test("where p rounds equal or underflows, top-k ranks z/T and top-p sorts by it: core's classes, in every order", () => {
  const cases = fixture.cases.filter((c) => !c.p);
  assert.ok(cases.length >= 6);
  for (const c of cases) {
    for (const d of c.decode) {
      const got = twin.decode_kept(c.z, d.T, d.stages);
      assert.deepEqual(Array.from(got.kept, Boolean), d.kept, `${JSON.stringify(c.z)} ${JSON.stringify(d.stages)}`);
      all_near(got.p, d.p, JSON.stringify(d.stages));
    }
  }
  // Issue 36: p = (1/3, 1/3, 1/3) to the last bit of the first two, z/T = (1e-8, 1.00000001e-8, 0): top-1 keeps one.
  assert.deepEqual(Array.from(twin.decode_kept([1, 1 + 1e-9, 0], 1e8, [["top_k", 1]]).kept), [0, 1, 0]);
});

test("the router's weights in both orders equal core's, and each other: exactly k experts, ties included", () => {
  for (const { scores, weights } of fixture.router) {
    for (const [order, by_k] of Object.entries(weights)) {
      for (const [k, want] of Object.entries(by_k)) {
        const got = twin.router_weights(scores, Number(k), order);
        all_near(got, want, `${order} k=${k}`);
        assert.equal(got.filter((w) => w > 0).length, Number(k), `${JSON.stringify(scores)} ${order} k=${k}`);
      }
    }
    for (let k = 1; k <= 8; k++) {
      all_near(twin.router_weights(scores, k), twin.router_weights(scores, k, "softmax_then_renormalise"), `k=${k}`);
    }
  }
});

test("ALiBi's slopes, bias and biased weights equal core's", () => {
  const { slopes, scores, by_slope, by_heads } = fixture.alibi;
  assert.deepEqual(twin.alibi_slopes(8), slopes);
  // 1 to 64 heads to one ulp: V8's 2 ** x and C's pow differ in the last bit (2 ** −0.5 = 0.7071067811865475 in
  // V8, 0.7071067811865476 correctly rounded), and exactly where the exponents are whole numbers.
  for (const [n, want] of Object.entries(by_heads)) {
    const got = twin.alibi_slopes(Number(n));
    assert.equal(got.length, Number(n));
    got.forEach((m, h) => assert.ok(Number.isInteger(Math.log2(want[h])) ? m === want[h]
      : Math.abs(m - want[h]) <= 2 ** -52 * want[h], `${n} heads, h=${h + 1}: ${m} vs ${want[h]}`));
  }
  for (const { m, bias, weights } of by_slope) {
    const got = twin.alibi_bias(5, m);
    got.forEach((row, i) => row.forEach((b, j) => assert.equal(b, bias[i][j] ?? -Infinity)));
    twin.attention_weights(scores, got).forEach((row, i) => all_near(row, weights[i], `m=${m} row ${i}`));
  }
});

test("the distillation loss and gradient equal core's from T = 0.5 to 100", () => {
  for (const d of fixture.distill) {
    assert.ok(near(twin.distillation_loss(d.v, d.z, d.T), d.loss, 1e-12, 1e-16), `loss at T=${d.T}`);
    all_near(twin.distillation_grad(d.v, d.z, d.T), d.grad, `grad at T=${d.T}`);
  }
});

// The kept words as [start, end) runs of indices, as the fixture writes core's masks.
function runs(mask) {
  const out = [];
  mask.forEach((kept, i) => {
    if (kept && !mask[i - 1]) out.push([i, i + 1]);
    else if (kept) out.at(-1)[1] = i + 1;
  });
  return out;
}

test("on 50,000 words in rank order (the twin's one pass), top-k of z/T and top-p keep core's words", () => {
  const data = JSON.parse(readFileSync(new URL("../../app/data/vocabulary.json", import.meta.url), "utf-8"));
  const z = data.languages.en.buckets.flatMap(([cB, words]) => words.split(" ").map(() => -cB / 100 * Math.LN10));
  assert.equal(z.length, 50000);
  for (const c of fixture.vocabulary) {
    const p = twin.softmax(z, c.T);
    for (const [v, want] of Object.entries(c.top_p)) assert.deepEqual(runs(twin.top_p_mask(p, Number(v))), want, `p=${v}`);
    for (const [k, want] of Object.entries(c.top_k)) {
      assert.deepEqual(runs(twin.decode_kept(z, c.T, [["top_k", Number(k)]]).kept), want, `T=${c.T} k=${k}`);
    }
  }
});

test("a sum that does not read its zero tail is the whole sum to the bit", () => {
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(random() * 3000), live = Math.floor(random() * (n + 1));
    const a = Float64Array.from({ length: n }, (_, i) => (i < live ? random() * 10 ** (6 * random() - 3) : 0));
    assert.ok(Object.is(twin.pairwise_sum(a, 0, n, live), twin.pairwise_sum(a)), `n=${n}, live=${live}`);
  }
});
