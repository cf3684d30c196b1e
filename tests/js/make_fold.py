"""The fixture fold.json for `node --test`: rows of logits with app/fold.py's answer to each, in both languages.

build() makes it; tests/js/fixtures.py writes it. tests/js/fold.test.mjs gives static/fold.mjs each row and
checks that it keeps the same classes in the same order, names them alike, folds as many values and picks the
same true class exactly, and that its logits, the rest's probability and the shift agree to 1e-12 relative.
The rows: the short and the ten-value rows (nothing folded), eleven and fifty values, ties across the ninth
place, a true class outside the nine largest, rows that must be shifted (past +100, past −100) and clamped, and
a seeded GPT-2-sized row (50,257 values).
"""

import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from app.fold import fold  # noqa: E402
from app.rules import rules_data  # noqa: E402
from app.strings import LANGS, TEXT  # noqa: E402


def rows(rng):
    """(row, y) pairs: y None for the default true class (the largest logit's)."""
    out = [([2.0, 1.0, 0.1], None), ([2.0, 1.0, 0.1], 2), ([-0.0, 0.0], None), (list(np.arange(10.0)), None),
           (list(np.arange(11.0)), None), (list(np.arange(11.0)), 0), ([1.0] * 12, None), ([1.0] * 12, 11),
           ([5.0, 4.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 2.0], None),
           ([150.0, 20.0, -3.0], None), ([-150.0, -160.0, -400.0], None), ([120.0, 0.0, -90.0, 10.0], 2),
           (list(np.linspace(-300.0, 300.0, 40)), 0), ([1e-320, 5e-324, -1e-320], None)]
    for size in (11, 12, 20, 50, 200, 1000):
        for scale in (1.0, 5.0, 80.0):
            row = rng.normal(0.0, scale, size)
            out += [(row.tolist(), None), (row.tolist(), int(rng.integers(size))), (row.round(1).tolist(), None)]
    out.append((rng.normal(-80.0, 3.0, 50_257).tolist(), None))
    return out


def build():
    cases = []
    for row, y in rows(np.random.default_rng(39)):
        for lang in LANGS:
            cases.append({"row": row, "y": y, "lang": lang, "fold": asdict(fold(row, y=y, lang=lang))})
    strings = {lang: {key: TEXT[lang][key] for key in ("row_class", "row_rest")} for lang in LANGS}
    return json.dumps({"rules": rules_data(), "strings": strings, "cases": cases}, ensure_ascii=False)
