"""softmax, log_softmax and logsumexp along a class axis, stable for any finite logits and any T > 0."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _shift, _validate


def softmax(z: ArrayLike, T: float = 1.0, axis: int = -1) -> NDArray[np.floating]:
    """Probabilities from logits at temperature T.

    softmax(z; T)_k = exp(z_k/T) / Σ_j exp(z_j/T) = exp(u_k) / Σ_j exp(u_j),  u = (z − max z)/T.

    Stable: every u ≤ 0 with the maximum exactly 0, so exp cannot overflow and the sum is ≥ 1 (logits of
    710 or 1e4, where e^z overflows a double, give the exact answer); −inf logits get probability 0.
    T → 0 tends to argmax with ties split evenly, T → ∞ to uniform. Sums are accumulated in float64.

    Reference: Goodfellow, Bengio & Courville, *Deep Learning* (2016), §4.1 and §6.2.2.3;
    `scipy.special.softmax`; `torch.softmax`.

    >>> softmax([2.0, 1.0, 0.1]).round(3)
    array([0.659, 0.242, 0.099])
    >>> softmax([1.0, 1.0, 0.0], T=1e-3).round(3)
    array([0.5, 0.5, 0. ])
    """
    x = _validate.logits(z, axis)
    t = _validate.temperature(T)
    r, lead = _shift.rows(x, t, axis)
    out = np.empty_like(r)
    with np.errstate(over="ignore"):
        for b in _shift.blocks(r):
            zb, e = r[b], out[b]
            _shift.shift(zb, zb.max(axis=1, keepdims=True), t, e)
            np.exp(e, out=e)
            e /= _shift.row_sums(e).astype(e.dtype, copy=False)[:, None]
    return _shift.restore(out, (*lead, r.shape[1]), x.dtype, axis)


def log_softmax(z: ArrayLike, T: float = 1.0, axis: int = -1) -> NDArray[np.floating]:
    """Log-probabilities from logits at temperature T.

    log_softmax(z; T)_k = z_k/T − logsumexp(z/T) = u_k − log1p(Σ_{j ≠ argmax} exp(u_j)),  u = (z − max z)/T.

    Stable: never takes the log of a rounded probability, so log p stays exact where p underflows to 0
    (log_softmax([0, −1000]) is [0, −1000], not [0, −inf]), and the largest entry is −log1p(tiny), not 0.

    Reference: Goodfellow, Bengio & Courville, *Deep Learning* (2016), §6.2.2.3; `scipy.special.log_softmax`.

    >>> log_softmax([2.0, 1.0, 0.1]).round(3)
    array([-0.417, -1.417, -2.317])
    >>> log_softmax([0.0, -1000.0])
    array([    0., -1000.])
    """
    x = _validate.logits(z, axis)
    t = _validate.temperature(T)
    r, lead = _shift.rows(x, t, axis)
    out = np.empty_like(r)
    scratch = _shift.scratch(r)
    with np.errstate(over="ignore"):
        for b in _shift.blocks(r):
            u = out[b]
            idx, _ = _shift.shift_argmax(r[b], t, u)
            e = scratch[: len(u)]
            np.exp(u, out=e)
            u -= _shift.log1p_others(e, idx).astype(u.dtype, copy=False)[:, None]
    return _shift.restore(out, (*lead, r.shape[1]), x.dtype, axis)


def logsumexp(z: ArrayLike, axis: int = -1) -> NDArray[np.floating]:
    """The log of the sum of exponentials, a smooth maximum.

    logsumexp(z) = log Σ_k exp(z_k) = max z + log1p(Σ_{k ≠ argmax} exp(z_k − max z)),
    with max z ≤ logsumexp(z) ≤ max z + log K.

    Stable and accurate: shifting by max z keeps exp from overflowing (logsumexp([1e4, 1e4]) = 1e4 + log 2),
    and log1p keeps the others' tiny share where the maximum dominates: log(e^0 + e^-40) = 4.248e-18, not 0.

    Reference: `scipy.special.logsumexp`; Blanchard, Higham & Higham, "Accurately computing the log-sum-exp
    and softmax functions", IMA J. Numer. Anal. 41 (2021).

    >>> round(float(logsumexp([2.0, 1.0, 0.1])), 3)
    2.417
    >>> float(logsumexp([0.0, -40.0]))
    4.248354255291589e-18
    """
    x = _validate.logits(z, axis)
    r, lead = _shift.rows(x, 1.0, axis)
    out = np.empty(len(r))
    scratch = _shift.scratch(r)
    with np.errstate(over="ignore"):
        for b in _shift.blocks(r):
            zb = r[b]
            e = scratch[: len(zb)]
            idx, m = _shift.shift_argmax(zb, 1.0, e)
            np.exp(e, out=e)
            out[b] = m + _shift.log1p_others(e, idx)
    return _shift.restore(out, lead, x.dtype)
