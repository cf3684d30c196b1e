"""The fixture twins.json for `node --test`: the shared cases with the Python twins' answers.

build() makes it; tests/js/fixtures.py writes it.

tests/js/twins.test.mjs checks the JavaScript twins against it: static/softmax.mjs against core/ on
tests/parity_cases.py (to 1e-12 relative), static/actions.mjs against app/actions.py and static/link.mjs against
app/link.py on tests/twin_cases.py (exactly). Numbers JSON cannot hold are written as "inf", "-inf" and
"nan".
"""

import json
import math
import platform
import sys
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import numpy as np  # noqa: E402

import core  # noqa: E402
from app import actions, fields, link, refusal, rules, tour  # noqa: E402
from app.steps import STEPS  # noqa: E402
from app.strings import TEXT  # noqa: E402
from core import floating, sampling  # noqa: E402
from tests.digits_oracle import logit_text, real_text  # noqa: E402
from tests.parity_cases import cases  # noqa: E402
from tests.twin_cases import BOKEH_KEYS, DONE_BY, HAND, MALFORMED, STATES, VALID, base_state  # noqa: E402


def plain(value):
    """Floats JSON can hold, and "inf", "-inf", "nan" for the rest; arrays as lists."""
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, float | np.floating) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return float(value) if isinstance(value, np.floating) else value


