"""The lesson's named actions, as pure functions from a state to the next: the Python twin of static/actions.mjs.

`Lesson`'s events call these, and the page's buttons call their twins, so "add 1" in a notebook and "add 1"
in the page do the same thing, the limits included: an action that cannot be done leaves the state as it
was and says why in `notice` (a key of the string table); one that can clears the notice.
"""

import core

from .fields import K_BOUNDS, LOGIT_LIMIT, TEN, default_logits
from .fold import fold
from .names import name_key
from .strings import TEXT, default_class_names

__all__ = ["TEN", "PRESETS", "default_logits", "add_one", "subtract_max", "step",
           "reset", "add_class", "remove_class", "preset", "set_lang", "paste"]
PRESETS = ("seed", "two", "ten", "uniform")


def add_one(s):
    """z + 1: nothing derived changes (shift invariance); refused at the logit limit."""
    z = [v + 1.0 for v in s["z"]]
    if max(z) > LOGIT_LIMIT:
        return {**s, "notice": "at_limit"}
    return {**s, "z": z, "notice": ""}


def subtract_max(s):
    """z − max z: the largest logit becomes 0 and every other one negative, so e^(z/T) cannot overflow; nothing
    derived changes (shift invariance). What every library's softmax does before it exponentiates. Refused where
    the smallest logit would pass the limit (z = [99.5, 0, −3] would need −102.5)."""
    top = max(s["z"])
    z = [v - top for v in s["z"]]
    if min(z) < -LOGIT_LIMIT:
        return {**s, "notice": "at_limit"}
    return {**s, "z": z, "notice": ""}


def step(s):
    """One gradient step on the logits, z ← z − η·(p − y′)/T (core.gradient_step); refused where a logit would
    pass the limit."""
    z = core.gradient_step(s["z"], s["y"], s["lr"], T=s["T"], label_smoothing=s["eps"])
    if abs(z).max() > LOGIT_LIMIT:
        return {**s, "notice": "at_limit"}
    return {**s, "z": z.tolist(), "notice": ""}


def reset(s):
    """Back to the initial logits."""
    return {**s, "z": list(s["initial"]), "notice": ""}


def paste(s, text):
    """A row of one's own logits as printed text, folded into at most ten classes as `Lesson.from_logits` folds
    it (app/fold.py): the logits, the initial logits, the names (in the lesson's language) and the true class
    (the largest logit's) at once; T and the rest kept. A `Refusal` whose key says why the text is not a row.

    >>> paste({"z": [0.0, 0.0], "lang": "en", "notice": "at_limit"}, "[2 1 0.1]")["names"]
    ['class 0', 'class 1', 'class 2']
    """
    row = fold(text, lang=s["lang"])
    return {**s, "z": list(row.logits), "initial": list(row.logits), "names": list(row.names), "y": row.y,
            "notice": ""}


def add_class(s):
    """A new class at the end, a little less likely than the least likely one; refused beyond ten classes.

    Its name is the first default name (in the lesson's language) that no class uses yet.
    """
    K = len(s["z"])
    if K >= K_BOUNDS[1]:
        return {**s, "notice": "max_classes"}
    used = {name_key(n) for n in s["names"]}
    # Nine classes block at most nine of the ten default names, so one is always free.
    name = next(n for n in TEXT[s["lang"]]["class_names"] if name_key(n) not in used)
    logit = max(min(s["z"]) - 1.0, -LOGIT_LIMIT)
    return {**s, "z": [*s["z"], logit], "initial": [*s["initial"], logit], "names": [*s["names"], name],
            "notice": ""}


def remove_class(s):
    """Remove the last class; refused below two. A true class that goes with it moves to the new last one."""
    K = len(s["z"])
    if K <= K_BOUNDS[0]:
        return {**s, "notice": "min_classes"}
    return {**s, "z": s["z"][:-1], "initial": s["initial"][:-1], "names": s["names"][:-1],
            "y": min(s["y"], K - 2), "notice": ""}


def preset(s, name):
    """A prepared scenario: the seed, two classes (the sigmoid), ten classes, or "knows nothing".

    "uniform" keeps the classes and makes every logit 0, so p is uniform and the loss is ln K.
    """
    if name == "uniform":
        z = [0.0] * len(s["z"])
        return {**s, "z": z, "initial": list(z), "notice": ""}
    K = {"seed": 3, "two": 2, "ten": 10}.get(name)
    if K is None:
        raise ValueError(f"unknown scenario {name!r}: pick one of {', '.join(PRESETS)}")
    z = default_logits(K)
    return {**s, "z": z, "initial": list(z), "names": default_class_names(s["lang"], K), "T": 1.0, "y": 0,
            "eps": 0.0, "notice": ""}


def set_lang(s, lang):
    """Switch the language; class names that are the old language's defaults become the new one's."""
    K = len(s["names"])
    names = default_class_names(lang, K) if s["names"] == default_class_names(s["lang"], K) else s["names"]
    return {**s, "lang": lang, "names": list(names)}
