"""The same numbers computed two independent ways: `core` against SciPy, and against PyTorch as an oracle.

PyTorch is not a project dependency: its tests are skipped when it is not installed. PyTorch puts the
class axis at position 1; `core` puts it last, so arrays are moved before the comparison.
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


# ---- PyTorch as an oracle -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def torch_cross_entropy(torch, z, y, T=1.0, **kw):
    F = torch.nn.functional
    zt = torch.from_numpy(np.moveaxis(z, -1, 1) if z.ndim > 1 else z)
    yt = torch.from_numpy(np.moveaxis(y, -1, 1) if (y.dtype.kind == "f" and y.ndim > 1) else y)
    if kw.get("weight") is not None:
        kw["weight"] = torch.from_numpy(kw["weight"])
    return zt, yt, F.cross_entropy(zt / T, yt, **kw).numpy()


OPTIONS = [
    {},
    {"T": 0.5},
    {"T": 2.5, "label_smoothing": 0.2},
    {"weight": True},
    {"weight": True, "label_smoothing": 0.15},
    {"weight": True, "label_smoothing": 0.3, "T": 1.7},
]


@pytest.mark.parametrize("shape", [(5,), (6, 5), (3, 4, 5)])
@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("target_kind", ["index", "index with ignored", "probabilities"])
def test_cross_entropy_and_gradient_match_pytorch(torch, shape, options, reduction, target_kind):
    rng = np.random.default_rng(abs(hash((shape, reduction, target_kind, str(options)))) % 2**32)
    K = shape[-1]
    z = rng.standard_normal(shape) * 3
    kw = dict(options)
    T = kw.pop("T", 1.0)
    if kw.get("weight"):
        kw["weight"] = rng.uniform(0.1, 3.0, K)
    if target_kind == "probabilities":
        y = rng.dirichlet(np.ones(K), shape[:-1]) if len(shape) > 1 else rng.dirichlet(np.ones(K))
    else:
        y = np.asarray(rng.integers(0, K, shape[:-1]))
        if target_kind == "index with ignored":
            y = np.where(rng.random(shape[:-1]) < 0.3, -100, y)
    ours = core.cross_entropy(z, y, T=T, reduction=reduction, **kw)
    zt, yt, theirs = torch_cross_entropy(torch, z, y, T=T, reduction=reduction, **kw)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14, equal_nan=True)

    zt.requires_grad_(True)
    weight = None if kw.get("weight") is None else torch.from_numpy(kw["weight"])
    per_row = torch.nn.functional.cross_entropy(
        zt / T, yt, weight=weight, reduction="none", label_smoothing=kw.get("label_smoothing", 0.0)
    )
    per_row.sum().backward()
    grad = zt.grad.numpy()
    grad = np.moveaxis(grad, 1, -1) if grad.ndim > 1 else grad
    np.testing.assert_allclose(core.grad_logits(z, y, T=T, **kw), grad, rtol=1e-10, atol=1e-14)


def test_mean_with_every_target_ignored_is_nan_in_both(torch):
    z = np.zeros((2, 3))
    y = np.full(2, -100)
    _, _, theirs = torch_cross_entropy(torch, z, y)
    assert np.isnan(theirs) and np.isnan(core.cross_entropy(z, y))


def test_unbatched_input_with_scalar_target(torch):
    z = np.array([2.0, 1.0, 0.1])
    for reduction in ("mean", "none"):
        _, _, theirs = torch_cross_entropy(torch, z, np.asarray(0), reduction=reduction)
        ours = core.cross_entropy(z, 0, reduction=reduction)
        assert np.shape(ours) == np.shape(theirs) == ()
        np.testing.assert_allclose(ours, theirs, rtol=1e-15)


def test_float32_large_vocabulary_matches_pytorch(torch):
    rng = np.random.default_rng(7)
    z = (rng.standard_normal((8, 50257)) * 3).astype(np.float32)
    y = rng.integers(0, 50257, 8)
    _, _, theirs = torch_cross_entropy(torch, z, y)
    ours = core.cross_entropy(z, y)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    np.testing.assert_allclose(
        core.softmax(z), torch.softmax(torch.from_numpy(z), -1).numpy(), rtol=1e-5, atol=1e-12
    )


def test_softmax_jacobian_matches_autograd(torch):
    z = np.random.default_rng(3).standard_normal(5)
    J = torch.autograd.functional.jacobian(lambda v: torch.softmax(v / 0.7, -1), torch.from_numpy(z)).numpy()
    np.testing.assert_allclose(core.softmax_jacobian(z, T=0.7), J, rtol=1e-12, atol=1e-15)
