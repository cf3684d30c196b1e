"""Classroom-ready, served and exported alike: every screen, every hand, every link, both languages.

Widths from a phone to a projector; a finger (Chrome DevTools Protocol touch events); the keyboard alone;
links that carry the lesson (query when served, hash when exported), malformed ones included; the language
switch; lecture mode and the dark theme; the figures as a PNG.
"""

import math
import re
from urllib.parse import quote

import numpy as np
import pytest

import core
from app import controls, fields
from app.controls import CONTROLS
from app.document import control_names
from app.steps import STEPS
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.test_lesson import assert_consistent
from tests.string_table import strings
from tests.twin_cases import MALFORMED

WIDTHS = [(375, 667), (720, 900), (1024, 768), (1440, 900)]


@pytest.fixture(params=["served", "exported"])
def open_page(request, new_page):
    """open_page(link="", **context) -> a ready page; the link goes in the query (served) or the hash."""
    opened = []

    def go(link="", **kw):
        if request.param == "served":
            url, _, _ = request.getfixturevalue("served")
            p = new_page(**kw)
            p.pg.goto(url + (f"?{link}" if link else ""))
        else:
            p = new_page(block_network=True, **kw)
            p.pg.goto(request.getfixturevalue("exported").as_uri() + (f"#{link}" if link else ""))
        p.mode = request.param
        lp.wait_ready(p.pg)
        opened.append(p)
        return p

    yield go
    for p in opened:
        assert p.errors == [] and p.dialogs == [] and p.blocked == [], (p.errors, p.dialogs, p.blocked)


# Everything a learner uses: the figures, every control of the app's own list, the logit inputs.
USED = ["logit_figure", "prob_figure", *control_names(), "logit_inputs", "reliability_figure", "counts_figure",
        "nll_figure"]
# Every part of the lab open, the calibration view too: each control of it laid out.
LAB_OPEN = "learn=1&sample=1&jacobian=1&naive=1&calib=1&lm=1"
BOXES = f"""(names) => {{ const find = {lp.FIND};
  return names.map((n) => {{ const r = Bokeh.index.find_one(find(n)).el.getBoundingClientRect();
    return [n, r.left, r.top + scrollY, r.right, r.bottom + scrollY]; }}); }}"""


# What only the page does (its layout, a finger, its live region, its looks, its PNG) is the same page served:
# served once where a width or a language is varied, else exported only, so the suite pays for it once.
EXPORTED = pytest.mark.parametrize("open_page", ["exported"], indirect=True)


@pytest.mark.parametrize("open_page", ["served", "exported"], indirect=True)
def test_every_width_fits_without_overlap(open_page):
    """Served, at a phone's width; exported, one page taken through every width from a phone to a projector, as a
    window is widened (each layout fits the page anew: a page opened at each width was four page loads)."""
    p = open_page(LAB_OPEN, viewport=WIDTHS[0])
    pg = p.pg
    for width, height in WIDTHS[:1] if p.mode == "served" else WIDTHS:
        before = lp.box(pg, "logit_figure")
        pg.set_viewport_size({"width": width, "height": height})
        if width != WIDTHS[0][0]:
            lp.wait_until(lambda b=before: lp.box(pg, "logit_figure") != b, timeout=15)
        lp.settled(pg)
        pg.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")  # laid out
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= width
        boxes = pg.evaluate(BOXES, USED)
        for name, left, _, right, _ in boxes:
            assert -0.5 <= left and right <= width + 0.5 and right - left > 20, (width, name, left, right)
        for i, (a, *ra) in enumerate(boxes):
            for b, *rb in boxes[i + 1:]:
                overlap = min(ra[2], rb[2]) - max(ra[0], rb[0]) > 1 and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 1
                assert not overlap, (width, a, ra, b, rb)
        (_, zl, _, zr, zb), (_, _, pt, _, _) = boxes[0], boxes[1]
        stacked = pt >= zb
        assert stacked == (width < 900), (width, boxes[:2])
        if width <= 720:  # on a narrow screen a figure takes the whole width and stays readable
            assert zr - zl > width * 0.85
        lp.drag(pg, 0, 40)
        assert_consistent(pg)


