"""app/pasted.py: a row of logits read back from how PyTorch, NumPy and Python print it; everything else refused.

The printers are NumPy itself (repr and str, wrapped and nested), a PyTorch-like repr written here (torch is not
a dependency: its layout, wrapped at six values, with its keywords after the row) and ", ".join. static/pasted.mjs
reads the same cases (tests/js/make_pasted.py).
"""

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.pasted import parse_logits
from app.refusal import Refusal
from app.rules import PASTE_MAX

ROWS = st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=2, max_size=60)


def torch_repr(row, keywords=", device='cuda:0', grad_fn=<AddmmBackward0>", nested=False):
    """The layout of PyTorch's tensor repr: `tensor([`, six values a line aligned under the first, keywords after
    the row (each value as repr writes it, so the floats come back exactly)."""
    values = [repr(float(v)) for v in row]
    lines = [", ".join(values[i:i + 6]) for i in range(0, len(values), 6)]
    indent = " " * (len("tensor([") + nested)
    body = (",\n" + indent).join(lines)
    return f"tensor([[{body}]]{keywords})" if nested else f"tensor([{body}]{keywords})"


@settings(max_examples=200, deadline=None)
@given(ROWS)
def test_numpy_printing_any_finite_row_in_full_reads_back_as_the_same_floats(row):
    a = np.array(row)
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        for text in (repr(a), str(a), repr(a[None]), str(a[None]), np.array2string(a, separator=", ")):
            assert parse_logits(text) == row, text


@settings(max_examples=100, deadline=None)
@given(ROWS)
def test_numpy_printing_at_its_default_precision_reads_back_as_printed(row):
    # NumPy's default prints 8 digits: the floats come back as printed, within what those digits hold.
    a = np.array(row)
    with np.printoptions(threshold=sys.maxsize):
        for text in (repr(a), str(a)):
            np.testing.assert_allclose(parse_logits(text), a, rtol=1e-7, atol=1e-8)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(width=32, allow_nan=False, allow_infinity=False), min_size=2, max_size=60))
def test_float32_rows_read_back_as_the_same_float32(row):
    a = np.array(row, dtype=np.float32)
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        assert np.array_equal(np.float32(parse_logits(repr(a))), a), repr(a)


@settings(max_examples=200, deadline=None)
@given(ROWS, st.sampled_from(["", ", device='cuda:0', grad_fn=<AddmmBackward0>", ", dtype=torch.float16",
                              ", requires_grad=True", ", dtype=torch.float64, device='mps:0'"]), st.booleans())
def test_a_torch_like_repr_of_any_finite_row_reads_back_as_the_same_floats(row, keywords, nested):
    assert parse_logits(torch_repr(row, keywords, nested)) == row


@settings(max_examples=200, deadline=None)
@given(ROWS, st.sampled_from([", ", ",", " , ", ",\n"]), st.booleans())
def test_a_joined_list_reads_back_as_the_same_floats(row, sep, brackets):
    text = sep.join(repr(v) for v in row)
    assert parse_logits(f"[{text}]" if brackets else text) == row


@pytest.mark.parametrize(("text", "row"), [
    ("tensor([2.0, 1.0, 0.1])", [2.0, 1.0, 0.1]),
    ("tensor([[2.0000, 1.0000, 0.1000]], device='cuda:0', dtype=torch.float16)", [2.0, 1.0, 0.1]),
    ("tensor([ 2.0000,  1.0000, -1.2000e+01], grad_fn=<AddmmBackward0>)", [2.0, 1.0, -12.0]),
    ("[2 1 0.1]", [2.0, 1.0, 0.1]),
    ("array([2. , 1. , 0.1], dtype=float32)", [2.0, 1.0, 0.1]),
    ("array([[ 2. ,  1. ,\n         0.1]])", [2.0, 1.0, 0.1]),
    ("[ 2.   1.\n  0.1]", [2.0, 1.0, 0.1]),
    ("2, 1, 0.1", [2.0, 1.0, 0.1]),
    ("[2, 1, 0.1]", [2.0, 1.0, 0.1]),
    ("[2, 1, 0.1,]", [2.0, 1.0, 0.1]),
    ("2 1 0.1", [2.0, 1.0, 0.1]),
    ("  -1.2e+01\t3E2  ", [-12.0, 300.0]),
    ("\u22122, 1", [-2.0, 1.0]),  # U+2212 MINUS SIGN, as a web page (this explainer's readouts) writes it
    ("torch.tensor([2., 1.])", [2.0, 1.0]),
    ("np.array([2, 1])", [2.0, 1.0]),
])
def test_each_printed_form_reads_as_its_row(text, row):
    assert parse_logits(text) == row


