"""The Python twins (app/) and the JavaScript twins (static/) write the same page for the same lesson.

The whole bundle the page runs (app/bundle.py) is loaded into Chromium as one module. On a matrix of
states (K from 2 to 10, ε, both ends of T, clipped arrows, subnormal probabilities, odd names, both units
and both languages) Python's `frame` and the bundle's must agree: numbers to 1e-12, every string exactly.
The actions, the link parser and the name rules are compared the same way.
"""

import math

import numpy as np
import pytest

from app import actions, frame, link, rules
from app.bundle import bundle
from app.document import inputs_html
from app.frame import VIEW
from app.readouts import notice_html
from app.strings import TEXT
from tests.browser.chromium import module_page

ODD = ["<img src=x onerror=alert(1)>", "</script>", "$$\\alpha$$", "a$&b", "\"q'&", "고양이", "ねこ", "x<y",
       "가" * 40, "a b"]


def base_state(z, names=None, **kw):
    K = len(z)
    lang = kw.pop("lang", "en")
    return {"z": list(z), "initial": list(z), "names": names or TEXT[lang]["class_names"][:K], "T": 1.0, "y": 0,
            "eps": 0.0, "units": "nats", "lang": lang, "theme": "light", "lecture": False, "notice": "", **kw}


HAND = [
    base_state([2.0, 1.0, 0.1]),                                                # the SPEC's default lesson
    base_state([2.0, 1.0]),                                                     # two classes: the sigmoid
    base_state(actions.TEN),                                                    # ten classes
    base_state([0.0] * 5),                                                      # knows nothing: ln K
    base_state([2.0, 1.0, 0.1, -0.5], eps=0.1),                                 # SPEC: gap 3.61, floor 0.349
    base_state([0.0, -7.44], T=0.01, y=1),                                      # p = 7.67e-324, subnormal
    base_state([0.0, -7.43], T=0.01, y=1),                                      # p = 2.09e-323
    base_state([100.0, -100.0, 0.0], T=0.01, y=1),                              # huge loss, clipped arrows
    base_state([100.0, 100.0, -100.0], T=100.0, y=2, eps=0.5, units="bits"),
    base_state([2.0, 1.0, 0.1], names=ODD[:3], y=1, eps=0.2, lang="ko"),
    base_state([2.0, 1.0, 0.1, 3.0, -1.0], names=ODD[3:8], y=4, units="bits"),
    base_state([-100.0, 100.0], T=0.01, notice="at_limit"),
    base_state([1.0, 2.0, 3.0], notice="link_bad:z, <b>q</b>"),
]


def random_states(n=230, seed=20261201):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        K = int(rng.integers(2, 11))
        scale = float(10 ** rng.uniform(-1, 2))
        z = np.clip(rng.standard_normal(K) * scale, -100, 100).round(int(rng.integers(0, 15))).tolist()
        lang = ["en", "ko"][i % 2]
        names = None if i % 3 else [ODD[k % len(ODD)] + ("" if k < len(ODD) else str(k)) for k in range(K)]
        out.append(base_state(
            z, names=names, T=float(10 ** rng.uniform(-2, 2)), y=int(rng.integers(K)),
            eps=float(rng.choice([0.0, 0.0, 0.01, 0.1, 0.3, 0.5])), units=["nats", "bits"][i % 4 == 3], lang=lang))
    return out


STATES = HAND + random_states()

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


ACTION_CALLS = """([states, rules, strings]) => states.map((s) => ({
  add_one: twin.add_one(s, rules), reset: twin.reset(s), add_class: twin.add_class(s, rules, strings),
  remove_class: twin.remove_class(s, rules),
  ...Object.fromEntries(twin.PRESETS.map((p) => [`preset_${p}`, twin.preset(s, p, strings)])),
  set_lang: twin.set_lang(s, s.lang === 'en' ? 'ko' : 'en', strings),
}))"""


def python_actions(s):
    out = {"add_one": actions.add_one(s), "reset": actions.reset(s), "add_class": actions.add_class(s),
           "remove_class": actions.remove_class(s)}
    out.update({f"preset_{p}": actions.preset(s, p) for p in actions.PRESETS})
    out["set_lang"] = actions.set_lang(s, "ko" if s["lang"] == "en" else "en")
    return out


