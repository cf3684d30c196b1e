// The calibration view: temperature scaling on the held-out digits that Python puts in the `heldout` source
// (app/calibration.py reports the same figures in Python). Every number is computed here from that source
// with calibration.mjs: T is fitted on the validation split, everything else is on the test split.

import { confidence_and_correct, fit_temperature, mean_nll, reliability_bins } from "./calibration.mjs";
import { set_if_changed } from "./draw.mjs";
import { act } from "./lesson.mjs";
import { last, memo } from "./record.mjs";
import { aside, fill, fixed3, grouped, info_html, label, value_span, with_minus } from "./readouts.mjs";

const CURVE_POINTS = 97; // the NLL curve's temperatures, log-spaced over the view's slider
// The NLL axis: up to a little above ln 10 (the NLL of the uniform guess, where T → ∞ takes it), in steps of a
// half, and higher only while the point at the view's T would leave it.
const NLL_STEP = 0.5;
const NLL_ROOM = 1.05;

/** The held-out rows by split, read once per page from the source's columns. */
function heldout(page) {
  const data = page.a.sources.heldout.data;
  if (page.heldout?.data === data) return page.heldout;
  const parts = { val: { z: [], y: [] }, test: { z: [], y: [] } };
  data.split.forEach((split, i) => {
    parts[split].z.push(Array.from(data.logits[i]));
    parts[split].y.push(Number(data.label[i]));
  });
  page.heldout = { data, ...parts };
  return page.heldout;
}

/** The test split's figures at temperature T with M bins, and the validation NLL there. */
export function calibration_numbers(test, val, T, M) {
  const { confidence, correct } = confidence_and_correct(test.z, test.y, T);
  const bins = reliability_bins(confidence, correct, M);
  const right = correct.filter(Boolean).length;
  return { bins, ece: bins.ece, mce: bins.mce, nll: mean_nll(test.z, test.y, T), nll_val: mean_nll(val.z, val.y, T),
    accuracy: right / correct.length, right, n: correct.length };
}

// Newton's fit on the validation split, with the validation NLL at each iterate: once per page.
function fitted(page) {
  const h = heldout(page);
  if (!h.fit) {
    const fit = fit_temperature(h.val.z, h.val.y);
    h.fit = { ...fit, nll: fit.path.map((T) => mean_nll(h.val.z, h.val.y, T)) };
  }
  return h.fit;
}

function nll_curve(page) {
  const h = heldout(page);
  if (!h.curve) {
    const [lo, hi] = cT_bounds(page).map(Math.log10);
    const T = Array.from({ length: CURVE_POINTS }, (_, i) => 10 ** (lo + (hi - lo) * i / (CURVE_POINTS - 1)));
    h.curve = { T, val: T.map((v) => mean_nll(h.val.z, h.val.y, v)), test: T.map((v) => mean_nll(h.test.z, h.test.y, v)) };
  }
  return h.curve;
}

function cT_bounds(page) {
  return page.a.rules.lesson_fields.find((field) => field.key === "cT").bounds;
}

// The view's T is the fitted one (a link may carry it from Python, whose last bits may differ): then the
// iterates that reach it are drawn.
function at_fit(page, s) {
  const { T } = fitted(page);
  return Math.abs(s.cT - T) <= 1e-9 * T;
}

/** "Fit T": the view's T set to Newton's minimiser of the validation NLL (a page command: the fit needs the
 * page's data). */
export function fit_T(page) {
  const { T } = fitted(page);
  act(page, (s) => ({ ...s, cT: T, notice: "" }));
}

const percent = (x) => `${with_minus((100 * x).toFixed(2))} %`;
const short_T = (T) => String(Number(T.toPrecision(6)));

// A bin of fewer digits than this is faded on the diagram, and an MCE from it is said to be noisy: its accuracy's
// standard error is above 0.1 (√(0.25/20) ≈ 0.11).
const FEW_DIGITS = 20;

