// Every BokehJS internal the page relies on, in one place. Bokeh's public API has no way to reach a model's
// view, to set a Div's text without laying out the whole page, or to say that a source's columns changed in
// place; the page does these here and nowhere else, so a Bokeh upgrade breaks in this file.
// tests/browser/test_bokeh_adapter.py tests each assumption below by the name of its function.

// What the adapter keeps, on the window rather than in the module: BokehJS compiles this module anew for a
// trigger that fires before its first compile is done (static/lesson.mjs), and a change to Bokeh's methods made
// by one copy must see what another copy registers. The changes sit on prototypes shared by every Bokeh view in
// the window (a notebook's other cells, a course page's own plots): each applies to a view under one of the
// explainer's `roots` and leaves any other view to Bokeh's own method.
const KEPT = (globalThis.__softmax_explainer_bokeh ??= {
  roots: new WeakSet(), // the root models of the explainer's documents
  views: new WeakMap(), // model → its view, while that view is in the page: find_one walks every view
  mine: new WeakSet(), // views found to be under one of them: a view's parents never change
  panels: new WeakMap(), // plot view → the models its side panels show and the generation they were measured at
  steady: new WeakSet(), // plot views whose paints are in a gesture
  measured: 0, // a new generation whenever a font loads: every label's size may have changed with it
  deferring: null, // the root view whose layout waits for the end of `one_layout`'s change, and whether one is due
  due: false,
  redrawn: null, // the root view of a widget Bokeh is drawing again, and the roots whose layout is due after it
  queued: new WeakSet(),
});

/** Whether a view is the explainer's: it or one of its parents (a renderer's plot, a plot's layout) is a root's. */
function owned(view) {
  if (KEPT.mine.has(view)) return true;
  for (let v = view; v; v = v.parent) {
    if (KEPT.roots.has(v.model)) {
      KEPT.mine.add(view);
      return true;
    }
  }
  return false;
}

/** Make `fig`'s document root the explainer's: the page's changes to Bokeh apply under it (View.parent up to the
 * root view). Before any of them, at the first layout. */
export function own(page, fig) {
  let v = view_of(page, fig);
  while (v?.parent) v = v.parent;
  if (v) KEPT.roots.add(v.model);
}

/** The view of `model` in this page (`context.index`: ViewManager.find_one). */
function view_of(page, model) {
  const known = KEPT.views.get(model);
  if (known?.el?.isConnected) return known;
  const view = page.index?.find_one(model) ?? null;
  if (view) KEPT.views.set(model, view);
  return view;
}

/** The element a Div draws its HTML into (MarkupView.markup_el), or null before it is drawn. */
export function markup_of(page, div) {
  return view_of(page, div)?.markup_el ?? null;
}

/** The shadow root a widget draws into (DOMView.shadow_el): events from inside a Div's HTML arrive there. */
export function shadow_of(page, model) {
  return view_of(page, model)?.shadow_el ?? null;
}

/** The element that holds a model's view (DOMView.el). */
export function element_of(page, model) {
  return view_of(page, model)?.el ?? null;
}

/** Set a Div's HTML without Bokeh's re-layout. A Div whose text changes lays out the whole page again
 * (MarkupView walks up to the root: 40 ms per drag frame); a readout's box does not depend on its text
 * (static/layout.css), so the HTML goes into the element directly (`write(el)`) and the model takes the text
 * silently, so that a view Bokeh draws again shows it too. `quick` (a live frame) leaves the model's text to
 * the gesture's last frame. A Div not drawn yet takes the text the ordinary way. */
export function set_markup(page, div, html, write, quick = false) {
  const el = markup_of(page, div);
  if (el === null) {
    if (div.text !== html) div.text = html;
    return null;
  }
  write(el);
  if (!quick && div.text !== html) div.setv({ text: html }, { silent: true });
  return el;
}

/** The points the PointDrawTool holds in a drag (the source's selection). */
export function held_points(source) {
  return source.selected.indices;
}

