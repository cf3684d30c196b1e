"""The Python twins (app/) and the JavaScript twins (static/) read links and names alike, in Chromium.

The page's modules are imported by Chromium itself (static/link.mjs and all it imports). The link parsers are
compared on generated text (Hypothesis), the name rules on odd names. The core, the actions and the links of
the shared fixture are compared under `node --test` (tests/js/twins.test.mjs), and so is the page's renderer,
the only one: its numbers against core's, every shown digit against tests/digits_oracle.py
(tests/js/lessons.test.mjs, tests/js/digits.test.mjs).
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import link, names, refusal, rules
from app.fields import FIELDS
from app.strings import TEXT
from tests import test_names
from tests.browser.chromium import module_page


@pytest.fixture(scope="module")
def js(browser):
    page = module_page(browser, ["link.mjs", "rules.mjs"])
    # The rules and the strings once, not with each example (the rules' table of look-alikes is large).
    page.evaluate("([r, s]) => { window.rules = r; window.strings = s; }", [rules.rules_data(), TEXT])
    yield page
    page.close()


# Link text as a hostile link or a hand could write it: the lesson's keys (app/fields.py) and others, values, every
# kind of percent escape (valid UTF-8, a lone byte, an overlong form, an encoded surrogate, a bad escape), "+",
# "=" inside values, empty fields and raw non-ASCII characters.
LINK_PIECES = [f.link for f in FIELDS if f.link] + [
    "bokeh-x", "?z", "=", "&", "&&", "+", "%", "%2", "%ZZ", "%2C", "%26", "%3D", "%EA%B0%80", "%FF", "%C0%80",
    "%ED%A0%80", "%F4%90%80%80", "1", "-2.5", "1e3", ",", "0.5", "ko", "bits", "dark", "a", "가", "é", "\u00a0"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(LINK_PIECES) | st.text(max_size=3), max_size=14).map("".join))
def test_link_twins_agree_on_any_text(js, text):
    got = js.evaluate("(t) => { const pairs = twin.link_pairs(t);"
                      " return [pairs, twin.parse_link(pairs, 'en', window.rules, window.strings)]; }", text)
    pairs = link.link_pairs(text)
    assert [list(p) for p in pairs] == got[0], text
    assert list(link.parse_link(pairs)) == got[1], text


NAMES = ["cat", " cat ", "", " ", "\u200b", "a\u202eb", "a\u2066b", "a\u0007", "a\nb", "x" * 40, "x" * 41, "ｃａｔ",
         "고양이", "고양이".encode().decode(), "\u1100\u1161", "👩\u200d💻", "a\u200db", "e\u0301", "\ufeffcat",
         "\u3000cat\u3000", "a\u00adb", "$$x$$", "<b>x</b>", 42, None, "a,b", "\U0001ccf1", "\ua7f1", "\U0001e030",
         "\ud800", "cat\u2800", "\u2800cat", "a\u3164b", "a  b", " a\uffa0\u3000b "]


def test_name_rules_twins(js):
    got = js.evaluate("""([names, rules]) => names.map((n) => { try { return ['ok', twin.clean_name(n, rules),
                       twin.name_key(String(n), rules)]; } catch (e) { return ['refused', e.key]; } })""",
                      [NAMES, rules.rules_data()])
    for name, js_out in zip(NAMES, got, strict=True):
        try:
            py = ["ok", names.clean_name(name), names.name_key(str(name))]
        except refusal.Refusal as e:
            py = ["refused", e.key]
        assert py == js_out, repr(name)
    pairs = [["a", "a\u200b"], ["cat", "ｃａｔ"], ["e\u0301", "é"], ["Cat", "cat"]]
    dup = js.evaluate("""([pairs, rules]) => pairs.map((p) => { try { twin.clean_names([...p, 'z'], rules);
                         return 'ok'; } catch (e) { return e.key; } })""", [pairs, rules.rules_data()])
    assert dup == ["name_duplicate", "name_duplicate", "name_duplicate", "ok"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(test_names.SPACED_NAME, st.sampled_from(test_names.BLANK_LOOKING + test_names.DRAWS_NOTHING),
       st.sampled_from(["start", "end", "space"]))
def test_a_blank_character_at_an_end_or_for_a_space_is_a_duplicate_on_both_sides(js, name, blank, where):
    # Issue 36: "cat" beside "cat" + U+2800, "a b" beside "a" + U+3164 + "b", were two classes on the page.
    variant = test_names.blank_variants(name, blank, where)
    if variant is None or where == "space" and blank in test_names.DRAWS_NOTHING:
        return
    got = js.evaluate("""(names) => { try { twin.clean_names(names, window.rules); return 'ok'; }
                         catch (e) { return e.key; } }""", [name, variant])
    with pytest.raises(refusal.Refusal) as e:
        names.clean_names([name, variant])
    assert got == e.value.key == "name_duplicate", (name, variant)