@EXPORTED
def test_lecture_mode_on_a_phone_runs_past_no_edge(open_page):
    """20 px text on a 360 px screen, every part of the lab open, in both languages: a slider's title and an
    input's label wrap, a group of buttons too (the class names box's label ran 18 px past the edge)."""
    p = open_page(f"{LAB_OPEN}&lecture=1", viewport=(360, 740))
    assert p.pg.evaluate("() => document.documentElement.scrollWidth") <= 360
    lp.set_value(p.pg, "lang", "ko")
    lp.wait_state(p.pg, "(s) => s.lang === 'ko'")
    p.pg.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")  # laid out
    assert lp.prop(p.pg, "class_names", "title").startswith("부류")
    assert p.pg.evaluate("() => document.documentElement.scrollWidth") <= 360


@EXPORTED
def test_a_finger_drags_a_point_and_the_page_still_scrolls(open_page):
    p = open_page("tour=0", viewport=(375, 667), has_touch=True, is_mobile=True)  # the bar chart in the first screen
    pg = p.pg
    cdp = p.context.new_cdp_session(pg)
    pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('logit_figure')).el.scrollIntoView()")
    # The point is read where the scrolled page has painted it (a loaded CI machine paints late).
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    x, y = lp.point_xy(pg, 1)
    z0 = lp.state(pg)["z"][1]

    def touch(kind, points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": px, "y": py} for px, py in points]})

    touch("touchStart", [(x, y)])
    for i in range(1, 16):
        touch("touchMove", [(x, y - 4 * i)])
    touch("touchEnd", [])
    lp.wait_state(pg, f"(s) => s.z[1] > {z0 + 0.5}", timeout=15000)
    assert_consistent(pg)
    # Elsewhere a swipe scrolls the page, over the bar chart too (it has no tool to hold the finger).
    pg.evaluate("() => window.scrollTo(0, 0)")
    left, top, right, bottom = lp.box(pg, "prob_figure")
    sx, sy = (left + right) / 2, min(bottom, 660) - 20
    assert sy > top, "the bar chart is on the first screen"
    touch("touchStart", [(sx, sy)])
    for i in range(1, 11):
        touch("touchMove", [(sx, sy - 20 * i)])
    touch("touchEnd", [])
    pg.wait_for_function("() => scrollY > 50", timeout=5000)


DEEP_FOCUS = """() => { let e = document.activeElement; while (e && e.shadowRoot && e.shadowRoot.activeElement)
  e = e.shadowRoot.activeElement; return e; }"""


def test_the_keyboard_alone_changes_a_logit(open_page):
    p = open_page()
    pg = p.pg
    for _ in range(80):
        pg.keyboard.press("Tab")
        if pg.evaluate(f"() => ({DEEP_FOCUS})()?.classList?.contains('logit-input') ?? false"):
            break
    else:
        pytest.fail("Tab never reached a logit input")
    k = pg.evaluate(f"() => Number(({DEEP_FOCUS})().dataset.k)")
    outline = pg.evaluate(f"() => {{ const s = getComputedStyle(({DEEP_FOCUS})());"
                          " return [s.outlineStyle, s.outlineWidth]; }")
    assert outline[0] != "none" and float(outline[1].rstrip("px")) >= 2, outline  # a visible focus
    z0 = lp.state(pg)["z"][k]
    pg.keyboard.press("ArrowUp")
    lp.wait_state(pg, f"(s) => s.z[{k}] === {round(z0 + 0.1, 12)}")
    pg.keyboard.press("Shift+ArrowUp")
    lp.wait_state(pg, f"(s) => s.z[{k}] === {round(z0 + 1.1, 12)}")
    pg.keyboard.press("ArrowDown")
    lp.wait_state(pg, f"(s) => s.z[{k}] === {round(z0 + 1.0, 12)}")
    z, T, y, prob, _ = assert_consistent(pg)
    live = pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('live_region')).markup_el"
                       ".querySelector('.live-region')")
    assert live is not None
    text = pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('live_region')).markup_el"
                       ".querySelector('.live-region').textContent")
    loss = float(core.cross_entropy(z, y, T=T))
    assert text == f"cat: p = {prob[0]:.3f}; loss {loss:.3f} nats", text
    attrs = pg.evaluate(f"""() => {{ const e = Bokeh.index.find_one(({lp.FIND})('live_region')).markup_el
        .querySelector('.live-region'); return [e.getAttribute('aria-live'), e.getAttribute('role')]; }}""")
    assert attrs == ["polite", "status"]
    # Typing a value works too, and a value typed but not entered is where a step starts.
    pg.keyboard.press("Control+a")
    pg.keyboard.type("-2.5")
    pg.keyboard.press("Enter")
    lp.wait_state(pg, f"(s) => s.z[{k}] === -2.5")
    pg.keyboard.press("Control+a")
    pg.keyboard.type("3")
    pg.keyboard.press("ArrowUp")
    lp.wait_state(pg, f"(s) => s.z[{k}] === 3.1")
    # A decimal comma is refused with a notice that says why (a number field read "2,5" as 25), letters too.
    for typed, says in (("2,5", "2.5, not 2,5"), ("two", "Type a number.")):
        pg.keyboard.press("Control+a")
        pg.keyboard.type(typed)
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"(says) => ({lp.FIND})('notice').text.includes(says)", arg=says)
        assert lp.state(pg)["z"][k] == 3.1 and pg.evaluate(f"() => ({DEEP_FOCUS})().value") == "3.1"
    # The number of draws reads its text by the same rule, and wants a whole number.
    lp.set_value(pg, "sample", True, attr="active")
    pg.wait_for_function(f"() => Bokeh.index.find_one(({lp.FIND})('num_samples'))?.el.getBoundingClientRect()"
                         ".width > 0")
    box = pg.evaluate_handle(f"() => Bokeh.index.find_one(({lp.FIND})('num_samples')).el.shadowRoot"
                             ".querySelector('input')").as_element()
    for typed, says in (("2,5", "2.5, not 2,5"), ("many", "Type a number."), ("2.5", "Type a whole number."),
                        ("0", "N lies from 1 to 100,000."), ("500", None)):
        box.click(click_count=3)
        pg.keyboard.type(typed)
        pg.keyboard.press("Enter")
        if says:
            pg.wait_for_function(f"(says) => ({lp.FIND})('notice').text.includes(says)", arg=says)
            assert lp.state(pg)["n"] == 1000 and box.input_value() == "1000"
    lp.wait_state(pg, "(s) => s.n === 500")


