"""A served page that sends impossible values: nothing breaks, nothing is kept, and the page says so.

Values are forged in the browser, as a script (or a modified page) would: on the `lesson` model, which the
page's gatekeeper checks before anything reaches the server, and on the page's own models (sources,
controls), which the page's rules check before anything is written. Afterwards the server log holds no traceback,
the page and the Python lesson agree, every figure is exact, and other sessions never noticed.
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core
from app import fields, rules
from tests.browser import lessonpage as lp
from tests.browser.conftest import Page

# Tokens JSON cannot carry, decoded in the page.
DECODE = """(v) => {
  const map = {'__nan__': NaN, '__inf__': Infinity, '__-inf__': -Infinity, '__undefined__': undefined};
  const d = (x) => typeof x === 'string' && Object.hasOwn(map, x) ? map[x] : Array.isArray(x) ? x.map(d)
    : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, w]) => [k, d(w)])) : x;
  return d(v); }"""

FORGED_STATES = {
    "T of 400": {"T": 400},
    "T of NaN": {"T": "__nan__"},
    "T of infinity": {"T": "__inf__"},
    "logits of the wrong length": {"z": [1.0, 2.0]},
    "logits as text": {"z": "abc"},
    "a logit of 1e308": {"z": [1e308, 0.0, 0.0]},
    "a true class of 'abc'": {"y": "abc"},
    "a true class of true": {"y": True},
    "a true class out of range": {"y": 7},
    "look-alike names": {"names": ["a", "a\u200b", "c"]},
    "a right-to-left override": {"names": ["a\u202eb", "b", "c"]},
    "an HTML name and a blank one": {"names": ["<img src=x onerror=alert(1)>", " ", "c"]},
    "label smoothing of 0.9": {"eps": 0.9},
    "an unknown language": {"lang": "xx"},
    "lecture as text": {"lecture": "yes"},
    "a missing key": {"__drop__": "T"},
    "an unknown notice": {"notice": "zzz"},
    "a notice named like an object's own property": {"notice": "toString"},
    "a name Python's Unicode tables do not know": {"names": ["1", "\U0001ccf1", "c"]},
    "an extra key": {"extra": 1},
}
FORGED_WHOLE = {"null": None, "a number": 42, "a list": [1, 2, 3], "an empty object": {}}
FORGED_MODELS = [
    ("logits", "data", {"z": [1.0]}),
    ("logits", "data", {"x": [1, 2, 3]}),
    ("logits", "data", {"z": ["a", "b", "c"]}),
    ("temperature", "value", "__nan__"),
    ("temperature", "value", 400),
    ("true_class", "value", "abc"),
    ("units", "active", 5),
    ("label_smoothing", "value", -1),
    ("class_names", "value", "only,two"),
    ("class_names", "value", "a,b,\u202ec"),
    ("lang", "value", "xx"),
    ("lang", "value", "toString"),
    ("preset", "value", "eleven"),
    ("preset", "value", "toString"),
]


def forge_state(pg, changes):
    pg.evaluate(f"""([changes, drop]) => {{ const decode = {DECODE}; const m = ({lp.FIND})('lesson');
        const s = {{...m.state, ...decode(changes)}}; if (drop) delete s[drop]; m.state = s; }}""",
                [{k: v for k, v in changes.items() if k != "__drop__"}, changes.get("__drop__")])


def forge_whole(pg, value):
    pg.evaluate(f"(v) => {{ ({lp.FIND})('lesson').state = v; }}", value)


def forge_model(pg, name, attr, value):
    """Write a value into a page model as a script would; False when BokehJS's own property check refuses it
    at the setter (then the model keeps its value and the page never sees it)."""
    return pg.evaluate(f"""([n, a, v]) => {{ const decode = {DECODE};
        try {{ ({lp.FIND})(n)[a] = decode(v); return true; }} catch (e) {{ return false; }} }}""", [name, attr, value])


def clear_notice(p):
    """Clear the notice from Python (holding the document's lock, as the server does); the page follows."""
    p.explainer.document.add_next_tick_callback(lambda: setattr(p.lesson, "notice", ""))
    lp.wait_until(lambda: p.lesson.notice == "")
    lp.wait_state(p.pg, "(s) => s.notice === ''")  # the next forgery starts from what Python said last


def agree(p, timeout=10.0):
    """The page and the Python lesson hold the same valid lesson, and the page has drawn it exactly."""
    lp.wait_until(lambda: lp.state(p.pg) == p.lesson.state(), timeout=timeout)
    lp.settled(p.pg)
    s = lp.state(p.pg)
    z = np.array(s["z"])
    np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax(z, T=s["T"]), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(lp.data(p.pg, "neg_grad")["g"],
                               -core.grad_logits(z, s["y"], T=s["T"], label_smoothing=s["eps"]), rtol=1e-9,
                               atol=1e-12)
    loss = float(core.cross_entropy(z, s["y"], T=s["T"], label_smoothing=s["eps"]))
    assert f"{loss:.3f}" in lp.text(p.pg, "readout-loss")


def no_tracebacks(p):
    assert p.records.tracebacks(since=p.first) == []


def test_forged_lesson_states_are_refused_with_a_notice_and_other_sessions_never_notice(served_page, request,
                                                                                       new_page):
    """Each forged state is refused with a notice and the lesson stays as it was; a second session of the same
    server, its lesson dragged by its own learner, holds that lesson through all of them."""
    url, sessions, _ = request.getfixturevalue("served")
    quiet = new_page()
    quiet.pg.goto(url)
    lp.wait_ready(quiet.pg)
    quiet.explainer = sessions[-1]
    quiet.lesson = quiet.explainer.lesson
    lp.drag(quiet.pg, 0, 40)
    agree(quiet)  # the drag reaches Python once it has let go: what is kept is what both hold then
    kept = quiet.lesson.state()
    p = served_page
    before = p.lesson.state()
    for name, changes in {**FORGED_STATES, **{k: None for k in FORGED_WHOLE}}.items():
        if name in FORGED_WHOLE:
            forge_whole(p.pg, FORGED_WHOLE[name])
        else:
            forge_state(p.pg, changes)
        lp.wait_until(lambda: p.lesson.notice == "refused", timeout=10)
        agree(p)
        assert {**p.lesson.state(), "notice": ""} == before, name
        assert lp.text(p.pg, "notice") == "That change was refused; the lesson is as it was.", name
        clear_notice(p)
        agree(p)
    assert quiet.lesson.state() == kept == lp.state(quiet.pg)
    # The page refuses each one itself: none reaches the server, which hears only the valid lesson and its
    # notice (forged text on the wire is test_served_safety.py's).
    assert [r for r in p.records.records[p.first:] if "refused a lesson state" in r.getMessage()] == []
    no_tracebacks(p)
    lp.click(p.pg, "reset")
    agree(p)
    assert p.lesson.logits == [2.0, 1.0, 0.1]


@pytest.fixture(scope="module")
def forged_page(browser, served):
    """One served page for every forged model in turn (each is refused, and the page keeps the lesson it had):
    a page load costs ten times the test."""
    url, sessions, records = served
    p = Page(browser, own_context=True)
    p.pg.goto(url)
    lp.wait_ready(p.pg)
    lp.wait_joined(p.pg)
    p.explainer, p.records = sessions[-1], records
    p.lesson = p.explainer.lesson
    yield p
    p.close()


@pytest.mark.parametrize(("name", "attr", "value"), FORGED_MODELS)
def test_forged_page_models_are_checked_by_the_page(forged_page, name, attr, value):
    p = forged_page
    p.first = len(p.records.records)
    forge_model(p.pg, name, attr, value)
    agree(p)
    assert p.lesson.state()["z"] == [2.0, 1.0, 0.1], "nothing impossible was kept"
    assert p.errors == [] and p.dialogs == [], (p.errors, p.dialogs)
    no_tracebacks(p)


# ---- Hypothesis: random and hostile values on every model the page listens to ----------------------------

anything = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["__nan__", "__inf__", "__-inf__", "", "<b>x</b>", "\u202e", "a,a", "ko", "bits", "dark"])
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=12) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20)
state_changes = st.dictionaries(st.sampled_from(rules.STATE_KEYS), anything, min_size=1, max_size=3)
model_writes = st.tuples(st.sampled_from([("logits", "data"), ("temperature", "value"), ("true_class", "value"),
                                          ("label_smoothing", "value"), ("units", "active"), ("lang", "value"),
                                          ("class_names", "value"), ("preset", "value"), ("theme", "active")]),
                         anything)
