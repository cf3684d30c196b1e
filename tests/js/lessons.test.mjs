// The page's renderer against the truth, on whole lessons: `node --test tests/js/`.
// The fixture (tests/js/make_lessons.py, written by tests/js/fixtures.py) holds the states of tests/twin_cases.py
// and lessons on exact decimal ties, each with core's numbers (Lesson.numbers()) and the strings the oracle
// (tests/digits_oracle.py) writes for them. Numbers are compared to 1e-12 relative, strings exactly. The renderer
// is the page's own modules, imported as the page's bundle imports them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import * as digits from "../../static/digits.mjs";
import * as frame from "../../static/frame.mjs";
import * as readouts from "../../static/readouts.mjs";

const fixture = read_fixture("lessons.json");
const twin = { ...digits, ...frame, ...readouts };
const { rules, strings, view } = fixture;

const NUMBER = { inf: Infinity, "-inf": -Infinity, nan: NaN };
const decode = (v) => (Array.isArray(v) ? v.map(decode) : Object.hasOwn(NUMBER, v) ? NUMBER[v] : v);
const lessons = fixture.lessons.map((l) => ({
  ...l, numbers: Object.fromEntries(Object.entries(l.numbers).map(([k, v]) => [k, decode(v)])),
}));
const states = lessons.filter((l) => l.group === "states");
const where = (l) => JSON.stringify(l.state);

// 1e-12 of the larger of the two, and 1e-300 absolute (both underflow alike); ±∞ exactly.
const close = (got, want) => (Number.isFinite(want) ? Math.abs(got - want) <= 1e-12 * Math.max(Math.abs(got),
  Math.abs(want)) + 1e-300 : Object.is(got, want));

// The probabilities table's rows, each a list of its cells' HTML, and the class of each row.
function table(html) {
  const rows = html.match(/<tr[^>]*>.*?<\/tr>/g) ?? [];
  return rows.map((row) => ({
    cls: row.match(/^<tr(?: class="([^"]*)")?>/)[1] ?? "",
    tag: row.match(/<(t[dh])>/)?.[1],
    cells: Array.from(row.matchAll(/<t[dh]>(.*?)<\/t[dh]>/g), (m) => m[1]),
  }));
}

test("the lessons are a wide matrix: K from 2 to 10, both ends of T, ε up to 0.5, every language and both units", () => {
  assert.ok(states.length >= 200, states.length);
  assert.deepEqual(new Set(states.map((l) => l.state.z.length)), new Set([2, 3, 4, 5, 6, 7, 8, 9, 10]));
  const Ts = new Set(states.map((l) => l.state.T));
  assert.ok(Ts.has(0.01) && Ts.has(100) && states.some((l) => l.state.eps === 0.5));
  assert.deepEqual(new Set(states.map((l) => l.state.lang)), new Set(["en", "ko", "es"]));
  assert.deepEqual(new Set(states.map((l) => l.state.units)), new Set(["nats", "bits"]));
  assert.ok(lessons.some((l) => l.group === "ties"));
});

test("lesson_numbers equals core's numbers on every lesson (1e-12 relative)", () => {
  for (const l of lessons) {
    const got = twin.lesson_numbers(l.state);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(l.numbers).sort(), where(l));
    for (const [key, want] of Object.entries(l.numbers)) {
      const [g, w] = [[got[key]].flat(), [want].flat()];
      assert.ok(g.length === w.length && w.every((v, k) => close(g[k], v)),
        `${where(l)} ${key}: page ${got[key]}, core ${want}`);
    }
  }
});

test("the probabilities table shows the oracle's digits of core's numbers, cell by cell (exactly)", () => {
  for (const l of lessons) {
    const { state: s, expect } = l;
    const html = twin.render_readouts(twin.lesson_numbers(s), s, strings[s.lang]).probs;
    const [head, ...rows] = table(html);
    assert.equal(head.tag, "th", where(l));
    assert.equal(head.cells.length, expect.rows[0].length, where(l));
    assert.deepEqual(rows.map((r) => r.cells), expect.rows, where(l));
    assert.deepEqual(rows.map((r) => r.cls), s.z.map((_, k) => (k === s.y ? "true" : "")), where(l));
  }
});

