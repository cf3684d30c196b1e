"""The guided path through the lesson, as data: one row per step, in the order a course teaches it.

A step says:

- id: its name, and the key of its strings (app/strings.py `TEXT[lang]["tour_steps"][id]`: its title, the
  paragraph with its live numbers, the task, the hint, and what a learner reads once it is done);
- setup: what "set it up" changes over a fresh lesson (app/tour.py `setup_state`): values of lesson keys;
- check: the task, as conditions that must all hold (app/tour.py `done`): `(quantity, op, operand)`, where a
  quantity is a name of app/tour.py `quantities` ("p:1" is the second class's probability) and op is `<` or
  `>` (than a number, or than another quantity), `=` (equals the operand), `same` (holds the value it has in
  the step's set-up state: "without touching the cat") or `rose` (by at least the operand since then);
- needs: the controls (app/controls.py names) the task uses; the path dims the others.

Adding a step is a row here and its strings in both languages: the tests walk every row (tests/test_tour.py:
strings, no step done once set up; tests/browser/test_tour.py: each done by real gestures, served and exported).
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


STEPS = (
    Step("scores", check=(("p:1", ">", "p:0"), ("z:0", "same", None))),
    Step("shift", check=(("z:0", "rose", 3.0), ("z:1", "rose", 3.0), ("z:2", "rose", 3.0)), needs=("add_one",)),
    Step("naive", setup={"z": [8.0, 0.0, 0.0], "T": 0.01, "naive": True},
         check=(("naive", "=", True), ("zmax_T", "<", NAIVE_LIMIT)),
         needs=("temperature", "naive_dtype")),
    Step("temperature", check=(("entropy_bits", ">", 1.5),), needs=("temperature",)),
    Step("lse", setup={"open": ["lse"]}, check=(("lse_gap", "<", 0.05),), needs=("temperature",)),
    Step("sigmoid", setup={"z": [0.0, 0.0]}, check=(("K", "=", 2), ("p:0", ">", 0.85), ("p:0", "<", 0.91))),
    Step("loss", check=(("loss", "<", 0.1),)),
    Step("information", setup={"open": ["info"]}, check=(("units", "=", "bits"),), needs=("units",)),
    Step("gradient", check=(("p:1", ">", 0.9), ("y", "=", 0))),
    Step("runaway", setup={"learn": True, "lr": 1.0}, check=(("loss", "<", 0.02),),
         needs=("step", "play", "learning_rate")),
    Step("smoothing", setup={"eps": 0.1, "learn": True, "lr": 1.0, "open": ["info"]},
         check=(("above_floor", "<", 0.001),), needs=("label_smoothing", "step", "play", "learning_rate")),
    Step("sampling", setup={"sample": True, "n": 10}, check=(("n", ">", 9999),), needs=("num_samples", "seed")),
    Step("start", check=(("from_ln_k", "<", 0.001),), needs=("preset", "reset")),
)
BY_ID = {s.id: s for s in STEPS}


def table():
    """The steps as the page receives them (plain dicts)."""
    return [asdict(s) for s in STEPS]