# An example is a list of steps: writes, and "answer" (wait until Python has answered and the page agrees). The
# writes between two answers run in one JavaScript task, so no message from Python lands between them: which
# writes Python answers before the next is the example's, not the machine's load (the test once failed as
# Hypothesis's FlakyFailure: a failure its replay did not repeat).
step_lists = st.lists(st.one_of(state_changes.map(lambda c: ("state", c)), model_writes.map(lambda w: ("model", w)),
                                st.just(("answer", None))), min_size=1, max_size=5)

WRITE = f"""(writes) => {{ const decode = {DECODE}; const find = {lp.FIND};
  for (const [kind, w] of writes) {{
    if (kind === 'state') {{
      const m = find('lesson'); const s = {{...m.state, ...decode(w.changes)}};
      if (w.drop) delete s[w.drop];
      m.state = s;
    }} else {{
      try {{ find(w.name)[w.attr] = decode(w.value); }} catch (e) {{ /* BokehJS's setter refused it */ }}
    }}
  }} }}"""


def write_all(pg, writes):
    """Every write at once, in one JavaScript task: forged states on the lesson model, values on page models."""
    plain = []
    for kind, write in writes:
        if kind == "state":
            plain.append(["state", {"changes": {k: v for k, v in write.items() if k != "__drop__"},
                                    "drop": write.get("__drop__")}])
        else:
            (name, attr), value = write
            # The logits shaped like what the drawing tool writes, with anything inside. (A source with no column
            # at all makes BokehJS's own renderer assert for one frame before the page restores it: Bokeh's
            # column store, not the page, is what that would test.)
            plain.append(["model", {"name": name, "attr": attr, "value": {"z": value} if name == "logits" else value}])
    pg.evaluate(WRITE, plain)


