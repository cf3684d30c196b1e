"""What the guided path computes (its steps are app/steps.py): what a step's check reads from a lesson, the
lesson a step sets up, and whether a lesson does a step's task.

The page runs the same checks (static/tour.mjs `step_done`, its twin: tests/js/twins.test.mjs) on every frame,
so a task is noticed however it is done: a drag, keys, a typed value, a button, a scenario.
"""

import numpy as np

import core

from .fields import default_state
from .steps import BY_ID  # noqa: F401  (the doctests' way to a step)

# A lesson's keys that the path keeps when it sets a step up: how the page looks and what an instructor's link
# fixed, not the lesson itself.
KEPT = ("lang", "theme", "lecture", "lock", "hide", "step", "tour")


def quantities(s):
    """What a step's check reads from lesson state s: the state's own keys, and

    p:k, z:k: class k's probability and logit; loss (nats); entropy_bits: H(p) in bits; lse_gap:
    LSE(z/T) − max z/T, between 0 and ln K; zmax_T: max z/T, which overflows e^(z/T) in float64 above 709.78;
    above_floor: the loss above its floor H(y′); from_ln_k: |loss − ln K|, 0 where the model knows nothing.

    >>> q = quantities(default_state())
    >>> round(q["p:0"], 3), round(q["loss"], 3), q["zmax_T"], round(q["lse_gap"], 3)
    (0.659, 0.417, 2.0, 0.417)
    """
    z, T, y, eps = np.array(s["z"], dtype=float), s["T"], s["y"], s["eps"]
    p = core.softmax(z, T=T)
    loss = float(core.cross_entropy(z, y, T=T, label_smoothing=eps))
    K = len(z)
    out = {**s, "K": K, "loss": loss, "entropy_bits": float(core.nats_to_bits(core.entropy(p))),
           "lse_gap": float(core.logsumexp(z / T) - np.max(z) / T), "zmax_T": float(np.max(z) / T),
           "above_floor": loss - float(core.label_smoothing_floor(K, eps)),
           "from_ln_k": abs(loss - float(core.uniform_loss(K)))}
    out.update({f"p:{k}": float(v) for k, v in enumerate(p)})
    out.update({f"z:{k}": float(v) for k, v in enumerate(z)})
    return out


def setup_state(step, s):
    """The lesson step sets up from state s: a fresh lesson (the default logits and names in s's language, or
    as many as the step's logits) with the step's values, and what s keeps (`KEPT`).

    >>> setup_state(BY_ID["sigmoid"], default_state("ko"))["names"]
    ['고양이', '개']
    """
    changes = step.setup or {}
    fresh = default_state(s["lang"], len(changes["z"]) if "z" in changes else 3)
    out = {**fresh, **{k: s[k] for k in KEPT if k in s}, **changes}
    out["initial"] = list(out["z"])
    return out


def holds(condition, q, at_setup):
    """Whether one condition of a check holds for quantities q (at_setup: the set-up state's quantities)."""
    name, op, operand = condition
    if name not in q:  # a class the lesson does not have
        return False
    value = q[name]
    if op == "same":
        return value == at_setup.get(name)
    if op == "rose":
        return value >= at_setup[name] + operand - 1e-9
    if op == "=":
        return value == operand
    than = q.get(operand) if isinstance(operand, str) else operand
    if than is None:
        return False
    return value < than if op == "<" else value > than


def done(step, s):
    """Whether lesson state s does step's task: every condition of its check holds.

    >>> s = default_state()
    >>> done(BY_ID["loss"], {**s, "z": [5.0, 1.0, 0.1]}), done(BY_ID["loss"], s)
    (True, False)
    """
    q, at_setup = quantities(s), quantities(setup_state(step, s))
    return all(holds(c, q, at_setup) for c in step.check)
