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


def builder(pg):
    """The section's element, whose shadow root Playwright's CSS selectors pierce."""
    return pg.locator(".teach")


def test_a_built_link_and_its_export_command_open_exactly_the_lesson_chosen(new_page, exported, tmp_path):
    p = new_page(block_network=True, viewport=(1280, 960))
    p.pg.goto(f"{exported.as_uri()}#{START}")
    lp.wait_ready(p.pg)
    assert not lp.prop(p.pg, "link_builder", "visible"), "closed until an instructor opens it"
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

    # In Korean: names an instructor typed stay as typed; a lesson with the language's own names gets Korean's.
    b.locator('[data-choice="lang"]').select_option("ko")
    assert ", in Korean, " in preview.text_content(), "said in the page's language"
    korean = new_page(block_network=True, viewport=(1280, 960))
    korean.pg.goto(b.locator("[data-out=link]").input_value())
    lp.wait_ready(korean.pg)
    assert lp.state(korean.pg)["names"] == ["cat", "dog", "owl"] and lp.state(korean.pg)["lang"] == "ko"
    lp.set_value(p.pg, "class_names", "cat,dog,bird")
    lp.wait_state(p.pg, "(s) => s.names[2] === 'bird'")
    ko_link = b.locator("[data-out=link]").input_value()
    assert "names=" not in ko_link and "lang=ko" in ko_link, ko_link
    for page in (p, fresh, written, korean):
        assert page.errors == [] and page.blocked == []


def test_hide_teach_keeps_the_builder_from_learners(new_page, exported):
    p = new_page(block_network=True)
    p.pg.goto(f"{exported.as_uri()}#teach=1&hide=teach")
    lp.wait_ready(p.pg)
    assert lp.state(p.pg)["teach"] is True
    assert not lp.prop(p.pg, "teach", "visible") and not lp.prop(p.pg, "link_builder", "visible")


def test_the_teachers_page_slider_keys_do_what_it_says(new_page, exported):
    """examples/teaching.md's slider keys, on T's log slider (a step is 0.01 of log10 T): an arrow one step, Page Up
    five, Home and End its ends."""
    p = new_page(block_network=True)
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    handle = p.pg.locator(".noUi-handle").first  # the first slider on the page: T's
    assert handle.get_attribute("aria-valuenow") is not None
    handle.focus()
    for key, log10_T in (("ArrowRight", 0.01), ("PageUp", 0.06), ("ArrowDown", 0.05), ("End", 2.0), ("Home", -2.0)):
        p.pg.keyboard.press(key)
        lp.wait_state(p.pg, f"(s) => Math.abs(Math.log10(s.T) - {log10_T}) < 0.005")  # T kept to 3 digits
    assert p.errors == []
