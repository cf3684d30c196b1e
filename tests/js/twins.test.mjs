// The JavaScript twins against the Python ones, on the shared cases: `node --test tests/js/`.
// The fixture (tests/js/make_twins.py, written by tests/js/fixtures.py) holds each case with Python's answer. The
// twins are the page's own modules, imported as the page's bundle imports them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixture as read_fixture } from "./fixture.mjs";

import * as actions from "../../static/actions.mjs";
import * as lab from "../../static/lab.mjs";
import * as lesson from "../../static/lesson.mjs";
import * as link from "../../static/link.mjs";
import * as rules_module from "../../static/rules.mjs";
import * as sampling from "../../static/sampling.mjs";
import * as softmax from "../../static/softmax.mjs";
import * as tour from "../../static/tour.mjs";

const fixture = read_fixture("twins.json");
const twin = { ...actions, ...lab, ...lesson, ...link, ...rules_module, ...sampling, ...softmax, ...tour };
const { rules, strings } = fixture;

const NUMBER = { inf: Infinity, "-inf": -Infinity, nan: NaN };
const decode = (v) => (Array.isArray(v) ? v.map(decode) : Object.hasOwn(NUMBER, v) ? NUMBER[v] : v);

// 1e-12 relative per entry, plus 1e-15 of the vector's largest entry (or of `scale`): (p − y)/T cancels when
// p ≈ y, and a last-bit difference between two correct exp() implementations then dominates a near-zero entry.
function close(got, want, scale = null) {
  const finite = want.filter((w) => Number.isFinite(w));
  const s = scale ?? finite.reduce((m, w) => Math.max(m, Math.abs(w)), 0);
  return got.length === want.length && want.every((w, k) => (Number.isFinite(w) ? Math.abs(got[k] - w)
    <= 1e-12 * Math.abs(w) + 1e-15 * s : Object.is(got[k], w)));
}

test("the core twin equals core/ on every case of tests/parity_cases.py", () => {
  assert.ok(fixture.core.length >= 200);
  for (const { case: raw, truth } of fixture.core) {
    const [z, T, y, eps] = [decode(raw[0]), ...raw.slice(1)];
    const p = twin.softmax(z, T);
    const got = {
      softmax: p, log_softmax: twin.log_softmax(z, T), logsumexp: [twin.logsumexp(z)],
      cross_entropy: [twin.cross_entropy(z, y, T, eps)], grad_logits: twin.grad_logits(z, y, T, eps),
      entropy: [twin.entropy(p), twin.entropy(p, 2)], kl: [twin.kl_divergence(twin.softmax(z, 1), p)],
      jacobian: twin.softmax_jacobian(z, T).flat(),
      smoothing: [twin.label_smoothing_floor(z.length, eps), twin.label_smoothing_optimal_gap(z.length, eps),
        twin.uniform_loss(z.length)],
    };
    for (const [name, values] of Object.entries(got)) {
      const want = decode(truth[name]);
      assert.ok(close(values, want, name === "kl" ? truth.kl_scale : null),
        `${JSON.stringify(raw)} ${name}: js ${values} python ${want}`);
    }
  }
});

test("log_softmax_at is log_softmax's entry to the bit, on every case of tests/parity_cases.py", () => {
  for (const { case: raw } of fixture.core) {
    const [z, T] = [decode(raw[0]), raw[1]];
    const whole = twin.log_softmax(z, T);
    z.forEach((_, y) => assert.ok(Object.is(twin.log_softmax_at(z, y, T), whole[y]), `${JSON.stringify(raw)} ${y}`));
  }
});

test("every action does what app/actions.py does, at every limit", () => {
  for (const { state: s, answers: { step: want_step, ...answers } } of fixture.actions) {
    // A step's logits come from two exp() implementations: equal to 1e-12, not to the bit.
    const stepped = twin.step(s, rules);
    assert.equal(stepped.notice, want_step.notice);
    assert.ok(close(stepped.z, want_step.z, Math.max(...s.z.map(Math.abs))), JSON.stringify(s));
    assert.deepEqual({ ...stepped, z: want_step.z }, want_step);
    const got = {
      add_one: twin.add_one(s, rules), subtract_max: twin.subtract_max(s, rules), reset: twin.reset(s), add_class: twin.add_class(s, rules, strings),
      remove_class: twin.remove_class(s, rules), set_lang: twin.set_lang(s, s.lang === "en" ? "ko" : "en", strings),
      ...Object.fromEntries(twin.PRESETS.map((p) => [`preset_${p}`, twin.preset(s, p, strings)])),
    };
    assert.deepEqual(got, answers, JSON.stringify(s));
  }
  const [at_limit, ten, two, nine, step_past] = fixture.actions.map((a) => a.answers);
  assert.equal(step_past.step.notice, "at_limit");
  assert.deepEqual(step_past.step.z, fixture.actions[4].state.z);
  assert.equal(at_limit.add_one.notice, "at_limit");
  assert.equal(ten.add_class.notice, "max_classes");
  assert.equal(two.remove_class.notice, "min_classes");
  assert.equal(nine.add_class.names.at(-1), "cat"); // the one default name no class uses
});

