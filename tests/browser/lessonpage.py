"""Read and drive the explainer page like a learner: named Bokeh models, mouse drags, control changes.

Relies only on the team's testing contract (named sources, controls and readout classes) and on the
`lesson` model that holds the page's whole state.
"""

import json
import time

# A model by its name or CSS class. The contract gives a control and a source one name ("jacobian": the toggle
# that shows the view, and the heatmap's cells): FIND takes the control, FIND_SOURCE the source.
FIND = """(name) => {
  for (const d of Bokeh.documents) for (const m of d._all_models.values()) {
    if (m.name === name && m.type !== "ColumnDataSource") return m;
    if (m.css_classes && m.css_classes.includes && m.css_classes.includes(name)) return m;
  }
  for (const d of Bokeh.documents) for (const m of d._all_models.values()) if (m.name === name) return m;
  return null; }"""
FIND_SOURCE = """(name) => {
  for (const d of Bokeh.documents) for (const m of d._all_models.values()) {
    if (m.name === name && m.type === "ColumnDataSource") return m;
  }
  return null; }"""

VIEWS = """() => {
  const out = [];
  const walk = (v) => { out.push(v); for (const c of (v.children ? v.children() : [])) walk(c); };
  for (const r of Bokeh.index.roots ?? Object.values(Bokeh.index)) walk(r);
  return out; }"""

STATE = f"() => ({FIND})('lesson').state"


def wait_drawn(pg, timeout=30000):
    """Wait until a document is rendered and the points of its `logits` source have screen positions (any
    Bokeh page with such a source: the explainer, or a benchmark's peer)."""
    pg.wait_for_function(f"() => window.Bokeh && Bokeh.documents.length > 0 && ({FIND})('logits') !== null",
                         timeout=timeout)
    pg.wait_for_function(f"() => {{ const v = ({VIEWS})().find(v => v.model && v.model.type === 'GlyphRenderer'"
                         " && v.model.data_source.name === 'logits'); return v && v.glyph.sx && v.glyph.sx.length; }",
                         timeout=timeout)


def wait_ready(pg, timeout=30000):
    """Wait until the explainer is drawn and its own start-up ran (keyboard, links), and it shows its lesson."""
    wait_drawn(pg, timeout)
    pg.wait_for_function(f"() => Bokeh.index.find_one(({FIND})('logit_inputs'))?.el.dataset.ready === '1'",
                         timeout=timeout)
    settled(pg)


def wait_joined(pg, timeout=30000):
    """A served page: wait until its session's wire is joined to the page's (static/session_bridge.mjs `JOINED`), so
    that what the page writes from here on reaches Python. The session's document comes over the websocket after the
    page's explainer is drawn: on a busy server, after `wait_ready` (a text written before the join is not sent; the
    page's answer to it is)."""
    pg.wait_for_function("() => { const w = Bokeh.documents.map((d) => d.get_model_by_name('session_wire'))"
                         ".find(Boolean);"
                         " return w != null && globalThis.__softmax_explainer_joined?.has(w) === true; }",
                         timeout=timeout)


def state(pg):
    """The lesson the page holds (its `lesson` model)."""
    return pg.evaluate(STATE)


def data(pg, name):
    """A ColumnDataSource's columns as lists."""
    return pg.evaluate(f"(n) => {{ const m = ({FIND_SOURCE})(n); const o = {{}};"
                       " for (const [k, v] of m.data.entries ? m.data.entries() : Object.entries(m.data))"
                       " o[k] = Array.from(v); return o; }", name)


def prop(pg, name, attr):
    return pg.evaluate(f"([n, a]) => ({FIND})(n)[a]", [name, attr])


def exists(pg, name):
    return pg.evaluate(f"(n) => ({FIND})(n) !== null", name)


def text(pg, css_class):
    """The text a readout shows on screen (mid-gesture the page writes its element, not yet its model)."""
    return pg.evaluate(f"(n) => {{ const m = ({FIND})(n); const el = Bokeh.index.find_one(m)?.markup_el;"
                       " if (el) return el.textContent;"
                       " const d = document.createElement('div'); d.innerHTML = m.text; return d.textContent; }",
                       css_class)


def html(pg, css_class):
    return pg.evaluate(f"(n) => ({FIND})(n).text", css_class)


