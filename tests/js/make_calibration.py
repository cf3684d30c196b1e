"""Write tests/js/fixtures/calibration.json: core/calibration.py's answers, for `node --test`.

    python tests/js/make_calibration.py

tests/js/calibration.test.mjs checks static/calibration.mjs against them: on the shipped held-out data
(app/data/digits_logits.json, which the test reads itself) at several temperatures and every choice of bins,
the fit on the validation split with its iterates, and small cases with confidences on the bins' edges.
tests/test_js_tier.py checks that the file is what this script writes.
"""

import json
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import numpy as np  # noqa: E402

from app import calibration as shipped  # noqa: E402
from core import calibration as cal  # noqa: E402

OUT = HERE / "fixtures" / "calibration.json"
TEMPERATURES = (0.05, 0.3, 1.0, 2.357694835801585, 7.0, 20.0)
EDGES = [[0.0, 0.05, 0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 1.0, 1 / 3, 2 / 3, 0.45], [1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0]]


def bins(b):
    return {field: getattr(b, field).tolist() for field in b._fields}


def answers(confidence, correct, M):
    return {"bins": bins(cal.reliability_bins(confidence, correct, M)),
            "ece": cal.expected_calibration_error(confidence, correct, M),
            "mce": cal.maximum_calibration_error(confidence, correct, M)}


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
        "at": at, "fit": {"T": fit.T, "path": list(fit.path)},
        "edges": {"confidence": EDGES[0], "correct": EDGES[1],
                  "by_bins": {str(M): answers(np.array(EDGES[0]), np.array(EDGES[1]), M) for M in (3, 10, 15, 20)}},
    }
    return json.dumps(fixture, allow_nan=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    OUT.write_text(build(), encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e3:.0f} kB)")