/** Let the figure's drag tool (the logits' PointDrawTool) move its points, or not (Tool.active: the toolbar
 * routes no gesture to an inactive tool). */
export function set_draggable(page, fig, on) {
  for (const tool of fig.toolbar.tools) if (tool.active !== on) tool.active = on;
}

/** A figure's inner width in px, 0 before its first layout (reading a property never set throws). */
export function inner_width_of(fig) {
  return fig.properties.inner_width.is_unset ? 0 : fig.inner_width;
}

/** The interval between the ticks `ticker` gives from lo to hi when asked for about n of them (a BasicTicker's
 * AdaptiveTicker.get_interval: 1, 2 or 5 times a power of ten, the nearest to n ticks; a method of the model). */
export function tick_interval(ticker, lo, hi, n) {
  return ticker.get_interval(lo, hi, n);
}

/** Paint a figure again on cleared canvases (CanvasView.primary and .overlays, PlotView.request_repaint). A
 * figure at a fractional position never covers its canvas's first row and column whole, and a repaint does not
 * clear them: a new theme would keep the old one's light line along the figure's top and left. */
export function repaint_clean(page, fig) {
  const v = view_of(page, fig);
  if (!v) return;
  for (const layer of [v.canvas_view.primary, v.canvas_view.overlays]) {
    if (layer) layer.canvas.width = layer.canvas.width; // setting a canvas's width clears its bitmap
  }
  v.request_repaint();
}

/** A point pressed and held still before it moves is still dragged. Bokeh turns a pointer held still for 300 ms
 * into a press (UIGestures.press_threshold, one for every plot in the window), and a press never becomes a pan: a
 * learner who holds a point first, or a busy page that handles the first move late, would drag nothing. No tool
 * of the figure takes a press, so its canvas starts no press timer (UIGestures._start_timeout, on its own
 * gestures alone). */
export function hold_then_drag(page, fig) {
  const gestures = view_of(page, fig)?.canvas_view?.ui_event_bus?.ui_gestures;
  if (gestures && typeof gestures._start_timeout === "function" && !Object.hasOwn(gestures, "_start_timeout")) {
    gestures._start_timeout = function () {};
  }
}

/** A glyph's or label's scalar property as a value: Bokeh keeps one that Python set as a spec ({value: …}). */
export function scalar(property) {
  return property !== null && typeof property === "object" && "value" in property ? property.value : property;
}

/** Tell the figure that the source's columns changed in place (the tool's own way: ColumnarDataSource.change). */
export function changed_in_place(source) {
  source.change.emit();
}

/** Forget the selection, so that the next drag moves one point (SelectionManager.clear). */
export function clear_selection(source) {
  source.selection_manager.clear();
}

/** A figure as a canvas of its pixels (PlotView.export). */
export function figure_canvas(page, fig) {
  return view_of(page, fig).export("png", true).canvas;
}

/** A figure as an SVG element of its shapes and texts, in CSS pixels (PlotView.export("svg"): Bokeh paints it
 * once more into its canvas2svg context, SVGRenderingContext2D, whose root `get_svg` gives; the page's own
 * canvases are not touched). */
export function figure_svg(page, fig) {
  return view_of(page, fig).export("svg", false).ctx.get_svg();
}

/** A figure's frame as last laid out, "WxH", or "" before its first layout (a closed view's figure has no view
 * yet, and reading a size Bokeh never set throws). */
export function frame_size(fig) {
  const { inner_width, inner_height } = fig.properties;
  return inner_width.is_unset || inner_height.is_unset ? "" : `${fig.inner_width}x${fig.inner_height}`;
}

/** Take a figure out of the Tab order: Bokeh makes its canvas's event layer focusable for its tools' keys
 * (CanvasView.events_el), and the page's figures take none (the logit inputs are the keyboard's way). A click
 * still focuses it, and Bokeh's sheet in the canvas's own shadow root rings it then (`.bk-events:focus`, a
 * dotted line around the plot after every drag): a ring on what no key reaches is taken off. */