def point_xy(pg, k):
    """Viewport position of logit k's point, once the glyph has mapped the current data to the screen and the
    position holds from one frame to the next; the logit figure scrolled into view first, if a control further
    down (the lab's) left it out of sight."""
    pg.evaluate(f"""() => {{ const el = Bokeh.index.find_one(({FIND})('logit_figure')).el;
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight) el.scrollIntoView({{block: 'nearest'}}); }}""")
    handle = pg.wait_for_function(f"""(k) => {{
      const v = ({VIEWS})().find(v => v.model && v.model.type === 'GlyphRenderer'
                                   && v.model.data_source.name === 'logits');
      const n = v.model.data_source.get_length();
      const z = v.model.data_source.data.z;
      const mapped = v.glyph.sx && v.glyph.sx.length === n && v.glyph.y[k] === z[k];
      if (!mapped || !Number.isFinite(v.glyph.sy[k])) return null;
      // The data can be the new one while its screen position is still the last paint's: wait for the paint.
      const want = v.coordinates?.y_scale?.compute(z[k]);
      if (want !== undefined && Math.abs(want - v.glyph.sy[k]) > 0.5) return null;
      const rect = v.parent.canvas_view.el.getBoundingClientRect();
      const at = [rect.left + v.glyph.sx[k], rect.top + v.glyph.sy[k]];
      // The same on two polls in a row (a frame apart): a page still laying out moves the point under the pointer.
      const stable = window.__point_at === `${{k}}:${{at}}`;
      window.__point_at = `${{k}}:${{at}}`;
      return stable ? at : null; }}""", arg=k)
    return handle.json_value()


def logit_axis(pg):
    """[start, end] of the logit figure's vertical axis as the page draws it."""
    return pg.evaluate(f"() => {{ const r = ({FIND})('logit_figure').y_range; return [r.start, r.end]; }}")


def box(pg, name):
    """Viewport box (left, top, right, bottom) of a named model's element."""
    return pg.evaluate(f"""(n) => {{ const v = Bokeh.index.find_one(({FIND})(n));
      const r = v.el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }}""", name)


SETTLED = f"""() => {{
  const find = {FIND};
  const lesson = find('lesson'), s = lesson.state;
  const page = globalThis.__softmax_explainer_pages?.get(lesson);
  const shown = Array.from(find('point_labels').data.z), z = Array.from(find('logits').data.z);
  return page !== undefined && JSON.stringify(page.record.shown) === JSON.stringify(s)
      && JSON.stringify(shown) === JSON.stringify(s.z) && JSON.stringify(z) === JSON.stringify(s.z); }}"""


def painted(pg):
    """Wait two animation frames: what the page changed before is painted."""
    pg.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def settled(pg, timeout=5000):
    """Wait until the page has drawn the lesson it holds (no fixed sleep)."""
    pg.wait_for_function(SETTLED, timeout=timeout)


def drag(pg, k, dy_px, steps=20):
    """Press on logit k's point, move the mouse vertically by dy_px (positive = down), release."""
    x, y = point_xy(pg, k)
    pg.mouse.move(x, y)
    pg.mouse.down()
    for i in range(1, steps + 1):
        pg.mouse.move(x, y + dy_px * i / steps)
    pg.mouse.up()
    settled(pg)


def click(pg, name):
    """Press a named button as a person would: scrolled into view, then a real mouse click on it."""
    where = pg.evaluate(f"""(n) => {{
      const m = ({FIND})(n); const v = Bokeh.index.find_one(m); const el = v.button_el ?? v.el;
      if (el.getBoundingClientRect().bottom > innerHeight || el.getBoundingClientRect().top < 0)
        el.scrollIntoView({{block: 'center'}});
      const r = el.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2]; }}""", name)
    pg.mouse.click(*where)


def set_value(pg, name, value, attr="value"):
    """Set a control's value from script (the contract: same effect as a person using it)."""
    pg.evaluate(f"([n, v, a]) => {{ ({FIND})(n)[a] = v; }}", [name, value, attr])
    settled(pg)


def wait_state(pg, predicate_js, timeout=5000):
    """Wait until the page's lesson satisfies a JavaScript predicate of the state, then until it is drawn."""
    pg.wait_for_function(f"() => ({predicate_js})(({FIND})('lesson').state)", timeout=timeout)
    settled(pg, timeout)


def wait_until(predicate, timeout=5.0):
    """Poll a Python-side condition (the served lesson) until it holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition did not hold in time")
        time.sleep(0.02)


def dumps(value):
    return json.dumps(value)
