"""'Save figures (SVG)': the figures the PNG saves, as one SVG file of shapes and text (Bokeh's SVG backend for the
saved copy only: the page's figures stay canvases), opened from disk with every non-file request refused."""

import xml.etree.ElementTree as ET

import core
from tests.browser import lessonpage as lp

SVG = "{http://www.w3.org/2000/svg}"
# Each figure's axis labels and title as its Bokeh models hold them (what the page wrote there).
LABELS = f"""() => ['logit_figure', 'prob_figure'].flatMap((n) => {{ const f = ({lp.FIND})(n);
  return [...f.left, ...f.below].map((a) => a.axis_label).concat([f.title?.text]).filter((t) => t); }})"""


def test_the_figures_download_as_an_svg_of_text_and_shapes(new_page, exported):
    p = new_page(block_network=True, accept_downloads=True)
    p.pg.goto(exported.as_uri() + "#z=2,1,0.1&T=0.5&eps=0.1&y=1&names=cat,dog,fox&tour=0")
    lp.wait_ready(p.pg)
    canvases = p.pg.evaluate("() => document.querySelectorAll('*').length")
    with p.pg.expect_download() as download:
        lp.click(p.pg, "download_svg")
    assert download.value.suggested_filename == "softmax-explainer.svg"
    data = open(download.value.path(), "rb").read()
    root = ET.fromstring(data)  # well-formed, or this raises
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>') and root.tag == f"{SVG}svg"
    width, height = float(root.get("width")), float(root.get("height"))
    figures = root.findall(f"{SVG}svg")
    assert len(figures) == 2, "the two figures, side by side"
    assert [float(f.get("x")) for f in figures] == [0, float(figures[0].get("width"))]
    assert width == sum(float(f.get("width")) for f in figures) >= 800
    assert height > max(float(f.get("height")) for f in figures), "the caption under them"
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    for label in p.pg.evaluate(LABELS):
        assert label in texts, (label, texts)
    for name in ("cat", "dog", "fox"):
        assert any(name in t for t in texts), (name, texts)
    loss = float(core.cross_entropy([2, 1, 0.1], 1, T=0.5, label_smoothing=0.1))
    caption = f"T = 0.5 · ε = 0.1 · K = 3 · true class dog: p = 0.117 · loss L = {loss:.3f} nats"
    assert caption in texts, texts
    assert len(list(root.iter(f"{SVG}path"))) + len(list(root.iter(f"{SVG}rect"))) > 20, "the bars and axes drawn"
    # The page drew its copy without adding anything to its own document, and stays canvas.
    assert p.pg.evaluate("() => document.querySelectorAll('*').length") == canvases
    assert p.errors == [] and p.blocked == [], (p.errors, p.blocked)
