"""app/digits.py shows every number with every digit right: e^u correctly rounded for every double u.

The oracle (tests/digits_oracle.py) is mpmath, written apart from the renderer; static/digits.mjs, its
JavaScript twin, meets the same oracle in tests/browser/test_digits_js.py.
"""

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.digits import fmt_exp, fmt_exp_text, js_string, logit_text
from tests.digits_oracle import near_ties, shown_exp

SETTINGS = settings(max_examples=400, deadline=None)


def test_subnormal_probabilities():
    # Issue 7: z = (0, −7.44) at T = 0.01 gives log p = −744 − log1p(e^−744) = −744 (to the last bit); the
    # exact e^−744 is 7.67×10⁻³²⁴ (mpmath), where the double p = 9.88e-324 would show 9.88.
    assert fmt_exp(-744.0) == "7.67×10<sup>−324</sup>" == shown_exp(-744.0)
    assert fmt_exp(-743.0) == "2.09×10<sup>−323</sup>" == shown_exp(-743.0)
    assert fmt_exp_text(-744.0) == "7.67×10⁻³²⁴"


def test_switches_and_carries():
    # hand: e^u just below 1e-3 is scientific; 9.995 rounds up into the next power of ten.
    assert fmt_exp(math.log(0.00099996)) == "1.00×10<sup>−3</sup>"
    assert fmt_exp(math.log(999999.9996)) == "1000000.000"
    assert fmt_exp(math.log(9.9951e10)) == "1.00×10<sup>11</sup>"
    assert fmt_exp(0.0) == "1.000" and fmt_exp(1000.0) == "1.97×10<sup>434</sup>"
    assert fmt_exp(-1e308) == shown_exp(-1e308)


@SETTINGS
@given(st.floats(-1e6, 1e6))
def test_exp_is_correctly_rounded_across_the_app_range(u):
    assert fmt_exp(u) == shown_exp(u)


@SETTINGS
@given(st.floats(allow_nan=False))
def test_exp_is_correctly_rounded_for_any_double(u):
    assert fmt_exp(u) == shown_exp(u)


def test_exp_is_correctly_rounded_next_to_every_kind_of_boundary():
    for u in near_ties(random.Random(7), 400):
        assert fmt_exp(u) == shown_exp(u), u


@SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_string_round_trips(x):
    assert float(js_string(x)) == x
    shown = float(logit_text(x))  # 12 significant digits, rounded as JavaScript's toPrecision rounds
    assert abs(shown - x) <= abs(x) * 5e-12
