"""The explainer taken to class: inside examples/course_page.html's iframe, with names a person typed, and the
served app inside a course page of another site (Bokeh's `server_document`).

The exported pages are opened from disk with every non-file request refused: a USB stick, no network.
"""

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from tests.browser import lessonpage as lp

COURSE_PAGE = Path(__file__).resolve().parents[2] / "examples" / "course_page.html"
ODD_NAMES = ["<b>x</b>", "\"quote'", "고양이"]

# Every element the page draws, shadow roots included (Bokeh renders each widget in a shadow root).
DEEP = """(root) => { const out = []; const walk = (n) => { for (const e of n.querySelectorAll('*')) {
  out.push(e); if (e.shadowRoot) walk(e.shadowRoot); } }; walk(root); return out; }"""


def softmax(z, T):
    """By hand, independently of core: exp of the shifted logits over their sum."""
    u = np.asarray(z, dtype=float) / T
    e = np.exp(u - u.max())
    return e / e.sum()


def frame_origin(pg):
    """Viewport position of the iframe's content box (its own viewport's 0, 0)."""
    return pg.evaluate("""() => { const f = document.querySelector('iframe'), r = f.getBoundingClientRect(),
      s = getComputedStyle(f);
      return [r.left + f.clientLeft + parseFloat(s.paddingLeft), r.top + f.clientTop + parseFloat(s.paddingTop)]; }""")


@pytest.fixture
def course(new_page, exported, tmp_path):
    """The course page next to a fresh export, opened from disk with the network blocked."""
    shutil.copy(exported, tmp_path / "explainer.html")
    shutil.copy(COURSE_PAGE, tmp_path / "course_page.html")
    p = new_page(block_network=True)
    p.pg.goto((tmp_path / "course_page.html").as_uri())
    iframe = p.pg.wait_for_selector("iframe")
    p.frame = iframe.content_frame()
    # The explainer sits below the fold. Chromium does not paint an off-screen cross-origin frame (a file page
    # is one): the page has drawn its first frame into its models, and the figures map it to the screen once
    # the learner scrolls to it.
    iframe.scroll_into_view_if_needed()
    lp.wait_ready(p.frame)
    yield p
    assert p.errors == [], f"browser console errors: {p.errors}"
    assert p.blocked == [], f"the page asked the network for {p.blocked}"


def test_course_page_embeds_the_explainer(course):
    pg, frame = course.pg, course.frame
    attrs = pg.evaluate("() => { const f = document.querySelector('iframe');"
                        " return [f.getAttribute('src'), f.getAttribute('title'), f.getBoundingClientRect().width]; }")
    assert attrs[0] == "explainer.html#theme=auto"
    assert attrs[1] and "explainer" in attrs[1].lower(), "the iframe needs a title for screen readers"
    assert attrs[2] > 1000, "the explainer gets the page's full width at 1280 px"
    assert lp.data(frame, "logits")["z"] == [2.0, 1.0, 0.1]
    assert "0.417 nats" in lp.text(frame, "readout-loss")


def test_the_frame_takes_the_height_of_the_explainer(course):
    """The exported page tells the course page its height: the learner never scrolls inside the frame, also
    when the explainer grows (a learner opens the table, then ten classes make it longer)."""
    pg, frame = course.pg, course.frame

    def fits():  # the frame's inside is its own (file) origin: measured through Playwright's frame
        inside = frame.evaluate("() => document.body.scrollHeight")
        return pg.evaluate("() => document.querySelector('iframe').clientHeight") >= inside

    # Chromium pauses the rendering of a cross-origin frame (a file page is one) while it is off screen, and the
    # frame's size is measured as it renders: the learner scrolls to it, and it takes its height.
    pg.evaluate("() => document.querySelector('iframe').scrollIntoView()")
    pg.wait_for_function("() => document.querySelector('iframe').style.height !== ''")  # the page has told it
    lp.wait_until(fits)
    for grow in ({"name": "sections", "value": [0], "attr": "active"}, {"name": "preset", "value": "ten"}):
        short = pg.evaluate("() => document.querySelector('iframe').clientHeight")
        lp.set_value(frame, grow["name"], grow["value"], attr=grow.get("attr", "value"))  # the table, then ten rows
        pg.wait_for_function(f"() => document.querySelector('iframe').clientHeight > {short + 100}")
        lp.wait_until(fits)


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def web_host(exported, tmp_path):
    """The course page and the export on a web host (one origin): what a course site serves."""
    shutil.copy(exported, tmp_path / "explainer.html")
    shutil.copy(COURSE_PAGE, tmp_path / "course_page.html")
    (tmp_path / "favicon.ico").write_bytes(b"")  # the browser asks a web host for one
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=tmp_path))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/course_page.html"
    server.shutdown()


