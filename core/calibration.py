"""Calibration of a classifier's softmax: reliability bins, ECE and MCE, the mean NLL, and temperature scaling.

A classifier is calibrated when, among the examples it gives confidence c (its largest probability), a
fraction c is right. Temperature scaling divides every logit by one T fitted on held-out data; it never
changes the argmax, so the accuracy stays the same while the confidence moves.

Reference: Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017 (§2 ECE and
MCE with M equal-width bins B_m = ((m − 1)/M, m/M]; §4.2 temperature scaling); Naeini, Cooper & Hauskrecht,
AAAI 2015 (ECE).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate
from core.softmax import log_softmax, softmax


class Bins(NamedTuple):
    """The non-empty bins of a reliability diagram, in order of confidence."""

    lower: NDArray[np.float64]  # each bin is (lower, upper]; the first also holds 0
    upper: NDArray[np.float64]
    confidence: NDArray[np.float64]  # the mean confidence of its examples
    accuracy: NDArray[np.float64]  # the fraction of them that are right
    count: NDArray[np.int64]

    @property
    def ece(self) -> float:
        """Σ_m (|B_m| / n) · |acc(B_m) − conf(B_m)| (`expected_calibration_error`)."""
        return float(np.sum(self.count * np.abs(self.accuracy - self.confidence)) / np.sum(self.count))

    @property
    def mce(self) -> float:
        """max_m |acc(B_m) − conf(B_m)| (`maximum_calibration_error`)."""
        return float(np.max(np.abs(self.accuracy - self.confidence)))


# The β that fit_temperature tries, in its scaled units: 1/β and β both finite and normal.
BETA_RANGE = (2.0**-1022, 2.0**1022)


class Fit(NamedTuple):
    """A fitted temperature and the iterates that reached it (T_0 = 1 first)."""

    T: float
    path: tuple[float, ...]


def confidence_and_correct(z: ArrayLike, labels: ArrayLike, T: float = 1.0) -> tuple[NDArray, NDArray]:
    """Each example's confidence, max_k softmax(z/T)_k, and whether its argmax is its label.

    >>> c, ok = confidence_and_correct([[2.0, 1.0, 0.1], [0.0, 3.0, 0.0]], [0, 0])
    >>> c.round(3), ok
    (array([0.659, 0.909]), array([ True, False]))
    """
    x, y = _examples(z, labels)
    return softmax(x, T).max(axis=1), x.argmax(axis=1) == y


def reliability_bins(confidence: ArrayLike, correct: ArrayLike, n_bins: int = 15) -> Bins:
    """The reliability diagram's bins: M equal-width bins of confidence, empty ones left out.

    B_m = {i : c_i ∈ ((m − 1)/M, m/M]} (c = 0 falls in the first); conf(B_m) = mean c_i, acc(B_m) = mean 1[right].
    These are exactly Guo et al.'s bins (§2), with edges `np.linspace(0, 1, M + 1)`, as in
    `sklearn.calibration.calibration_curve`. Other libraries close the bins at the other end, so a confidence on
    an inner edge m/M falls in the bin above, [m/M, (m + 1)/M), not the one below: torchmetrics (1.9,
    `_binning_bucketize`: ``torch.bucketize(c, linspace(0, 1, M + 1), right=True) − 1``, torch's linspace in the
    confidences' type, whose 0.6 of M = 10 is 0.6 where NumPy's is 0.6000000000000001) also gives c = 1 a bin of
    its own; netcal (`_Miscalibration`, NumPy's ``histogramdd``) closes its last bin and clips c to [ε, 1 − ε].
    Off the edges all three give the same bins, ECE and MCE (tests/test_calibration.py).

    >>> b = reliability_bins([0.95, 0.9, 0.55, 0.6], [1, 0, 1, 1], n_bins=10)
    >>> b.upper.round(1), b.confidence.round(3), b.accuracy, b.count
    (array([0.6, 0.9, 1. ]), array([0.575, 0.9  , 0.95 ]), array([1., 0., 1.]), array([2, 1, 1]))
    """
    c, ok = _scored(confidence, correct)
    m = _validate.count(n_bins, 1000, "n_bins")
    edges = np.linspace(0.0, 1.0, m + 1)
    which = np.searchsorted(edges[1:-1], c, side="left")
    count = np.bincount(which, minlength=m)
    kept = count > 0
    n = count[kept]
    return Bins(lower=edges[:-1][kept], upper=edges[1:][kept],
                confidence=np.bincount(which, weights=c, minlength=m)[kept] / n,
                accuracy=np.bincount(which, weights=ok, minlength=m)[kept] / n, count=n.astype(np.int64))


def expected_calibration_error(confidence: ArrayLike, correct: ArrayLike, n_bins: int = 15) -> float:
    """ECE = Σ_m (|B_m| / n) · |acc(B_m) − conf(B_m)|: the gap of the reliability diagram, weighted by counts.

    >>> round(expected_calibration_error([0.95, 0.9, 0.55, 0.6], [1, 0, 1, 1], n_bins=10), 4)
    0.45
    """
    return reliability_bins(confidence, correct, n_bins).ece


def maximum_calibration_error(confidence: ArrayLike, correct: ArrayLike, n_bins: int = 15) -> float:
    """MCE = max_m |acc(B_m) − conf(B_m)| over the non-empty bins: the worst bin's gap.

    >>> round(maximum_calibration_error([0.95, 0.9, 0.55, 0.6], [1, 0, 1, 1], n_bins=10), 4)
    0.9
    """
    return reliability_bins(confidence, correct, n_bins).mce


def mean_nll(z: ArrayLike, labels: ArrayLike, T: float = 1.0) -> float:
    """The mean negative log-likelihood, (1/n) Σ_i −log softmax(z_i/T)_{y_i}, in nats.

    >>> round(mean_nll([[2.0, 1.0, 0.1], [0.0, 3.0, 0.0]], [0, 0]), 4)
    1.756
    """
    x, y = _examples(z, labels)
    return float(-np.mean(_label_logits(log_softmax(x, T), y)))


def nll_slope(z: ArrayLike, labels: ArrayLike, T: float = 1.0) -> float:
    """d NLL / dT = −(1/T²) · (1/n) Σ_i (E_q[z_i] − z_{i,y_i}),  q = softmax(z_i / T); zero at the fitted T.

    >>> round(nll_slope([[2.0, 1.0, 0.1], [0.0, 3.0, 0.0]], [0, 0]), 4)
    -1.1493
    """
    x, y = _examples(z, labels)
    t = _validate.temperature(T)
    mean, _, _ = _moments(x, 1.0 / t)
    return -float(np.mean(mean - _label_logits(x, y))) / t / t  # T² underflows below T = 1.5e-154


def fit_temperature(z: ArrayLike, labels: ArrayLike, tol: float = 1e-13, max_iter: int = 50) -> Fit:
    """The T that minimises the mean NLL of softmax(z/T): temperature scaling (Guo et al. 2017, §4.2).

    In β = 1/T the NLL, (1/n) Σ_i [logsumexp(β z_i) − β z_{i,y_i}], is convex: its slope is
    (1/n) Σ_i (E_q[z_i] − z_{i,y_i}) and its curvature (1/n) Σ_i Var_q[z_i] ≥ 0, q = softmax(β z_i). Newton's
    method from β = 1, kept inside the bracket where the slope changes sign, as Numerical Recipes' rtsafe
    (Press et al., §9.4): a step that leaves the bracket, or does not halve the step before it, is replaced by
    the bracket's geometric midpoint or, while one side is still open, by a step 2, 4, 16, 256, … times further
    out. It stops when Newton's step is at most tol·β (near the minimiser it rounds to β itself, which is
    converged, not a step outside the bracket), when the slope is within its own rounding error, or when no
    float lies inside the bracket. The logits are first scaled by a power of 4 (exact, and the iterates in T
    are what they would be unscaled) so that no square of a logit overflows or underflows.

    A finite T > 0 exists exactly when the slope is negative at β = 0 (the labels' logits beat the mean logit
    on average) and positive as β → ∞ (some example's label is below its largest logit: a label tied for the
    largest adds nothing there); otherwise this raises ValueError, as it does for no examples, a single class,
    or a T beyond float64's range.

    >>> fit = fit_temperature([[4.0, 0.0], [0.0, 4.0], [3.0, 0.0], [4.0, 0.0]], [0, 1, 1, 0])
    >>> round(fit.T, 4), len(fit.path) < 10
    (2.7284, True)
    """
    x, y = _examples(z, labels)
    if np.unique(y).size < 2:
        raise ValueError("fit_temperature needs labels of at least two classes")
    right = _label_logits(x, y)
    if np.mean(x.mean(axis=1) - right) >= 0:
        raise ValueError("no temperature T > 0 fits: the labels' logits do not beat the mean logit on average")
    if np.all(right == x.max(axis=1)):
        raise ValueError("no finite temperature fits: every label is an argmax of its example (ties included), "
                         "so the NLL falls for ever as T → 0")
    # z/4^k is exact, moves every β and every step to 4^k times itself and leaves 1/β in the data's units as it
    # was; with max |z/4^k| in [1/2, 2), no Var_q[z] overflows or underflows.
    scale = 4.0 ** int(np.clip(np.frexp(np.max(np.abs(x)))[1] // 2, -500, 500))
    x, right = x / scale, right / scale
    # Each logit less its example's label's: the slope sums q_k·(z_ik − z_{i,y_i}), with no cancellation between
    # E_q[z_i] and z_{i,y_i} (softmax and the variance do not change when a row is shifted).
    gaps = x - right[:, None]
    lo, hi, beta, path, reach, last = 0.0, np.inf, scale, [1.0], 2.0, np.inf
    for _ in range(max_iter):
        mean, variance, k = _moments(gaps, beta)
        slope, curvature, unit = float(np.mean(mean)), float(np.mean(variance)), 4.0**k  # curvature in unit²
        # The slope's rounding error: K terms q_k·gap_k each, so at most a few K·eps·Σ_k q_k·|gap_k|, which is at
        # most |E_q[gap]| + √Var_q[gap]. Bounded by what q weighs, not by the largest logit: a gap q no longer
        # weighs (−1 beside logits of 1e-53, at T near 1e-53) adds no error, and a bound from it stopped a fit
        # 0.02 nats above the minimum.
        noise = 4 * x.shape[1] * np.finfo(np.float64).eps * float(np.mean(np.abs(mean) + np.sqrt(variance) * unit))
        if slope > 0:
            hi = beta
        else:
            lo = beta
        # Ties make a curvature of rounding alone: q = 1/3 on three equal gaps gives E_q one ulp off and Var_q its
        # square (5e-33 at logits of 1e45 and T = 1). A Newton step on it is noise: it moved T from 1 by 7e-14
        # there and, being tiny beside β, passed for converged. A curvature within the square of the slope's
        # rounding error is taken as none (no gap q weighs is that close to E_q: Var_q would be far larger).
        newton = beta - slope / unit / curvature / unit if curvature > (noise / unit) ** 2 else math.nan
        if abs(newton - beta) <= tol * beta or abs(slope) <= noise:  # converged; β is an end of the bracket
            step, done = (newton if lo < newton < hi else beta), True
        elif lo < newton < hi and abs(newton - beta) <= 0.5 * last:
            step, done = newton, False
        elif lo == 0 or hi == np.inf:  # one side still open: each time the square of the last factor
            # The last factor may overshoot the range's end where the minimiser still lies inside it (T = 1e-241
            # when the labels differ only by logits of 1e-240): the end is tried before the fit gives up.
            end = BETA_RANGE[1] if hi == np.inf else BETA_RANGE[0]
            if beta == end:
                raise ValueError("no temperature within float64's range fits")
            step = min(beta * reach, end) if hi == np.inf else max(beta / reach, end)
            reach, done = min(reach * reach, 2.0**512), False
        else:
            step = math.sqrt(lo) * math.sqrt(hi)
            if not lo < step < hi:  # the ends are within 3 ulps: nothing lies between them and the midpoint
                step = beta
            done = abs(step - beta) <= tol * beta
        last, beta = abs(step - beta), step
        path.append(scale / beta)  # a converged step may round to β: it is still a step
        if done:
            if not 0 < scale / beta < np.inf:
                raise ValueError("no temperature within float64's range fits")
            return Fit(T=scale / beta, path=tuple(path))
    raise ValueError(f"fit_temperature did not converge in {max_iter} iterations")


def _moments(x, beta):
    """Each row's E_q[z] and Var_q[z] / 16^k, q = softmax(β z), and k: the NLL's slope and curvature in β, averaged.

    4^k is the largest |z − E_q[z]| that q weighs, to a power of 4 (exact). Var_q[z] itself underflows where the
    only gaps q still weighs are tiny beside the logits that set fit_temperature's scale: labels told apart by
    logits of 1e-240 beside a 5 that q weighs 0 left no curvature, and no Newton step, near T = 1e-241.
    """
    q = softmax(x, 1.0 / beta)
    mean = np.sum(q * x, axis=1)
    deviation = np.where(q > 0, x - mean[:, None], 0.0)  # a gap q weighs 0 adds 0, not 0 · inf once scaled
    k = int(np.frexp(np.max(np.abs(deviation)))[1] // 2)
    return mean, np.sum(q * (deviation / 4.0**k) ** 2, axis=1), k


def _label_logits(x, y):
    return np.take_along_axis(x, y[:, None], axis=1)[:, 0]


def _examples(z, labels):
    x = _validate.float_array(z, "logits").astype(np.float64)
    y = np.asarray(labels)
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] < 2:
        raise ValueError(f"logits must be n × K with n ≥ 1 examples and K ≥ 2 classes, not shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("logits must be finite")
    if y.shape != (x.shape[0],) or y.dtype.kind not in "iu" or np.any((y < 0) | (y >= x.shape[1])):
        raise ValueError(f"labels must be {x.shape[0]} class indices from 0 to {x.shape[1] - 1}")
    return x, y.astype(np.intp)


def _scored(confidence, correct):
    c = _validate.float_array(confidence, "confidence").astype(np.float64).ravel()
    ok = np.asarray(correct).ravel()
    if c.size == 0:
        raise ValueError("no examples: confidence is empty")
    if ok.shape != c.shape:
        raise ValueError(f"correct must hold one value per confidence ({c.size}), not {ok.size}")
    if not np.all((c >= 0) & (c <= 1)):
        raise ValueError("confidence must lie in [0, 1]")
    if ok.dtype != bool and not np.all((ok == 0) | (ok == 1)):
        raise ValueError("correct must be true or false (1 or 0) for each example")
    return c, ok.astype(np.float64)
