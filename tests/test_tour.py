"""The guided path as data (app/steps.py) and what it computes (app/tour.py): every step's strings in both
languages, its live numbers and controls known, its set-up state a valid lesson that does not yet do its task,
and a state that does it for every step (the gestures tests/browser/test_tour.py makes, as states); what the page
says is missing, and entering a step from any lesson."""

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
OPS = {"<", ">", "=", "set", "near", "rose"}
# The live numbers a step's text may name (static/tour.mjs live_numbers) and the class names.
LIVE = {"p0", "p1", "p_y", "z0", "z0_start", "lnK", "T", "loss", "entropy_bits", "lse", "zmax", "ln_k", "floor",
        "g_y", "n", "name0", "name1", "name2", "name_y", "naive_now", "cT", "topp", "alibi_far", "rk",
        "routed"}


def parts(words):
    """A step's strings as (part, text): its missing lines each as a part of their own."""
    return [*((p, words[p]) for p in PARTS), *((f"missing {i}", m) for i, m in enumerate(words.get("missing", ()))),
            *((("predict", words["predict"]),) if "predict" in words else ()),
            *((f"choice {i}", c) for i, c in enumerate(words.get("choices", ())))]


def test_every_step_has_its_strings_in_both_languages_none_empty_and_only_known_live_numbers():
    assert [s.id for s in STEPS] == list(DONE_BY)
    for lang in LANGS:
        words = TEXT[lang]["tour_steps"]
        assert set(words) == {s.id for s in STEPS}, lang
        for step in STEPS:
            assert set(words[step.id]) - {"missing", "predict", "choices"} == set(PARTS), (lang, step.id)
            asks = step.predict is not None
            assert ("predict" in words[step.id]) == ("choices" in words[step.id]) == asks, (lang, step.id)
            if "missing" in words[step.id]:  # a line for each condition of the check, "" where the task says it
                assert len(words[step.id]["missing"]) == len(step.check), (lang, step.id)
            for part, text in parts(words[step.id]):
                assert text.strip() or part.startswith("missing"), (lang, step.id, part)
                assert set(re.findall(r"\{(\w+)\}", text)) <= LIVE, (lang, step.id, part)
    # The same live numbers in both languages: a learner switching language sees the same figures named.
    for step in STEPS:
        named = [{k for _, text in parts(TEXT[lang]["tour_steps"][step.id]) for k in re.findall(r"\{(\w+)\}", text)}
                 for lang in LANGS]
        assert all(n == named[0] for n in named), step.id


def test_the_korean_path_uses_the_lesson_s_terms():
    ko = " ".join(text for words in TEXT["ko"]["tour_steps"].values() for _, text in parts(words))
    for term in ("점수", "부류", "확률", "온도", "정답", "손실", "교차 엔트로피", "엔트로피", "KL 발산",
                 "로그합지수", "기울기", "청록 화살표", "비트", "내트", "라벨 스무딩", "굼벨 분포", "시그모이드",
                 "최대가능도"):
        assert term in ko, term
    for word in ("로짓 값", "클래스", "레이블"):  # what the lesson does not say
        assert word not in ko, word


def test_the_spanish_path_uses_the_lesson_s_terms():
    """The terms a Spanish-speaking instructor of machine learning uses, one word for each thing throughout."""
    es = " ".join(text for words in TEXT["es"]["tour_steps"].values() for _, text in parts(words))
    for term in ("puntuación", "logit", "clase verdadera", "probabilidad", "temperatura", "pérdida",
                 "entropía cruzada", "entropía", "divergencia KL", "log-sum-exp", "gradiente", "bits", "nats",
                 "suavizado de etiquetas", "Gumbel", "sigmoide", "máxima verosimilitud", "muestreo", "Calibrar"):
        assert term in es, term
    for word in ("puntaje", "score", "etiqueta suavizada", "clase correcta", "tasa de entrenamiento"):
        assert word not in es, word  # another word for a thing the lesson names one way


