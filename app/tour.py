"""What the guided path computes (its steps are app/steps.py): what a step's check reads from a lesson, the
lesson entering a step makes, and whether a lesson does a step's task.

The page runs the same checks (static/tour.mjs `step_done`, its twin: tests/js/twins.test.mjs) on every frame,
so a task is noticed however it is done: a drag, keys, a typed value, a button, a scenario.
"""

import numpy as np

import core

from .fields import CONTROLLED, FIELDS, default_state
from .steps import BY_ID, STEPS  # noqa: F401  (the doctests' way to a step)

# A lesson's keys that a step starting from a fresh lesson keeps (app/fields.py, a row's `kept`).
KEPT = tuple(f.key for f in FIELDS if f.kept)
# The keys the class count shapes (logits, names, a class index): a link holding one keeps the step's logits out,
# as a fresh lesson of the step's count would not fit it.
COUNTED = frozenset(f.key for f in FIELDS if f.kind in ("logits", "names", "index"))
# The link keys "Start again" may change, so a link locking any of them makes it inert (app/controls.py
# `tour_setup`): a step that sets logits starts from a fresh lesson, which writes every key a link may lock but
# those KEPT (tests/test_controls.py runs every step's restart to check it).
RESTART_WRITES = tuple(f.link for f in FIELDS if f.link in CONTROLLED and f.key not in KEPT)


def quantities(s):
    """What a step's check reads from lesson state s: the state's own keys, and

    p:k, z:k: class k's probability and logit; start:k: where the step started it (its initial logit);
    loss (nats); entropy_bits: H(p) in bits; lse_gap: LSE(z/T) − max z/T, between 0 and ln K; zmax_T: max z/T,
    which overflows e^(z/T) in float64 above 709.78; above_floor: the loss above its floor H(y′); from_ln_k:
    |loss − ln K|, 0 where the model knows nothing; alibi_far: in the attention view (the classes as tokens,
    scores z/T, the ALiBi head's bias −m·d), the last token's weight on the first over its weight on itself;
    routed:k: whether the router sends a token to class k as an expert (its k top scores, ties to the lower index).

    >>> q = quantities(default_state())
    >>> round(q["p:0"], 3), round(q["loss"], 3), q["zmax_T"], round(q["lse_gap"], 3)
    (0.659, 0.417, 2.0, 0.417)
    >>> round(quantities({**default_state(), "head": "1"})["alibi_far"], 4), q["routed:1"], q["routed:2"]
    (2.4596, True, False)
    """
    z, T, y, eps = np.array(s["z"], dtype=float), s["T"], s["y"], s["eps"]
    p = core.softmax(z, T=T)
    loss = float(core.cross_entropy(z, y, T=T, label_smoothing=eps))
    K = len(z)
    out = {**s, "K": K, "loss": loss, "entropy_bits": float(core.nats_to_bits(core.entropy(p))),
           "lse_gap": float(core.logsumexp(z / T) - np.max(z) / T), "zmax_T": float(np.max(z) / T),
           "above_floor": loss - float(core.label_smoothing_floor(K, eps)),
           "from_ln_k": abs(loss - float(core.uniform_loss(K)))}
    m = core.alibi_slopes(8)[int(s["head"]) - 1] if s["head"] != "0" else 0.0
    # The two weights share the row's softmax denominator, so their ratio is e^((z₀ − z_last)/T − m·(K − 1)): in
    # that form it never divides two underflowed weights.
    with np.errstate(over="ignore"):  # inf is the answer past e^709.78, as in the page
        out["alibi_far"] = float(np.exp((z[0] - z[-1]) / T - m * (K - 1)))
    out.update({f"routed:{k}": bool(w > 0) for k, w in enumerate(core.router_weights(z, s["rk"]))})
    out.update({f"p:{k}": float(v) for k, v in enumerate(p)})
    out.update({f"z:{k}": float(v) for k, v in enumerate(z)})
    out.update({f"start:{k}": float(v) for k, v in enumerate(s["initial"])})
    return out


def enter(step, s):
    """The lesson entering `step` makes from lesson s (its step number already s's): a step that sets logits
    starts from a fresh lesson (the default names in s's language, as many as its logits) with its values and what
    s keeps (`KEPT`); any other step changes only the values it names. What an instructor's link locks or hides is
    never changed. The logits the step starts from become the initial ones, which its checks measure from.

    >>> enter(BY_ID["sigmoid"], default_state("ko"))["names"]
    ['고양이', '개']
    >>> s = enter(BY_ID["shift"], {**default_state(), "z": [2.0, 4.0, 0.1]})
    >>> s["z"], s["initial"]
    ([2.0, 4.0, 0.1], [2.0, 4.0, 0.1])
    """
    held = {*s["lock"], *s["hide"]}
    changes = {k: v for k, v in (step.setup or {}).items() if k not in held}
    if "z" in changes and not held & COUNTED:
        fresh = default_state(s["lang"], len(changes["z"]))
        out = {**fresh, **{k: s[k] for k in (*KEPT, *held) if k in s}, **changes}
    else:
        changes.pop("z", None)
        out = {**s, **changes}
    out["initial"] = list(out["z"])
    return out


def opened(s, steps):
    """The lesson a link opens at its step: a link that names a step and nothing of the lesson itself (only what
    `KEPT` keeps) enters the step, as Next does, so `step=3` opens what step 3's text describes; a link that
    names lesson values opens them as they are (the step's text is live).

    >>> opened({**default_state(), "step": 3}, STEPS)["T"], opened({**default_state(), "step": 3, "T": 2.0}, STEPS)["T"]
    (0.01, 2.0)
    """
    fresh = default_state(s["lang"], len(s["z"]))
    if any(s[k] != fresh[k] for k in s if k not in (*KEPT, "notice")):
        return s
    return enter(steps[s["step"] - 1], s)


def restart(step, s):
    """The lesson "Start again" makes: the step entered again from its initial logits."""
    return enter(step, {**s, "z": list(s["initial"])})


def holds(condition, q, setup):
    """Whether one condition of a check holds for quantities q (setup: the step's set-up values)."""
    name, op, operand = condition
    if name not in q:  # a class the lesson does not have
        return False
    value = q[name]
    if op in ("near", "rose"):
        start = q.get(name.replace("z:", "start:"))
        if start is None:
            return False
        return abs(value - start) <= operand if op == "near" else value >= start + operand - 1e-9
    if op == "set":
        return value == setup.get(name)
    if op == "=":
        return value == operand
    than = q.get(operand) if isinstance(operand, str) else operand
    if than is None:
        return False
    return value < than if op == "<" else value > than


def missing(step, s):
    """The indices of the conditions of step's check that lesson state s does not meet (none: it does the task):
    the page says what each one's `missing` string says (app/steps.py).

    >>> missing(BY_ID["scores"], {**default_state(), "z": [3.0, 4.0, 0.1]}), missing(BY_ID["scores"], default_state())
    ([1], [0])
    """
    q = quantities(s)
    return [i for i, c in enumerate(step.check) if not holds(c, q, step.setup or {})]


def done(step, s):
    """Whether lesson state s does step's task: every condition of its check holds.

    >>> s = default_state()
    >>> done(BY_ID["loss"], {**s, "z": [5.0, 1.0, 0.1]}), done(BY_ID["loss"], s)
    (True, False)
    """
    return not missing(step, s)
