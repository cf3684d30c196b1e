"""The guided path in the real page, served and exported, in English and Korean: every step set up with its
button, then done by a real gesture (a mouse drag, key presses on a slider, typing, a click, a menu choice), the
page's check firing only then and agreeing with Python's (app/tour.py); the live numbers in the text equal to the
readouts after each gesture; links that open a step or hide the path; the path announced in the live region."""

import math
import re

import numpy as np
import pytest

import core
from app import tour
from app.document import control_names
from app.steps import STEPS
from app.strings import TEXT
from tests.browser import lessonpage as lp
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
            "g_y": float(g[y]), "n": s["n"]}


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
    "naive": lambda pg, t: keys_on_slider(pg, "temperature", "ArrowRight", 20),
    "temperature": lambda pg, t: keys_on_slider(pg, "temperature", "PageUp", 20),
    "lse": lambda pg, t: keys_on_slider(pg, "temperature", "PageDown", 20),
    "sigmoid": lambda pg, t: type_in(pg, "logit_inputs", "input[data-k='0']", "2"),
    "loss": lambda pg, t: drag_until_done(pg, 0, -40, 6),
    "information": lambda pg, t: click_button_of(pg, "units", 1),
    "gradient": lambda pg, t: drag_until_done(pg, 1, -40, 8),
    "runaway": lambda pg, t: play_until_done(pg),
    "smoothing": lambda pg, t: (lp.click(pg, "step"), play_until_done(pg)),
    "sampling": lambda pg, t: type_in(pg, "num_samples", "input", "10000"),
    "start": lambda pg, t: (handle(pg, "preset", "select").select_option(label=t["preset_uniform"]), lp.settled(pg)),
}


# Korean in the exported page only: a served page draws the same explainer document (app/page.py), and what the
# language changes is the page's alone.
@pytest.mark.parametrize(("open_page", "lang"), [("served", "en"), ("exported", "en"), ("exported", "ko")],
                         indirect=["open_page"])
def test_every_step_is_set_up_then_done_by_a_real_gesture(open_page, lang):  # noqa: F811
    p = open_page(f"lang={lang}")
    pg = p.pg
    t = TEXT[lang]
    assert [s.id for s in STEPS] == list(GESTURES)
    for k, step in enumerate(STEPS, 1):
        title = plain(t["tour_steps"][step.id]["title"])
        assert status(pg)["of"] == f"{t['tour_of'].format(k=k, n=len(STEPS))} · {title}"
        before = lp.state(pg)
        lp.click(pg, "tour_setup")
        want = {**tour.setup_state(step, before), "notice": ""}
        lp.wait_state(pg, f"(s) => s.z.length === {len(want['z'])} && s.z[0] === {want['z'][0]}"
                      f" && s.T === {want['T']}")
        assert lp.state(pg) == want, step.id
        assert not done(pg) and not tour.done(step, lp.state(pg)), f"{step.id}: done on its set-up state"
        check_live_numbers(pg)
        if k == 1:  # "set it up" pressed again before anything else changes puts the lesson back
            assert lp.prop(pg, "tour_setup", "label") == t["tour_undo"]
            lp.click(pg, "tour_setup")
            lp.wait_state(pg, f"(s) => s.step === {k} && s.T === {before['T']}")
            assert lp.state(pg) == {**before, "notice": ""}
            lp.click(pg, "tour_setup")
            lp.wait_state(pg, "(s) => s.T === 1")
        GESTURES[step.id](pg, t)
        s = lp.state(pg)
        assert done(pg) and tour.done(step, s), (step.id, s)
        check_live_numbers(pg)
        assert live_region(pg) == t["tour_live_done"].format(done=plain(t["tour_steps"][step.id]["done"]))
        if k < len(STEPS):
            lp.click(pg, "tour_next")
            lp.wait_state(pg, f"(s) => s.step === {k + 1}")
            title = plain(t["tour_steps"][STEPS[k].id]["title"])
            assert live_region(pg) == t["tour_live"].format(k=k + 1, n=len(STEPS), title=title)
    assert lp.prop(pg, "tour_next", "disabled"), "no step after the last"


@pytest.mark.parametrize(("link", "step", "notice"), [("step=5", 5, False), ("step=99", 1, True),
                                                       ("step=x", 1, True)])
def test_a_link_opens_its_step_and_a_bad_one_the_first_with_a_notice(open_page, link, step, notice):  # noqa: F811
    p = open_page(link)
    s = lp.state(p.pg)
    assert s["step"] == step and status(p.pg)["of"].startswith(f"Step {step} of {len(STEPS)} · ")
    assert s["notice"].startswith("link_bad:") == notice
    if notice:
        assert "step" in lp.text(p.pg, "notice")


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





def test_a_step_dims_the_controls_it_does_not_need_and_the_page_remembers_the_step(new_page, exported):
    p = new_page(block_network=True)
    p.pg.goto(f"{exported.as_uri()}#step=2")
    lp.wait_ready(p.pg)
    dimmed = p.pg.evaluate(DIMMED, control_names())
    assert "add_one" not in dimmed and {"temperature", "true_class", "reset", "label_smoothing"} <= set(dimmed)
    assert lp.state(p.pg)["step"] == 2
    lp.click(p.pg, "tour_next")
    lp.wait_state(p.pg, "(s) => s.step === 3")
    assert "temperature" not in p.pg.evaluate(DIMMED, control_names())
    # Back at the plain address (no link) in the same browser: the path opens where the learner was.
    p.pg.goto("about:blank")
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    lp.wait_state(p.pg, "(s) => s.step === 3")
    assert p.errors == []


def test_a_browser_that_refuses_storage_still_walks_the_path(new_page, exported):
    p = new_page(block_network=True)
    p.context.add_init_script("Object.defineProperty(window, 'localStorage', {get() { throw new DOMException("
                              "'denied', 'SecurityError'); }});")
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    lp.click(p.pg, "tour_next")
    lp.wait_state(p.pg, "(s) => s.step === 2")
    assert p.errors == [], p.errors
