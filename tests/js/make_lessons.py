"""The fixture lessons.json for `node --test`: lessons with core's numbers and the oracle's strings.

build() makes it; tests/js/fixtures.py writes it.

The page is the only renderer: static/frame.mjs computes a lesson's numbers and figure data, static/readouts.mjs
its readouts, static/digits.mjs their digits. tests/js/lessons.test.mjs checks them against this file on the
states of tests/twin_cases.py and on lessons whose numbers land on exact decimal ties: the numbers against
core's (`Lesson.numbers()`, to 1e-12 relative), and every readout against the strings the oracle
(tests/digits_oracle.py) writes for core's numbers (exactly). tests/test_js_tier.py checks that the file is what
this script writes, so rerun it after changing a case, the strings or the oracle.
"""

import html
import json
import math
import platform
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import mpmath  # noqa: E402
import numpy as np  # noqa: E402

from app.document import SOURCES, VIEW  # noqa: E402
from app.rules import rules_data  # noqa: E402
from app.state import _lesson_numbers  # noqa: E402
from app.strings import TEXT  # noqa: E402
from tests.digits_oracle import logit_text, shown, shown_exp, shown_exp_text, to_fixed  # noqa: E402
from tests.twin_cases import STATES, base_state  # noqa: E402

LN2 = math.log(2)  # the double Math.LN2 is

# Equal logits give exact decimals (p = 1/K), so −∂L/∂z and y′ land on display ties: where the page's numbers
# must be core's to the last bit to show the oracle's digits (ten equal logits, ε = 0.25, T = 2: −∂L/∂z =
# 0.3375 → 0.338).
TIES = [base_state([0.0] * K, T=T, y=y, eps=eps) for K in range(2, 11) for eps in (0.0, 0.05, 0.1, 0.2, 0.25, 0.5)
        for T in (0.5, 1.0, 2.0, 4.0) for y in sorted({0, 1, K - 1})]


def plain(value):
    """Floats JSON can hold, and "inf", "-inf" for the rest (the gap a lesson without smoothing never closes)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def escaped(text):
    """A class name as HTML text: the five escapes (an apostrophe as &#39;)."""
    return html.escape(str(text), quote=True).replace("&#x27;", "&#39;")


def filled(template, fields):
    """A template's {field}s filled with text, other braces left alone."""
    return re.sub(r"\{(\w+)\}", lambda m: str(fields[m[1]]) if m[1] in fields else m[0], template)


def minus(text):
    return "\u2212" + text[1:] if text.startswith("-") else text


def expected(s, n, t):
    """What the page must show for state `s` with core's numbers `n`, in the oracle's digits: the table's cells,
    strings each other readout contains (None: the readout is empty), the live text and the PNG's caption, the
    labels, the notice's escaped detail (None: no notice)."""
    z, y, T, eps, K = s["z"], s["y"], s["T"], s["eps"], len(s["z"])
    names = [escaped(name) for name in s["names"]]
    name_y = f'<span class="name" title="{names[y]}">{names[y]}</span>'  # whole on hover where its line cuts it
    bits = s["units"] == "bits"
    unit, other = (t["bits"], t["nats"]) if bits else (t["nats"], t["bits"])

    def in_units(nats):
        return (nats / LN2, nats) if bits else (nats, nats / LN2)

    def fixed3(x, u):  # three decimals, and the exact size beside them when they say 0.000
        return [f"{minus(to_fixed(x, 3))} {u}"] + ([f"({shown(x)})"] if 0 < x < 5e-4 else [])

    def info(nats):
        first, second = in_units(nats)
        return fixed3(first, unit) + fixed3(second, other)

    log_k, log_k_other = in_units(n["ln_k"])
    zmax = max(z) / T
    scale = max(n["ln_k"], n["loss"]) * 1.1
    loss_shown = n["loss"] / LN2 if bits else n["loss"]
    detail = s["notice"].partition(":")[2]
    return {
        "rows": [[names[k], shown(v), shown_exp(v / T), shown_exp(n["log_p"][k])]
                 + ([shown(n["target"][k])] if eps else []) + [shown(n["g"][k])] for k, v in enumerate(z)],
        "contains": {
            "py": [f'<span class="value">{shown_exp(n["log_p"][y])}</span> <span class="aside">({name_y})</span>'],
            "loss": info(n["loss"]) + [f"{minus(to_fixed(log_k, 3))} {unit}"],
            "entropy": info(n["entropy"]) + fixed3(log_k, unit) + fixed3(log_k_other, other),
            "floor": info(n["floor"]),
            "kl": info(n["kl"]),
            "lse": [f'<span class="value">{shown(n["lse"])}</span>',
                    f"{shown(zmax)} ≤ {shown(n['lse'])} ≤ {shown(zmax + n['ln_k'])}"],
            "formula": [f"p<sub>{name_y}</sub>", f"e<sup>z<sub>{name_y}</sub>/T</sup>", shown_exp(z[y] / T),
                        shown_exp(n["lse"]), f'<span class="value">{shown_exp(n["log_p"][y])}</span>'],
            "perplexity": [shown_exp(n["loss"])],
            "arrows": [f'<span class="value">{shown(n["g_sum"])}</span>'],
            "gap": [shown(n["gap_best"]), f"{t['gap_now']} {shown(n['gap_now'])}"] if eps else None,
            "sigmoid": [f"σ({shown((z[0] - z[1]) / T)})", shown_exp(n["log_p"][0])] if K == 2 else None,
            "info": [f"width:{to_fixed(100 * n['floor'] / scale, 2)}%", f"width:{to_fixed(100 * n['kl'] / scale, 2)}%",
                     f"left:{to_fixed(100 * n['ln_k'] / scale, 2)}%"],
        },
        "live": filled(t["live"], {"name": s["names"][y], "p": shown_exp_text(n["log_p"][y]),
                                   "loss": minus(to_fixed(loss_shown, 3)), "unit": unit}),
        "caption": filled(t["caption"], {"T": logit_text(T), "eps": logit_text(eps), "K": str(K),
                                         "name": s["names"][y], "p": shown_exp_text(n["log_p"][y]),
                                         "loss": minus(to_fixed(loss_shown, 3)), "unit": unit}),
        "labels": [shown_exp_text(v) for v in n["log_p"]],
        "point_text": [to_fixed(v, 2).replace("-0.00", "0.00") for v in z],  # no "−0.00" after a step
        "notice": [escaped(detail)] if detail else [] if s["notice"] else None,
    }


def build():
    lessons = []
    for group, states in (("states", STATES), ("ties", TIES)):
        for s in states:
            n = _lesson_numbers(s)  # what Lesson.numbers() answers for the lesson s (tests/test_state.py)
            lessons.append({"group": group, "state": s, "numbers": plain(n), "expect": expected(s, n, TEXT[s["lang"]])})
    fixture = {
        "produced_by": "tests/js/make_lessons.py",
        "python": platform.python_version(), "numpy": np.__version__, "mpmath": mpmath.__version__,
        "view": VIEW, "sources": {name: list(columns) for name, columns in SOURCES.items()},
        "rules": rules_data(), "strings": TEXT,
        "lessons": lessons,
    }
    return json.dumps(fixture, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"
