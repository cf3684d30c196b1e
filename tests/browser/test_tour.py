"""The guided path in the real page, served and exported, in English and Korean: every step entered with Next
alone (no set-up), then done by a real gesture (a mouse drag, key presses on a slider, typing, a click, a menu
choice), the page's check firing only then and agreeing with Python's (app/tour.py); a slip said and mended;
the live numbers in the text equal to the readouts after each gesture; "add 1" never moving a point down nor
the figures; links that open a step or hide the path; the path announced in the live region."""

import math
import re
import shutil

import numpy as np
import pytest

import core
from app import tour
from app.document import control_names
from app.steps import STEPS
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.conftest import REFUSE_STORAGE
from tests.browser.test_classroom import open_page  # noqa: F401  (the fixture: a page served and exported)

STATUS = f"""() => {{ const find = {lp.FIND};
  const text = Bokeh.index.find_one(find('tour_text')).markup_el;
  const status = Bokeh.index.find_one(find('tour_status')).markup_el.querySelector('[data-done]');
  return {{of: text.querySelector('.tour-of').textContent, done: status.dataset.done === 'true',
    live: [...text.querySelectorAll('.live'), ...status.querySelectorAll('.live')]
      .map((e) => [e.dataset.live, e.textContent])}}; }}"""
DONE = f"() => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el.querySelector('[data-done]')" \
       ".dataset.done === 'true'"
# The readout that shows each live number, written the same way.
SHOWN_IN = {"p_y": "readout-py", "loss": "readout-loss", "ln_k": "readout-loss", "lse": "readout-lse",
            "zmax": "readout-lse", "floor": "readout-floor"}
DIMMED = f"""(names) => names.filter((n) => ({lp.FIND})(n).css_classes.includes('dim'))"""
SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def status(pg):
    return pg.evaluate(STATUS)


def done(pg):
    return pg.evaluate(DONE)


def number(text):
    """A number as the page writes it: "−0.417", "6.28×10⁻⁴", "0.417 nats"."""
    text = text.replace("\u2212", "-").split()[0]
    if "×10" in text:
        mantissa, exponent = text.split("×10")
        return float(mantissa) * 10 ** int(exponent.translate(SUPERSCRIPT))
    return float(text)


def python_numbers(s):
    """The live numbers as Python computes them, in the lesson's units."""
    q = tour.quantities(s)
    per = 1 / math.log(2) if s["units"] == "bits" else 1.0
    K, y = len(s["z"]), s["y"]
    g = -core.grad_logits(np.array(s["z"]), y, T=s["T"], label_smoothing=s["eps"])
    return {"p0": q["p:0"], "p1": q["p:1"], "p_y": q[f"p:{y}"], "z0": s["z"][0], "T": s["T"], "loss": q["loss"] * per,
            "entropy_bits": q["entropy_bits"], "lse": q["lse_gap"] + q["zmax_T"], "zmax": q["zmax_T"],
            "ln_k": math.log(K) * per, "floor": float(core.label_smoothing_floor(K, s["eps"])) * per,
            "g_y": float(g[y]), "n": s["n"], "z0_start": s["initial"][0], "lnK": math.log(K), "cT": s["cT"],
            "topp": s["topp"], "alibi_far": q["alibi_far"]}


def plain(html):
    return re.sub("<[^>]+>", "", html)


def live_region(pg):
    return pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('live_region')).markup_el"
                       ".querySelector('.live-region').textContent")


def check_live_numbers(pg):
    """Each live number in the step's text is what its readout shows, and what Python computes."""
    s = lp.state(pg)
    want = python_numbers(s)
    for key, shown in status(pg)["live"]:
        if key in SHOWN_IN:
            assert shown in lp.text(pg, SHOWN_IN[key]), (key, shown, lp.text(pg, SHOWN_IN[key]))
        assert number(shown) == pytest.approx(want[key], rel=5e-3, abs=5e-4), (key, shown, want[key])


def handle(pg, name, selector):
    """An element inside a control's view (its shadow root), for a real key press, click or choice on it."""
    return pg.evaluate_handle(f"""([n, sel]) => {{ const v = Bokeh.index.find_one(({lp.FIND})(n));
      const el = (v.shadow_el ?? v.el).querySelector(sel); el.scrollIntoView({{block: 'center'}}); return el; }}""",
                              [name, selector]).as_element()


