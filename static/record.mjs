// What the page keeps beside the lesson: values computed from declared inputs and kept while those inputs stay
// (`memo`), and the lab's own record, which the state does not hold: the loss after each gradient step and the
// draws' noise. Drawing reads them; none of it is drawn here.

import { same_array } from "./draw.mjs";
import { gumbel_noise } from "./sampling.mjs";
import { cross_entropy } from "./softmax.mjs";

/** compute(), kept under `name` while `inputs` (an array of plain values) stay as they were when it ran. */
export function memo(page, name, inputs, compute) {
  const kept = (page.memo ??= {});
  const key = JSON.stringify(inputs);
  if (kept[name]?.key !== key) kept[name] = { key, value: compute() };
  return kept[name].value;
}

/** The value last kept under `name`, whatever its inputs were (undefined before the first). */
export function last(page, name) {
  return page.memo?.[name]?.value;
}

const HISTORY = 2000; // steps the loss figure keeps: the oldest go first

/** The loss after each step since what the loss is of (the logits, the true class, T and ε) last changed
 * otherwise: a step appends (`record_step`), any other change starts it anew at the loss shown. A curve that went
 * on across a new T or true class, or began at the lesson before the learner opened the steps, would show a jump no
 * step made; a new learning rate changes only the steps to come, and the curve goes on. */
export function history_of(page, s, loss) {
  const h = page.history;
  if (!h || !same_array(s.z, h.z) || h.y !== s.y || h.T !== s.T || h.eps !== s.eps) {
    page.history = { z: [...s.z], y: s.y, T: s.T, eps: s.eps, step: [0], loss: [loss] };
  }
  return page.history;
}

/** A gradient step from lesson `from` to `next`, appended to the history. */
export function record_step(page, from, next) {
  const h = history_of(page, from, cross_entropy(from.z, from.y, from.T, from.eps));
  h.step.push(h.step.at(-1) + 1);
  h.loss.push(cross_entropy(next.z, next.y, next.T, next.eps));
  h.z = [...next.z];
  if (h.step.length > HISTORY) {
    h.step.shift();
    h.loss.shift();
  }
}

/** The draws' noise, n×K, drawn once per seed, N and K: a drag or a new T moves the counts smoothly under the
 * same draws, and "add 1" leaves every draw as it was. */
export function kept_noise(page, s) {
  return memo(page, "noise", [s.seed, s.n, s.z.length], () => gumbel_noise(s.n, s.z.length, s.seed));
}
