"""The road to language models: wordfreq's vocabulary under top-k, top-p and min-p, causal
attention with ALiBi, a router and distillation. Every kept word and renormalised probability the page shows is
compared with `core` computed on the shipped vocabulary (app/vocabulary.py), at states a learner reaches with the
controls and by link, on the exported file with every non-file request refused (the page computes them the same
served; tests/browser/test_sync.py proves each control's lesson reaches Python).
"""

import math
import re

import numpy as np
import pytest

import core
from app import vocabulary
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.test_lab import finish, opened, put
from tests.browser.test_tour import handle

# Twenty states, (vocabulary, T, top-k, top-p, min-p): each filter alone and together, at T from 0.01 to 100,
# top-p at 1 − a bucket's edge, and top-k inside a run of equal frequencies (ties with the k-th stay).
STATES = [("en", 1.0, 0, 1.0, 0.0), ("en", 1.0, 50, 1.0, 0.0), ("en", 1.0, 0, 0.9, 0.0), ("en", 1.0, 0, 1.0, 0.05),
          ("en", 0.5, 1000, 0.9, 0.05), ("en", 2.5, 40, 0.95, 0.0), ("en", 0.01, 0, 0.5, 0.0),
          ("en", 100.0, 0, 0.3, 0.0), ("en", 0.7, 7, 1.0, 0.0), ("en", 1.3, 0, 0.0, 0.0),
          ("en", 1.0, 50_000, 0.99, 0.0), ("en", 3.0, 0, 1.0, 0.5), ("en", 0.2, 3, 0.8, 0.1),
          ("ko", 1.0, 0, 1.0, 0.0), ("ko", 1.0, 20, 0.9, 0.0), ("ko", 0.8, 0, 0.6, 0.02), ("ko", 5.0, 0, 0.1, 0.0),
          ("ko", 1.0, 9, 1.0, 0.0), ("ko", 0.05, 0, 1.0, 0.0), ("ko", 2.0, 100, 0.7, 0.01)]
REFERENCE = {"z": [0.375, 0.375, -0.125, -0.625], "v": [3.0, 0.0, -1.0, -2.0]}


def expected(lang, T, top_k, top_p, min_p):
    """core's kept words (every filter's mask, in Hugging Face's order) and their renormalised p."""
    words, z = vocabulary.unigram(lang)
    stages = vocabulary.stages(top_k, top_p, min_p)
    p = core.softmax(z, T=T)
    keep = np.ones(len(z), dtype=bool)
    for name, value in stages:
        mask = {"top_k": core.top_k_mask, "top_p": core.top_p_mask, "min_p": core.min_p_mask}[name](p, value)
        keep &= mask
        p = core.renormalise(p, mask)
    assert np.array_equal(p, core.decode(z, T, stages))
    return [w for w, k in zip(words, keep, strict=True) if k], p[keep]


def wait_decoded(pg, lang, T, top_k, top_p, min_p):
    """Until the page's decoding row is this state's (the vocabulary is unpacked in the page, once)."""
    lp.wait_until(lambda: lp.data(pg, "decoding") == {"T": [T], "top_k": [top_k], "top_p": [top_p],
                                                      "min_p": [min_p], "kept": lp.data(pg, "decoding")["kept"]}
                  and lp.state(pg)["vlang"] == lang, timeout=15)


def check_decoding(pg, state):
    words, p = expected(*state)
    wait_decoded(pg, *state)
    shown = lp.data(pg, "vocab")
    assert shown["word"] == words, state
    assert [vocabulary.unigram(state[0])[0][r - 1] for r in shown["rank"]] == words
    np.testing.assert_allclose(shown["p"], p, rtol=1e-12, atol=1e-300, err_msg=str(state))
    assert lp.data(pg, "decoding")["kept"] == [len(words)]
    unit = TEXT["en"]["vocab_unit"][state[0]]  # Korean's are morphemes, as wordfreq splits Korean text
    assert f"{len(words):,} of {len(vocabulary.unigram(state[0])[0]):,} {unit}" in lp.text(pg, "readout-decoding")
    # The plot: p before the filters at its ranks, and the kept words' renormalised p where shown.
    _, z = vocabulary.unigram(state[0])
    before = core.softmax(z, T=state[1])
    curve, kept = lp.data(pg, "vocab_curve"), lp.data(pg, "vocab_kept")
    ranks = np.array(curve["rank"]) - 1
    np.testing.assert_allclose(curve["p"], before[ranks], rtol=1e-12, atol=1e-300)
    final = core.decode(z, state[1], vocabulary.stages(*state[2:]))
    np.testing.assert_allclose(kept["p"], final[np.array(kept["rank"], dtype=int) - 1], rtol=1e-12, atol=1e-300)
    assert all(final[r - 1] > 0 for r in kept["rank"])


