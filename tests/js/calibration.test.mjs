// static/calibration.mjs against core/calibration.py: `node --test tests/js/`. The fixture
// (tests/js/make_calibration.py, written by tests/js/fixtures.py) holds Python's answers; the data is the shipped
// file itself.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import * as twin from "../../static/calibration.mjs";

const fixture = read_fixture("calibration.json");
const rows = JSON.parse(readFileSync(new URL("../../app/data/digits_logits.json", import.meta.url), "utf-8")).rows;
const split = (name) => rows.filter((r) => r.split === name);
const [val, test_rows] = [split("val"), split("test")];
const z = test_rows.map((r) => r.z), y = test_rows.map((r) => r.label);

// rel of the value, plus abs: the slope at the fitted T is a sum of O(1) terms that cancel to ~1e-17.
const near = (got, want, rel = 1e-12, abs = 0) => Math.abs(got - want) <= rel * Math.abs(want) + abs;
function same_bins(got, want) {
  assert.deepEqual(got.count, want.count);
  assert.deepEqual(got.lower, want.lower);
  assert.deepEqual(got.upper, want.upper);
  assert.deepEqual(got.accuracy, want.accuracy);
  got.confidence.forEach((c, m) => assert.ok(near(c, want.confidence[m]), `bin ${m}: ${c} vs ${want.confidence[m]}`));
}

test("the shipped data splits as Python reads it", () => {
  assert.equal(val.length, 500);
  assert.equal(test_rows.length, 1097);
});

test("confidence, accuracy, NLL and its slope equal core's at every temperature", () => {
  for (const at of fixture.at) {
    const { confidence, correct } = twin.confidence_and_correct(z, y, at.T);
    confidence.forEach((c, i) => assert.ok(near(c, at.confidence[i]), `T = ${at.T}, row ${i}`));
    assert.equal(correct.filter(Boolean).length / correct.length, at.accuracy);
    assert.ok(near(twin.mean_nll(z, y, at.T), at.nll), `NLL at T = ${at.T}`);
    const slope = twin.nll_slope(val.map((r) => r.z), val.map((r) => r.label), at.T);
    assert.ok(near(slope, at.slope_val, 1e-10, 1e-14), `slope at T = ${at.T}: ${slope} vs ${at.slope_val}`);
  }
});

test("the bins, ECE and MCE equal core's for every choice of bins", () => {
  for (const at of fixture.at) {
    const correct = twin.confidence_and_correct(z, y, at.T).correct;
    for (const [M, want] of Object.entries(at.by_bins)) {
      // Python's confidences, so that a last-bit difference cannot move an example across an edge.
      same_bins(twin.reliability_bins(at.confidence, correct, Number(M)), want.bins);
      assert.ok(near(twin.expected_calibration_error(at.confidence, correct, Number(M)), want.ece));
      assert.ok(near(twin.maximum_calibration_error(at.confidence, correct, Number(M)), want.mce));
    }
  }
});

test("confidences on the edges fall in the bins core puts them in", () => {
  const { confidence, correct } = fixture.edges;
  for (const [M, want] of Object.entries(fixture.edges.by_bins)) {
    same_bins(twin.reliability_bins(confidence, correct.map(Boolean), Number(M)), want.bins);
    assert.ok(near(twin.expected_calibration_error(confidence, correct.map(Boolean), Number(M)), want.ece));
  }
});

test("fitting T on the validation split takes core's steps to core's T", () => {
  const fit = twin.fit_temperature(val.map((r) => r.z), val.map((r) => r.label));
  assert.equal(fit.path.length, fixture.fit.path.length);
  fit.path.forEach((T, k) => assert.ok(near(T, fixture.fit.path[k], 1e-10), `iterate ${k}: ${T}`));
  assert.ok(near(fit.T, fixture.fit.T, 1e-12));
});

test("fits on generated sets take core's steps to core's T, where Newton's step rounds to β among them", () => {
  assert.ok(fixture.fits.length >= 40);
  for (const { z, y, T, path } of fixture.fits) {
    const fit = twin.fit_temperature(z, y);
    assert.equal(fit.path.length, path.length, JSON.stringify({ z, y }));
    fit.path.forEach((t, k) => assert.ok(near(t, path[k], 1e-10), `iterate ${k}: ${t} vs ${path[k]}`));
    assert.ok(near(fit.T, T, 1e-10), `${fit.T} vs ${T}`);
  }
});