/** The view's sources and readouts for state s (none while it is closed: its sources keep what they held). */
export function calibration_frame(page, s, t, text) {
  if (!s.calib) {
    const emptied = text ? Object.fromEntries(page.a.view.readouts_of.calibration.map((k) => [k, ""])) : {};
    return { sources: {}, readouts: emptied };
  }
  const h = heldout(page);
  const n = memo(page, "calibration", [s.cT, s.bins], () => calibration_numbers(h.test, h.val, s.cT, Number(s.bins)));
  const b = n.bins;
  const bits = s.units === "bits";
  const scale = bits ? 1 / Math.LN2 : 1;
  const curve = nll_curve(page);
  const fit = fitted(page);
  const fit_shown = at_fit(page, s);
  const over = b.accuracy.map((acc, m) => (b.confidence[m] > acc ? 1 : 0)); // overconfident bins
  const sources = {
    reliability: { confidence: [...b.confidence], accuracy: [...b.accuracy], count: [...b.count], lower: [...b.lower],
      upper: [...b.upper], mid: b.lower.map((lo, m) => (lo + b.upper[m]) / 2),
      width: b.lower.map((lo, m) => b.upper[m] - lo),
      gap_bottom: b.accuracy.map((acc, m) => Math.min(acc, b.confidence[m])),
      gap_top: b.accuracy.map((acc, m) => Math.max(acc, b.confidence[m])),
      over, under: over.map((o) => 1 - o), over_fill: over.map((o) => 0.15 * o),
      alpha: b.count.map((count) => (count < FEW_DIGITS ? 0.4 : 1)) },
    nll_curve: { T: curve.T, val: curve.val.map((v) => v * scale), test: curve.test.map((v) => v * scale) },
    nll_now: { T: [s.cT, s.cT], nll: [n.nll * scale, n.nll_val * scale] },
    fit_path: fit_shown ? { T: [...fit.path], nll: fit.nll.map((v) => v * scale) } : { T: [], nll: [] },
  };
  if (!text) return { sources, readouts: {} };
  const unit = bits ? t.bits : t.nats;
  const bins = aside(fill(t.bins_aside, { M: s.bins }));
  const mce_count = b.count[b.gap.indexOf(b.mce)]; // the bin MCE comes from (the first of equal gaps)
  const readouts = {
    ece: `${label(t.ece_label)} ${value_span(n.ece, percent(n.ece))}${bins}`,
    mce: `${label(t.mce_label)} ${value_span(n.mce, percent(n.mce))}${bins}` +
      (mce_count < FEW_DIGITS ? aside(" · " + fill(t.mce_few, { n: grouped(mce_count) })) : ""),
    nll: `${label(t.nll_label)} ${info_html(n.nll, s, t, true)}`,
    accuracy: `${label(t.accuracy_label)} ${value_span(n.accuracy, percent(n.accuracy))}` +
      aside(fill(t.accuracy_aside, { right: grouped(n.right), n: grouped(n.n) })),
    fit: fit_shown
      ? fill(t.fit_done, { path: fit.path.map(short_T).join(" → "), before: fixed3(fit.nll[0] * scale, unit),
        after: fixed3(fit.nll.at(-1) * scale, unit) })
      : fill(t.fit_none, { n: grouped(h.val.y.length) }),
    calibration: t.calibration_text,
  };
  return { sources, readouts };
}

/** The view's figures for state s: shown with it, their axes' ends, the mark at its T, their texts in the
 * language and unit, and their glyphs in the theme. */
export function draw_calibration(page, s, t) {
  const { a } = page;
  const figs = [a.lab_figs.reliability, a.lab_figs.counts, a.lab_figs.nll];
  for (const fig of figs) set_if_changed(fig, { visible: s.calib });
  if (!s.calib) return;
  place_figures(a.calibration_layout);
  const n = last(page, "calibration");
  const scale = s.units === "bits" ? 1 / Math.LN2 : 1;
  set_if_changed(a.lab_figs.counts.y_range, { start: 0.5, end: 10 ** Math.ceil(Math.log10(2 * Math.max(...n.bins.count))) });
  const top = Math.max(Math.LN10 * NLL_ROOM * scale, n.nll * scale, n.nll_val * scale);
  set_if_changed(a.lab_figs.nll.y_range, { start: 0, end: NLL_STEP * Math.ceil(top / NLL_STEP) });
  set_if_changed(a.calibration.span, { location: s.cT });
  const texts = JSON.stringify([s.lang, s.units]);
  if (page.applied.calibration_texts !== texts) {
    const unit = s.units === "bits" ? t.bits : t.nats;
    a.lab_figs.reliability.title.text = fill(t.reliability_title, { n: grouped(n.n) });
    a.lab_figs.counts.title.text = t.counts_title;
    a.lab_figs.nll.title.text = t.nll_title;
    a.lab_hints.reliability.text = t.reliability_hint;
    a.lab_hints.counts.text = t.counts_hint;
    a.lab_hints.nll.text = t.nll_hint;
    a.lab_axes.reliability_y.axis_label = t.reliability_y;
    a.lab_axes.counts_x.axis_label = t.reliability_x;
    a.lab_axes.counts_y.axis_label = t.counts_y;
    a.lab_axes.nll_x.axis_label = t.nll_x;
    a.lab_axes.nll_y.axis_label = fill(t.nll_y, { unit });
    a.calibration.legend.items.forEach((item, i) => {
      item.label = { value: t[["legend_accuracy", "legend_over", "legend_under"][i]] };
    });
    page.applied.calibration_texts = texts;
  }
}

// The view's figures join the layout when it is first opened (app/document.py keeps them out while it is
// closed); Bokeh builds their views then, and their first layout draws the page again (startup.mjs dispatch).
function place_figures({ row, left, right, nll }) {
  if (!row.children.includes(left)) row.children = [left, ...row.children];
  if (!right.children.includes(nll)) right.children = [nll, ...right.children];
}