def handle_centre(pg, name, selector=".noUi-handle"):
    """The viewport position of the middle of an element inside a control's view (a slider's handle)."""
    box = handle(pg, name, selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def until_done(pg, gesture, most):
    """Repeat a gesture until the step's check fires (at most `most` times)."""
    for _ in range(most):
        if done(pg):
            return
        gesture()
        lp.settled(pg)
    pg.wait_for_function(DONE, timeout=5000)


def keys_on_slider(pg, name, key, most):
    slider = handle(pg, name, ".noUi-handle")
    slider.focus()
    until_done(pg, lambda: pg.keyboard.press(key), most)


def type_in(pg, name, selector, text):
    box = handle(pg, name, selector)
    box.fill(text)
    box.press("Enter")
    lp.settled(pg)


def drag_until_done(pg, k, dy, most):
    pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('logit_figure')).el.scrollIntoView({{block: 'center'}})")
    until_done(pg, lambda: lp.drag(pg, k, dy), most)


def click_button_of(pg, name, index):
    button = handle(pg, name, f".bk-btn-group > .bk-btn:nth-child({index + 1}), .bk-btn:nth-of-type({index + 1})")
    button.click()
    lp.settled(pg)


def play_until_done(pg):
    """Press Play, and Pause once the step's check has fired (playing pauses at its own commit)."""
    lp.click(pg, "play")
    pg.wait_for_function(DONE, timeout=15000)
    lp.click(pg, "play")
    lp.settled(pg, timeout=10000)


# How a learner does each step's task, with real input (t: the page's strings, for what a menu shows).
GESTURES = {
    "scores": lambda pg, t: drag_until_done(pg, 1, -40, 4),
    "shift": lambda pg, t: until_done(pg, lambda: lp.click(pg, "add_one"), 3),
    "naive": lambda pg, t: until_done(pg, lambda: lp.click(pg, "subtract_max"), 1),
    "temperature": lambda pg, t: keys_on_slider(pg, "temperature", "PageUp", 20),
    "lse": lambda pg, t: keys_on_slider(pg, "temperature", "PageDown", 40),
    "sigmoid": lambda pg, t: type_in(pg, "logit_inputs", "input[data-k='0']", "2"),
    "loss": lambda pg, t: drag_until_done(pg, 0, -40, 6),
    "information": lambda pg, t: click_button_of(pg, "units", 1),
    "gradient": lambda pg, t: drag_until_done(pg, 1, -40, 8),
    "runaway": lambda pg, t: play_until_done(pg),
    "smoothing": lambda pg, t: (lp.click(pg, "step"), play_until_done(pg)),
    "sampling": lambda pg, t: type_in(pg, "num_samples", "input", "10000"),
    "calibration": lambda pg, t: until_done(pg, lambda: lp.click(pg, "fit_T"), 1),
    "decoding": lambda pg, t: keys_on_slider(pg, "temperature", "PageDown", 20),
    "attention": lambda pg, t: (handle(pg, "alibi_head", "select").select_option(label=t["alibi_head_options"]["1"]),
                                lp.settled(pg)),
    "router": lambda pg, t: drag_until_done(pg, 2, -40, 6),
    "start": lambda pg, t: (handle(pg, "preset", "select").select_option(label=t["preset_uniform"]), lp.settled(pg)),
}


def missing_line(pg):
    """The task line's "what is still missing", as text ("" when none)."""
    return pg.evaluate(f"""() => {{ const el = Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector('[data-done] .missing'); return el ? el.textContent : ''; }}""")


def slip_in_step_1(pg, t):
    """A learner's slip: the cat dragged up a long way before the dog. The page says the cat moved, from where to
    where; the dog then wins and the step is still not done; "Back to the initial logits" (never dimmed) mends it."""
    lp.drag(pg, 0, -60)
    s = lp.state(pg)
    assert abs(s["z"][0] - 2.0) > 0.25 and not done(pg)
    live = status_live(pg)
    assert number(live["z0"]) == pytest.approx(s["z"][0], abs=5e-3) and number(live["z0_start"]) == 2.0
    moved = plain(t["tour_steps"]["scores"]["missing"][1]).format(name0=s["names"][0], z0_start=live["z0_start"],
                                                                  z0=live["z0"])
    assert missing_line(pg) == moved
    assert "reset" not in pg.evaluate(DIMMED, ["reset"])
    lp.click(pg, "reset")
    lp.wait_state(pg, "(s) => s.z[0] === 2")
    assert missing_line(pg) == "" and not done(pg)


