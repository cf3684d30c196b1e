"""Cross-entropy loss with PyTorch's semantics, and its exact gradient with respect to the logits."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _shift, _validate
from core.softmax import softmax

Reduction = Literal["mean", "sum", "none"]


def cross_entropy(
    logits: ArrayLike,
    target: ArrayLike,
    *,
    T: float = 1.0,
    weight: ArrayLike | None = None,
    ignore_index: int = -100,
    reduction: Reduction = "mean",
    label_smoothing: float = 0.0,
) -> NDArray[np.floating] | np.floating:
    """Cross-entropy of logits (class axis last) against class indices or class probabilities, in nats.

    With p = softmax(z/T), smoothed target y' = (1 − ε)·y + ε/K (y one-hot for an index target) and class
    weights w, each row's loss is  L = −Σ_k w_k y'_k log p_k;  for an index target y and ε = 0 that is
    −w_y log p_y = w_y (logsumexp(z/T) − z_y/T). Exactly ``torch.nn.functional.cross_entropy(z / T, ...)``:

    - index targets (integers, shape ``logits.shape[:-1]``): rows whose target equals `ignore_index` give 0
      and leave the mean's denominator; 'mean' divides by Σ w_y over the counted rows (their count
      without weights). Smoothing with weights adds (ε/K)·Σ_k w_k (−log p_k), as PyTorch does.
    - probability targets (floats, the logits' shape; rows need not sum to 1): `ignore_index` does not
      apply and 'mean' divides by the number of rows N, weighted or not.
    - 'mean' over zero counted weight (every target ignored, an empty batch) is nan, as in PyTorch.
    - Total on finite input: weights and target masses up to 1e308 work (a loss whose true value exceeds
      the float range is inf); non-zero weights spanning more than the float range (1e-300 next to
      1e308) are refused with a ValueError rather than losing their digits.
    - One deliberate difference: a target or weight of 0 on a class whose logit is −inf contributes
      0·log 0 = 0, where PyTorch returns nan.

    Stable: computed as logsumexp − z_y without forming log p; see `logsumexp` and `softmax`.

    Reference: PyTorch documentation of ``torch.nn.CrossEntropyLoss``; Goodfellow, Bengio & Courville,
    *Deep Learning* (2016), §5.5 and §6.2.2.3; Szegedy et al., "Rethinking the Inception Architecture",
    CVPR 2016 (label smoothing).

    >>> round(float(cross_entropy([2.0, 1.0, 0.1], 0)), 3)
    0.417
    >>> cross_entropy([[2.0, 1.0, 0.1], [0.0, 0.0, 0.0]], [0, -100], reduction="none").round(3)
    array([0.417, 0.   ])
    """
    x = _validate.logits(logits)
    t = _validate.temperature(T)
    eps = _validate.fraction(label_smoothing, "label_smoothing")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")
    K = x.shape[-1]
    w, w_scale = _weights(weight, K)
    index, y = _targets(target, x, ignore_index)
    r, lead = _shift.rows(x, t)
    if index is not None:
        valid = (index != ignore_index).reshape(-1)
        rows_loss, denominator = _index_loss(r, t, np.where(valid, index.reshape(-1), 0), valid, w, eps)
        scales = (w_scale,)
    else:
        y_rows, y_scale = _row_scaled(y.reshape(r.shape))
        rows_loss, denominator = _probability_loss(r, t, y_rows, y_scale, w, eps), len(r)
        scales = (w_scale, y_scale)
    with np.errstate(over="ignore"):  # a loss whose true value exceeds the float range is inf
        if reduction == "none":
            return _scaled(rows_loss, *scales).reshape(lead).astype(x.dtype)
        if reduction == "sum":
            return x.dtype.type(_scaled(rows_loss, *scales).sum())
        if not denominator:
            return x.dtype.type(np.nan)
        # Each row is divided before the sum, so that a representable mean cannot overflow on the way. For
        # index targets the denominator is Σ w_y over the same scaled weights: their common scale cancels.
        rows_loss = rows_loss / denominator
        return x.dtype.type((rows_loss if index is not None else _scaled(rows_loss, *scales)).sum())


def grad_logits(
    logits: ArrayLike,
    target: ArrayLike,
    *,
    T: float = 1.0,
    weight: ArrayLike | None = None,
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> NDArray[np.floating]:
    """Gradient of each row's cross-entropy (reduction 'none') with respect to that row's logits.

    With c_k = w_k y'_k (see `cross_entropy`) the row loss is −Σ_k c_k log p_k, p = softmax(z/T), and
    ∂L/∂z = (p·Σ_k c_k − c)/T, which is the familiar (p − y')/T without weights. Rows with
    target == ignore_index get 0. The result has the logits' shape.

    Accurate: for index targets the target entry is −Σ_{k ≠ y} p_k rather than p_y − 1, so a confident,
    correct prediction gets its tiny exact push instead of 0, and the row sums to 0 (without weights).

    Reference: Goodfellow, Bengio & Courville, *Deep Learning* (2016), §6.2.2.3; Bishop, *Pattern
    Recognition and Machine Learning* (2006), §4.3.4.

    >>> grad_logits([2.0, 1.0, 0.1], 0).round(3)
    array([-0.341,  0.242,  0.099])
    """
    x = _validate.logits(logits)
    t = _validate.temperature(T)
    eps = _validate.fraction(label_smoothing, "label_smoothing")
    K = x.shape[-1]
    w, w_scale = _weights(weight, K)
    index, y = _targets(target, x, ignore_index)
    # float64 so that dividing by an extreme T cannot make 0/0 in float32 (T = 1e-300 rounds to 0 there).
    p = softmax(x, t).reshape(-1, K).astype(np.float64, copy=False)
    if index is not None:
        valid = (index != ignore_index).reshape(-1)
        ti = np.where(valid, index.reshape(-1), 0)
        rows = np.arange(len(p))
        g = p.copy()
        g[rows, ti] = 0
        g[rows, ti] = -g.sum(axis=1)  # p_y − 1 as −Σ_{k≠y} p_k: exact even where p_y rounds to 1
        g *= (1 - eps) * (1.0 if w is None else w[ti][:, None])
        if eps:
            a = (eps / K) * (np.ones(K) if w is None else w)
            g += p * (eps if w is None else a.sum()) - a  # Σ_k ε/K is ε exactly, not a rounded sum
        g[~valid] = 0
        scales = (w_scale,)
    else:
        y_rows, y_scale = _row_scaled(y.reshape(p.shape))
        c = _coefficients(y_rows, y_scale, w, eps)
        g = p * c.sum(axis=1, keepdims=True) - c
        scales = (w_scale, y_scale[:, None])
    with np.errstate(over="ignore"):  # a gradient whose true value exceeds the float range is ±inf
        g = _scaled(g, *scales) / t
        return g.reshape(x.shape).astype(x.dtype)


def _weights(weight: ArrayLike | None, K: int) -> tuple[NDArray[np.float64] | None, float]:
    """Class weights ready to sum, and the power of two they were divided by (1 unless they are huge).

    Weights above 2^960 are divided by a power of two (exact) so that sums over classes and rows cannot
    overflow; a non-zero weight that would then fall below the smallest normal float (losing its digits,
    or rounding a weighted mean's denominator to 0) is refused with a clear error.
    """
    if weight is None:
        return None, 1.0
    w = _validate.float_array(weight, "weight").astype(np.float64)
    if w.shape != (K,):
        raise ValueError(f"weight must have one entry per class, shape ({K},), got shape {w.shape}")
    if not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("weight must hold finite class weights >= 0")
    if not w.any():
        return w, 1.0
    top, low = float(w.max()), float(w[w > 0].min())
    scale = math.ldexp(1.0, max(0, math.frexp(top)[1] - 961))
    if low / scale < np.finfo(np.float64).tiny:
        raise ValueError(f"weight: the non-zero class weights span too many orders of magnitude to compute "
                         f"with ({low:.3g} to {top:.3g}); rescale them")
    return w / scale, scale


def _row_scaled(y: NDArray[np.floating]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Probability-target rows divided by max(1, their largest mass), and those divisors (masses of 1e308)."""
    top = np.maximum(y.max(axis=1, initial=0.0), 1.0).astype(np.float64)
    return y / top[:, None], top


def _scaled(values: NDArray[np.float64], *scales) -> NDArray[np.float64]:
    """values · s₁ · s₂ …, one factor at a time: 0 stays 0 and ±inf stays ±inf, so no 0·inf = nan."""
    for scale in scales:
        values = values * scale
    return values


def _targets(
    target: ArrayLike, x: NDArray[np.floating], ignore_index: int
) -> tuple[NDArray[np.integer], None] | tuple[None, NDArray[np.floating]]:
    """(class indices, None) or (None, class probabilities), decided by the target's dtype as in PyTorch."""
    y = np.asarray(target)
    K = x.shape[-1]
    if y.dtype.kind in "iu":
        if y.shape != x.shape[:-1]:
            raise ValueError(
                f"target shape {y.shape} does not fit logits shape {x.shape}: class indices need shape "
                f"{x.shape[:-1]}, probabilities shape {x.shape}"
            )
        bad = (y != ignore_index) & ((y < 0) | (y >= K))
        if bad.any():
            raise ValueError(
                f"target class index {y[bad].flat[0]} is out of range [0, {K}) "
                f"(ignore_index={ignore_index} is also allowed)"
            )
        return y, None
    if y.dtype.kind != "f":
        raise ValueError(f"target must be integer class indices or float probabilities, got dtype {y.dtype}")
    if y.shape != x.shape:
        raise ValueError(
            f"target shape {y.shape} does not fit logits shape {x.shape}: a float target holds class "
            f"probabilities and needs the logits' shape (pass integers for class indices)"
        )
    return None, _validate.masses(y, "probability target")


def _coefficients(
    y: NDArray[np.floating], y_scale: NDArray[np.float64], w: NDArray[np.float64] | None, eps: float
) -> NDArray[np.float64]:
    """c = w ⊙ ((1 − ε)·y + ε/K) / s for rows y already divided by s = y_scale: each class's share of the
    row loss −Σ_k c_k log p_k, in the rows' own scale."""
    c = (1 - eps) * y.astype(np.float64) + (eps / y.shape[-1]) / y_scale[:, None]
    return c if w is None else c * w


def _dot_rows(u: NDArray[np.floating], c: NDArray[np.float64]) -> NDArray[np.float64]:
    """Σ_k c_k u_k per row, reading 0·(−inf) as 0: a class with no target mass costs nothing (0·log 0 = 0)."""
    prod = np.zeros(u.shape)
    np.multiply(c, u, out=prod, where=c != 0)
    return prod.sum(axis=1)


def _index_loss(
    r: NDArray[np.floating],
    T: float,
    ti: NDArray[np.integer],
    valid: NDArray[np.bool_],
    w: NDArray[np.float64] | None,
    eps: float,
) -> tuple[NDArray[np.float64], float]:
    """Row losses and the mean's denominator for class-index targets `ti` (ignored rows hold a dummy 0)."""
    K = r.shape[1]
    # The smoothing term (ε/K)·Σ_k w_k (lse − u_k), with ε/K folded into the weights before summing so
    # that Σ_k w_k u_k cannot overflow where a single term would not.
    a = None if not eps else (eps / K) * (np.ones(K) if w is None else w)
    a_sum = 0.0 if a is None else eps if w is None else float(a.sum())  # Σ_k ε/K is ε exactly
    nll = np.empty(len(r))
    smooth = np.empty(len(r) if eps else 0)
    u_buf = _shift.scratch(r)
    with np.errstate(over="ignore"):
        for b in _shift.blocks(r):
            zb = r[b]
            u = u_buf[: len(zb)]
            idx, _ = _shift.shift_argmax(zb, T, u)
            u_y = u[np.arange(len(u)), ti[b]].astype(np.float64)
            au = None if a is None else _dot_rows(u, a)
            np.exp(u, out=u)
            lse = _shift.log1p_others(u, idx)
            nll[b] = lse - u_y
            if a is not None:
                smooth[b] = a_sum * lse - au
    w_y = None if w is None else w[ti]
    with np.errstate(over="ignore"):  # a row whose true loss exceeds the float range is inf
        # 0·L = 0 even where L = inf (a −inf logit): a class with no weight, or ε = 1, costs nothing.
        loss = nll if w_y is None else np.multiply(w_y, nll, out=np.zeros(len(nll)), where=w_y != 0)
        if eps:
            loss = (1 - eps) * loss + smooth if eps < 1 else smooth
    loss[~valid] = 0
    return loss, float(valid.sum() if w_y is None else w_y[valid].sum())


def _probability_loss(
    r: NDArray[np.floating],
    T: float,
    y: NDArray[np.floating],
    y_scale: NDArray[np.float64],
    w: NDArray[np.float64] | None,
    eps: float,
) -> NDArray[np.float64]:
    """Row losses Σ_k c_k (lse − u_k) = C·lse − Σ_k c_k u_k for probability targets `y` (rows of r, each
    divided by its `y_scale`), in the rows' own scale."""
    loss = np.empty(len(r))
    u_buf = _shift.scratch(r)
    with np.errstate(over="ignore"):
        for b in _shift.blocks(r):
            zb = r[b]
            u = u_buf[: len(zb)]
            idx, _ = _shift.shift_argmax(zb, T, u)
            c = _coefficients(y[b], y_scale[b], w, eps)
            cu = _dot_rows(u, c)
            np.exp(u, out=u)
            loss[b] = c.sum(axis=1) * _shift.log1p_others(u, idx) - cu
    return loss


def gradient_step(
    logits: ArrayLike, target: ArrayLike, lr: float, *, T: float = 1.0, label_smoothing: float = 0.0
) -> NDArray[np.floating]:
    """One step of gradient descent on the logits themselves: z ← z − η·∂L/∂z = z − η·(p − y′)/T.

    The step keeps Σ_k z_k (the gradient sums to 0). Stable for η < 4T²: the loss's Hessian in z is
    (diag(p) − ppᵀ)/T², whose largest eigenvalue is at most 1/(2T²), so the loss is L-smooth with L = 1/(2T²)
    and every step with η < 2/L = 4T² lowers it (Boyd & Vandenberghe, *Convex Optimization* (2004), §9.3);
    above 4T² it can rise. Lowering the loss is not approaching the optimum monotonically: from η = 2T² on a
    step can overshoot it (K = 2, ε = 0.1, η = 3.9: the gap goes from 0 to 3.51, past the best ln 19 = 2.94,
    and the loss falls from 0.693 to 0.205), and near an optimum where the curvature is near 1/(2T²) the logits
    swing around it. With a one-hot target every gap z_k − z_y shrinks by η(p_k + 1 − p_y)/T, so the loss
    falls at any η.
    With a one-hot target the logits spread without end and the loss t steps in behaves like
    (K − 1)T²/(ηK·t); with label smoothing they settle at the best gap T·ln((1 − ε + ε/K)/(ε/K))
    (`label_smoothing_optimal_gap`).

    >>> gradient_step([2.0, 1.0, 0.1], 0, lr=1.0).round(3).tolist()
    [2.341, 0.758, 0.001]
    """
    x = _validate.logits(logits)
    eta = _validate.positive(lr, "the learning rate lr")
    return x - eta * grad_logits(x, target, T=T, label_smoothing=label_smoothing)