def core_truth(z, T, y, eps):
    """What core/ says for one case: the functions the page's twin has, and the KL's scale of its terms (KL
    near 0 cancels twice, so a last-bit difference between two correct log()s scales with them)."""
    z = np.asarray(z)
    p = core.softmax(z, T=T)
    q = core.softmax(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(q > 0, q * (np.abs(np.log(q)) + np.abs(np.log(p))), 0.0)
    return {
        "softmax": p, "log_softmax": core.log_softmax(z, T=T), "logsumexp": [core.logsumexp(z)],
        "cross_entropy": [core.cross_entropy(z, y, T=T, label_smoothing=eps)],
        "grad_logits": core.grad_logits(z, y, T=T, label_smoothing=eps),
        "entropy": [core.entropy(p), core.entropy(p, base=2)], "kl": [core.kl_divergence(q, p)],
        "jacobian": core.softmax_jacobian(z, T=T).ravel(),
        "smoothing": [core.label_smoothing_floor(len(z), eps), core.label_smoothing_optimal_gap(len(z), eps),
                      core.uniform_loss(len(z))],
        "kl_scale": float(terms[np.isfinite(terms)].sum()),
    }


def action_answers(s):
    out = {"add_one": actions.add_one(s), "subtract_max": actions.subtract_max(s), "step": actions.step(s),
           "reset": actions.reset(s),
           "add_class": actions.add_class(s),
           "remove_class": actions.remove_class(s),
           "set_lang": actions.set_lang(s, "ko" if s["lang"] == "en" else "en")}
    out.update({f"preset_{p}": actions.preset(s, p) for p in actions.PRESETS})
    return out


# A value of each kind the rules refuse, by the field's kind (JSON can carry each of them).
BAD = {"logits": [[1.0], [0.0, "1", 2.0], [0.0, 101.0, 0.0], "1,2,3", None],
       "names": [["a", "a"], ["a", " "], ["a", "b,c", "d"], "abc", [1, "b", "c"]],
       "real": [True, "0.5", -1.0, 1e9, None], "index": [-1, 1.5, True, "0", 3],
       "count": [True, 1.5, "10", -1, 2**32, None],
       "choice": ["furlongs", 1, None], "flag": ["yes", 0, None], "notice": [5, "nope", "clamped:x"],
       "keys": ["T", ["T", "T"], ["z0"], [None], ["t"], {"0": "T"}]}


def whole_states():
    """States for the two gatekeepers (app/rules.py `checked_state`, static/lesson.mjs's twin): valid ones,
    each field broken in each way of BAD, counts that disagree, extra and missing keys."""
    s0 = base_state([2.0, 1.0, 0.1])
    broken = [{**s0, f.key: v} for f in fields.FIELDS for v in BAD[f.kind]]
    odd = [{**s0, "z": [1.0, 2.0]}, {**s0, "initial": [1.0] * 4}, {**s0, "extra": 1},
           {k: v for k, v in s0.items() if k != "lr"}, [], "state"]
    out = []
    for s in STATES[::7] + broken + odd:
        try:
            out.append({"state": s, "checked": rules.checked_state(s)})
        except refusal.Refusal:
            out.append({"state": s, "checked": None})
    return out


def sampling_cases():
    """The sampler's words, noise and counts for seeds at both ends and a few lessons (core/sampling.py)."""
    out = []
    for seed, n, z, T in [(0, 7, [2.0, 1.0, 0.1], 1.0), (1, 10_000, [2.0, 1.0, 0.1], 1.0),
                          (2**32 - 1, 5000, [0.0] * 10, 1.0), (20261201, 3000, [8.0, 0.0, 0.0], 0.01),
                          (42, 4000, [1.0, 3.0], 100.0), (7, 2000, [-1.0, 3.0, 0.5, 2.0], 0.5)]:
        noise = sampling.gumbel_noise(n, len(z), seed)
        near_zero = np.flatnonzero(np.abs(noise.ravel()) < 1e-3)  # where a bound relative to g cannot hold
        out.append({"seed": seed, "n": n, "z": z, "T": T, "words": sampling.uniform_words(12, seed).tolist(),
                    "noise": noise.ravel()[:12].tolist(), "counts": sampling.gumbel_max_counts(z, noise, T).tolist(),
                    "near_zero": [[int(i), float(noise.ravel()[i])] for i in near_zero]})
    return out


def float16_cases():
    """Doubles and their float16 by NumPy: every float16 value, the points halfway between neighbours (ties to
    even), a hair either side of them, and the overflow edge."""
    every = np.arange(2**16, dtype=np.uint16).view(np.float16)
    finite = np.sort(every[np.isfinite(every)].astype(np.float64))
    mid = (finite[:-1] + finite[1:]) / 2
    xs = np.concatenate([finite, mid, np.nextafter(mid, -np.inf), np.nextafter(mid, np.inf),
                         [65504.0, 65519.99, 65520.0, 1e6, -65520.0, 2.0**-25, 2.0**-24 * 1.5]])
    xs = xs[::17]  # a sample of each kind, spread over the whole range
    return {"x": xs.tolist(), "f16": xs.astype(np.float16).astype(np.float64).tolist()}


def lab_cases():
    """The lab's numbers from core/ (static/lab.mjs has the twins): a gradient step, the Jacobian, and softmax
    and the loss in each floating-point type, at lessons that overflow each type and that do not."""
    out = []
    for z, T, y, eps in [([2.0, 1.0, 0.1], 1.0, 0, 0.0), ([1.0, 2.0, 3.0], 1.0, 2, 0.1),
                         ([8.0, 0.0, 0.0], 0.01, 0, 0.0), ([1.0, 0.0, 0.0], 0.01, 1, 0.0),
                         ([0.1, 0.0, -0.1], 0.01, 0, 0.2), ([5.0, -3.0], 0.5, 1, 0.0), (actions.TEN, 0.3, 4, 0.05),
                         ([100.0, -100.0, 0.0], 100.0, 1, 0.5), ([12.0, 11.0], 1.0, 0, 0.0),
                         ([-100.0, 100.0, 99.99], 0.01, 0, 0.0)]:
        ways = {d: {k: v.astype(np.float64).tolist() for k, v in core.softmax_three_ways(z, T, d).items()}
                for d in floating.DTYPES}
        losses = {d: list(core.loss_two_ways(z, y, T, eps, d)) for d in floating.DTYPES}
        out.append({"z": z, "T": T, "y": y, "eps": eps, "lr": 0.7,
                    "step": core.gradient_step(z, y, 0.7, T=T, label_smoothing=eps).tolist(),
                    "jacobian": core.softmax_jacobian(z, T=T).ravel().tolist(), "ways": ways, "losses": losses,
                    "overflow_at": {d: floating.overflow_at(d) for d in floating.DTYPES}})
    return out


def tour_cases():
    """Every step on the lesson entering it makes, on the state tests/test_tour.py says does it, and on the twin
    cases' lessons (the lesson entering and restarting the step makes from each, and what each misses of its task)."""
    out = []
    for step in STEPS:
        start = {**STATES[3], "step": 2, "theme": "dark"}
        entered = tour.enter(step, start)
        for s in [entered, DONE_BY[step.id](entered), *STATES[::20]]:
            at = {**s, "step": STEPS.index(step) + 1}
            out.append({"step": asdict(step), "state": s, "entered": tour.enter(step, s),
                        "restarted": tour.restart(step, s), "missing": tour.missing(step, s),
                        "at": at, "opened": tour.opened(at, STEPS)})
        at = {**fields.default_state(start["lang"]), "step": STEPS.index(step) + 1, "theme": "dark"}
        out.append({"step": asdict(step), "state": at, "entered": tour.enter(step, at),
                    "restarted": tour.restart(step, at), "missing": tour.missing(step, at),
                    "at": at, "opened": tour.opened(at, STEPS)})
    return out


def link_opens(s):
    """The lesson a copied link of s opens: its logits to 4 decimals, its reals to 4 significant digits, as the
    page's link writes them."""
    four = {f.key: [float(logit_text(v)) for v in s[f.key]] if f.kind == "logits" else float(real_text(s[f.key]))
            for f in fields.FIELDS if f.link and f.kind in ("logits", "real")}
    return {**s, **four}


def build():
    near_limit = [base_state([99.5, 0.0, -3.0]), base_state(actions.TEN), base_state([1.0, 2.0], y=1),
                  base_state(actions.TEN[:9], names=TEXT["en"]["class_names"][1:10]),
                  {**base_state([99.5, 1.0, -3.0], y=1), "lr": 100.0}]  # a step past the limit
    action_states = near_limit + STATES[::7]
    links = []
    for text in MALFORMED + BOKEH_KEYS + VALID:
        pairs = link.link_pairs(text)
        state, refused = link.parse_link(pairs)
        links.append({"text": text, "pairs": pairs, "state": state, "refused": refused,
                      "malformed": text not in VALID})
    round_trips = [{"state": s, "opens": link_opens(s)}
                   for s in STATES[::5] + [{**STATES[0], "initial": [0.0, -1.0, 7.5], "T": 0.012589254117941675},
                                           HAND[-1]]]
    fixture = {
        "produced_by": "tests/js/make_twins.py",
        "python": platform.python_version(), "numpy": np.__version__,
        "rules": rules.rules_data(), "strings": TEXT,
        "core": [{"case": list(c), "truth": core_truth(*c)} for c in cases()],
        "actions": [{"state": s, "answers": action_answers(s)} for s in action_states],
        "links": links,
        "round_trips": round_trips,
        "whole_states": whole_states(),
        "sampling": sampling_cases(),
        "lab": lab_cases(),
        "tour": tour_cases(), "steps": [asdict(step) for step in STEPS],
        # float16's every finite value, as NumPy rounds each double just off a half-way point and on it
        "float16": float16_cases(),
    }
    return json.dumps(plain(fixture), ensure_ascii=False, indent=0) + "\n"
