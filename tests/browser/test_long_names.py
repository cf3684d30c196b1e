"""Class names as long as the rules allow (app/names.py NAME_MAX), Latin and Hangul, read as a learner reads
them: on the figures' axes each is whole or shortened with "…", never over its neighbour or past its figure,
at 3 and 10 classes, from a phone's width to a wide screen, in lecture mode and on the dark theme; whole in
the table of classes, on the bars' hover, in the true-class picker's options, the logit inputs' titles and the
PNG's caption; the true-class readout and the formula never cut.

The labels are measured as painted: every text the figures' canvases draw is recorded (its transform, font box
and advance), and the tick labels are the texts an axis's formatter gives them.
"""

from urllib.parse import quote

import pytest

from app.names import NAME_MAX
from tests.browser import lessonpage as lp

# The widest Latin letters, a phrase, and Hangul syllables of the page's font (static/fonts: a Korean string's).
LATIN = ["W" * NAME_MAX] + [f"{k} Northern long-eared bat of the Appalachians"[:NAME_MAX] for k in range(1, 10)]
HANGUL = [f"{k} 고양이과 동물 가운데 가장 큰 고양이와 사자를 모두 이르는 부류 이름"[:NAME_MAX] for k in range(10)]
FIGURES = ["logit_figure", "prob_figure", "jacobian_figure", "attention_figure", "router_figure"]

# What the canvases draw from here on: each text with its box's four corners in the canvas's pixels (its font's
# ascent and descent from the baseline the context names, its advance placed by the context's alignment).
RECORD = """() => { window.__painted = null;
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    if (window.__painted) {
      const m = this.measureText(text), t = this.getTransform();
      const left = x - (({ center: m.width / 2, right: m.width, end: m.width })[this.textAlign] ?? 0);
      const [top, bottom] = [y - m.fontBoundingBoxAscent, y + m.fontBoundingBoxDescent];
      const corners = [[left, top], [left + m.width, top], [left + m.width, bottom], [left, bottom]]
        .map(([u, v]) => [t.a * u + t.c * v + t.e, t.b * u + t.d * v + t.f]);
      window.__painted.push({ canvas: this.canvas, text: String(text), corners });
    }
    return fill.call(this, text, x, y, ...rest); }; }"""
# Each figure painted again whole: its class axes' labels as painted, and the canvas they must stay inside.
PAINTED = f"""async (names) => {{ const find = {lp.FIND};
  const views = names.map((n) => Bokeh.index.find_one(find(n)));
  window.__painted = [];
  for (const v of views) if (v.model.visible) v.request_repaint();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const painted = window.__painted; window.__painted = null;
  return views.filter((v) => v.model.visible).map((v) => {{
    const canvas = v.canvas_view.primary.canvas;
    const axes = [...v.model.below, ...v.model.left].filter((a) => a.formatter?.args?.names);
    const labels = axes.flatMap((a) => a.formatter.args.names).filter((t) => t !== '');
    return {{ name: v.model.name, size: [canvas.width, canvas.height], labels,
      painted: painted.filter((p) => p.canvas === canvas && labels.includes(p.text)).map((p) => [p.text, p.corners]) }};
  }}); }}"""
# Until the page has fitted its labels to the layout it now has: the figures' sizes, their class axes' labels,
# angles and fonts the same over three paints in a row.
STEADY = f"""async () => {{ const find = {lp.FIND};
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const snap = () => JSON.stringify({FIGURES!r}.map((n) => {{ const f = find(n);
    return [f.visible, f.inner_width, f.inner_height, ...[...f.below, ...f.left].map((a) =>
      [a.formatter.args?.names, a.major_label_orientation, a.major_label_text_font, a.major_label_text_font_size])];
  }}));
  let last = snap(), same = 0;
  for (let i = 0; i < 300 && same < 3; i++) {{ await frame(); const now = snap(); same = now === last ? same + 1 : 0;
    last = now; }}
  return same >= 3; }}"""
