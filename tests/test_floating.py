"""core/floating.py: softmax in float64, float32 and float16, naive and stable, against mpmath and core."""

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core.floating import DTYPES

# ln of each type's largest finite value (IEEE 754: (2 − 2^−52)·2^1023, (2 − 2^−23)·2^127, (2 − 2^−10)·2^15),
# by mpmath at 50 digits.
mpmath.mp.dps = 50
LN_MAX = {"float64": mpmath.log((2 - mpmath.mpf(2) ** -52) * mpmath.mpf(2) ** 1023),
          "float32": mpmath.log((2 - mpmath.mpf(2) ** -23) * mpmath.mpf(2) ** 127),
          "float16": mpmath.log((2 - mpmath.mpf(2) ** -10) * mpmath.mpf(2) ** 15)}


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_overflow_thresholds_are_ln_max(dtype):
    assert core.overflow_at(dtype) == pytest.approx(float(LN_MAX[dtype]), rel=1e-15)
    assert f"{core.overflow_at(dtype):.2f}" == {"float64": "709.78", "float32": "88.72", "float16": "11.09"}[dtype]


@pytest.mark.parametrize(("z", "T", "dtype", "naive_breaks"), [
    ([8.0, 0.0, 0.0], 0.01, "float64", True),  # the case: 800 > 709.78
    ([1.0, 0.0, 0.0], 0.01, "float64", False),  # 100 < 709.78 ...
    ([1.0, 0.0, 0.0], 0.01, "float32", True),  # ... but > 88.72
    ([12.0, 0.0], 1.0, "float16", True),  # 12 > 11.09
    ([11.0, 0.0], 1.0, "float16", False),
])
def test_naive_breaks_exactly_past_the_threshold_and_the_stable_ways_never(z, T, dtype, naive_breaks):
    ways = core.softmax_three_ways(z, T, dtype)
    assert bool(np.isnan(ways["naive"]).any()) == naive_breaks
    exact = core.softmax(z, T=T)
    for way in ("shifted", "log"):
        assert np.isfinite(ways[way]).all()
        np.testing.assert_allclose(ways[way].astype(float), exact, atol={"float64": 1e-15, "float32": 1e-6,
                                                                        "float16": 1e-3}[dtype])


def test_the_loss_from_log_softmax_stays_finite_where_log_of_softmax_is_inf():
    """mpmath: at z = (0, 8), T = 0.01 the loss is 800 exactly to double precision (e^−800 is below 2^−1074)."""
    z, T = [0.0, 8.0], 0.01
    exact = float(mpmath.log(1 + mpmath.exp(mpmath.mpf(800))))
    assert core.loss_two_ways(z, 0, T) == (np.inf, pytest.approx(exact, rel=1e-15))
    assert core.cross_entropy(z, 0, T=T) == pytest.approx(exact, rel=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-100, 100), min_size=2, max_size=10), st.sampled_from([0.01, 0.1, 1.0, 10.0, 100.0]))
def test_float64_shifted_and_log_ways_are_cores_softmax(z, T):
    ways = core.softmax_three_ways(z, T)
    exact = core.softmax(z, T=T)
    u = np.asarray(z) / T
    # z/T rounds to within half an ulp of |u|, which e^u turns into a relative error of |u|·2^−53; core shifts
    # before it divides, so the two may differ by that much.
    rtol = 1e-14 + 4 * 2.0**-53 * np.abs(u).max()
    np.testing.assert_allclose(ways["shifted"], exact, rtol=rtol, atol=1e-300)
    np.testing.assert_allclose(ways["log"], exact, rtol=rtol, atol=1e-300)
    if u.max() < 700 and u.min() > -700:  # nothing overflows or underflows: the naive way is right too
        np.testing.assert_allclose(ways["naive"], exact, rtol=rtol, atol=1e-300)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-100, 100), min_size=2, max_size=10), st.sampled_from([0.01, 1.0, 100.0]),
       st.sampled_from(DTYPES))
def test_the_naive_way_is_nan_exactly_when_an_exponent_overflows_or_all_underflow(z, T, dtype):
    t = np.dtype(dtype).type
    u = np.array([t(t(v) / t(T)) for v in z], dtype=np.float64)
    with np.errstate(all="ignore"):
        e = np.array([t(np.exp(t(v))) for v in u], dtype=np.float64)
    broken = bool(np.isinf(e).any() or (e == 0).all())
    assert bool(np.isnan(core.softmax_three_ways(z, T, dtype)["naive"]).any()) == broken
    assert np.isfinite(core.softmax_three_ways(z, T, dtype)["shifted"]).all()


def test_a_bad_dtype_is_refused():
    with pytest.raises(ValueError, match="dtype must be one of"):
        core.softmax_three_ways([1.0, 2.0], 1.0, "float8")
