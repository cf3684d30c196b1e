"""core.gradient_step: one step of gradient descent on the logits, and where many of them lead (issue 16)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core


def steps(z, y, n, lr=1.0, T=1.0, eps=0.0):
    z = np.asarray(z, dtype=float)
    for _ in range(n):
        z = core.gradient_step(z, y, lr, T=T, label_smoothing=eps)
    return z


def test_a_step_is_z_minus_eta_times_the_gradient():
    z = np.array([2.0, 1.0, 0.1])
    p = core.softmax(z, T=0.5)
    target = core.smoothed_target(1, 3, 0.1)
    # By hand, from the formula: z − η·(p − y′)/T.
    np.testing.assert_allclose(core.gradient_step(z, 1, 0.3, T=0.5, label_smoothing=0.1),
                               z - 0.3 * (p - target) / 0.5, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-8, 8), min_size=2, max_size=10), st.sampled_from([0.3, 1.0, 3.0]),
       st.sampled_from([0.0, 0.1]), st.floats(0.05, 0.99))
def test_steps_below_four_t_squared_lower_the_loss_and_keep_the_sum(z, T, eps, fraction):
    lr = fraction * 4 * T**2
    losses, sums, x = [], [], np.array(z)
    for _ in range(50):
        losses.append(float(core.cross_entropy(x, 0, T=T, label_smoothing=eps)))
        sums.append(x.sum())
        x = core.gradient_step(x, 0, lr, T=T, label_smoothing=eps)
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:], strict=False)), losses
    assert max(sums) - min(sums) <= 1e-9 * (1 + np.abs(z).sum())


@pytest.mark.parametrize(("K", "limit"), [(2, 0.5), (10, 0.9)])
def test_with_a_one_hot_target_loss_times_t_tends_to_k_minus_1_over_k(K, limit):
    # The asymptote, at η = T = 1: loss·t → (K − 1)T²/(ηK).
    t = 20_000
    z = steps(np.zeros(K), 0, t)
    assert float(core.cross_entropy(z, 0)) * t == pytest.approx(limit, rel=0.01)


def test_with_label_smoothing_the_logits_settle_at_the_best_gap():
    z = steps(np.zeros(10), 0, 3000, eps=0.1)
    gap = z[0] - z[1:].max()
    assert gap == pytest.approx(math.log(91), abs=1e-6)  # ln 91 = 4.5109, T·ln((1 − ε + ε/K)/(ε/K))
    assert gap == pytest.approx(core.label_smoothing_optimal_gap(10, 0.1), abs=1e-6)
    assert float(core.cross_entropy(z, 0, label_smoothing=0.1)) == pytest.approx(0.500288, abs=1e-6)  # H(y′)


@pytest.mark.parametrize("lr", [0.0, -1.0, math.inf, math.nan, True, "0.1"])
def test_a_bad_learning_rate_is_refused(lr):
    with pytest.raises(ValueError, match="learning rate"):
        core.gradient_step([1.0, 2.0], 0, lr)
