"""The Jacobian of softmax: how every probability moves when one logit moves."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate
from core.softmax import softmax


def softmax_jacobian(z: ArrayLike, T: float = 1.0) -> NDArray[np.floating]:
    """The Jacobian ∂p_i/∂z_j of p = softmax(z/T), for a batch of logits (..., K): shape (..., K, K).

    J = (diag(p) − p pᵀ)/T, i.e. ∂p_i/∂z_j = p_i(δ_ij − p_j)/T; symmetric, rows summing to 0. Chained with
    ∂L/∂p = −y/p it collapses to the gradient (p − y)/T.

    Accurate: the diagonal p_i(1 − p_i) is computed as p_i·Σ_{j ≠ i} p_j (minus the row's off-diagonal
    sum), so it keeps its tiny value where p_i rounds to 1, and each row sums to 0.

    Reference: Goodfellow, Bengio & Courville, *Deep Learning* (2016), §6.2.2.3; JAX `jax.nn.softmax`
    custom JVP.

    >>> softmax_jacobian([2.0, 1.0, 0.1]).round(3)
    array([[ 0.225, -0.16 , -0.065],
           [-0.16 ,  0.184, -0.024],
           [-0.065, -0.024,  0.089]])
    """
    t = _validate.temperature(T)
    p = softmax(z, t)
    # float64 so that dividing by an extreme T cannot make 0/0 in float32 (T = 1e-300 rounds to 0 there).
    q = p.astype(np.float64)
    J = q[..., :, None] * -q[..., None, :]
    d = np.arange(q.shape[-1])
    J[..., d, d] = 0
    J[..., d, d] = -J.sum(axis=-1)
    with np.errstate(over="ignore"):  # an entry whose true value exceeds the float range (T ≈ 1e-310) is ±inf
        J /= t
        return J.astype(p.dtype)
