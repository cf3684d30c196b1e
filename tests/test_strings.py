"""app/strings.py: every language says everything the page can say, with the same numbers to fill in.

A string missing in one language shows as "undefined" on the page (a link that locked the function figure said
"Fixed by the link: undefined" in both languages until this test), and a placeholder missing in a translation
drops a number the learner needs.
"""

import string

import pytest

from app import fields
from app.strings import LANGS, TEXT
from tests.string_table import leaves


def placeholders(text):
    return sorted({name for _, name, _, _ in string.Formatter().parse(text) if name})


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_language_has_every_string_with_the_same_placeholders(lang):
    english, other = dict(leaves(TEXT["en"])), dict(leaves(TEXT[lang]))
    assert sorted(set(english) - set(other), key=str) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english), key=str) == [], f"only in {lang}"
    assert all(isinstance(text, str) for text in other.values())
    differ = [(path, placeholders(text), placeholders(other[path])) for path, text in english.items()
              if placeholders(text) != placeholders(other[path])]
    assert differ == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_a_link_can_lock_or_hide_has_a_name_to_say(lang):
    keys = set(fields.BY_KEY["lock"].choices) | set(fields.BY_KEY["hide"].choices)
    named = TEXT[lang]["lock_names"]
    assert sorted(keys - set(named)) == [] and sorted(set(named) - keys) == []
    assert all(named[key].strip() for key in keys)
