"""The Python twins (app/) and the JavaScript twins (static/) write the same page for the same lesson.

The whole bundle the page runs (app/bundle.py) is loaded into Chromium as one module. On the states of
tests/twin_cases.py Python's `frame` and the bundle's must agree: numbers to 1e-12, every string exactly. The
link parsers are compared on generated text (Hypothesis), the name rules on odd names. The core, the actions
and the links of the shared fixture are compared under `node --test` (tests/js/twins.test.mjs).
"""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import frame, link, rules
from app.bundle import bundle
from app.document import inputs_html
from app.frame import VIEW
from app.readouts import notice_html
from app.strings import TEXT
from tests.browser.chromium import module_page
from tests.twin_cases import HAND, STATES, base_state


@pytest.fixture(scope="module")
def js(browser):
    page = module_page(browser, bundle())
    yield page
    page.close()


def assert_same(py, got, where):
    """Equal structure; strings and integers exactly, floats to 1e-12 of the larger of the two."""
    if isinstance(py, dict):
        assert isinstance(got, dict) and py.keys() == got.keys(), (where, set(py) ^ set(got or {}))
        for key in py:
            assert_same(py[key], got[key], f"{where}.{key}")
    elif isinstance(py, list | tuple):
        assert isinstance(got, list) and len(py) == len(got), (where, py, got)
        for k, (a, b) in enumerate(zip(py, got, strict=True)):
            assert_same(a, b, f"{where}[{k}]")
    elif isinstance(py, float) and not isinstance(py, bool):
        assert isinstance(got, int | float), (where, py, got)
        assert (math.isinf(py) and py == got) or abs(py - got) <= 1e-12 * max(abs(py), abs(got)) + 1e-300, \
            (where, py, got)
    else:
        assert py == got, (where, py, got)


def test_matrix_is_wide():
    assert len(STATES) >= 200
    Ks = {len(s["z"]) for s in STATES}
    assert Ks == set(range(2, 11))
    assert {0.01, 100.0} <= {s["T"] for s in STATES} and any(s["eps"] == 0.5 for s in STATES)
    assert {"en", "ko"} == {s["lang"] for s in STATES} and {"nats", "bits"} == {s["units"] for s in STATES}


@pytest.fixture(scope="module")
def js_frames(js):
    return js.evaluate("([states, strings, view]) => states.map((s) => twin.frame(s, strings[s.lang], view))",
                       [STATES, TEXT, VIEW])


@pytest.mark.parametrize("i", range(len(STATES)))
def test_frame_twins_draw_the_same(js_frames, i):
    s = STATES[i]
    assert_same(frame.frame(s, TEXT[s["lang"]]), js_frames[i], f"state {i}")


def test_inputs_and_notice_twins_write_the_same_html(js):
    """The logit inputs and the notice are written by Python at start and by the page later: the same HTML."""
    states = STATES[:len(HAND)] + STATES[len(HAND)::9]
    got = js.evaluate("""([states, strings, rules]) => states.map((s) => [
        twin.inputs_html(s, strings[s.lang], rules), twin.notice_html(s, strings[s.lang], rules.fields)])""",
                      [states, TEXT, rules.rules_data()])
    for s, (inputs, notice) in zip(states, got, strict=True):
        t = TEXT[s["lang"]]
        assert inputs == inputs_html(s, t), s
        assert notice == notice_html(s, t, rules.FIELDS), s
    assert any(n for _, n in got) and any("&lt;b&gt;" in n for _, n in got)  # a notice with a link's escaped keys


# Equal logits give exact decimals (p = 1/K), so −∂L/∂z and y′ land on display ties: where the twins must sum
# in the same order to show the same digits (ten equal logits, ε = 0.25, T = 2: −∂L/∂z = 0.3375 → 0.338).
NICE = [base_state([0.0] * K, T=T, y=y, eps=eps) for K in range(2, 11) for eps in (0.0, 0.05, 0.1, 0.2, 0.25, 0.5)
        for T in (0.5, 1.0, 2.0, 4.0) for y in sorted({0, 1, K - 1})]


