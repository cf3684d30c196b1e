// One gesture model. A drag, a slide, a key press, a typed value and a click each begin, draw frames and end;
// the end is one commit (one check by the page's rules, one message to Python). A drag or a slide draws live
// frames from states nobody has checked or written yet, built on the last valid lesson; a click, a key or a
// typed value is a whole gesture at once. A gesture that runs in time (the gradient steps to come) is one more
// kind: it begins, draws a frame per tick, and ends when it stops.

/** A frame of the gesture in progress (`kind` names it; another kind in progress ends first). */
function gesture_frame(page, kind, next) {
  if (page.gesture && page.gesture.kind !== kind) end_gesture(page);
  if (!page.gesture) {
    page.gesture = { kind, last: null };
    hold_box(page, true);
  }
  page.gesture.last = next;
  draw(page, next, { live: true });
}

/** The end of the gesture in progress: its last frame, committed. */
function end_gesture(page) {
  const g = page.gesture;
  page.gesture = null;
  if (g) hold_box(page, false);
  if (g?.last) commit(page, g.last);
}

// The table of classes is as tall as its rows, which a gesture's frames never change (they change with K):
// held at its height while a gesture lasts, it is a box whose inside the browser lays out alone (contain),
// where a box that follows its content makes every drag frame lay out the whole page again.
function hold_box(page, held) {
  const el = element_of(page, page.a.divs.probs);
  if (!el) return;
  el.style.height = held ? `${el.getBoundingClientRect().height}px` : "";
  el.style.contain = held ? "strict" : "";
}

/** A whole gesture at once; one in progress ends first. */
function whole(page, next) {
  end_gesture(page);
  commit(page, next);
}

/** A slider moved by a held pointer: a frame, built on the lesson as it was when the slide began. */
function slide(page, next) {
  try {
    gesture_frame(page, "slide", next(now(page)));
  } catch (e) {
    if (!(e instanceof RuleError)) throw e;
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
  let clamped = false;
  for (let k = 0; k < z.length; k++) {
    const c = Math.min(hi, Math.max(lo, z[k]));
    if (c !== z[k]) { z[k] = c; clamped = true; }
  }
  const held = held_points(src);
  // Past the frame's edge the tool stops following the pointer: put the point at the edge it ran to.
  for (const k of held) {
    if (ev?.y > r.end && z[k] !== hi) { z[k] = hi; clamped = true; }
    if (ev?.y < r.start && z[k] !== lo) { z[k] = lo; clamped = true; }
  }
  if (clamped) changed_in_place(src);
  return [Array.from(z), held.some((k) => z[k] === lo || z[k] === hi)];
}

function on_pan(page, ev) {
  const [z, at_edge] = dragged_z(page, ev);
  gesture_frame(page, "drag", { ...now(page), z, notice: at_edge ? "clamped" : "" });
}

// The logits source changed outside a drag: a script wrote it, or the tool's Backspace deleted a point. A
// deleted point comes back where the learner last saw it.
function on_logits(page) {
  if (page.gesture?.kind === "drag") return; // the drag's frames own the source until it ends
  const z = Array.from(page.a.sources.logits.data.z ?? [], Number); // a script may write anything here
  const s = now(page);
  whole(page, { ...s, z: z.length === s.z.length ? z : s.z, notice: same_array(z, s.z) ? s.notice : "" });
}

// ---- the logit inputs: keys and typed values --------------------------------------------------------------

function input_index(ev) {
  const input = ev.target;
  return input?.classList?.contains("logit-input") ? Number(input.dataset.k) : null;
}

function on_input_key(page, ev) {
  const k = input_index(ev);
  if (k === null || (ev.key !== "ArrowUp" && ev.key !== "ArrowDown")) return;
  ev.preventDefault(); // the browser's own step would ignore Shift and skip the lesson's rules
  const step = (ev.shiftKey ? 1 : 0.1) * (ev.key === "ArrowUp" ? 1 : -1);
  // A value typed but not yet entered is where the step starts, as in any number field.
  const typed = ev.target.value.trim();
  act(page, (s) => {
    const from = typed !== "" && Number.isFinite(Number(typed)) ? set_logit(s, k, Number(typed), page.a.rules) : s;
    return nudge(from, k, step, page.a.rules);
  });
}

function on_input_change(page, ev) {
  const k = input_index(ev);
  if (k === null) return;
  const text = ev.target.value.trim();
  act(page, (s) => set_logit(s, k, text === "" ? NaN : Number(text), page.a.rules));
}