test("every other readout holds the oracle's strings for core's numbers (exactly), or is empty", () => {
  for (const l of lessons) {
    const { state: s, expect } = l;
    const t = strings[s.lang];
    const n = twin.lesson_numbers(s);
    const readouts = twin.render_readouts(n, s, t);
    for (const [key, parts] of Object.entries(expect.contains)) {
      if (parts === null) {
        assert.equal(readouts[key], "", `${where(l)} ${key}`);
        continue;
      }
      for (const part of parts) assert.ok(readouts[key].includes(part), `${where(l)} ${key}: no ${part} in ${readouts[key]}`);
    }
    assert.equal(twin.live_text(n, s, t), expect.live, where(l));
  }
});

test("a class name is text in every readout: escaped, never markup", () => {
  let odd = 0;
  for (const l of lessons) {
    const { state: s } = l;
    const readouts = Object.values(twin.render_readouts(twin.lesson_numbers(s), s, strings[s.lang]));
    for (const name of s.names.filter((n) => /[<>&"']/.test(n))) {
      odd += 1;
      for (const html of readouts) assert.ok(!html.includes(name), `${where(l)}: ${name} in ${html}`);
    }
    for (const html of readouts) assert.ok(!/<(?!\/?(table|thead|tbody|tr|th|td|span|sub|sup|div)[ >])/.test(html), html);
  }
  assert.ok(odd > 100, odd);
});

test("frame fills the document's sources, labels and axes", () => {
  for (const l of lessons) {
    const { state: s, expect } = l;
    const f = twin.frame(s, strings[s.lang], view);
    const K = s.z.length;
    for (const [name, columns] of Object.entries(fixture.sources)) {
      assert.deepEqual(Object.keys(f.sources[name]), columns, `${where(l)} ${name}`);
      for (const values of Object.values(f.sources[name])) assert.equal(values.length, name === "settings" ? 1 : K);
    }
    for (const [source, column] of [["probs", "p"], ["neg_grad", "g"], ["arrows", "y1"], ["arrows", "head"]]) {
      const values = f.sources[source][column];
      assert.ok(values.every(Number.isFinite), `${where(l)} ${column}: ${values}`);
    }
    assert.deepEqual(f.sources.probs.label, expect.labels, where(l));
    assert.deepEqual(f.sources.point_labels.text, expect.point_text, where(l));
    assert.deepEqual(f.sources.probs.is_true, s.z.map((_, k) => (k === s.y ? 1 : 0)));
    assert.deepEqual(f.readouts, twin.render_readouts(twin.lesson_numbers(s), s, strings[s.lang]), where(l));
    assert.equal(f.live, expect.live, where(l));
    assert.equal(f.caption, expect.caption, where(l));
    // Every logit inside its axis; every arrow its true length, or cut arrow_margin short of the edge with its
    // mark and value; a dot where it is too short for a head.
    const [lo, hi] = f.window;
    assert.ok(s.z.every((z) => lo <= z && z <= hi), where(l));
    const a = f.sources.arrows;
    const n = twin.lesson_numbers(s);
    for (let k = 0; k < K; k++) {
      const [y1, want] = [a.y1[k], s.z[k] + view.arrow_scale * n.g[k]];
      assert.ok(lo + view.arrow_margin <= y1 && y1 <= hi - view.arrow_margin, where(l));
      if (a.clipped[k]) {
        assert.ok(y1 === lo + view.arrow_margin || y1 === hi - view.arrow_margin, where(l));
        assert.ok(a.mark_alpha[k] === 1 && a.label[k].endsWith(twin.fmt_text(n.g[k])), `${where(l)} ${a.label[k]}`);
      } else {
        assert.equal(y1, want, where(l));
        assert.equal(a.label[k], "");
        assert.equal(a.mark_alpha[k], Math.abs(y1 - s.z[k]) < view.min_arrow ? 1 : 0, where(l));
      }
    }
    assert.deepEqual(f.x_range, [-0.6, K - 0.4]);
    assert.equal(f.many, K > view.many_classes);
  }
});

// The axis holds every logit where it can be dragged: `pad` inside each edge (static/gestures.mjs clamps
// every logit there at each drag frame).
test("every logit lies where it can be dragged, pad inside its axis", () => {
  for (const l of lessons) {
    const [lo, hi] = twin.logit_window(l.state.z, view);
    assert.ok(l.state.z.every((z) => lo + view.pad <= z && z <= hi - view.pad), `${where(l)}: [${lo}, ${hi}]`);
  }
});

test("the logit axis by hand: ±6, or 3 past the outermost logit, plus 0.6", () => {
  assert.deepEqual(twin.logit_window([2, 1, 0.1], view), [-6.6, 6.6]);
  assert.deepEqual(twin.logit_window([3, 2, 1.1], view), [-6.6, 6.6]); // "add 1" once: still
  assert.deepEqual(twin.logit_window([4, 3, 2.1], view), [-6.6, 7.6]); // the second: grown by the press, at the top
  assert.deepEqual(twin.logit_window([2, 25, 0.1], view), [-6.6, 28.6]);
  assert.deepEqual(twin.logit_window([-100, 100], view), [-103.6, 103.6]);
  // Issue 37: from the end of the first step (the dog dragged to 4), "add 1" ten times: every point's height on the
  // axis, as a share of it, never falls.
  let z = [2, 4, 0.1];
  const share = (v, [lo, hi]) => (v - lo) / (hi - lo);
  for (let press = 0; press < 10; press += 1) {
    const next = z.map((v) => v + 1);
    z.forEach((v, k) => assert.ok(share(next[k], twin.logit_window(next, view)) >=
      share(v, twin.logit_window(z, view)) - 1e-12, `press ${press + 1}, point ${k}`));
    z = next;
  }
});

test("the notice holds its escaped detail (a link's keys as text), and is empty when all is well", () => {
  for (const l of lessons) {
    const { state: s, expect } = l;
    const notice = twin.notice_html(s, strings[s.lang], rules.fields);
    if (expect.notice === null) assert.equal(notice, "", where(l));
    else for (const part of expect.notice) assert.ok(notice && notice.includes(part), `${where(l)}: ${notice}`);
  }
  assert.ok(lessons.some((l) => l.expect.notice?.some((part) => part.includes("&lt;b&gt;"))));
});

test("hand values: subnormal probabilities, and a tie the sums must round as core does", () => {
  // mpmath: exp(log_softmax([0, −744])[1]) = e^−744 = 7.67×10⁻³²⁴; e^−743 = 2.09×10⁻³²³. The doubles p
  // themselves are 9.88e-324 and 1.98e-323: subnormal, off in the second digit.
  const probs = (s) => twin.render_readouts(twin.lesson_numbers(s), s, strings[s.lang]).probs;
  assert.ok(probs(states[5].state).includes("7.67×10<sup>−324</sup>"));
  assert.ok(probs(states[6].state).includes("2.09×10<sup>−323</sup>"));
  // y′_y = 1 − 0.25 + 0.025 = 0.775, p_y = 0.1, so −∂L/∂z_y = (0.775 − 0.1)/2 = 0.3375, shown 0.338.
  const ten = lessons.find((l) => l.group === "ties" && l.state.z.length === 10 && l.state.T === 2
    && l.state.y === 1 && l.state.eps === 0.25);
  assert.equal(table(probs(ten.state))[2].cells.at(-1), "0.338");
});

test("the loss figure's axes end at 1, 2 or 5 times a power of ten and move only when the line crosses them", () => {
  assert.deepEqual([0.3, 1, 1.2, 4.9, 5, 7, 99, 101].map(twin.nice_ceiling), [0.5, 1, 2, 5, 5, 10, 100, 200]);
  const steps = Array.from({ length: 38 }, (_, i) => i);
  const losses = steps.map((i) => 0.416 * 0.97 ** i);
  assert.deepEqual(twin.loss_window(steps, losses, false), { x: [0, 50], y: [0, 0.5] });
  assert.deepEqual(twin.loss_window(steps.slice(0, 5), losses.slice(0, 5), false), { x: [0, 10], y: [0, 0.5] });
  assert.deepEqual(twin.loss_window(steps, losses, true), { x: [0, 50], y: [-1, 0] });
  // Kept past 2000 steps, the window starts at the oldest kept; a loss of 0 (log 0 = −∞) leaves the decades alone.
  assert.deepEqual(twin.loss_window([2500, 2600, 4499], [1e-3, 1e-5, 0], true), { x: [2500, 4500], y: [-5, -3] });
  assert.deepEqual(twin.loss_window([0], [0], false), { x: [0, 10], y: [0, 1] });
});