def slip_in_step_3(pg, t):
    """A wrong fix: T raised (by keys on its slider) ends the overflow but changes the model: the step says so and
    is not done until "Start again" puts T back."""
    slider = handle(pg, "temperature", ".noUi-handle")
    slider.focus()
    pg.keyboard.press("PageUp")
    lp.settled(pg)
    assert lp.state(pg)["T"] != 0.01 and not done(pg)
    assert missing_line(pg) == plain(t["tour_steps"]["naive"]["missing"][2])
    lp.click(pg, "tour_setup")
    lp.wait_state(pg, "(s) => s.T === 0.01")
    assert not done(pg)


def slip_in_the_router_step(pg, t):
    """A wrong control: k raised to 3 sends the token to the bird too, but the task is about k = 2; the step says k
    changed and is done only once k is 2 again and the bird is chosen."""
    type_in(pg, "router_k", "input", "3")
    s = lp.state(pg)
    assert s["rk"] == 3 and tour.quantities(s)["routed:2"] and not done(pg)
    assert missing_line(pg) == plain(t["tour_steps"]["router"]["missing"][2])
    type_in(pg, "router_k", "input", "2")
    lp.wait_state(pg, "(s) => s.rk === 2")
    assert missing_line(pg) == "" and not done(pg)


def status_live(pg):
    return dict(status(pg)["live"])


SLIPS = {"scores": slip_in_step_1, "naive": slip_in_step_3, "router": slip_in_the_router_step}