# Every other place that shows a name, as laid out.
TEXTS = f"""() => {{ const find = {lp.FIND};
  const view = (n) => Bokeh.index.find_one(find(n));
  const box = (el) => {{ const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }};
  const cut = (el) => [el.title, el.textContent, el.scrollWidth, el.clientWidth, getComputedStyle(el).textOverflow];
  const py = view('readout-py'), line = py.markup_el.querySelector('.line');
  const formula = view('readout-formula');
  const select = view('true_class').shadow_el.querySelector('select');
  return {{
    py: {{ host: box(py.el), line: box(line), fits: [line.scrollWidth, line.clientWidth],
          name: cut(line.querySelector('.name')) }},
    formula: {{ host: box(formula.el), text: box(formula.markup_el),
               names: [...formula.markup_el.querySelectorAll('.name')].map(cut) }},
    table: [...view('readout-probs').markup_el.querySelectorAll('tbody td:first-child')].map((td) =>
      [td.textContent, td.scrollWidth, td.clientWidth]),
    inputs: [...view('logit_inputs').markup_el.querySelectorAll('label span')].map(cut),
    select: [[...select.options].map((o) => o.textContent), getComputedStyle(select).textOverflow],
  }}; }}"""
# The text of the tooltip shown now (Bokeh puts it in a shadow root of its own, on the document).
TOOLTIP = """() => [...document.querySelectorAll('.bk-Tooltip')].filter((t) => t.checkVisibility())
  .map((t) => t.shadowRoot.textContent).join(' ')"""
# Where a pointer stands over class k's column of the probabilities, 30 % down its frame.
COLUMN = f"""(k) => {{ const f = ({lp.FIND})('prob_figure'), v = Bokeh.index.find_one(f);
  const r = v.canvas_view.el.getBoundingClientRect(), b = v.frame.bbox;
  if (r.top < 0 || r.bottom > innerHeight) v.el.scrollIntoView({{block: 'center'}});
  const s = v.canvas_view.el.getBoundingClientRect();
  return [s.left + b.left + (k - f.x_range.start) / (f.x_range.end - f.x_range.start) * b.width,
          s.top + b.top + 0.3 * b.height]; }}"""