test("both link parsers read every link alike, and every malformed one is refused with a notice", () => {
  assert.ok(fixture.links.filter((l) => l.malformed).length >= 40);
  for (const { text, pairs, state, refused, malformed } of fixture.links) {
    const got_pairs = twin.link_pairs(text);
    assert.deepEqual(got_pairs, pairs, text);
    assert.deepEqual(twin.parse_link(got_pairs, "en", rules, strings), [state, refused], text);
    assert.equal(refused.length > 0, malformed, text);
  }
});

test("a copied link opens its lesson, its logits to 4 decimals and its reals to 4 significant digits", () => {
  assert.ok(fixture.round_trips.some(({ state, opens }) => state.T !== opens.T));
  const reals = new Set(rules.lesson_fields.filter((f) => f.kind === "real").map((f) => f.link));
  for (const { state: s, opens } of fixture.round_trips) {
    const text = twin.link_of(s, strings, rules);
    for (const [key, value] of text.split("&").map((pair) => pair.split("="))) {
      if (key === "z" || key === "z0") assert.ok(value.split(",").every((v) => !/\.[0-9]{5}/.test(v)), text);
      if (reals.has(key)) assert.ok(value.replace(/^[-0.]+/, "").replace(".", "").length <= 4, text);
    }
    const [back, refused] = twin.parse_link(twin.link_pairs(text), "en", rules, strings);
    assert.deepEqual(refused, [], text);
    const plain = (v) => JSON.parse(JSON.stringify(v)); // −0 and 0 are one logit (String(−0) is "0")
    assert.deepEqual(plain({ ...back, notice: s.notice }), plain(opens), text);
  }
});

test("the sampler draws Python's words, its noise to the last bit or one ulp, and its counts", () => {
  assert.ok(fixture.sampling.length >= 6);
  for (const c of fixture.sampling) {
    assert.deepEqual(Array.from(twin.uniform_words(12, c.seed)), c.words, `seed ${c.seed}`);
    const noise = twin.gumbel_noise(c.n, c.z.length, c.seed);
    // Math.log need not round as C's log does (one ulp apart at most). g = −ln L with L = −ln u: one ulp of L is
    // at most 2^−52·L, which the outer log turns into at most 2^−52 of g, absolute (g may be near 0, where a
    // bound relative to g cannot hold); the outer log adds one ulp of g, at most 2^−52·|g|. The 2^−20 covers the
    // second-order terms.
    const within = (got, g) => Math.abs(got - g) <= 2 ** -52 * (1 + Math.abs(g)) * (1 + 2 ** -20);
    c.noise.forEach((g, i) => assert.ok(within(noise[i], g), `seed ${c.seed}: ${i}: ${noise[i]} vs ${g}`));
    for (const [i, g] of c.near_zero) assert.ok(within(noise[i], g), `seed ${c.seed}: ${i}: ${noise[i]} vs ${g}`);
    // and it still tells a wrong noise: float32's fails it.
    assert.ok(c.noise.some((g, i) => !within(Math.fround(noise[i]), g)), `seed ${c.seed}`);
    assert.deepEqual(twin.gumbel_max_counts(c.z, noise, c.T), c.counts, `seed ${c.seed}`);
  }
});

test("both gatekeepers take and refuse the same whole states, and clean them alike", () => {
  const refused = fixture.whole_states.filter((c) => c.checked === null).length;
  assert.ok(refused >= 40 && fixture.whole_states.length - refused >= 30, "both kinds of case are there");
  for (const { state, checked } of fixture.whole_states) {
    const shown = JSON.stringify(state);
    if (checked === null) assert.throws(() => twin.checked_state(state, rules), twin.Refusal, shown);
    else assert.deepEqual(twin.checked_state(state, rules), checked, shown);
  }
});

