"""Korean on a machine with no Korean font: the page carries the Hangul of its interface (static/fonts/).

A Chromium of its own sees only Latin fonts (fontconfig told so: FONTCONFIG_FILE), as a Debian image or a lab's
Linux box does. Every Hangul character of the Korean interface is then drawn, in the readouts' own shadow root
and on the figures' canvas, and in bold in the header's title, exactly as wide as the subset font's weight says
it is: a missing glyph would be the fallback's .notdef box, of another width. Served and exported, with the
network blocked; the page's language is the document's, and its live region's from the first frame.
"""

import io
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from app import bundle
from app.export import main as main_export
from app.steps import STEPS
from app.strings import TEXT
from tests.browser import chromium
from tests.browser import lessonpage as lp
from tests.reference.make_hangul_font import needed
from tests.string_table import strings

# Latin fonts only (Debian's fontconfig pulls one of these in), never a Korean one.
LATIN = [d for d in (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
         if d.is_dir()]
SIZE = 100  # px: a width off by one unit of the font's em shows

# Each character, set in a span inside a model's element (its shadow root, its stylesheet: the loss readout,
# or the header's bold title) and on a canvas in the figures' font at the same weight, measured; the page's
# canvas font is the figures' own (set once the font has loaded).
MEASURE = """([chars, size, where, weight]) => {
  const find = """ + lp.FIND + """;
  const host = Bokeh.index.find_one(find(where)).markup_el;
  const el = host.querySelector("h1") ?? host;
  const font = find("logit_figure").title.text_font;
  const span = document.createElement("span");
  span.style.fontSize = `${size}px`; span.style.whiteSpace = "pre";
  el.append(span);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${weight} ${size}px ${font}`;
  const out = chars.map((c) => {
    span.textContent = c;
    return [getComputedStyle(span).fontWeight, span.getBoundingClientRect().width, ctx.measureText(c).width];
  });
  span.remove();
  return [font, out];
}"""


@pytest.fixture(scope="module")
def latin_browser(playwright, tmp_path_factory):
    """The whole Chromium (the fonts a page draws are the browser's), from the session's Playwright, seeing only
    Latin fonts."""
    conf = tmp_path_factory.mktemp("fonts") / "fonts.conf"
    dirs = "".join(f"<dir>{d}</dir>" for d in LATIN)
    conf.write_text(f'<?xml version="1.0"?><fontconfig>{dirs}'
                    f"<cachedir>{conf.parent / 'cache'}</cachedir></fontconfig>", encoding="utf-8")
    b = playwright.chromium.launch(executable_path=chromium.executable(), args=chromium.ARGS,
                                   env={"FONTCONFIG_FILE": str(conf), "HOME": str(conf.parent)})
    yield b
    b.close()


def advances(weight):
    """Each needed character's advance width in the subset, in ems."""
    font = TTFont(io.BytesIO(bundle.read_bytes(f"fonts/hangul-{weight}.woff2")))
    cmap, hmtx, em = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
    return {chr(c): hmtx[cmap[c]][0] / em for c in needed()}


@pytest.mark.parametrize("where", ["exported", "served"])
def test_every_hangul_character_of_the_interface_is_drawn_from_the_page_s_own_font(latin_browser, where, request,
                                                                                     tmp_path):
    if where == "served":
        url = request.getfixturevalue("served")[0] + "?lang=ko"
    else:
        out = tmp_path / "ko.html"
        assert main_export([str(out), "--lang", "ko"]) == 0
        url = out.as_uri()
    context = latin_browser.new_context(viewport={"width": 1024, "height": 900})
    pg = context.new_page()
    outside = []
    chromium.local_only(pg, url.split("/main")[0], refused=outside)
    pg.goto(url)
    lp.wait_ready(pg)
    pg.wait_for_function(f"() => ({lp.FIND})('logit_figure').title.text_font.includes('SX Hangul')")
    for where, weight in (("readout-loss", 400), ("header", 700)):
        want = advances(weight)
        font, got = pg.evaluate(MEASURE, [list(want), SIZE, where, weight])
        wrong = {c: (shown, dom, canvas, w * SIZE) for c, (shown, dom, canvas), w in zip(want, got, want.values(),
                                                                                          strict=True)
                 if shown != str(weight) or abs(dom - w * SIZE) > 0.5 or abs(canvas - w * SIZE) > 0.5}
        assert len(want) > 150 and wrong == {}, (where, font, wrong)
    # The page speaks its language from the first frame: to a screen reader, and in its live region.
    live = pg.evaluate("""() => { for (const d of Bokeh.documents) for (const m of d._all_models.values()) {
      const r = Bokeh.index.find_one(m)?.markup_el?.querySelector?.(".live-region");
      if (r) return r.textContent; } }""")
    assert pg.evaluate("() => document.documentElement.lang") == "ko" and f"{len(STEPS)}단계 중 1단계" in live, live
    assert outside == []
    context.close()


def test_the_font_adds_at_most_300_kb_to_the_page():
    assert len(bundle.fonts_css().encode("utf-8")) <= 300_000


def latin_page(latin_browser, url, width):
    """The page at url in the Latin-only Chromium, its fonts loaded, with a CDP session that reads the fonts a node
    is drawn from, and the document's node tree (shadow roots included)."""
    context = latin_browser.new_context(viewport={"width": width, "height": 900})
    pg = context.new_page()
    pg.goto(url)
    lp.wait_ready(pg)
    pg.wait_for_function("() => document.fonts.status === 'loaded'")
    cdp = context.new_cdp_session(pg)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    return context, pg, cdp, cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]


def nodes(node):
    """Every node under node, in document order, through shadow roots."""
    yield node
    for child in node.get("children", []) + node.get("shadowRoots", []):
        yield from nodes(child)


