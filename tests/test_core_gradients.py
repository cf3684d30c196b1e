"""Analytic derivatives checked against central finite differences in float64 (step 1e-6, tolerance 1e-6)."""

import numpy as np
import pytest

import core

H = 1e-6


def central_difference(f, z):
    """∂f/∂z by (f(z + h e_j) − f(z − h e_j)) / 2h for every entry z_j; f maps an array to an array."""
    z = np.asarray(z, dtype=np.float64)
    columns = []
    for j in np.ndindex(z.shape):
        step = np.zeros_like(z)
        step[j] = H
        columns.append((np.asarray(f(z + step)) - np.asarray(f(z - step))) / (2 * H))
    return np.stack(columns, axis=-1)


def rng_case(seed, K=4, rows=3):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((rows, K)) * 2
    index = rng.integers(0, K, rows)
    probs = rng.dirichlet(np.ones(K), rows)
    weight = rng.uniform(0.2, 3.0, K)
    return z, index, probs, weight


CASES = [
    pytest.param({}, id="plain"),
    pytest.param({"T": 0.7}, id="T=0.7"),
    pytest.param({"T": 3.0}, id="T=3"),
    pytest.param({"label_smoothing": 0.2}, id="smoothing"),
    pytest.param({"weight": True}, id="weights"),
    pytest.param({"weight": True, "label_smoothing": 0.3, "T": 1.7}, id="weights+smoothing+T"),
]


@pytest.mark.parametrize("kwargs", CASES)
@pytest.mark.parametrize("target_kind", ["index", "probabilities"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grad_logits_matches_finite_differences(kwargs, target_kind, seed):
    z, index, probs, weight = rng_case(seed)
    kw = dict(kwargs)
    if kw.get("weight"):
        kw["weight"] = weight
    target = index if target_kind == "index" else probs
    # Rows are independent, so the gradient of the summed row losses is each row's own gradient.
    numeric = central_difference(lambda v: core.cross_entropy(v, target, reduction="sum", **kw), z)
    analytic = core.grad_logits(z, target, **kw)
    np.testing.assert_allclose(analytic, numeric.reshape(z.shape), atol=1e-6)


def test_grad_logits_of_unbatched_input():
    z = np.array([2.0, 1.0, 0.1])
    numeric = central_difference(lambda v: core.cross_entropy(v, 0), z)
    np.testing.assert_allclose(core.grad_logits(z, 0), numeric, atol=1e-6)


def test_grad_logits_of_ignored_rows_is_zero():
    z, index, _, weight = rng_case(3)
    index[1] = -100
    g = core.grad_logits(z, index, weight=weight, label_smoothing=0.1)
    np.testing.assert_array_equal(g[1], 0.0)
    numeric = central_difference(
        lambda v: core.cross_entropy(v, index, weight=weight, label_smoothing=0.1, reduction="sum"), z
    )
    np.testing.assert_allclose(g, numeric.reshape(z.shape), atol=1e-6)


def test_gradient_of_the_weighted_mean_is_the_rows_gradient_over_the_weight_sum():
    z, index, _, weight = rng_case(4)
    numeric = central_difference(lambda v: core.cross_entropy(v, index, weight=weight), z)
    analytic = core.grad_logits(z, index, weight=weight) / weight[index].sum()
    np.testing.assert_allclose(analytic, numeric.reshape(z.shape), atol=1e-6)


@pytest.mark.parametrize("T", [1.0, 0.5, 4.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_softmax_jacobian_matches_finite_differences(T, seed):
    z = np.random.default_rng(seed).standard_normal(5) * 2
    numeric = central_difference(lambda v: core.softmax(v, T=T), z)
    np.testing.assert_allclose(core.softmax_jacobian(z, T=T), numeric, atol=1e-6)


def test_softmax_jacobian_of_a_batch():
    z = np.random.default_rng(5).standard_normal((2, 3, 4))
    J = core.softmax_jacobian(z, T=2.0)
    assert J.shape == (2, 3, 4, 4)
    for i in np.ndindex(z.shape[:-1]):
        np.testing.assert_allclose(J[i], core.softmax_jacobian(z[i], T=2.0), rtol=1e-15)


def test_jacobian_chained_with_dl_dp_is_the_gradient():
    # ∂L/∂z = Jᵀ ∂L/∂p with ∂L/∂p = −y/p: the chain rule collapses to (p − y)/T.
    z, T = np.array([2.0, 1.0, 0.1]), 1.5
    p = core.softmax(z, T=T)
    dl_dp = -np.eye(3)[0] / p
    np.testing.assert_allclose(
        core.softmax_jacobian(z, T=T).T @ dl_dp, core.grad_logits(z, 0, T=T), rtol=1e-14
    )
