"""The lesson in motion: gradient steps and playing, draws by the Gumbel-max trick, the Jacobian, and the naive
softmax in each floating-point type. Every number is compared with `core`. The page computes them the same
served and exported, and tests/browser/test_sync.py proves every control's lesson reaches Python: each test runs
where it proves something, the exported page (every non-file request refused), or served where Python's lesson
is part of the claim.
"""

import math

import numpy as np
import pytest

import core
from app.link import link_pairs, parse_link
from app.state import Lesson
from tests.browser import lessonpage as lp
from tests.browser.conftest import Page
from tests.browser.conftest import opened as served_or_exported


def opened(new_page, request, where, link):
    """A fresh page opened at `link`; the exported one with every non-file request refused."""
    return served_or_exported(new_page(block_network=where == "exported"), request, where, link)


def put(pg, link):
    """Write the lesson of `link` on the page as a script would (checked, then drawn as the page's own)."""
    pg.evaluate(f"(s) => {{ ({lp.FIND})('lesson').state = s; }}", parse_link(link_pairs(link))[0])
    lp.settled(pg)


@pytest.fixture(scope="module")
def kept(browser, request):
    """One exported page, every non-file request refused, that the module's tests of the page's own numbers share."""
    p = served_or_exported(Page(browser, block_network=True, own_context=True), request, "exported")
    yield p
    p.close()


@pytest.fixture
def lab(kept):
    """lab(link) -> the kept page showing the lesson of `link`, written on it (`put`) from wherever the test before
    left it: what the lab computes is the page's from any lesson, not from a page load."""

    def at(link):
        kept.errors.clear()  # a failed test's own, said there
        kept.pg.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
        put(kept.pg, link)
        return kept

    return at


def finish(p):
    assert p.errors == [], p.errors
    assert p.blocked == [], p.blocked
    if p.session:
        lp.wait_until(lambda: p.session().lesson.state() == lp.state(p.pg))


def shown_losses(pg):
    return lp.data(pg, "loss_history")["loss"]


def test_a_step_is_exact_and_fifty_below_four_t_squared_lower_the_loss_and_keep_the_sum(lab):
    p = lab("z=2,1,0.1&T=0.7&y=1&eps=0.1&lr=1.5&learn=1")  # 1.5 < 4T² = 1.96
    pg = p.pg
    s = lp.state(pg)
    assert shown_losses(pg) == [pytest.approx(float(core.cross_entropy(s["z"], 1, T=0.7, label_smoothing=0.1)),
                                              rel=1e-12)]
    lp.click(pg, "step")
    lp.wait_state(pg, "(s) => s.z[0] !== 2")
    after = lp.state(pg)["z"]
    want = core.gradient_step(s["z"], 1, 1.5, T=0.7, label_smoothing=0.1)
    np.testing.assert_allclose(after, want, rtol=1e-12)
    # exactly −η·(p − y′)/T from where it started
    np.testing.assert_allclose(np.array(after) - s["z"], -1.5 * core.grad_logits(s["z"], 1, T=0.7, label_smoothing=0.1),
                               rtol=1e-12)
    assert len(shown_losses(pg)) == 2
    assert shown_losses(pg)[1] == pytest.approx(float(core.cross_entropy(after, 1, T=0.7, label_smoothing=0.1)),
                                                rel=1e-12)
    assert "1.960" in lp.html(pg, "readout-update")  # the stability limit 4T², written with the update
    for _ in range(49):
        lp.click(pg, "step")
    lp.wait_until(lambda: len(shown_losses(pg)) == 51)
    losses = shown_losses(pg)
    assert all(b < a for a, b in zip(losses, losses[1:], strict=False)), losses
    z = lp.state(pg)["z"]
    assert math.fsum(z) == pytest.approx(math.fsum(s["z"]), abs=1e-12)
    # With ε = 0.1 the logits settle at the best gap, the loss at the floor H(y′) (core's values).
    assert losses[-1] == pytest.approx(core.label_smoothing_floor(3, 0.1), abs=2e-3)
    assert lp.prop(pg, "loss_figure", "visible")
    lp.set_value(pg, "log_loss", True, attr="active")  # the line is log10 L, its ticks labelled with L
    drawn = lp.data(pg, "loss_history")
    np.testing.assert_allclose(drawn["y"], np.log10(drawn["loss"]), rtol=1e-14)
    assert drawn["loss"] == losses
    finish(p)