@EXPORTED
def test_the_live_region_does_not_flood_during_a_drag(open_page):
    p = open_page()
    pg = p.pg
    pg.evaluate(f"""() => {{ window.__spoken = 0; const e = Bokeh.index.find_one(({lp.FIND})('live_region'))
        .markup_el.querySelector('.live-region');
        new MutationObserver(() => {{ window.__spoken += 1; }}).observe(e, {{childList: true, characterData: true,
        subtree: true}}); }}""")
    lp.drag(pg, 0, 80, steps=30)
    assert pg.evaluate("() => window.__spoken") == 1


def test_a_link_opens_exactly_its_lesson_and_copy_link_round_trips(open_page):
    p = open_page("z=-1,3,0.5&T=0.5&y=2")
    s = lp.state(p.pg)
    assert (s["z"], s["T"], s["y"], s["notice"]) == ([-1.0, 3.0, 0.5], 0.5, 2, "")
    np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax([-1, 3, 0.5], T=0.5), rtol=1e-12)
    lp.drag(p.pg, 0, -50)
    dragged = lp.state(p.pg)["z"][0]
    assert dragged != -1.0 and dragged == round(dragged, 2)  # a drag moves a logit in steps of 0.01
    lp.set_value(p.pg, "temperature", -0.3)  # log10 T: 10 ** -0.3 = 0.50119, kept to 3 digits
    lp.wait_state(p.pg, "(s) => s.T === 0.501")
    lp.set_value(p.pg, "label_smoothing", 0.2)
    lp.set_value(p.pg, "class_names", "ant,bee,<b>wasp</b>")
    lp.set_value(p.pg, "units", 1, attr="active")
    lp.click(p.pg, "copy_link")
    p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('z=')")
    url = lp.text(p.pg, "notice").split(": ", 1)[1]
    assert url.startswith("http://127.0.0.1" if p.mode == "served" else "file://")
    link = url.split("?" if p.mode == "served" else "#", 1)[1]
    assert f"z={dragged:g},3,0.5" in link and "T=0.501&" in link
    copied = lp.state(p.pg)
    again = open_page(link)
    assert lp.state(again.pg) == {**copied, "notice": ""}  # the initial logits too (z0)
    table = lp.html(again.pg, "readout-probs")
    assert "<b>" not in table and "&lt;b&gt;wasp&lt;/b&gt;" in table


