"""app/rules.py: bounded work before any character is walked, short refusal messages, NumPy values, TypeErrors.

Each case a review found has its own test; static/rules.mjs keeps the same rules (tests/browser/test_twins.py).
"""

import math
import time
import unicodedata

import numpy as np
import pytest

from app import names, refusal, rules

HUGE = 50_000_000  # a 50 MB value: what a hostile page or link can send


def test_a_4_million_character_name_is_refused_before_it_is_normalised():
    # Regression: clean_name walked all 4,000,000 characters through unicodedata and NFC before the length
    # check, which took seconds and froze the served app for everyone.
    name = "a" * 4_000_000
    start = time.perf_counter()
    with pytest.raises(refusal.Refusal) as e:
        names.clean_name(name)
    assert time.perf_counter() - start < 0.05
    assert e.value.key == "name_long"
    start = time.perf_counter()
    with pytest.raises(refusal.Refusal) as e:
        names.clean_names([name] * 10)
    assert time.perf_counter() - start < 0.05 and e.value.key == "name_long"


def test_the_raw_cap_is_bounded_but_takes_every_name_nfc_shortens_to_the_limit():
    # U+1FAF is four code points when decomposed, the most NFC puts back into one: forty of them, with spaces
    # around, are a name of NAME_MAX characters, and must not be refused for their raw length.
    decomposed = " " * names.NAME_MAX + unicodedata.normalize("NFD", "\u1faf") * names.NAME_MAX
    assert len(decomposed) == names.RAW_NAME_MAX
    assert names.clean_name(decomposed) == "\u1faf" * names.NAME_MAX
    with pytest.raises(refusal.Refusal) as e:
        names.clean_name(decomposed + " ")
    assert e.value.key == "name_long"
    assert rules.rules_data()["name_raw_max"] == names.RAW_NAME_MAX
    with pytest.raises(refusal.Refusal) as e:  # the limit after normalising stays NAME_MAX
        names.clean_name("x" * (names.NAME_MAX + 1))
    assert e.value.key == "name_long"


class Untouchable(list):
    """A list whose items must not be looked at: iterating it or taking an item fails the test."""

    def __iter__(self):
        raise AssertionError("an item was looked at before the count was checked")

    def __getitem__(self, index):
        raise AssertionError("an item was looked at before the count was checked")


def test_counts_are_checked_before_any_item_is_looked_at():
    huge = np.zeros(10**7)
    huge.flags.writeable = False  # and an array is never converted (tolist) before its length is checked
    for call in (lambda: names.clean_names(Untouchable(["a" * HUGE] * 11)),
                 lambda: names.clean_names(Untouchable([object()] * 10**6)),
                 lambda: rules.logits(Untouchable([math.nan] * 10**6)), lambda: rules.logits(huge)):
        with pytest.raises(refusal.Refusal) as e:
            call()
        assert e.value.key == "class_count"


HUGE_REFUSALS = {
    "a long name": lambda big: names.clean_name(big),
    "a name that is not text": lambda big: names.clean_name(big.encode()),
    "names that are text": lambda big: names.clean_names(big),
    "a long name among names": lambda big: names.clean_names(["cat", big]),
    "a number that is text": lambda big: rules.number(big, "T"),
    "logits that are text": lambda big: rules.logits(big),
    "a logit that is text": lambda big: rules.logits([1.0, big]),
    "a nested list for a logit": lambda big: rules.logits([1.0, [[[big] * 100] * 100]]),
    "a bound that is text": lambda big: rules.within(big, rules.T_BOUNDS, "T", "T_range"),
    "a notice": lambda big: rules.notice(big),
    "a notice that is not text": lambda big: rules.notice([big] * 1000),
    "a number typed as text": lambda big: rules.parse_number(big[:5_000_000] + "x", "T"),
    "a huge integer": lambda big: rules.number(10 ** 400_000, "T"),
    "a huge integer out of bounds": lambda big: rules.within(10 ** 300, rules.T_BOUNDS, "T", "T_range"),
}