def test_playing_for_five_seconds_shows_no_nan_and_a_drag_pauses_it(new_page, request):
    """Served: its steps are the page's alone, and the drag that pauses it is the lesson Python gets."""
    p = opened(new_page, request, "served", "lr=0.05&learn=1")
    pg = p.pg
    lp.click(pg, "play")
    lp.wait_until(lambda: lp.prop(pg, "play", "label") == "Pause")
    seen = []
    for _ in range(10):
        pg.wait_for_timeout(500)
        seen.append(pg.evaluate(f"() => Array.from(({lp.FIND})('loss_history').data.loss)"))
        for key in ("loss", "py", "update"):
            assert "NaN" not in lp.text(pg, f"readout-{key}") and "—" not in lp.text(pg, f"readout-{key}")
    assert len(seen[-1]) > len(seen[0]) > 1 and all(math.isfinite(v) for v in seen[-1])
    # Changing T while playing keeps playing, from the new lesson (no settled wait: playing never settles), and the
    # loss curve starts anew at its loss: a curve across two temperatures would show a jump no step made.
    before = len(shown_losses(pg))
    pg.evaluate(f"(v) => {{ ({lp.FIND})('temperature').value = v; }}", math.log10(0.8))
    pg.wait_for_function(f"""() => {{ const lesson = ({lp.FIND})('lesson');
      const h = globalThis.__softmax_explainer_pages.get(lesson).history;
      return lesson.state.T === 0.8 && h.T === 0.8 && h.step.length > 5; }}""")
    lp.wait_until(lambda: 5 < len(shown_losses(pg)) < before)
    assert lp.prop(pg, "play", "label") == "Pause"
    lp.drag(pg, 1, -40)
    assert lp.prop(pg, "play", "label") == "Play"
    # The drag's lesson reached Python; nothing of the steps before it comes back.
    lp.wait_until(lambda: p.session().lesson.state() == lp.state(pg))
    z = lp.state(pg)["z"]
    pg.wait_for_timeout(400)
    assert lp.state(pg)["z"] == z and lp.data(pg, "loss_history")["step"] == [0]  # a drag starts anew
    finish(p)


def test_playing_stops_by_itself_at_the_logit_limit(lab):
    p = lab("lr=100&T=0.01&y=1&learn=1")  # the first step would move dog by 10⁴
    lp.click(p.pg, "play")
    lp.wait_state(p.pg, "(s) => s.notice === 'at_limit'", timeout=10000)
    assert lp.prop(p.pg, "play", "label") == "Play"
    assert max(abs(v) for v in lp.state(p.pg)["z"]) <= 100
    finish(p)


def test_ten_thousand_draws_follow_softmax_the_same_every_time_and_as_python_draws_them(lab, new_page, request):
    link = "z=2,1,0.1&T=0.8&sample=1&n=10000&seed=20261201"
    p = lab(link)
    pg = p.pg
    counts = lp.data(pg, "samples")["count"]
    s = lp.state(pg)
    n, prob = 10_000, core.softmax(s["z"], T=s["T"])
    assert sum(counts) == n
    sigma = np.sqrt(prob * (1 - prob) / n)
    assert (np.abs(np.array(counts) / n - prob) <= 4 * sigma).all()
    lesson = Lesson(logits=s["z"], T=s["T"])
    assert lesson.sample(n, 20261201).tolist() == counts
    lp.click(pg, "add_one")  # argmax(z + 1 + g) = argmax(z + g): every draw as it was
    lp.wait_state(pg, "(s) => s.z[0] === 3")
    assert lp.data(pg, "samples")["count"] == counts
    assert "<td class=\"win\">" in lp.html(pg, "readout-race")
    again = opened(new_page, request, "exported", link)  # a page opened at the link draws the same
    assert lp.data(again.pg, "samples")["count"] == counts
    lp.set_value(pg, "seed", "1")
    lp.wait_until(lambda: lp.data(pg, "samples")["count"] != counts)
    assert sum(lp.data(pg, "samples")["count"]) == n
    finish(p)
    finish(again)