export function untabbable(page, fig) {
  const el = view_of(page, fig)?.canvas_view?.events_el;
  if (el && el.tabIndex !== -1) el.tabIndex = -1;
  if (el && el.style.outline !== "none") el.style.outline = "none";
}

/** Run `change`, which sets the explainer's models, with its layout computed once at the end rather than at every
 * property it sets. Bokeh lays the page out again, synchronously, for each change that may move a box: the view
 * walks up to its layout root, which updates and computes the whole layout (LayoutDOMView.invalidate_layout). A
 * new look sets hundreds of properties, each such a layout: lecture mode took 1.5 s at the default lesson, most
 * of it measuring tick labels again and again. While `change` runs, the explainer's root view notes that a layout
 * is due instead of passing it up, and does it once when the outermost `change` is done (none if nothing asked).
 * `change` must read no size (a box, a figure's width): they are the old layout's until it returns. */
export function one_layout(page, change) {
  const root = view_of(page, page.a.root);
  if (!root) return change();
  quiet_layouts(root);
  const outer = KEPT.deferring;
  KEPT.deferring = root;
  if (!outer) KEPT.due = false; // inside another one_layout, a layout it noted stays due
  try {
    return change();
  } finally {
    KEPT.deferring = outer;
    if (KEPT.due && !outer) root.invalidate_layout.bokeh.call(root);
  }
}

/** The layout patches `one_layout` relies on, on the prototypes of the root's view and of every widget's. A widget
 * drawn again (LayoutDOMView.rerender: a button's new label, a select's new title) computes the whole layout from
 * its root, and a button does it after `change` has returned, once its label's view is built: a new language
 * laid the page out 44 times. The root's layout due from a widget drawn again is computed once, after the task's
 * other scripts (a microtask, before anything is painted). */
function quiet_layouts(root) {
  const proto = owner_of(root, "invalidate_layout");
  if (!proto.invalidate_layout.quiet) {
    const invalidate = proto.invalidate_layout;
    proto.invalidate_layout = function () {
      if (KEPT.deferring === this) KEPT.due = true;
      else invalidate.call(this);
    };
    proto.invalidate_layout.quiet = true;
    proto.invalidate_layout.bokeh = invalidate;
  }
  const layout = owner_of(root, "compute_layout");
  if (!layout.compute_layout.quiet) {
    const compute = layout.compute_layout;
    layout.compute_layout = function () {
      if (KEPT.deferring === this) KEPT.due = true;
      else if (KEPT.redrawn === this) {
        if (KEPT.queued.has(this)) return;
        KEPT.queued.add(this);
        queueMicrotask(() => {
          KEPT.queued.delete(this);
          compute.call(this);
        });
      } else compute.call(this);
    };
    layout.compute_layout.quiet = true;
  }
  const widget = owner_of(root, "rerender");
  if (!widget.rerender.quiet) {
    const rerender = widget.rerender;
    widget.rerender = function () {
      if (!owned(this)) return rerender.call(this);
      let top = this;
      while (top.parent) top = top.parent;
      const outer = KEPT.redrawn;
      KEPT.redrawn = top;
      try {
        rerender.call(this);
      } finally {
        KEPT.redrawn = outer;
      }
    };
    widget.rerender.quiet = true;
  }
}

// The prototype in obj's chain that holds `name` itself: where a patch of Bokeh's method goes.
function owner_of(obj, name) {
  while (obj && !Object.hasOwn(obj, name)) obj = Object.getPrototypeOf(obj);
  return obj;
}

