"""The whole lesson, part 1, in the served page and the exported file: any number of named classes, label
smoothing, the information view and units, presets. Every value is compared with `core`.
"""

import math
import re

import numpy as np
import pytest

import core
from tests.browser import lessonpage as lp
from tests.browser.test_lesson import assert_consistent

VALUE = re.compile(r'<span class="value">([−\-0-9.]+) ([^<\s]+)')


def shown_value(pg, key):
    """(number, unit) a readout shows first."""
    number, unit = VALUE.search(lp.html(pg, f"readout-{key}")).groups()
    return float(number.replace("−", "-")), unit


def one_row_per_class(pg):
    K = len(lp.state(pg)["z"])
    for name in ("logits", "probs", "neg_grad", "target", "point_labels"):
        assert {len(v) for v in lp.data(pg, name).values()} == {K}, name
    assert len(lp.data(pg, "logits")["name"]) == K
    return K


@pytest.mark.parametrize("eps", [0.1, 0.5])
def test_label_smoothing(lesson_page, eps):
    pg = lesson_page.pg
    lp.set_value(pg, "sections", [1], attr="active")  # the information, where the best gap is
    lp.click(pg, "add_class")  # four classes: the SPEC's K = 4 example
    lp.wait_state(pg, "(s) => s.z.length === 4")
    lp.set_value(pg, "label_smoothing", eps)
    s = lp.state(pg)
    z, T, y, K = np.array(s["z"]), s["T"], s["y"], 4
    target = core.smoothed_target(y, K, eps)
    np.testing.assert_allclose(lp.data(pg, "target")["y"], target, rtol=1e-15)
    p = core.softmax(z, T=T)
    np.testing.assert_allclose(lp.data(pg, "neg_grad")["g"], (target - p) / T, rtol=1e-9, atol=1e-12)
    assert_consistent(pg)
    loss = float(core.cross_entropy(z, y, T=T, label_smoothing=eps))
    floor = core.label_smoothing_floor(K, eps)
    assert shown_value(pg, "loss") == (round(loss, 3), "nats")
    assert shown_value(pg, "floor") == (round(floor, 3), "nats")
    kl = shown_value(pg, "kl")[0]
    assert abs(kl + shown_value(pg, "floor")[0] - shown_value(pg, "loss")[0]) <= 0.0015  # three decimals each
    if eps == 0.1:  # SPEC: K = 4, ε = 0.1: the floor is 0.349 nats, the best logit gap 3.61
        assert shown_value(pg, "floor")[0] == 0.349 and "3.611" in lp.text(pg, "readout-gap")
    assert lp.prop(pg, "readout-gap", "visible")
    nats = {key: shown_value(pg, key)[0] for key in ("loss", "entropy", "floor", "kl")}
    lp.set_value(pg, "units", 1, attr="active")
    for key, value in nats.items():
        in_bits, unit = shown_value(pg, key)
        assert unit == "bits" and abs(in_bits - value / math.log(2)) <= 0.0015, key
    assert lp.text(pg, "readout-loss").index("bits") < lp.text(pg, "readout-loss").index("nats")
    lp.set_value(pg, "label_smoothing", 0.0)
    assert not lp.prop(pg, "readout-gap", "visible")


def test_adding_and_removing_classes_at_both_limits(lesson_page):
    pg = lesson_page.pg
    for K in range(4, 11):
        lp.click(pg, "add_class")
        lp.wait_state(pg, f"(s) => s.z.length === {K}")
        assert one_row_per_class(pg) == K
        assert_consistent(pg)
    lp.click(pg, "add_class")  # the eleventh is refused, with a word on why
    lp.wait_state(pg, "(s) => s.notice === 'max_classes'")
    assert one_row_per_class(pg) == 10 and "At most 10" in lp.text(pg, "notice")
    names = lp.state(pg)["names"]
    assert len(set(names)) == 10 and names[:3] == ["cat", "dog", "bird"]
    lp.set_value(pg, "true_class", "9")
    for K in range(9, 1, -1):
        lp.click(pg, "remove_class")
        lp.wait_state(pg, f"(s) => s.z.length === {K}")
        assert one_row_per_class(pg) == K and lp.state(pg)["y"] == K - 1
        assert_consistent(pg)
    lp.click(pg, "remove_class")
    lp.wait_state(pg, "(s) => s.notice === 'min_classes'")
    assert one_row_per_class(pg) == 2