test("the lab's twins equal core/: a gradient step, the Jacobian, softmax and the loss in each type", () => {
  assert.ok(fixture.lab.length >= 10);
  for (const c of fixture.lab) {
    const at = `z ${c.z} T ${c.T}`;
    assert.ok(close(twin.gradient_step(c.z, c.y, c.lr, c.T, c.eps), c.step, Math.max(...c.z.map(Math.abs))), at);
    assert.ok(close(twin.jacobian_cells(c.z, c.T).cells.value, c.jacobian), at);
    for (const [dtype, ways] of Object.entries(c.ways)) {
      assert.equal(twin.OVERFLOW_AT[dtype], c.overflow_at[dtype], dtype);
      const got = twin.softmax_three_ways(c.z, c.T, dtype);
      // Every operation is rounded to the type in both; exp may differ in its last bit of the type (NumPy's
      // float32 and float16 exp against Math.exp rounded), never in an inf, a NaN or a 0.
      const ulp = { float64: 1e-12, float32: 2 ** -22, float16: 2 ** -9 }[dtype];
      for (const way of ["naive", "shifted", "log"]) {
        decode(ways[way]).forEach((want, k) => {
          const v = got[way][k];
          const ok = Number.isFinite(want) && want !== 0 ? Math.abs(v - want) <= 2 * ulp * Math.abs(want) : Object.is(v, want);
          assert.ok(ok, `${at} ${dtype} ${way}[${k}]: ${v} for ${want}`);
        });
      }
      const [from_log_p, from_lse] = twin.loss_two_ways(c.z, c.y, c.T, c.eps, dtype);
      const [want_log_p, want_lse] = decode(c.losses[dtype]);
      for (const [v, want] of [[from_log_p, want_log_p], [from_lse, want_lse]]) {
        const ok = Number.isFinite(want) && want !== 0 ? Math.abs(v - want) <= 4 * ulp * Math.abs(want) : Object.is(v, want);
        assert.ok(ok, `${at} ${dtype} loss: ${v} for ${want}`);
      }
    }
  }
});

test("float16 rounding is NumPy's: ties to even, subnormals, and overflow past 65520", () => {
  const { x, f16 } = fixture.float16;
  assert.ok(x.length > 10000);
  x.forEach((v, i) => assert.ok(Object.is(twin.f16round(decode(v)), decode(f16[i])), `${v} → ${f16[i]}`));
});

test("the guided path's twin enters each step and checks its task as app/tour.py does", () => {
  assert.ok(fixture.tour.length >= 13 * 3);
  for (const { step, state, entered, restarted, missing, at, opened } of fixture.tour) {
    assert.deepEqual(twin.tour_opened(at, fixture.steps, rules, strings), opened, `${step.id}: opened`);
    assert.deepEqual(twin.tour_enter(step, state, rules, strings), entered, step.id);
    assert.deepEqual(twin.tour_restart(step, state, rules, strings), restarted, step.id);
    assert.deepEqual(twin.step_missing(step, state), missing, `${step.id} on ${JSON.stringify(state.z)}`);
    assert.equal(twin.step_done(step, state), missing.length === 0, step.id);
  }
  assert.ok(fixture.tour.some((c) => c.missing.length === 0) && fixture.tour.some((c) => c.missing.length > 1));
  assert.ok(fixture.tour.some((c) => c.opened !== c.at && JSON.stringify(c.opened) !== JSON.stringify(c.at)));
});

test("the naive way's readout says why it shows zeros where no e^(z/T) overflows but their sum does", () => {
  // float16, z/T = (11, 11, 0): e^11 rounds to 59,872, below 65,504, and twice that overflows: every p is x/inf = 0.
  const lesson = (z) => ({ naive: true, z, T: 1, y: 0, eps: 0, dtype: "float16", names: ["a", "b", "c"] });
  // A readout's longest piece of text between its numbers: it tells the three sentences apart.
  const fixed = (key, lang) => strings[lang][key].split(/\{[a-z]+\}/).reduce((a, b) => (b.length > a.length ? b : a));
  for (const lang of Object.keys(strings)) {
    const sum = twin.naive_html(lesson([11, 11, 0]), strings[lang]);
    assert.ok(sum.includes(fixed("naive_sum", lang)) && !sum.includes(fixed("naive_under", lang)), sum);
    assert.deepEqual(twin.softmax_three_ways([11, 11, 0], 1, "float16").naive, [0, 0, 0]);
    assert.ok(twin.naive_html(lesson([8, 0, 0]), strings[lang]).includes(fixed("naive_under", lang)), lang);
    assert.ok(twin.naive_html(lesson([11.5, 11, 0]), strings[lang]).includes(fixed("naive_over", lang)), lang);
  }
});
