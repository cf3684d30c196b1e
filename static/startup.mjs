// Start-up, links, the server, and what fired the callback. One CustomJS runs this bundle for every trigger
// (app/document.py); `dispatch` names what fired it, and an unknown trigger is an error.

import {
  clear_selection, element_of, event_origin, figure_canvas, figure_svg, frame_size, hold_then_drag, own,
  painted_titles, quiet_slides, quiet_styles, shadow_of, untabbable
} from "./bokeh_adapter.mjs";
import { on_control } from "./controls.mjs";
import { draw, every_figure, link_address, served_home, shown_theme, strings, THREE_FIGURES } from "./draw.mjs";
import { lesson_numbers, wrapped } from "./frame.mjs";
import { end_gesture, on_input_change, on_input_key, on_logits, on_pan, pause, whole } from "./gestures.mjs";
import { framed, tell_height, tell_lesson } from "./host.mjs";
import { now, on_state, on_wire, page_of, same_json } from "./lesson.mjs";
import { link_of, link_pairs, parse_link } from "./link.mjs";
import { caption_text } from "./readouts.mjs";
import { FOLD_QUERIES, on_guess, stored_tour, tour_opened } from "./tour.mjs";

/** Once per page, at the logit figure's first layout; at later layouts of a figure (a new width, lecture mode's
 * height, a lab figure shown) the frame is fitted to them again, once per frame: see `resized`. */
function ready(page) {
  const { a } = page;
  if (!page.listening) {
    page.listening = true;
    listen(page);
  }
  watch_sight(page);
  const figs = every_figure(a);
  const sizes = figs.map(frame_size);
  // A figure not laid out (a closed view's) has no view to find yet: its first layout comes here again.
  figs.forEach((fig, k) => sizes[k] && untabbable(page, fig));
  const fitted = sizes.join();
  own(page, a.figs.logit);
  hold_then_drag(page, a.figs.logit);
  quiet_styles(page, a.figs.logit);
  quiet_slides(page, a.controls.temperature);
  painted_titles(page, a.figs.logit);
  const shadow = shadow_of(page, a.inputs);
  if (shadow && !page.shadows.has(shadow)) {
    page.shadows.add(shadow);
    shadow.addEventListener("keydown", (ev) => on_input_key(page, ev));
    shadow.addEventListener("change", (ev) => on_input_change(page, ev));
  }
  const status = shadow_of(page, a.tour.status);
  if (status && !page.shadows.has(status)) {
    page.shadows.add(status);
    status.addEventListener("click", (ev) => on_guess(page, ev));
  }
  if (!page.drawn) {
    page.drawn = true;
    page.sizes = fitted;
    page.record.opened ??= { ...page.record.valid, notice: "" }; // unless a link was read first
    if (same_json(page.record.valid, a.lesson.state)) draw(page, page.record.valid);
    else a.lesson.state = page.record.valid; // its trigger draws it, as the page's own
    tell_lesson(a, "ready", now(page));
  } else if (!page.gesture && fitted !== page.sizes) {
    page.sizes = fitted;
    draw(page, now(page)); // a new size: the labels and arrows fitted to it (draw.mjs fit_to_figures)
  }
  const inputs = element_of(page, a.inputs);
  if (inputs) inputs.dataset.ready = "1"; // for tests and tools: the page answers keys and links from here on
}

// A layout comes as a burst of size changes (each figure's width and height, one pass after another while the
// readouts and keys drawn at the last size settle): the page fits itself to them once per frame, and draws only
// when a size is new (at start-up, 11 draws of the same page became 3).
function resized(page) {
  if (!page.drawn) return ready(page);
  if (page.fit_due) return;
  page.fit_due = true;
  requestAnimationFrame(() => {
    page.fit_due = false;
    ready(page);
  });
}

// Which readouts are out of sight (scrolled away, or below a phone's fold): a live frame skips them.
function watch_sight(page) {
  if (page.sight) return;
  const { a } = page;
  const boxes = new Map([...Object.values(a.divs), a.inputs].map((div) => [element_of(page, div), div]));
  if (boxes.has(null)) return; // not all drawn yet: the next layout tries again
  page.sight = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) page.unseen.delete(boxes.get(e.target));
      else page.unseen.add(boxes.get(e.target));
    }
  });
  for (const el of boxes.keys()) page.sight.observe(el);
}

