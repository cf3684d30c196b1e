"""Decoding and routing: which classes a softmax keeps, and the renormalised distribution over them.

One primitive serves them all: a mask (which classes stay) → softmax over what stays → renormalise. Top-k keeps
the k largest logits, top-p the most probable classes until their mass reaches p, min-p every class at least
p_min times as probable as the most probable one; a mixture-of-experts router keeps exactly k of its experts.
The rules, boundaries and ties included, are Hugging Face transformers' logits warpers (`TopKLogitsWarper`,
`TopPLogitsWarper`, `MinPLogitsWarper`), which most people's sampling code runs. The class axis is last.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate
from core.softmax import softmax


def top_k_mask(z: ArrayLike, k: int) -> NDArray[np.bool_]:
    """Which classes top-k keeps: z_i ≥ the k-th largest logit of its row (a class tied with the k-th stays too,
    so a row may keep more than k); k at least K keeps every class.

    Reference: Fan, Lewis & Dauphin, "Hierarchical Neural Story Generation", ACL 2018; Hugging Face
    ``TopKLogitsWarper`` (removes ``scores < topk(scores, k)[-1]``).

    >>> top_k_mask([2.0, 1.0, 0.1, 1.0], 2)
    array([ True,  True, False,  True])
    """
    x = _validate.logits(z)
    k = _validate.count(k, 2**31 - 1, "k")
    if k >= x.shape[-1]:
        return np.ones(x.shape, dtype=bool)
    kth = -np.partition(-x, k - 1, axis=-1)[..., k - 1 : k]
    return x >= kth


def top_p_mask(p: ArrayLike, top_p: float) -> NDArray[np.bool_]:
    """Which classes top-p (nucleus) sampling keeps from probabilities p: the most probable ones until their mass
    reaches top_p. The class that crosses top_p is kept; the most probable class always is.

    The rule, as Hugging Face computes it: sort each row ascending, take the running sum c, and drop a class
    where c ≤ 1 − top_p (the mass of it and everything less probable leaves at least top_p above it). Ties: the
    sort here is stable, so among equal probabilities the lower index comes first and, at an exact tie on the
    boundary, is dropped first. transformers sorts the scores z/T with ``torch.sort``, whose CPU sort is stable
    up to 16 classes only: from 17 on, which of several equal scores it drops first is not specified (how many
    it drops, and the probabilities kept, are the same). `decode` sorts by the scores too, as transformers does
    (the order of p, except where probabilities round equal or underflow and the scores do not).
    1 − top_p is rounded like any sum: at top_p = 0.8, p = (0.5, 0.3, 0.15, 0.03, 0.02) keeps three classes, since
    0.15 + 0.03 + 0.02 = 0.2 > 1 − 0.8 = 0.19999999999999996 in float64, as transformers does with float64 scores;
    in float32 (the scores most models give) the bound rounds to 0.2, and transformers and float32 p keep two.

    Reference: Holtzman et al., "The Curious Case of Neural Text Degeneration", ICLR 2020; Hugging Face
    ``TopPLogitsWarper``.

    >>> top_p_mask([0.5, 0.3, 0.15, 0.03, 0.02], 0.95)
    array([ True,  True,  True, False, False])
    """
    q = _validate.probabilities(p, "p")
    return _nucleus(q, q, _validate.fraction(top_p, "top_p"))


def _nucleus(q, key, top_p):
    """top-p of probabilities q, in the ascending order of key (ties by index): q itself, or the scores."""
    order = np.argsort(key, axis=-1, kind="stable")
    running = np.cumsum(np.take_along_axis(q, order, axis=-1), axis=-1)
    drop_sorted = running <= 1 - top_p
    drop_sorted[..., -1] = False  # the most probable class stays, whatever top_p
    keep = np.empty(q.shape, dtype=bool)
    np.put_along_axis(keep, order, ~drop_sorted, axis=-1)
    return keep


def min_p_mask(p: ArrayLike, min_p: float) -> NDArray[np.bool_]:
    """Which classes min-p sampling keeps from probabilities p: p_i ≥ min_p · max_j p_j.

    Reference: Nguyen et al., "Turning Up the Heat: Min-p Sampling for Creative and Coherent LLM Outputs",
    ICLR 2025; Hugging Face ``MinPLogitsWarper`` (removes ``probs < min_p * max(probs)``).

    >>> min_p_mask([0.5, 0.3, 0.15, 0.03, 0.02], 0.1)
    array([ True,  True,  True, False, False])
    """
    q = _validate.probabilities(p, "p")
    min_p = _validate.fraction(min_p, "min_p")
    return q >= min_p * q.max(axis=-1, keepdims=True)


def renormalise(p: ArrayLike, keep: ArrayLike) -> NDArray[np.floating]:
    """p restricted to the kept classes and divided by their mass: p_i·[i kept] / Σ_{j kept} p_j.

    >>> renormalise([0.5, 0.3, 0.15, 0.03, 0.02], [True, True, True, False, False]).round(3)
    array([0.526, 0.316, 0.158, 0.   , 0.   ])
    """
    q = _validate.probabilities(p, "p")
    mask = np.asarray(keep, dtype=bool)
    kept = np.where(mask, q, 0.0)
    total = kept.sum(axis=-1, keepdims=True)
    if not (total > 0).all():
        raise ValueError("renormalise needs a kept class with probability > 0 in every row")
    return kept / total


# Each stage's mask in the pipeline, from the current distribution p and the scores z/T (the classes dropped so
# far at −inf): top-k ranks the scores, top-p sums p in the scores' ascending order, min-p compares p.
MASKS = {"top_k": lambda p, scores, k: top_k_mask(scores, k),
         "top_p": lambda p, scores, top_p: _nucleus(p, scores, _validate.fraction(top_p, "top_p")),
         "min_p": lambda p, scores, min_p: min_p_mask(p, min_p)}
STAGES = tuple(MASKS)


def decode(z: ArrayLike, T: float = 1.0, stages: tuple = ()) -> NDArray[np.floating]:
    """The distribution sampled from after temperature and the decoding stages, in the order given.

    p = softmax(z/T), then each stage (name, value) in turn keeps some classes and renormalises p over them:
    ("top_k", k) the k largest scores z/T, ("top_p", p) the most probable until their mass reaches p,
    ("min_p", p_min) those at least p_min times the most probable. The order matters: top-p of a distribution
    top-k has already cut keeps fewer classes than top-p alone. This is transformers' pipeline
    (``TemperatureLogitsWarper``, then each warper on scores whose dropped classes are −inf), so top-k ranks the
    scores z/T, and top-p sorts by them, not by p: where probabilities round equal or underflow to 0
    (z = [1, 1 + 1e-9, 0] at T = 1e8; z = [0, −800, −801] at T = 1) p cannot tell the classes apart, z/T can.
    Where z/T itself rounds two logits to one value (or overflows), they tie, as in transformers.

    >>> decode([2.0, 1.0, 0.1, -1.0], T=1.0, stages=(("top_k", 3), ("top_p", 0.8))).round(4)
    array([0.7311, 0.2689, 0.    , 0.    ])
    """
    return decode_kept(z, T, stages)[0]


def decode_kept(z: ArrayLike, T: float = 1.0, stages: tuple = ()) -> tuple[NDArray[np.floating], NDArray[np.bool_]]:
    """`decode`'s distribution and which classes every stage kept (the AND of their masks).

    Kept is not p > 0: at a small T a kept class's probability can underflow to 0.

    >>> p, kept = decode_kept([2.0, 1.0, 0.1, -1.0], T=1.0, stages=(("top_k", 3), ("top_p", 0.8)))
    >>> kept.tolist()
    [True, True, False, False]
    """
    x = _validate.logits(z)
    p = softmax(x, T=T)
    with np.errstate(over="ignore"):  # as TemperatureLogitsWarper divides them, in the logits' type
        scores = x / _validate.temperature(T)
    kept = np.ones(p.shape, dtype=bool)
    for stage in stages:
        if not (isinstance(stage, tuple) and len(stage) == 2 and stage[0] in STAGES):
            raise ValueError(f"a stage must be (name, value) with name in {STAGES}, got {stage!r}")
        name, value = stage
        mask = MASKS[name](p, np.where(kept, scores, -np.inf), value)
        kept &= mask
        p = renormalise(p, mask)
    return p, kept


def router_weights(scores: ArrayLike, k: int, order: str = "mask_then_softmax") -> NDArray[np.floating]:
    """A mixture-of-experts router's weights: exactly k experts by score, their weights summing to 1, the others 0.

    The k largest scores win; a tie at the k-th is broken by the lower index, so exactly k experts always run
    (top-k decoding keeps every tie instead). Two published orders give the same weights: "mask_then_softmax"
    sets every other score to −∞ and takes the softmax (Shazeer et al., 2017, "Outrageously Large Neural
    Networks", eq. 3–5, without the noise; GPT-OSS's router, transformers ``GptOssTopKRouter``: ``topk`` of
    the logits, then their softmax); "softmax_then_renormalise" takes the softmax of every score, keeps the k
    and divides by their sum (Mixtral's router, Jiang et al., 2024; transformers ``MixtralTopKRouter``). Equal
    because softmax over a subset is the full softmax renormalised on it: the Σ_j e^{s_j} of the others cancels.
    Those routers pick with ``torch.topk``, which also returns exactly k; which of the experts tied at the k-th
    it returns is not specified (on CPU, torch 2.13, not always the lowest: ``topk([0, 1, 1, 1, 1], 2)`` gives
    experts 2 and 4), and a tied expert's weight is the same whichever is picked.

    >>> router_weights([1.0, 3.0, 2.0, 0.0], 2).round(4)
    array([0.    , 0.7311, 0.2689, 0.    ])
    >>> router_weights([1.0, 2.0, 2.0, 2.0], 2).round(4)
    array([0. , 0.5, 0.5, 0. ])
    """
    s = _validate.logits(scores)
    k = _validate.count(k, 2**31 - 1, "k")
    keep = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(keep, np.argsort(-s, axis=-1, kind="stable")[..., :k], True, axis=-1)
    if order == "mask_then_softmax":
        return softmax(np.where(keep, s, -np.inf))
    if order == "softmax_then_renormalise":
        return renormalise(softmax(s), keep)
    raise ValueError(f"order must be 'mask_then_softmax' or 'softmax_then_renormalise', got {order!r}")
