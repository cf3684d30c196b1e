"""app/fold.py and `Lesson.from_logits` / `Explainer.from_logits`: a row of one's own logits as a lesson.

The fold is checked against core's softmax of the whole row (at T = 1 every kept class's p and the rest's total
are the row's, to 1e-12 relative), on Hypothesis rows and on a seeded GPT-2-sized row; torch is not a
dependency, so a tensor is a stand-in with torch's methods (detach, cpu, double, a dtype that says it is
floating), read as the explainer reads one.
"""

import sys

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import core
from app.explainer import Explainer
from app.fields import LOGIT_LIMIT
from app.fold import Fold, fold, row_of
from app.refusal import Refusal
from app.state import Lesson


class FakeTensor:
    """What the explainer uses of a PyTorch tensor: detach(), cpu(), double() and dtype.is_floating_point;
    `__array__` as torch's own (which fails for bfloat16: NumPy has no such type)."""

    class dtype:  # noqa: N801 - torch's attribute name
        is_floating_point = True

    def __init__(self, values, bfloat16=False):
        self.values, self.bfloat16, self.calls = np.asarray(values, dtype=np.float32), bfloat16, []

    def detach(self):
        self.calls.append("detach")
        return self

    def cpu(self):
        self.calls.append("cpu")
        return self

    def double(self):
        self.calls.append("double")
        out = FakeTensor(self.values.astype(np.float64))
        out.values = self.values.astype(np.float64)
        return out

    def __array__(self, dtype=None, copy=None):
        if self.bfloat16:
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self.values if dtype is None else self.values.astype(dtype)


def assert_same_probabilities(row, f):
    """At T = 1 the lesson's p are the row's: each kept class's, and the rest's as the folded ones' total; a class
    raised to −100 had p below e^−100 of the largest and keeps it below that."""
    full = core.softmax(np.asarray(row, dtype=float))
    lesson = core.softmax(np.asarray(f.logits))
    expected = full[list(f.kept)]
    if f.folded:
        rest = np.ones(len(row), dtype=bool)
        rest[list(f.kept)] = False
        expected = np.append(expected, full[rest].sum())
    raised = np.asarray(f.logits) == -LOGIT_LIMIT
    assert np.all(expected[raised] <= np.exp(-100.0) * full.max() * (1 + 1e-12))
    assert np.all(lesson[raised] <= np.exp(-100.0) * lesson.max() * (1 + 1e-12))
    np.testing.assert_allclose(lesson[~raised], expected[~raised], rtol=1e-12, atol=np.finfo(float).tiny)
    if f.folded:
        # Below the smallest normal double (2.2e-308) a number holds fewer digits than 1e-12 asks: the rest of
        # [0 ×8, 324, -398, -398] holds 5.5e-314, subnormal, and its last digits are rounding's.
        assert f.rest_p == pytest.approx(expected[-1], rel=1e-12, abs=np.finfo(float).tiny)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(-400, 400), min_size=2, max_size=300))
@example([0.0] * 8 + [324.0, -398.0, -398.0])  # the rest's p subnormal (found by Hypothesis)
def test_the_fold_keeps_every_probability_of_the_row_at_T_1(row):
    f = fold(row)
    assert 2 <= len(f.logits) <= 10 and all(abs(z) <= LOGIT_LIMIT for z in f.logits)
    assert f.folded == max(0, len(row) - 9) if len(row) > 10 else f.folded == 0
    assert_same_probabilities(row, f)
    assert row[f.kept[f.y]] == max(row)  # the true class: the largest, by default
    if len(row) > 10:
        assert sorted(row, reverse=True)[:9] == [row[i] for i in f.kept]
        assert f.names[-1] == f"rest ({len(row) - 9})"


def test_a_gpt2_sized_row_gives_the_right_lesson():
    row = np.random.default_rng(39).normal(-80.0, 3.0, 50_257)
    lesson = Lesson.from_logits(row)
    f = lesson.fold
    top = np.argsort(-row, kind="stable")[:9]
    assert list(f.kept) == top.tolist() and f.folded == 50_248 and f.size == 50_257
    assert lesson.class_names == [f"class {i}" for i in top] + ["rest (50248)"]
    assert lesson.true_class == 0 and lesson.T == 1.0
    assert_same_probabilities(row, f)
    np.testing.assert_allclose(lesson.probabilities()[:9], core.softmax(row)[top], rtol=1e-12)
    assert lesson.loss() == pytest.approx(-core.log_softmax(row)[top[0]], rel=1e-12)
    # the row fits ±100 (the rest's logit is about −65), so its numbers are the printed ones
    assert f.shift == 0.0 and f.clamped == 0 and lesson.logits[:9] == row[top].tolist()
    # printed in full and pasted, the same lesson
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        assert Lesson.from_logits(repr(row)).state() == lesson.state()


