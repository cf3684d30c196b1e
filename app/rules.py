"""What a lesson may hold: the limits of every value, each field of app/fields.py checked by its row, and the
rules as the page receives them.

The Python twin of static/rules.mjs and static/lesson.mjs's checks. Class names follow app/names.py; every
refusal is an app/refusal.py `Refusal`.
"""

import math
import numbers
import re
from functools import cache

from . import fields
from .fields import K_BOUNDS, LOGIT_LIMIT, STATE_KEYS
from .names import (
    BIDI,
    COMMA,
    CONTROL,
    INVISIBLE,
    NAME_MAX,
    RAW_NAME_MAX,
    SPACE,
    blank_glyphs,
    blank_ranges,
    clean_names,
    confusables_data,
    unknown_ranges,
)
from .refusal import Refusal, TypeRefusal, items, sequence, shown

# The limits of the lesson's table (app/fields.py), by the names the rest of the code knows them by.
T_BOUNDS = fields.BY_KEY["T"].bounds
# The longest text of a pasted row of logits (app/pasted.py): a 128,256-value row (Llama 3's vocabulary) in
# float64's longest repr, 25 characters a value with its separator, fits; GPT-2's 50,257 values fit twice over.
PASTE_MAX = 4_000_000

# The limits as the notices print them, written once here so both renderers show the same text.
FIELDS = {"limit": f"{LOGIT_LIMIT:g}", "min": str(K_BOUNDS[0]), "max": str(K_BOUNDS[1]), "name_max": str(NAME_MAX),
          "paste_max": f"{PASTE_MAX:,}",
          # A real field's bounds, for its refusal ("T lies from {T_lo} to {T_hi}.")
          **{f"{f.key}_{end}": f"{bound:g}" for f in fields.FIELDS if f.kind == "real"
             for end, bound in zip(("lo", "hi"), f.bounds, strict=True)},
          **{f"{f.key}_{end}": f"{bound:,}" for f in fields.FIELDS if f.kind == "count"
             for end, bound in zip(("lo", "hi"), f.bounds, strict=True)}}
# A notice is "" or a key of the string table; these carry a detail after a colon ("link_bad:z, T").
NOTICES = ["at_limit", "clamped", "max_classes", "min_classes", "name_type", "name_blank", "name_long",
           "name_control", "name_bidi", "name_comma", "name_unknown", "name_duplicate", "class_count",
           "not_number", "not_whole", "decimal_comma", "not_finite", "logit_range", "refused",
           # a pasted row of logits (app/pasted.py)
           "paste_long", "paste_summary", "paste_format", "paste_batch", "paste_count", "paste_not_finite",
           *(f.refusal for f in fields.FIELDS if f.refusal)]
NOTICES_WITH_DETAIL = ["link_bad", "link_copied", "link_shown"]


@cache
def rules_data():
    """The rules as the page receives them: limits, character sets and the lesson's table of fields."""
    return {"logit": LOGIT_LIMIT, "K": list(K_BOUNDS), "paste_max": PASTE_MAX,
            "name_max": NAME_MAX, "name_raw_max": RAW_NAME_MAX, "space": SPACE, "control": CONTROL, "comma": COMMA,
            "bidi": BIDI, "invisible": INVISIBLE, "unknown": unknown_ranges(), "fields": FIELDS,
            "state_keys": STATE_KEYS, "lesson_fields": fields.table(), "notices": NOTICES,
            "notices_with_detail": NOTICES_WITH_DETAIL, "blank": blank_ranges(), "blank_glyphs": blank_glyphs(),
            "confusables": ";".join(confusables_data()["map"])}


