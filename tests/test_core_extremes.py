"""Extreme inputs, each a named test: every one must give the exact (correctly rounded) answer, no warning."""

import math

import numpy as np
import pytest

import core

pytestmark = pytest.mark.filterwarnings("error")  # an overflow or invalid-value warning is a failure

SIGMOID_1 = 0.7310585786300049  # mpmath: 1 / (1 + e^−1)


def test_logit_710_where_exp_overflows_a_double():
    np.testing.assert_allclose(core.softmax([710.0, 709.0]), [SIGMOID_1, 1 - SIGMOID_1], rtol=1e-15)
    assert core.logsumexp([710.0, 710.0]) == pytest.approx(710 + math.log(2), rel=1e-16)


def test_logit_1e4_keeps_the_exact_difference():
    np.testing.assert_allclose(core.softmax([1e4, 1e4 - 1]), [SIGMOID_1, 1 - SIGMOID_1], rtol=1e-15)
    # mpmath: 1e4 + ln 2 = 10000.693147180560.
    assert core.logsumexp([1e4, 1e4]) == 10000.693147180560
    assert core.cross_entropy([1e4, 1e4 - 1], 1) == pytest.approx(1 + math.log1p(math.exp(-1)), rel=1e-15)


def test_logit_minus_1e308():
    np.testing.assert_array_equal(core.softmax([0.0, -1e308]), [1.0, 0.0])
    np.testing.assert_array_equal(core.log_softmax([0.0, -1e308]), [0.0, -1e308])
    assert core.cross_entropy([0.0, -1e308], 1) == 1e308
    np.testing.assert_array_equal(core.grad_logits([0.0, -1e308], 1), [1.0, -1.0])


def test_1e308_mixed_with_minus_1e308():
    # The gap 2e308 overflows a double; the probability it stands for, e^-2e308, is 0 all the same.
    np.testing.assert_array_equal(core.softmax([1e308, -1e308]), [1.0, 0.0])
    np.testing.assert_array_equal(core.log_softmax([1e308, -1e308]), [0.0, -np.inf])  # −2e308 rounds to −inf
    assert core.logsumexp([1e308, -1e308]) == 1e308


def test_1e308_mixed_with_minus_1e308_at_huge_temperature():
    # hand: at T = 1e308 the logits are (1, −1): the divide-before-shift branch keeps the gap finite.
    expected = core.softmax([1.0, -1.0])
    np.testing.assert_allclose(core.softmax([1e308, -1e308], T=1e308), expected, rtol=1e-15)
    np.testing.assert_allclose(core.log_softmax([1e308, -1e308], T=1e308), np.log(expected), rtol=1e-14)
    assert core.cross_entropy([1e308, -1e308], 1, T=1e308) == pytest.approx(-math.log(expected[1]), rel=1e-15)


def test_neginf_entries_have_probability_zero():
    np.testing.assert_allclose(core.softmax([0.0, -np.inf, 0.0]), [0.5, 0.0, 0.5], rtol=1e-15)
    np.testing.assert_array_equal(core.log_softmax([0.0, -np.inf]), [0.0, -np.inf])
    assert core.logsumexp([0.0, -np.inf]) == 0.0
    assert core.cross_entropy([0.0, -np.inf], 1) == np.inf
    np.testing.assert_array_equal(core.grad_logits([0.0, -np.inf], 1), [1.0, -1.0])
    np.testing.assert_array_equal(core.softmax_jacobian([0.0, -np.inf]), np.zeros((2, 2)))


def test_neginf_entries_with_zero_target_mass_cost_nothing():
    # 0·log 0 = 0: a smoothed-away or zero-weight class with probability 0 adds nothing (PyTorch: nan).
    assert core.cross_entropy([0.0, -np.inf], [1.0, 0.0]) == 0.0
    assert core.cross_entropy([0.0, -np.inf], 0, weight=[1.0, 0.0], label_smoothing=0.1) == 0.0
    assert core.cross_entropy([0.0, -np.inf], 0, label_smoothing=0.1) == np.inf


