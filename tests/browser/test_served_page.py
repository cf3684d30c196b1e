"""The served page (app/page.py): one explainer document for every visitor, sent in the page, and a session of the
wire alone, joined to the page's by static/session_bridge.mjs. What each visitor sees and sends is the lesson's
(the served tests everywhere else drive it); here, that the design holds: the page's explainer is the same bytes
for two visitors with different links, a session's document is the wire and its root, the page loads BokehJS and
its widgets and no other script, the two lessons agree from the first frame, and Python's answer reaches the page
through the bridge.
"""

import re
import urllib.request

from tests.browser import lessonpage as lp

DOCS_JSON = re.compile(r"const docs_json = '(\{.*?\})';", re.S)


def explainer_json(url):
    html = urllib.request.urlopen(url, timeout=60).read().decode("utf-8")
    (found,) = DOCS_JSON.findall(html)
    return found


def test_two_visitors_get_one_explainer_and_sessions_of_a_wire(served, new_page):
    url, sessions, _ = served
    assert explainer_json(f"{url}?z=1,2,3&T=0.5") == explainer_json(f"{url}?y=2&theme=dark")
    p = new_page()
    p.pg.goto(f"{url}?z=-1,3,0.5&T=0.5&y=2")
    lp.wait_ready(p.pg)
    lp.wait_until(lambda: p.pg.evaluate("() => Bokeh.documents.length") == 2)
    models = p.pg.evaluate("""() => Bokeh.documents.map(d => [...d._all_models.values()]
        .map(m => `${m.type.split('.').pop()}:${m.name ?? ''}`).sort())""")
    session = [types for types in models if "WireModel:session_wire" in types]
    assert session == [["CustomJS:", "Div:session", "DocumentConfig:", "WireModel:session_wire"]], models[0][:8]
    assert min(map(len, models)) == 4 and max(map(len, models)) > 500, "the explainer is the other document"
    s = lp.state(p.pg)
    assert (s["z"], s["T"], s["y"]) == ([-1, 3, 0.5], 0.5, 2), "the page read its own link"
    scripts = {r.split("?")[0].rsplit("/static/", 1)[-1] for r in p.requests if ".js" in r.split("?")[0][-4:]}
    assert scripts == {"js/bokeh.min.js", "js/bokeh-widgets.min.js"}, "only the scripts the explainer runs"
    lp.wait_until(lambda: sessions[-1].lesson.state() == lp.state(p.pg))
    assert p.errors == []


def test_pythons_answer_reaches_the_page_through_the_bridge(served_page):
    p = served_page
    p.explainer.document.add_next_tick_callback(lambda: setattr(p.lesson, "T", 3.0))
    lp.wait_until(lambda: lp.state(p.pg)["T"] == 3.0)
    assert lp.data(p.pg, "settings")["T"] == [3.0], "the page drew Python's lesson"


def test_a_change_python_makes_before_the_page_joins_its_session_reaches_the_page(served, new_page):
    url, sessions, _ = served
    sessions.on_open.append(lambda session: setattr(session.lesson, "T", 3.0))
    try:
        p = new_page()
        p.pg.goto(url)
        lp.wait_ready(p.pg)
    finally:
        sessions.on_open.clear()
    lp.wait_until(lambda: lp.state(p.pg)["T"] == 3.0, timeout=15)
    assert sessions[-1].lesson.T == 3.0 and lp.data(p.pg, "settings")["T"] == [3.0]
    assert p.errors == []