@pytest.mark.parametrize("width", [375, 1024, 1440])
def test_on_a_web_host_the_frame_is_exactly_as_tall_at_load_and_dark_in_dark_mode(new_page, web_host, width):
    """Below the fold, never scrolled to: the frame already has the explainer's height (no scroll inside it), the
    course page's own guess for that width was within 2 % of it (nothing moves on a page opened from disk,
    where the frame lays out only once scrolled near), and theme=auto follows the reader's dark mode."""
    p = new_page(viewport=(width, 800), color_scheme="dark")
    p.pg.goto(web_host)
    frame = p.pg.wait_for_selector("iframe").content_frame()
    lp.wait_ready(frame)
    p.pg.wait_for_function("() => document.querySelector('iframe').style.height !== ''")
    lp.wait_until(lambda: frame.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight"))
    told, guessed, top = p.pg.evaluate("""() => { const f = document.querySelector('iframe');
      const told = f.getBoundingClientRect().height, inline = f.style.height;
      f.style.height = ''; const guessed = f.getBoundingClientRect().height; f.style.height = inline;
      return [told, guessed, f.getBoundingClientRect().top]; }""")
    assert top > 800, "the frame starts below the fold"
    assert abs(guessed - told) <= 0.02 * told, (guessed, told)
    assert lp.state(frame)["theme"] == "auto" and "dark" in lp.prop(frame, "explainer", "css_classes")
    assert p.pg.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(22, 27, 34)"
    assert lp.prop(frame, "theme", "active"), "the Dark theme toggle shows the theme the page shows"
    lp.set_value(frame, "theme", False, attr="active")  # the reader picks light for good
    lp.wait_state(frame, "(s) => s.theme === 'light'")
    assert "dark" not in lp.prop(frame, "explainer", "css_classes")
    assert p.errors == [], p.errors


def test_drag_inside_the_iframe(course):
    pg, frame = course.pg, course.frame
    pg.evaluate("() => document.querySelector('iframe').scrollIntoView({block: 'start'})")
    before = lp.data(frame, "logits")["z"]
    ox, oy = frame_origin(pg)
    x, y = lp.point_xy(frame, 2)
    x, y = ox + x, oy + y
    pg.mouse.move(x, y)
    pg.mouse.down()
    for i in range(1, 21):
        pg.mouse.move(x, y - 80 * i / 20)  # 80 px up
    pg.mouse.up()
    frame.wait_for_function(f"() => ({lp.FIND})('logits').data.z[2] !== {before[2]}", timeout=5000)

    z = lp.data(frame, "logits")["z"]
    assert z[2] > before[2] + 0.5 and z[:2] == before[:2], (before, z)
    T = lp.data(frame, "settings")["T"][0]
    np.testing.assert_allclose(lp.data(frame, "probs")["p"], softmax(z, T), rtol=1e-9, atol=1e-12)


@pytest.fixture
def course_site(served, course_port, tmp_path):
    """A course page on another site (localhost, where the app is 127.0.0.1) that embeds the served app with Bokeh's
    `server_document`, a lesson in its arguments; the page's own address has a query and a hash of its own."""
    from bokeh.embed import server_document

    url = served[0]
    tag = server_document(url, arguments={"z": "1,2,3", "T": "0.5"})
    (tmp_path / "course.html").write_text(f"<!doctype html><title>Course</title><h1>Softmax</h1>{tag}<p>More.</p>",
                                          encoding="utf-8")
    (tmp_path / "favicon.ico").write_bytes(b"")
    server = ThreadingHTTPServer(("127.0.0.1", course_port), functools.partial(Quiet, directory=tmp_path))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{course_port}/course.html?z=9,9,9&T=3#y=2"
    server.shutdown()


def test_an_app_embedded_with_server_document_is_the_whole_explainer_on_a_session_of_a_wire(served, course_site,
                                                                                           new_page):
    """An embed's session costs what a page's does (one client's autoload requests froze a class while each built
    a whole explainer): the wire and its root, the explainer the one every page shares, put into the course page
    by the bridge. It draws, drags and syncs its lesson, which is its arguments' and not the course page's
    address, leaves that address alone, and "copy link" gives the app's own."""
    url, sessions, records = served
    first = len(records.records)
    p = new_page()
    p.pg.goto(course_site)
    lp.wait_ready(p.pg)
    session = sessions[-1]
    assert len(session.document.models) < 10, "an embed's session holds the wire, not a whole explainer"
    s = lp.state(p.pg)
    assert (s["z"], s["T"], s["y"]) == ([1.0, 2.0, 3.0], 0.5, 0), "the embed's lesson is its own link's"
    lp.wait_until(lambda: session.lesson.state() == lp.state(p.pg))
    lp.drag(p.pg, 0, 50)
    lp.wait_until(lambda: session.lesson.logits[0] < 1.0 and session.lesson.state() == lp.state(p.pg))
    np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], softmax(lp.state(p.pg)["z"], 0.5), rtol=1e-9)
    assert p.pg.evaluate("() => location.href") == course_site, "the course page's address is not the app's"
    lp.click(p.pg, "copy_link")
    p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('z=')")
    copied = lp.text(p.pg, "notice").split(": ", 1)[1]
    assert copied.startswith(f"{url}?z=") and "z0=1,2,3" in copied, copied
    assert records.tracebacks(since=first) == []
    assert p.errors == [], p.errors


