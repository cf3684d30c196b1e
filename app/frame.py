"""From a lesson's state to everything drawn: figure data, axis window and readouts, computed with `core`.

The Python twin of static/frame.mjs. Python draws the first frame (the served page, the exported file and
a notebook output all start from it); the browser draws every later one with the twin. Both are checked
against each other on a matrix of states (tests/browser/test_twins.py).

A state is a plain dict with the short keys that links use: z, initial, names, T, y, eps, units, lang,
theme, lecture, notice (see app/state.py, which keeps it valid).
"""

import math

import numpy as np

import core

from .digits import fmt_exp_text, to_fixed
from .readouts import live_text, render_readouts

# Drawing rules shared with static/frame.mjs: the logit axis is ±half_window around 0 (moved or widened in
# whole units to hold every logit) plus `pad` between the outermost draggable position and the frame's edge;
# an arrow is drawn arrow_scale times as long as −∂L/∂z, arrow_dx right of its point, stopping arrow_margin
# short of the frame's edge; its head is `head` px, shrinking with short arrows (head_per_unit px per logit
# unit) and gone below min_arrow (a zero-length Bokeh Arrow still draws a head); beyond many_classes the
# tick labels turn and the value beside each point is left to the table.
VIEW = {"half_window": 6.0, "pad": 0.6, "arrow_scale": 2.0, "arrow_dx": 0.2, "arrow_margin": 0.15, "head": 12,
        "head_per_unit": 24, "min_arrow": 0.04, "many_classes": 6, "bar_width": 0.62}


def window(z):
    """The logit axis (start, end) for logits z: ±6 around 0, moved or widened in whole units to hold them.

    A function of z alone, so a drag (which cannot leave the axis) never moves it, and the page, Python and
    every button agree on it.

    >>> window([2.0, 1.0, 0.1]), window([9.5, 0.0, 1.0])
    ((-6.6, 6.6), (-2.6, 10.6))
    """
    lo, hi = -VIEW["half_window"], VIEW["half_window"]
    zmin, zmax = min(z), max(z)
    if zmax - zmin > hi - lo:
        half, mid = (zmax - zmin) / 2 + 1, (zmax + zmin) / 2
        lo, hi = mid - half, mid + half
    elif zmax > hi:
        lo, hi = lo + math.ceil(zmax - hi), hi + math.ceil(zmax - hi)
    elif zmin < lo:
        lo, hi = lo - math.ceil(lo - zmin), hi - math.ceil(lo - zmin)
    return lo - VIEW["pad"], hi + VIEW["pad"]


def numbers(s):
    """The lesson's maths for state `s`, as plain floats and lists (the readouts' input)."""
    z, T, y, eps = np.asarray(s["z"], dtype=float), s["T"], s["y"], s["eps"]
    K = len(z)
    log_p = core.log_softmax(z, T=T)
    target = core.smoothed_target(y, K, eps)
    g = -core.grad_logits(z, y, T=T, label_smoothing=eps)
    # KL(y'‖p) from log p, not p: it stays finite where p underflows to 0 but log p does not. Both sums run
    # left to right, as the browser's do, so the twins round alike (Python 3.12's sum() would compensate).
    kl = g_sum = 0.0
    for t, lp in zip(target.tolist(), log_p.tolist(), strict=True):
        if t > 0:
            kl += t * (math.log(t) - lp)
    for v in g.tolist():
        g_sum += v
    others = [v for k, v in enumerate(s["z"]) if k != y]
    return {
        "p": core.softmax(z, T=T).tolist(),
        "log_p": log_p.tolist(),
        "target": target.tolist(),
        "g": g.tolist(),
        # Σ(y′ − p)/T is 0 in exact arithmetic; what remains is rounding in the last bits of the p_k, which a
        # learner would misread as a real imbalance of the arrows.
        "g_sum": 0.0 if abs(g_sum) < 1e-9 else g_sum,
        "loss": float(core.cross_entropy(z, y, T=T, label_smoothing=eps)),
        "floor": core.label_smoothing_floor(K, eps),
        "kl": max(kl, 0.0),
        "entropy": float(core.entropy(core.softmax(z, T=T))),
        "lse": float(core.logsumexp(z / T)),
        "ln_k": core.uniform_loss(K),
        "gap_best": T * core.label_smoothing_optimal_gap(K, eps),
        "gap_now": s["z"][y] - max(others),
    }


def heads(z, y1):
    """Arrowhead sizes (px) for arrows from z to y1 (logit units)."""
    return [0.0 if abs(b - a) < VIEW["min_arrow"] else min(VIEW["head"], VIEW["head_per_unit"] * abs(b - a))
            for a, b in zip(z, y1, strict=True)]


def frame(s, t):
    """Everything drawn for state `s` with strings `t`: sources' data, axes, readouts' HTML, the live text."""
    n = numbers(s)
    z, y = s["z"], s["y"]
    K = len(z)
    x = list(range(K))
    lo, hi = window(z)
    bottom, top = lo + VIEW["arrow_margin"], hi - VIEW["arrow_margin"]
    y1 = [min(top, max(bottom, v + VIEW["arrow_scale"] * g)) for v, g in zip(z, n["g"], strict=True)]
    half = VIEW["bar_width"] / 2
    return {
        "K": K,
        "window": [lo, hi],
        "x_range": [-0.6, K - 0.4],
        "many": K > VIEW["many_classes"],
        "sources": {
            "logits": {"z": list(z), "name": list(s["names"])},
            "probs": {"x": x, "p": n["p"], "label": [fmt_exp_text(v) for v in n["log_p"]],
                      "is_true": [int(k == y) for k in x]},
            "neg_grad": {"x": x, "g": n["g"], "y0": list(z), "y1": y1, "x_arrow": [k + VIEW["arrow_dx"] for k in x],
                         "head": heads(z, y1)},
            "target": {"x": x, "y": n["target"], "x0": [k - half for k in x], "x1": [k + half for k in x]},
            "settings": {"T": [s["T"]], "y": [y], "eps": [s["eps"]]},
            "point_labels": {"x": x, "z": list(z), "text": [to_fixed(v, 2) for v in z]},
        },
        "readouts": render_readouts(n, s, t),
        "live": live_text(n, s, t),
    }
