"""Read and drive the explainer page like a learner: named Bokeh models, mouse drags, control changes.

Relies only on the testing contract of shared/DESIGN.md (named sources and controls).
"""

import time

FIND = """(name) => {
  for (const d of Bokeh.documents) for (const m of d._all_models.values()) {
    if (m.name === name) return m;
    if (m.css_classes && m.css_classes.includes && m.css_classes.includes(name)) return m;
  }
  return null; }"""

VIEWS = """() => {
  const out = [];
  const walk = (v) => { out.push(v); for (const c of (v.children ? v.children() : [])) walk(c); };
  for (const r of Bokeh.index.roots ?? Object.values(Bokeh.index)) walk(r);
  return out; }"""


def wait_ready(pg, timeout=30000):
    """Wait until the document is rendered and the logit points have screen positions."""
    pg.wait_for_function(f"() => window.Bokeh && Bokeh.documents.length > 0 && ({FIND})('logits') !== null",
                         timeout=timeout)
    pg.wait_for_function(f"() => {{ const v = ({VIEWS})().find(v => v.model && v.model.type === 'GlyphRenderer'"
                         " && v.model.data_source.name === 'logits'); return v && v.glyph.sx && v.glyph.sx.length; }",
                         timeout=timeout)


def data(pg, name):
    """A ColumnDataSource's columns as lists."""
    return pg.evaluate(f"(n) => {{ const m = ({FIND})(n); const o = {{}};"
                       " for (const [k, v] of m.data.entries ? m.data.entries() : Object.entries(m.data))"
                       " o[k] = Array.from(v); return o; }", name)


def prop(pg, name, attr):
    return pg.evaluate(f"([n, a]) => ({FIND})(n)[a]", [name, attr])


def exists(pg, name):
    return pg.evaluate(f"(n) => ({FIND})(n) !== null", name)


def text(pg, css_class):
    """The text a readout shows (its HTML with the tags taken out)."""
    return pg.evaluate(f"(n) => {{ const d = document.createElement('div'); d.innerHTML = ({FIND})(n).text;"
                       " return d.textContent; }", css_class)


def html(pg, css_class):
    return pg.evaluate(f"(n) => ({FIND})(n).text", css_class)


def point_xy(pg, k):
    """Viewport position of logit k's point, once the glyph has mapped the current data to the screen."""
    handle = pg.wait_for_function(f"""(k) => {{
      const v = ({VIEWS})().find(v => v.model && v.model.type === 'GlyphRenderer'
                                   && v.model.data_source.name === 'logits');
      const n = v.model.data_source.get_length();
      const z = v.model.data_source.data.z;
      const mapped = v.glyph.sx && v.glyph.sx.length === n && v.glyph.y[k] === z[k];
      if (!mapped || !Number.isFinite(v.glyph.sy[k])) return null;
      const rect = v.parent.canvas_view.el.getBoundingClientRect();
      return [rect.left + v.glyph.sx[k], rect.top + v.glyph.sy[k]]; }}""", arg=k)
    return handle.json_value()


def frame_box(pg, figure_name):
    """Viewport box (left, top, right, bottom) of a figure's plotting frame."""
    return pg.evaluate(f"""(n) => {{
      const v = ({VIEWS})().find(v => v.model && v.model.name === n);
      const r = v.canvas_view.el.getBoundingClientRect(), f = v.frame.bbox;
      return [r.left + f.left, r.top + f.top, r.left + f.right, r.top + f.bottom]; }}""", figure_name)


SETTLED = f"""() => {{
  const find = {FIND};
  const z = Array.from(find('logits').data.z), shown = Array.from(find('point_labels').data.z);
  const s = find('settings').data;
  return z.length === shown.length && z.every((v, k) => v === shown[k])
      && s.T[0] === 10 ** find('temperature').value && s.y[0] === Number(find('true_class').value); }}"""


def settled(pg, timeout=5000):
    """Wait until the page has recomputed for its current logits and controls (no fixed sleep)."""
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
    """Press a named button as a person would: a real mouse click on it."""
    box = pg.evaluate(f"""(n) => {{
      const m = ({FIND})(n); const v = Bokeh.index.find_one ? Bokeh.index.find_one(m)
                : ({VIEWS})().find(v => v.model === m);
      const r = (v.button_el ?? v.el).getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2]; }}""", name)
    pg.mouse.click(*box)


def set_value(pg, name, value):
    """Set a control's value from script (the contract: same effect as a person using it)."""
    pg.evaluate(f"([n, v]) => {{ ({FIND})(n).value = v; }}", [name, value])
    settled(pg)


def wait_until(predicate, timeout=5.0):
    """Poll a Python-side condition (the served lesson) until it holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition did not hold in time")
        time.sleep(0.02)