def test_renaming(lesson_page):
    pg = lesson_page.pg
    lp.set_value(pg, "class_names", "ant, bee , wasp")
    assert lp.state(pg)["names"] == ["ant", "bee", "wasp"] == lp.data(pg, "logits")["name"]
    assert "ant" in lp.text(pg, "readout-probs")
    ticks = pg.evaluate(f"() => ({lp.FIND})('logit_figure').below[0].formatter.args.names")
    assert ticks == ["ant", "bee", "wasp"]
    for text, why in (("a,b", "Give one name per class"), ("a,a\u200b,c", "differ"), ("a,,c", "blank")):
        lp.set_value(pg, "class_names", text)
        pg.wait_for_function(f"(why) => ({lp.FIND})('notice').text.includes(why)", arg=why)
        assert lp.state(pg)["names"] == ["ant", "bee", "wasp"]
        assert lp.prop(pg, "class_names", "value") == "ant, bee, wasp"


def test_presets(lesson_page):
    pg = lesson_page.pg
    lp.set_value(pg, "preset", "two")
    s = lp.state(pg)
    assert s["names"] == ["cat", "dog"] and s["z"] == [2.0, 1.0]
    # Two classes: softmax is the logistic sigmoid, p_1 = σ((z_1 − z_2)/T) = σ(1) = 0.731 (mpmath 0.7310585…).
    assert lp.data(pg, "probs")["p"][0] == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-15)
    assert "σ(1.000)" in lp.text(pg, "readout-sigmoid") and "0.731" in lp.text(pg, "readout-sigmoid")
    lp.set_value(pg, "preset", "ten")
    assert len(lp.state(pg)["z"]) == 10 and not lp.prop(pg, "readout-sigmoid", "visible")
    lp.set_value(pg, "preset", "uniform")
    s = lp.state(pg)
    assert s["z"] == [0.0] * 10
    # A model that knows nothing: the loss is ln K = ln 10 = 2.303 (SPEC), perplexity K.
    assert shown_value(pg, "loss") == (2.303, "nats") and "10.000" in lp.text(pg, "readout-perplexity")
    assert "ln K = 2.303 nats" in lp.text(pg, "readout-loss")
    lp.set_value(pg, "preset", "seed")
    assert lp.state(pg)["z"] == [2.0, 1.0, 0.1] and lp.prop(pg, "preset", "value") == ""
    assert_consistent(pg)


HOSTILE = ["<img src=x onerror=alert(1)>", "</script>", "$$\\alpha$$", "가" * 28]


def test_names_typed_in_the_page_stay_text(lesson_page):
    pg = lesson_page.pg
    count = pg.evaluate("() => { const n = (r) => { let c = 0; for (const e of r.querySelectorAll('*')) { c += 1;"
                        " if (e.shadowRoot) c += n(e.shadowRoot); } return c; }; window.__n = n; return n(document); }")
    lp.click(pg, "add_class")
    lp.wait_state(pg, "(s) => s.z.length === 4")
    lp.set_value(pg, "class_names", ",".join(HOSTILE))
    assert lp.state(pg)["names"] == HOSTILE
    assert lp.data(pg, "logits")["name"] == HOSTILE
    shown = pg.evaluate(f"() => {{ const v = Bokeh.index.find_one(({lp.FIND})('readout-probs'));"
                        " return Array.from(v.markup_el.querySelectorAll('td:first-child'), (td) => td.textContent); }")
    assert shown == HOSTILE
    # Nothing the names hold became an element: no img, no script, no MathJax, no more nodes than names need.
    tags = pg.evaluate("() => { const out = []; const walk = (r) => { for (const e of r.querySelectorAll('*'))"
                       " { out.push(e.localName); if (e.shadowRoot) walk(e.shadowRoot); } }; walk(document);"
                       " return out; }")
    assert "img" not in tags and tags.count("script") == pg.evaluate("() => document.scripts.length")
    assert not pg.evaluate("() => 'MathJax' in window")
    assert pg.evaluate("() => window.__n(document)") < count + 200
    options = pg.evaluate(f"() => Array.from(Bokeh.index.find_one(({lp.FIND})('true_class')).input_el.options,"
                          " (o) => o.textContent)")
    assert options == HOSTILE
