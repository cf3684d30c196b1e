"""Bring your own logits, in the page (issue 39, part 4): a row pasted into "Paste your model's logits" as
PyTorch, NumPy or a list prints it, with the keyboard, becomes the lesson Python's `Lesson.from_logits` makes of
it (static/pasted.mjs and static/fold.mjs, the twins of app/pasted.py and app/fold.py), in one gesture; a long
row is folded into nine classes and "the rest", whose probabilities at T = 1 are the full row's, and the page
says so in words; anything else is refused with its notice and leaves the lesson as it was.

One exported page, the network blocked, through every case (tests/browser/test_sync.py pastes on a served page:
Python receives the same lesson through the wire).
"""

import sys

import numpy as np

import core
from app.rules import FIELDS
from app.state import Lesson
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.conftest import assert_clean, opened

BOX = f"() => Bokeh.index.find_one(({lp.FIND})('paste_logits')).input_el"
CLASSES = ("z", "initial", "names", "y")


def box(p):
    return p.pg.evaluate_handle(BOX).as_element()


def typed(p, text, keys=True):
    """Text into the paste box as a learner puts it there: typed key by key, or pasted whole (`fill`), then
    Enter; the page settled."""
    field = box(p)
    field.scroll_into_view_if_needed()
    if keys:
        field.click()
        field.press("Control+a")
        p.pg.keyboard.type(text)
    else:
        field.fill(text)
    field.press("Enter")
    lp.settled(p.pg)


def classes(s):
    return {key: s[key] for key in CLASSES}


def test_pasting_each_printed_form_a_folded_row_and_refusals(new_page, request, capfd):
    p = opened(new_page(block_network=True, viewport=(1440, 1000)), request, "exported")
    seed = {"z": [2.0, 1.0, 0.1], "initial": [2.0, 1.0, 0.1], "names": ["class 0", "class 1", "class 2"], "y": 0}

    # The three forms of the issue, each typed key by key after "add 1" moved the logits away from them.
    for text in ("tensor([2.0, 1.0, 0.1])", "[2 1 0.1]", "2, 1, 0.1"):
        lp.click(p.pg, "add_one")
        lp.settled(p.pg)
        assert lp.state(p.pg)["z"] != seed["z"]
        typed(p, text)
        s = lp.state(p.pg)
        assert classes(s) == seed, text
        assert s["notice"] == "" and lp.text(p.pg, "notice") == "", text  # nothing folded: nothing to say
        assert box(p).input_value() == "", "the box is emptied once its row is the lesson"

    # A 50-value row as NumPy prints it, pasted whole: nine largest kept and 41 folded, as Python folds it.
    row = np.random.default_rng(39).normal(0.0, 3.0, 50)
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        text = repr(row)
    assert "\n" in text  # wrapped, as NumPy prints a long row
    typed(p, text, keys=False)
    s, want = lp.state(p.pg), Lesson.from_logits(text)
    kept = list(want.fold.kept)
    assert want.fold.folded == 41 and s["names"] == want.class_names == [f"class {i}" for i in kept] + ["rest (41)"]
    assert s["y"] == want.true_class == 0 and s["initial"] == s["z"]
    np.testing.assert_allclose(s["z"], want.logits, rtol=1e-12)
    assert s["z"][:-1] == row[kept].tolist()  # the kept logits as printed, exactly
    # The bars' probabilities against core's softmax of the full row at T = 1: each kept class's, and the rest's
    # the folded values' total.
    full = core.softmax(row)
    shown = lp.data(p.pg, "probs")["p"]
    np.testing.assert_allclose(shown[:-1], full[kept], rtol=1e-12)
    np.testing.assert_allclose(shown[-1], np.delete(full, kept).sum(), rtol=1e-10)
    said = lp.text(p.pg, "notice")
    assert said.startswith("Of your row's 50 values, the 9 largest are classes of their own"), said
    assert "the other 41 are folded into “rest (41)”" in said and f"p = {want.fold.rest_p:.3f} together" in said, said
    assert 1e-3 < want.fold.rest_p < 1  # shown with three decimals (static/digits.mjs fmt)

    # In Korean the page says it in Korean, and the classes stay the row's.
    lp.set_value(p.pg, "lang", "ko")
    said = lp.text(p.pg, "notice")
    assert "값 50개 중 가장 큰 9개" in said and "나머지 41개" in said and f"p = {want.fold.rest_p:.3f}" in said, said
    lp.set_value(p.pg, "lang", "en")
    folded = lp.state(p.pg)

    # Refusals: each says why, the lesson stays as it was (what the fold said too), the text stays to be mended.
    for text, key in (("[1, ...]", "paste_summary"), ("nan, 1", "paste_not_finite"), ("hello", "paste_format"),
                      ("[[1, 2], [3, 4]]", "paste_batch"), ("[5]", "paste_count")):
        typed(p, text)
        said = lp.text(p.pg, "notice")
        assert said.startswith(TEXT["en"][key].format_map(FIELDS)), (text, said)
        assert lp.state(p.pg) == folded, text
        assert box(p).input_value() == text

    # Dragging a point moves the lesson on from the pasted row: the page no longer says what the fold did.
    lp.drag(p.pg, 0, -40)
    assert lp.state(p.pg)["z"] != folded["z"] and "rest (41)" not in lp.text(p.pg, "notice")

    # A link's lock of z locks the box too: it writes the logits.
    p.pg.evaluate(f"() => {{ const m = ({lp.FIND})('lesson'); m.state = {{ ...m.state, lock: ['z'] }}; }}")
    lp.settled(p.pg)
    assert p.pg.evaluate(f"() => ({lp.FIND})('paste_logits').disabled") is True
    assert box(p).is_disabled()
    assert_clean(p, capfd)