@pytest.fixture
def odd_page(new_page, tmp_path):
    from app.export import main

    out = tmp_path / "explainer.html"
    assert main([str(out), "--classes", ",".join(ODD_NAMES)]) == 0
    p = new_page(block_network=True)
    p.pg.goto(out.as_uri())
    lp.wait_ready(p.pg)
    yield p
    assert p.errors == [], f"browser console errors: {p.errors}"
    assert p.blocked == [], f"the page asked the network for {p.blocked}"


def _readout_dom(pg, css_class):
    """(textContent, number of <b> elements) of a readout as the page draws it."""
    return pg.evaluate(f"""(n) => {{ const m = ({lp.FIND})(n);
      const v = ({lp.VIEWS})().find(v => v.model === m); const root = v.shadow_el ?? v.el.shadowRoot ?? v.el;
      return [root.textContent, ({DEEP})(root).filter(e => e.localName === 'b').length]; }}""", css_class)


def _assert_names_are_text(pg):
    for readout in ("readout-probs", "readout-formula"):
        shown, bold = _readout_dom(pg, readout)
        assert bold == 0, f"a class name became markup in {readout}"
        assert "<b>x</b>" in shown, (readout, shown)
    shown = lp.text(pg, "readout-probs")
    for name in ODD_NAMES:
        assert name in shown, (name, shown)
    assert pg.evaluate(f"() => ({DEEP})(document).filter(e => e.localName === 'b').length") == 0