def renames_on_python_only(write):
    """A forged state that switches the language and leaves the names: Python renames default names (Lesson's
    `_keep_whole`), the page's gatekeeper does not, so Python answers with a lesson of its own. A later write sent
    before that answer arrives is undone by it: test_a_late_answer_from_python_does_not_undo_a_newer_change."""
    kind, w = write
    return kind == "state" and w.get("lang") in fields.BY_KEY["lang"].choices and "names" not in w


def start_from(p, s):
    """Put the lesson back to s from Python (holding the document's lock, as the server does); the page follows."""
    p.explainer.document.add_next_tick_callback(lambda: p.lesson.set_state(s))
    lp.wait_until(lambda: p.lesson.state() == s)  # first: the page may agree with Python before the tick runs
    agree(p)


@pytest.fixture(scope="module")
def hostile_page(browser, request):
    url, sessions, records = request.getfixturevalue("served")
    context = browser.new_context(viewport={"width": 1280, "height": 960})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: m.type == "error" and errors.append(m.text))
    pg.goto(url)
    lp.wait_ready(pg)
    lp.wait_joined(pg)

    class P:
        pass

    p = P()
    p.pg, p.explainer, p.records, p.first, p.errors = pg, sessions[-1], records, len(records.records), errors
    p.lesson = p.explainer.lesson
    yield p
    context.close()


# Derandomized: the same 100 examples on every run and machine (until Hypothesis or this test changes), so a
# failure is found again by the next run; each example starts from the same lesson, whatever the last one left.
@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(step_lists)
def test_random_and_hostile_values_never_break_the_session(hostile_page, steps):
    p = hostile_page
    start_from(p, fields.default_state())
    p.errors.clear()  # the page lives across examples; each answers for its own
    batch = []
    for step in [*steps, ("answer", None)]:
        if step[0] != "answer":
            batch.append(step)
        if batch and (step[0] == "answer" or renames_on_python_only(step)):
            write_all(p.pg, batch)
            batch = []
            agree(p)
    p.pg.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")  # painted
    no_tracebacks(p)
    assert p.errors == [], p.errors
    s = p.lesson.state()
    assert all(math.isfinite(v) for v in s["z"]) and 0.01 <= s["T"] <= 100


# Not strict: whether the answer reaches the page after the newer commit is the server's timing. Written in two
# tasks, as here, it does most of the time; written in one task (write_all) it did in no run so far. Once the
# product is fixed this passes every time, and the mark can go.
@pytest.mark.xfail(strict=False, reason="a known race in the product: the page takes Python's answer to an older "
                                        "commit (its wire handler, on_wire in static/lesson.mjs) after it committed "
                                        "a newer one, which Python then keeps (app/explainer.py _from_page, _to_page)")
def test_a_late_answer_from_python_does_not_undo_a_newer_change(served_page):
    p = served_page
    forge_state(p.pg, {"lang": "ko"})  # valid: Python answers with the default names renamed (Lesson._keep_whole)
    forge_state(p.pg, {"theme": "dark"})  # committed before that answer arrives
    agree(p, timeout=3)
    assert p.lesson.state()["theme"] == "dark"