DEFAULT = {key: value for key, value in fields.default_state().items() if key != "notice"}


def expected_lesson(link):
    """What a malformed link opens: the defaults, but for the values in it that can be used."""
    expected = dict(DEFAULT)
    if link in ("z=1,2&names=a,b,c", "y=2&z=1,2"):  # the logits are fine; the rest falls back
        expected.update(z=[1.0, 2.0], initial=[1.0, 2.0], names=["cat", "dog"])
    if link in ("z=1,2,3&y=" + "1" * 4301, "z=1,2,3&z0=1,2"):
        expected.update(z=[1.0, 2.0, 3.0], initial=[1.0, 2.0, 3.0])
    return expected


def test_a_malformed_link_opens_the_default_lesson_with_a_notice(open_page):
    """Served, a link opens a session of its own (Python reads the query): every 24th link and the ones with a
    lesson of their own, since each costs a page load; exported, one page reads every third link as its hash
    changes, as it reads the hash it opens with (the first link is the one it opens with). Both sides' reading
    of every link is the node tier's twins fixture (tests/js/make_twins.py): here, the page's wiring of it."""
    p = open_page(MALFORMED[0])
    every = 24 if p.mode == "served" else 3
    links = [link for k, link in enumerate(MALFORMED) if k % every == 0 or expected_lesson(link) != expected_lesson("")]
    for k, link in enumerate(links):
        if p.mode == "served" and k:
            p.pg.goto(f"{p.pg.url.split('?')[0]}?{link}")
            lp.wait_ready(p.pg)
        elif k:
            p.pg.evaluate("() => { location.hash = 'z=0.5,0.25,0'; }")  # a lesson no malformed link opens
            lp.wait_state(p.pg, "(s) => s.z[0] === 0.5")
            p.pg.evaluate("(link) => { location.hash = link; }", link)
            lp.wait_state(p.pg, "(s) => s.z[0] !== 0.5")
        s = lp.state(p.pg)
        assert s["notice"].startswith("link_bad:"), (link, s)
        assert {k: v for k, v in s.items() if k != "notice"} == expected_lesson(link), (link, s)
        notice = lp.text(p.pg, "notice")
        assert notice.startswith("The link held values that could not be used"), notice
        assert "<" not in lp.html(p.pg, "notice"), "the keys a link names are text, never markup"
        if k % 3 == 0:  # the figures drawn from what was read: every third link (they all show a default lesson)
            assert_consistent(p.pg)