def test_temperature_1e_minus_300_is_argmax_with_ties_split():
    np.testing.assert_array_equal(core.softmax([1.0, 2.0], T=1e-300), [0.0, 1.0])
    np.testing.assert_array_equal(core.softmax([2.0, 1.0, 2.0], T=1e-300), [0.5, 0.0, 0.5])
    assert core.cross_entropy([1.0, 2.0], 1, T=1e-300) == 0.0
    assert core.cross_entropy([1.0, 2.0], 0, T=1e-300) == pytest.approx(1e300, rel=1e-15)
    np.testing.assert_allclose(core.grad_logits([1.0, 2.0], 0, T=1e-300), [-1e300, 1e300], rtol=1e-15)


def test_temperature_1e300_is_uniform():
    np.testing.assert_array_equal(core.softmax([1.0, 2.0, -5.0], T=1e300), np.full(3, 1 / 3))
    assert core.cross_entropy([1.0, 2.0, -5.0], 2, T=1e300) == pytest.approx(math.log(3), rel=1e-15)
    # hand: (1e308, −1e308)/1e300 is a gap of 2e8: e^-2e8 is 0, not uniform.
    np.testing.assert_array_equal(core.softmax([1e308, -1e308], T=1e300), [1.0, 0.0])


def test_subnormal_temperature():
    np.testing.assert_array_equal(core.softmax([0.0, 1e-310, 1.0], T=5e-324), [0.0, 0.0, 1.0])


@pytest.mark.parametrize(
    "fn",
    [
        core.softmax,
        core.log_softmax,
        core.logsumexp,
        core.softmax_jacobian,
        lambda z: core.entropy(core.softmax(z)),
        lambda z: core.cross_entropy(z, np.array([0, 1])),
        lambda z: core.cross_entropy(z, np.array([0, 1]), reduction="none", label_smoothing=0.1),
        lambda z: core.cross_entropy(z, core.softmax(z)),
        lambda z: core.grad_logits(z, np.array([0, 1])),
        lambda z: core.kl_divergence(core.softmax(z), core.softmax(z[::-1])),
    ],
)
def test_float32_stays_float32(fn):
    z = np.array([[0.5, 0.25, 0.125], [1.0, 2.0, 3.0]], dtype=np.float32)
    assert np.asarray(fn(z)).dtype == np.float32


@pytest.mark.parametrize("T", [1e-300, 1e-40, 1e39, 1e300])
def test_float32_with_temperature_outside_float32_range(T):
    # T itself is not a normal float32 (it would round to 0 or inf): the work is done in float64.
    z = np.array([3e38, -3e38, 0.0], dtype=np.float32)
    p = core.softmax(z, T=T)
    assert p.dtype == np.float32
    np.testing.assert_allclose(p, core.softmax(z.astype(np.float64), T=T), rtol=1e-6)
    assert np.isfinite(core.cross_entropy(z, 0, T=T))


def test_lists_and_ints_become_float64():
    assert core.softmax([1, 2, 3]).dtype == np.float64
    assert core.softmax(np.array([1, 2], dtype=np.int8)).dtype == np.float64
    assert core.softmax(np.array([1, 2], dtype=np.float16)).dtype == np.float64


def test_a_confident_correct_gradient_is_tiny_not_zero():
    # hand: 1 − p_0 = e^-40/(1 + e^-40) = 4.248354255291589e-18 (mpmath), and the row sums to 0 exactly.
    g = core.grad_logits([0.0, -40.0], 0)
    np.testing.assert_allclose(g, [-4.248354255291589e-18, 4.248354255291589e-18], rtol=1e-15)
    assert g.sum() == 0.0


def test_large_vocabulary_batch_matches_float64():
    rng = np.random.default_rng(0)
    z = (rng.standard_normal((3, 50257)) * 3).astype(np.float32)
    t = rng.integers(0, 50257, 3)
    z64 = z.astype(np.float64)
    np.testing.assert_allclose(core.softmax(z), core.softmax(z64), rtol=2e-6, atol=1e-12)
    np.testing.assert_allclose(core.logsumexp(z), core.logsumexp(z64), rtol=1e-6)
    np.testing.assert_allclose(core.cross_entropy(z, t), core.cross_entropy(z64, t), rtol=1e-6)


