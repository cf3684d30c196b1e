"""The guided path through the lesson, as data: one row per step, in the order a course teaches it.

A step says:

- id: its name, and the key of its strings (app/strings.py `TEXT[lang]["tour_steps"][id]`: its title, the
  paragraph with its live numbers, the task, the hint, what a learner reads once it is done, and optionally
  `missing`: for each condition of the check, what the page says while that condition alone is what is missing);
- setup: what entering the step changes (app/tour.py `enter`, on Next, Back and "Start again"): values of lesson
  keys. A step that sets logits starts from a fresh lesson with them; any other step changes only what it names.
  Either way its logits become the initial ones: "Back to the initial logits" returns to the step's start;
- check: the task, as conditions that must all hold (app/tour.py `done`): `(quantity, op, operand)`, where a
  quantity is a name of app/tour.py `quantities` ("p:1" is the second class's probability) and op is `<` or
  `>` (than a number, or than another quantity), `=` (equals the operand), `set` (equals the step's own set-up
  value), or, of a logit "z:k", `near` (within the operand of where the step started it: a hand's slip of a
  drag counts as untouched) or `rose` (by at least the operand since then);
- needs: the controls (app/controls.py names) the task uses; the path dims the others;
- beside: where the path's text sits while the step is shown: above the figures (None), or above the view the
  step is about ("calibration", "decoding", "attention"), so its paragraph and task are beside its figure; while
  that view is closed (a link that opened other values), above the figures, and its check's first condition is
  that the view is open;
- predict: for a step that asks the learner to commit to an answer before they act, the index of the right one
  among its strings' `choices` (the question is its strings' `predict`); the page asks before it shows the
  task, and says whether they were right.

Adding a step is a row here and its strings in both languages: the tests walk every row (tests/test_tour.py:
strings, no step done once entered; tests/browser/test_tour.py: each done by real gestures, served and exported,
from the step before with no set-up).
"""

from dataclasses import asdict, dataclass

NAIVE_LIMIT = 709.78  # ln of float64's largest value, rounded down: e^(z/T) overflows above it


@dataclass(frozen=True)
class Step:
    """One step of the path; see the module's doc."""

    id: str
    check: tuple
    setup: dict | None = None
    needs: tuple = ()
    predict: int | None = None
    beside: str | None = None


# The digits classifier's T that minimises its validation NLL (app/calibration.py `fitted`: 2.3577), rounded as
# the step's text writes it; a T within FIT_BAND of it does the step (the curve is flat there: NLL within 0.2 %).
FITTED_T = 2.36
FIT_BAND = 0.1
# How far a point may move and still count as untouched: a drag that ends 2.12 for 2 is a hand's slip.
SLIP = 0.25

STEPS = (
    Step("scores", check=(("p:1", ">", "p:0"), ("z:0", "near", SLIP)), needs=("reset",)),
    Step("shift", check=(("z:0", "rose", 3.0), ("z:1", "rose", 3.0), ("z:2", "rose", 3.0)), needs=("add_one", "reset"),
         predict=1),
    Step("naive", setup={"z": [8.0, 0.0, 0.0], "T": 0.01, "naive": True, "dtype": "float64"},
         check=(("naive", "=", True), ("zmax_T", "<", NAIVE_LIMIT), ("T", "set", None)),
         needs=("subtract_max", "naive_dtype", "reset")),
    Step("temperature", setup={"z": [2.0, 1.0, 0.1], "fn": "sweep"}, check=(("entropy_bits", ">", 1.5),),
         needs=("temperature",), predict=0),
    Step("lse", setup={"open": ["lse"]}, check=(("lse_gap", "<", 0.05),), needs=("temperature",)),
    Step("sigmoid", setup={"z": [0.0, 0.0], "fn": "sigmoid"},
         check=(("K", "=", 2), ("p:0", ">", 0.85), ("p:0", "<", 0.91)), predict=1),
    Step("loss", setup={"z": [2.0, 1.0, 0.1], "fn": "nll"}, check=(("loss", "<", 0.1),), predict=1),
    Step("information", setup={"open": ["info"]}, check=(("units", "=", "bits"),), needs=("units",)),
    Step("gradient", setup={"z": [2.0, 1.0, 0.1]}, check=(("p:1", ">", 0.9), ("y", "=", 0))),
    Step("runaway", setup={"learn": True, "lr": 1.0}, check=(("loss", "<", 0.02),),
         needs=("step", "play", "learning_rate")),
    Step("smoothing", setup={"eps": 0.1, "learn": True, "lr": 1.0, "open": ["info"]},
         check=(("above_floor", "<", 0.001),), needs=("label_smoothing", "step", "play", "learning_rate")),
    Step("sampling", setup={"sample": True, "n": 10}, check=(("n", ">", 9999),), needs=("num_samples", "seed")),
    Step("calibration", setup={"calib": True, "cT": 1.0, "lm": False},
         check=(("calib", "=", True), ("cT", ">", FITTED_T - FIT_BAND), ("cT", "<", FITTED_T + FIT_BAND)),
         needs=("calibration", "calibration_T", "fit_T"),
         predict=1, beside="calibration"),
    Step("decoding", setup={"lm": True, "calib": False, "T": 1.0, "topk": 0, "topp": 0.9, "minp": 0.0},
         check=(("lm", "=", True), ("T", "<", 0.6), ("topp", "<", 1.0)),
         needs=("language_model", "temperature", "top_p", "top_k", "min_p"), predict=1,
         beside="decoding"),
    Step("attention", setup={"z": [0.0] * 6, "lm": True, "head": "0"},
         check=(("lm", "=", True), ("alibi_far", "<", 0.1)), needs=("language_model", "alibi_head"), predict=0,
         beside="attention"),
    Step("router", setup={"z": [2.0, 1.0, 0.1, -0.5], "lm": True, "rk": 2},
         check=(("lm", "=", True), ("routed:2", "=", True), ("rk", "set", None)), needs=("language_model",),
         predict=0, beside="attention"),
    Step("start", check=(("from_ln_k", "<", 0.001),), needs=("preset", "reset")),
)
BY_ID = {s.id: s for s in STEPS}


def table():
    """The steps as the page receives them (plain dicts)."""
    return [asdict(s) for s in STEPS]