def test_bokeh_keys_in_the_exported_page_s_hash_are_named_in_the_notice(new_page, exported):
    """Issue 36: the exported page dropped a hash's `bokeh-*` keys in silence, where the README promises a notice
    for every key a link cannot use (served, the server redirects to the link without them: test_served_safety)."""
    p = new_page(block_network=True)
    p.pg.goto(exported.as_uri() + "#z=1,2,3&bokeh-session-id=lecture-3&bokeh-absolute-url=http://example.com/")
    lp.wait_ready(p.pg)
    s = lp.state(p.pg)
    assert (s["z"], s["notice"]) == ([1.0, 2.0, 3.0], "link_bad:bokeh-session-id, bokeh-absolute-url"), s
    notice = lp.text(p.pg, "notice")
    assert notice.startswith("The link held values that could not be used") and "bokeh-absolute-url" in notice
    lp.wait_until(lambda: p.pg.evaluate("() => location.hash") == "#z=1,2,3&T=1&y=0&lang=en")  # written back clean
    assert p.errors == [] and p.blocked == [], (p.errors, p.blocked)


def page_strings(pg):
    """Every string the page shows a person: DOM text across shadow roots, control labels, aria labels, the
    figures' titles and axis labels (drawn on a canvas)."""
    return pg.evaluate(f"""() => {{ const out = [];
      const walk = (r) => {{ for (const e of r.querySelectorAll('*')) {{
        const shown = !['SCRIPT', 'STYLE', 'TEMPLATE'].includes(e.tagName);  // the document's JSON is no label
        if (shown && e.childNodes) for (const c of e.childNodes) if (c.nodeType === 3 && c.textContent.trim())
          out.push(c.textContent.trim());
        for (const a of ['aria-label', 'title', 'placeholder']) if (e.getAttribute?.(a)) out.push(e.getAttribute(a));
        if (e.shadowRoot) walk(e.shadowRoot); }} }};
      walk(document);
      const find = {lp.FIND};
      for (const n of ['logit_figure', 'prob_figure']) {{ const f = find(n); out.push(f.title.text);
        for (const r of [...f.above, ...f.left, ...f.below]) {{ if (r.text) out.push(r.text);
          if (r.axis_label) out.push(r.axis_label); }} }}
      return out; }}""")


def foreign(lang):
    """The other language's interface strings, cut at their {fields} and markup, that this language never
    uses: none of them may show. (Maths such as "softmax(z / T)" and "KL(y′‖p)" is shared by both.)"""
    own = list(strings(TEXT[lang]))
    out = set()
    for text in strings(TEXT["ko" if lang == "en" else "en"]):
        for piece in re.split(r"\{\w+\}|<[^>]+>", text):
            piece = piece.strip(" :·,.=()")
            if len(piece) >= 4 and not any(piece in o for o in own):
                out.add(piece)
    return out


@pytest.mark.parametrize(("open_page", "lang"), [("served", "ko"), ("exported", "en"), ("exported", "ko")],
                         indirect=["open_page"])
def test_one_language_at_a_time(open_page, lang):
    p = open_page(f"lang={lang}")
    shown = " | ".join(page_strings(p.pg))
    leaks = [s for s in foreign(lang) if s in shown]
    assert leaks == [], leaks
    assert (any("\uac00" <= c <= "\ud7a3" for c in shown)) == (lang == "ko")
    # The in-page switch changes every string at once, with no reload of the lesson.
    lp.drag(p.pg, 0, 40)
    kept = lp.state(p.pg)["z"]
    other = "ko" if lang == "en" else "en"
    lp.set_value(p.pg, "lang", other)
    shown = " | ".join(page_strings(p.pg))
    assert [s for s in foreign(other) if s in shown] == []
    assert lp.state(p.pg)["z"] == kept and lp.state(p.pg)["names"] == TEXT[other]["class_names"][:3]