def link_of(lang, T, top_k, top_p, min_p, extra="tour=0&lm=1"):
    return f"{extra}&vlang={lang}&T={T:g}&topk={top_k}&topp={top_p:g}&minp={min_p:g}"


def test_the_kept_words_and_their_probabilities_equal_core_at_twenty_states(new_page, request):
    p = opened(new_page, request, "exported", link_of(*STATES[0]))
    pg = p.pg
    check_decoding(pg, STATES[0])
    # A learner's own gestures first: top-k typed, top-p by the slider's keys, the vocabulary from its menu.
    box = handle(pg, "top_k", "input")
    box.fill("50")
    box.press("Enter")
    check_decoding(pg, STATES[1])
    box.fill("0")
    box.press("Enter")
    slider = handle(pg, "top_p", ".noUi-handle")
    slider.focus()
    for _ in range(10):
        pg.keyboard.press("ArrowLeft")
    lp.wait_state(pg, "(s) => Math.abs(s.topp - 0.9) < 1e-9")
    check_decoding(pg, ("en", 1.0, 0, lp.state(pg)["topp"], 0.0))
    handle(pg, "vocab_lang", "select").select_option(label="29,988 Korean morphemes")
    check_decoding(pg, ("ko", 1.0, 0, lp.state(pg)["topp"], 0.0))
    for state in STATES[2:]:
        put(pg, link_of(*state))
        check_decoding(pg, state)
    assert "vlang=ko" in pg.url and "topk=100" in pg.url
    finish(p)


def number_in(pg, key):
    return float(re.search(r'class="value" data-value="([^"]+)"', lp.html(pg, f"readout-{key}")).group(1))


def test_attention_with_alibi_the_router_and_distillation_equal_core_on_the_pages_numbers(new_page, request):
    z = ",".join(f"{v:g}" for v in REFERENCE["z"])
    p = opened(new_page, request, "exported", f"tour=0&lm=1&z={z}&z0={z}&names=a,b,c,d&T=0.8")
    pg = p.pg
    K, T = 4, 0.8
    for head in range(9):
        handle(pg, "alibi_head", "select").select_option(label=f"h = {head}, m = 1/{2 ** head}" if head else "none")
        lp.wait_state(pg, f"(s) => s.head === '{head}'")
        m = 2.0 ** -head if head else 0.0
        assert m == (core.alibi_slopes(8)[head - 1] if head else 0.0)
        cells = lp.data(pg, "attention")
        a = np.array(cells["weight"]).reshape(K, K)
        s_ij = np.tile(np.array(REFERENCE["z"]) / T, (K, 1))
        np.testing.assert_allclose(a, core.attention_weights(s_ij, core.alibi_bias(K, m)), rtol=1e-12, atol=1e-300)
        # The ALiBi identity on the page's own weights: −m·i drops out of each row's softmax.
        tilted = core.attention_weights(s_ij + m * np.arange(K), core.alibi_bias(K, 0.0))
        np.testing.assert_allclose(a, tilted, rtol=1e-12, atol=1e-300)
        assert np.triu(a, 1).max() == 0 and np.allclose(a.sum(axis=1), 1, rtol=1e-15)
        if head:
            assert number_in(pg, "alibi") <= 1e-15 and f"m = 1/{2 ** head}" in lp.text(pg, "readout-alibi")
    box = handle(pg, "router_k", "input")
    for k in (1, 2, 3, 4):
        box.fill(str(k))
        box.press("Enter")
        lp.wait_state(pg, f"(s) => s.rk === {k}")
        w = lp.data(pg, "router")["weight"]
        np.testing.assert_allclose(w, core.router_weights(REFERENCE["z"], k), rtol=1e-12, atol=0)
        np.testing.assert_allclose(w, core.router_weights(REFERENCE["z"], k, "softmax_then_renormalise"),
                                   rtol=1e-12, atol=1e-300)
        # Exactly k experts run: at k = 1 the tie of a and b goes to a, the lower index (issue 36: both ran).
        assert math.fsum(w) == pytest.approx(1, rel=1e-15) and [x > 0 for x in w] == [i < k for i in range(K)]
        assert number_in(pg, "routing") <= 1e-12
    # Distillation: ‖∂KL/∂z‖ and its T² scaling at every T of the page's grid, and the reference's figures.
    d = lp.data(pg, "distill")
    grads = [float(np.linalg.norm(core.distillation_grad(REFERENCE["v"], REFERENCE["z"], t))) for t in d["T"]]
    np.testing.assert_allclose(d["grad"], grads, rtol=1e-12)
    np.testing.assert_allclose(d["grad_T2"], [g * t * t for g, t in zip(grads, d["T"], strict=True)], rtol=1e-12)
    assert min(d["T"]) == pytest.approx(0.01) and max(d["T"]) == pytest.approx(100)
    text = lp.text(pg, "readout-distillation")
    assert "0.697, 0.921, 0.914, 0.858, 0.812, 0.785" in text and "= 0.778" in text
    assert lp.data(pg, "distill_now")["T"] == [T]
    finish(p)


