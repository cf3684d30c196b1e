"""app/strings.py: every language says everything the page can say, with the same numbers to fill in.

A string missing in one language shows as "undefined" on the page (a link that locked the function figure said
"Fixed by the link: undefined" in both languages until this test), and a placeholder missing in a translation
drops a number the learner needs.
"""

import re
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


def tags(text):
    return sorted(re.findall(r"</?[a-z][^>]*>", text))


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_language_has_the_same_html_as_english(lang):
    """A translation that drops a <sub> writes p<sub>y</sub> as "py"; one that drops a </p> breaks the prose."""
    english, other = dict(leaves(TEXT["en"])), dict(leaves(TEXT[lang]))
    assert [(path, tags(text), tags(other[path])) for path, text in english.items()
            if tags(text) != tags(other[path])] == []


# Each language's quotation marks around a control's name in the guided path.
QUOTES = {"en": "“”", "ko": "“”", "es": "«»"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_control_the_path_names_in_quotes_is_named_as_the_page_labels_it(lang):
    """“Press “Fit T on validation”” must name the button as it reads (the English hint said “The classifier's T”
    of a slider labelled “The classifier's temperature T”); a label may be quoted without its colon or its
    parenthesis ("Top-p" for "Top-p (1: off)")."""
    start, end = QUOTES[lang]
    shown = {text for _, text in leaves(TEXT[lang])}
    shown |= {text.rstrip(":") for text in shown} | {text.split(" (")[0] for text in shown}
    quoted = [(path, q) for path, text in leaves(TEXT[lang]["tour_steps"])
              for q in re.findall(f"{start}([^{end}]+){end}", text) if "{" not in q]
    assert quoted and [(path, q) for path, q in quoted if q not in shown] == []
