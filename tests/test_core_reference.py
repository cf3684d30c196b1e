"""The same numbers computed two independent ways: `core` against SciPy.

PyTorch is the other oracle: tests/test_core_torch.py (stored answers, every machine) and
tests/test_core_torch_live.py (an installed PyTorch).
"""

import numpy as np
import pytest
import scipy.special
import scipy.stats

import core

RNG = np.random.default_rng(2024)
SHAPES = [(5,), (4, 7), (2, 3, 6)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("T", [1.0, 0.3, 5.0])
def test_softmax_matches_scipy(shape, T):
    z = RNG.standard_normal(shape) * 4
    np.testing.assert_allclose(core.softmax(z, T=T), scipy.special.softmax(z / T, axis=-1), rtol=1e-13)
    # atol: the two round z/T and the shift in a different order; entries near 0 differ by ~1e-14 absolute.
    np.testing.assert_allclose(
        core.log_softmax(z, T=T), scipy.special.log_softmax(z / T, axis=-1), rtol=1e-13, atol=1e-13
    )


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("axis", [0, -1])
def test_logsumexp_matches_scipy(shape, axis):
    z = RNG.standard_normal(shape) * 4
    np.testing.assert_allclose(
        core.logsumexp(z, axis=axis), scipy.special.logsumexp(z, axis=axis), rtol=1e-14
    )
    np.testing.assert_allclose(core.softmax(z, axis=axis), scipy.special.softmax(z, axis=axis), rtol=1e-13)


def test_logsumexp_tiny_term_matches_scipy():
    z = np.array([0.0, -40.0, -45.0])
    assert core.logsumexp(z) == pytest.approx(scipy.special.logsumexp(z), rel=1e-15)


def test_entropy_and_kl_match_scipy():
    p = RNG.dirichlet(np.ones(6), 4)
    q = RNG.dirichlet(np.ones(6), 4)
    p[0, 2] = 0.0
    p[0] /= p[0].sum()
    np.testing.assert_allclose(core.entropy(p), scipy.stats.entropy(p, axis=-1), rtol=1e-13)
    np.testing.assert_allclose(core.entropy(p, base=2), scipy.stats.entropy(p, base=2, axis=-1), rtol=1e-13)
    np.testing.assert_allclose(
        core.kl_divergence(p, q), scipy.special.rel_entr(p, q).sum(axis=-1), rtol=1e-12
    )
