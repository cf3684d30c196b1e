"""The stable kernel every softmax-like function shares: u = (z − max z)/T, row by row, in cache-sized blocks.

Why this order of operations:
- Subtracting the row maximum first makes every u ≤ 0 with the maximum exactly 0, so exp never
  overflows, ties stay exact ties (0/T = 0 for every tied maximum) and T → 0 tends to argmax with ties
  split evenly. Near-ties such as (1e4, 1e4 − 1) keep their exact difference, which dividing by T first
  would round away.
- Dividing after the shift can only push u towards −inf (probability 0), never produce NaN: z − max z
  overflows to −inf only when the true gap exceeds the largest float, and then exp(u) is 0 anyway ...
- ... unless T is so large that exp(−max float / T) need not be 0. For T > max float / 1024 each z is
  divided by T first (which cannot overflow) and then shifted, so (1e308, −1e308) at T = 1e308 still
  gives softmax(1, −1).
- float32 logits whose T is not a normal float32 (T < 1.2e-38 or T > 3.4e38) are worked on in float64,
  because T itself would round to 0 or inf; the result is rounded back to float32.

Rows are processed in blocks of about 1 MiB (one L2 cache here; the L3 holds a block and its scratch):
the logits are read from memory once and every later pass over the block hits the cache. Smaller blocks
pay more in per-call overhead than they gain (measured with tests/benchmarks/bench_core.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

BLOCK_BYTES = 1 << 20
RUN = 1024  # float32 entries summed in float32 before the float64 accumulation; see row_sums
_F32_TINY, _F32_MAX = float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)
# Above max float / 1024 the shift's overflow to −inf could hide a non-zero exp(−gap/T); see the module doc.
_DIVIDE_FIRST = {
    np.dtype(np.float32): _F32_MAX / 1024,
    np.dtype(np.float64): float(np.finfo(np.float64).max) / 1024,
}


def rows(x: NDArray[np.floating], T: float, axis: int = -1) -> tuple[NDArray[np.floating], tuple[int, ...]]:
    """C-contiguous (N, K) rows of `x`, class `axis` last, in the working dtype; and their leading shape."""
    if axis != -1 and axis != x.ndim - 1:
        x = np.moveaxis(x, axis, -1)
    work = x.dtype
    if work == np.float32 and not _F32_TINY <= T <= _F32_MAX:
        work = np.dtype(np.float64)
    return np.ascontiguousarray(x, dtype=work).reshape(-1, x.shape[-1]), x.shape[:-1]


def restore(r: NDArray[np.floating], shape: tuple[int, ...], dtype: np.dtype, axis: int = -1) -> NDArray:
    """Undo `rows` on a result `r`: back to the caller's dtype and shape, class axis back in place."""
    out = r.reshape(shape)
    if out.dtype != dtype:
        with np.errstate(over="ignore"):  # float32 results computed in float64 round to ±inf beyond 3.4e38
            out = out.astype(dtype)
    if axis != -1 and axis != out.ndim - 1:
        out = np.moveaxis(out, -1, axis)
    return out


def block_rows(x: NDArray) -> int:
    """How many rows of the 2-D `x` make one block of about BLOCK_BYTES (at least 1, at most all)."""
    return max(1, min(len(x), BLOCK_BYTES // (x.shape[1] * x.itemsize)))


def blocks(x: NDArray) -> Iterator[slice]:
    """Slices of whole rows of the 2-D `x`, `block_rows(x)` rows each."""
    step = block_rows(x)
    return (slice(i, i + step) for i in range(0, len(x), step))


def scratch(x: NDArray) -> NDArray:
    """A buffer for one block of the 2-D `x`, reused across blocks so it stays in cache."""
    return np.empty((block_rows(x), x.shape[1]), x.dtype)


def check_row_max(m: NDArray[np.floating]) -> None:
    """The row maximum is NaN if the row holds a NaN, +inf if it holds +inf, −inf if every entry is −inf."""
    if np.isfinite(m).all():
        return
    if np.isnan(m).any():
        raise ValueError("logits contain NaN")
    if (m == np.inf).any():
        raise ValueError("logits contain +inf: a logit must be finite or -inf (probability 0)")
    raise ValueError("a row of logits is all -inf: its softmax is 0/0, undefined (one must be finite)")


def shift(z: NDArray[np.floating], m: NDArray[np.floating], T: float, out: NDArray[np.floating]) -> None:
    """out = (z − m)/T for a block `z` with row maxima `m` (shape (n, 1)); callers wrap it in errstate."""
    check_row_max(m)
    if T > _DIVIDE_FIRST[z.dtype]:
        np.divide(z, T, out=out)
        np.subtract(out, m / T, out=out)
        return
    np.subtract(z, m, out=out)
    if T != 1.0:
        np.divide(out, T, out=out)


def shift_argmax(
    z: NDArray[np.floating], T: float, out: NDArray[np.floating]
) -> tuple[NDArray[np.intp], NDArray[np.floating]]:
    """Like `shift`, returning per row one argmax (where out is exactly 0, so exp exactly 1) and the max."""
    idx = z.argmax(axis=1)
    m = z[np.arange(len(z)), idx]
    shift(z, m[:, None], T, out)
    return idx, m


def row_sums(e: NDArray[np.floating]) -> NDArray[np.float64]:
    """Σ_k e_k for each row of the 2-D `e`, accumulated in float64.

    float32 rows are summed pairwise in float32 within runs of RUN entries (error a few float32 ulps of a
    run's sum, below the error of exp itself) and in float64 across runs: about as accurate as casting every
    entry to float64, at half the cost, because casting is what dominates a float32 → float64 sum.
    """
    q = e.shape[1] - e.shape[1] % RUN
    if e.dtype == np.float64 or q < 2 * RUN:
        return e.sum(axis=1, dtype=np.float64)
    runs = e[:, :q].reshape(len(e), -1, RUN).sum(axis=2)
    return runs.sum(axis=1, dtype=np.float64) + e[:, q:].sum(axis=1, dtype=np.float64)


def log1p_others(e: NDArray[np.floating], idx: NDArray[np.intp]) -> NDArray[np.float64]:
    """log Σ_k exp(u_k) = log1p(Σ_{k ≠ argmax} exp(u_k)), given e = exp(u); overwrites e at the argmax.

    The argmax term is exactly 1; adding it before the log would round away a sum of the others below
    2^-53 (log(e^0 + e^-40) must be 4.25e-18, not 0), so it is left out and log1p adds it back exactly.
    """
    e[np.arange(len(e)), idx] = 0
    return np.log1p(row_sums(e))