def predict(pg, t, step, wrong):
    """Issue 37: predict, then check. The step asks first (its task not shown yet); a choice pressed with the mouse
    shows the task and says whether it was right."""
    words = t["tour_steps"][step.id]
    line = pg.evaluate(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector('[data-done]').textContent""")
    def fixed(text):  # the longest run of a string's words between its live numbers
        return max(re.split(r"\{\w+\}", plain(text)), key=len)

    assert fixed(words["predict"]) in line and fixed(words["task"]) not in line
    choice = (step.predict + 1) % len(words["choices"]) if wrong else step.predict
    button = pg.evaluate_handle(f"""(i) => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector(`[data-done] button[data-guess="${{i}}"]`)""", choice).as_element()
    button.scroll_into_view_if_needed()
    button.click()
    pg.wait_for_function(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector('[data-done] .verdict') !== null""")
    said = t["tour_wrong" if wrong else "tour_right"].format(guess=words["choices"][choice],
                                                             answer=words["choices"][step.predict])
    shown = pg.evaluate(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector('[data-done] .verdict').textContent""")
    s = lp.state(pg)
    assert shown == plain(said).format(**{f"name{k}": name for k, name in enumerate(s["names"][:3])})


# One walk through the whole path, as a learner who slips and changes language half-way: served (so Python's
# lesson must agree after every gesture), English with the slips for the first half of the article and Korean,
# chosen with the page's own language menu, from the calibration step to the last. The exported page runs the
# same modules; every other test of the path runs in both.
SWITCH_AT = next(k for k, step in enumerate(STEPS, 1) if step.id == "calibration")


def test_every_step_is_entered_with_next_alone_and_done_by_a_real_gesture(served_page):
    p = served_page
    pg = p.pg
    t = TEXT["en"]
    assert [s.id for s in STEPS] == list(GESTURES)
    for k, step in enumerate(STEPS, 1):
        if k == SWITCH_AT:
            handle(pg, "lang", "select").select_option(label=t["lang_options"]["ko"])
            lp.wait_state(pg, "(s) => s.lang === 'ko'")
            t = TEXT["ko"]
        title = plain(t["tour_steps"][step.id]["title"])
        assert status(pg)["of"] == f"{t['tour_of'].format(k=k, n=len(STEPS))} · {title}"
        s = lp.state(pg)
        assert s["initial"] == s["z"] and not done(pg) and not tour.done(step, s), f"{step.id}: done on entering"
        check_live_numbers(pg)
        if k == 1:  # "start again" pressed twice before anything else changes puts the lesson back
            lp.click(pg, "tour_setup")
            assert lp.prop(pg, "tour_setup", "label") == t["tour_undo"]
            lp.click(pg, "tour_setup")
            lp.wait_until(lambda label=t["tour_setup"]: lp.prop(pg, "tour_setup", "label") == label)
            assert lp.state(pg) == {**s, "notice": ""}
        if step.predict is not None:  # wrong, then right, in turn: both verdicts are read
            predict(pg, t, step, wrong=k % 2 == 0)
        if step.id in SLIPS:
            SLIPS[step.id](pg, t)
        GESTURES[step.id](pg, t)
        s = lp.state(pg)
        assert done(pg) and tour.done(step, s), (step.id, s)
        lp.wait_until(lambda: p.lesson.state() == lp.state(pg))
        check_live_numbers(pg)
        assert live_region(pg) == t["tour_live_done"].format(done=plain(t["tour_steps"][step.id]["done"]))
        if k < len(STEPS):
            lp.click(pg, "tour_next")
            lp.wait_state(pg, f"(s) => s.step === {k + 1}")
            assert lp.state(pg) == {**tour.enter(STEPS[k], {**s, "step": k + 1}), "notice": ""}, STEPS[k].id
            title = plain(t["tour_steps"][STEPS[k].id]["title"])
            assert live_region(pg) == t["tour_live"].format(k=k + 1, n=len(STEPS), title=title)
    assert lp.prop(pg, "tour_next", "disabled"), "no step after the last"
    assert p.records.tracebacks(p.first) == []


# Every point's height in the page (its canvas's top in the document plus its screen y) and the figures' tops.
HEIGHTS = f"""() => {{
  const v = ({lp.VIEWS})().find(v => v.model && v.model.type === 'GlyphRenderer'
                                 && v.model.data_source.name === 'logits');
  const top = (n) => Bokeh.index.find_one(({lp.FIND})(n)).el.getBoundingClientRect().top + scrollY;
  const canvas = v.parent.canvas_view.el.getBoundingClientRect().top + scrollY;
  return {{points: [...v.glyph.sy].map((sy) => canvas + sy), figures: [top('logit_figure'), top('prob_figure')]}}; }}"""


def test_add_one_never_moves_a_point_down_nor_the_figures(new_page, exported):
    """Issue 37: from the end of step 1 (the dog dragged to about 4), ten presses of "Add 1": on no press does any
    point go down the page, and the figures' tops never move (the step's "done" box and its hint included)."""
    p = new_page(block_network=True, viewport=(1280, 960))
    pg = p.pg
    pg.goto(f"{exported.as_uri()}#step=1")
    lp.wait_ready(pg)
    top = pg.evaluate(HEIGHTS)["figures"]
    per_logit = pg.evaluate(f"""() => {{ const f = Bokeh.index.find_one(({lp.FIND})('logit_figure'));
      return f.model.inner_height / (f.model.y_range.end - f.model.y_range.start); }}""")
    lp.drag(pg, 1, -3 * per_logit)  # the dog from 1 to about 4
    lp.wait_until(lambda: done(pg))
    assert 3.5 < lp.state(pg)["z"][1] < 4.5
    before = pg.evaluate(HEIGHTS)
    assert before["figures"] == top, "the step's done box moved the figures"
    for press in range(10):
        lp.click(pg, "add_one")
        lp.wait_state(pg, f"(s) => s.z[0] === {2.0 + press + 1}")
        lp.settled(pg)
        lp.point_xy(pg, 0)  # the glyph mapped to the new data and painted
        after = pg.evaluate(HEIGHTS)
        assert all(a <= b + 0.5 for a, b in zip(after["points"], before["points"], strict=True)), (press, before, after)
        assert after["figures"] == top, press
        before = after


def hash_link(p, link, settled):
    """The exported page `p` reads `link` as its hash changes, as it reads the one it opens with; first a link to
    step 2, so that a link whose lesson is the one shown is still read (`settled`: the state it gives)."""
    p.pg.evaluate("() => { location.hash = 'step=2'; }")
    lp.wait_state(p.pg, "(s) => s.step === 2")
    p.pg.evaluate("(link) => { location.hash = link; }", link)
    lp.wait_state(p.pg, settled)


def test_a_link_opens_its_step_and_a_bad_one_the_first_with_a_notice(open_page):  # noqa: F811
    """Served, each link opens a page (Python reads it too); exported, the first does and the page reads the others
    as its hash changes."""
    p = None
    for link, step, notice in (("step=5", 5, False), ("step=99", 1, True), ("step=x", 1, True)):
        if p is None or p.mode == "served":
            p = open_page(link)
        else:
            bad = str(notice).lower()
            hash_link(p, link, f"(s) => s.step === {step} && s.notice.startsWith('link_bad:') === {bad}")
        s = lp.state(p.pg)
        assert s["step"] == step and status(p.pg)["of"].startswith(f"Step {step} of {len(STEPS)} · "), link
        assert s["notice"].startswith("link_bad:") == notice, link
        if notice:
            assert "step" in lp.text(p.pg, "notice"), link


@pytest.mark.parametrize("open_page", ["served", "exported"], indirect=True)
def test_a_link_to_a_step_opens_what_the_step_describes_and_one_with_values_opens_them(open_page):  # noqa: F811
    """Issue 37: `step=3` alone enters step 3 as Next does (its overflow on screen, nothing to set up); a link with
    lesson values opens them as they are, and the step's live text describes them."""
    p = open_page("step=3")
    pg = p.pg
    s = lp.state(pg)
    assert (s["z"], s["T"], s["naive"], s["initial"]) == ([8.0, 0.0, 0.0], 0.01, True, [8.0, 0.0, 0.0])
    assert not done(pg) and "NaN" in plain(TEXT["en"]["tour_naive_over"])
    assert plain(TEXT["en"]["tour_naive_over"]) in lp.text(pg, "tour_text")
    if p.mode == "served":
        pg = open_page("step=3&T=2").pg
    else:  # read as the hash changes
        hash_link(p, "step=3&T=2", "(s) => s.step === 3 && s.T === 2")
    s = lp.state(pg)
    assert (s["z"], s["T"], s["naive"]) == ([2.0, 1.0, 0.1], 2.0, False)
    assert plain(TEXT["en"]["tour_naive_fine"]) in lp.text(pg, "tour_text")


