"""Properties that must hold for every input, checked with Hypothesis."""

import math

import numpy as np
import scipy.special
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import core

SETTINGS = settings(max_examples=60, deadline=None)  # numpy's first calls warm up slowly: no deadline

moderate = st.floats(-100, 100, allow_nan=False, allow_infinity=False)  # the app's logit range
batch_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6)
logits = hnp.arrays(np.float64, batch_shapes, elements=moderate)
rows = hnp.arrays(
    np.float64, hnp.array_shapes(min_dims=1, max_dims=1, min_side=2, max_side=8), elements=moderate
)
temperatures = st.floats(0.01, 100.0)  # the app's temperature range


def index_targets(z, data):
    return data.draw(hnp.arrays(np.int64, z.shape[:-1], elements=st.integers(0, z.shape[-1] - 1)))


def probability_targets(z, data):
    raw = data.draw(hnp.arrays(np.float64, z.shape, elements=st.floats(0.0, 1.0)))
    raw[..., 0] += 1e-3  # keep every row's mass positive
    return raw / raw.sum(axis=-1, keepdims=True)


@SETTINGS
@given(logits, temperatures)
def test_probabilities_sum_to_one(z, T):
    p = core.softmax(z, T=T)
    assert ((p >= 0) & (p <= 1)).all()
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, rtol=1e-12)


@SETTINGS
@given(logits, st.floats(-100, 100), temperatures)
def test_shift_invariance(z, c, T):
    np.testing.assert_allclose(core.softmax(z + c, T=T), core.softmax(z, T=T), rtol=1e-8, atol=1e-300)
    np.testing.assert_allclose(
        core.cross_entropy(z + c, np.zeros(z.shape[:-1], dtype=int), T=T),
        core.cross_entropy(z, np.zeros(z.shape[:-1], dtype=int), T=T),
        rtol=1e-8,
        atol=1e-12,
    )


@SETTINGS
@given(rows, temperatures)
def test_order_is_preserved(z, T):
    p = core.softmax(z, T=T)
    i, j = np.nonzero(z[:, None] > z[None, :])
    assert (p[i] >= p[j]).all()


@SETTINGS
@given(logits, temperatures)
def test_entropy_lies_between_0_and_ln_K(z, T):
    h = core.entropy(core.softmax(z, T=T))
    assert (h >= 0).all()
    assert (h <= math.log(z.shape[-1]) + 1e-12).all()


@SETTINGS
@given(logits, temperatures, st.floats(0.0, 1.0), st.data())
def test_gradient_rows_sum_to_zero_without_weights(z, T, eps, data):
    for target in (index_targets(z, data), probability_targets(z, data)):
        g = core.grad_logits(z, target, T=T, label_smoothing=eps)
        np.testing.assert_allclose(g.sum(axis=-1), 0.0, atol=1e-12 / T)


@SETTINGS
@given(hnp.arrays(np.float64, batch_shapes, elements=st.integers(-3, 3).map(float)))
def test_zero_temperature_limit_is_argmax_with_ties_split(z):
    is_max = z == z.max(axis=-1, keepdims=True)
    expected = is_max / is_max.sum(axis=-1, keepdims=True)
    np.testing.assert_array_equal(core.softmax(z, T=1e-300), expected)
    np.testing.assert_allclose(core.softmax(z, T=1e-3), expected, atol=1e-300 + 1e-12)


@SETTINGS
@given(logits)
def test_infinite_temperature_limit_is_uniform(z):
    np.testing.assert_allclose(core.softmax(z, T=1e300), 1 / z.shape[-1], rtol=1e-15)
    # Every p_k lies within a factor e^{±spread/T} of 1/K, the spread being max z − min z.
    spread = float(np.ptp(z))
    np.testing.assert_allclose(core.softmax(z, T=1e6), 1 / z.shape[-1], rtol=np.expm1(spread / 1e6) + 1e-15)


@SETTINGS
@given(moderate, moderate)
def test_two_classes_is_the_logistic_sigmoid_of_the_difference(z1, z2):
    np.testing.assert_allclose(
        core.softmax([z1, z2])[0], scipy.special.expit(z1 - z2), rtol=1e-14, atol=1e-300
    )


