// Browser glue: turns the learner's gesture into new figure data, with the maths from softmax.mjs.
// One CustomJS per trigger runs this module with args.action naming the trigger (see app/document.py).
// Only `logits` and the two controls travel to Python (once per gesture); every source written here is
// syncable=False, so a drag streams nothing to the server.
import { softmax, logsumexp, cross_entropy, grad_logits, entropy } from "./softmax.mjs";
import { render_readouts } from "./readouts.mjs";

function temperature(a) {
  return 10 ** a.temperature.value;
}

function true_class(a) {
  return Number(a.true_class.value);
}

function drag_window(a) {
  return [a.y_range.start + a.view.pad, a.y_range.end - a.view.pad];
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
  const [lo, hi] = drag_window(a);
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
    loss: cross_entropy(z, y, T),
    entropy_bits: entropy(p, 2),
    lse: logsumexp(z.map((v) => v / T)),
  };
  a.probs.data = {
    x, p,
    label: p.map((v) => v.toFixed(3)),
    is_true: x.map((k) => (k === y ? 1 : 0)),
  };
  a.neg_grad.data = {
    x, g,
    y0: z,
    y1: z.map((v, k) => v + a.view.arrow_scale * g[k]),
    head: g.map((v) => (Math.abs(a.view.arrow_scale * v) < a.view.min_arrow ? 0 : a.view.head)),
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
  // Every mouse move of a drag: the tool has moved the point in place; keep it on the axis and redraw.
  pan(a) {
    const z = a.logits.data.z;
    const clamped = clamp_in_place(a, z);
    recompute(a, clamped ? a.t.clamped : "");
  },
  // The logits changed as a whole: end of a drag, a button, or Python. Clamp once more and sync if needed.
  data(a) {
    const z = Array.from(a.logits.data.z);
    fit_window(a, z);
    if (clamp_in_place(a, z)) set_logits(a, z);
    else recompute(a);
  },
  // A tap selects a point, and Backspace would then delete it: a lesson never loses a class.
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

export default (args, obj, data, context) => {
  ACTIONS[args.action]({ ...args, index: context.index });
};