def meet(a, b):
    """Whether two convex quadrilaterals overlap by more than a touch (separating axes)."""
    for quad in (a, b):
        for i in range(4):
            (x0, y0), (x1, y1) = quad[i], quad[(i + 1) % 4]
            nx, ny = y1 - y0, x0 - x1
            length = (nx * nx + ny * ny) ** 0.5
            pa = [(x * nx + y * ny) / length for x, y in a]
            pb = [(x * nx + y * ny) / length for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= 0.01:
                return False
    return True


def shown_as(text, names):
    """The name a label shows: itself whole, or the one it starts when it ends in "…"."""
    if text in names:
        return text
    assert text.endswith("…"), f"a label that is not a whole name must end in '…': {text!r}"
    starts = [n for n in names if n.startswith(text[:-1])]
    assert len(starts) >= 1, (text, names)
    return starts[0]


def check_axes(figures, names, where):
    shortened = 0
    for f in figures:
        painted = f["painted"]
        assert sorted(t for t, _ in painted) == sorted(f["labels"]), (where, f["name"], "each label painted once")
        if f["name"] in ("logit_figure", "prob_figure"):
            assert len(painted) == len(names), (where, f["name"], "every class named on the main figures' axis")
        width, height = f["size"]
        for text, corners in painted:
            shortened += shown_as(text, names) != text
            assert all(-0.5 <= x <= width + 0.5 and -0.5 <= y <= height + 0.5 for x, y in corners), \
                (where, f["name"], text, "past its figure", corners, f["size"])
        touching = [(a[0], b[0]) for i, a in enumerate(painted) for b in painted[i + 1:] if meet(a[1], b[1])]
        assert touching == [], (where, f["name"], touching)
    return shortened


def check_texts(texts, names, y, where):
    full = names[y]
    py = texts["py"]
    assert py["line"][2] <= py["host"][2] + 0.5 and py["fits"][0] <= py["fits"][1] + 1, (where, "p_y runs past", py)
    title, text, scroll, client, overflow = py["name"]
    assert title == text == full and (scroll <= client + 1 or overflow == "ellipsis"), (where, py["name"])
    formula = texts["formula"]
    assert formula["text"][3] <= formula["host"][3] + 0.5, (where, "the formula is cut", formula)
    assert all(n[0] == full and (n[2] <= n[3] + 1 or n[4] == "ellipsis") for n in formula["names"]), (where, formula)
    assert [cell[0] for cell in texts["table"]] == names, (where, texts["table"])
    assert all(scroll <= client + 1 for _, scroll, client in texts["table"]), (where, "a name cut in the table")
    assert [i[0] for i in texts["inputs"]] == names, where
    assert all(i[2] <= i[3] + 1 or i[4] == "ellipsis" for i in texts["inputs"]), (where, texts["inputs"])
    assert texts["select"] == [names, "ellipsis"], (where, texts["select"])


def caption(pg):
    """The lines of the caption under the saved figures, each with its box, and the image's size: the last texts
    drawn, on the image's own canvas."""
    pg.evaluate("() => { window.__painted = []; }")
    with pg.expect_download():
        lp.click(pg, "download_png")
    return pg.evaluate("""() => { const all = window.__painted, last = all.at(-1).canvas; window.__painted = null;
      return all.filter((p) => p.canvas === last).map((p) => [p.text, p.corners, last.width, last.height]); }""")


def hover(pg, k):
    pg.mouse.move(*pg.evaluate(COLUMN, k))
    pg.wait_for_function(f"() => ({TOOLTIP})() !== ''")
    return pg.evaluate(TOOLTIP)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_long_names_are_shortened_on_the_axes_and_whole_everywhere_else(new_page, exported, lang):
    """3 and 10 classes at 375, 1024 and 1440 px, plain and in lecture mode on the dark theme, every class axis
    open (the Jacobian's, attention's and the router's too); on a phone the PNG's caption, whose long name takes it
    onto more lines (broken between its parts, each inside the image) where its text used to shrink. Latin names
    in English and in Spanish, whose labels are longer, by turns on the same page (each language plain and in
    lecture mode, with 3 and with 10 classes)."""
    every = LATIN if lang == "en" else HANGUL
    assert all(len(n) == NAME_MAX for n in every)
    p = new_page(block_network=True, viewport=(1024, 900), accept_downloads=True)
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    p.pg.evaluate(RECORD)
    shortened = 0
    # Never from 10 classes back to 3: attention's heatmap text has a colour per cell, and BokehJS 3.9 then throws
    # "Offset is outside the bounds of the DataView" (ARCHITECTURE.md, checked pitfalls), a bug of its own.
    for K in (3, 10):
        for lecture in (0, 1):
            names, y = every[:K], K - 1
            theme = "dark" if lecture else "light"
            shown = ("en", "es")[(K == 10) != lecture] if lang == "en" else lang
            link = (f"lang={shown}&tour=0&open=table&jacobian=1&lm=1&lecture={lecture}&theme={theme}&y={y}"
                    f"&names={quote(','.join(names))}")
            p.pg.evaluate("(link) => { location.hash = link; }", link)
            # A whole new look with every view open and a new language: about a second on this machine (laying out
            # and painting every figure again; tests/benchmarks/bench_look.py), so the wait is a bound for a
            # slow day, not a measure of speed.
            lp.wait_state(p.pg, f"(s) => s.names.length === {K} && s.lecture === {'true' if lecture else 'false'}",
                          timeout=30000)
            assert lp.state(p.pg)["names"] == names
            for width in (1024, 1440, 375):
                where = (shown, K, width, lecture)
                p.pg.set_viewport_size({"width": width, "height": 900})
                assert p.pg.evaluate(STEADY), where
                shortened += check_axes(p.pg.evaluate(PAINTED, FIGURES), names, where)
                check_texts(p.pg.evaluate(TEXTS), names, y, where)
                if (K, width, lecture) == (3, 375, 0):  # a long name takes the caption onto more lines
                    drawn = caption(p.pg)
                    lines = [text for text, *_ in drawn]
                    assert len(lines) >= 2 and names[y] in " · ".join(lines), lines
                    assert " · ".join(lines).startswith("T = 1 · ε = 0 · K = 3 · "), lines
                    for text, corners, w, h in drawn:
                        assert all(0 <= x <= w and 0 <= yy <= h for x, yy in corners), (text, corners, w)
                if (K, width, lecture) in ((3, 1024, 0), (10, 375, 1)):
                    for k in (range(K) if K == 3 else [0, K - 1]):
                        assert names[k] in hover(p.pg, k), (where, k)
                    p.pg.mouse.move(0, 0)
    assert shortened > 50, "most of the forty-character names are shortened somewhere"
    assert p.errors == []