@SETTINGS
@given(logits, temperatures)
def test_log_softmax_is_the_log_of_softmax(z, T):
    p = core.softmax(z, T=T)
    assume((p > 1e-300).all())  # where softmax underflows, log_softmax stays finite and log(p) does not
    np.testing.assert_allclose(core.log_softmax(z, T=T), np.log(p), rtol=1e-12, atol=1e-14)


@SETTINGS
@given(logits, temperatures, st.data())
def test_unreduced_loss_is_minus_log_softmax_of_the_target(z, T, data):
    y = index_targets(z, data)
    picked = np.take_along_axis(core.log_softmax(z, T=T), y[..., None], axis=-1)[..., 0]
    np.testing.assert_allclose(
        core.cross_entropy(z, y, T=T, reduction="none"), -picked, rtol=1e-12, atol=1e-14
    )


@SETTINGS
@given(
    logits,
    temperatures,
    st.floats(0.0, 1.0),
    st.booleans(),
    st.sampled_from(["mean", "sum", "none"]),
    st.data(),
)
def test_one_hot_probability_targets_equal_index_targets(z, T, eps, weighted, reduction, data):
    y = index_targets(z, data)
    K = z.shape[-1]
    w = np.linspace(0.5, 2.0, K) if weighted else None
    by_index = core.cross_entropy(z, y, T=T, weight=w, reduction=reduction, label_smoothing=eps)
    by_probs = core.cross_entropy(z, np.eye(K)[y], T=T, weight=w, reduction=reduction, label_smoothing=eps)
    if reduction == "mean" and weighted:
        # PyTorch divides an index target's weighted mean by Σ w_y, a probability target's by N.
        by_probs = by_probs * y.size / w[y].sum()
    np.testing.assert_allclose(by_index, by_probs, rtol=1e-12, atol=1e-14)
    g_index = core.grad_logits(z, y, T=T, weight=w, label_smoothing=eps)
    np.testing.assert_allclose(
        g_index, core.grad_logits(z, np.eye(K)[y], T=T, weight=w, label_smoothing=eps), rtol=1e-10, atol=1e-14
    )


@SETTINGS
@given(logits, st.data())
def test_cross_entropy_is_entropy_plus_kl(z, data):
    y = probability_targets(z, data)
    h_yp = core.cross_entropy(z, y, reduction="none")
    np.testing.assert_allclose(
        h_yp, core.entropy(y) + core.kl_divergence(y, core.softmax(z)), rtol=1e-10, atol=1e-12
    )


@SETTINGS
@given(logits, st.sampled_from([np.float32, np.float64]))
def test_dtype_is_kept(z, dtype):
    z = z.astype(dtype)
    for out in (core.softmax(z), core.log_softmax(z), core.logsumexp(z), core.softmax_jacobian(z)):
        assert out.dtype == dtype


@SETTINGS
@given(logits)
def test_logsumexp_bounds(z):
    lse = core.logsumexp(z)
    top = z.max(axis=-1)
    assert (top <= lse).all()
    assert (lse <= top + math.log(z.shape[-1]) + 1e-12).all()


@SETTINGS
@given(
    hnp.arrays(
        np.float64, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=5), elements=moderate
    ),
    st.integers(0, 1),
    temperatures,
)
def test_any_axis_equals_moving_it_last(z, axis, T):
    moved = np.moveaxis(z, axis, -1)
    np.testing.assert_allclose(
        core.softmax(z, T=T, axis=axis), np.moveaxis(core.softmax(moved, T=T), -1, axis)
    )
    np.testing.assert_allclose(
        core.log_softmax(z, T=T, axis=axis), np.moveaxis(core.log_softmax(moved, T=T), -1, axis)
    )
    np.testing.assert_allclose(core.logsumexp(z, axis=axis), core.logsumexp(moved))


@SETTINGS
@given(logits, st.floats(0.05, 1.0), st.floats(1.0, 20.0))
def test_temperature_never_changes_the_argmax(z, cold, hot):
    top = z.argmax(axis=-1)[..., None]
    for T in (cold, hot):
        p = core.softmax(z, T=T)
        assert (np.take_along_axis(p, top, axis=-1)[..., 0] == p.max(axis=-1)).all()
