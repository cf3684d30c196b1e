"""The fixture rules.json for `node --test`: the rules as the page receives them, and names with Python's answers.

build() makes it; tests/js/fixtures.py writes it.

tests/js/rules.test.mjs (run by `node --test tests/js/`) gives static/rules.mjs these rules and checks that
its name_key and clean_name answer as app/names.py does for every name here.
"""

import json
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from app.names import blank_ranges, clean_name, confusables, name_key  # noqa: E402
from app.refusal import Refusal  # noqa: E402
from app.rules import rules_data  # noqa: E402
from app.strings import TEXT  # noqa: E402

TRICKY = [
    # Latin and its look-alikes: Cyrillic, Greek, fullwidth, mathematical, ligatures, rn/m, digits.
    "cat", "сat", "dog", "dοg", "paypal", "pаypal", "ｃａｔ", "𝐜𝐚𝐭", "ﬁsh", "fish", "rn", "m", "ｍ", "l", "I", "1",
    "0", "O", "Ο", "О", "golden retriever", "Cat", "ǅ", "ǆ", "ⅿ", "℃", "Å", "Å", "Å",
    # Combining marks: composed and decomposed, marks in either order, marks alone after a base.
    "é", "e\u0301", "a\u0323\u0307", "a\u0307\u0323", "ạ̇", "e\u0301\u0301", "o\u0338", "\u0301a",
    "e\u200b\u0301", "ǘ", "ᾯ",
    # Hangul: syllables, conjoining jamo, compatibility jamo, halfwidth, fillers.
    "고양이", "개", "새", "물고기", "\u1100\u1161", "가", "ㄱㅏ", "ﾡ", "\u110b\u1175", "이", "ᄋ", "ㅇ", "o",
    "\u3164a", "a\u115f", "\u1160",
    # Other scripts: Arabic, Hebrew, Devanagari, Thai, CJK (and a compatibility ideograph), Japanese.
    "قطة", "أ", "\u0627\u0654", "חתול", "बिल्ली", "แมว", "猫", "\uf900", "豈", "ねこ", "ネコ", "ｱ",
    # Emoji: ZWJ sequences, skin tones, flags, keycaps, variation selectors, tags.
    "👨\u200d👩\u200d👧", "👨👩👧", "👍🏽", "👍", "🇰🇷", "1\ufe0f\u20e3", "❤\ufe0f", "❤",
    "🏴\U000e0067\U000e0062\U000e007f",
    # Blank and almost blank: refused, or not.
    "\u2800", "\u2800\u2800", "\u3164", "\u115f\u1160", "\uffa0", "\u200b", "\u200d", "\u00ad", "\u2060",
    "\U0001d159", "\u180e", "\ufeff", " \u3000 ", "a\u2800", "\u2800a", "\u0600", "\U000e0020",
    # Blank characters at a name's ends or standing for a space draw as the name without them, or with a space.
    "cat\u2800", "\u2800cat", "\u3164cat\uffa0", "a\u3164b", "a\uffa0b", "a\u115fb", "a\u1160b", "a\U0001d159b",
    "a b", "a  b", "a \u2800 b", "a\u00a0b", "a\u3000b", "a\u1680b", "고양이\u3164과", "고양이 과",
    # Refused for other reasons.
    "a,b", "a\u202eb", "a\nb", "\U00050000",
]


def answer(name):
    """name_key and clean_name's answer: the kept name, or the refusal's key."""
    try:
        return {"name": name, "key": name_key(name), "clean": clean_name(name), "refusal": None}
    except Refusal as e:
        return {"name": name, "key": name_key(name), "clean": None, "refusal": e.key}


def singles():
    """Every character the table maps, every blank one (`blank_ranges`) but the control characters (a line
    feed would split the keys; a name refuses them first), and every assigned character NFKD changes but every
    37th Hangul syllable only (NFD splits them all alike, into jamo), in code-point order."""
    chars = set(confusables())
    chars |= {chr(o) for lo, hi in blank_ranges() for o in range(lo, hi + 1)
              if unicodedata.category(chr(o)) not in ("Cn", "Cs", "Cc")}
    chars |= {chr(o) for o in range(0x110000) if unicodedata.category(chr(o)) not in ("Cn", "Cs")
              and unicodedata.normalize("NFKD", chr(o)) != chr(o) and not 0xAC01 <= o <= 0xD7A3}
    chars |= {chr(o) for o in range(0xAC00, 0xD7A4, 37)}
    return "".join(sorted(chars))


def build():
    names = list(dict.fromkeys(TEXT["en"]["class_names"] + TEXT["ko"]["class_names"] + TRICKY))
    chars = singles()
    keys = [name_key(c) for c in chars]
    assert not any("\n" in k for k in keys)
    out = {
        "produced_by": "tests/js/make_fixture.py",
        "python_unicode": unicodedata.unidata_version,
        "rules": rules_data(),
        "names": [answer(n) for n in names],
        # One character each, with its name_key: the keys joined by LF, in the order of "singles".
        "singles": chars,
        "single_keys": "\n".join(keys),
    }
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"
