"""The figures of functions (issue 37): after a real drag, each curve the page drew is core's function at the
very points it drew (−ln p, σ of the margin, each p and the entropy against T), the lesson's point lies on its
curve, and the log-sum-exp band on the logit figure runs from max z to max z + T ln K with T·LSE(z/T) inside."""

import math

import numpy as np
import pytest

import core
from app.strings import TEXT
from tests.browser import lessonpage as lp

# A source's columns, a multi-line's lists of lists as plain lists.
COLUMNS = f"""(n) => {{ const m = ({lp.FIND_SOURCE})(n); const o = {{}};
  for (const [k, v] of (m.data.entries ? m.data.entries() : Object.entries(m.data)))
    o[k] = Array.from(v, (e) => (e && typeof e === 'object' ? Array.from(e) : e));
  return o; }}"""


def columns(pg, name):
    return pg.evaluate(COLUMNS, name)


def open_dragged(new_page, exported, link):
    """The exported page at `link`, then the cat dragged down 30 px: the figures follow a gesture, not a link."""
    p = new_page(block_network=True, viewport=(1440, 900))
    p.pg.goto(f"{exported.as_uri()}#{link}")
    lp.wait_ready(p.pg)
    p.pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('logit_figure')).el.scrollIntoView({{block: 'center'}})")
    before = lp.state(p.pg)["z"][0]
    lp.drag(p.pg, 0, 30)
    lp.wait_state(p.pg, f"(s) => s.z[0] < {before}")
    lp.settled(p.pg)
    return p


def test_each_curve_is_core_s_function_and_the_lesson_s_point_lies_on_it_and_the_lse_band_is_core_s_bounds(
        new_page, exported):
    """After a drag, each figure the learner chooses in turn (−ln p, σ of the margin, p against T) is core's function
    at the points drawn, with the lesson's point on it; and log-sum-exp, open beside them, is core's band."""
    p = open_dragged(new_page, exported, "z=3,-1,0.5,1.5&y=1&T=0.7&units=bits&fn=nll&open=lse")
    pg = p.pg
    for fn in ("nll", "sigmoid", "sweep"):
        if fn != "nll":
            lp.set_value(pg, "function", fn)
            lp.wait_state(pg, f"(s) => s.fn === '{fn}'")
        assert_curve(pg, fn)
    assert_lse_band(pg)
    assert p.errors == [], p.errors


def assert_curve(pg, fn):
    s = lp.state(pg)
    z, T, y = np.array(s["z"]), s["T"], s["y"]
    prob = core.softmax(z, T=T)
    curves, dashed, points = columns(pg, "fn_curves"), columns(pg, "fn_dashed"), columns(pg, "fn_points")
    assert lp.prop(pg, "function_figure", "visible")
    assert pg.evaluate(f"() => ({lp.FIND})('function_figure').title.text") == TEXT["en"][f"fn_{fn}_title"]
    if fn == "nll":
        xs, ys = np.array(curves["xs"][0]), np.array(curves["ys"][0])
        assert len(xs) > 100 and xs.min() == pytest.approx(1e-3) and xs.max() == 1.0
        np.testing.assert_allclose(ys, -np.log2(xs), rtol=1e-12, atol=1e-15)
        assert points["x"] == pytest.approx([prob[y]], rel=1e-12)
        assert points["y"] == pytest.approx([float(core.cross_entropy(z, y, T=T)) / math.log(2)], rel=1e-12)
    elif fn == "sigmoid":
        xs, ys = np.array(curves["xs"][0]), np.array(curves["ys"][0])
        np.testing.assert_allclose(ys, 0.5 * (1 + np.tanh(xs / 2)), rtol=1e-12, atol=1e-15)  # σ(x), another way
        margin = z[y] / T - float(core.logsumexp(np.delete(z, y) / T))
        assert points["x"] == pytest.approx([margin], rel=1e-12)
        assert points["y"] == pytest.approx([prob[y]], rel=1e-12)
        assert 1 / (1 + math.exp(-margin)) == pytest.approx(prob[y], rel=1e-12), "p_y is σ of its margin"
    else:
        logT = np.array(curves["xs"][0])
        assert logT[0] == -2 and logT[-1] == pytest.approx(2) and len(curves["ys"]) == len(z)
        sweep = np.array([core.softmax(z, T=10**v) for v in logT])
        np.testing.assert_allclose(np.array(curves["ys"]).T, sweep, rtol=1e-12, atol=1e-300)
        H = np.array([float(core.entropy(q)) for q in sweep]) / math.log(len(z))
        np.testing.assert_allclose(dashed["ys"][0], H, rtol=1e-12, atol=1e-15)
        assert points["x"] == pytest.approx([math.log10(T)] * (len(z) + 1), rel=1e-12)
        want = [*prob, float(core.entropy(prob)) / math.log(len(z))]
        np.testing.assert_allclose(points["y"], want, rtol=1e-12)
        ticks = pg.evaluate(f"""() => {{ const a = ({lp.FIND})('function_figure').below[0];
          return Object.fromEntries(a.major_label_overrides); }}""")
        assert ticks == {"-2": "0.01", "-1": "0.1", "0": "1", "1": "10", "2": "100"}