@pytest.mark.parametrize(("text", "key"), [
    ("array([ 0.,  1.,  2., ..., 97., 98., 99.])", "paste_summary"),
    ("[ 0.  1.  2. ... 97. 98. 99.]", "paste_summary"),
    ("tensor([0.0000, 1.0000,  ..., 98.0000, 99.0000])", "paste_summary"),
    ("[1, …, 3]", "paste_summary"),
    ("[nan, 1.0]", "paste_not_finite"),
    ("tensor([inf, 1.])", "paste_not_finite"),
    ("[-inf 2]", "paste_not_finite"),
    ("1e999, 2", "paste_not_finite"),
    ("[[1, 2], [3, 4]]", "paste_batch"),
    ("[[1. 2.]\n [3. 4.]]", "paste_batch"),
    ("tensor([[1., 2.],\n        [3., 4.]])", "paste_batch"),
    ("[[[1, 2]]]", "paste_batch"),
    ("[1]", "paste_count"),
    ("", "paste_count"),
    ("[]", "paste_count"),
    ("array(2.)", "paste_count"),
    ("hello", "paste_format"),
    ("1, 2 3", "paste_format"),
    ("[1,,2]", "paste_format"),
    ("[1, 2", "paste_format"),
    ("tensor([1, 2]", "paste_format"),
    ("tensor([1, 2], foo=bar baz)", "paste_format"),
    ("tensor([1, 2]) + 1", "paste_format"),
    ("[np.float64(1.0), np.float64(2.0)]", "paste_format"),
    ("1_0, 2", "paste_format"),
    ("0x10, 2", "paste_format"),
    ("[1, 2]; import os", "paste_format"),
    ("١, ٢", "paste_format"),
    ("1" * (PASTE_MAX + 1), "paste_long"),
])
def test_anything_else_is_refused_with_a_key_that_says_why(text, key):
    with pytest.raises(Refusal) as e:
        parse_logits(text)
    assert e.value.key == key and len(str(e.value)) < 300


def test_a_non_text_value_is_a_type_refusal():
    with pytest.raises(TypeError):
        parse_logits([1, 2])


# Text at the longest a paste may be, shaped to make a careless parser slow (nested brackets, runs of blanks,
# digits, exponents, keywords): each is answered as it should be. How long each takes beside a plain row of the
# same length: tests/benchmarks/bench_paste.py (speed is a benchmark's, not a test's).
HOSTILE = {
    "brackets": ("[" * (PASTE_MAX // 2) + "]" * (PASTE_MAX // 2), "paste_batch"),
    "blanks": (" " * PASTE_MAX, "paste_count"),
    "blank list": ("1 " * (PASTE_MAX // 2), PASTE_MAX // 2),
    "comma list": ("1," * (PASTE_MAX // 2), PASTE_MAX // 2),
    "digits": ("1" * PASTE_MAX, "paste_not_finite"),
    "exponents": ("1e" * (PASTE_MAX // 2), "paste_format"),
    "open tensor": ("tensor(" + "[1," * (PASTE_MAX // 3 - 3) + ")", "paste_count"),
    "keywords": ("[1, 2]" + ", a=1" * (PASTE_MAX // 5 - 2), "paste_format"),
    "dots": ("1 " + "." * (PASTE_MAX - 2), "paste_summary"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_text_at_the_longest_is_answered(name):
    text, answer = HOSTILE[name]
    if isinstance(answer, int):
        assert parse_logits(text) == [1.0] * answer
        return
    with pytest.raises(Refusal) as e:
        parse_logits(text)
    assert e.value.key == answer


def test_a_gpt2_row_printed_in_full_by_numpy_reads_back_and_fits_the_limit():
    row = np.random.default_rng(2).normal(-80.0, 3.0, 50_257)
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        text = repr(row)
    assert len(text) < PASTE_MAX / 2
    assert parse_logits(text) == row.tolist()
