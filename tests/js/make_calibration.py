"""The fixture calibration.json for `node --test`: core/calibration.py's answers.

build() makes it; tests/js/fixtures.py writes it.

tests/js/calibration.test.mjs checks static/calibration.mjs against them: on the shipped held-out data
(app/data/digits_logits.json, which the test reads itself) at several temperatures and every choice of bins,
the fit on the validation split with its iterates, small cases with confidences on the bins' edges, and fits on
generated sets (those where Newton's step rounded to β and the fit did not converge, issue 36; a minimiser at
T = 1; logits scaled by 2^±300 and 2^±600; random sets with ties) with every iterate.

"""

import json
import math
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import numpy as np  # noqa: E402

from app import calibration as shipped  # noqa: E402
from core import calibration as cal  # noqa: E402
from tests.test_calibration import TIES, TIES_LABELS  # noqa: E402

TEMPERATURES = (0.05, 0.3, 1.0, 2.357694835801585, 7.0, 20.0)
EDGES = [[0.0, 0.05, 0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 1.0, 1 / 3, 2 / 3, 0.45], [1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0]]


def bins(b):
    return {field: getattr(b, field).tolist() for field in b._fields}


def answers(confidence, correct, M):
    return {"bins": bins(cal.reliability_bins(confidence, correct, M)),
            "ece": cal.expected_calibration_error(confidence, correct, M),
            "mce": cal.maximum_calibration_error(confidence, correct, M)}


def fit_sets():
    """Sets with a finite T that take each of the fit's branches, and random ones."""
    sets = [([[4.2, 0.0], [2.9, 0.0]], [0, 1]),  # Newton's step rounded to β: "did not converge" before issue 36
            ([[1.0, 0.0]] * 10 + [[1e-5, 0.0]], [0] * 10 + [1]),  # the slope reaches its rounding error first
            ([[math.log(3.0), 0.0]] * 4, [0, 0, 0, 1]),  # the minimiser is T = 1
            ([[math.log(3.0) * (1 + 1e-9), 0.0]] * 4, [0, 0, 0, 1]),
            # only logits of 1e-53 and 1e-74 tell the labels apart: the slope's rounding bound follows what q weighs
            ([[0.0] * 4, [0.0] * 4, [0.0, 0.0, 0.0, 6.960699409128687e-74], [1.0, 0.0, 0.0, 0.0],
              [0.0, 0.0, 0.0, -3.964205665864705e-53]], [0, 0, 0, 0, 1]),
            # only logits of 1e-240 and 2.6e-248 do, beside a 5: the minimiser lies near the range's end, and Var_q
            # is scaled there so that it does not underflow
            ([[0.0, 0.0], [0.0, 0.0], [0.0, -4.039807173950641e-240], [2.6045984727861688e-248, 0.0], [-5.0, 0.0]],
             [0, 0, 0, 1, 1])]
    example = np.array([[4.0, 0.0], [0.0, 4.0], [3.0, 0.0], [4.0, 0.0]])
    sets += [((example * 2.0**e).tolist(), [0, 1, 1, 0]) for e in (-600, -300, 300, 600)]
    # ties of three make a curvature of rounding alone at T = 1 once the logits are 2^148 times these
    sets += [((TIES * 2.0**e).tolist(), TIES_LABELS) for e in (0, 148)]
    rng = np.random.default_rng(36)
    while len(sets) < 40:
        n, K = int(rng.integers(2, 30)), int(rng.integers(2, 7))
        z = rng.integers(-4, 5, (n, K)).astype(float) if len(sets) % 2 else rng.uniform(-8, 8, (n, K))
        z *= 2.0 ** int(rng.integers(-40, 41))
        y = np.where(rng.random(n) < 0.7, z.argmax(axis=1), rng.integers(0, K, n))
        right = z[np.arange(n), y]
        if np.unique(y).size > 1 and np.mean(z.mean(axis=1) - right) < 0 and np.any(right < z.max(axis=1)):
            sets.append((z.tolist(), y.tolist()))
    return [{"z": z, "y": y, "T": (fit := cal.fit_temperature(z, y)).T, "path": list(fit.path)} for z, y in sets]


def build():
    z, y = shipped.part("test")
    at = []
    for T in TEMPERATURES:
        confidence, correct = cal.confidence_and_correct(z, y, T)
        at.append({"T": T, "confidence": confidence.tolist(), "accuracy": float(np.mean(correct)),
                   "nll": cal.mean_nll(z, y, T), "slope_val": cal.nll_slope(*shipped.part("val"), T),
                   "by_bins": {str(M): answers(confidence, correct, M) for M in shipped.BINS}})
    fit = shipped.fitted()
    fixture = {
        "produced_by": "tests/js/make_calibration.py",
        "python": platform.python_version(), "numpy": np.__version__,
        "at": at, "fit": {"T": fit.T, "path": list(fit.path)}, "fits": fit_sets(),
        "edges": {"confidence": EDGES[0], "correct": EDGES[1],
                  "by_bins": {str(M): answers(np.array(EDGES[0]), np.array(EDGES[1]), M) for M in (3, 10, 15, 20)}},
    }
    return json.dumps(fixture, allow_nan=False, separators=(",", ":")) + "\n"
