"""One shared fixture of lesson cases for checking static/softmax.mjs against core/ (the truth).

Seeded, so every run checks the same cases: hand-picked edge cases (ties, −inf, overflow-sized logits, T
at both extremes) followed by random rows for K = 2 … 10 and a few wide rows.
"""

import math

import numpy as np

EDGE = [
    ([2.0, 1.0, 0.1], 1.0, 0, 0.0),                        # the SPEC's default lesson
    ([2.0, 1.0, 0.1], 1.0, 2, 0.0),
    ([0.0, 0.0], 1.0, 0, 0.0),                              # a tie: p = (1/2, 1/2)
    ([5.0, 5.0, 1.0], 1e-8, 1, 0.0),                        # T → 0 with a tied maximum
    ([710.0, 0.0, -710.0], 1.0, 1, 0.0),                    # e^710 overflows a double
    ([1e4, 0.0, -1e4], 1.0, 0, 0.0),
    ([0.0, -1e308, 3.0], 1.0, 2, 0.0),
    ([0.0, -math.inf, 1.0], 1.0, 0, 0.0),                   # a class with probability exactly 0
    ([0.0, -40.0], 1.0, 0, 0.0),                            # LSE keeps e^−40
    ([1.0, 2.0, 3.0, 4.0], 1e6, 3, 0.0),                    # T → ∞: uniform
    ([1.0, 2.0, 3.0, 4.0], 1e-3, 0, 0.0),
    ([1.0, 2.0, 3.0, 4.0], 0.05, 1, 0.1),                   # label smoothing
    ([-100.0, 100.0], 0.01, 0, 0.0),                        # the app's extremes: huge loss
    ([100.0, 100.0, -100.0], 100.0, 2, 0.0),
    ([3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0], 1.0, 9, 0.0),
    ([1e308, -1e308], 1e308, 0, 0.0),                       # T so large that z − max z would overflow
    ([1e308, -1e308, 0.0], 1.0, 1, 0.0),
]


def cases(n_random=240, seed=20261130):
    """[(logits, T, true_class, label_smoothing)]: the edge cases, then n_random seeded random ones."""
    rng = np.random.default_rng(seed)
    out = [(list(z), T, y, eps) for z, T, y, eps in EDGE]
    for i in range(n_random):
        K = int(rng.integers(2, 11)) if i % 20 else int(rng.integers(11, 60))
        scale = float(10 ** rng.uniform(-2, 2.5))
        z = (rng.standard_normal(K) * scale).tolist()
        T = float(10 ** rng.uniform(-3, 3))
        y = int(rng.integers(K))
        eps = float(rng.choice([0.0, 0.0, 0.05, 0.1, 0.3]))
        out.append((z, T, y, eps))
    return out