# How far the pixels along a figure's top and left edges are, as drawn on its canvas over the page, from the
# figure's own background: the light theme's first paint must not stay there once the page is dark.
EDGE = f"""(name) => {{ const f = ({lp.FIND})(name), c = Bokeh.index.find_one(f).canvas_view.primary.canvas;
  const bg = f.background_fill_color.match(/[0-9a-f]{{2}}/g).map((h) => parseInt(h, 16));
  const ctx = c.getContext('2d'), top = ctx.getImageData(0, 0, c.width, 2).data,
    left = ctx.getImageData(0, 0, 2, c.height).data;
  let worst = 0;
  // From the second pixel of each edge: the line is the defect; the corner's one pixel, where both antialiased
  // edges meet, is not one a reader sees (it took 110/255 of a dark blue once the path moved the figures down).
  for (const d of [top, left]) for (let i = 4; i < d.length; i += 4) for (let k = 0; k < 3; k++) {{
    const shown = (d[i + 3] / 255) * d[i + k] + (1 - d[i + 3] / 255) * bg[k];
    worst = Math.max(worst, Math.abs(shown - bg[k]));
  }}
  return worst; }}"""


@EXPORTED
def test_lecture_mode_and_the_dark_theme(open_page):
    p = open_page("lecture=1&theme=dark")
    pg = p.pg
    s = lp.state(pg)
    assert s["lecture"] and s["theme"] == "dark"
    lp.wait_until(lambda: all(pg.evaluate(EDGE, name) <= 8 for name in ("logit_figure", "prob_figure")))
    classes = lp.prop(pg, "explainer", "css_classes")
    assert "dark" in classes and "lecture-mode" in classes
    colours = pg.evaluate(f"""() => {{ const f = ({lp.FIND})('logit_figure');
        return [f.background_fill_color, getComputedStyle(Bokeh.index.find_one(({lp.FIND})('readout-loss')).el)
        .fontSize]; }}""")
    assert colours[0] == "#15191f" and float(colours[1].rstrip("px")) >= 20
    # The chosen unit is plainly chosen, not dimmed as if disabled: its own background and a bold label.
    looks = pg.evaluate(f"""() => [...Bokeh.index.find_one(({lp.FIND})('units')).el.shadowRoot
        .querySelectorAll('.bk-btn')].map((b) => {{ const c = getComputedStyle(b);
        return [b.classList.contains('bk-active'), c.backgroundColor, c.fontWeight, c.opacity]; }})""")
    (chosen,), others = [x for x in looks if x[0]], [x for x in looks if not x[0]]
    assert all(chosen[1] != o[1] for o in others) and chosen[2] == "600" and chosen[3] == "1", looks
    lp.set_value(pg, "theme", False, attr="active")
    lp.wait_state(pg, "(s) => s.theme === 'light'")
    assert lp.state(pg)["theme"] == "light" and "dark" not in lp.prop(pg, "explainer", "css_classes")
    lp.wait_until(lambda: all(pg.evaluate(EDGE, name) <= 8 for name in ("logit_figure", "prob_figure")))
    assert_consistent(pg)
    ticks = f"() => ({lp.FIND})('logit_figure').below[0].major_label_text_font_size"
    assert pg.evaluate(ticks) == "20px"
    lp.set_value(pg, "lecture", False, attr="active")  # found by a review: tick sizes waited for a resize
    lp.wait_state(pg, "(s) => !s.lecture")
    assert pg.evaluate(ticks) == "15px"


@EXPORTED
def test_the_figures_download_as_a_png_with_a_caption(open_page):
    p = open_page("z=2,1,0.1&T=0.5&eps=0.1&y=1&lang=ko")
    # What the page writes on a canvas, recorded: the caption is text drawn into the PNG.
    p.pg.evaluate("""() => { window.__drawn = []; const fill = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        window.__drawn.push(String(text)); return fill.call(this, text, ...rest); }; }""")
    with p.pg.expect_download() as download:
        lp.click(p.pg, "download_png")
    path = download.value.path()
    data = open(path, "rb").read()
    assert download.value.suggested_filename == "softmax-explainer.png"
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    figures = p.pg.evaluate(f"() => Math.max(...['logit_figure', 'prob_figure'].map((n) =>"
                            f" Bokeh.index.find_one(({lp.FIND})(n)).canvas_view.primary.canvas.height))")
    assert width >= 800 and height > figures  # both figures side by side, the caption under them
    loss = float(core.cross_entropy([2, 1, 0.1], 1, T=0.5, label_smoothing=0.1))
    caption = f"T = 0.5 · ε = 0.1 · K = 3 · 정답 부류 개: p = 0.117 · 손실 L = {loss:.3f} 내트"
    assert caption in p.pg.evaluate("() => window.__drawn")


