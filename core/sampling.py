"""Drawing classes from softmax(z/T) by the Gumbel-max trick, with noise a learner can keep and re-seed.

The noise comes from one small, documented generator written the same way here and in static/sampling.mjs, so
a seed gives the same draws in a notebook and in the page (NumPy's PCG64 has no browser twin): xoshiro128**
(Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2018), its four 32-bit words seeded by
SplitMix32 (the 32-bit finaliser of MurmurHash3 on a Weyl sequence of step 0x9E3779B9). Both use only 32-bit
additions, multiplications, shifts and rotations, which JavaScript does exactly (Math.imul, >>>).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate

MASK = 0xFFFFFFFF
GOLDEN = 0x9E3779B9
SEED_MAX = 2**32 - 1
SAMPLES_MAX = 100_000


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & MASK


def _splitmix32(state: int) -> tuple[int, int]:
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & MASK
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & MASK
    return state, z ^ (z >> 16)


def uniform_words(n: int, seed: int) -> NDArray[np.uint32]:
    """n outputs of xoshiro128** seeded by SplitMix32 from `seed` (0 … 2³² − 1), as 32-bit words.

    s = four SplitMix32 outputs of seed; each step returns rotl(s₁·5, 7)·9 and advances
    t = s₁ ≪ 9, s₂ ^= s₀, s₃ ^= s₁, s₁ ^= s₂, s₀ ^= s₃, s₂ ^= t, s₃ = rotl(s₃, 11) (all mod 2³²).

    Reference: https://prng.di.unimi.it/xoshiro128starstar.c (public domain); SplitMix32 as in
    Vigna's splitmix64.c with MurmurHash3's fmix32.

    >>> [int(w) for w in uniform_words(3, 0)]
    [3809008728, 1133695204, 53579671]
    """
    seed = _validate.seed(seed, SEED_MAX)
    s = []
    state = seed
    for _ in range(4):
        state, word = _splitmix32(state)
        s.append(word)
    out = np.empty(n, dtype=np.uint32)
    s0, s1, s2, s3 = s
    for i in range(n):
        out[i] = (_rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 9) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 11)
    return out


def gumbel_noise(n: int, K: int, seed: int) -> NDArray[np.float64]:
    """An (n, K) array of standard Gumbel noise g = −ln(−ln u), u = (w + ½)/2³² for the words w of
    `uniform_words(n·K, seed)` in row-major order: u lies strictly inside (0, 1), so g is always finite.

    >>> gumbel_noise(1, 3, 0).round(4)
    array([[ 2.1196, -0.2867, -1.478 ]])
    """
    n = _validate.count(n, SAMPLES_MAX, "n")
    K = _validate.class_count(K)
    u = (uniform_words(n * K, seed).astype(np.float64) + 0.5) / 2.0**32
    return -np.log(-np.log(u)).reshape(n, K)


def gumbel_max_counts(z: ArrayLike, noise: ArrayLike, T: float = 1.0) -> NDArray[np.int64]:
    """How often each class wins the race argmax_k(z_k/T + g_k) over the rows g of `noise` (n, K).

    Each row draws class k with probability exactly softmax(z/T)_k (the Gumbel-max trick); argmax(z + c + g)
    = argmax(z + g), so adding a constant to every logit changes no draw, and argmax(z/T + g) = argmax(z + T·g).
    A tie goes to the lower index, as np.argmax and the page's twin break it.

    Reference: Gumbel (1954); Maddison, Tarlow & Minka, "A* Sampling" (2014), §2; the source article's
    "sampling" section.

    >>> gumbel_max_counts([2.0, 1.0, 0.1], gumbel_noise(10_000, 3, 1)).tolist()
    [6660, 2358, 982]
    """
    x = _validate.logits(z).astype(np.float64)
    t = _validate.temperature(T)
    g = np.asarray(noise, dtype=np.float64)
    if g.ndim != 2 or g.shape[1] != x.shape[-1]:
        raise ValueError(f"noise must have shape (n, {x.shape[-1]}), got {g.shape}")
    winners = np.argmax(x / t + g, axis=1)
    return np.bincount(winners, minlength=x.shape[-1]).astype(np.int64)