function listen(page) {
  const { a } = page;
  // A pointer held on a slider or a point is a gesture in progress until it is up (or this window loses it:
  // a pointer released over a course page around the frame is never seen going up).
  const down = (ev) => {
    if (!ev.isPrimary) return;
    page.pointer_down = true;
    // A press on the logits pauses playing before the point tool picks a point that the next step would move.
    if (page.playing && ev.composedPath().includes(element_of(page, a.figs.logit))) pause(page);
  };
  const up = (ev) => {
    if (!ev.isPrimary) return;
    page.pointer_down = false;
    end_gesture(page);
  };
  window.addEventListener("pointerdown", down, true);
  window.addEventListener("pointerup", up, true);
  window.addEventListener("pointercancel", up, true);
  window.addEventListener("blur", () => {
    page.pointer_down = false;
    end_gesture(page);
  });
  // Playing stops when nobody can see it (another tab, a closed laptop), and stays paused when they come back.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && page.playing) pause(page);
  });
  // theme=auto: the reader switches the system's dark mode, and the page follows at once.
  window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener("change", () => draw(page, now(page)));
  // A phone turned, a window resized: the step's paragraph folds or unfolds (tour.mjs folded), the figure of a
  // function or the loss moves beside the bars or under them (draw.mjs place_beside).
  for (const query of [...FOLD_QUERIES, THREE_FIGURES]) {
    window.matchMedia?.(query).addEventListener("change", () => draw(page, now(page)));
  }
  // A page opened without a link keeps its plain address until the learner changes something; one opened
  // with a link gets it back cleaned (defaults in place of what could not be used). An embedded app's link is
  // its own, not the embedding page's (draw.mjs served_home).
  const link = a.mode === "file" ? location.hash : a.mode === "served" ? served_home(page).link : location.search;
  if (!link.replace(/^[#?]/, "")) {
    page.applied.link = link_of(now(page), a.strings, a.rules);
    // Where the learner was on the guided path, when they come back to the plain address.
    const { step } = stored_tour();
    if (a.mode !== "notebook" && step && step !== now(page).step && step <= a.steps.length) {
      whole(page, { ...now(page), step });
    }
  }
  // A page inside a frame tells its course page how tall it is, whenever that changes (examples/course_page.html
  // and course platforms set the frame's height from it): a learner never scrolls inside a frame. Bokeh's page
  // keeps <body> at the frame's height, so it is the explainer's own element that is watched.
  const root = element_of(page, a.root);
  if (framed(a) && root) {
    new ResizeObserver(() => { // the root's bottom margin too: without it the frame scrolled by 11 px
      tell_height(a, root.getBoundingClientRect().bottom + parseFloat(getComputedStyle(root).marginBottom) + scrollY);
    }).observe(root);
  }
  if (a.mode === "file") {
    page.link_ready = true;
    window.addEventListener("hashchange", () => read_link(page));
    read_link(page);
  }
  // A served page that is the app itself (app/page.py: one explainer for every visitor) reads its query as the
  // exported file reads its hash, and an embedded app the link its bridge names; Python has read the same query,
  // by the same rules, for the session's lesson.
  if (a.mode === "served" && !a.app_path) read_link(page, link);
}

function read_link(page, link = location.hash) {
  const text = link.replace(/^[#?]/, "");
  if (!text) return;
  const [linked] = parse_link(link_pairs(text), now(page).lang, page.a.rules, page.a.strings);
  const s = tour_opened(linked, page.a.steps, page.a.rules, page.a.strings);
  page.applied.link = null; // write the cleaned link back, even when the lesson itself does not change
  page.record.opened = { ...s, notice: "" }; // a new link is a new question: "reset everything" goes back to it
  whole(page, s);
}

// "Copy link": the lesson's link as its address (draw.mjs link_address).
export function copy_link(page) {
  const { a } = page;
  const url = link_address(page, link_of(now(page), a.strings, a.rules));
  const say = (key) => {
    page.record.notice = `${key}:${url}`;
    draw(page, now(page));
  };
  // The link shows at once; the clipboard may ask for permission, or never answer (file pages, some browsers).
  say("link_shown");
  navigator.clipboard?.writeText(url).then(() => say("link_copied"), () => {});
}

// The two figures side by side, and under them a caption that says what they show (T, ε, K, the true class,
// the loss), in the theme's colours: a slide made from the PNG needs no note of its settings.
export function download_png(page) {
  const layers = Object.values(page.a.figs).map((fig) => figure_canvas(page, fig));
  const out = document.createElement("canvas");
  out.width = layers.reduce((w, c) => w + c.width, 0);
  const ctx = out.getContext("2d");
  const { lines, size, fitted, band, theme, font } = caption_of(page, out.width, ctx);
  out.height = Math.max(...layers.map((c) => c.height)) + band; // which resets the context's font
  ctx.fillStyle = theme.bg;
  ctx.fillRect(0, 0, out.width, out.height);
  let x = 0;
  for (const layer of layers) {
    ctx.drawImage(layer, x, 0);
    x += layer.width;
  }
  ctx.font = font(fitted);
  ctx.fillStyle = theme.fg;
  ctx.textBaseline = "middle";
  lines.forEach((line, i) => ctx.fillText(line, size, out.height - band + (0.45 + 1.3 * (i + 0.5)) * size));
  out.toBlob((blob) => save(blob, "softmax-explainer.png"));
}

// The same figures and caption as SVG, for a print or a paper: Bokeh paints each figure once more into an SVG
// context (the page stays canvas), and their <svg> elements sit side by side in one, the caption's lines as text.
export function download_svg(page) {
  const NS = "http://www.w3.org/2000/svg";
  const parts = Object.values(page.a.figs).map((fig) => figure_svg(page, fig));
  const widths = parts.map((svg) => parseFloat(svg.getAttribute("width")));
  const width = widths.reduce((w, x) => w + x, 0);
  const { lines, size, fitted, band, theme, font } = caption_of(page, width, document.createElement("canvas")
    .getContext("2d"));
  const height = Math.max(...parts.map((svg) => parseFloat(svg.getAttribute("height")))) + band;
  const make = (name, attributes) => {
    const el = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
    return el;
  };
  const out = make("svg", { width, height, viewBox: `0 0 ${width} ${height}` });
  out.append(make("rect", { width, height, fill: theme.bg }));
  let x = 0;
  parts.forEach((svg, k) => {
    svg.setAttribute("x", String(x));
    out.append(svg);
    x += widths[k];
  });
  lines.forEach((line, i) => {
    const text = make("text", { x: size, y: height - band + (0.45 + 1.3 * (i + 0.5)) * size, fill: theme.fg,
      "dominant-baseline": "middle", style: `font: ${font(fitted)}` });
    text.textContent = line;
    out.append(text);
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(out)}\n`;
  save(new Blob([xml], { type: "image/svg+xml" }), "softmax-explainer.svg");
}

// The saved figures' caption for an image `width` wide, its lines as `ctx` measures them: a long class name takes
// it onto more lines (broken between its parts) before its text gets smaller.
function caption_of(page, width, ctx) {
  const { a } = page;
  const s = now(page);
  const caption = caption_text(lesson_numbers(s), s, strings(page, s));
  const size = parseFloat(a.sizes[s.lecture ? "lecture" : "normal"].labels) * 1.3;
  const font = (px) => `${px}px ${a.view.font}`;
  ctx.font = font(size);
  const room = width - 2 * size;
  const lines = wrapped(caption, room, (text) => ctx.measureText(text).width);
  const fitted = Math.min(size, size * room / Math.max(...lines.map((line) => ctx.measureText(line).width)));
  const band = Math.ceil((0.9 + 1.3 * lines.length) * size);
  return { lines, size, fitted, band, theme: a.themes[shown_theme(s)], font };
}

function save(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// ---- the server: lost and back ---------------------------------------------------------------------------

// A served page whose server goes away keeps working (every frame is computed here) and says so; once the
// server answers again it offers the way back: the page's own link, which holds the whole lesson.
const POLL_MS = 2000;

function lost(page) {
  if (page.a.mode !== "served" || page.connection) return;
  page.connection = "lost";
  draw(page, now(page));
  // Back is an app process's answer: the app's metadata (Bokeh's, answered by the app's server alone, opening no
  // session; app/server.py lets any page read it, so an embedded app asks too). A proxy's own answer with no
  // process behind it (nginx's 502) is no answer.
  const alive = `${served_home(page)?.url ?? `${location.origin}${location.pathname}`}/metadata`;
  const poll = () => fetch(alive, { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((meta) => {
      if (meta?.url === undefined) throw new Error("not back");
      page.connection = "back";
      draw(page, now(page));
    })
    .catch(() => setTimeout(poll, POLL_MS));
  setTimeout(poll, POLL_MS);
}

// ---- what fired the callback ------------------------------------------------------------------------------

// One callback serves every trigger, told apart by what fired it: a model whose property changed, an event
// (pan, tap, a button's click) with the model it came from, or a document event (the document, and the event
// as `data`).
function dispatch(page, obj, data) {
  const { a } = page;
  if (obj === a.lesson) return on_state(page);
  if (obj === a.wire) return on_wire(page);
  if (data?.event_name === "connection_lost") return lost(page);
  if (obj === a.sources.logits) return on_logits(page);
  if (obj === a.figs.logit || obj === a.figs.prob) return resized(page);
  // The lab's figures laid out anew (shown, or a new width): their keys fitted to them, once the page is drawn.
  if (Object.values(a.lab_figs).includes(obj)) return page.drawn ? resized(page) : undefined;
  if (obj.event_name === "pan") return on_pan(page, obj);
  if (obj.event_name === "panend") return end_gesture(page);
  if (obj.event_name === "tap") return clear_selection(a.sources.logits);
  const origin = event_origin(obj);
  const c = a.control_rows.find((row) => a.controls[row.name] === origin);
  if (c) return on_control(page, c);
  throw new Error(`the explainer has no action for ${obj.event_name ?? obj.type ?? String(obj)}`);
}

export default (args, obj, data, context) => {
  dispatch(page_of(args, context), obj, data);
};
