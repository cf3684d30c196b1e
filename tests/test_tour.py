"""The guided path as data (app/steps.py) and what it computes (app/tour.py): every step's strings in both
languages, its live numbers and controls known, its set-up state a valid lesson that does not yet do its task,
and a state that does it for every step (the gestures tests/browser/test_tour.py makes, as states)."""

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import core
from app import fields, rules, tour
from app.controls import BY_NAME
from app.steps import STEPS
from app.strings import LANGS, TEXT
from tests.twin_cases import DONE_BY

PARTS = ("title", "text", "task", "hint", "done")
# The live numbers a step's text may name (static/tour.mjs live_numbers) and the class names.
LIVE = {"p0", "p1", "p_y", "z0", "T", "loss", "entropy_bits", "lse", "zmax", "ln_k", "floor", "g_y", "n", "name0",
        "name1", "name_y"}


def test_every_step_has_its_strings_in_both_languages_none_empty_and_only_known_live_numbers():
    assert [s.id for s in STEPS] == list(DONE_BY)
    for lang in LANGS:
        words = TEXT[lang]["tour_steps"]
        assert set(words) == {s.id for s in STEPS}, lang
        for step in STEPS:
            assert set(words[step.id]) == set(PARTS), (lang, step.id)
            for part in PARTS:
                text = words[step.id][part]
                assert text.strip(), (lang, step.id, part)
                assert set(re.findall(r"\{(\w+)\}", text)) <= LIVE, (lang, step.id, part)
    # The same live numbers in both languages: a learner switching language sees the same figures named.
    for step in STEPS:
        named = [{k for p in PARTS for k in re.findall(r"\{(\w+)\}", TEXT[lang]["tour_steps"][step.id][p])}
                 for lang in LANGS]
        assert all(n == named[0] for n in named), step.id


def test_the_korean_path_uses_the_lesson_s_terms():
    ko = " ".join(part for words in TEXT["ko"]["tour_steps"].values() for part in words.values())
    for term in ("점수", "부류", "확률", "온도", "정답", "손실", "교차 엔트로피", "엔트로피", "KL 발산",
                 "로그합지수", "기울기", "청록 화살표", "비트", "내트", "라벨 스무딩", "굼벨 분포", "시그모이드",
                 "최대가능도"):
        assert term in ko, term
    for word in ("로짓 값", "클래스", "레이블"):  # what the lesson does not say
        assert word not in ko, word


def test_each_step_names_controls_that_exist_and_operators_the_twins_know():
    for step in STEPS:
        assert all(name in BY_NAME for name in step.needs), step.id
        for name, op, _ in step.check:
            assert op in {"<", ">", "=", "same", "rose"}, (step.id, op)
            assert name in tour.quantities(tour.setup_state(step, fields.default_state())), (step.id, name)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.id)
def test_a_step_s_set_up_state_is_a_valid_lesson_that_has_not_done_its_task(step, lang):
    start = {**fields.default_state(lang), "theme": "dark", "lock": [], "step": 5}
    s = tour.setup_state(step, start)
    assert rules.checked_state(s) == s
    assert s["theme"] == "dark" and s["step"] == 5 and s["lang"] == lang, "what the path keeps"
    assert not tour.done(step, s)
    assert tour.done(step, DONE_BY[step.id](s))


def test_the_quantities_are_core_s_numbers():
    s = {**fields.default_state(), "z": [3.0, -1.0, 0.5], "T": 0.7, "eps": 0.1, "y": 2}
    q = tour.quantities(s)
    z = np.array(s["z"])
    np.testing.assert_allclose([q["p:0"], q["p:1"], q["p:2"]], core.softmax(z, T=0.7), rtol=1e-15)
    assert q["loss"] == pytest.approx(float(core.cross_entropy(z, 2, T=0.7, label_smoothing=0.1)), rel=1e-15)
    assert q["lse_gap"] == pytest.approx(float(core.logsumexp(z / 0.7)) - 3.0 / 0.7, rel=1e-12)
    assert q["entropy_bits"] == pytest.approx(float(core.entropy(core.softmax(z, T=0.7))) / np.log(2), rel=1e-12)
    assert q["above_floor"] == pytest.approx(q["loss"] - float(core.label_smoothing_floor(3, 0.1)), rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.just(2.0), st.floats(-20, 20)), st.floats(-20, 20), st.floats(-20, 20), st.floats(0.01, 100))
def test_the_first_step_is_done_exactly_when_dog_leads_and_cat_is_where_it_started(cat, dog, bird, T):
    assume(abs(dog - cat) > 1e-9)
    s = {**fields.default_state(), "z": [cat, dog, bird], "T": T}
    assert tour.done(STEPS[0], s) == (cat == 2.0 and dog > cat)


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.id)
def test_no_step_is_done_by_the_lesson_a_page_opens_with(step):
    """A learner who reaches a step without setting it up meets its task undone."""
    assert not tour.done(step, fields.default_state())
