"""Attention weights, and ALiBi's linear distance penalty: softmax turns a bias of −m·d into a factor e^(−m·d)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate
from core.softmax import softmax


def alibi_slopes(n_heads: int) -> NDArray[np.float64]:
    """ALiBi's slope of each of n heads, by its authors' rule: for n a power of two m_h = 2^(−8h/n), h = 1 … n, a
    geometric sequence from 2^(−8/n) to 2^(−8); otherwise the c = 2^⌊log₂ n⌋ slopes of c heads, then every
    other slope of 2c heads, 2^(−8h/2c) for h = 1, 3, 5, …, until there are n.

    Reference: Press, Smith & Lewis, "Train Short, Test Long: Attention with Linear Biases Enables Input Length
    Extrapolation", ICLR 2022, §3 (eight heads: 1/2, 1/4, …, 1/256), and their code's ``get_slopes``
    (github.com/ofirpress/attention_with_linear_biases, ``get_slopes(2*closest_power_of_2)[0::2]``), which BLOOM's
    ``build_alibi_tensor`` (transformers, models/bloom/modeling_bloom.py) computes too. At 12 heads: the eight
    slopes of 8 heads, 1/2 … 1/256, then 2^(−1/2), 2^(−3/2), 2^(−5/2), 2^(−7/2), not 2^(−8h/12).

    >>> alibi_slopes(8).tolist()
    [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]
    >>> (-np.log2(alibi_slopes(6))).tolist()
    [2.0, 4.0, 6.0, 8.0, 1.0, 3.0]
    """
    n = _validate.count(n_heads, 1024, "n_heads")
    c = 1 << (n.bit_length() - 1)  # 2^⌊log₂ n⌋, exactly
    return np.concatenate([2.0 ** (-8.0 * np.arange(1, c + 1) / c),
                           2.0 ** (-8.0 * np.arange(1, 2 * (n - c), 2) / (2 * c))])


def alibi_bias(n_tokens: int, m: float) -> NDArray[np.float64]:
    """The causal ALiBi bias for n tokens: B_ij = −m·(i − j) where key j is at or before query i, −∞ after it.

    >>> alibi_bias(3, 0.5).tolist()
    [[-0.0, -inf, -inf], [-0.5, -0.0, -inf], [-1.0, -0.5, -0.0]]
    """
    n = _validate.count(n_tokens, 4096, "n_tokens")
    m = float(m)
    if not 0 <= m < np.inf:
        raise ValueError(f"the slope m must be a finite number >= 0, got {m!r}")
    distance = np.subtract.outer(np.arange(n), np.arange(n)).astype(np.float64)
    return np.where(distance >= 0, -m * distance, -np.inf)


def attention_weights(scores: ArrayLike, bias: ArrayLike | None = None) -> NDArray[np.floating]:
    """Each query's weights over the keys: softmax_j(s_ij + B_ij), row by row (bias −∞: a key it cannot see).

    With the bias −m·d, each weight is the unbiased one times e^(−m·d), renormalised:
    softmax(s − m·d)_j = softmax(s)_j·e^(−m·d_j) / Σ_k softmax(s)_k·e^(−m·d_k); and adding one number to a
    whole row of scores changes nothing, as adding 1 to every logit changes no p.

    >>> attention_weights([[0.0, 0.0], [1.0, 1.0]], alibi_bias(2, 1.0)).round(4).tolist()
    [[1.0, 0.0], [0.2689, 0.7311]]
    """
    s = _validate.logits(scores)
    if s.ndim != 2 or s.shape[0] != s.shape[1]:
        raise ValueError(f"scores must be an n × n matrix (queries × keys), got shape {s.shape}")
    if bias is not None:
        b = _validate.float_array(bias, "bias")
        if b.shape != s.shape:
            raise ValueError(f"bias must have the scores' shape {s.shape}, got {b.shape}")
        s = s + b
    return softmax(s)
