"""A calm first screen: the figures, then p_y and the loss; the other readouts in sections a learner opens
(which are open is part of the link); and inside the figures nothing covers anything else, at any number of
classes and any width from a phone's.

The overlap check is geometry of its own: every box is computed here from the figures' data, ranges and sizes
(text measured by the page's canvas), not from the rules the page places them by (static/frame.mjs `fit`).
"""

import pytest

from app import fields
from tests.browser import lessonpage as lp
from tests.browser.test_tour import handle_centre

WIDTHS = [(375, 740), (720, 900), (1024, 768), (1440, 900)]
CLASSES = [2, 3, 7, 10]

# Every box drawn in the two figures, in px of each figure's inner frame (y up): kind, class, [x0, y0, x1, y1].
BOXES = f"""() => {{
  const find = {lp.FIND};
  const out = [];
  const value = (v) => (typeof v === 'object' && v !== null ? v.value : v);
  const fonts = (labels) => `${{value(labels.text_font_size)}} ${{value(labels.text_font)}}`;
  const ctx = document.createElement('canvas').getContext('2d');
  const width = (font, text) => {{ ctx.font = font; return ctx.measureText(text).width; }};
  const scale = (fig) => {{
    const [x0, x1, y0, y1] = [fig.x_range.start, fig.x_range.end, fig.y_range.start, fig.y_range.end];
    return [(x) => (x - x0) / (x1 - x0) * fig.inner_width, (y) => (y - y0) / (y1 - y0) * fig.inner_height];
  }};
  const zf = find('logit_figure'), pf = find('prob_figure');
  const [zx, zy] = scale(zf), [px, py] = scale(pf);
  const layouts = (fig, type) => [...fig.center, ...fig.above, ...fig.below].filter((r) => r.type === type);
  const renderer = (fig, source) => fig.renderers.find((r) => r.data_source?.name === source);
  // The logit figure: points, arrows (shaft and head), their marks and values, the points' values, the zero line.
  const points = renderer(zf, 'logits'), pd = find('logits').data;
  const r = value(points.glyph.size) / 2;
  pd.z.forEach((z, k) => out.push(['point', k, [zx(k) - r, zy(z) - r, zx(k) + r, zy(z) + r]]));
  const arrow = layouts(zf, 'Arrow')[0], ad = find('arrows').data;
  const shaft = value(arrow.line_width) / 2;
  ad.x.forEach((x, k) => {{
    const [a, b] = [zy(ad.y0[k]), zy(ad.y1[k])];
    if (ad.head[k] > 0) {{
      const h = ad.head[k], up = b > a;
      out.push(['arrow', k, [zx(x) - shaft, Math.min(a, b), zx(x) + shaft, Math.max(a, b)]]);
      out.push(['arrow', k, [zx(x) - h / 2, up ? b - h : b, zx(x) + h / 2, up ? b : b + h]]);
    }}
    if (ad.mark_alpha[k] > 0) {{
      const m = ad.mark_size[k] / 2;
      out.push(['arrow', k, [zx(x) - m, zy(ad.mark_y[k]) - m, zx(x) + m, zy(ad.mark_y[k]) + m]]);
    }}
  }});
  const [point_labels, arrow_labels] = layouts(zf, 'LabelSet').sort((a, b) =>
    (a.text.field === 'text' ? -1 : 1) - (b.text.field === 'text' ? -1 : 1));
  const ld = find('point_labels').data;
  const lh = parseFloat(value(point_labels.text_font_size));
  if (point_labels.visible) ld.text.forEach((text, k) => {{
    if (ld.alpha[k] === 0) return;
    const right = zx(ld.x[k]) + value(point_labels.x_offset), w = width(fonts(point_labels), text);
    const bottom = zy(ld.z[k]) + ld.dy[k];
    out.push(['point_label', k, [right - w, bottom, right, bottom + lh]]);
  }});
  const ah = parseFloat(value(arrow_labels.text_font_size));
  ad.label.forEach((text, k) => {{
    if (!text) return;
    const left = zx(ad.x[k]) + value(arrow_labels.x_offset), mid = zy(ad.y1[k]) + ad.label_dy[k];
    out.push(['arrow_label', k, [left, mid - ah / 2, left + width(fonts(arrow_labels), text), mid + ah / 2]]);
  }});
  out.push(['zero_line', -1, [0, zy(0) - 0.5, zf.inner_width, zy(0) + 0.5]]);
  // The probability figure: the bars' values and the target marks.
  const bar_labels = layouts(pf, 'LabelSet')[0], bd = find('probs').data, td = find('target').data;
  const bh = parseFloat(value(bar_labels.text_font_size));
  bd.label.forEach((text, k) => {{
    if (bd.label_alpha[k] === 0) return;
    const w = width(fonts(bar_labels), text), bottom = py(bd.label_y[k]) + value(bar_labels.y_offset);
    out.push(['bar_label', k, [px(bd.x[k]) - w / 2, bottom, px(bd.x[k]) + w / 2, bottom + bh]]);
  }});
  const targets = renderer(pf, 'target'), t = value(targets.glyph.line_width) / 2;
  td.y.forEach((y, k) => out.push(['target', k, [px(td.x0[k]), py(y) - t, px(td.x1[k]), py(y) + t]]));
  out.push(['prob_frame', -1, [0, 0, pf.inner_width, pf.inner_height]]);
  return out;
}}"""

