"""What a lesson may hold: the limits of every value and the rules for class names.

The Python twin of static/rules.mjs. The character sets are written out as code-point ranges and handed to
the page as data (`rules_data()`). Names are compared after Unicode normalisation, which each runtime does
with its own tables (Python 3.11 has Unicode 14, a browser a newer one): both agree on every character both
know, since Unicode never changes the normalisation of an assigned character, so a character that Python's
tables do not know is refused on both sides. Every refusal is a `Refusal`: a ValueError whose `key` names
the reason in the string table (app/strings.py), so the page can say it in the learner's language.
"""

import math
import re
import unicodedata
from functools import cache

LOGIT_LIMIT = 100.0
T_BOUNDS = (0.01, 100.0)
EPS_BOUNDS = (0.0, 0.5)
K_BOUNDS = (2, 10)
NAME_MAX = 40  # code points: long enough for "고양이과 동물" or "golden retriever", short enough for an axis

# Stripped from both ends of a name: what either Python's str.strip() or JavaScript's trim() strips (so
# U+001C–001F and U+0085 from the one, the byte-order mark from the other).
SPACE = [(0x09, 0x0D), (0x1C, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
         (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
# Refused inside a name: control characters and line breaks (they break a table row or an axis label), and
# the comma, which separates names in the names box and in links ...
CONTROL = [(0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x2029)]
COMMA = ","
# ... and bidirectional controls, which can make "cat" display as "tac" or hide what follows.
BIDI = [(0x061C, 0x061C), (0x200E, 0x200F), (0x202A, 0x202E), (0x2066, 0x2069)]
# Allowed (emoji need the zero-width joiner) but ignored when names are compared, so that "a" and
# "a" + U+200B count as the same name: Unicode's Default_Ignorable_Code_Point set.
INVISIBLE = [(0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5),
             (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]

# The limits as the notices print them, written once here so both renderers show the same text.
FIELDS = {"limit": f"{LOGIT_LIMIT:g}", "min": str(K_BOUNDS[0]), "max": str(K_BOUNDS[1]), "name_max": str(NAME_MAX),
          "T_lo": f"{T_BOUNDS[0]:g}", "T_hi": f"{T_BOUNDS[1]:g}", "eps_lo": f"{EPS_BOUNDS[0]:g}",
          "eps_hi": f"{EPS_BOUNDS[1]:g}"}
CHOICES = {"units": ["nats", "bits"], "theme": ["light", "dark"]}
STATE_KEYS = ["z", "initial", "names", "T", "y", "eps", "units", "lang", "theme", "lecture", "notice"]
# A notice is "" or a key of the string table; these carry a detail after a colon ("link_bad:z, T").
NOTICES = ["at_limit", "clamped", "max_classes", "min_classes", "name_type", "name_blank", "name_long",
           "name_control", "name_bidi", "name_comma", "name_unknown", "name_duplicate", "class_count",
           "not_number", "not_finite", "logit_range", "T_range", "eps_range", "refused"]
NOTICES_WITH_DETAIL = ["link_bad", "link_copied", "link_shown"]


@cache
def unknown_ranges():
    """The code points Python's Unicode tables leave unassigned (Cn) or that are surrogates (Cs), as ranges."""
    ranges, start = [], None
    for o in range(0x110000):
        unknown = unicodedata.category(chr(o)) in ("Cn", "Cs")
        if unknown and start is None:
            start = o
        elif not unknown and start is not None:
            ranges.append((start, o - 1))
            start = None
    return ranges + ([(start, 0x10FFFF)] if start is not None else [])


@cache
def rules_data():
    """The rules as the page receives them: limits, character sets and choices."""
    return {"logit": LOGIT_LIMIT, "T": list(T_BOUNDS), "eps": list(EPS_BOUNDS), "K": list(K_BOUNDS),
            "name_max": NAME_MAX, "space": SPACE, "control": CONTROL, "comma": COMMA, "bidi": BIDI,
            "invisible": INVISIBLE, "unknown": unknown_ranges(), "fields": FIELDS, "choices": CHOICES,
            "state_keys": STATE_KEYS, "notices": NOTICES, "notices_with_detail": NOTICES_WITH_DETAIL}


class Refusal(ValueError):
    """A value the lesson cannot take; `key` names the reason in the string table."""

    def __init__(self, key, message):
        super().__init__(message)
        self.key = key


def _within(c, ranges):
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in ranges)


def _strip(text):
    start, end = 0, len(text)
    while start < end and _within(text[start], SPACE):
        start += 1
    while end > start and _within(text[end - 1], SPACE):
        end -= 1
    return text[start:end]


def name_key(name):
    """What two names are compared by: NFKC, invisible characters removed (so look-alikes are equal).

    >>> name_key("ｃａｔ") == name_key("cat\\u200b") == "cat"
    True
    """
    visible = "".join(c for c in name if not _within(c, INVISIBLE))
    return "".join(c for c in unicodedata.normalize("NFKC", visible) if not _within(c, INVISIBLE))


def clean_name(name):
    """A class name as the lesson keeps it: NFC, stripped; a `Refusal` when it breaks a rule.

    >>> clean_name("  고양이 ")
    '고양이'
    >>> clean_name("a\\u202eb")
    Traceback (most recent call last):
    app.rules.Refusal: class name 'a\\u202eb' holds a bidirectional control character (U+202E)
    """
    if not isinstance(name, str):
        raise Refusal("name_type", f"a class name must be text, got {name!r}")
    for c in name:  # before normalising: what Python's tables do not know, they cannot normalise alike
        if unicodedata.category(c) in ("Cn", "Cs"):
            raise Refusal("name_unknown", f"class name {name!r} holds U+{ord(c):04X}, which Unicode "
                                          f"{unicodedata.unidata_version} (this Python's tables) does not assign")
    text = _strip(unicodedata.normalize("NFC", name))
    for c in text:
        if _within(c, CONTROL):
            raise Refusal("name_control", f"class name {name!r} holds a control character (U+{ord(c):04X})")
        if _within(c, BIDI):
            raise Refusal("name_bidi",
                          f"class name {name!r} holds a bidirectional control character (U+{ord(c):04X})")
        if c == COMMA:
            raise Refusal("name_comma", f"class name {name!r} holds a comma, which separates names")
    if not _strip(name_key(text)):
        raise Refusal("name_blank", f"a class name must not be blank, got {name!r}")
    if len(text) > NAME_MAX:
        raise Refusal("name_long", f"a class name has at most {NAME_MAX} characters, got {len(text)}")
    return text


def clean_names(names):
    """Every name cleaned, at least two and at most ten, no two alike after `name_key`.

    >>> clean_names(["cat", "dog "])
    ['cat', 'dog']
    """
    if isinstance(names, str) or not isinstance(names, list | tuple):
        raise Refusal("name_type", f"class names must be a list of text, got {names!r}")
    lo, hi = K_BOUNDS
    if not lo <= len(names) <= hi:
        raise Refusal("class_count", f"the explainer shows {lo} to {hi} classes, got {len(names)} names")
    cleaned = [clean_name(n) for n in names]
    seen = {}
    for name in cleaned:
        key = name_key(name)
        if key in seen:
            raise Refusal("name_duplicate", f"class names must differ from each other: {seen[key]!r} and "
                                            f"{name!r} look the same")
        seen[key] = name
    return cleaned


def number(value, what):
    """A real number (not a bool, not text): NaN and ±inf are refused, with `what` in the message."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refusal("not_number", f"{what} must be a number, got {value!r}")
    x = float(value)
    if not math.isfinite(x):
        raise Refusal("not_finite", f"{what} must be a finite number, got {value!r}")
    return x


def logits(values, what="logits"):
    """Logits as floats: 2 to 10 finite numbers, each within ±LOGIT_LIMIT."""
    if isinstance(values, str) or not isinstance(values, list | tuple):
        raise Refusal("not_number", f"{what} must be a list of numbers, got {values!r}")
    lo, hi = K_BOUNDS
    if not lo <= len(values) <= hi:
        raise Refusal("class_count", f"the explainer shows {lo} to {hi} classes, got {len(values)} {what}")
    zs = [number(v, what) for v in values]
    if any(abs(z) > LOGIT_LIMIT for z in zs):
        raise Refusal("logit_range", f"every logit must lie within ±{LOGIT_LIMIT:g}, got {values!r}")
    return zs


# A number as people type it in a link or an option: digits, one point, an exponent. Each part can match a
# digit in only one way, so a long hostile string fails in linear time (an earlier form was quadratic).
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_number(text, what):
    """A finite number from text in the NUMBER form (no "1_0", "inf", "١" or spaces, which float() takes)."""
    if not NUMBER.fullmatch(text):
        raise Refusal("not_number", f"{what} must be a number such as 0.5 or -2, got {text[:40]!r}")
    return number(float(text), what)


def within(value, bounds, what, key):
    """A finite number within `bounds` (inclusive); the refusal's `key` names the reason in the string table."""
    x = number(value, what)
    if not bounds[0] <= x <= bounds[1]:
        raise Refusal(key, f"{what} must lie from {bounds[0]:g} to {bounds[1]:g}, got {value!r}")
    return x


def notice(value):
    """A notice: "" or a key of the string table, with a detail after a colon for the link notices."""
    if not isinstance(value, str):
        raise Refusal("refused", f"a notice is text, got {value!r}")
    key, colon, _ = value.partition(":")
    if value and not (key in NOTICES and not colon or key in NOTICES_WITH_DETAIL):
        raise Refusal("refused", f"unknown notice {value[:40]!r}")
    return value
