"""The digits oracle (tests/digits_oracle.py) against hand values: the truth every shown digit is tested on.

The page's own digits (static/digits.mjs, the only renderer) meet this oracle under `node --test`
(tests/js/digits.test.mjs, on the cases tests/js/make_digits.py writes; tests/js/lessons.test.mjs, on every
readout of the shared lessons). Here the oracle itself is checked, by hand values and by properties.
"""

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.digits_oracle import js_string, logit_text, shown, shown_exp, shown_exp_text, to_fixed

SETTINGS = settings(max_examples=300, deadline=None)


def test_subnormal_probabilities():
    # Issue 7: z = (0, −7.44) at T = 0.01 gives log p = −744 − log1p(e^−744) = −744 (to the last bit); the
    # exact e^−744 is 7.67×10⁻³²⁴ (e^−744 = 10^−323.115…, 10^0.885 = 7.67), where the double p = 9.88e-324
    # would show 9.88.
    assert shown_exp(-744.0) == "7.67×10<sup>−324</sup>"
    assert shown_exp(-743.0) == "2.09×10<sup>−323</sup>"
    assert shown_exp_text(-744.0) == "7.67×10⁻³²⁴"


def test_switches_and_carries():
    # hand: e^u just below 1e-3 is scientific; 9.995 rounds up into the next power of ten.
    assert shown_exp(math.log(0.00099996)) == "1.00×10<sup>−3</sup>"
    assert shown_exp(math.log(999999.9996)) == "1000000.000"
    assert shown_exp(math.log(9.9951e10)) == "1.00×10<sup>11</sup>"
    assert shown_exp(0.0) == "1.000" and shown_exp(1000.0) == "1.97×10<sup>434</sup>"  # e^1000 = 1.9700711e434
    assert shown_exp(-math.inf) == "0.000" and shown_exp(math.inf) == "∞" and shown_exp(math.nan) == "—"
    assert shown(0.0005) == "5.00×10<sup>−4</sup>" and shown(-0.001) == "−0.001" and shown(999999.9996) == "1000000.000"
    assert shown(-math.inf) == "−∞" and shown(math.nan) == "—"


@SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e20, max_value=1e20), st.integers(0, 6))
def test_to_fixed_is_the_nearest_decimal(x, digits):
    text = to_fixed(x, digits)
    error = abs(Fraction(text) - Fraction(x))
    assert error <= Fraction(1, 2 * 10**digits), (x, digits, text)


@SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_string_and_logit_text_round_trip(x):
    assert float(js_string(x)) == x
    shown_logit = float(logit_text(x))  # 4 decimals, rounded as JavaScript's toFixed rounds
    assert abs(shown_logit - x) <= 5e-5 * (1 + 1e-12) + abs(x) * 1e-16
    assert len(logit_text(x).partition(".")[2]) <= 4 or abs(x) >= 1e21
