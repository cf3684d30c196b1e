"""Label smoothing: the smoothed target, the loss floor it creates, and the logit gap that reaches it."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate


def smoothed_target(target: ArrayLike, K: int, label_smoothing: float = 0.0) -> NDArray[np.float64]:
    """The smoothed one-hot target for class indices: shape ``target.shape + (K,)``.

    y'_k = (1 − ε)·[k = y] + ε/K, the target `cross_entropy` uses with ``label_smoothing=ε``.

    Reference: Szegedy et al., "Rethinking the Inception Architecture for Computer Vision", CVPR 2016, §7;
    PyTorch documentation of ``torch.nn.CrossEntropyLoss``.

    >>> smoothed_target(0, 4, 0.1)
    array([0.925, 0.025, 0.025, 0.025])
    """
    K = _validate.class_count(K)
    eps = _validate.fraction(label_smoothing, "label_smoothing")
    y = np.asarray(target)
    if y.dtype.kind not in "iu":
        raise ValueError(f"target must be integer class indices, got dtype {y.dtype}")
    _validate.array_size((*y.shape, K), "the smoothed target")
    if ((y < 0) | (y >= K)).any():
        raise ValueError(f"target class index out of range [0, {K})")
    out = np.full((*y.shape, K), eps / K)
    np.put_along_axis(out, y[..., None], 1 - eps + eps / K, axis=-1)
    return out


def label_smoothing_floor(K: int, eps: float, base: float | None = None) -> float:
    """The lowest cross-entropy reachable with label smoothing ε over K classes: H(y'), in nats or bits.

    H(y') = −(1 − ε + ε/K) log(1 − ε + ε/K) − (K − 1)(ε/K) log(ε/K), reached when p = y'. Written in closed
    form, so it holds for any K (50,257 or 10^12) without building y'; log1p keeps 1 − ε + ε/K accurate.

    Reference: Müller, Kornblith & Hinton, "When Does Label Smoothing Help?", NeurIPS 2019.

    >>> round(label_smoothing_floor(4, 0.1, base=2), 3), round(label_smoothing_floor(4, 0.1), 3)
    (0.503, 0.349)
    >>> label_smoothing_floor(10**12, 0.0)
    0.0
    """
    K = _validate.class_count(K)
    e = _validate.fraction(eps, "eps")
    moved = e * ((K - 1) / K)  # the mass smoothing moves off the true class: 1 − (1 − ε + ε/K)
    h = -(1 - moved) * math.log1p(-moved) if moved < 1 else 0.0
    if e:
        h -= moved * (math.log(e) - math.log(K))  # log(ε/K) as a difference: ε/K can underflow to 0
    return h / _validate.log_base(base) + 0.0


def label_smoothing_optimal_gap(K: int, eps: float) -> float:
    """The logit gap z_y − z_k (k ≠ y, T = 1) at which label-smoothed cross-entropy is minimal.

    Setting p = y' gives z_y − z_k = log((1 − ε + ε/K)/(ε/K)) = log1p(K(1 − ε)/ε): finite for ε > 0
    (smoothing stops the logits from growing without bound), +inf for ε = 0. Multiply by T at other
    temperatures.

    Reference: Müller, Kornblith & Hinton, "When Does Label Smoothing Help?", NeurIPS 2019, §2.

    >>> round(label_smoothing_optimal_gap(4, 0.1), 2), round(label_smoothing_optimal_gap(50257, 0.1), 2)
    (3.61, 13.02)
    """
    K = _validate.class_count(K)
    e = _validate.fraction(eps, "eps")
    if not e:
        return math.inf
    ratio = K * (1 - e) / e
    # For ε near 5e-324 the ratio overflows; its log is then log K + log(1 − ε) − log ε, and the 1 that
    # log1p adds is far below that sum's last digit.
    return math.log1p(ratio) if ratio < math.inf else math.log(K) + math.log1p(-e) - math.log(e)
