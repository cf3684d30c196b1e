"""The fixture digits.json for `node --test`: doubles with the oracle's display of each.

build() makes it; tests/js/fixtures.py writes it.

tests/js/digits.test.mjs checks that static/digits.mjs writes exactly what the oracle (tests/digits_oracle.py:
mpmath and exact fractions, written apart from the page) writes, for every function it has: fmt, fmt_exp,
fmt_exp_text and logit_text, with JavaScript's own String against the oracle's `js_string` (which logit_text's
truth is built on). The doubles: hand cases, doubles next to every kind of display boundary (near_ties), seeded
random doubles across the app's range and across all doubles, and every number the lessons of
tests/twin_cases.py show.
"""

import json
import math
import platform
import random
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import mpmath  # noqa: E402
import numpy as np  # noqa: E402

from app.state import _lesson_numbers  # noqa: E402
from tests.digits_oracle import (  # noqa: E402
    js_string,
    logit_text,
    near_ties,
    real_text,
    shown,
    shown_exp,
    shown_exp_text,
)
from tests.twin_cases import STATES  # noqa: E402

HAND = [
    -744.0, -743.0,  # e^u subnormal: 7.67×10⁻³²⁴, 2.09×10⁻³²³ (issue 7)
    math.log(0.00099996), math.log(999999.9996), math.log(9.9951e10),  # the switches, and 9.995 carried
    0.0, -0.0, 1.0, -1.0, 1000.0, -1e308, 1e308, 1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -5e-324,
    0.41703, -2.5, 1.5e-17, 1e-3, 1e6, 999999.9995, 0.0005, 0.0004999, 1e21, 1e-7, 0.1, 0.09999999999999998, 2.0,
    -0.9, 123.45, 0.125, -0.625, 9.995, 9.9949999, 0.0009995, 1e-300, math.inf, -math.inf, math.nan,
]


def lesson_numbers():
    """Every number the lessons of tests/twin_cases.py show (core's, by `Lesson.numbers()`), and the same in
    bits: logits, z/T, log p, y′, −∂L/∂z, and each readout's value."""
    out = []
    for s in STATES:
        n = _lesson_numbers(s)  # what Lesson.numbers() answers for the lesson s
        out += s["z"] + [v / s["T"] for v in s["z"]] + n["log_p"] + n["target"] + n["g"]
        for key in ("g_sum", "loss", "floor", "kl", "entropy", "lse", "ln_k", "gap_best", "gap_now"):
            out += [n[key], n[key] / math.log(2)]
    return out


def doubles():
    rng = random.Random(20261201)
    anywhere = (struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(1500))
    values = (HAND + near_ties(random.Random(7), 400) + near_ties(random.Random(11), 600)
              + [rng.uniform(-1e6, 1e6) for _ in range(1500)] + [v for v in anywhere if not math.isnan(v)]
              + [rng.choice([-1, 1]) * 10 ** rng.uniform(-30, 30) for _ in range(1000)] + lesson_numbers())
    seen, out = set(), []
    for v in values:
        key = struct.pack("<d", v)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def encoded(v):
    """A double as JSON holds it: "inf", "-inf" and "nan" for the others."""
    return v if math.isfinite(v) else "nan" if math.isnan(v) else "inf" if v > 0 else "-inf"


def build():
    cases = [[encoded(u), shown_exp(u), shown(u), shown_exp_text(u),
              logit_text(u) if math.isfinite(u) else None, js_string(u) if math.isfinite(u) else None,
              real_text(u) if math.isfinite(u) else None]
             for u in doubles()]
    fixture = {
        "produced_by": "tests/js/make_digits.py",
        "python": platform.python_version(), "numpy": np.__version__, "mpmath": mpmath.__version__,
        "columns": ["u", "fmt_exp", "fmt", "fmt_exp_text", "logit_text", "String", "real_text"],
        "cases": cases,
    }
    return json.dumps(fixture, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"
