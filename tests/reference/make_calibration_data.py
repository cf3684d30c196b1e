"""Write app/data/digits_logits.json: a real, deliberately overconfident classifier's held-out logits.

    pip install "scikit-learn==1.9.1" && python tests/reference/make_calibration_data.py

The UCI handwritten digits (8×8 images, ten classes) ship inside scikit-learn, so nothing is downloaded.
Recipe (issue 18): a stratified split into 200 training, 500 validation and 1,097 test images
(`random_state=0`), standardised with the training statistics; a multinomial logistic regression with a
small L2 penalty (C = 1000: without one the training set is separable and the logits' scale depends on where
the solver stops); the logits from `decision_function`. Newton's method (`newton-cholesky`) converges to the
last bits, so float32 rounding makes the file the same on any machine with these versions (L-BFGS stops
1e-4 away). Each logit is written as the shortest decimal of its float32: Python and the page read the same
doubles from it. The file records the script, the recipe, the seed and the versions; tests/test_calibration.py
regenerates it and compares the bytes.
"""

import json
import sys
from pathlib import Path

import numpy as np
import scipy
import sklearn
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "app" / "data" / "digits_logits.json"
SEED = 0
SIZES = {"train": 200, "val": 500}


def heldout():
    """The validation and test logits (float32), labels and split names, in that order."""
    X, y = load_digits(return_X_y=True)
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, train_size=SIZES["train"], stratify=y,
                                                        random_state=SEED)
    X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, train_size=SIZES["val"], stratify=y_rest,
                                                    random_state=SEED)
    scaler = StandardScaler().fit(X_train)
    model = LogisticRegression(C=1e3, solver="newton-cholesky", max_iter=50_000, tol=1e-10)
    model.fit(scaler.transform(X_train), y_train)
    logits = model.decision_function(scaler.transform(np.concatenate([X_val, X_test]))).astype(np.float32)
    labels = np.concatenate([y_val, y_test])
    split = ["val"] * len(y_val) + ["test"] * len(y_test)
    return logits, labels, split


def text():
    """The file's text: what made it, then one line per held-out image."""
    logits, labels, split = heldout()
    meta = {
        "what": "held-out logits of a multinomial logistic regression on the UCI handwritten digits (8x8)",
        "source": "sklearn.datasets.load_digits: E. Alpaydin and C. Kaynak, Optical Recognition of Handwritten "
                  "Digits, UCI Machine Learning Repository (1998), doi:10.24432/C50P49",
        "licence": "CC BY 4.0 (the data); see LICENSE-digits.txt beside this file",
        "script": "tests/reference/make_calibration_data.py",
        "recipe": "stratified split 200 train / 500 val / rest test, random_state=0; StandardScaler fitted on "
                  "train; LogisticRegression(C=1e3, solver='newton-cholesky', max_iter=50000, tol=1e-10); "
                  "decision_function, rounded to float32",
        "seed": SEED,
        "versions": {"python": sys.version.split()[0], "scikit-learn": sklearn.__version__,
                     "numpy": np.__version__, "scipy": scipy.__version__},
        "classes": [str(k) for k in range(logits.shape[1])],
    }
    rows = ",\n".join(json.dumps({"z": [float(str(v)) for v in row], "label": int(label), "split": part})
                      for row, label, part in zip(logits, labels, split, strict=True))
    return json.dumps(meta, indent=1)[:-2] + ',\n "rows": [\n' + rows + "\n ]\n}\n"


if __name__ == "__main__":
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes)")
