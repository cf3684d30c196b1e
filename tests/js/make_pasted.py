"""The fixture pasted.json for `node --test`: texts a learner may paste, with app/pasted.py's answer to each.

build() makes it; tests/js/fixtures.py writes it. tests/js/pasted.test.mjs gives static/pasted.mjs each text and
checks that it reads the same floats (exactly, -0 included) or refuses with the same key. The texts are the
printed forms of tests/test_pasted.py, rows NumPy prints (repr and str, wrapped, nested, float32, in full and
at its default precision), PyTorch's layout and joined lists of seeded random rows, a GPT-2-sized row printed in
full, and refused texts of every kind, among them texts one character either side of the length limit.
"""

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from app.pasted import parse_logits  # noqa: E402
from app.refusal import Refusal  # noqa: E402
from app.rules import PASTE_MAX  # noqa: E402

FORMS = [
    "tensor([2.0, 1.0, 0.1])", "tensor([[2.0000, 1.0000, 0.1000]], device='cuda:0', dtype=torch.float16)",
    "tensor([ 2.0000,  1.0000, -1.2000e+01], grad_fn=<AddmmBackward0>)", "[2 1 0.1]",
    "array([2. , 1. , 0.1], dtype=float32)", "array([[ 2. ,  1. ,\n         0.1]])", "[ 2.   1.\n  0.1]",
    "2, 1, 0.1", "[2, 1, 0.1]", "[2, 1, 0.1,]", "2 1 0.1", "  -1.2e+01\t3E2  ", "\u22122, 1", "2,\u00a01",
    "torch.tensor([2., 1.])", "np.array([2, 1])", "[-0.0, 0.0]", "[1e-320, 5e-324]", "+.5 -.5", "1. 2.",
]
REFUSED = [
    "array([ 0.,  1.,  2., ..., 97., 98., 99.])", "[ 0.  1.  2. ... 97. 98. 99.]",
    "tensor([0.0000, 1.0000,  ..., 98.0000, 99.0000])", "[1, \u2026, 3]", "[nan, 1.0]", "tensor([inf, 1.])",
    "[-inf 2]", "1e999, 2", "[1, NaN]", "[1 Infinity]", "[[1, 2], [3, 4]]", "[[1. 2.]\n [3. 4.]]",
    "tensor([[1., 2.],\n        [3., 4.]])", "[[[1, 2]]]", "[1]", "", "   ", "[]", "array(2.)", "hello", "1, 2 3",
    "[1,,2]", ",", "[1, 2", "1, 2]", "tensor([1, 2]", "tensor([1, 2], foo=bar baz)", "tensor([1, 2]) + 1",
    "[np.float64(1.0), np.float64(2.0)]", "1_0, 2", "0x10, 2", "[1, 2]; import os", "\u0661, \u0662", "1e, 2",
    "., 2", "1 -, 2", "1..2, 3", "[1, 2]]", "tensor(1, 2)", "array([1, 2], dtype=float32", "1,2\x0b3", "😀 1 2",
]
# Texts at the length limit, as (unit, times, tail), written out by each side: one character either side of it,
# and astral characters (two UTF-16 units in JavaScript, one code point in Python, which counts code points).
LONG = [("1", PASTE_MAX + 1, ""), ("1 ", PASTE_MAX // 2, "1"), ("1 ", PASTE_MAX // 2 - 1, "1"),
        ("😀", PASTE_MAX // 2 + 1, ""), ("😀", PASTE_MAX, ""), ("😀", PASTE_MAX + 1, "")]


def printed(rng):
    """Seeded rows as NumPy, a PyTorch-like repr and a joined list print them."""
    texts = []
    for size in (2, 3, 7, 10, 11, 40, 200):
        for scale in (1.0, 1e-5, 1e5, 1e300):
            row = rng.normal(0.0, scale, size)
            for opts in ({"floatmode": "unique"}, {}):
                with np.printoptions(threshold=sys.maxsize, **opts):
                    with np.errstate(over="ignore"):  # 1e300 is inf in float32: printed "inf", refused
                        texts += [repr(row), str(row), repr(row[None]), str(row[None]),
                                  repr(row.astype(np.float32))]
            values = [repr(float(v)) for v in row]
            texts += ["tensor([" + ",\n        ".join(", ".join(values[i:i + 6]) for i in range(0, size, 6))
                      + "], device='cuda:0', grad_fn=<AddmmBackward0>)", ", ".join(values), " ".join(values)]
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        texts.append(repr(rng.normal(-80.0, 3.0, 50_257)))
    return texts


def answer(text):
    try:
        return {"text": text, "row": parse_logits(text), "refusal": None}
    except Refusal as e:
        return {"text": text, "row": None, "refusal": e.key}


def build():
    cases = [answer(t) for t in FORMS + REFUSED + printed(np.random.default_rng(39))]
    long = []
    for unit, times, tail in LONG:  # the count of values read, not the values: 2,000,000 ones
        got = answer(unit * times + tail)
        long.append({"repeat": [unit, times, tail], "n": got["row"] and len(got["row"]), "refusal": got["refusal"]})
    return json.dumps({"paste_max": PASTE_MAX, "cases": cases, "long": long}, ensure_ascii=False)