def test_tour_0_hides_the_path_and_dims_nothing(open_page):  # noqa: F811
    p = open_page("tour=0")
    assert lp.state(p.pg)["tour"] is False
    for name in ("tour_text", "tour_status"):
        assert not lp.prop(p.pg, name, "visible")
    assert p.pg.evaluate(DIMMED, control_names()) == []
    lp.click(p.pg, "tour")
    lp.wait_state(p.pg, "(s) => s.tour")
    assert lp.prop(p.pg, "tour_text", "visible") and status(p.pg)["of"].startswith(f"Step 1 of {len(STEPS)} · ")


BOXES = f"""(names) => names.map((n) => {{ const r = Bokeh.index.find_one(({lp.FIND})(n)).el.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; }})"""
# Every text node of the path's two Divs: its font size in px.
SIZES = f"""() => {{ const out = [];
  for (const n of ['tour_text', 'tour_status']) {{
    const root = Bokeh.index.find_one(({lp.FIND})(n)).markup_el;
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) if (walk.currentNode.textContent.trim())
      out.push([walk.currentNode.textContent.trim().slice(0, 20),
                parseFloat(getComputedStyle(walk.currentNode.parentElement).fontSize)]);
  }}
  return out; }}"""


@pytest.mark.parametrize(("link", "width", "height"), [("lang=ko", 375, 740), ("lang=en&lecture=1", 1024, 768)])
def test_the_path_is_above_the_figures_clear_of_them_on_a_phone_and_large_in_lecture_mode(new_page, exported, link,
                                                                                         width, height):
    p = new_page(block_network=True, viewport=(width, height))
    p.pg.goto(f"{exported.as_uri()}#{link}&step=9")
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    text, status_, buttons, figure = p.pg.evaluate(BOXES, ["tour_text", "tour_status", "tour_next", "logit_figure"])
    assert text[3] <= status_[1] + 0.5 and status_[3] <= buttons[1] + 0.5 and buttons[3] <= figure[1] + 0.5, \
        (text, status_, buttons, figure)
    assert all(0 <= box[0] and box[2] <= width for box in (text, status_, buttons)), "nothing runs past the edge"
    assert text[1] < height, "the step's text is on the first screen"
    small = [(t, size) for t, size in p.pg.evaluate(SIZES) if size < (20 if "lecture" in link else 12)]
    assert small == [], small





