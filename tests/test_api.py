"""The notebook's Python API (`Lesson`, app/calibration.py, app/vocabulary.py) as a person types it (issue 36).

NumPy's integers and floats are taken wherever Python's are, and give the same answer; booleans stay refused
where an integer is meant; a refusal names the real valid values, never the refused one among them, and shows a
huge value by its size; an attribute the lesson does not have is an error that names the nearest one.
"""

import pickle

import numpy as np
import pytest

from app import calibration, fields, refusal, vocabulary
from app.state import STATE_KEYS, Lesson

INTEGERS = (np.int64, np.int32, np.uint32)
FLOATS = (np.float64, np.float32)
HUGE = 10**4000  # 4,001 digits: its repr alone is 4 kB


def plain(value):
    """Arrays as lists, so two answers compare with ==."""
    return value.tolist() if isinstance(value, np.ndarray) else value


@pytest.mark.parametrize("np_int", INTEGERS)
def test_every_method_that_takes_an_integer_takes_numpy_s(np_int):
    # Regression: lesson.step(np.int64(3)) was refused while lesson.sample(np.int64(5)) was taken.
    assert Lesson(learning_rate=1.0).step(np_int(3)) == Lesson(learning_rate=1.0).step(3)
    assert plain(Lesson().sample(np_int(50), np_int(7))) == plain(Lesson().sample(50, 7))
    assert calibration.report(2.0, np_int(15)).ece == calibration.report(2.0, 15).ece
    assert vocabulary.listable("ko", np_int(10)) == vocabulary.listable("ko", 10)
    assert vocabulary.stages(np_int(50)) == vocabulary.stages(50) == (("top_k", 50),)
    assert type(vocabulary.stages(np_int(50))[0][1]) is int
    (words, p), (want_words, want_p) = vocabulary.next_word("en", 1.0, np_int(3)), vocabulary.next_word("en", 1.0, 3)
    assert (words, p.tolist()) == (want_words, want_p.tolist())


@pytest.mark.parametrize("np_float", FLOATS)
def test_every_method_that_takes_a_number_takes_numpy_s(np_float):
    # 0.5 and 2.0 are the same number in float32 and float64, so the answers must be equal.
    assert calibration.report(np_float(2.0)).nll == calibration.report(2.0).nll
    assert vocabulary.stages(0, np_float(0.5), np_float(0.5)) == vocabulary.stages(0, 0.5, 0.5)
    got, want = vocabulary.next_word("en", np_float(0.5), 0, np_float(0.5)), vocabulary.next_word("en", 0.5, 0, 0.5)
    assert got[0] == want[0] and got[1].tolist() == want[1].tolist()


@pytest.mark.parametrize("f", [f for f in fields.FIELDS if f.kind in ("real", "count", "index")], ids=lambda f: f.param)
def test_every_numeric_parameter_takes_numpy_s_numbers_as_python_s(f):
    # A real at its upper bound (exact in float32) and, as an integer, at the bound's whole part; a count at its
    # default; an index at 1: each as each NumPy type, given to Lesson() and assigned.
    if f.kind == "real":
        values = [(kind, f.bounds[1]) for kind in FLOATS] + [(kind, int(f.bounds[1])) for kind in INTEGERS]
    else:
        values = [(kind, f.default if f.kind == "count" else 1) for kind in INTEGERS]
    for kind, value in values:
        for lesson in (Lesson(**{f.param: kind(value)}), Lesson()):
            setattr(lesson, f.param, kind(value))
            got = getattr(lesson, f.param)
            assert got == value and type(got) is type(f.default), (kind, got)


def test_booleans_stay_refused_where_an_integer_is_meant():
    for call in (lambda: Lesson().step(True), lambda: Lesson().sample(True), lambda: Lesson().sample(5, np.True_),
                 lambda: vocabulary.listable("en", True), lambda: vocabulary.next_word("en", 1.0, True),
                 lambda: calibration.report(1.0, True), lambda: Lesson().step(3.0)):
        with pytest.raises(TypeError) as e:
            call()
        assert isinstance(e.value, refusal.Refusal), e.value


@pytest.mark.parametrize(("name", "number", "text"), [("alibi_head", 8, "'8'"), ("calibration_bins", 15, "'15'"),
                                                      ("calibration_bins", np.int64(15), "'15'")])