/** Leave alone the styles a frame does not change. Bokeh writes each renderer's sheet of CSS variables again at
 * every paint, empty or not (DOMComponentView.reposition, _update_css_variables: InlineStyleSheet._update sets the
 * `<style>`'s text): a sheet given the text it holds is left as it is. Each scalar visual read asks
 * getComputedStyle for its `--bk-*` variable (VisualProperties._get_css_value), and PlotView.base_font_size asks it
 * for each axis and title at every paint: a read after a renderer moved recalculates the page's styles, which was
 * half the time of a layout with every view open (tests/benchmarks/bench_resize.py). The explainer's looks are its
 * themes' (LOOK, set on the models): nothing of its own sets a `--bk-*` variable, and one a host page sets would
 * override the projector's contrast, so the explainer's visuals read none; a plot's font size is read once a task,
 * as bokeh/bokeh#15205 reads styles after 3.9 (issue #15286). And a glyph renderer's element holds nothing (its
 * glyph is drawn on the canvas), yet Bokeh moves it to the glyph's bounding box at every paint
 * (RendererView.update_position): each bar chart's and curve's box changes in every frame of a T drag, and every
 * move restyled and laid out the page again, about 4 ms of its 25 with the road to language models open
 * (tests/benchmarks/bench_vocabulary_drag.py). Glyph renderers stay where they were first put. On the prototypes of
 * renderers, visuals, plots and glyph renderers, for the explainer's views alone. */
export function quiet_styles(page, fig) {
  const views = view_of(page, fig)?.computed_renderer_views ?? [];
  const glyph = views.find((r) => r.model.type === "GlyphRenderer");
  if (glyph && !glyph.update_position.quiet) {
    const proto = Object.getPrototypeOf(glyph), move = glyph.update_position;
    proto.update_position = function () {
      if (!owned(this)) move.call(this);
    };
    proto.update_position.quiet = true;
  }
  const renderer = views.find((r) => r._css_vars && [...(r.visuals ?? [])][0]);
  if (!renderer) return;
  const component = owner_of(renderer, "_update_css_variables");
  if (component && !component._update_css_variables.quiet) {
    const vars = component._update_css_variables;
    component._update_css_variables = function () {
      if (owned(this) && !Object.hasOwn(this._css_vars, "_update")) kept_when_unchanged(this._css_vars);
      vars.call(this);
    };
    component._update_css_variables.quiet = true;
  }
  const visual = owner_of([...renderer.visuals][0], "_get_css_value");
  if (visual && !visual._get_css_value.quiet) {
    const read = visual._get_css_value;
    visual._get_css_value = function (name) {
      return owned(this.obj) ? "" : read.call(this, name);
    };
    visual._get_css_value.quiet = true;
  }
  const plot = owner_of(view_of(page, fig), "base_font_size");
  const font_size = plot && Object.getOwnPropertyDescriptor(plot, "base_font_size");
  if (font_size?.get && !font_size.get.quiet) {
    let sizes = null; // this task's: plot view → its element's font size
    const get = function () {
      if (!owned(this)) return font_size.get.call(this);
      if (sizes === null) {
        sizes = new Map();
        queueMicrotask(() => { sizes = null; });
      }
      if (!sizes.has(this)) sizes.set(this, font_size.get.call(this));
      return sizes.get(this);
    };
    get.quiet = true;
    Object.defineProperty(plot, "base_font_size", { ...font_size, get });
  }
}

// An owned view's sheet of CSS variables skips a write of the text it holds (on the sheet itself).
function kept_when_unchanged(sheet) {
  const update = sheet._update;
  sheet._update = function (css) {
    if (this.el.textContent !== css) update.call(this, css);
  };
  sheet._update.quiet = true;
}

/** Let the figures' paints in a gesture skip Bokeh's check of their axes and titles for a new size while nothing
 * they show has changed, until `measured_panels`. Before every paint Bokeh measures every tick label of every
 * side panel to see whether the panel must grow (PlotView._invalidate_layout_if_needed →
 * SideLayout.has_size_changed, its text colour read from the page's styles): about 2 ms of a frame of a T drag
 * over ten figures, whose frames move no axis. The check runs as Bokeh's at every paint outside a gesture, and in
 * a gesture until it has run once since the figure, its ranges, its panels or their tickers and formatters last
 * changed, or a font loaded. */