def test_twins_show_the_same_digits_at_exact_decimal_ties(js):
    got = js.evaluate("([states, strings, view]) => states.map((s) => twin.frame(s, strings[s.lang], view).readouts)",
                      [NICE, TEXT, VIEW])
    for s, readouts in zip(NICE, got, strict=True):
        assert frame.frame(s, TEXT["en"])["readouts"] == readouts, s
    # hand: y′_y = 1 − 0.25 + 0.025 = 0.775, p_y = 0.1, so −∂L/∂z_y = (0.775 − 0.1)/2 = 0.3375, shown 0.338.
    ten = NICE.index(base_state([0.0] * 10, T=2.0, y=1, eps=0.25))
    assert "<td>0.338</td></tr>" in got[ten]["probs"].split('<tr class="true">')[1]


def test_every_frame_is_finite_and_one_row_per_class(js_frames):
    for s, f in zip(STATES, js_frames, strict=True):
        K = len(s["z"])
        for name, source in f["sources"].items():
            if name != "settings":
                assert {len(v) for v in source.values()} == {K}, name
        for column in ("p", "g", "y1", "head"):
            values = f["sources"]["probs" if column == "p" else "neg_grad"][column]
            assert all(math.isfinite(v) for v in values), (column, values)


def test_subnormal_probabilities_show_their_exact_digits(js_frames):
    # hand (mpmath): exp(log_softmax([0, −744])[1]) = e^−744 = 7.67×10⁻³²⁴; e^−743 = 2.09×10⁻³²³. The doubles
    # p themselves are 9.88e-324 and 1.98e-323: subnormal, off in the second digit.
    assert "7.67×10<sup>−324</sup>" in js_frames[5]["readouts"]["probs"]
    assert "2.09×10<sup>−323</sup>" in js_frames[6]["readouts"]["probs"]
    assert frame.frame(STATES[5], TEXT["en"])["readouts"]["probs"] == js_frames[5]["readouts"]["probs"]


# Link text as a hostile link or a hand could write it: keys and values from the lesson's and beyond, every
# kind of percent escape (valid UTF-8, a lone byte, an overlong form, an encoded surrogate, a bad escape), "+",
# "=" inside values, empty fields and raw non-ASCII characters.
LINK_PIECES = ["z", "z0", "T", "y", "names", "eps", "units", "lang", "lecture", "theme", "bokeh-x", "?z", "=", "&",
               "&&", "+", "%", "%2", "%ZZ", "%2C", "%26", "%3D", "%EA%B0%80", "%FF", "%C0%80", "%ED%A0%80",
               "%F4%90%80%80", "1", "-2.5", "1e3", ",", "0.5", "ko", "bits", "dark", "a", "가", "é", "\u00a0"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(LINK_PIECES) | st.text(max_size=3), max_size=14).map("".join))
def test_link_twins_agree_on_any_text(js, text):
    got = js.evaluate("([t, rules, strings]) => { const pairs = twin.link_pairs(t);"
                      " return [pairs, twin.parse_link(pairs, 'en', rules, strings)]; }",
                      [text, rules.rules_data(), TEXT])
    pairs = link.link_pairs(text)
    assert [list(p) for p in pairs] == got[0], text
    assert list(link.parse_link(pairs)) == got[1], text


NAMES = ["cat", " cat ", "", " ", "\u200b", "a\u202eb", "a\u2066b", "a\u0007", "a\nb", "x" * 40, "x" * 41, "ｃａｔ",
         "고양이", "고양이".encode().decode(), "\u1100\u1161", "👩\u200d💻", "a\u200db", "e\u0301", "\ufeffcat",
         "\u3000cat\u3000", "a\u00adb", "$$x$$", "<b>x</b>", 42, None, "a,b", "\U0001ccf1", "\ua7f1", "\U0001e030",
         "\ud800"]


def test_name_rules_twins(js):
    got = js.evaluate("""([names, rules]) => names.map((n) => { try { return ['ok', twin.clean_name(n, rules),
                       twin.name_key(String(n), rules)]; } catch (e) { return ['refused', e.key]; } })""",
                      [NAMES, rules.rules_data()])
    for name, js_out in zip(NAMES, got, strict=True):
        try:
            py = ["ok", rules.clean_name(name), rules.name_key(str(name))]
        except rules.Refusal as e:
            py = ["refused", e.key]
        assert py == js_out, repr(name)
    pairs = [["a", "a\u200b"], ["cat", "ｃａｔ"], ["e\u0301", "é"], ["Cat", "cat"]]
    dup = js.evaluate("""([pairs, rules]) => pairs.map((p) => { try { twin.clean_names([...p, 'z'], rules);
                         return 'ok'; } catch (e) { return e.key; } })""", [pairs, rules.rules_data()])
    assert dup == ["name_duplicate", "name_duplicate", "name_duplicate", "ok"]