def platform_fonts(cdp, node):
    """The fonts Chromium drew a node's text from: family name → glyph count."""
    return {f["familyName"]: f["glyphCount"]
            for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]}


def test_a_page_drawn_in_english_that_turns_korean_draws_its_heading_from_the_page_s_font(latin_browser, exported):
    """The exported page is built in English; `#lang=ko` turns its heading Korean after it was laid out. Each
    Hangul character of the heading is drawn from the page's own font (Chromium's fonts of the node, over CDP),
    none from a Latin font as a box: the page loads both faces at once (static/fonts_load.js)."""
    context, _, cdp, root = latin_page(latin_browser, f"{exported.as_uri()}#lang=ko&tour=0", 375)
    heading = next(node for node in nodes(root) if node.get("nodeName") == "H1")
    fonts = platform_fonts(cdp, heading)
    hangul = sum(1 for c in TEXT["ko"]["title"] if "\uac00" <= c <= "\ud7a3")
    assert hangul > 10 and fonts.get("SX Hangul") == hangul, fonts
    context.close()


def test_latin_text_is_drawn_in_a_sans_face_on_a_machine_with_only_latin_fonts(latin_browser, exported):
    """Issue 37: where the font stack named no Linux sans, every Latin letter fell back to a serif. On a machine
    with DejaVu and Liberation only (their serifs included): the heading, the step's text, a readout and a button
    are drawn from sans faces (Chromium's fonts of each node, over CDP), and the figures' canvas font measures as a
    sans, not as the serif of the same family."""
    context, pg, cdp, root = latin_page(latin_browser, f"{exported.as_uri()}#lang=en", 1024)
    found = {}
    for node in nodes(root):
        attributes = node.get("attributes", [])
        name, classes = node.get("nodeName"), dict(zip(attributes[::2], attributes[1::2], strict=True)).get("class", "")
        for want, test in (("heading", name == "H1"), ("step", "tour-of" in classes), ("readout", "value" in classes),
                           ("button", name == "BUTTON")):
            if test and want not in found:
                found[want] = node
    assert set(found) == {"heading", "step", "readout", "button"}, found
    for what, node in found.items():
        faces = list(platform_fonts(cdp, node))
        assert faces and all("Sans" in face and "Serif" not in face for face in faces), (what, faces)
    font = pg.evaluate(f"() => ({lp.FIND})('logit_figure').title.text_font")
    widths = pg.evaluate("""(fonts) => { const ctx = document.createElement('canvas').getContext('2d');
      return fonts.map((f) => { ctx.font = `40px ${f}`; return ctx.measureText('Logits z (drag them)').width; }); }""",
                         [font, '"Liberation Sans"', '"DejaVu Sans"', '"Liberation Serif"', '"DejaVu Serif"'])
    assert widths[0] in widths[1:3] and widths[0] not in widths[3:], (font, widths)
    context.close()


# Each character drawn alone on a canvas in a font; "box" when its pixels are those of a character no Latin font
# has (Tibetan and Myanmar: Chromium draws both as the same .notdef box).
BOXES = """([chars, fonts]) => {
  const canvas = document.createElement("canvas"); canvas.width = canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const pixels = (c, font) => { ctx.clearRect(0, 0, 64, 64); ctx.font = `40px ${font}`; ctx.textBaseline = "middle";
    ctx.fillText(c, 8, 32); return ctx.getImageData(0, 0, 64, 64).data.join(); };
  const out = {};
  for (const font of fonts) {
    const box = pixels("\\u0f00", font);
    out[font] = [box === pixels("\\u1000", font) && box !== pixels("a", font),
                 chars.filter((c) => pixels(c, font) === box)];
  }
  return out;
}"""


def test_every_spanish_character_is_drawn_with_only_latin_fonts_and_none_as_a_box(latin_browser, exported):
    """Spanish needs no font of the page's own: on a machine with DejaVu and Liberation only, every character of
    the Spanish interface (á, é, ñ, ¿, «, », the maths) is drawn from them, none as .notdef's box, in the figures'
    canvas font and in the readouts' font; the heading is drawn from Latin sans faces alone, and the page speaks
    Spanish to a screen reader and in its live region."""
    context, pg, cdp, root = latin_page(latin_browser, f"{exported.as_uri()}#lang=es", 1024)
    chars = sorted({c for text in strings(TEXT["es"]) for c in text
                    if not c.isspace() and not "\uac00" <= c <= "\ud7a3"})  # the Hangul of lm_text: the test above
    assert {"á", "é", "í", "ó", "ú", "ñ", "¿", "«", "»"} <= set(chars)
    fonts = pg.evaluate(f"""() => [({lp.FIND})('logit_figure').title.text_font,
      getComputedStyle(Bokeh.index.find_one(({lp.FIND})('readout-loss')).markup_el).fontFamily]""")
    found = pg.evaluate(BOXES, [chars, fonts])
    assert found == {font: [True, []] for font in fonts}, found
    heading = next(node for node in nodes(root) if node.get("nodeName") == "H1")
    faces = platform_fonts(cdp, heading)
    assert faces and all("Sans" in face and "Hangul" not in face for face in faces), faces
    assert sum(faces.values()) == len(TEXT["es"]["title"]), faces  # every glyph, its spaces too
    live = pg.evaluate("""() => { for (const d of Bokeh.documents) for (const m of d._all_models.values()) {
      const r = Bokeh.index.find_one(m)?.markup_el?.querySelector?.(".live-region");
      if (r) return r.textContent; } }""")
    assert pg.evaluate("() => document.documentElement.lang") == "es" and f"Paso 1 de {len(STEPS)}" in live, live
    context.close()
