"""Golden values for `core`, each with its provenance beside it.

"SPEC" numbers come from /work/shared/SPEC.md; "mpmath" values were computed with mpmath at 40 digits
(e.g. ``mp.log(1 + mp.e**-40)``) and rounded to double; "hand" values follow from a line of algebra
written next to them.
"""

import math

import numpy as np
import pytest

import core

Z = [2.0, 1.0, 0.1]  # SPEC default logits: cat / dog / bird, true class cat


def test_default_probabilities():
    # mpmath: exp(z_k) / (e^2 + e^1 + e^0.1); SPEC rounds them to (0.659, 0.242, 0.099).
    expected = [0.6590011388859679, 0.24243297070471392, 0.09856589040931818]
    np.testing.assert_allclose(core.softmax(Z), expected, rtol=1e-15)
    np.testing.assert_array_equal(core.softmax(Z).round(3), [0.659, 0.242, 0.099])


def test_default_loss_is_0417_nats():
    # mpmath: −ln(e^2 / 11.2125088454653…) = 0.41703001627783348; SPEC: ≈ 0.417 nats.
    assert core.cross_entropy(Z, 0) == pytest.approx(0.41703001627783348, rel=1e-15)


def test_default_logsumexp_and_its_bounds():
    # mpmath: ln(e^2 + e + e^0.1) = 2.4170300162778335; SPEC: 2 ≤ 2.417 ≤ 2 + ln 3 = 3.099.
    lse = core.logsumexp(Z)
    assert lse == pytest.approx(2.4170300162778335, rel=1e-15)
    assert max(Z) <= lse <= max(Z) + math.log(3)
    assert round(max(Z) + math.log(3), 3) == 3.099


def test_default_gradient_is_probability_minus_target():
    # hand: ∂L/∂z = p − onehot(cat) with p from test_default_probabilities.
    expected = [0.6590011388859679 - 1, 0.24243297070471392, 0.09856589040931818]
    np.testing.assert_allclose(core.grad_logits(Z, 0), expected, rtol=1e-14)


@pytest.mark.parametrize(
    ("K", "nats", "spec"),
    [
        # mpmath: ln K; SPEC: 0.693, 2.303, 4.605, 10.82.
        (2, 0.6931471805599453, 0.693),
        (10, 2.302585092994046, 2.303),
        (100, 4.605170185988092, 4.605),
        (50257, 10.824905119702080, 10.82),
    ],
)
def test_knowing_nothing_costs_ln_K(K, nats, spec):
    assert core.uniform_loss(K) == pytest.approx(nats, rel=1e-15)
    assert core.cross_entropy(np.zeros(K), 0) == pytest.approx(nats, rel=1e-14)
    assert round(nats, len(str(spec).split(".")[1])) == spec


def test_perplexity_and_bits_of_185_nats():
    # mpmath: e^1.85 = 6.3598195226018317, 1.85 / ln 2 = 2.6689858256445823; SPEC: 6.36 and 2.67 bits.
    assert core.perplexity(1.85) == pytest.approx(6.3598195226018317, rel=1e-15)
    assert core.nats_to_bits(1.85) == pytest.approx(2.6689858256445823, rel=1e-15)


def test_one_nat_is_1443_bits():
    # mpmath: 1 / ln 2 = 1.4426950408889634; SPEC: ≈ 1.443 bits.
    assert core.nats_to_bits(1.0) == pytest.approx(1.4426950408889634, rel=1e-15)
    assert core.bits_to_nats(core.nats_to_bits(1.0)) == pytest.approx(1.0, rel=1e-15)


def test_entropy_of_three_equal_classes_is_log2_3_bits():
    # hand: H(uniform over 3) = log2 3 = 1.584962500721156 bits; SPEC: its maximum 1.585 bits for K = 3.
    assert core.entropy(core.softmax([0.0, 0.0, 0.0]), base=2) == pytest.approx(math.log2(3), rel=1e-15)


def test_label_smoothing_floor_k4_eps01():
    # mpmath: −0.925 ln 0.925 − 3 · 0.025 ln 0.025 = 0.34878038491802869 nats = 0.5031837316805838 bits;
    # SPEC: 0.503 bits = 0.349 nats.
    assert core.label_smoothing_floor(4, 0.1) == pytest.approx(0.34878038491802869, rel=1e-14)
    assert core.label_smoothing_floor(4, 0.1, base=2) == pytest.approx(0.5031837316805838, rel=1e-14)


def test_label_smoothing_optimal_gap():
    # mpmath: ln(0.925 / 0.025) = ln 37 = 3.6109179126442244, ln((0.9 + 0.1/50257)/(0.1/50257)) =
    # 13.022131907894266; SPEC: 3.61 for K = 4 and 13.02 for K = 50,257 at ε = 0.1.
    assert core.label_smoothing_optimal_gap(4, 0.1) == pytest.approx(3.6109179126442244, rel=1e-15)
    assert core.label_smoothing_optimal_gap(50257, 0.1) == pytest.approx(13.022131907894266, rel=1e-14)
    assert core.label_smoothing_optimal_gap(4, 0.0) == math.inf