def test_a_row_past_the_limit_is_shifted_whole_and_what_stays_below_is_raised_and_counted():
    f = fold([500.0, 400.0, 0.0])
    assert f.logits == (0.0, -100.0, -100.0) and f.shift == -500.0 and f.clamped == 1
    assert "1 raised to −100" in f.summary()
    assert fold([150.0, 140.0]).logits == (0.0, -10.0)
    assert fold([2.0, 1.0, 0.1]) == Fold(size=3, kept=(0, 1, 2), folded=0, rest_p=0.0, shift=0.0, clamped=0,
                                         logits=(2.0, 1.0, 0.1), names=("class 0", "class 1", "class 2"), y=0)


def test_the_true_class_is_an_index_in_the_row_and_is_kept_when_it_would_be_folded():
    row = list(range(20))
    f = fold(row, y=3)
    assert 3 in f.kept and f.kept[f.y] == 3 and f.kept[:8] == tuple(range(19, 11, -1)) and f.folded == 11
    assert_same_probabilities(row, f)
    assert Lesson.from_logits(row, y=19).true_class == 0
    with pytest.raises(Refusal, match="from 0 to 19"):
        fold(row, y=20)


def test_names_are_given_for_the_whole_row_and_follow_the_name_rules():
    names = [f"token {i}" for i in range(12)]
    lesson = Lesson.from_logits(np.arange(12.0), names=names)
    assert lesson.class_names == [f"token {i}" for i in range(11, 2, -1)] + ["rest (3)"]
    with pytest.raises(Refusal) as e:
        fold([1.0, 2.0], names=["cat", "ｃａｔ"])
    assert e.value.key == "name_duplicate"
    with pytest.raises(Refusal) as e:
        fold([1.0, 2.0], names=["a,b", "c"])
    assert e.value.key == "name_comma"
    with pytest.raises(Refusal, match="2 values, got 3 names"):
        fold([1.0, 2.0], names=["a", "b", "c"])
    assert Lesson.from_logits([1.0, 2.0], lang="ko").class_names == ["부류 0", "부류 1"]
    assert fold(np.arange(11.0), lang="ko").names[-1] == "나머지 (2)"


def test_a_tensor_is_read_without_torch_off_its_graph_and_device_in_float64():
    t = FakeTensor([2.0, 1.0, 0.1], bfloat16=True)
    assert row_of(t).tolist() == np.float32([2.0, 1.0, 0.1]).astype(float).tolist()
    assert t.calls == ["detach", "cpu", "double"]
    explainer = Explainer.from_logits(FakeTensor([[3.0, 1.0]]), names=["yes", "no"], T=2.0)
    assert explainer.lesson.logits == [3.0, 1.0] and explainer.lesson.T == 2.0
    assert explainer.lesson.class_names == ["yes", "no"] and explainer.lesson.fold.folded == 0


def test_a_lesson_made_otherwise_has_no_fold():
    assert Lesson().fold is None


@pytest.mark.parametrize(("x", "error", "key"), [
    (np.zeros((4, 10)), ValueError, "paste_batch"),
    ([[1.0, 2.0], [3.0, 4.0]], ValueError, "paste_batch"),
    (np.float64(2.0), ValueError, "paste_count"),
    (3, ValueError, "paste_count"),
    ([1.0], ValueError, "paste_count"),
    ([], ValueError, "paste_count"),
    ([1.0, float("nan")], ValueError, "paste_not_finite"),
    (np.array([np.inf, 1.0]), ValueError, "paste_not_finite"),
    ([1.0, [2.0, 3.0]], TypeError, "paste_format"),
    (["1", "2"], TypeError, "paste_format"),
    ([True, False], TypeError, "paste_format"),
    ([1 + 2j, 3], TypeError, "paste_format"),
    ("tensor([1., ..., 9.])", ValueError, "paste_summary"),
    (None, TypeError, "paste_format"),
])
def test_what_is_not_one_row_of_at_least_two_finite_numbers_is_refused_clearly(x, error, key):
    with pytest.raises(error) as e:
        Explainer.from_logits(x)
    assert e.value.key == key and len(str(e.value)) < 300