# Which kinds may not meet (the same class's point and arrow included: an arrow starts at its point's logit).
APART = [("point", "arrow"), ("point", "point_label"), ("point", "arrow_label"), ("arrow", "point_label"),
         ("point_label", "zero_line"), ("point_label", "point_label"), ("bar_label", "bar_label"),
         ("bar_label", "target")]


# The least distance between two labels of a figure's vertical axis, with their font size in px.
TICK_GAPS = f"""() => Object.fromEntries(['logit_figure', 'prob_figure'].map((name) => {{
  const fig = ({lp.FIND})(name), view = Bokeh.index.find_one(fig), axis = fig.left[0];
  const ys = view.renderer_views.get(axis).tick_coords.major[1].map((t) => view.frame.y_scale.compute(t));
  ys.sort((a, b) => a - b);
  const size = axis.major_label_text_font_size;
  return [name, [Math.min(...ys.slice(1).map((y, i) => y - ys[i])), parseFloat(size.value ?? size)]]; }}))"""


def crowded_ticks(pg):
    """The main figures whose vertical axis labels stand closer than 1.1 times their font size (static/draw.mjs
    TICK_ROOM): a digit's height and half of it clear."""
    return {name: gap for name, (gap, size) in pg.evaluate(TICK_GAPS).items() if gap < 1.1 * size - 0.5}


