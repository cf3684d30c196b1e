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
from app import fields
from app.document import control_names
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.test_lesson import assert_consistent
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
USED = ["logit_figure", "prob_figure", *control_names(), "logit_inputs"]
BOXES = f"""(names) => {{ const find = {lp.FIND};
  return names.map((n) => {{ const r = Bokeh.index.find_one(find(n)).el.getBoundingClientRect();
    return [n, r.left, r.top + scrollY, r.right, r.bottom + scrollY]; }}); }}"""


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_every_width_fits_without_overlap(open_page, width, height):
    p = open_page(viewport=(width, height))
    pg = p.pg
    assert pg.evaluate("() => document.documentElement.scrollWidth") <= width
    boxes = pg.evaluate(BOXES, USED)
    for name, left, _, right, _ in boxes:
        assert -0.5 <= left and right <= width + 0.5 and right - left > 20, (name, left, right)
    for i, (a, *ra) in enumerate(boxes):
        for b, *rb in boxes[i + 1:]:
            overlap = min(ra[2], rb[2]) - max(ra[0], rb[0]) > 1 and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 1
            assert not overlap, (a, ra, b, rb)
    (_, zl, zt, zr, _), (_, _, pt, _, _) = boxes[0], boxes[1]
    stacked = pt >= zt + 200
    assert stacked == (width < 900), (width, boxes[:2])
    if width <= 720:  # on a narrow screen a figure takes the whole width and stays readable
        assert zr - zl > width * 0.85
    lp.drag(pg, 0, 40)
    assert_consistent(pg)


def test_a_finger_drags_a_point_and_the_page_still_scrolls(open_page):
    p = open_page(viewport=(375, 667), has_touch=True, is_mobile=True)
    pg = p.pg
    cdp = p.context.new_cdp_session(pg)
    pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('logit_figure')).el.scrollIntoView()")
    x, y = lp.point_xy(pg, 1)
    z0 = lp.state(pg)["z"][1]

    def touch(kind, points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": px, "y": py} for px, py in points]})

    touch("touchStart", [(x, y)])
    for i in range(1, 16):
        touch("touchMove", [(x, y - 4 * i)])
    touch("touchEnd", [])
    lp.wait_state(pg, f"(s) => s.z[1] > {z0 + 0.5}")
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
    lp.set_value(p.pg, "label_smoothing", 0.2)
    lp.set_value(p.pg, "class_names", "ant,bee,<b>wasp</b>")
    lp.set_value(p.pg, "units", 1, attr="active")
    lp.click(p.pg, "copy_link")
    p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('z=')")
    url = lp.text(p.pg, "notice").split(": ", 1)[1]
    assert url.startswith("http://127.0.0.1" if p.mode == "served" else "file://")
    link = url.split("?" if p.mode == "served" else "#", 1)[1]
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
    """Served, a link opens a session of its own (Python reads the query): every third link and the ones with
    a lesson of their own, since each costs a page load and Python's reading of every link is what the node
    tier's twins fixture holds (tests/js/make_twins.py); exported, one page reads every link as its hash
    changes, as it reads the hash it opens with (and the first link is the one it opens with)."""
    p = open_page(MALFORMED[0])
    links = MALFORMED if p.mode != "served" else [
        link for k, link in enumerate(MALFORMED) if k % 3 == 0 or expected_lesson(link) != expected_lesson("")]
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
        assert_consistent(p.pg)


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


def strings_of(table):
    """Every string of a language's table, lists and dicts flattened."""
    for value in table.values():
        yield from value if isinstance(value, list) else value.values() if isinstance(value, dict) else [value]


def foreign(lang):
    """The other language's interface strings, cut at their {fields} and markup, that this language never
    uses: none of them may show. (Maths such as "softmax(z / T)" and "KL(y′‖p)" is shared by both.)"""
    own = list(strings_of(TEXT[lang]))
    out = set()
    for text in strings_of(TEXT["ko" if lang == "en" else "en"]):
        for piece in re.split(r"\{\w+\}|<[^>]+>", text):
            piece = piece.strip(" :·,.=()")
            if len(piece) >= 4 and not any(piece in o for o in own):
                out.add(piece)
    return out


@pytest.mark.parametrize("lang", ["en", "ko"])
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


def test_lecture_mode_and_the_dark_theme(open_page):
    p = open_page("lecture=1&theme=dark")
    pg = p.pg
    s = lp.state(pg)
    assert s["lecture"] and s["theme"] == "dark"
    classes = lp.prop(pg, "explainer", "css_classes")
    assert "dark" in classes and "lecture-mode" in classes
    colours = pg.evaluate(f"""() => {{ const f = ({lp.FIND})('logit_figure');
        return [f.background_fill_color, getComputedStyle(Bokeh.index.find_one(({lp.FIND})('readout-loss')).el)
        .fontSize]; }}""")
    assert colours[0] == "#15191f" and float(colours[1].rstrip("px")) >= 20
    lp.set_value(pg, "theme", False, attr="active")
    lp.wait_state(pg, "(s) => s.theme === 'light'")
    assert lp.state(pg)["theme"] == "light" and "dark" not in lp.prop(pg, "explainer", "css_classes")
    assert_consistent(pg)
    ticks = f"() => ({lp.FIND})('logit_figure').below[0].major_label_text_font_size"
    assert pg.evaluate(ticks) == "20px"
    lp.set_value(pg, "lecture", False, attr="active")  # found by a review: tick sizes waited for a resize
    lp.wait_state(pg, "(s) => !s.lecture")
    assert pg.evaluate(ticks) == "15px"


def test_the_figures_download_as_a_png(open_page):
    p = open_page()
    with p.pg.expect_download() as download:
        lp.click(p.pg, "download_png")
    path = download.value.path()
    data = open(path, "rb").read()
    assert download.value.suggested_filename == "softmax-explainer.png"
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    width = int.from_bytes(data[16:20], "big")
    assert width >= 800  # both figures side by side


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


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_tab_reaches_every_control_with_a_visible_ring_and_nothing_else(open_page, theme):
    p = open_page(f"theme={theme}")
    reached, rings = set(), []
    for _ in range(60):
        p.pg.keyboard.press("Tab")
        name = p.pg.evaluate(FOCUSED_MODEL, [*control_names(), "logit_inputs"])
        tag, style, width, colour, page = p.pg.evaluate(RING)
        if tag == "BODY":  # past the last control, the browser's own stop: one round is every stop
            break
        assert name is not None, f"a Tab stop that is no control: {tag}"
        reached.add(name)
        lighter, darker = sorted([luminance(colour), luminance(page)], reverse=True)
        rings.append((name, style, width, round((lighter + 0.05) / (darker + 0.05), 2)))
    assert reached == {*control_names(), "logit_inputs"}, reached
    weak = [r for r in rings if r[1] != "solid" or r[2] < 2 or r[3] < 3]
    assert weak == [], weak