def test_action_twins_agree_at_every_limit(js):
    near_limit = [base_state([99.5, 0.0, -3.0]), base_state(actions.TEN), base_state([1.0, 2.0], y=1),
                  base_state(actions.TEN[:9], names=TEXT["en"]["class_names"][1:10])]
    states = near_limit + STATES[::7]
    got = js.evaluate(ACTION_CALLS, [states, rules.rules_data(), TEXT])
    for s, js_out in zip(states, got, strict=True):
        assert python_actions(s) == js_out, s
    assert got[0]["add_one"]["notice"] == "at_limit" and got[1]["add_class"]["notice"] == "max_classes"
    assert got[2]["remove_class"]["notice"] == "min_classes"
    assert got[3]["add_class"]["names"][-1] == "cat"  # the one default name no class uses


MALFORMED = [
    "z=abc", "z=", "z=1", "z=1,2,3,4,5,6,7,8,9,10,11", "z=nan,1,2", "z=1,inf,2", "z=1e999,1,2", "z=101,0,0",
    "z=1,,2", "z=0x10,1,2", "z=1_0,1,2", "z= 1,2,3", "T=0", "T=-1", "T=1000", "T=NaN", "T=", "T=1e-3",
    "T=abc", "y=3", "y=-1", "y=1.5", "y=abc", "y=99", "names=a,a", "names=a,a%E2%80%8B,c", "names=,b,c",
    "names=%20,b,c", "names=a%E2%80%AEb,c,d", "names=a%07,b,c", "names=" + "x" * 41 + ",b,c",
    "names=a,b,c,d,e,f,g,h,i,j,k", "eps=0.6", "eps=-0.1", "eps=x", "units=joules", "lang=fr", "theme=blue",
    "lecture=yes", "lecture=2", "q=1", "z=1,2,3&z=4,5,6", "T=2&T=3", "%3Cscript%3E=1", "z=1,2&names=a,b,c",
    "y=2&z=1,2", "=1", "z", "T=1&&&y=0&unknown",
    # Links that broke a served session in Panel's own query parser, before the app's parser ran, or that the
    # two parsers read differently (issue 13): non-ASCII digits, a value past Python's 4,300-digit int limit,
    # a leading "?", undecodable escapes, more fields than any lesson has (Tornado refused 1,000 with a 400).
    "y=%C2%B2", "T=%E2%91%A0", "z=1,2,3&y=" + "1" * 4301, "?z=1,2,3", "z=%ZZ,1,2", "names=%FF,b,c", "%FF=1",
    "&".join(f"f{i}=1" for i in range(1200)), "z=1,2,3&" + "&".join(["T=2"] * 70), "z=1,2,3&z0=1,2",
]
VALID = ["z=-1,3,0.5&T=0.5&y=2", "z=1,2,3&z0=0,0,0", "z0=1,2,3&names=a,b,c", "z0=1,2", "T=1&&&&&&&&y=0",
         "z=2,1,0.1", "names=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E,b,c", "lang=ko",
         "lang=ko&names=x,y", "z=1,2&names=a,b&y=1&eps=0.1&units=bits&theme=dark&lecture=1", "", "T=100",
         "T=0.01&z=100,-100", "bokeh-absolute-url=x&T=2", "z=%2B1,.5,5.&T=1E-1", "names=a,b"]


def test_link_twins_parse_alike(js):
    texts = MALFORMED + VALID
    got = js.evaluate("([texts, rules, strings]) => texts.map((t) => "
                      "twin.parse_link(twin.link_pairs(t), 'en', rules, strings))",
                      [texts, rules.rules_data(), TEXT])
    for text, js_out in zip(texts, got, strict=True):
        state, refused = link.parse_link(link.link_pairs(text))
        assert [state, refused] == js_out, text
        assert (text in MALFORMED) == bool(refused), (text, refused)
    assert len(MALFORMED) >= 40


def test_link_of_round_trips(js):
    states = STATES[::5] + [{**STATES[0], "initial": [0.0, -1.0, 7.5]}]  # z0: where a reset returns
    got = js.evaluate("([states, strings]) => states.map((s) => twin.link_of(s, strings))", [states, TEXT])
    for s, text in zip(states, got, strict=True):
        back, refused = link.parse_link(link.link_pairs(text))
        assert refused == [], text
        assert {**back, "notice": s["notice"]} == s, text


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