def test_float32_results_beyond_float32_range_round_to_inf_quietly():
    # Regression: T = 1e-300 is worked in float64; casting a loss of 1e300 back to float32 warned.
    z = np.array([1.0, 2.0], dtype=np.float32)
    np.testing.assert_array_equal(core.log_softmax(z, T=1e-300), np.array([-np.inf, 0.0], dtype=np.float32))
    assert core.cross_entropy(z, 0, T=1e-300) == np.float32(np.inf)
    assert core.cross_entropy(z, np.array(0), T=1e-300, reduction="none") == np.float32(np.inf)
    np.testing.assert_array_equal(core.grad_logits(z, 0, T=1e-300), np.array([-np.inf, np.inf], np.float32))


# ---- Regressions from odd and hostile input: finite input never gives NaN, and no warning escapes. ----


def test_weights_of_1e308_do_not_overflow_the_mean():
    # Regression: Σ w = 2e308 overflowed to inf and the weighted mean became inf/inf = nan.
    # hand: equal weights cancel, so the weighted mean is the plain mean of the two rows' losses.
    z, y = [[2.0, 1.0, 0.1], [0.0, 1.0, 2.0]], [0, 1]
    plain = core.cross_entropy(z, y)
    assert core.cross_entropy(z, y, weight=[1e308, 1e308, 1.0]) == pytest.approx(plain, rel=1e-15)
    assert core.cross_entropy(z, y, weight=[1e308, 1e308, 1e308], label_smoothing=0.1) == pytest.approx(
        core.cross_entropy(z, y, label_smoothing=0.1), rel=1e-15)
    # 'sum' and 'none' scale with the weights: 1e308 · 0.417 is representable, 1e308 · (0.417 + 1.408) not.
    assert core.cross_entropy(z[0], 0, weight=[1e308, 1.0, 1.0], reduction="sum") == pytest.approx(
        1e308 * core.cross_entropy(z[0], 0), rel=1e-15)
    assert core.cross_entropy(z, y, weight=[1e308, 1e308, 1.0], reduction="sum") == np.inf
    # Found by tests/test_core_total.py: divided by the largest (4e23), 1e-300 underflowed to 0, so the mean's
    # denominator was 0. hand: one counted row, so the weighted mean is that row's loss whatever its weight.
    assert core.cross_entropy([0.0, 0.0], 0, weight=[1e-300, 4.04804507e23]) == pytest.approx(math.log(2), rel=1e-15)


def test_huge_probability_target_gives_the_overflowing_inf_not_nan():
    # Regression: grad_logits([2, 1, .1], [1e308, 1e308, 0], T=1e-5) gave [inf, nan, nan].
    # hand: p = (1, 0, 0) at T = 1e-5, Σc = 2e308, so ∂L/∂z = (p·2e308 − c)/T = (1e313, −1e313, 0) → (inf, −inf, 0).
    np.testing.assert_array_equal(core.grad_logits([2.0, 1.0, 0.1], [1e308, 1e308, 0.0], T=1e-5),
                                  [np.inf, -np.inf, 0.0])
    assert core.cross_entropy([[2.0, 1.0, 0.1]], [[1e308, 1e308, 0.0]], T=1e-5) == np.inf
    # hand: with masses (1e308, 1e308, 0) the loss is 1e308·(L_0 + L_1), L_k = −log p_k at T = 1.
    L = -core.log_softmax([2.0, 1.0, 0.1])
    assert core.cross_entropy([2.0, 1.0, 0.1], [1e308, 0.0, 0.0]) == pytest.approx(1e308 * L[0], rel=1e-15)