def test_each_step_names_controls_that_exist_and_operators_the_twins_know():
    for step in STEPS:
        assert all(name in BY_NAME for name in step.needs), step.id
        for name, op, _ in step.check:
            assert op in OPS, (step.id, op)
            assert name in tour.quantities(tour.enter(step, fields.default_state())), (step.id, name)
            if op == "set":
                assert name in step.setup, (step.id, name)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.id)
def test_a_step_entered_from_a_fresh_lesson_is_a_valid_lesson_that_has_not_done_its_task(step, lang):
    start = {**fields.default_state(lang), "theme": "dark", "lock": [], "step": 5}
    s = tour.enter(step, start)
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
def test_the_first_step_is_done_exactly_when_dog_leads_and_cat_is_within_a_slip_of_where_it_started(cat, dog, bird, T):
    assume(abs(dog - cat) > 1e-9 and abs(abs(cat - 2.0) - 0.25) > 1e-9)
    s = {**fields.default_state(), "z": [cat, dog, bird], "T": T}
    near = abs(cat - 2.0) <= 0.25
    p = core.softmax(np.array(s["z"]), T=T)
    leads = p[1] > p[0]  # which dog > cat gives, unless both underflow to 0
    assert tour.done(STEPS[0], s) == (near and leads)
    # Not done: the page says the cat moved exactly when that is what is missing.
    assert tour.missing(STEPS[0], s) == [i for i, fails in enumerate((not leads, not near)) if fails]


def test_at_least_four_steps_ask_for_a_prediction_whose_answer_is_what_the_lesson_shows():
    """Issue 37: predict, then check. Each answer is the one core's numbers give (so a wrong key is caught)."""
    asking = {s.id: s for s in STEPS if s.predict is not None}
    assert len(asking) >= 4
    for step in asking.values():
        for lang in LANGS:
            choices = TEXT[lang]["tour_steps"][step.id]["choices"]
            assert len(choices) == len(TEXT["en"]["tour_steps"][step.id]["choices"]) >= 2
            assert step.predict < len(choices)
    z = np.array([2.0, 1.0, 0.1])
    np.testing.assert_allclose(core.softmax(z + 1), core.softmax(z))  # shift: the bars stay
    assert asking["shift"].predict == 1
    assert core.softmax(z, T=1e-3)[0] == 1.0 and asking["temperature"].predict == 0  # argmax
    p_cat = core.softmax(np.array([2.0, 0.0]))[0]  # σ(2), the two-class softmax
    assert TEXT["en"]["tour_steps"]["sigmoid"]["choices"][asking["sigmoid"].predict] == f"{p_cat:.2f}"
    p_y = 0.4  # halved: −ln(p/2) = −ln p + ln 2
    assert float(-np.log(p_y / 2) + np.log(p_y)) == pytest.approx(np.log(2))
    assert "ln 2" in TEXT["en"]["tour_steps"]["loss"]["choices"][asking["loss"].predict]
    # Temperature scaling keeps every digit's argmax: the accuracy is the same at any T.
    from app import calibration, vocabulary

    assert calibration.report(T=1.0).accuracy == calibration.report(T=3.0).accuracy
    assert asking["calibration"].predict == 1
    # A lower T with the same top-p keeps fewer words, in both vocabularies.
    for lang in vocabulary.LANGS:
        kept = [len(vocabulary.next_word(lang, T=T, top_p=0.9)[0]) for T in (1.0, 0.5)]
        assert kept[1] < kept[0], (lang, kept)
    assert asking["decoding"].predict == 1
    # Head 1 on equal scores: the weight one step back is e^(−1/2) of the weight on itself.
    w = core.attention_weights(np.zeros((6, 6)), core.alibi_bias(6, core.alibi_slopes(8)[0]))[-1]
    assert w[-2] / w[-1] == pytest.approx(np.exp(-0.5), rel=1e-12) and asking["attention"].predict == 0
    assert "0.61" in TEXT["en"]["tour_steps"]["attention"]["choices"][0]
    # The router keeps exactly k experts: the bird replaces the dog.
    assert (core.router_weights([2.0, 1.0, 1.5, -0.5], 2) > 0).tolist() == [True, False, True, False]
    assert asking["router"].predict == 0