def test_odd_class_names_render_as_text_and_stay_text_after_a_drag(odd_page):
    """The browser redraws every readout while dragging (static/readouts.mjs): still text."""
    pg = odd_page.pg
    _assert_names_are_text(pg)
    options = pg.evaluate(f"() => Array.from(Bokeh.index.find_one(({lp.FIND})('true_class')).input_el.options,"
                          " (o) => o.textContent)")
    assert options == ODD_NAMES
    before = lp.data(pg, "logits")["z"]
    lp.drag(pg, 1, -60)
    pg.wait_for_function(f"() => ({lp.FIND})('logits').data.z[1] !== {before[1]}", timeout=5000)
    _assert_names_are_text(pg)


# A course platform's page as Canvas listens (its `lti.frameResize` handler, which Moodle's and Sakai's copy): a
# message from the tool's frame, a JSON text or an object, resizes that frame. Every message is kept for the test.
PLATFORM = """<!doctype html><meta charset="utf-8"><title>Course</title><h1>Week 3</h1>
<iframe id="tool" src="{src}" style="width: 100%; height: 400px; border: 0"></iframe>
<script>
  window.told = [];
  window.addEventListener("message", (e) => {{
    const frame = document.getElementById("tool");
    if (e.source !== frame.contentWindow) return;
    let m = e.data;
    if (typeof m === "string") {{ try {{ m = JSON.parse(m); }} catch {{ return; }} }}
    window.told.push({{ origin: e.origin, message: m }});
    if (m && m.subject === "lti.frameResize") frame.style.height = `${{m.height}}px`;
  }});
</script>"""


@pytest.fixture
def platform(new_page, exported, tmp_path, course_port):
    """The exported page (xapi=1) in a course platform's page of another origin (localhost, the tool at 127.0.0.1),
    every request to anywhere else refused."""
    from tests.browser import chromium

    shutil.copy(exported, tmp_path / "explainer.html")
    (tmp_path / "favicon.ico").write_bytes(b"")
    server = ThreadingHTTPServer(("127.0.0.1", course_port), functools.partial(Quiet, directory=tmp_path))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tool, host = f"http://127.0.0.1:{course_port}", f"http://localhost:{course_port}"
    (tmp_path / "platform.html").write_text(PLATFORM.format(src=f"{tool}/explainer.html#xapi=1"), encoding="utf-8")
    p = new_page(viewport=(375, 800))
    chromium.local_only(p.pg, tool, host, refused=p.blocked)
    p.pg.goto(f"{host}/platform.html")
    p.frame = p.pg.wait_for_selector("iframe").content_frame()
    lp.wait_ready(p.frame)
    p.tool = tool
    yield p
    server.shutdown()
    assert p.errors == [], p.errors
    assert p.blocked == [], f"the page asked the network for {p.blocked}"


def _told(p, kind):
    """The messages of one kind the platform has received: 'lti' (lti.frameResize), or the explainer's own kind."""
    return [m["message"] for m in p.pg.evaluate("() => window.told")
            if (m["message"].get("subject") == "lti.frameResize" if kind == "lti"
                else m["message"].get("softmax_explainer") == kind)]


def _click_in_frame(frame, name):
    frame.evaluate_handle(f"(n) => {{ const v = Bokeh.index.find_one(({lp.FIND})(n)); return v.button_el ?? v.el; }}",
                          name).as_element().click()


def _fitted(p):
    """Once the platform has sized the frame from the last message and nothing moves from one look to the next (the
    page has laid out a new width and told it): the height told, the frame document's lowest element's bottom, the
    explainer's bottom margin, the frame's inner height and its document's scroll height."""
    last = [None]

    def steady():
        told = _told(p, "lti")[-1]["height"]
        now = (told, *p.frame.evaluate(f"""() => {{
          const boxes = [...document.body.querySelectorAll('*')].map((e) => e.getBoundingClientRect().bottom);
          const root = Bokeh.index.find_one(({lp.FIND})('explainer')).el;
          return [Math.max(...boxes) + scrollY, parseFloat(getComputedStyle(root).marginBottom), innerHeight,
                  document.scrollingElement.scrollHeight]; }}"""))
        was, last[0] = last[0], now
        return now == was and abs(now[3] - told) <= 2

    lp.wait_until(steady)
    return last[0]


