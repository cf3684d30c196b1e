"""Refusals: a value a lesson cannot take, said in one line whatever its size.

Every check of a value (app/rules.py, app/names.py, the notebook's methods) raises a `Refusal`: a ValueError
whose `key` names the reason in the string table (app/strings.py), so the page can say it in the learner's
language. A message shows the refused value by `shown`, which cuts it to a line.
"""

import builtins
import reprlib

import numpy as np


class Refusal(ValueError):
    """A value the lesson cannot take; `key` names the reason in the string table."""

    def __init__(self, key, message):
        super().__init__(message)
        self.key = key


class TypeRefusal(Refusal, TypeError):
    """A value of the wrong type (text for a number, a number for text): a `Refusal` and a TypeError both.

    >>> isinstance(TypeRefusal("not_number", "T must be a number"), ValueError | TypeError)
    True
    """


class _Shown(reprlib.Repr):
    """reprlib's short repr, cut after the first characters and safe for what it cannot show in full."""

    def __init__(self):
        super().__init__()
        self.maxstring, self.maxlist, self.maxtuple, self.maxlevel, self.maxother = 40, 6, 6, 2, 40
        self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = self.maxarray = 6
        self.fillvalue = "…"

    def repr_str(self, x, level):
        # The first characters only (reprlib keeps the last ones too), and at most n of their repr; fewer
        # inside a list, whose six items must fit a line too.
        n = self.maxstring if level >= self.maxlevel else self.maxstring // 4
        s = builtins.repr(x[:n])
        if len(x) > n or len(s) > n + 2:
            s = s[:n] + self.fillvalue + s[-1]
        return s

    repr_bytes = repr_bytearray = repr_str

    def repr_int(self, x, level):
        # A huge int has no decimal repr (Python refuses past 4300 digits) and would take long to write.
        return f"<an integer of {x.bit_length()} bits>" if x.bit_length() > 128 else super().repr_int(x, level)

    def repr_ndarray(self, x, level):
        return f"<array of shape {getattr(x, 'shape', '?')} and dtype {getattr(x, 'dtype', '?')}>"


_SHOWN = _Shown()
_SIZED = {str: "characters", bytes: "bytes", bytearray: "bytes", list: "items", tuple: "items", dict: "items",
          set: "items", frozenset: "items"}


def shown(value):
    """A value as a refusal shows it: its first characters, and its size when it was cut.

    A refused value can be huge (a 50 MB name, a million logits); the message stays a line.

    >>> shown("a" * 4_000_000)
    "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…' (4000000 characters)"
    >>> shown([1.5, "cat"]), shown(10 ** 10_000)
    ("[1.5, 'cat']", '<an integer of 33220 bits>')
    """
    text = _SHOWN.repr(value)
    unit = next((u for t, u in _SIZED.items() if isinstance(value, t)), None)
    if not unit or _SHOWN.fillvalue not in text:
        return text
    return f"{text} ({len(value)} {unit if len(value) != 1 else unit[:-1]})"


def sequence(values, must, key):
    """`values` if it is a list, a tuple or a 1-D NumPy array; a `TypeRefusal` saying `must` otherwise."""
    if isinstance(values, np.ndarray) and values.ndim == 1 or isinstance(values, list | tuple):
        return values
    raise TypeRefusal(key, f"{must}, got {shown(values)}")


def items(values):
    """The items as Python objects: an array's float32, int64 or str_ become float, int or str (`.tolist()`).
    Called after the length is checked, so a huge array is never converted."""
    return values.tolist() if isinstance(values, np.ndarray) else values