def test_a_number_for_a_choice_of_text_says_to_write_the_text(name, number, text):
    # Regression: "Selector parameter 'Lesson.alibi_head' does not accept 8; valid options include: '[0, 1, …, 8]'":
    # 8 was refused as a number (the choices are text, as the page's Select holds them) and listed as valid.
    f = next(f for f in fields.FIELDS if f.param == name)
    for change in (lambda: setattr(Lesson(), name, number), lambda: Lesson(**{name: number}),
                   lambda: Lesson().param.update({name: number})):
        with pytest.raises(TypeError) as e:
            change()
        message = str(e.value)
        assert f"is text, one of {', '.join(map(repr, f.choices))}: write {text}" in message, message
        assert "valid options" not in message


def test_a_number_for_a_choice_of_numbers_says_to_write_the_number():
    with pytest.raises(TypeError, match=r"^bins is an integer, one of 10, 15, 20: write 15, not '15'$"):
        calibration.report(1.0, "15")


def test_a_choice_that_is_not_one_lists_the_choices_and_not_it():
    with pytest.raises(ValueError) as e:
        Lesson().units = "joules"
    assert str(e.value) == "units must be one of 'nats', 'bits', got 'joules'"


def test_a_huge_refused_value_is_shown_by_its_size():
    # Regression: an index of 10**4000 gave a 4 kB message (param's bounds check, the class count, core).
    lesson = Lesson()
    key = next(k for k, name in STATE_KEYS.items() if name == "true_class")
    for call in (lambda: setattr(lesson, "true_class", HUGE), lambda: Lesson(true_class=HUGE),
                 lambda: lesson.param.update(true_class=HUGE), lambda: lesson.set_state({**lesson.state(), key: HUGE}),
                 lambda: lesson.step(HUGE), lambda: lesson.sample(HUGE), lambda: lesson.sample(5, HUGE),
                 lambda: lesson.load_preset("x" * 5000), lambda: calibration.report(1.0, HUGE),
                 lambda: calibration.report(HUGE), lambda: calibration.part("x" * 5000),
                 lambda: vocabulary.next_word("en", 1.0, HUGE), lambda: vocabulary.unigram("x" * 5000),
                 lambda: setattr(lesson, "x" * 5000, 1)):
        with pytest.raises((ValueError, TypeError, AttributeError)) as e:
            call()
        assert len(str(e.value)) < 200 and ("bits>" in str(e.value) or "characters)" in str(e.value)), str(e.value)
    assert lesson.state()["y"] == 0


def test_an_unknown_attribute_is_an_error_naming_the_nearest_parameter():
    # Regression: lesson.lr = 0.5 did nothing and said nothing ("lr" is the learning rate's link key).
    lesson = Lesson()
    with pytest.raises(AttributeError, match=r"^Lesson has no parameter 'lr'; did you mean learning_rate\?$"):
        lesson.lr = 0.5
    with pytest.raises(AttributeError, match="did you mean learning_rate"):
        lesson.learning_rte = 0.5
    with pytest.raises(AttributeError, match=r"^Lesson has no parameter 'colour'$"):
        lesson.colour = "red"
    with pytest.raises(AttributeError, match=r"^Lesson.loss is not a parameter: it cannot be set$"):
        lesson.loss = 0.0  # a method: assigned, it was hidden
    with pytest.raises(ValueError, match="'lr' is not a parameter of Lesson; did you mean learning_rate"):
        lesson.param.update(lr=0.5)
    with pytest.raises(TypeError, match="unexpected keyword argument 'lr'; did you mean learning_rate"):
        Lesson(lr=0.5)
    assert lesson.learning_rate == 0.1 and "lr" not in vars(lesson)


def test_param_s_machinery_and_private_attributes_still_work():
    lesson = Lesson()
    lesson._scratch = 1  # private: the lesson's own, and param's
    lesson.learning_rate = 0.5
    copy = pickle.loads(pickle.dumps(lesson))
    seen = []
    lesson.param.watch(lambda e: seen.append(e.new), ["T"])
    lesson.T = 2.0
    assert (seen, copy.name, copy.learning_rate, copy._scratch) == ([2.0], lesson.name, 0.5, 1)
