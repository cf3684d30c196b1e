"""Information-theory readouts: entropy, KL divergence, perplexity, and nats ↔ bits."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate


def entropy(p: ArrayLike, base: float | None = None) -> NDArray[np.floating] | np.floating:
    """Shannon entropy of each distribution along the last axis, in nats (or bits with base=2).

    H(p) = −Σ_k p_k log p_k, with 0·log 0 = 0, so 0 ≤ H(p) ≤ log K for a distribution over K classes.
    Rows are used as given (not renormalised, unlike `scipy.stats.entropy`); every entry must lie in [0, 1].

    Reference: Cover & Thomas, *Elements of Information Theory* (2nd ed., 2006), §2.1;
    `scipy.special.entr`.

    >>> round(float(entropy([0.5, 0.25, 0.25], base=2)), 3)
    1.5
    >>> float(entropy([1.0, 0.0, 0.0]))
    0.0
    """
    a = _validate.probabilities(p, "p")
    unit = _validate.log_base(base)
    log_a = np.log(a, out=np.zeros_like(a), where=a > 0)
    # + 0.0 turns the −0.0 of a certain outcome (−1·log 1) into 0.0.
    return (-(a * log_a).sum(axis=-1, dtype=np.float64) / unit + 0.0).astype(a.dtype)[()]


def kl_divergence(
    p: ArrayLike, q: ArrayLike, base: float | None = None
) -> NDArray[np.floating] | np.floating:
    """Kullback-Leibler divergence KL(p‖q) of each pair of distributions along the last axis, in nats.

    KL(p‖q) = Σ_k p_k (log p_k − log q_k), with 0·log(0/q) = 0 and +inf where q_k = 0 < p_k. Written as a
    difference of logs, not log(p/q), so that p/q cannot overflow when q is tiny. Cross-entropy splits as
    H(p, q) = H(p) + KL(p‖q).

    Reference: Cover & Thomas, *Elements of Information Theory* (2nd ed., 2006), §2.3;
    `scipy.special.rel_entr`.

    >>> round(float(kl_divergence([1.0, 0.0, 0.0], [0.659, 0.242, 0.099])), 3)
    0.417
    >>> float(kl_divergence([0.5, 0.5], [1.0, 0.0]))
    inf
    """
    a = _validate.probabilities(p, "p")
    b = _validate.probabilities(q, "q")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"p and q need the same number of classes, got shapes {a.shape} and {b.shape}")
    try:
        a, b = np.broadcast_arrays(a, b)
    except ValueError:
        raise ValueError(f"p and q shapes do not broadcast: {a.shape} and {b.shape}") from None
    dtype = np.result_type(a, b)
    with np.errstate(divide="ignore"):
        log_b = np.log(b, dtype=dtype)
    log_ratio = np.log(a, out=np.zeros(a.shape, dtype), where=a > 0) - log_b
    terms = np.multiply(a, log_ratio, out=np.zeros(a.shape, dtype), where=a > 0)
    return (terms.sum(axis=-1, dtype=np.float64) / _validate.log_base(base) + 0.0).astype(dtype)[()]


def perplexity(loss_nats: ArrayLike) -> NDArray[np.floating] | np.floating:
    """Perplexity of a mean cross-entropy loss given in nats: the effective number of equally likely choices.

    PPL = e^L; a model that knows nothing over K classes has L = log K and perplexity K. Beyond
    L = 709.78 nats e^L exceeds the largest double and the answer is inf.

    Reference: Jurafsky & Martin, *Speech and Language Processing* (3rd ed. draft), §3.3.

    >>> round(float(perplexity(1.85)), 2)
    6.36
    """
    with np.errstate(over="ignore"):
        return np.exp(_validate.float_array(loss_nats, "loss_nats"))


def nats_to_bits(x: ArrayLike) -> NDArray[np.floating] | np.floating:
    """Convert nats (natural-log units, what frameworks report) to bits: x / ln 2, so 1 nat ≈ 1.443 bits.

    Reference: Cover & Thomas, *Elements of Information Theory* (2nd ed., 2006), §2.1.

    >>> round(float(nats_to_bits(1.85)), 2)
    2.67
    """
    with np.errstate(over="ignore"):  # beyond 1.2e308 nats the value in bits exceeds the float range: inf
        return _validate.float_array(x, "x") / math.log(2)


def bits_to_nats(x: ArrayLike) -> NDArray[np.floating] | np.floating:
    """Convert bits to nats: x · ln 2, so 1 bit ≈ 0.693 nats.

    Reference: Cover & Thomas, *Elements of Information Theory* (2nd ed., 2006), §2.1.

    >>> round(float(bits_to_nats(1.0)), 3)
    0.693
    """
    with np.errstate(under="ignore"):  # a subnormal number of bits becomes a smaller one, or 0
        return _validate.float_array(x, "x") * math.log(2)


def uniform_loss(K: int) -> float:
    """Cross-entropy of a model that knows nothing (all logits equal) over K classes: log K nats.

    L = −log(1/K) = log K: the loss of an untrained classifier, and the largest entropy over K classes.

    Reference: Goodfellow, Bengio & Courville, *Deep Learning* (2016), §3.13.

    >>> round(uniform_loss(50257), 2)
    10.82
    """
    return math.log(_validate.class_count(K))
