"""The projector look (issue 39): every text and mark measured in the page, against what it is drawn on.

WCAG's contrast ratio (relative luminance of sRGB, (L1 + 0.05) / (L2 + 0.05)) of each colour as it reaches the
screen: a canvas mark's colour at its alpha over its figure's background, an element's text colour at its alpha and
its ancestors' opacity over the first background behind it. Text ≥ 7:1 (WCAG's AAA), marks ≥ 3:1 (non-text
contrast), no line drawn under 1.5 px.
"""

import pytest

from tests.browser import lessonpage as lp

TEXT, MARK, WIDTH = 7.0, 3.0, 1.5
# Every view open: the lab's parts, the calibration and language-model views, every section, a function figure.
EVERYTHING = "theme=projector&z=3,1,0.5&open=table,info,lse&fn=nll&learn=1&sample=1&jacobian=1&naive=1&calib=1&lm=1"

# What every Bokeh figure of the explainer draws, with the colour, alpha and width of each: [kind, what, css colour,
# alpha, width, figure background]. A glyph's vectorised colour is read from its view's resolved values.
MARKS = f"""() => {{
  const out = [];
  const root = Bokeh.index.find_one(({lp.FIND})('explainer'));
  const views = []; const walk = (v) => {{ views.push(v); for (const c of (v.children ? v.children() : [])) walk(c); }};
  walk(root);
  const figs = views.filter((v) => v.model.type === 'Figure' && v.model.visible && v.el.isConnected
                                  && v.el.getBoundingClientRect().height > 0);
  const first = (value) => (value && typeof value === 'object' && 'length' in value ? value[0] : value);
  for (const f of figs) {{
    const m = f.model, bg = m.background_fill_color, name = m.title?.text ?? m.name;
    out.push(['text', `${{name}}: title`, m.title.text_color, 1, 0, bg]);
    for (const a of [...m.left, ...m.below, ...m.right, ...m.above]) {{
      if (!a.visible || !a.type.endsWith('Axis')) continue;
      out.push(['text', `${{name}}: axis label`, a.axis_label_text_color, 1, 0, bg]);
      out.push(['text', `${{name}}: tick labels`, a.major_label_text_color, 1, 0, bg]);
      out.push(['line', `${{name}}: axis`, a.axis_line_color, 1, a.axis_line_width, bg]);
      out.push(['line', `${{name}}: ticks`, a.major_tick_line_color, 1, a.major_tick_line_width, bg]);
    }}
    for (const g of m.center) if (g.type === 'Grid' && g.visible) {{
      out.push(['line', `${{name}}: grid`, g.grid_line_color, g.grid_line_alpha, g.grid_line_width, bg]);
    }}
    for (const r of m.renderers) {{
      if (!r.visible || r.type !== 'GlyphRenderer') continue;
      const data = r.data_source.data ?? {{}};
      if ((r.data_source.get_length?.() ?? 0) === 0) continue;
      const g = r.glyph, what = `${{name}}: ${{g.type}} of ${{r.data_source.name ?? r.name}}`;
      const get = (prop) => {{  // the value, or the first row's where a column gives it
        const p = g.properties[prop];
        if (!p) return undefined;
        const spec = p.get_value();
        if (spec && typeof spec === 'object' && 'field' in spec) return first(data[spec.field]);
        if (spec && typeof spec === 'object' && 'value' in spec) return spec.value;
        return spec;
      }};
      if ('text_color' in g.properties) out.push(['text', what, get('text_color'), get('text_alpha') ?? 1, 0, bg]);
      if ('fill_color' in g.properties) out.push(['fill', what, get('fill_color'), get('fill_alpha') ?? 1, 0, bg]);
      if ('line_color' in g.properties) {{
        out.push(['line', what, get('line_color'), get('line_alpha') ?? 1, get('line_width') ?? 1, bg]);
      }}
    }}
  }}
  return out; }}"""