def test_names_in_a_link_show_as_text(open_page):
    names = ["<img src=x onerror=alert(1)>", "</script>", "$$\\alpha$$"]
    p = open_page("names=" + quote(",".join(names), safe=","))
    assert lp.state(p.pg)["names"] == names
    assert p.pg.evaluate("() => document.querySelectorAll('img').length") == 0
    assert all(math.isfinite(v) for v in lp.data(p.pg, "probs")["p"])


FOCUSED_MODEL = f"""(names) => {{ const hosts = new Set(); let e = document.activeElement;
  while (e) {{ hosts.add(e); const inner = e.shadowRoot?.activeElement; if (!inner) break; e = inner; }}
  const find = {lp.FIND};
  for (const name of names) {{
    if (hosts.has(Bokeh.index.find_one(find(name)).el)) return name;
  }}
  return null; }}"""


# The focused element's ring as drawn: its outline's style, width and colour (rgb), and the page's background.
RING = f"""() => {{ const e = ({DEEP_FOCUS})(); const s = getComputedStyle(e);
  return [e.tagName, s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor,
          getComputedStyle(document.body).backgroundColor]; }}"""


def luminance(rgb):
    """WCAG relative luminance of a CSS rgb()/rgba() colour (an unset body background is white)."""
    parts = [float(v) for v in re.findall(r"[\d.]+", rgb)]
    if len(parts) == 4 and parts[3] == 0:
        parts = [255, 255, 255]
    channel = [c / 255 for c in parts[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channel]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@pytest.mark.parametrize("open_page", ["served", "exported"], indirect=True)
def test_tab_reaches_every_control_with_a_visible_ring_and_nothing_else(open_page):
    """Served in the light theme; exported in the light theme and then, on the same page, the dark one (the
    rings are the theme's colours, drawn anew when it changes)."""
    p = open_page(f"theme=light&{LAB_OPEN}")
    for theme in ["light"] if p.mode == "served" else ["light", "dark"]:
        if theme == "dark":
            lp.set_value(p.pg, "theme", True, "active")
            lp.wait_state(p.pg, "(s) => s.theme === 'dark'")
            p.pg.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
        reached, rings = set(), []
        for _ in range(60):
            p.pg.keyboard.press("Tab")
            name = p.pg.evaluate(FOCUSED_MODEL, [*control_names(), "logit_inputs", "tour_status"])  # its hint
            tag, style, width, colour, page = p.pg.evaluate(RING)
            if tag == "BODY":  # past the last control, the browser's own stop: one round is every stop
                break
            assert name is not None, f"a Tab stop that is no control: {tag}"
            reached.add(name)
            lighter, darker = sorted([luminance(colour), luminance(page)], reverse=True)
            rings.append((name, style, width, round((lighter + 0.05) / (darker + 0.05), 2)))
        # Back is inert on the path's first step, so no Tab stop; the step's hint opens by keyboard.
        assert reached == {*control_names(), "logit_inputs", "tour_status"} - {"tour_back"}, (theme, reached)
        weak = [r for r in rings if r[1] != "solid" or r[2] < 2 or r[3] < 3]
        assert weak == [], (theme, weak)


QUESTION = "z=3,1,0.5&y=1&lock=z,T,y&hide=eps,names"


def inert(c, s):
    """Whether control c is inert in state s: locked by the link, or a move past either end of the path."""
    ends = {"tour_back": 1, "tour_next": len(STEPS)}
    return controls.locked(c, s) or ends.get(c.name) == s["step"]


def test_an_instructors_link_locks_and_hides_controls_and_reset_everything_keeps_them(open_page):
    """lock=z,T,y&hide=eps,names: every control's model is disabled or left out exactly as app/controls.py's
    rules say, a drag and the logit inputs move nothing, the page says what the link fixes; "reset everything"
    goes back to the question, the locks and the reader's language kept."""
    p = open_page(QUESTION)
    pg = p.pg
    s = lp.state(pg)
    assert (s["lock"], s["hide"], s["z"], s["y"]) == (["z", "T", "y"], ["names", "eps"], [3.0, 1.0, 0.5], 1)
    got = {c.name: (lp.prop(pg, c.name, "disabled"), lp.prop(pg, c.name, "visible")) for c in CONTROLS}
    assert got == {c.name: (inert(c, s), not controls.hidden(c, s)) for c in CONTROLS}
    assert {n for n, (off, _) in got.items() if off} == {
        "temperature", "true_class", "add_one", "subtract_max", "reset", "label_smoothing", "preset", "add_class",
        "remove_class", "class_names", "paste_logits", "step", "play",  # a gradient step moves the logits too
        "tour_setup", "tour_back"}  # "start again" may make a fresh lesson; the path starts at its first step
    assert {n for n, (_, shown) in got.items() if not shown} == {"label_smoothing", "class_names"}
    assert "This link fixes the logits, the temperature, the true class, the class names, ε." in lp.text(pg, "header")
    lp.drag(pg, 0, -60)
    inputs = "() => [...Bokeh.index.find_one(({})('logit_inputs')).markup_el.querySelectorAll('.logit-input')]"
    assert pg.evaluate(f"() => ({inputs.format(lp.FIND)})().every((e) => e.disabled)")
    lp.click(pg, "add_one")  # a disabled button takes no click
    lp.set_value(pg, "units", 1, attr="active")
    lp.set_value(pg, "lang", "ko")
    lp.wait_state(pg, "(s) => s.units === 'bits' && s.lang === 'ko'")
    assert lp.state(pg)["z"] == [3.0, 1.0, 0.5]
    assert "이 링크는 점수, 온도, 정답 부류, 부류 이름, ε을(를) 고정합니다." in lp.text(pg, "header")
    lp.click(pg, "reset_all")
    lp.wait_state(pg, "(s) => s.units === 'nats'")
    assert lp.state(pg) == {**s, "lang": "ko", "names": TEXT["ko"]["class_names"][:3]}
    # Every key a link can lock is said by its name (the function figure's was "undefined" in both languages).
    every = list(fields.BY_KEY["lock"].choices)
    pg.evaluate(f"(keys) => {{ const m = ({lp.FIND})('lesson'); m.state = {{...m.state, lock: keys}}; }}", every)
    lp.wait_state(pg, f"(s) => s.lock.length === {len(every)}")
    note = lp.text(pg, "header")
    assert "undefined" not in note and [k for k in every if TEXT["ko"]["lock_names"][k] not in note] == []


def test_a_bad_lock_or_hide_is_refused_with_a_notice_and_locks_nothing(open_page):
    """Served, the first link (a page load each); exported, every one as the hash changes."""
    p = open_page("z=1,2,3&lock=T,bogus")
    for k, link in enumerate(["lock=T,bogus", "hide=eps,eps", "lock="][:1 if p.mode == "served" else 3]):
        if k:
            p.pg.evaluate("(link) => { location.hash = link; }", f"z=1,2,3&{link}")
            lp.wait_state(p.pg, f"(s) => s.notice === 'link_bad:{link.split('=')[0]}'")
        s = lp.state(p.pg)
        key = link.split("=")[0]
        assert (s["z"], s[key], s["notice"]) == ([1.0, 2.0, 3.0], [], f"link_bad:{key}"), link
        assert key in lp.text(p.pg, "notice")
        assert [c.name for c in CONTROLS if lp.prop(p.pg, c.name, "disabled")] == ["tour_back"]
