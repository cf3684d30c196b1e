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


# What the page says of the learning rate (app/strings.py update_stable, the SPEC's "Gradient steps"), each claim
# checked with core's own step. The loss's Hessian in z is (diag(p) − ppᵀ)/T², with eigenvalues in [0, 1/(2T²)].

def loss(z, T, eps):
    return float(core.cross_entropy(np.asarray(z, dtype=float), 0, T=T, label_smoothing=eps))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(-8, 8), min_size=2, max_size=10), st.floats(0.05, 10), st.floats(0, 1),
       st.floats(0.001, 0.999))
def test_below_four_t_squared_a_step_never_raises_the_loss(z, T, eps, fraction):
    # L-smooth with L = 1/(2T²): L(z − ηg) ≤ L(z) − η(1 − η/(4T²))‖g‖², which is ≤ L(z) for η ≤ 4T².
    after = core.gradient_step(z, 0, fraction * 4 * T * T, T=T, label_smoothing=eps)
    assert loss(after, T, eps) <= loss(z, T, eps) * (1 + 1e-12) + 1e-15


@pytest.mark.parametrize("T", [0.5, 1.0, 2.0])
def test_between_two_and_four_t_squared_a_step_can_overshoot_the_optimum_and_the_loss_still_falls(T):
    # The case: K = 2, ε = 0.1, η = 3.9T². The best gap is T·ln 19 = 2.944T; from a gap of 0 the step
    # lands at 3.51T, past it, and the loss falls from ln 2 to 0.205, above its floor H(y′) = 0.1985.
    z = np.array([0.0, 0.0])
    after = core.gradient_step(z, 0, 3.9 * T * T, T=T, label_smoothing=0.1)
    best = core.label_smoothing_optimal_gap(2, 0.1) * T
    assert best == pytest.approx(math.log(19) * T, rel=1e-15)
    assert after[0] - after[1] == pytest.approx(3.51 * T, rel=1e-12) and after[0] - after[1] > best
    assert loss(after, T, 0.1) == pytest.approx(0.204959, abs=1e-6) and loss(z, T, 0.1) == pytest.approx(math.log(2))
    # Near an optimum where the curvature is near its largest, 1/(2T²), the gap swings from side to side: at ε = 0.5
    # the best gap is T·ln 3, σ′ there is 3/16, and η = 3.5T² multiplies the distance to it by 1 − 2·3.5·3/16 < 0.
    best = core.label_smoothing_optimal_gap(2, 0.5) * T
    gaps, losses = [], []
    for n in range(8):
        x = steps(np.array([0.8 * T, 0.0]), 0, n, lr=3.5 * T * T, T=T, eps=0.5)
        gaps.append(x[0] - x[1] - best)
        losses.append(loss(x, T, 0.5))
    assert all(a * b < 0 for a, b in zip(gaps, gaps[1:], strict=False)), gaps  # on alternate sides
    assert all(b < a for a, b in zip(losses, losses[1:], strict=False)), losses  # and the loss falls every step


@settings(max_examples=200, deadline=None)
@given(st.floats(-12, 12), st.floats(0.01, 0.99), st.floats(0.001, 0.999), st.sampled_from([0.3, 1.0, 3.0]))
def test_below_two_t_squared_a_step_of_two_classes_never_passes_the_optimum(d, eps, fraction, T):
    # K = 2: the gap moves by d ↦ d − 2η(σ(d/T) − y′₀)/T, whose slope 1 − 2ησ′/T² ≥ 1 − η/(2T²) > 0 for η < 2T²: an
    # increasing map that fixes the best gap cannot carry a gap across it.
    best = core.label_smoothing_optimal_gap(2, eps) * T
    after = core.gradient_step([d, 0.0], 0, fraction * 2 * T * T, T=T, label_smoothing=eps)
    assert (after[0] - after[1] - best) * (d - best) >= -1e-12 * (1 + abs(d) + best) ** 2


@pytest.mark.parametrize("T", [0.5, 1.0, 2.0])
def test_above_four_t_squared_the_loss_can_rise(T):
    # The bound is tight: with the uniform target (ε = 1) the best gap is 0, the Hessian's top eigenvalue there is
    # exactly 1/(2T²), and a step of η = 4.5T² moves a gap of 0.1T to −0.1248T, further from it: the loss rises.
    z = np.array([0.1 * T, 0.0])
    after = core.gradient_step(z, 0, 4.5 * T * T, T=T, label_smoothing=1.0)
    assert after[0] - after[1] == pytest.approx(-0.1248 * T, rel=1e-3)
    assert loss(after, T, 1.0) > loss(z, T, 1.0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-8, 8), min_size=2, max_size=10), st.integers(0, 9), st.floats(0.05, 10),
       st.sampled_from([5.0, 1e3, 1e6, 1e12]))
def test_with_a_one_hot_target_the_loss_falls_at_any_learning_rate(z, y, T, lr):
    # Every gap z_k − z_y shrinks by η(p_k + 1 − p_y)/T > 0, so every term of L = ln Σ_k e^((z_k − z_y)/T) falls
    # (by less than the logits' last bit where L < 1e-12 already: there it stays).
    y = y % len(z)
    before = float(core.cross_entropy(np.array(z), y, T=T))
    after = float(core.cross_entropy(core.gradient_step(z, y, lr, T=T), y, T=T))
    assert after < before or (after == before and before < 1e-12)


def test_the_step_readout_said_steps_below_four_t_squared_never_overshoot():
    # Issue 36: the lab's update readout said "steps with η below 4T² never overshoot", which the case above
    # (η = 3.9T²) contradicts. It now says what the tests above check, in both languages.
    from app.strings import TEXT

    en, ko = TEXT["en"]["update_stable"], TEXT["ko"]["update_stable"]
    assert "never overshoot" not in en and "지나치지 않습니다" not in ko
    assert "below η = 4T² = {limit} a step never raises the loss" in en
    assert "η가 4T² = {limit}보다 작으면 손실이 커지지" in ko
    assert "from 2T² on it can overshoot the optimum" in en and "2T²부터는 최적점을 지나쳐" in ko
    assert "one-hot target the loss falls at any η" in en and "원-핫이면 어떤 η에서도 손실이 줄어듭니다" in ko