def number(value, what):
    """A real number as a float (not a bool, not text): NaN and ±inf are refused, with `what` in the message.

    NumPy's scalars are numbers too (NumPy registers them with `numbers`), its booleans are not.

    >>> import numpy as np
    >>> number(np.float32(0.5), "T"), number(np.int64(2), "T")
    (0.5, 2.0)
    >>> number(np.True_, "T")
    Traceback (most recent call last):
    app.refusal.TypeRefusal: T must be a number, got np.True_
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeRefusal("not_number", f"{what} must be a number, got {shown(value)}")
    try:
        x = float(value)
    except (OverflowError, ValueError, TypeError):  # an int past 1e308, or a Real that has no float
        x = math.nan
    if not math.isfinite(x):
        raise Refusal("not_finite", f"{what} must be a finite number, got {shown(value)}")
    return x


def logits(values, what="logits"):
    """Logits as floats: 2 to 10 finite numbers, each within ±LOGIT_LIMIT; the length is checked first.

    >>> import numpy as np
    >>> logits(np.array([2, 1], dtype=np.int64))
    [2.0, 1.0]
    """
    values = sequence(values, f"{what} must be a list of numbers", "not_number")
    lo, hi = K_BOUNDS
    if not lo <= len(values) <= hi:
        raise Refusal("class_count", f"the explainer shows {lo} to {hi} classes, got {len(values)} {what}")
    zs = [number(v, what) for v in items(values)]
    if any(abs(z) > LOGIT_LIMIT for z in zs):
        raise Refusal("logit_range", f"every logit must lie within ±{LOGIT_LIMIT:g}, got {shown(zs)}")
    return zs


# A number as people type it in a link or an option: digits, one point, an exponent. Each part can match a
# digit in only one way, so a long hostile string fails in linear time (an earlier form was quadratic).
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_number(text, what):
    """A finite number from text in the NUMBER form (no "1_0", "inf", "١" or spaces, which float() takes)."""
    if not isinstance(text, str):
        raise TypeRefusal("not_number", f"{what} must be text such as 0.5 or -2, got {shown(text)}")
    if not NUMBER.fullmatch(text):
        raise Refusal("not_number", f"{what} must be a number such as 0.5 or -2, got {shown(text)}")
    return number(float(text), what)


def within(value, bounds, what, key):
    """A finite number within `bounds` (inclusive); the refusal's `key` names the reason in the string table."""
    x = number(value, what)
    if not bounds[0] <= x <= bounds[1]:
        raise Refusal(key, f"{what} must lie from {bounds[0]:g} to {bounds[1]:g}, got {shown(value)}")
    return x


def count(value, bounds, what, key):
    """A whole number (an integer, not a bool, or a float that is one: JSON's 1000.0 is the page's 1000) within
    `bounds`; the refusal's `key` names the reason in the string table.

    >>> count(10_000, (1, 100_000), "num_samples", "n_range"), count(1000.0, (1, 100_000), "num_samples", "n_range")
    (10000, 1000)
    """
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral) and float(value).is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeRefusal("not_whole", f"{what} must be a whole number, got {shown(value)}")
    if not bounds[0] <= value <= bounds[1]:
        raise Refusal(key, f"{what} must lie from {bounds[0]:,} to {bounds[1]:,}, got {shown(value)}")
    return int(value)


def notice(value):
    """A notice: "" or a key of the string table, with a detail after a colon for the link notices."""
    if not isinstance(value, str):
        raise TypeRefusal("refused", f"a notice is text, got {shown(value)}")
    key, colon, _ = value.partition(":")
    if value and not (key in NOTICES and not colon or key in NOTICES_WITH_DETAIL):
        raise Refusal("refused", f"unknown notice {shown(value)}")
    return value


def index(value, what):
    """A class index: an integer (Python's or NumPy's, not a bool) below the most classes a lesson has; the state
    checks it against its own K."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeRefusal("not_number", f"{what} must be a class index (an integer), got {shown(value)}")
    if not 0 <= value < K_BOUNDS[1]:
        raise Refusal("not_number", f"{what} must be a class index from 0 to {K_BOUNDS[1] - 1}, got {shown(value)}")
    return int(value)


def integer(value, bounds, what):
    """An integer (Python's or NumPy's; not a bool, not a float) within `bounds`, inclusive (no upper end when
    it is None), as Python's int: what the notebook's methods take for a count or a seed.

    >>> import numpy as np
    >>> integer(np.int64(3), (1, 100_000), "n")
    3
    >>> integer(10 ** 4000, (1, 100_000), "n")
    Traceback (most recent call last):
    app.refusal.Refusal: n must be an integer from 1 to 100,000, got <an integer of 13288 bits>
    """
    lo, hi = bounds
    span = f"of {lo:,} or more" if hi is None else f"from {lo:,} to {hi:,}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeRefusal("not_whole", f"{what} must be an integer {span}, got {shown(value)}")
    if value < lo or hi is not None and value > hi:
        raise Refusal("refused", f"{what} must be an integer {span}, got {shown(value)}")
    return int(value)


def _written(value):
    """How a person would write a number as text ("8" for 8, np.int64(8) or 8.0), or the text itself; None for
    anything else (a bool is not a number here, and a huge number is no choice)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        x = float(value)
    except (OverflowError, ValueError, TypeError):
        return None
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else None