def overlaps(boxes):
    def meet(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    found = []
    for i, (kind_a, k_a, a) in enumerate(boxes):
        for kind_b, k_b, b in boxes[i + 1:]:
            pair = (kind_a, kind_b) in APART or (kind_b, kind_a) in APART
            if pair and not (kind_a == kind_b and k_a == k_b) and meet(a, b):
                found.append((kind_a, k_a, kind_b, k_b))
    return found


def cut_by_the_frame(boxes):
    """The bars' values whose top is above the probability figure's frame (the canvas cuts them there)."""
    top = next(box[3] for kind, _, box in boxes if kind == "prob_frame")
    return [(k, round(box[3] - top, 1)) for kind, k, box in boxes if kind == "bar_label" and box[3] > top + 0.5]


def lessons(K):
    z = ",".join(f"{v:g}" for v in fields.default_logits(K))
    return [f"z={z}", f"z={z}&eps=0.1&y={K - 1}", f"z={z}&T=0.01&eps=0.1", "z=2,1,0.05&T=0.01"]


def test_nothing_in_the_figures_covers_anything_else(new_page, exported):
    """K = 2, 3, 7, 10 at 375, 720, 1024 and 1440 px, with ε = 0 and 0.1, warm and cold: no two boxes that must
    stay apart meet; a bar's value is left out only where it is wider than its bar's share; and the vertical axes'
    labels stand apart (on a phone the logits' seven and the bars' six labels of 12 px were 10–12 px apart), with
    the bars' six where there is room."""
    p = new_page(block_network=True)
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    seen, left_out = 0, 0
    for width, height in WIDTHS:
        p.pg.set_viewport_size({"width": width, "height": height})
        for K in CLASSES:
            for link in lessons(K):
                p.pg.evaluate("(link) => { location.hash = link; }", link)
                p.pg.wait_for_function(f"(n) => ({lp.FIND})('probs').data.p.length === n",
                                       arg=len(link.split("&")[0].split(",")))
                lp.settled(p.pg)
                boxes = p.pg.evaluate(BOXES)
                assert overlaps(boxes) == [], (width, link, overlaps(boxes))
                assert cut_by_the_frame(boxes) == [], (width, link)
                assert crowded_ticks(p.pg) == {}, (width, link)
                if width == 1440:
                    assert p.pg.evaluate(f"() => ({lp.FIND})('prob_figure').left[0].ticker.ticks.length") == 6
                seen += 1
                left_out += lp.data(p.pg, "probs")["label_alpha"].count(0)
    assert seen == len(WIDTHS) * len(CLASSES) * 4 and p.errors == []
    assert left_out > 0, "at ten classes on a phone some bar values do not fit and are left out"


def test_in_lecture_mode_a_value_near_1_stays_inside_the_probability_figure(new_page, exported):
    """Lecture mode's 20 px values above a bar at p ≈ 1, or above the true class's mark at 1, ran past the top of
    the figure and were cut (0.821 and 0.979 at 1024 px): the axis ends where they fit, with no tick past 1."""
    p = new_page(block_network=True, viewport=(1024, 768))
    p.pg.goto(exported.as_uri() + "#lecture=1")
    lp.wait_ready(p.pg)
    for width, height in [(1024, 768), (375, 667), (1440, 900)]:
        p.pg.set_viewport_size({"width": width, "height": height})
        for z, y in [("3,1,0.5", 0), ("2,6,0.1", 0), ("2,6,0.1", 1), ("9,0,0", 0)]:
            link = f"lecture=1&z={z}&y={y}"
            p.pg.evaluate("(link) => { location.hash = link; }", link)
            lp.wait_state(p.pg, f"(s) => s.z.join() === '{z}' && s.y === {y} && s.lecture")
            boxes = p.pg.evaluate(BOXES)
            assert cut_by_the_frame(boxes) == [] and overlaps(boxes) == [], (width, link, cut_by_the_frame(boxes))
            assert crowded_ticks(p.pg) == {}, (width, link)
    ticks = p.pg.evaluate(f"() => ({lp.FIND})('prob_figure').left[0].ticker.ticks")
    assert max(ticks) == 1, ticks
    assert p.errors == []


@pytest.mark.parametrize(("where", "lang"), [("exported", "en"), ("exported", "ko"), ("served", "ko")])
def test_on_a_phone_p_y_and_the_loss_are_on_the_first_screen(new_page, exported, served, where, lang):
    """375 × 740, served and exported: the values of p_y and of the loss end within the first 740 px, in free
    play (tour=0; the guided path puts its step's text first, and the loss on the next screen)."""
    p = new_page(block_network=where == "exported", viewport=(375, 740))
    link = f"lang={lang}&tour=0"
    p.pg.goto(f"{exported.as_uri()}#{link}" if where == "exported" else f"{served[0]}?{link}")
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    bottoms = p.pg.evaluate(f"""() => ['readout-py', 'readout-loss'].map((n) =>
      Bokeh.index.find_one(({lp.FIND})(n)).el.shadowRoot.querySelector('.value').getBoundingClientRect().bottom)""")
    assert max(bottoms) <= 740, (where, bottoms)
    assert p.pg.evaluate("() => scrollY") == 0


def test_sections_open_and_close_and_a_link_keeps_them(page):
    """The table, the information and log-sum-exp are closed on a new page; a learner opens one with its button,
    and the link says so (open=table,lse); closing them leaves them out again."""
    pg = page.pg
    shown = f"(n) => Bokeh.index.find_one(({lp.FIND})(n)).el.offsetParent !== null"
    assert pg.evaluate(shown, "readout-py") and pg.evaluate(shown, "readout-loss")
    assert not any(pg.evaluate(shown, n) for n in ("readout-probs", "readout-entropy", "readout-lse"))
    assert lp.prop(pg, "sections", "labels") == ["Table", "Information", "log-sum-exp"]
    lp.set_value(pg, "sections", [0, 2], attr="active")
    lp.wait_state(pg, "(s) => s.open.join() === 'table,lse'")
    pg.wait_for_function(shown, arg="readout-probs")
    assert pg.evaluate(shown, "readout-lse") and not pg.evaluate(shown, "readout-entropy")
    assert "open=table,lse" in pg.evaluate("() => location.hash + location.search")
    lp.set_value(pg, "sections", [], attr="active")
    lp.wait_state(pg, "(s) => s.open.length === 0")
    pg.wait_for_function(f"(n) => !({shown})(n)", arg="readout-probs")


# Every text the page shows as DOM text, shadow roots included, with its computed size; and the inputs' text.
TEXT_SIZES = """() => { const out = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n = it.currentNode; n; n = it.nextNode()) {
      if (n.nodeType === 1 && n.shadowRoot) walk(n.shadowRoot);
      const input = n.nodeType === 1 && ['INPUT', 'SELECT'].includes(n.tagName) && n.type !== 'hidden';
      if (!input && (n.nodeType !== 3 || !n.textContent.trim())) continue;
      const el = input ? n : n.parentElement;
      if (!el || ['STYLE', 'SCRIPT'].includes(el.tagName)) continue;
      if (!el.checkVisibility() || !el.getClientRects().length) continue;
      out.push([parseFloat(getComputedStyle(el).fontSize), el.tagName, (input ? el.value : n.textContent).trim()]);
    } };
  walk(document.body); return out; }"""
# The figures' own text, drawn on their canvases: titles, axes, tick labels, the values beside points and bars.
CANVAS_SIZES = f"""() => {{ const find = {lp.FIND}; const out = [];
  const value = (v) => (typeof v === 'object' && v !== null ? v.value : v);
  for (const name of ['logit_figure', 'prob_figure']) {{
    const f = find(name);
    out.push(['title', value(f.title.text_font_size)]);
    for (const axis of [...f.left, ...f.below]) {{
      out.push(['ticks', value(axis.major_label_text_font_size)], ['axis', value(axis.axis_label_text_font_size)]);
    }}
    const labels = f.center.filter((r) => r.type === 'LabelSet');
    for (const l of labels) out.push(['labels', value(l.text_font_size)]);
  }}
  return out; }}"""


@pytest.mark.parametrize(("where", "lang"), [("exported", "en"), ("exported", "ko"), ("served", "en")])
def test_lecture_mode_at_1024_by_768(new_page, exported, served, where, lang):
    """Every text at least 20 px, the inputs and Bokeh's own buttons and menus included, and on the figures'
    canvases; both figures, the T slider and the loss on the first screen in free play (the guided path's text
    comes first: tests/browser/test_tour.py measures it in lecture mode). Served and exported."""
    link = f"lecture=1&lang={lang}&open=table,info,lse&eps=0.1&tour=0"
    p = new_page(block_network=where == "exported", viewport=(1024, 768))
    p.pg.goto(f"{exported.as_uri()}#{link}" if where == "exported" else f"{served[0]}?{link}")
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    texts = p.pg.evaluate(TEXT_SIZES)
    tags = {tag for _, tag, _ in texts}
    assert len(texts) > 60 and {"BUTTON", "INPUT", "SELECT"} <= tags, tags
    assert [t for t in texts if t[0] < 20] == [], where
    canvas = p.pg.evaluate(CANVAS_SIZES)
    assert all(float(size.rstrip("px")) >= 20 for _, size in canvas), canvas
    bottoms = p.pg.evaluate(f"""() => ['logit_figure', 'prob_figure', 'temperature', 'readout-loss'].map((n) =>
      Bokeh.index.find_one(({lp.FIND})(n)).el.getBoundingClientRect().bottom)""")
    assert max(bottoms) <= 768, (where, bottoms)


# Every figure a link opens (the loss figure waits for the first gradient step).
FIGURES = ["logit_figure", "prob_figure", "function_figure", "jacobian_figure", "reliability_figure", "counts_figure",
           "nll_figure", "vocab_figure", "attention_figure", "decay_figure", "router_figure", "distill_figure"]
# Each figure's title and its key as the canvas draws them (style, size, font) against the frame they sit over: its
# longest line (lecture mode breaks a key that 20 px would run past its frame onto a second line).
TITLE_FIT = f"""() => {{ const find = {lp.FIND};
  const value = (v) => (typeof v === 'object' && v !== null ? v.value : v);
  const ctx = document.createElement('canvas').getContext('2d');
  const width = (t) => {{
    ctx.font = `${{value(t.text_font_style)}} ${{value(t.text_font_size)}} ${{value(t.text_font)}}`;
    return Math.max(...t.text.split('\\n').map((line) => ctx.measureText(line).width));
  }};
  return {FIGURES!r}.map((name) => find(name)).filter((f) => f.visible && f.inner_width > 0)
    .flatMap((f) => [['title', f.title], ['key', f.above[0]]]
      .map(([kind, t]) => [f.name, kind, t.text, width(t), f.inner_width])); }}"""


def test_every_figure_s_title_and_key_fit_over_its_frame(new_page, exported):
    """A canvas never wraps a title: lecture mode's 20 px ran "The next word: p = softmax(ln f / T)" and "Causal
    attention, the classes as tokens" past their frames at 1024 px. Every view open, one page taken through three
    widths (each layout fits them anew) in English, then in Korean and in Spanish chosen with the language menu. On
    a phone two keys are longer than their frame even at the smallest size the page writes them (lecture mode's 20
    px): the reliability diagram's and the next word's, which take a second line. Then out of lecture mode,
    log-sum-exp open, at three widths."""
    p = new_page(block_network=True, viewport=(1024, 900))
    p.pg.goto(f"{exported.as_uri()}#lecture=1&tour=0&learn=1&jacobian=1&calib=1&lm=1&fn=sweep")
    lp.wait_ready(p.pg)
    inner = "() => (" + lp.FIND + ")('vocab_figure').inner_width"
    now = 1024
    for lang in ["en", "ko", "es"]:
        if lang != "en":
            lp.set_value(p.pg, "lang", lang)
            lp.wait_state(p.pg, f"(s) => s.lang === '{lang}'")
        for width in (1024, 1440, 375) if lang == "en" else (375, 1440, 1024):  # each a new layout, or a language
            before = p.pg.evaluate(inner)
            p.pg.set_viewport_size({"width": width, "height": 900})
            if width != now:
                lp.wait_until(lambda b=before: p.pg.evaluate(inner) != b, timeout=15)
            now = width
            lp.settled(p.pg)
            shown = p.pg.evaluate(TITLE_FIT)
            assert {name for name, *_ in shown} == set(FIGURES), (lang, width, shown)
            assert [s for s in shown if s[3] > s[4] + 1] == [], (lang, width, shown)
    # Out of lecture mode a key shrinks to 11 px at least, then takes another line: at 1024 px the logit figure's
    # key with log-sum-exp open ran past its frame at 10 px, cut at "T·LS".
    lp.set_value(p.pg, "lecture", False, attr="active")
    lp.set_value(p.pg, "sections", [2], attr="active")
    lp.wait_state(p.pg, "(s) => !s.lecture && s.open.includes('lse')")
    for width in (375, 1024, 1440):
        p.pg.set_viewport_size({"width": width, "height": 900})
        lp.settled(p.pg)
        lp.painted(p.pg)
        shown = p.pg.evaluate(TITLE_FIT)
        assert [s for s in shown if s[3] > s[4] + 1] == [], ("normal", width, shown)


# Each slider's height at its track's ends, its middle, and a value of the most digits it can show (T: 0.0123).
SLIDER_HEIGHTS = f"""async () => {{ const find = {lp.FIND};
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const out = {{}};
  for (const name of ['temperature', 'label_smoothing', 'learning_rate', 'calibration_T', 'top_p', 'min_p']) {{
    const m = find(name), el = Bokeh.index.find_one(m).el;
    const values = [m.start, m.start + 0.09, (m.start + m.end) / 2, m.end];
    out[name] = [];
    for (const x of values) {{ m.value = x; await frame(); out[name].push(el.getBoundingClientRect().height); }}
  }}
  return out; }}"""


def test_a_slide_never_moves_a_slider_title_s_line_break(new_page, exported):
    """Each slider keeps its height at every value, as the title keeps the room of its longest value (T: "T =
    0.0123"): a title that took a line more at 3 digits moved the page below during a drag of T and laid the
    whole page out again (12 ms of a frame). At 1440 px in English and in Spanish, then on the same page at
    1024 px in Korean and lecture mode, each chosen with its control."""
    p = new_page(block_network=True, viewport=(1440, 900))
    p.pg.goto(f"{exported.as_uri()}#learn=1&calib=1&lm=1&tour=0")
    lp.wait_ready(p.pg)
    for width, lang, lecture in [(1440, "en", False), (1440, "es", False), (1024, "ko", True)]:
        if lang == "es":
            lp.set_value(p.pg, "lang", lang)
            lp.wait_state(p.pg, "(s) => s.lang === 'es'")
        if lang == "ko":
            p.pg.set_viewport_size({"width": width, "height": 900})
            lp.set_value(p.pg, "lang", lang)
            lp.set_value(p.pg, "lecture", lecture, "active")
            lp.wait_state(p.pg, "(s) => s.lang === 'ko' && s.lecture")
        heights = p.pg.evaluate(SLIDER_HEIGHTS)
        assert len(heights) == 6 and all(h[0] > 0 for h in heights.values()), (width, heights)
        assert {name: sorted(set(h)) for name, h in heights.items() if len(set(h)) > 1} == {}, (width, heights)


def test_a_drag_of_t_repaints_what_t_changes_and_leaves_the_logits_figure_alone(new_page, exported):
    """A drag of T by the mouse changes the probabilities, the gradient and the next word's plot; the logits,
    their points and their figure hold still. The logits' point size, set to a number, comes back from Bokeh as
    its spec ({value: 22}): compared as it was, it was set again in every frame, and the figure repainted."""
    p = new_page(block_network=True, viewport=(1280, 960))
    p.pg.goto(f"{exported.as_uri()}#lm=1&tour=0")
    lp.wait_ready(p.pg)
    lp.wait_until(lambda: lp.data(p.pg, "decoding")["kept"] != [], timeout=15)
    p.pg.evaluate(f"""() => {{ const find = {lp.FIND}; window.__changed = {{}};
        const note = (key) => () => {{ window.__changed[key] = (window.__changed[key] ?? 0) + 1; }};
        const fig = find('logit_figure');
        for (const r of fig.renderers) r.glyph.change.connect(note('logit glyph'));
        for (const name of ['logits', 'probs', 'vocab_curve']) find(name).properties.data.change.connect(note(name));
        }}""")
    x, y = handle_centre(p.pg, "temperature")
    p.pg.mouse.move(x, y)
    p.pg.mouse.down()
    for i in range(8):
        p.pg.mouse.move(x + 5 * (i + 1), y)
        lp.painted(p.pg)
    changed = p.pg.evaluate("() => window.__changed")
    p.pg.mouse.up()
    assert changed.get("probs", 0) >= 6 and changed.get("vocab_curve", 0) >= 6, changed
    assert "logits" not in changed and "logit glyph" not in changed, changed
    assert p.errors == []