def test_smoothed_loss_reaches_its_floor_at_the_optimal_gap():
    # hand: at z = (gap, 0, 0, 0) softmax equals y' exactly, so the loss is H(y') = the floor.
    gap = core.label_smoothing_optimal_gap(4, 0.1)
    loss = core.cross_entropy([gap, 0.0, 0.0, 0.0], 0, label_smoothing=0.1)
    assert loss == pytest.approx(core.label_smoothing_floor(4, 0.1), rel=1e-14)


def test_smoothed_target_k4_eps01():
    # hand: y' = 0.9 · onehot + 0.1 / 4.
    np.testing.assert_allclose(core.smoothed_target(0, 4, 0.1), [0.925, 0.025, 0.025, 0.025], rtol=1e-15)
    np.testing.assert_allclose(core.smoothed_target([1, 2], 3).sum(axis=0), [0, 1, 1])


def test_logsumexp_keeps_the_tiny_term():
    # mpmath: ln(1 + e^−40) = 4.248354255291589e−18 (a naive log(sum(exp)) returns 0).
    assert core.logsumexp([0.0, -40.0]) == 4.248354255291589e-18
    assert core.cross_entropy([0.0, -40.0], 0) == 4.248354255291589e-18


def test_hand_derivable_softmax_values():
    # hand: equal logits share evenly; softmax(ln 1, ln 2, ln 3) = (1, 2, 3)/6.
    np.testing.assert_array_equal(core.softmax([0.0, 0.0]), [0.5, 0.5])
    np.testing.assert_allclose(core.softmax(np.log([1.0, 2.0, 3.0])), [1 / 6, 2 / 6, 3 / 6], rtol=1e-15)


def test_two_classes_is_the_logistic_sigmoid():
    # mpmath: 1 / (1 + e^−1) = 0.7310585786300049.
    assert core.softmax([1.0, 0.0])[0] == pytest.approx(0.7310585786300049, rel=1e-15)


def test_temperature_divides_the_logits():
    # hand: softmax([2, 0], T=2) = softmax([1, 0]).
    np.testing.assert_allclose(core.softmax([2.0, 0.0], T=2.0), core.softmax([1.0, 0.0]), rtol=1e-15)


def test_weighted_mean_divides_by_counted_weights():
    # hand: row 1 −ln(1/2) with w=1, row 2 −ln(1/4) with w=3: (ln 2 + 3 ln 4)/(1 + 3) = 7 ln 2 / 4.
    logits = [[0.0, 0.0], [math.log(3.0), 0.0]]
    loss = core.cross_entropy(logits, [0, 1], weight=[1.0, 3.0])
    assert loss == pytest.approx(7 * math.log(2) / 4, rel=1e-15)
    assert core.cross_entropy(logits, [0, 1], weight=[1.0, 3.0], reduction="sum") == pytest.approx(
        7 * math.log(2), rel=1e-15
    )


def test_ignored_targets_leave_sum_and_count():
    # hand: only row 1 counts: ln 2.
    logits = [[0.0, 0.0], [math.log(3.0), 0.0]]
    assert core.cross_entropy(logits, [0, -100]) == pytest.approx(math.log(2), rel=1e-15)
    np.testing.assert_allclose(core.cross_entropy(logits, [0, -100], reduction="none"), [math.log(2), 0])


def test_mean_over_no_counted_target_is_nan_like_pytorch():
    # PyTorch: F.cross_entropy(x, full(-100)) is nan (0/0); we follow it.
    assert np.isnan(core.cross_entropy([[0.0, 1.0]], [-100]))
    assert np.isnan(core.cross_entropy(np.zeros((0, 3)), np.zeros(0, dtype=int)))
    assert core.cross_entropy([[0.0, 1.0]], [-100], reduction="sum") == 0


def test_label_smoothing_two_classes_by_hand():
    # hand: K=2, ε=0.5, y=1: y' = (0.25, 0.75) = softmax(0, ln 3), so the loss is H(y') = 0.5623351446188083.
    loss = core.cross_entropy([0.0, math.log(3.0)], 1, label_smoothing=0.5)
    assert loss == pytest.approx(0.5623351446188083, rel=1e-15)
    assert core.label_smoothing_floor(2, 0.5) == pytest.approx(0.5623351446188083, rel=1e-15)


def test_kl_of_one_hot_is_the_loss():
    # hand: H(y) = 0 for one-hot y, so KL(y‖p) = H(y, p) = −ln p_cat.
    p = core.softmax(Z)
    assert core.kl_divergence([1.0, 0.0, 0.0], p) == pytest.approx(0.41703001627783348, rel=1e-14)
    assert core.entropy([1.0, 0.0, 0.0]) == 0.0


def test_jacobian_at_the_default_logits():
    # hand: J = diag(p) − p pᵀ with p from test_default_probabilities.
    p = np.array([0.6590011388859679, 0.24243297070471392, 0.09856589040931818])
    np.testing.assert_allclose(core.softmax_jacobian(Z), np.diag(p) - np.outer(p, p), rtol=1e-14, atol=1e-17)