def one_of(value, choices, what):
    """`value` if it is one of `choices` (all text, or all integers: NumPy's too), as Python's str or int; a
    refusal otherwise, listing them as Python writes them, so that 8 and '8' are told apart.

    A choice of text that reads as a number (an ALiBi head, a number of bins: the page's Select holds text)
    refuses the number with the text to write instead.

    >>> import numpy as np
    >>> one_of(np.int64(15), (10, 15, 20), "bins")
    15
    >>> one_of(8, tuple("012345678"), "alibi_head")
    Traceback (most recent call last):
    app.refusal.TypeRefusal: alibi_head is text, one of '0', '1', '2', '3', '4', '5', '6', '7', '8': write '8', not 8
    """
    text = isinstance(choices[0], str)
    kind = "text" if text else "an integer"
    right_type = isinstance(value, str if text else numbers.Integral) and not isinstance(value, bool)
    if right_type and value in choices:
        return str(value) if text else int(value)
    listed = ", ".join(repr(c) for c in choices)
    if right_type:
        raise Refusal("refused", f"{what} must be one of {listed}, got {shown(value)}")
    meant = next((c for c in choices if _written(value) == str(c)), None)
    if meant is not None:
        raise TypeRefusal("refused", f"{what} is {kind}, one of {listed}: write {meant!r}, not {shown(value)}")
    raise TypeRefusal("refused", f"{what} must be {kind}, one of {listed}, got {shown(value)}")


def keys(value, f):
    """Link keys of field f's choices, none twice, in the order of the choices (a keys field of app/fields.py).

    >>> keys(["y", "T"], fields.BY_KEY["lock"])
    ['T', 'y']
    """
    if not isinstance(value, list | tuple):
        raise TypeRefusal("refused", f"{f.param} must be a list of link keys, got {shown(value)}")
    for key in value:
        if not isinstance(key, str) or key not in f.choices:
            raise Refusal("refused", f"{f.param} takes the link keys {', '.join(f.choices)}, got {shown(key)}")
    if len(set(value)) != len(value):
        raise Refusal("refused", f"{f.param} names a key twice: {shown(value)}")
    return [key for key in f.choices if key in value]


def checked_field(f, value):
    """`value` cleaned by the rules of its row `f` of app/fields.py (static/lesson.mjs `checked_field`).

    >>> import numpy as np
    >>> checked_field(fields.BY_KEY["T"], np.float32(0.5)), checked_field(fields.BY_KEY["names"], [" a", "b"])
    (0.5, ['a', 'b'])
    """
    if f.kind == "logits":
        return logits(value, f.param)
    if f.kind == "names":
        return clean_names(value)
    if f.kind == "real":
        return within(value, f.bounds, f.param, f.refusal)
    if f.kind == "index":
        return index(value, f.param)
    if f.kind == "count":
        return count(value, f.bounds, f.param, f.refusal)
    if f.kind == "notice":
        return notice(value)
    if f.kind == "choice":
        return one_of(value, f.choices, f.param)
    if f.kind == "flag":
        if not isinstance(value, bool):
            raise TypeRefusal("refused", f"{f.param} must be True or False, got {shown(value)}")
        return value
    if f.kind == "keys":
        return keys(value, f)
    raise ValueError(f"app/fields.py: field {f.key!r} has an unknown kind {f.kind!r}")


def checked_state(s):
    """A whole lesson state (the links' short keys) checked, as a new dict: every field by its row, then the
    counts together. A pure function, the twin of static/lesson.mjs `checked_state`; a `Refusal` when the
    state breaks a rule.

    >>> checked_state({**fields.default_state(), "y": 3})
    Traceback (most recent call last):
    app.refusal.Refusal: true_class 3 is out of range for 3 classes
    """
    if not isinstance(s, dict) or set(s) != set(STATE_KEYS):
        raise Refusal("refused", f"a lesson state has the keys {sorted(STATE_KEYS)}, got {shown(s)}")
    return checked_counts({f.key: checked_field(f, s[f.key]) for f in fields.FIELDS})


def checked_counts(s):
    """State `s`, whose fields are each clean, if its fields agree on the number of classes; a `Refusal`
    otherwise. What a single assignment can break (the other fields were checked when they were set)."""
    K = len(s["names"])
    if len(s["initial"]) != K or len(s["z"]) != K:
        raise Refusal("class_count", f"{K} class names but {len(s['initial'])} initial logits and "
                                     f"{len(s['z'])} logits (change them together: param.update)")
    if s["y"] >= K:
        raise Refusal("class_count", f"true_class {s['y']} is out of range for {K} classes")
    return s
