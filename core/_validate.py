"""Input checks shared by every public function: each bad input becomes a ValueError that names it.

The checks are kept to a few cheap scalar tests because the app calls `core` on every drag. Checks that
need a pass over the logits (NaN, +inf, a row of all -inf) are not here: the row maximum the stable
kernel computes anyway reveals all three for free (see `core._shift.check_row_max`).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray


def float_array(x: ArrayLike, name: str) -> NDArray[np.floating]:
    """`x` as an array of float32 (kept) or float64 (everything else real: ints, bools, lists, float16)."""
    a = np.asarray(x)
    if a.dtype == np.float64 or a.dtype == np.float32:
        return a
    if a.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be real numbers, got dtype {a.dtype}")
    return a.astype(np.float64)


def logits(z: ArrayLike, axis: int = -1) -> NDArray[np.floating]:
    """Logits with a non-empty class `axis` (NaN and +inf are caught later, by the row maximum)."""
    a = float_array(z, "logits")
    if a.ndim == 0:
        raise ValueError("logits need a class axis: got a scalar, expected shape (..., K)")
    k = class_axis(axis, a.ndim)
    if a.shape[k] == 0:
        raise ValueError(f"logits need at least one class along axis {axis}: got shape {a.shape}")
    return a


def class_axis(axis: int, ndim: int) -> int:
    """`axis` as an index in [0, ndim): an integer (not a bool) within the array's dimensions."""
    if isinstance(axis, bool) or not isinstance(axis, int | np.integer):
        raise ValueError(f"axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of range for logits with {ndim} dimension{'s' * (ndim != 1)}")
    return int(axis) % ndim


def temperature(T: float) -> float:
    """T as a Python float, which must be finite and > 0 (T = 0 is argmax: take the limit, not the value)."""
    t = float(T)
    if not 0.0 < t < math.inf:
        raise ValueError(f"temperature T must be a finite number > 0, got {T!r}")
    return t


def positive(x: float, name: str) -> float:
    """A finite number > 0, as a float."""
    if isinstance(x, bool) or not isinstance(x, int | float | np.integer | np.floating) or not 0 < x < np.inf:
        raise ValueError(f"{name} must be a finite number > 0, got {x!r}")
    return float(x)


def fraction(eps: float, name: str) -> float:
    """A mixing weight such as label smoothing, which must lie in [0, 1] (NaN fails the comparison)."""
    e = float(eps)
    if not 0.0 <= e <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {eps!r}")
    return e


def class_count(K: int) -> int:
    """The number of classes, a positive integer."""
    if isinstance(K, bool) or not isinstance(K, int | np.integer) or K < 1:
        raise ValueError(f"the number of classes K must be an integer >= 1, got {K!r}")
    return int(K)


def count(n: int, most: int, name: str) -> int:
    """A number of draws: an integer from 1 to `most`."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 1 <= n <= most:
        raise ValueError(f"{name} must be an integer from 1 to {most}, got {n!r}")
    return int(n)


def seed(s: int, most: int) -> int:
    """A generator's seed: an integer from 0 to `most`."""
    if isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s <= most:
        raise ValueError(f"seed must be an integer from 0 to {most}, got {s!r}")
    return int(s)


MAX_ENTRIES = 1 << 27  # 1 GiB of float64: far beyond a vocabulary batch, well short of exhausting memory


def array_size(shape: tuple[int, ...], what: str) -> None:
    """Refuse to build an array whose size is absurd, with its size in GiB, before NumPy tries."""
    n = math.prod(shape)
    if n > MAX_ENTRIES:
        raise ValueError(f"{what} would hold {n:.3g} numbers ({n * 8 / 2**30:.3g} GiB); the limit is "
                         f"{MAX_ENTRIES:.3g}")


def probabilities(p: ArrayLike, name: str) -> NDArray[np.floating]:
    """Probabilities on a class axis: every entry in [0, 1]; rows are used as given (not renormalised)."""
    a = float_array(p, name)
    if a.ndim == 0:
        raise ValueError(f"{name} needs a class axis: got a scalar, expected shape (..., K)")
    if not ((a >= 0) & (a <= 1)).all():
        raise ValueError(f"{name} must hold probabilities: every entry in [0, 1] (no NaN, no inf)")
    return a


def masses(y: ArrayLike, name: str) -> NDArray[np.floating]:
    """Non-negative finite class masses, such as a probability target (PyTorch lets rows sum to anything)."""
    a = float_array(y, name)
    if not (np.isfinite(a).all() and (a >= 0).all()):
        raise ValueError(f"{name} must hold probabilities: every entry finite and >= 0 (no NaN, no inf)")
    return a


def log_base(base: float | None) -> float:
    """ln(base), the divisor that turns nats into the requested unit (1 for nats, ln 2 for bits)."""
    if base is None:
        return 1.0
    b = float(base)
    if not (0.0 < b < math.inf and b != 1.0):
        raise ValueError(f"base must be a finite number > 0 other than 1, got {base!r}")
    return math.log(b)
