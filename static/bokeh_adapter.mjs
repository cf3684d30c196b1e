// Every BokehJS internal the page relies on, in one place. Bokeh's public API has no way to reach a model's
// view, to set a Div's text without laying out the whole page, or to say that a source's columns changed in
// place; the page does these here and nowhere else, so a Bokeh upgrade breaks in this file.
// tests/browser/test_bokeh_adapter.py tests each assumption below by the name of its function.

const VIEWS = new WeakMap(); // model → its view, while that view is in the page: find_one walks every view

/** The view of `model` in this page (`context.index`: ViewManager.find_one). */
function view_of(page, model) {
  const known = VIEWS.get(model);
  if (known?.el?.isConnected) return known;
  const view = page.index?.find_one(model) ?? null;
  if (view) VIEWS.set(model, view);
  return view;
}

/** The element a Div draws its HTML into (MarkupView.markup_el), or null before it is drawn. */
function markup_of(page, div) {
  return view_of(page, div)?.markup_el ?? null;
}

/** The shadow root a widget draws into (DOMView.shadow_el): events from inside a Div's HTML arrive there. */
function shadow_of(page, model) {
  return view_of(page, model)?.shadow_el ?? null;
}

/** The element that holds a model's view (DOMView.el). */
function element_of(page, model) {
  return view_of(page, model)?.el ?? null;
}

/** Set a Div's HTML without Bokeh's re-layout. A Div whose text changes lays out the whole page again
 * (MarkupView walks up to the root: 40 ms per drag frame); a readout's box does not depend on its text
 * (static/layout.css), so the HTML goes into the element directly (`write(el)`) and the model takes the text
 * silently, so that a view Bokeh draws again shows it too. `quick` (a live frame) leaves the model's text to
 * the gesture's last frame. A Div not drawn yet takes the text the ordinary way. */
function set_markup(page, div, html, write, quick = false) {
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
function held_points(source) {
  return source.selected.indices;
}

/** Tell the figure that the source's columns changed in place (the tool's own way: ColumnarDataSource.change). */
function changed_in_place(source) {
  source.change.emit();
}

/** Forget the selection, so that the next drag moves one point (SelectionManager.clear). */
function clear_selection(source) {
  source.selection_manager.clear();
}

/** A figure as a canvas of its pixels (PlotView.export). */
function figure_canvas(page, fig) {
  return view_of(page, fig).export("png", true).canvas;
}

/** Take a figure out of the Tab order: Bokeh makes its canvas's event layer focusable for its tools' keys
 * (CanvasView.events_el), and the page's figures take none (the logit inputs are the keyboard's way). */
function untabbable(page, fig) {
  const el = view_of(page, fig)?.canvas_view?.events_el;
  if (el && el.tabIndex !== -1) el.tabIndex = -1;
}

/** The model a UI event came from: a button's click names its button as `origin`. */
function event_origin(obj) {
  return obj.event_name === "button_click" ? obj.origin : obj;
}
