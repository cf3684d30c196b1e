"""The instructor's link builder (issue 39): built with the mouse from a lesson a learner left, its link opens
exactly that lesson in a fresh page, its export command writes a file that opens the same, and it says in words
what the link will do. The exported page, every non-file request refused."""

import html
import re
import shlex

from app.export import main as export
from app.strings import TEXT
from tests.browser import lessonpage as lp

# Where an instructor starts: a lesson changed from the defaults (logits, T, a class name, a section open).
START = "z=3,-1.5,0.5&T=0.5&names=cat,dog,owl&open=table"


def slider_keys(pg):
    """examples/teaching.md's slider keys, on T's log slider (a step is 0.01 of log10 T): Home and End its ends, an
    arrow one step, Page Up five. T is kept to 3 digits (0.0102 for 10^−1.99)."""
    handle = pg.locator(".noUi-handle").first  # the first slider on the page: T's
    handle.focus()
    for key, log10_T in (("Home", -2.0), ("ArrowRight", -1.99), ("PageUp", -1.94), ("ArrowDown", -1.95),
                         ("End", 2.0)):
        pg.keyboard.press(key)
        pg.wait_for_function(f"() => Math.abs(Math.log10(({lp.FIND})('lesson').state.T) - {log10_T}) < 0.005")
    lp.settled(pg)


def builder(pg):
    """The section's element, whose shadow root Playwright's CSS selectors pierce."""
    return pg.locator(".teach")


def test_a_built_link_and_its_export_command_open_exactly_the_lesson_chosen(new_page, exported, tmp_path):
    p = new_page(block_network=True, viewport=(1280, 960))
    p.pg.goto(f"{exported.as_uri()}#{START}")
    lp.wait_ready(p.pg)
    assert not lp.prop(p.pg, "link_builder", "visible"), "closed until an instructor opens it"
    slider_keys(p.pg)
    lp.click(p.pg, "teach")
    lp.wait_state(p.pg, "(s) => s.teach")
    b = builder(p.pg)
    b.wait_for()
    preview = b.locator("[data-out=preview]")
    assert preview.text_content() == "Opens at step 1 of 17, “Scores become probabilities”, in English, light " \
                                     "colours. A learner can change everything."
    before = lp.state(p.pg)

    b.locator('[data-lock="T"]').check()
    b.locator('[data-lock="y"]').check()
    b.locator('[data-hide="eps"]').check()
    b.locator('[data-choice="step"]').select_option("4")
    b.locator('[data-choice="theme"]').select_option("projector")
    b.locator('[data-choice="lecture"]').check()
    assert lp.state(p.pg) == before, "building a link changes nothing of the lesson on the page"
    t = TEXT["en"]
    assert preview.text_content() == (
        "Opens at step 4 of 17, “Temperature: from argmax to uniform”, in English, projector colours, lecture mode. "
        f"A learner cannot change {t['lock_names']['T']}, {t['lock_names']['y']}. Not shown: ε.")
    link = b.locator("[data-out=link]").input_value()
    command = b.locator("[data-out=command]").input_value()
    iframe = b.locator("[data-out=iframe]").input_value()
    assert link.startswith(exported.as_uri() + "#")
    src = re.fullmatch(r'<iframe src="([^"]*)" title="[^"]+" style="[^"]+"></iframe>', iframe).group(1)
    assert html.unescape(src) == f"explainer.html#{link.split('#', 1)[1]}"

    fresh = new_page(block_network=True, viewport=(1280, 960))
    fresh.pg.goto(link)
    lp.wait_ready(fresh.pg)
    opened = lp.state(fresh.pg)
    expected = {**before, "initial": before["z"], "lock": ["T", "y"], "hide": ["eps"], "step": 4,
                "theme": "projector", "lecture": True, "teach": False}
    assert opened == expected

    words = shlex.split(command)
    assert words[:3] == ["softmax-explainer", "export", "lesson.html"]
    out = tmp_path / "lesson.html"
    assert export([str(out), *words[3:]]) == 0
    written = new_page(block_network=True, viewport=(1280, 960))
    written.pg.goto(out.as_uri())
    lp.wait_ready(written.pg)
    assert lp.state(written.pg) == expected

    # In Korean, the section kept from learners: names an instructor typed stay as typed (a lesson with the
    # language's own names gets Korean's, below), and hide=teach leaves no toggle and no section, even for a
    # lesson that asks for it.
    b.locator('[data-choice="lang"]').select_option("ko")
    b.locator('[data-hide="teach"]').check()
    assert ", in Korean, " in preview.text_content(), "said in the page's language"
    korean = new_page(block_network=True, viewport=(1280, 960))
    korean.pg.goto(b.locator("[data-out=link]").input_value())
    lp.wait_ready(korean.pg)
    assert lp.state(korean.pg)["names"] == ["cat", "dog", "owl"] and lp.state(korean.pg)["lang"] == "ko"
    korean.pg.evaluate(f"() => {{ const m = ({lp.FIND})('lesson'); m.state = {{...m.state, teach: true}}; }}")
    lp.wait_state(korean.pg, "(s) => s.teach")
    assert not lp.prop(korean.pg, "teach", "visible") and not lp.prop(korean.pg, "link_builder", "visible")
    lp.set_value(p.pg, "class_names", "cat,dog,bird")
    lp.wait_state(p.pg, "(s) => s.names[2] === 'bird'")
    ko_link = b.locator("[data-out=link]").input_value()
    assert "names=" not in ko_link and "lang=ko" in ko_link, ko_link
    for page in (p, fresh, written, korean):
        assert page.errors == [] and page.blocked == []