@pytest.mark.parametrize("case", HUGE_REFUSALS)
def test_a_refusal_message_never_repeats_a_huge_value(case):
    # Regression: every message held the whole refused value (repr of a 50 MB name), logged and sent back.
    with pytest.raises(refusal.Refusal) as e:
        HUGE_REFUSALS[case]("a" * HUGE)
    assert len(str(e.value)) < 300 and e.value.key in rules.NOTICES


def test_a_value_is_shown_by_its_first_characters_and_its_size():
    assert refusal.shown("a" * 4_000_000) == "'" + "a" * 39 + "…' (4000000 characters)"
    assert refusal.shown(list(range(100))) == "[0, 1, 2, 3, 4, 5, …] (100 items)"
    assert refusal.shown("cat") == "'cat'" and refusal.shown(2.5) == "2.5"
    assert len(refusal.shown("\U000e0001" * 1000)) < 100  # escapes are cut too
    assert refusal.shown(np.zeros((3, 4))) == "<array of shape (3, 4) and dtype float64>"

    class Hostile:
        def __repr__(self):
            raise RuntimeError("no repr")

    assert "Hostile" in refusal.shown(Hostile())


@pytest.mark.parametrize("value", [np.float32(0.5), np.float64(0.5), np.int64(2), np.int8(-3), 2, 0.5])
def test_numpy_numbers_are_numbers_and_become_floats(value):
    x = rules.number(value, "T")
    assert type(x) is float and x == float(value)


def test_1d_numpy_arrays_become_plain_lists():
    z = rules.logits(np.array([2.0, 1.0, 0.1], dtype=np.float32))
    assert type(z) is list and all(type(v) is float for v in z) and z == [2.0, 1.0, float(np.float32(0.1))]
    assert rules.logits(np.array([2, 1])) == [2.0, 1.0]
    cleaned = names.clean_names(np.array(["cat", "dog "]))
    assert cleaned == ["cat", "dog"] and all(type(n) is str for n in cleaned)


@pytest.mark.parametrize(("call", "key"), [
    (lambda: rules.number(True, "T"), "not_number"),
    (lambda: rules.number(np.True_, "T"), "not_number"),
    (lambda: rules.number("2", "T"), "not_number"),
    (lambda: rules.number(1 + 2j, "T"), "not_number"),
    (lambda: rules.number(None, "T"), "not_number"),
    (lambda: rules.logits(np.array([True, False])), "not_number"),
    (lambda: rules.logits(np.array(["1", "2"])), "not_number"),
    (lambda: rules.logits(np.zeros((2, 2))), "not_number"),
    (lambda: rules.logits(np.float64(1.0)), "not_number"),
    (lambda: rules.logits("1,2"), "not_number"),
    (lambda: names.clean_name(5), "name_type"),
    (lambda: names.clean_name(np.str_("cat").encode()), "name_type"),
    (lambda: names.clean_names(np.array([1, 2])), "name_type"),
    (lambda: names.clean_names(np.array([["a", "b"], ["c", "d"]])), "name_type"),
    (lambda: names.clean_names("cat,dog"), "name_type"),
    (lambda: rules.parse_number(2.0, "T"), "not_number"),
    (lambda: rules.notice(3), "refused"),
])
def test_a_value_of_the_wrong_type_is_a_type_error_and_a_refusal(call, key):
    with pytest.raises(refusal.TypeRefusal) as e:
        call()
    assert isinstance(e.value, TypeError) and isinstance(e.value, ValueError) and e.value.key == key


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float32("nan"), np.float64("inf"), 10 ** 400])
def test_nan_inf_and_numbers_past_floats_stay_refused(value):
    with pytest.raises(refusal.Refusal) as e:
        rules.number(value, "T")
    assert e.value.key == "not_finite" and not isinstance(e.value, TypeError)
