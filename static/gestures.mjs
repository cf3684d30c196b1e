// One gesture model. A drag, a slide, a key press, a typed value and a click each begin, draw frames and end;
// the end is one commit (one check by the page's rules, one message to Python). A drag or a slide draws live
// frames from states nobody has checked or written yet, built on the last valid lesson; a click, a key or a
// typed value is a whole gesture at once. Playing is a gesture that runs in time: a gradient step per
// animation frame, drawn live, committed when it pauses or another gesture begins (which it then outlasts).

import { nudge, set_logit, step } from "./actions.mjs";
import { changed_in_place, element_of, held_points, measured_panels, steady_panels } from "./bokeh_adapter.mjs";
import { draw_play, typed_number } from "./controls.mjs";
import { logit_text } from "./digits.mjs";
import { draw, every_figure, same_array, strings } from "./draw.mjs";
import { act, commit, now } from "./lesson.mjs";
import { record_step } from "./record.mjs";
import { Refusal } from "./rules.mjs";

export const TEXT_EVERY = 6; // frames of playing per writing of its text

/** A frame of the gesture in progress (`kind` names it; another kind in progress ends first). */
function gesture_frame(page, kind, next) {
  if (page.gesture && page.gesture.kind !== kind) end_gesture(page);
  if (!page.gesture) {
    page.gesture = { kind, last: null, frames: 0 };
    hold_box(page, true);
    steady_panels(page, every_figure(page.a));
  }
  page.gesture.last = next;
  // Playing steps every frame and the figures follow each step; the numbers in the page's text (and the
  // Jacobian's heatmap of numbers) follow every TEXT_EVERY-th (ten times a second: readable, where sixty is a
  // blur) and all of them when it pauses. New text in a frame is laid out, painted and rastered, which is what
  // kept a frame at K = 10 from fitting in 16.7 ms (tests/benchmarks/bench_play.py: the figures alone fit, as
  // Bokeh alone does).
  const text = kind !== "play" || page.gesture.frames % TEXT_EVERY === 0;
  page.gesture.frames += 1;
  draw(page, next, { live: true, text });
}

/** The end of the gesture in progress: its last frame, committed. */
export function end_gesture(page) {
  const g = page.gesture;
  page.gesture = null;
  if (g) {
    hold_box(page, false);
    measured_panels(page, every_figure(page.a));
  }
  if (g?.last) commit(page, g.last);
}

// The readouts app/document.py READOUTS marks `held` (the table of classes, as tall as its rows, which a
// gesture's frames never change, and the lab's readouts, as tall as their lines) are held at their heights while
// a gesture lasts, each a box whose inside the browser lays out alone (contain), where a box that follows its
// content makes every frame lay out the whole page again.
function hold_box(page, held) {
  const boxes = page.a.view.held.map((key) => element_of(page, page.a.divs[key])).filter(Boolean);
  // Every height read before any is written: a write between two reads would lay the page out again.
  const heights = boxes.map((el) => (held ? `${el.getBoundingClientRect().height}px` : ""));
  boxes.forEach((el, k) => {
    el.style.height = heights[k];
    el.style.contain = held ? "strict" : "";
  });
}

/** A whole gesture at once; one in progress ends first. */
export function whole(page, next) {
  end_gesture(page);
  commit(page, next);
}

/** A slider moved by a held pointer: a frame, built on the lesson as it was when the slide began. */
export function slide(page, next) {
  try {
    gesture_frame(page, "slide", next(now(page)));
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
  }
}

// ---- dragging a point (the logit figure's PointDrawTool) --------------------------------------------------

// Where a point may be dragged: inside the plot frame, and never past ±limit.
function drag_window(page) {
  const { a } = page;
  const r = a.figs.logit.y_range;
  return [Math.max(r.start + a.view.pad, -a.rules.logit), Math.min(r.end - a.view.pad, a.rules.logit)];
}