export function steady_panels(page, figs) {
  for (const fig of figs) {
    const view = view_of(page, fig);
    if (!view) continue;
    const proto = Object.getPrototypeOf(view);
    if (!proto._invalidate_layout_if_needed.quiet) {
      const check = proto._invalidate_layout_if_needed;
      proto._invalidate_layout_if_needed = function () {
        const known = KEPT.panels.get(this);
        if (known && KEPT.steady.has(this) && known.at === KEPT.measured && !this._needs_layout) return;
        check.call(this);
        if (known) follow_panels(this, known);
      };
      proto._invalidate_layout_if_needed.quiet = true;
      document.fonts?.addEventListener("loadingdone", () => { KEPT.measured++; });
    }
    if (!KEPT.panels.has(view)) KEPT.panels.set(view, { followed: new WeakSet(), at: -1 });
    KEPT.steady.add(view);
  }
}

/** The gesture is over: the figures' paints check their panels at every paint again, as Bokeh's do. */
export function measured_panels(page, figs) {
  for (const fig of figs) {
    const view = view_of(page, fig);
    if (view) KEPT.steady.delete(view);
  }
}

// What a plot's side panels show: its ranges, the panels and their tickers and formatters. Each model is
// followed once; its change marks the panels unmeasured.
function follow_panels(view, known) {
  const fig = view.model;
  const ranges = [fig.x_range, fig.y_range, ...Object.values(fig.extra_x_ranges ?? {}),
    ...Object.values(fig.extra_y_ranges ?? {})];
  const panels = fig.side_panels.flatMap((panel) => [panel, panel.ticker, panel.formatter]);
  for (const model of [fig, ...ranges, ...panels]) {
    if (!model?.change || known.followed.has(model)) continue;
    known.followed.add(model);
    model.change.connect(() => { known.at = -1; });
  }
  known.at = KEPT.measured;
}

/** Let a slider's own slide leave its track alone. A slide sets the model's value (AbstractSliderView._slide),
 * and Bokeh answers every new value by setting the slider up again (_update_slider → noUiSlider.updateOptions,
 * which rebuilds its range and moves the handle to where the pointer already put it): about 0.5 ms of each
 * frame of a drag of T. A value the slide itself produced is left there; any other (Python's, a link's, the
 * page's own correction in the middle of a slide) moves the handle as Bokeh's does. On the sliders' prototype,
 * for the explainer's sliders alone. */
export function quiet_slides(page, slider) {
  const proto = owner_of(view_of(page, slider), "_slide");
  if (!proto || proto._update_slider.quiet) return;
  const { _slide: slide, _update_slider: update } = proto;
  proto._slide = function (values) {
    if (!owned(this)) return slide.call(this, values);
    this.__slid = this._calc_from(values);
    try {
      slide.call(this, values);
    } finally {
      this.__slid = undefined;
    }
  };
  proto._update_slider = function () {
    if (this.__slid === undefined || this.model.value !== this.__slid) update.call(this);
  };
  proto._update_slider.quiet = true;
}

/** Paint a title's new text. Bokeh builds a title's text anew when it changes (TitleView._init_text, awaited)
 * and asks for the paint before it is built, so a figure kept its old title or key on screen until something
 * else repainted it: the next word's plot, whose glyphs repaint on the overlay level alone, kept "50,000 words"
 * after the Korean vocabulary came. On the titles' prototype, for the explainer's titles alone. */
export function painted_titles(page, fig) {
  const proto = owner_of(view_of(page, fig.title), "_init_text");
  if (!proto || proto._init_text.quiet) return;
  const init = proto._init_text;
  proto._init_text = async function () {
    await init.call(this);
    if (this._has_finished && owned(this)) this.request_paint();
  };
  proto._init_text.quiet = true;
}

/** The model a UI event came from: a button's click names its button as `origin`. */
export function event_origin(obj) {
  return obj.event_name === "button_click" ? obj.origin : obj;
}