def test_a_step_dims_the_controls_it_does_not_need_and_the_page_remembers_the_step(new_page, exported, tmp_path):
    p = new_page(block_network=True)
    p.pg.goto(f"{exported.as_uri()}#step=2")
    lp.wait_ready(p.pg)
    dimmed = p.pg.evaluate(DIMMED, control_names())
    assert "add_one" not in dimmed and "reset" not in dimmed
    assert {"temperature", "true_class", "subtract_max", "label_smoothing"} <= set(dimmed)
    assert lp.state(p.pg)["step"] == 2
    lp.click(p.pg, "tour_next")
    lp.wait_state(p.pg, "(s) => s.step === 3")
    dimmed = p.pg.evaluate(DIMMED, control_names())
    assert "subtract_max" not in dimmed and "temperature" in dimmed, "step 3's fix is the shift, not T"
    # Back at the plain address (no link) in the same browser: the path opens where the learner was.
    p.pg.goto("about:blank")
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    lp.wait_state(p.pg, "(s) => s.step === 3")
    # Another lesson of the same site (a second exported file, another SCORM package of the course) shares the
    # storage, not the step: it opens at its own first step.
    other = tmp_path / "other" / "explainer.html"
    other.parent.mkdir()
    shutil.copy(exported, other)
    p.pg.goto(other.as_uri())
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    assert lp.state(p.pg)["step"] == 1
    assert p.errors == []


def test_a_browser_that_refuses_storage_still_walks_the_path(new_page, exported):
    p = new_page(block_network=True)
    p.pg.add_init_script(REFUSE_STORAGE)
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    lp.click(p.pg, "tour_next")
    lp.wait_state(p.pg, "(s) => s.step === 2")
    assert p.errors == [], p.errors


def test_the_step_writes_T_as_its_slider_does_and_perplexity_as_the_loss_is_written(new_page, exported):
    """Issue 37: "12.600" beside "T = 12.6"; "Perplexity e^L 1.517" beside a loss in bits (1.517 is 2^L)."""
    p = new_page(block_network=True)
    p.pg.goto(f"{exported.as_uri()}#step=4&T=12.6&units=bits&open=info")
    lp.wait_ready(p.pg)
    assert status_live(p.pg)["T"] == "12.6"
    shown = lp.text(p.pg, "readout-perplexity")
    assert shown.startswith("Perplexity 2L"), shown
    loss_bits = tour.quantities(lp.state(p.pg))["loss"] / math.log(2)
    assert number(shown.removeprefix("Perplexity 2L").strip()) == pytest.approx(2**loss_bits, rel=5e-3)


# Where a step's view is laid out, by the step's `beside`: its first figure.
VIEW_FIGURE = {"calibration": "reliability_figure", "decoding": "vocab_figure", "attention": "attention_figure"}


def test_a_step_about_a_view_has_its_text_beside_that_view_s_figure_and_next_brings_it_into_sight(new_page, exported):
    """Issue 37: the second half's steps (calibration, decoding, attention, the router) are about figures far below
    the logits: the path's text, task and buttons sit just above the step's view, Next scrolls them to the top of
    the window with the figure on the same screen, and the step after puts the path back above the logits."""
    p = new_page(block_network=True, viewport=(1440, 900))
    p.pg.goto(f"{exported.as_uri()}#step=12")
    lp.wait_ready(p.pg)
    for k in range(13, len(STEPS) + 1):
        lp.click(p.pg, "tour_next")
        lp.wait_state(p.pg, f"(s) => s.step === {k}")
        lp.settled(p.pg)
        beside = STEPS[k - 1].beside
        figure = VIEW_FIGURE.get(beside, "logit_figure")
        p.pg.wait_for_function(f"() => Math.abs(Bokeh.index.find_one(({lp.FIND})('tour_text')).el"
                               f".getBoundingClientRect().top) < 40 || {str(beside is None).lower()}")
        text, buttons, fig = p.pg.evaluate(BOXES, ["tour_text", "tour_next", figure])
        assert buttons[3] <= fig[1] <= buttons[3] + 200, (STEPS[k - 1].id, buttons, fig)
        if beside is not None:
            assert -1 <= text[1] < 40 and fig[1] < 900, (STEPS[k - 1].id, text, fig)
    assert p.errors == [], p.errors
    # A link with lesson values opens them as they are: the vocabulary closed, the path stays above the logits
    # and says what is missing first.
    p.pg.goto(f"{exported.as_uri()}#step=14&vlang=ko")
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    assert lp.state(p.pg)["lm"] is False
    buttons, fig = p.pg.evaluate(BOXES, ["tour_next", "logit_figure"])
    assert buttons[3] <= fig[1], (buttons, fig)
    predict(p.pg, TEXT["en"], STEPS[13], wrong=False)
    assert missing_line(p.pg) == plain(TEXT["en"]["tour_steps"]["decoding"]["missing"][0])