/** The logits as the tool left them in this pan event, clamped to where a point may go: [z, at an edge]. */
function dragged_z(page, ev) {
  const src = page.a.sources.logits;
  const z = src.data.z;
  const r = page.a.figs.logit.y_range;
  const [lo, hi] = drag_window(page);
  let moved = false;
  for (let k = 0; k < z.length; k++) {
    const c = Math.min(hi, Math.max(lo, z[k]));
    if (c !== z[k]) { z[k] = c; moved = true; }
  }
  const held = held_points(src);
  // Past the frame's edge the tool stops following the pointer: put the point at the edge it ran to.
  for (const k of held) {
    if (ev?.y > r.end && z[k] !== hi) { z[k] = hi; moved = true; }
    if (ev?.y < r.start && z[k] !== lo) { z[k] = lo; moved = true; }
  }
  // A dragged logit moves in steps of 0.01, so its input, its link and the table show the same short number
  // (n / 100 is the double nearest n/100, as Number("2.35") is).
  const [lo_grid, hi_grid] = [Math.ceil(lo * 100) / 100, Math.floor(hi * 100) / 100];
  for (const k of held) {
    const step = Math.min(hi_grid, Math.max(lo_grid, Math.round(z[k] * 100) / 100));
    if (step !== z[k]) { z[k] = step; moved = true; }
  }
  if (moved) changed_in_place(src);
  return [Array.from(z), held.some((k) => z[k] === lo_grid || z[k] === hi_grid)];
}

// ---- gradient steps ------------------------------------------------------------------------------------------

/** State s after one gradient step (actions.mjs step), its loss recorded for the loss figure. */
export function stepped(page, s) {
  const next = step(s, page.a.rules);
  if (!next.notice) record_step(page, s, next);
  return next;
}

/** Keep stepping, once per animation frame, until paused: by the play button, a drag, a hidden page, or a
 * step the logit limit refuses. A control changed meanwhile (η, T, ε, the true class) ends the frame's gesture
 * and the steps go on from the new lesson. */
export function play(page) {
  page.playing = true;
  draw_play(page, strings(page));
  const tick = () => {
    if (!page.playing) return;
    if (document.hidden) return pause(page);
    const next = stepped(page, page.gesture?.kind === "play" ? page.gesture.last : now(page));
    gesture_frame(page, "play", next);
    if (next.notice) return pause(page);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

export function pause(page) {
  page.playing = false;
  if (page.gesture?.kind === "play") end_gesture(page);
  draw_play(page, strings(page));
}

export function on_pan(page, ev) {
  const [z, at_edge] = dragged_z(page, ev);
  gesture_frame(page, "drag", { ...now(page), z, notice: at_edge ? "clamped" : "" });
}

// The logits source changed outside a drag: a script wrote it, or the tool's Backspace deleted a point. A
// deleted point comes back where the learner last saw it.
export function on_logits(page) {
  // A drag's frames, or playing's, own the source until they end.
  if (page.gesture?.kind === "drag" || page.gesture?.kind === "play") return;
  const z = Array.from(page.a.sources.logits.data.z ?? [], Number); // a script may write anything here
  const s = now(page);
  whole(page, { ...s, z: z.length === s.z.length ? z : s.z, notice: same_array(z, s.z) ? s.notice : "" });
}

// ---- the logit inputs: keys and typed values --------------------------------------------------------------

function input_index(ev) {
  const input = ev.target;
  return input?.classList?.contains("logit-input") ? Number(input.dataset.k) : null;
}

export function on_input_key(page, ev) {
  const k = input_index(ev);
  if (k === null || (ev.key !== "ArrowUp" && ev.key !== "ArrowDown")) return;
  ev.preventDefault(); // the browser's own step would ignore Shift and skip the lesson's rules
  const step = (ev.shiftKey ? 1 : 0.1) * (ev.key === "ArrowUp" ? 1 : -1);
  // A value typed but not yet entered is where the step starts, as in any number field.
  const typed = ev.target.value.trim();
  act(page, (s) => {
    const from = typed === logit_text(s.z[k]) ? s : set_logit(s, k, typed_number(typed), page.a.rules);
    return nudge(from, k, step, page.a.rules);
  });
}

export function on_input_change(page, ev) {
  const k = input_index(ev);
  if (k === null) return;
  act(page, (s) => set_logit(s, k, typed_number(ev.target.value.trim()), page.a.rules));
}