def test_a_course_platform_is_told_the_height_the_lesson_and_each_step_done(platform):
    """Issue 39: the page tells a platform that listens like Canvas its height (`lti.frameResize`, to the platform's
    own origin) at 375, 1024 and 1440 px, its lesson as a link when ready and after a drag, and with xapi=1 an
    xAPI statement for each step a learner completes and each prediction they choose, nothing before they act."""
    pg, frame = platform.pg, platform.frame
    assert {m["origin"] for m in pg.evaluate("() => window.told")} == {platform.tool}
    ready = _told(platform, "ready")
    assert len(ready) == 1 and "xapi=1" in ready[0]["link"].split("&"), ready
    for width in (375, 1024, 1440):
        pg.set_viewport_size({"width": width, "height": 800})
        lp.settled(frame)
        # The frame's document fits the height told, with no band below its lowest element but the margin.
        told, lowest, margin, inner, scrolled = _fitted(platform)
        assert scrolled <= inner + 1, (width, scrolled, inner)
        assert 0 <= told - lowest <= margin + 2, (width, told, lowest, margin)
    assert _told(platform, "xapi") == [], "nothing is reported before the learner acts"

    pg.set_viewport_size({"width": 1024, "height": 800})
    lp.settled(frame)
    before = lp.state(frame)
    ox, oy = frame_origin(pg)
    while not (s := lp.state(frame))["z"][1] > s["z"][0]:  # step 1: drag dog above cat
        x, y = lp.point_xy(frame, 1)
        pg.mouse.move(ox + x, oy + y)
        pg.mouse.down()
        for i in range(1, 11):
            pg.mouse.move(ox + x, oy + y - 60 * i / 10)
        pg.mouse.up()
        lp.settled(frame)
    state = _told(platform, "state")
    assert state and f"z={before['z'][0]:g},{s['z'][1]:g}" in state[-1]["link"], (state[-1], s["z"])
    lp.wait_until(lambda: len(_told(platform, "xapi")) == 1)
    done = _told(platform, "xapi")[0]["statement"]
    assert done["verb"]["id"] == "http://adlnet.gov/expapi/verbs/completed"
    assert done["object"]["id"] == "urn:softmax-explainer:step:scores" and done["result"] == {"completion": True}
    assert "actor" not in done, "the platform knows its learner"

    _click_in_frame(frame, "tour_next")  # step 2 asks first: a choice, then three presses of "add 1"
    lp.wait_state(frame, "(s) => s.step === 2")
    frame.evaluate_handle(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector('[data-done] button[data-guess="1"]')""").as_element().click()
    lp.wait_until(lambda: len(_told(platform, "xapi")) == 2)
    answered = _told(platform, "xapi")[1]["statement"]
    assert answered["verb"]["id"] == "http://adlnet.gov/expapi/verbs/answered"
    assert answered["object"]["id"] == "urn:softmax-explainer:step:shift" and answered["result"]["success"] is True
    for _ in range(3):
        _click_in_frame(frame, "add_one")
        lp.settled(frame)
    lp.wait_until(lambda: len(_told(platform, "xapi")) == 3)
    assert [m["statement"]["object"]["id"].rsplit(":", 1)[1] for m in _told(platform, "xapi")] == [
        "scores", "shift", "shift"]
    assert _told(platform, "xapi")[2]["statement"]["verb"]["display"] == {"en-US": "completed"}
    # A link that opens a step already done is the instructor's lesson, not the learner's work: nothing reported.
    frame.evaluate("() => { location.hash = 'xapi=1&step=9&z=0,5,0'; }")
    lp.wait_state(frame, "(s) => s.step === 9 && s.z[1] === 5")
    lp.painted(frame)
    assert frame.evaluate(f"""() => Bokeh.index.find_one(({lp.FIND})('tour_status')).markup_el
      .querySelector('[data-done]').dataset.done""") == "true"
    assert len(_told(platform, "xapi")) == 3