# Every element with text of its own, shadow roots included: [its text, its colour, the first background behind
# it, and the opacity along the flat tree of each (an element's opacity fades it and everything in it, its
# background included, into the page behind)].
TEXTS = """() => {
  const out = [];
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && getComputedStyle(e).visibility === 'visible'; };
  const up = (e) => e.parentElement ?? e.getRootNode().host ?? null;
  const opacity = (e) => {
    let o = 1;
    for (let x = e; x; x = up(x)) o *= parseFloat(getComputedStyle(x).opacity);
    return o; };
  const behind = (e) => {
    for (let x = e; x; x = up(x)) {
      const c = getComputedStyle(x).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return [c, opacity(x)];
    }
    return ['rgb(255, 255, 255)', 1];
  };
  const root = Bokeh.index.find_one((""" + lp.FIND + """)('explainer')).el;
  const walk = (n) => {
    for (const e of n.querySelectorAll('*')) {
      if (e.shadowRoot) walk(e.shadowRoot);
      // Unseen text (a live region's, the task's rooms laid out unseen) and an inactive control, which WCAG
      // exempts from contrast: its faintness says it cannot be used.
      if (e.closest('[aria-hidden="true"], [disabled]') || ['STYLE', 'SCRIPT'].includes(e.tagName)) continue;
      const own = [...e.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('').trim();
      if (!own || !shown(e)) continue;
      out.push([own.slice(0, 40), getComputedStyle(e).color, opacity(e), ...behind(e)]);
    }
  };
  walk(root.getRootNode());
  return [getComputedStyle(root).backgroundColor, out]; }"""


def rgba(css):
    """(r, g, b, a) in 0..1 from a CSS colour as Bokeh or the browser writes it: #rrggbb, rgb(), rgba(), a name."""
    named = {"white": "#ffffff", "black": "#000000"}
    css = named.get(css, css)
    if css.startswith("#"):
        h = css[1:]
        return (*(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)), int(h[6:8], 16) / 255 if len(h) == 8 else 1.0)
    parts = [float(x) for x in css[css.index("(") + 1:-1].replace("/", ",").split(",")]
    return (*(x / 255 for x in parts[:3]), parts[3] if len(parts) > 3 else 1.0)


def over(fg, alpha, bg):
    return tuple(alpha * f + (1 - alpha) * b for f, b in zip(fg[:3], bg[:3], strict=True))


def luminance(rgb):
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_matches_wcag_reference_values():
    """WCAG 2's own examples: black on white 21:1, and #767676 on white is the grey that just passes 4.5:1."""
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert contrast(rgba("#767676")[:3], (1, 1, 1)) == pytest.approx(4.54, abs=0.01)


def failures(pg):
    """What the page draws below its contrast or width, as (what, measured) pairs."""
    bad = []
    for kind, what, color, alpha, width, bg in pg.evaluate(MARKS):
        if color is None or alpha is None or alpha == 0:
            continue  # nothing drawn
        back = rgba(bg)
        seen = over(rgba(color), rgba(color)[3] * alpha, back)
        if kind == "fill" and alpha < 0.5:
            continue  # a tinted area (a band behind the marks), not a mark of its own
        if seen == back[:3]:
            continue  # a rim in the background's colour: the gap between marks
        need = TEXT if kind == "text" else MARK
        if contrast(seen, back[:3]) < need:
            bad.append((what, kind, color, round(contrast(seen, back[:3]), 2)))
        if kind == "line" and width < WIDTH:
            bad.append((what, "width", width))
    page, texts = pg.evaluate(TEXTS)
    page = rgba(page)
    for text, color, opacity, bg, bg_opacity in texts:
        c, b = rgba(color), rgba(bg)
        seen = over(over(c, c[3], b), opacity, page)
        under = over(b, b[3] * bg_opacity, page)
        if contrast(seen, under) < TEXT:
            bad.append((text, "text", color, round(opacity, 2), bg, round(contrast(seen, under), 2)))
    return bad


def test_every_text_and_mark_is_legible_on_a_projector(new_page, exported):
    """theme=projector with every view open, then with lecture mode on too: every text at ≥ 7:1 against what is
    behind it, every mark at ≥ 3:1, no line under 1.5 px."""
    p = new_page(block_network=True, viewport=(1440, 1000))
    p.pg.goto(f"{exported.as_uri()}#{EVERYTHING}")
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    assert lp.state(p.pg)["theme"] == "projector"
    bad = failures(p.pg)
    assert bad == [], "\n".join(map(str, bad))
    lp.set_value(p.pg, "lecture", True, attr="active")
    lp.wait_state(p.pg, "(s) => s.lecture")
    lp.painted(p.pg)
    bad = failures(p.pg)
    assert bad == [], "\n".join(map(str, bad))
    assert p.errors == []