def test_the_uniform_loss_a_korean_page_and_bad_values_in_a_link(new_page, request):
    p = opened(new_page, request, "exported", "tour=0&lm=1&lang=ko&vlang=ko&topk=-1&topp=2&minp=x&rk=0&head=9")
    pg = p.pg
    s = lp.state(pg)
    assert (s["topk"], s["topp"], s["minp"], s["rk"], s["head"]) == (0, 1.0, 0.0, 2, "0")
    assert s["notice"].startswith("link_bad")
    wait_decoded(pg, "ko", 1.0, 0, 1.0, 0.0)
    words, _ = vocabulary.unigram("ko")
    shown = lp.text(pg, "readout-decoding")
    assert "형태소 29,988개 중 29,988개" in shown and words[0] in shown
    assert number_in(pg, "uniform") == pytest.approx(math.log(29_988), rel=1e-15)
    assert "10.309" in lp.text(pg, "readout-uniform") and "ln 50,257 = 10.825" in lp.text(pg, "readout-uniform")
    finish(p)


def test_closed_the_view_shows_nothing_and_unpacks_nothing(new_page, request):
    p = opened(new_page, request, "exported", "tour=0")
    pg = p.pg
    for name in ("vocab_figure", "attention_figure", "router_figure", "distill_figure"):
        assert not lp.prop(pg, name, "visible")
    for key in ("decoding", "uniform", "alibi", "routing", "distillation", "lm"):
        assert not lp.prop(pg, f"readout-{key}", "visible")
    assert lp.data(pg, "vocab")["word"] == [] and lp.data(pg, "attention")["weight"] == []
    lp.click(pg, "language_model")
    lp.wait_state(pg, "(s) => s.lm")
    wait_decoded(pg, "en", 1.0, 0, 1.0, 0.0)
    assert len(lp.data(pg, "vocab")["word"]) == 50_000
    assert lp.prop(pg, "vocab_figure", "visible") and lp.prop(pg, "distill_figure", "visible")
    finish(p)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_figures_show_their_keys_once_the_words_have_come(new_page, request, lang):
    """The next word's key names the vocabulary's size, which the page knows once it has unpacked the words
    ("… words" until then). What each of the view's figures shows on screen is then what a fresh paint of it
    shows: the key stayed "… words" until something repainted the figure (bokeh_adapter.mjs `painted_titles`;
    a new vocabulary's key: test_bokeh_adapter)."""
    p = opened(new_page, request, "exported", f"tour=0&lm=1&lang={lang}")
    pg = p.pg
    key = f"() => ({lp.FIND})('vocab_figure').above.map((m) => m.text).join(' ')"

    def painted_as_fresh(name):
        el = pg.evaluate_handle(f"() => Bokeh.index.find_one(({lp.FIND})('{name}')).el").as_element()
        el.scroll_into_view_if_needed()
        lp.painted(pg)
        shown = el.screenshot()
        pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('{name}')).request_repaint()")
        lp.painted(pg)
        return el.screenshot() == shown

    wait_decoded(pg, "en", 1.0, 0, 1.0, 0.0)
    assert "50,000" in pg.evaluate(key)
    for name in ("vocab_figure", "attention_figure", "router_figure", "distill_figure"):
        assert painted_as_fresh(name), f"{name} on screen is not what a fresh paint of it shows"
    finish(p)
