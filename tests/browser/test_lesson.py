"""The lesson, as a learner lives it, in the served app and in the exported file alike.

Every figure's data is read back from the page and compared with the Python core (the truth) to 1e-9.
"""

import math
import re

import numpy as np
import pytest

import core
from app.document import VIEW
from app.export import main as main_export
from app.readouts import fmt
from app.strings import TEXT
from tests.browser import lessonpage as lp

DEFAULT_Z = [2.0, 1.0, 0.1]


@pytest.fixture(params=["served", "exported"])
def page(request, new_page):
    """A fresh page of the explainer; exported pages run with every non-file request blocked."""
    if request.param == "served":
        url, sessions = request.getfixturevalue("served")
        p = new_page()
        p.pg.goto(url)
        p.session = lambda: sessions[-1]
    else:
        p = new_page(block_network=True)
        p.pg.goto(request.getfixturevalue("exported").as_uri())
        p.session = None
    lp.wait_ready(p.pg)
    yield p
    assert p.errors == [], f"browser console errors: {p.errors}"
    assert p.blocked == [], f"the page asked the network for {p.blocked}"


def shown(pg):
    """(z, T, y, p, g) as the page holds them."""
    settings = lp.data(pg, "settings")
    return (np.array(lp.data(pg, "logits")["z"], dtype=float), float(settings["T"][0]), int(settings["y"][0]),
            np.array(lp.data(pg, "probs")["p"]), np.array(lp.data(pg, "neg_grad")["g"]))


def plain(html):
    return re.sub(r"<[^>]+>", "", html)


