"""core/sampling.py: the generator against its C reference, the Gumbel-max trick against softmax."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

import core

# Golden words: tests/reference/xoshiro128ss.c (the reference xoshiro128** of prng.di.unimi.it, seeded by
# SplitMix32), compiled with Debian's gcc 12 (`gcc -O2 xoshiro128ss.c && ./a.out SEED 5`).
C_REFERENCE = {
    0: [3809008728, 1133695204, 53579671, 2891528803, 139681546],
    1: [2442144158, 3238099751, 3819917871, 2104621829, 2021136066],
    4294967295: [835879718, 1921286648, 2356205009, 1885780724, 980451116],
    20261201: [3628647969, 474189937, 2299865462, 1436724460, 2323485260],
}


@pytest.mark.parametrize("seed", C_REFERENCE)
def test_the_words_are_the_c_reference(seed):
    assert core.uniform_words(5, seed).tolist() == C_REFERENCE[seed]


def test_the_noise_is_standard_gumbel():
    g = core.gumbel_noise(100_000, 2, 3).ravel()
    assert np.isfinite(g).all()
    assert g.mean() == pytest.approx(np.euler_gamma, abs=0.01)  # E[g] = γ
    assert g.var() == pytest.approx(math.pi**2 / 6, abs=0.03)  # Var[g] = π²/6


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=2, max_size=10), st.sampled_from([0.3, 1.0, 4.0]),
       st.integers(0, 2**32 - 1))
def test_each_class_count_is_a_plausible_binomial_draw(z, T, seed):
    """Each class's count of n draws is Binomial(n, p_k): its tail beyond the count seen is above 1e-7. A bound
    of four normal sigmas fails for rare classes (p = 8.6e-6, n = 5000: two draws are in a tail of 9e-4,
    which Hypothesis found), where the binomial's own tail is the right measure."""
    n = 5000
    counts = core.gumbel_max_counts(z, core.gumbel_noise(n, len(z), seed), T)
    p = core.softmax(z, T=T)
    assert counts.sum() == n
    # P(X >= c) and P(X <= c): the tail on the count's side of the mean.
    upper, lower = binom.sf(counts - 1, n, p), binom.cdf(counts, n, p)
    assert (np.minimum(upper, lower) > 1e-7).all(), (counts / n, p)


def test_adding_a_constant_changes_no_draw_and_t_scales_the_noise():
    noise = core.gumbel_noise(10_000, 3, 1)
    z = np.array([2.0, 1.0, 0.1])
    base = core.gumbel_max_counts(z, noise)
    assert core.gumbel_max_counts(z + 1.0, noise).tolist() == base.tolist() == [6660, 2358, 982]
    # argmax(z/T + g) = argmax(z + T·g): the same draws at T = 0.5 either way.
    half = core.gumbel_max_counts(z, noise, T=0.5)
    assert half.tolist() == np.bincount(np.argmax(z + 0.5 * noise, axis=1), minlength=3).tolist()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: core.uniform_words(3, -1), "seed"), (lambda: core.uniform_words(3, 2**32), "seed"),
    (lambda: core.gumbel_noise(0, 3, 0), "n must"), (lambda: core.gumbel_noise(100_001, 3, 0), "n must"),
    (lambda: core.gumbel_noise(5, 3, True), "seed"),
    (lambda: core.gumbel_max_counts([1.0, 2.0], np.zeros((4, 3))), "shape"),
])
def test_bad_arguments_are_refused_with_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()