def test_the_calibration_step_s_fit_is_the_classifier_s():
    """The step's text says "about 2.36" and its band is around it: both are app/calibration.py's fit."""
    from app import calibration
    from app.steps import FIT_BAND, FITTED_T

    fit = calibration.fitted().T
    assert round(fit, 2) == FITTED_T
    assert all("2.36" in TEXT[lang]["tour_steps"]["calibration"]["task"] for lang in LANGS)
    z, y = calibration.part("val")
    nll = [float(core.mean_nll(z, y, T)) for T in (fit - FIT_BAND, fit, fit + FIT_BAND)]
    assert max(nll) < nll[1] * 1.002, "the band holds only Ts about as good as the fit"


def test_a_hand_s_slip_counts_as_untouched_and_a_real_move_is_said():
    """Issue 37: a learner who nudged the cat (2.12) and then made the dog win had a step that could never be done."""
    s = fields.default_state()
    assert tour.done(STEPS[0], {**s, "z": [2.12, 2.5, 0.1]})
    moved = {**s, "z": [3.0, 3.5, 0.1]}
    assert tour.missing(STEPS[0], moved) == [1]
    assert tour.missing(STEPS[0], {**s, "z": [3.0, 1.0, 0.1]}) == [0, 1], "said before the dog wins"
    words = TEXT["en"]["tour_steps"]["scores"]["missing"][1]
    assert "{z0_start}" in words and "{z0}" in words
    assert "reset" in STEPS[0].needs, "the control that mends it is never dimmed"


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.id)
def test_entering_a_step_from_the_one_before_needs_no_set_up(step):
    """Issue 37: Next from the step before (with what its task left) enters a lesson the step's text describes, with
    its task undone, and doable: what a learner meets with no "Set it up"."""
    s = fields.default_state()
    for before in STEPS[: STEPS.index(step)]:
        s = DONE_BY[before.id](tour.enter(before, s))
    entered = tour.enter(step, s)
    assert rules.checked_state(entered) == entered
    assert entered["initial"] == entered["z"]
    for key, value in (step.setup or {}).items():
        if key != "z" or len(value) == len(entered["z"]):
            assert entered[key] == value, (step.id, key)
    assert not tour.done(step, entered), step.id
    assert tour.done(step, DONE_BY[step.id](entered)), step.id


def test_step_3_is_done_by_subtracting_the_max_not_by_raising_T():
    """Issue 37: raising T ends the overflow by changing the model; the lesson is z − max z, same probabilities."""
    from app import actions

    step = next(s for s in STEPS if s.id == "naive")
    s = tour.enter(step, fields.default_state())
    assert tour.missing(step, s) == [1]  # overflowing
    assert not tour.done(step, {**s, "T": 0.0125})
    assert tour.missing(step, {**s, "T": 0.0125}) == [2]
    shifted = actions.subtract_max(s)
    assert tour.done(step, shifted)
    np.testing.assert_allclose(core.softmax(np.array(shifted["z"]), T=0.01), core.softmax(np.array(s["z"]), T=0.01),
                               rtol=0, atol=0)


def test_entering_a_step_never_changes_what_a_link_locks():
    step = next(s for s in STEPS if s.id == "naive")
    s = {**fields.default_state(), "lock": ["T"], "T": 0.5}
    entered = tour.enter(step, s)
    assert entered["T"] == 0.5 and entered["z"] == [8.0, 0.0, 0.0]
    s = {**fields.default_state(), "lock": ["z"], "z": [1.0, 2.0, 3.0]}
    assert tour.enter(step, s)["z"] == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.id)
def test_no_step_is_done_by_the_lesson_a_page_opens_with(step):
    """A learner who reaches a step without setting it up meets its task undone."""
    assert not tour.done(step, fields.default_state())
