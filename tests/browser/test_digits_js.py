"""static/digits.mjs shows e^u correctly rounded for every double u, like its Python twin (tests/test_digits.py).

Hypothesis draws batches of doubles (one page call per batch); the oracle is mpmath (tests/digits_oracle.py).
"""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.bundle import read
from app.digits import fmt, js_string, logit_text
from tests.browser.chromium import module_page
from tests.digits_oracle import near_ties, shown_exp

CALL = "(us) => us.map((u) => [twin.fmt_exp(u), twin.fmt(u), String(u), twin.logit_text(u)])"


@pytest.fixture(scope="module")
def digits(browser):
    page = module_page(browser, read("digits.mjs"))
    yield lambda us: page.evaluate(CALL, us)
    page.close()


def check(digits, us):
    for u, (exp_text, fmt_text, string, logit) in zip(us, digits(us), strict=True):
        assert exp_text == shown_exp(u), u
        assert fmt_text == fmt(u), u
        if math.isfinite(u):
            assert string == js_string(u) and logit == logit_text(u), u


def test_subnormal_probabilities_in_the_browser(digits):
    assert digits([-744.0, -743.0])[0][0] == "7.67×10<sup>−324</sup>"
    assert digits([-743.0])[0][0] == "2.09×10<sup>−323</sup>"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6) | st.floats(allow_nan=False), min_size=100, max_size=100))
def test_exp_is_correctly_rounded_for_batches_of_doubles(digits, us):
    check(digits, us)


def test_exp_is_correctly_rounded_next_to_every_kind_of_boundary(digits):
    check(digits, near_ties(random.Random(11), 600))
