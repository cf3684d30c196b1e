// Browser glue: turns the learner's gesture into new figure data, with the maths from softmax.mjs.
// One CustomJS runs this module for every trigger (see app/document.py and action_of below).
// Only `logits` and the two controls travel to Python (once per gesture); every source written here is
// syncable=False, so a drag streams nothing to the server. app/document.py's lesson_data is the Python
// twin of recompute(): it draws the first frame.
import { softmax, log_softmax, logsumexp, cross_entropy, grad_logits, entropy } from "./softmax.mjs";
import { render_readouts } from "./readouts.mjs";

function temperature(a) {
  return 10 ** a.temperature.value;
}

function true_class(a) {
  return Number(a.true_class.value);
}

// Where a point may be dragged: inside the plot frame, and never past ±limit (the lesson's bounds).
function drag_window(a) {
  return [Math.max(a.y_range.start + a.view.pad, -a.limit), Math.min(a.y_range.end - a.view.pad, a.limit)];
}

function clamp_in_place(a, z) {
  const [lo, hi] = drag_window(a);
  let clamped = false;
  for (let k = 0; k < z.length; k++) {
    const c = Math.min(hi, Math.max(lo, z[k]));
    if (c !== z[k]) { z[k] = c; clamped = true; }
  }
  return clamped;
}

// Keep every logit on screen after a jump (add 1, reset, a value set from Python) by moving the axis
// in whole units, or widening it when the logits spread wider than the axis.
function fit_window(a, z) {
  const [lo, hi] = [a.y_range.start + a.view.pad, a.y_range.end - a.view.pad];
  const zmin = Math.min(...z);
  const zmax = Math.max(...z);
  if (zmax - zmin > hi - lo) {
    const half = (zmax - zmin) / 2 + 1 + a.view.pad;
    const mid = (zmax + zmin) / 2;
    a.y_range.setv({ start: mid - half, end: mid + half });
  } else if (zmax > hi || zmin < lo) {
    const shift = zmax > hi ? Math.ceil(zmax - hi) : -Math.ceil(lo - zmin);
    a.y_range.setv({ start: a.y_range.start + shift, end: a.y_range.end + shift });
  }
}

// Bokeh's Div lays out the whole page again whenever its text changes (MarkupView.rerender walks up to the
// root): 40 ms on every drag frame. The readouts have fixed sizes, so set the model's text silently and
// write the same HTML into the view's element; the layout cannot change.
function show(div, html, index) {
  if (div.text === html) return;
  const view = index?.find_one(div);
  if (view?.markup_el) {
    div.setv({ text: html }, { silent: true });
    view.markup_el.innerHTML = html;
  } else {
    div.text = html;
  }
}

function recompute(a, status = "") {
  const z = Array.from(a.logits.data.z);
  const T = temperature(a);
  const y = true_class(a);
  const x = z.map((_, k) => k);
  const p = softmax(z, T);
  const g = grad_logits(z, y, T).map((v) => -v);
  const state = {
    names: a.names, z, T, y, p, g,
    log_p: log_softmax(z, T),
    loss: cross_entropy(z, y, T),
    entropy_bits: entropy(p, 2),
    lse: logsumexp(z.map((v) => v / T)),
  };
  // An arrow longer than the frame stops at its edge, head visible: it points on, it does not vanish.
  const [top, bottom] = [a.y_range.end - a.view.arrow_margin, a.y_range.start + a.view.arrow_margin];
  const y1 = z.map((v, k) => Math.min(top, Math.max(bottom, v + a.view.arrow_scale * g[k])));
  a.probs.data = { x, p, label: p.map((v) => v.toFixed(3)), is_true: x.map((k) => (k === y ? 1 : 0)) };
  a.neg_grad.data = {
    x, g, y0: z, y1,
    x_arrow: x.map((k) => k + a.view.arrow_dx),
    head: y1.map((v, k) => {
      const length = Math.abs(v - z[k]);
      return length < a.view.min_arrow ? 0 : Math.min(a.view.head, a.view.head_per_unit * length);
    }),
  };
  a.settings.data = { T: [T], y: [y] };
  a.labels.data = { x, z, text: z.map((v) => v.toFixed(2)) };
  const html = render_readouts(state, a.t);
  for (const [key, div] of Object.entries(a.divs)) {
    show(div, key in html ? html[key] : status, a.index);
  }
}

function set_logits(a, z) {
  a.logits.data = { ...a.logits.data, z };
}

const ACTIONS = {
  // Every mouse move of a drag: the tool has moved the grabbed point in place; keep it on the axis. Past
  // the frame's edge the tool stops following the pointer, so put the point at the edge it ran to.
  pan(a, ev) {
    const z = a.logits.data.z;
    const [lo, hi] = drag_window(a);
    let clamped = clamp_in_place(a, z);
    for (const k of a.logits.selected.indices) {
      if (ev.y > a.y_range.end && z[k] !== hi) { z[k] = hi; clamped = true; }
      if (ev.y < a.y_range.start && z[k] !== lo) { z[k] = lo; clamped = true; }
    }
    if (clamped) a.logits.change.emit();
    const at_edge = a.logits.selected.indices.some((k) => z[k] === lo || z[k] === hi);
    recompute(a, at_edge ? a.t.clamped : "");
  },
  // The logits changed as a whole: end of a drag, a button, or Python. A point deleted with Backspace
  // (the drawing tool's own shortcut) comes back: a lesson never loses a class.
  data(a) {
    const z = Array.from(a.logits.data.z);
    if (z.length !== a.names.length) {
      set_logits(a, Array.from(a.labels.data.z));
      return;
    }
    fit_window(a, z);
    if (clamp_in_place(a, z)) set_logits(a, z);
    else recompute(a);
  },
  // A tap selects a point; clearing it keeps the next drag from moving two points at once.
  tap(a) {
    a.logits.selection_manager.clear();
  },
  controls(a) {
    recompute(a);
  },
  add_one(a) {
    const z = Array.from(a.logits.data.z, (v) => v + 1);
    if (Math.max(...z) > a.limit) {
      show(a.divs.status, a.t.at_limit.replace("{limit}", String(a.limit)), a.index);
      return;
    }
    set_logits(a, z);
  },
  reset(a) {
    a.y_range.setv({ start: a.initial_range[0], end: a.initial_range[1] });
    set_logits(a, Array.from(a.initial));
  },
};

// One callback serves every trigger, told apart by what fired it: a model whose property changed, or an
// event (pan, tap, a button's click) with the model it came from.
function action_of(a, obj) {
  if (obj === a.logits) return "data";
  if (obj === a.temperature || obj === a.true_class) return "controls";
  if (obj.event_name === "button_click") return obj.origin === a.add_one ? "add_one" : "reset";
  return obj.event_name;
}

export default (args, obj, data, context) => {
  const a = { ...args, index: context.index };
  ACTIONS[action_of(a, obj)](a, obj);
};
