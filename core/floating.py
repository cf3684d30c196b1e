"""Softmax in a finite floating-point type: why every implementation subtracts the maximum.

exp(x) overflows a type with largest finite value M once x > ln M: 709.78 for float64, 88.72 for float32,
11.09 for float16 (`overflow_at`). Computed as written, exp(z/T)/Σexp(z/T) then gives inf/inf = NaN; and
below that the sum can still overflow, when every exp(z/T) is finite: then every p is exp/inf = 0 (float16
z = [11, 11, 0]: e^11 rounds to 59,872, and twice that is past 65,504). With the maximum subtracted first, or
through log-softmax z/T − LSE(z/T), no exponent exceeds 0, the sum is at most K, and nothing overflows.
Every operation here is rounded to the chosen type, one at a time and in class order, as the page does it
(static/lab.mjs, float16 and float32 emulated exactly): what a learner sees break is what the type does, not
a guess.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _validate
from .label_smoothing import smoothed_target

__all__ = ["DTYPES", "overflow_at", "softmax_three_ways", "loss_two_ways"]
DTYPES = ("float64", "float32", "float16")


def overflow_at(dtype: str) -> float:
    """ln M, M the largest finite value of `dtype`: exp(x) overflows to inf for x above it.

    >>> [round(overflow_at(d), 2) for d in DTYPES]
    [709.78, 88.72, 11.09]
    """
    return float(np.log(np.float64(np.finfo(_dtype(dtype)).max)))


def _dtype(name):
    if name not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {name!r}")
    return np.dtype(name).type


def _sum(values, t):
    total = t(0)
    for v in values:
        total = t(total + v)
    return total


def _three_ways(z, T, t):
    """u = z/T in type t, LSE(u) = m + ln Σ exp(u − m) with m = max u, and the three softmaxes, every operation
    rounded to t (static/lab.mjs three_ways_in)."""
    x = _validate.logits(z)
    T = _validate.temperature(T)
    u = [t(t(v) / t(T)) for v in x.astype(np.float64)]
    m = max(u)
    with np.errstate(all="ignore"):
        e = [t(np.exp(v)) for v in u]
        naive_total = _sum(e, t)
        es = [t(np.exp(t(v - m))) for v in u]
        total = _sum(es, t)
        lse = t(m + t(np.log(total)))
        return {"u": u, "lse": lse, "naive": np.array([t(v / naive_total) for v in e], dtype=t),
                "shifted": np.array([t(v / total) for v in es], dtype=t),
                "log": np.array([t(np.exp(t(v - lse))) for v in u], dtype=t)}


def softmax_three_ways(z: ArrayLike, T: float = 1.0, dtype: str = "float64") -> dict[str, NDArray[np.floating]]:
    """softmax(z/T) in `dtype`, three ways, each operation rounded to the type:

    - naive: exp(u_k)/Σ_j exp(u_j), u = z/T: inf/inf = NaN once some u_k > ln M (`overflow_at`); all zeros,
      not NaN, where every exp(u_k) is finite but their sum overflows (each is divided by inf); and 0/0 = NaN
      once every exp(u_k) underflows;
    - shifted: exp(u_k − m)/Σ_j exp(u_j − m), m = max u: no exponent above 0, the sum at least 1;
    - log: exp(u_k − LSE(u)), LSE(u) = m + ln Σ_j exp(u_j − m) (log-softmax, then exp).

    >>> w = softmax_three_ways([8.0, 0.0, 0.0], T=0.01)
    >>> w["naive"].tolist(), w["shifted"].tolist(), w["log"].tolist()
    ([nan, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0])
    >>> softmax_three_ways([1.0, 0.0, 0.0], T=0.01, dtype="float32")["naive"].tolist()
    [nan, 0.0, 0.0]
    >>> softmax_three_ways([11.0, 11.0, 0.0], dtype="float16")["naive"].tolist()
    [0.0, 0.0, 0.0]
    """
    w = _three_ways(z, T, _dtype(dtype))
    return {way: w[way] for way in ("naive", "shifted", "log")}


def loss_two_ways(z: ArrayLike, y: int, T: float = 1.0, label_smoothing: float = 0.0,
                  dtype: str = "float64") -> tuple[float, float]:
    """The cross-entropy H(y′, p) = −Σ_k y′_k ln p_k in `dtype`, two ways: from ln of the shifted softmax
    (inf once a p_k that y′ weighs underflows to 0), and from log-softmax u_k − LSE(u), which stays finite.

    >>> loss_two_ways([0.0, 8.0], 0, T=0.01)
    (inf, 800.0)
    """
    t = _dtype(dtype)
    w = _three_ways(z, T, t)
    target = smoothed_target(y, len(w["u"]), label_smoothing)
    with np.errstate(all="ignore"):
        from_log_p = _sum([t(-t(t(v) * t(np.log(pk)))) for v, pk in zip(target, w["shifted"], strict=True) if v > 0],
                          t)
        from_lse = _sum([t(-t(t(v) * t(u - w["lse"]))) for v, u in zip(target, w["u"], strict=True) if v > 0], t)
    return float(from_log_p), float(from_lse)