def assert_lse_band(pg):
    s = lp.state(pg)
    z, T = np.array(s["z"]), s["T"]
    marks = columns(pg, "lse_marks")
    assert marks["y0"] == [z.max()]
    assert marks["y1"] == pytest.approx([z.max() + T * math.log(len(z))], rel=1e-12)
    assert marks["y"] == pytest.approx([T * float(core.logsumexp(z / T))], rel=1e-12)
    assert marks["y0"][0] <= marks["y"][0] <= marks["y1"][0]
    key = pg.evaluate(f"() => ({lp.FIND})('logit_figure').above[0].text")
    assert TEXT["en"]["lse_marks_hint"] in " ".join(key.split())  # beside the function figure, it takes two lines
    lp.click(pg, "sections")  # the first button, "Table": the band stays while log-sum-exp is open
    assert columns(pg, "lse_marks")["y"] != []


def test_the_function_figure_sits_beside_the_bars_on_a_wide_screen_and_below_them_on_a_narrow_one(new_page, exported):
    """Opened on a wide screen, then the window made narrow (the page follows a width as it opens at one)."""
    p = new_page(block_network=True, viewport=(1440, 900))
    p.pg.goto(f"{exported.as_uri()}#fn=nll")
    lp.wait_ready(p.pg)
    for width, beside in ((1440, True), (1024, False)):
        if width != 1440:
            wide = lp.prop(p.pg, "prob_figure", "inner_width")
            p.pg.set_viewport_size({"width": width, "height": 900})
            p.pg.wait_for_function(f"() => ({lp.FIND})('prob_figure').inner_width !== {wide}")  # laid out anew
        lp.painted(p.pg)
        lp.settled(p.pg)
        bars, fn = lp.box(p.pg, "prob_figure"), lp.box(p.pg, "function_figure")  # left, top, right, bottom
        if beside:
            assert abs(fn[1] - bars[1]) < 1 and fn[0] >= bars[2], (bars, fn)
        else:
            assert fn[1] >= bars[3], (bars, fn)
        assert fn[0] >= 0 and fn[2] <= width


def test_alibi_s_factor_is_drawn_against_distance_and_the_bars_are_core_s_weights(new_page, exported):
    """Issue 37: attention with ALiBi's e^(−m·d) drawn against distance: after a drag, each bar is the last token's
    weight d tokens back over its weight on itself, from core's attention weights, and the line is e^(−m·d) of the
    head's slope; on equal scores (the attention step) the bars stand on the line."""
    p = open_dragged(new_page, exported, "z=1,0.5,2,0,-1&T=0.8&lm=1&head=2&tour=0")
    s = lp.state(p.pg)
    z, T, K = np.array(s["z"]), s["T"], len(s["z"])
    m = core.alibi_slopes(8)[1]
    last = core.attention_weights(np.tile(z / T, (K, 1)), core.alibi_bias(K, m))[-1]
    bars, line = columns(p.pg, "alibi_decay"), columns(p.pg, "alibi_factor")
    assert bars["d"] == list(range(K))
    np.testing.assert_allclose(bars["ratio"], last[::-1] / last[-1], rtol=1e-12)
    np.testing.assert_allclose(line["factor"], np.exp(-m * np.array(line["d"])), rtol=1e-12)
    assert line["d"][0] == 0 and line["d"][-1] == K - 1
    assert p.pg.evaluate(f"() => ({lp.FIND})('decay_figure').title.text") == TEXT["en"]["decay_title"]
    p.pg.goto(f"{exported.as_uri()}#step=15")  # six equal scores: only distance is left
    lp.wait_ready(p.pg)
    p.pg.evaluate(f"() => ({lp.FIND})('alibi_head').value = '1'")
    lp.wait_state(p.pg, "(s) => s.head === '1'")
    lp.settled(p.pg)
    bars, line = columns(p.pg, "alibi_decay"), columns(p.pg, "alibi_factor")
    np.testing.assert_allclose(bars["ratio"], np.exp(-0.5 * np.arange(6)), rtol=1e-12)
    assert p.errors == [], p.errors


def test_the_strip_shows_softmax_in_three_moves_with_core_s_shares(new_page, exported):
    """Issue 37: z → e^(z/T) → ÷ Σ for the table's numbers: after a drag, each class's exponential bar is its share
    of the largest, e^((z − max z)/T), and its p bar is core's p, both as the page writes widths (two decimals);
    the numbers beside them are the table's."""
    p = open_dragged(new_page, exported, "z=3,1,-2,0.5&T=0.8&open=table&tour=0")
    s = lp.state(p.pg)
    z, T = np.array(s["z"]), s["T"]
    rows = p.pg.evaluate(f"""() => {{ const el = Bokeh.index.find_one(({lp.FIND})('readout-strip')).markup_el;
      return [...el.querySelectorAll('.stage')].map((st) => [parseFloat(st.querySelector('.fill').style.width),
        st.querySelector('.num').textContent]); }}""")
    shares = np.exp((z - z.max()) / T)
    prob = core.softmax(z, T=T)
    assert len(rows) == 2 * len(z)
    np.testing.assert_allclose([w for w, _ in rows[0::2]], 100 * shares, atol=0.005)
    np.testing.assert_allclose([w for w, _ in rows[1::2]], 100 * prob, atol=0.005)
    table = lp.text(p.pg, "readout-probs")
    assert all(number in table for _, number in rows), (rows, table)
    assert p.errors == [], p.errors