def assert_consistent(pg):
    """Bars, arrows and the loss readout equal the Python core on the logits and settings the page shows."""
    z, T, y, p, g = shown(pg)
    want_p = core.softmax(z, T=T)
    np.testing.assert_allclose(p, want_p, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(g, -core.grad_logits(z, y, T=T), rtol=1e-9, atol=1e-12)
    loss = float(core.cross_entropy(z, y, T=T))
    text = lp.text(pg, "readout-loss")
    assert f"{loss:.3f} nats" in text, (loss, text)
    assert f"{loss / math.log(2):.3f} bits" in text
    entropy = lp.text(pg, "readout-entropy")
    assert f"{plain(fmt(float(core.entropy(want_p, base=2))))} bits" in entropy
    assert f"{math.log2(len(z)):.3f}" in entropy
    for key in ("readout-loss", "readout-entropy", "readout-lse", "readout-arrows", "readout-probs"):
        assert "NaN" not in lp.text(pg, key) and "undefined" not in lp.text(pg, key)
    return z, T, y, p, g


def test_contract_names_exist(page):
    for name in ("logits", "probs", "neg_grad", "settings", "temperature", "true_class", "add_one", "reset",
                 "readout-loss", "readout-entropy"):
        assert lp.exists(page.pg, name), name


def test_first_frame_is_the_spec_lesson(page):
    z, T, y, p, g = assert_consistent(page.pg)
    assert z.tolist() == DEFAULT_Z and T == 1.0 and y == 0
    # SPEC.md reference values at the default state.
    np.testing.assert_allclose(p, [0.659, 0.242, 0.099], atol=5e-4)
    assert "0.417 nats" in lp.text(page.pg, "readout-loss")
    assert "2.000 ≤ 2.417 ≤ 3.099" in lp.text(page.pg, "readout-lse")
    assert "1.585 bits" in lp.text(page.pg, "readout-entropy")
    formula = lp.text(page.pg, "readout-formula")
    # e^2 + e^1 + e^0.1 = 11.2125…: the SPEC's "≈ 11.212" truncates, three decimals round to 11.213.
    assert "7.389" in formula and "11.213" in formula and "0.659" in formula
    assert abs(g.sum()) < 1e-15


def test_drag_moves_one_logit_and_everything_follows(page):
    z0 = shown(page.pg)[0]
    lp.drag(page.pg, 0, 90)
    z1, _, _, _, g = assert_consistent(page.pg)
    assert z1[0] < z0[0] - 0.5
    assert z1[1:].tolist() == z0[1:].tolist()
    assert abs(g.sum()) < 1e-15
    assert lp.text(page.pg, "readout-arrows").endswith(" 0.000")


def test_readouts_follow_every_frame_of_a_drag(page):
    """Mid-gesture, before the mouse is released, the bars already show softmax of the moving point."""
    pg = page.pg
    x, y = lp.point_xy(pg, 1)
    pg.mouse.move(x, y)
    pg.mouse.down()
    seen = []
    for i in range(1, 6):
        pg.mouse.move(x, y - 12 * i)
        lp.settled(pg)
        z, *_ = assert_consistent(pg)
        seen.append(z[1])
    pg.mouse.up()
    assert all(b > a for a, b in zip(seen, seen[1:], strict=False)), seen


def wait_logits(pg, expected):
    pg.wait_for_function(f"(z) => {{ const now = Array.from(({lp.FIND})('logits').data.z);"
                         " return now.length === z.length && now.every((v, k) => Math.abs(v - z[k]) < 1e-9); }",
                         arg=[float(v) for v in expected])
    lp.settled(pg)


def test_add_one_moves_every_logit_and_changes_no_probability(page):
    lp.drag(page.pg, 2, -60)
    z1, _, _, p1, g1 = shown(page.pg)
    lp.click(page.pg, "add_one")
    wait_logits(page.pg, z1 + 1)
    z2, _, _, p2, g2 = assert_consistent(page.pg)
    np.testing.assert_allclose(z2 - z1, 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(p2, p1, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(g2, g1, rtol=1e-12, atol=1e-15)


def test_temperature_slider_reaches_both_ends(page):
    pg = page.pg
    handle = pg.locator(".noUi-handle").first
    for dx, check in ((600, lambda T: T == 100.0), (-600, lambda T: T == 0.01)):
        box = handle.bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        pg.mouse.move(cx, cy)
        pg.mouse.down()
        pg.mouse.move(cx + dx, cy, steps=12)
        pg.mouse.up()
        lp.settled(pg)
        _, T, _, p, _ = assert_consistent(pg)
        assert check(round(T, 12)), T
    # At T = 0.01 softmax is argmax: the largest logit (cat) takes everything.
    np.testing.assert_allclose(p, [1.0, 0.0, 0.0], atol=1e-12)


def test_temperature_set_from_script_acts_like_the_slider(page):
    for end, check in (("end", lambda T: T == 100.0), ("start", lambda T: T == 0.01)):
        page.pg.evaluate(f"() => {{ const m = ({lp.FIND})('temperature'); m.value = m.{end}; }}")
        lp.settled(page.pg)
        _, T, _, _, _ = assert_consistent(page.pg)
        assert check(round(T, 12)), T


def test_true_class_picker(page):
    page.pg.locator("select").select_option(label="bird")
    page.pg.wait_for_function(f"() => ({lp.FIND})('settings').data.y[0] === 2")
    z, T, y, p, g = assert_consistent(page.pg)
    assert y == 2
    assert g[2] > 0 and g[0] < 0 and g[1] < 0
    assert "pbird" in lp.text(page.pg, "readout-formula")


def test_reset_returns_to_the_initial_logits(page):
    lp.drag(page.pg, 1, 120)
    lp.click(page.pg, "add_one")
    lp.click(page.pg, "reset")
    wait_logits(page.pg, DEFAULT_Z)
    z, *_ = assert_consistent(page.pg)
    assert z.tolist() == DEFAULT_Z


def drag_window(pg):
    start, end = pg.evaluate(f"() => {{ const v = ({lp.VIEWS})().find(v => v.model && v.model.name === "
                             "'logit_figure'); return [v.model.y_range.start, v.model.y_range.end]; }")
    return start + VIEW["pad"], end - VIEW["pad"]


def test_dragging_far_beyond_the_axis_stops_at_its_edge(page):
    """A fast flick past the frame leaves the point at the edge it ran to, with a word on why."""
    pg = page.pg
    lo, hi = drag_window(pg)
    for k, dy, edge in ((0, -3000, hi), (1, 3000, lo), (2, -3000, hi)):
        x, y = lp.point_xy(pg, k)
        pg.mouse.move(x, y)
        pg.mouse.down()
        pg.mouse.move(x, y + dy / 2, steps=3)
        pg.mouse.move(x, y + dy, steps=3)
        lp.settled(pg)
        assert shown(pg)[0][k] == edge
        assert lp.text(pg, "readout-status") == TEXT["en"]["clamped"]
        pg.mouse.up()
        lp.settled(pg)
        z, *_ = assert_consistent(pg)
        assert z[k] == edge
    assert np.all(np.isfinite(z))


def test_backspace_never_deletes_a_class(page):
    """The drawing tool deletes a selected point on Backspace; the lesson puts it back."""
    pg = page.pg
    x, y = lp.point_xy(pg, 1)
    pg.mouse.move(x, y)
    pg.mouse.down()
    pg.mouse.move(x, y - 30, steps=5)
    pg.keyboard.press("Backspace")
    pg.mouse.up()
    lp.settled(pg)
    z, *_ = assert_consistent(pg)
    assert len(z) == 3 and z[1] > 1.0
    pg.mouse.click(*lp.point_xy(pg, 2))
    pg.keyboard.press("Backspace")
    lp.settled(pg)
    assert len(shown(pg)[0]) == 3
    if page.session:
        lp.wait_until(lambda: page.session().lesson.logits == shown(pg)[0].tolist())


def test_rapid_clicking_stays_exact(page):
    pg = page.pg
    p0 = shown(pg)[3]
    for _ in range(25):
        lp.click(pg, "add_one")
    wait_logits(pg, np.array(DEFAULT_Z) + 25)
    z, _, _, p, _ = assert_consistent(pg)
    np.testing.assert_allclose(p, p0, rtol=1e-12)
    lo, hi = drag_window(pg)
    assert lo <= z.min() and z.max() <= hi
    for _ in range(10):
        lp.click(pg, "reset")
    wait_logits(pg, DEFAULT_Z)
    assert shown(pg)[0].tolist() == DEFAULT_Z


def test_first_frame_readouts_equal_the_browser_renderer(page):
    """Python draws the first frame (app/readouts.py, app/document.py), the browser every later one
    (static/readouts.mjs, static/explainer.mjs): same HTML and same figure data for the same state."""
    keys = ("readout-loss", "readout-entropy", "readout-lse", "readout-arrows", "readout-probs",
            "readout-formula")
    sources = ("probs", "neg_grad", "settings", "point_labels")
    first = {k: lp.html(page.pg, k) for k in keys}
    first_data = {name: lp.data(page.pg, name) for name in sources}
    lp.set_value(page.pg, "true_class", "1")
    lp.set_value(page.pg, "true_class", "0")
    assert {k: lp.html(page.pg, k) for k in keys} == first
    for name in sources:
        again = lp.data(page.pg, name)
        assert again.keys() == first_data[name].keys(), name
        for column, values in first_data[name].items():
            if isinstance(values[0], str):
                assert again[column] == values, (name, column)
            else:
                np.testing.assert_allclose(again[column], values, rtol=1e-12, atol=1e-15, err_msg=f"{name}.{column}")


def served_page(request, new_page):
    url, sessions = request.getfixturevalue("served")
    p = new_page()
    p.pg.goto(url)
    lp.wait_ready(p.pg)
    return p, sessions[-1].lesson


def test_python_state_equals_the_page_after_a_gesture(request, new_page):
    """Served: the Python lesson receives each gesture and agrees with what the browser shows."""
    p, lesson = served_page(request, new_page)
    lp.drag(p.pg, 0, 70)
    lp.set_value(p.pg, "true_class", "1")
    lp.set_value(p.pg, "temperature", math.log10(0.5))
    z, T, y, prob, g = shown(p.pg)
    lp.wait_until(lambda: lesson.logits == z.tolist() and lesson.true_class == 1 and lesson.T == T)
    np.testing.assert_allclose(lesson.probabilities(), prob, rtol=1e-9)
    np.testing.assert_allclose(lesson.neg_grad(), g, rtol=1e-9, atol=1e-12)
    lp.click(p.pg, "add_one")
    lp.wait_until(lambda: lesson.logits == (z + 1).tolist())
    assert p.errors == []


def test_python_changes_reach_the_page(request, new_page):
    """A change made in Python (a notebook cell) moves the page, and a T typed in Python stays as typed."""
    p, lesson = served_page(request, new_page)
    explainer = request.getfixturevalue("served")[1][-1]
    doc = explainer.logits_source.document
    doc.add_next_tick_callback(lambda: lesson.param.update(T=0.3, logits=[0.0, 3.0, -1.0], true_class=2))
    wait_logits(p.pg, [0.0, 3.0, -1.0])
    p.pg.wait_for_function(f"() => ({lp.FIND})('settings').data.y[0] === 2")
    lp.settled(p.pg)
    _, T, y, _, _ = assert_consistent(p.pg)
    assert T == pytest.approx(0.3, rel=1e-12) and y == 2
    assert lesson.T == 0.3
    assert p.errors == []


def test_a_drag_past_the_limit_stays_in_the_lesson_bounds(request, new_page, tmp_path):
    """Logits at ±100 (the lesson's bounds): the axis is wider, but a drag stops at the bound."""
    from app.state import LOGIT_LIMIT

    out = tmp_path / "wide.html"
    assert main_export([str(out), "--logits", "100,-100,0"]) == 0
    p = new_page(block_network=True)
    p.pg.goto(out.as_uri())
    lp.wait_ready(p.pg)
    lp.drag(p.pg, 2, -3000)
    z, *_ = assert_consistent(p.pg)
    assert z[2] == LOGIT_LIMIT
    assert p.errors == []


def test_a_drag_sends_python_one_update_not_one_per_frame(request, new_page):
    """Derived sources are syncable=False: a 25-move drag reaches the server once, on release (DESIGN.md)."""
    url, _ = request.getfixturevalue("served")
    p = new_page()
    sent = []
    p.pg.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    p.pg.goto(url)
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    before = len(sent)
    lp.drag(p.pg, 1, -75, steps=25)
    patches = [m for m in sent[before:] if "PATCH-DOC" in str(m) or "ModelChanged" in str(m)]
    assert 1 <= len(patches) <= 2, [str(m)[:200] for m in sent[before:]]


def test_add_one_stops_at_the_logit_limit(new_page, tmp_path):
    """Near +100 (the axis' limit) "add 1" says why it does nothing instead of leaving the axis."""
    out = tmp_path / "limit.html"
    assert main_export([str(out), "--logits", "99.5,0,-3"]) == 0
    p = new_page(block_network=True)
    p.pg.goto(out.as_uri())
    lp.wait_ready(p.pg)
    z0 = shown(p.pg)[0]
    lp.click(p.pg, "add_one")
    p.pg.wait_for_function(f"() => ({lp.FIND})('readout-status').text !== ''")
    z, *_ = assert_consistent(p.pg)
    assert z.tolist() == z0.tolist() == [99.5, 0.0, -3.0]
    assert "±100" in lp.text(p.pg, "readout-status")
    lp.drag(p.pg, 2, -40)
    assert lp.text(p.pg, "readout-status") == ""
    assert p.errors == [] and p.blocked == []