JACOBIAN_CASES = [f"z={','.join(str(v) for v in np.linspace(-3, 3, K).round(3))}&T={T}&y=0"
                  for K in range(2, 11) for T in (0.01, 100)] + ["z=1,2,3&T=1", "z=8,0,0&T=0.01"]


def test_the_jacobian_is_diag_p_minus_ppt_over_t_and_its_rows_sum_to_zero(lab):
    p = lab("jacobian=1")
    pg = p.pg
    assert lp.prop(pg, "jacobian_figure", "visible")
    for link in JACOBIAN_CASES:
        put(pg, f"{link}&jacobian=1")
        s = lp.state(pg)
        z, T, K = np.array(s["z"]), s["T"], len(s["z"])
        cells = lp.data(pg, "jacobian")
        assert cells["i"] == [i for i in range(K) for _ in range(K)] and cells["j"] == list(range(K)) * K
        J = np.array(cells["value"]).reshape(K, K)
        # core's (diag(p) − ppᵀ)/T keeps a diagonal p_i(1 − p_i) that the formula as written rounds to 0.
        want = core.softmax_jacobian(z, T=T)
        np.testing.assert_allclose(J, want, rtol=1e-12, atol=1e-15 * np.abs(want).max(), err_msg=link)
        assert np.abs(J.sum(axis=1)).max() <= 1e-15 * max(1.0, np.abs(J).max()), link
    put(pg, "z=1,2,3&T=1&jacobian=1")
    J = np.array(lp.data(pg, "jacobian")["value"]).reshape(3, 3)
    assert J.round(4).tolist() == [[0.0819, -0.022, -0.0599], [-0.022, 0.1848, -0.1628], [-0.0599, -0.1628, 0.2227]]
    chain = lp.text(pg, "readout-chain")
    assert chain.count("−0.910, 0.245, 0.665") == 2, chain  # the chain rule equals the arrows' (p − y′)/T
    finish(p)


def test_the_naive_softmax_breaks_where_the_type_overflows_and_the_figures_stay_exact(lab):
    p = lab("z=8,0,0&T=0.01&naive=1")
    pg = p.pg
    naive = lp.html(pg, "readout-naive")
    assert '<span class="badge nan">NaN</span>' in naive and "709.78" in naive
    np.testing.assert_allclose(lp.data(pg, "probs")["p"], core.softmax([8, 0, 0], T=0.01), rtol=1e-15)
    assert lp.text(pg, "readout-loss").startswith("Loss L = −ln py 0.000")
    put(pg, "z=1,0,0&T=0.01&naive=1")
    assert "badge" not in lp.html(pg, "readout-naive")
    lp.set_value(pg, "naive_dtype", 1, attr="active")  # float32: 100 > 88.72
    lp.wait_state(pg, "(s) => s.dtype === 'float32'")
    naive = lp.html(pg, "readout-naive")
    assert '<span class="badge nan">NaN</span>' in naive and "88.72" in naive
    ways = core.softmax_three_ways([1, 0, 0], 0.01, "float32")
    assert np.isnan(ways["naive"][0]) and ways["shifted"][0] == 1
    lp.set_value(pg, "naive_dtype", 2, attr="active")
    lp.wait_state(pg, "(s) => s.dtype === 'float16'")
    assert "11.09" in lp.html(pg, "readout-naive")
    np.testing.assert_allclose(lp.data(pg, "probs")["p"], core.softmax([1, 0, 0], T=0.01), rtol=1e-15)
    finish(p)


def test_a_p_below_float64_is_written_alike_on_the_bars_the_table_and_the_naive_note(lab):
    """Issue 37: a bar labelled 3.67×10⁻³⁴⁸ beside a naive table whose every way says 0: the table of classes and
    the bar write the exact p from log p, and the naive table now says why its ways give 0, with the same value."""
    p = lab("z=100,0,0&T=0.125&naive=1&open=table&tour=0")
    label = lp.data(p.pg, "probs")["label"][1]
    assert label == "3.67×10⁻³⁴⁸", label  # z/T = 800, 0, 0: e^-800 = 10^-347.435…
    written = label.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "−0123456789"))  # the readouts' HTML superscript
    assert written in lp.text(p.pg, "readout-probs")
    note = lp.text(p.pg, "readout-naive")
    assert "smallest float64" in note and f"dog {written}" in note and f"bird {written}" in note, note
    finish(p)