def test_zero_weight_or_full_smoothing_on_a_minus_inf_logit_costs_nothing():
    # 0·log 0 = 0: these were nan (0·inf), also from finite logits once T made the gap overflow.
    # (A mean over these rows would divide by a counted weight of 0: nan, as PyTorch; 'sum' adds them up.)
    assert core.cross_entropy([0.0, -np.inf], 1, weight=[1.0, 0.0], reduction="sum") == 0.0
    assert core.cross_entropy([0.0, -1e308], 1, T=1e-300, weight=[1.0, 0.0], reduction="sum") == 0.0
    # ε = 1: the one-hot part weighs 0 even where its −log p is inf; ε/K = 1/2 still lands on the −inf class.
    assert core.cross_entropy([0.0, -np.inf], 1, label_smoothing=1.0) == np.inf
    assert core.cross_entropy([0.0, -1e308], 1, T=1e-300, label_smoothing=1.0) == np.inf
    assert core.cross_entropy([0.0, -1e308], 0, T=1e-300, label_smoothing=1.0) == np.inf


def test_dividing_by_a_tiny_temperature_overflows_quietly():
    # Regression: the division by T sat outside errstate, so these warned about overflow.
    # hand: (p − y)/T with p = (1, 0, 0) and y = dog: (1, −1, 0)/1e-310 = (inf, −inf, 0).
    np.testing.assert_array_equal(core.grad_logits([2.0, 1.0, 0.1], 1, T=1e-310), [np.inf, -np.inf, 0.0])
    # hand: at T = 5e-324 p is one-hot, so every entry p_i(δ_ij − p_j) is exactly 0.
    np.testing.assert_array_equal(core.softmax_jacobian([2.0, 1.0, 0.1], T=5e-324), np.zeros((3, 3)))
    np.testing.assert_array_equal(core.softmax_jacobian([2.0, 2.0], T=1e-310), [[np.inf, -np.inf], [-np.inf, np.inf]])


def test_perplexity_beyond_the_double_range_is_inf_quietly():
    assert core.perplexity(1e5) == np.inf
    assert core.perplexity(709.0) == pytest.approx(math.exp(709.0), rel=1e-15)


def test_label_smoothing_floor_for_any_vocabulary_size():
    # Regression: the floor built y' (7.3 TiB for K = 10^12). SPEC: 0.503 bits = 0.349 nats for K = 4, ε = 0.1.
    assert round(core.label_smoothing_floor(4, 0.1, base=2), 3) == 0.503
    assert core.label_smoothing_floor(4, 0.1) == pytest.approx(float(core.entropy(core.smoothed_target(0, 4, 0.1))),
                                                               rel=1e-15)
    # hand: ε/K → 0 as K → ∞, so H(y') → −(1 − ε)log(1 − ε) − ε log(ε/K) = 0.0948… + 0.1·ln(10^13) = 3.0882
    assert core.label_smoothing_floor(10**12, 0.1) == pytest.approx(
        -0.9 * math.log(0.9) - 0.1 * math.log(0.1 / 10**12), rel=1e-9)
    assert core.label_smoothing_floor(2, 1.0) == pytest.approx(math.log(2), rel=1e-15)  # y' uniform


def test_smoothing_floor_and_gap_at_the_smallest_epsilon():
    # Found by tests/test_core_total.py: ε = 5e-324 made log(ε/K) a math domain error and the gap inf.
    # hand: H(y') ≈ ε(K−1)/K · (1 − log(ε/K)) → 0 (below 1e-320); gap = log(K(1 − ε)/ε) = log 2 + 744.44 = 745.13.
    assert 0 <= core.label_smoothing_floor(2, 5e-324) < 1e-320
    assert core.label_smoothing_optimal_gap(2, 5e-324) == pytest.approx(math.log(2) - math.log(5e-324), rel=1e-15)
    assert core.label_smoothing_optimal_gap(4, 0.1) == pytest.approx(math.log(37.0), rel=1e-15)  # SPEC: 3.61


def test_unit_conversions_at_the_end_of_the_float_range():
    # Found by tests/test_core_total.py: 1.25e308 nats is 1.8e308 bits, past the largest double.
    assert core.nats_to_bits(1.25e308) == np.inf
    assert core.bits_to_nats(1e308) == pytest.approx(1e308 * math.log(2), rel=1e-15)