# Every text node in sight, through the widgets' shadow roots: its font size in px (sub- and superscripts too).
TEXT_IN_SIGHT = """() => { const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (texts.nextNode()) {
      const node = texts.currentNode, el = node.parentElement;
      if (!node.textContent.trim() || !el) continue;
      const r = el.getBoundingClientRect(), style = getComputedStyle(el);
      if (r.width === 0 || r.bottom <= 0 || r.top >= innerHeight || style.visibility === 'hidden') continue;
      out.push([node.textContent.trim().slice(0, 30), parseFloat(style.fontSize)]);
    } };
  walk(document); return out; }"""
# Every text a figure in sight draws on its canvas: title, key, axis labels, ticks, value labels.
CANVAS_TEXT = """() => { const out = [];
  for (const d of Bokeh.documents) for (const m of d._all_models.values()) {
    if (m.type !== 'Figure' || !m.visible) continue;
    const v = Bokeh.index.find_one(m), r = v?.el.getBoundingClientRect();
    if (!r || r.top >= innerHeight || r.bottom <= 0) continue;
    const sizes = [m.title.text_font_size, ...m.above.map((a) => a.text_font_size)];
    for (const axis of [...m.below, ...m.left]) {
      sizes.push(axis.axis_label_text_font_size, axis.major_label_text_font_size);
    }
    for (const labels of m.center.filter((c) => c.type === 'LabelSet')) sizes.push(labels.text_font_size.value);
    for (const size of sizes) out.push([m.name, parseFloat(size)]);
  }
  return out; }"""


@pytest.mark.parametrize(("link", "width", "height"), [("lang=en", 375, 740), ("lang=ko", 375, 740),
                                                       ("lecture=1", 1024, 768), ("lecture=1&lang=ko", 1024, 768),
                                                       ("lecture=1&theme=dark&step=4", 1024, 768)])
def test_the_first_screen_holds_the_figures_and_the_loss_on_a_phone_and_in_lecture_mode(new_page, exported, link, width,
                                                                                       height):
    """Issue 37: with the path on (the default, and the `--lecture` export), the first screen of a 375 px phone
    holds the logits, the bars and the loss; in lecture mode at 1024 × 768 the path folds to its line (the
    paragraph opens from it) so the figures, T and the loss are on it too, and every text there, the figures'
    keys included, is at least 20 px."""
    p = new_page(block_network=True, viewport=(width, height))
    p.pg.goto(f"{exported.as_uri()}#{link}")
    lp.wait_ready(p.pg)
    lp.settled(p.pg)
    pg = p.pg
    line = pg.evaluate("() => getComputedStyle(document.documentElement).lineHeight") or "30px"
    for name in ("logit_figure", "prob_figure"):
        assert lp.box(pg, name)[3] <= height, (name, lp.box(pg, name))
    loss = pg.evaluate(f"""() => {{ const el = Bokeh.index.find_one(({lp.FIND})('readout-loss')).markup_el
      .querySelector('.value') ?? Bokeh.index.find_one(({lp.FIND})('readout-loss')).markup_el;
      const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }}""")
    assert loss[1] <= height, ("the loss's value is on the first screen", loss, line)
    paragraph = pg.evaluate(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_text')).markup_el
      .querySelector('details.step-text')""")
    assert paragraph is not None, "the path folds to its line"
    if "lecture" in link:
        # T's title with its value in sight; at the first step (what the `--lecture` export opens) its slider too.
        t_box = lp.box(pg, "temperature")
        assert t_box[1] + 30 <= height and (t_box[3] <= height or "step=" in link), ("T on the first screen", t_box)
        small = [t for t in [*pg.evaluate(TEXT_IN_SIGHT), *pg.evaluate(CANVAS_TEXT)] if t[1] < 20]
        assert small == [], small
    # The folded paragraph opens from its line, with the step's live numbers.
    pg.evaluate(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_text')).markup_el
      .querySelector('details.step-text > summary').click()""")
    pg.wait_for_function(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_text')).markup_el
      .querySelector('details.step-text').open""")
    check_live_numbers(pg)
    assert p.errors == [], p.errors
