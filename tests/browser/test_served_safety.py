"""The served app against hostile links and pages (issue 13): foreign scripts, shared sessions, links that broke
a session before the app's parser ran, values Bokeh's server cannot decode, and a server that goes away.

`softmax-explainer serve` runs as a learner's instructor starts it (app/server.py `serve_command`: signed
sessions, a bounded websocket message, --warm); the in-process server (conftest `served`) is used where a test
reads a session's Python lesson. No test here leaves a traceback in any log, stderr included.
"""

import asyncio
import contextlib
import re
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request

import numpy as np
import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClosedError, websocket_connect

import core
from app.server import serve_command
from app.strings import TEXT
from tests.browser import lessonpage as lp
from tests.browser.conftest import ROOT, free_port, wait_serving


@contextlib.contextmanager
def instructor_server(port=None):
    """`softmax-explainer serve` on loopback; yields (url, stop, its output so far). Its whole output holds no
    traceback."""
    port = port or free_port()
    command, env = serve_command(["--port", str(port), "--address", "127.0.0.1",
                                  "--allow-websocket-origin", f"127.0.0.1:{port}"])
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True)

    def read_log():
        log.seek(0)
        return log.read()

    def stop():
        proc.terminate()
        proc.wait(timeout=10)

    url = f"http://127.0.0.1:{port}/main"
    try:
        wait_serving(url, alive=lambda: proc.poll() is None, log=read_log)
        yield url, stop, read_log
    finally:
        if proc.poll() is None:
            stop()
    text = read_log()
    assert "Traceback" not in text, text[-3000:]


@pytest.fixture(scope="module")
def instructor_run():
    """(url, its output so far) of one `softmax-explainer serve` for this file."""
    with instructor_server() as (url, _, read_log):
        yield url, read_log


@pytest.fixture
def instructor(instructor_run):
    return instructor_run[0]


def origin(url):
    return url.split("/main")[0]


def test_a_link_cannot_choose_where_the_scripts_come_from(instructor, new_page):
    evil = f"http://127.0.0.1:{free_port()}/main"
    for key in ("bokeh-absolute-url", "bokeh-resources", "bokeh-log-level"):
        p = new_page()
        p.pg.goto(f"{instructor}?z=1,2,3&{key}={evil}")
        lp.wait_ready(p.pg)
        assert lp.state(p.pg)["z"] == [1.0, 2.0, 3.0], "the lesson of the link renders"
        loaded = [u for u in p.requests if not u.startswith(("data:", "blob:"))]
        assert loaded and all(u.startswith(origin(instructor) + "/") for u in loaded), loaded
        assert "bokeh-" not in p.pg.evaluate("() => location.search")
        lp.click(p.pg, "copy_link")
        p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('z=')")
        copied = lp.text(p.pg, "notice").split(": ", 1)[1]
        assert copied.startswith(instructor + "?") and "bokeh-" not in copied, copied
        assert p.errors == [], p.errors


@pytest.mark.parametrize("key", ["bokeh-session-id=lecture-3", "bokeh-token=e30.e30.x"])
def test_two_browsers_on_one_link_never_share_a_session(instructor, new_page, key):
    pages = []
    for _ in range(2):
        p = new_page(own_context=True)
        p.pg.goto(f"{instructor}?{key}&z=1,2,3")
        lp.wait_ready(p.pg)
        assert "bokeh-" not in p.pg.evaluate("() => location.search")
        pages.append(p)
    ids = [p.pg.evaluate("() => Bokeh.documents[0]._session?.id ?? Bokeh.documents[0].session_id ?? null")
           for p in pages]
    lp.drag(pages[0].pg, 0, 60)
    pages[0].pg.wait_for_timeout(300)  # time for a shared session to carry the drag over, if there were one
    assert lp.state(pages[1].pg)["z"] == [1.0, 2.0, 3.0], ids
    assert lp.state(pages[0].pg)["z"][0] < 1.0


def test_a_session_id_this_server_did_not_sign_is_refused(instructor):
    """Autoload requests (server_document embeds) keep their `bokeh-*` keys: the signature is what guards them."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{instructor}/autoload.js?bokeh-autoload-element=x&bokeh-session-id=lecture-3")
    assert refused.value.code == 403


def test_a_page_link_with_a_trailing_slash_lands_on_the_page_without_its_bokeh_keys(instructor):
    """/main/?bokeh-… was sent to /main/main, a 404."""
    with urllib.request.urlopen(f"{instructor}/?bokeh-session-id=lecture-3&z=1,2,3", timeout=30) as r:
        assert (r.status, r.url) == (200, f"{instructor}/?z=1,2,3")


# Each a log line at most: a websocket handshake that asks for no subprotocol, for Bokeh's with no token, and with
# tokens that are not this server's (unsigned, not base64, not JSON, a kilobyte long).
HANDSHAKES = [None, "bokeh", "bokeh, e30.e30.x", "bokeh, not-a-token", "bokeh, " + "x" * 1000, "chat, x",
              "bokeh, eyJzZXNzaW9uX2lkIjoxfQ.e30.x"]
STAMPED = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \S")  # the first line of a record in Bokeh's log


def test_a_hundred_bad_handshakes_add_no_traceback_to_the_log(instructor_run):
    """Each was a 12-line traceback of tornado.application (100 added 146 kB); now one short line, and the server
    still serves."""
    url, read_log = instructor_run
    before = len(read_log())

    async def knock(protocol):
        headers = {"Sec-WebSocket-Protocol": protocol} if protocol else {}
        try:
            connection = await websocket_connect(HTTPRequest(f"{url.replace('http', 'ws', 1)}/ws", headers=headers))
            await connection.read_message()
            connection.close()
        except (OSError, WebSocketClosedError, HTTPClientError):
            pass

    async def knock_all():
        for start in range(0, 100, 10):
            await asyncio.gather(*(knock(HANDSHAKES[i % len(HANDSHAKES)]) for i in range(start, start + 10)))

    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    knocker = threading.Thread(target=asyncio.run, args=(knock_all(),))
    knocker.start()
    knocker.join(timeout=120)
    assert urllib.request.urlopen(url, timeout=30).status == 200
    written = read_log()[before:]
    assert "Traceback" not in written, written[:3000]
    lines = written.splitlines()
    assert lines and all(STAMPED.match(line) for line in lines), [line for line in lines if not STAMPED.match(line)][:5]
    assert max(map(len, lines)) <= 400 and len(written) < 40_000, (len(written), max(map(len, lines)))


# ---- links that broke the session in Panel's own parser, in the in-process server ---------------------------

BROKE_PANEL = ["y=%C2%B2", "T=%E2%91%A0", "T=" + "1" * 4301, "?z=1,2,3",
               "&".join(f"f{i}=1" for i in range(1200))]


@pytest.mark.parametrize("query", BROKE_PANEL, ids=["superscript two", "circled one", "4301 digits", "??",
                                                    "1200 fields"])
def test_a_hostile_link_opens_the_defaults_and_the_session_keeps_syncing(request, new_page, query):
    url, sessions, records = request.getfixturevalue("served")
    first = len(records.records)
    p = new_page()
    p.pg.goto(f"{url}?{query}")
    lp.wait_ready(p.pg)
    lesson = sessions[-1].lesson
    assert lp.state(p.pg)["notice"].startswith("link_bad:")
    assert lesson.logits == [2.0, 1.0, 0.1]
    lp.drag(p.pg, 1, -60)
    lp.wait_until(lambda: lesson.state() == lp.state(p.pg))
    assert lesson.logits[1] > 1.0, "the drag reached Python"
    assert records.tracebacks(since=first) == []
    assert p.errors == [], p.errors


# ---- values a script forges in the page -----------------------------------------------------------------------

EXOTIC = {
    "z nested 500 deep": "(s) => { let v = 1; for (let i = 0; i < 500; i++) v = [v]; return {...s, z: v}; }",
    "z nested 1000 deep": "(s) => { let v = 1; for (let i = 0; i < 1000; i++) v = [v]; return {...s, z: v}; }",
    "T a Date": "(s) => ({...s, T: new Date()})",
    "T a Symbol": "(s) => ({...s, T: Symbol('t')})",
    "names with a Symbol": "(s) => ({...s, names: [Symbol('a'), 'b', 'c']})",
    "a hole in z": "(s) => { const z = [1, 2, 3]; delete z[1]; return {...s, z}; }",
    "a hole in initial": "(s) => { const i = [1, 2, 3]; delete i[0]; return {...s, initial: i}; }",
    "a throwing toPrimitive": "(s) => ({...s, T: {[Symbol.toPrimitive]() { throw new Error('no'); }}})",
    "a throwing getter": "(s) => { const o = {...s}; Object.defineProperty(o, 'T', {get() { throw 1; },"
                         " enumerable: true}); return o; }",
    "a Proxy that throws": "(s) => new Proxy(s, {ownKeys() { throw new Error('no'); }})",
    "a BigInt": "(s) => ({...s, y: 1n})",
    "a function": "(s) => ({...s, eps: () => 0})",
}


def test_exotic_values_on_the_lesson_are_refused_by_the_page_and_never_reach_the_server(served_page):
    p = served_page
    for name, forge in EXOTIC.items():
        written = p.pg.evaluate(f"""() => {{ const m = ({lp.FIND})('lesson');
            try {{ m.state = ({forge})(m.state); return true; }} catch (e) {{ return false; }} }}""")
        if not written:  # BokehJS's own setter threw while comparing it (a getter that throws): nothing was kept
            assert lp.state(p.pg)["z"] == [2.0, 1.0, 0.1], name
            continue
        lp.wait_state(p.pg, "(s) => s.notice === 'refused'")
        assert lp.text(p.pg, "notice") == TEXT["en"]["refused"], name
        s = lp.state(p.pg)
        assert s["z"] == [2.0, 1.0, 0.1] and s["T"] == 1.0, name
        lp.wait_until(lambda: p.lesson.notice == "refused")
        p.pg.evaluate(f"() => {{ const m = ({lp.FIND})('lesson'); m.state = {{...m.state, notice: ''}}; }}")
        lp.wait_until(lambda: p.lesson.notice == "")
    lp.drag(p.pg, 2, -40)
    lp.wait_until(lambda: p.lesson.state() == lp.state(p.pg))
    assert p.lesson.logits[2] > 0.1, "the session still syncs"
    assert p.records.tracebacks(since=p.first) == []
    assert p.errors == [], p.errors


def forge_wire(pg, js_text):
    pg.evaluate(f"() => {{ const w = ({lp.FIND})('wire'); const s = ({lp.FIND})('lesson').state;"
                f" w.text = {js_text}; }}")


def test_forged_text_on_the_wire_is_refused_in_one_short_log_line(served_page):
    """Each forged text is refused: a warning that says why, the log grown by under 1,000 characters, the names
    kept and the notice on both sides. Each refusal is found by its warning, not by clearing the notice between
    texts: a notice cleared from Python could come back with the page's own answer to the text before (the
    crossing messages of test_hostile's known race), which failed this test twice in a clean clone. Nor by
    counting warnings: the log is the worker's, shared by every session its server holds (a count timed out in CI)."""
    p = served_page
    forged = {  # the text forged, and what its refusal says
        "a 4 M-character name": ("JSON.stringify({...s, names: ['x'.repeat(4e6), 'dog', 'bird']})", "at most 32768"),
        "a 30 kB name": ("JSON.stringify({...s, names: ['x'.repeat(30000), 'dog', 'bird']})", "(30000 characters)"),
        "nested 20,000 deep": ("'['.repeat(20000)", "(RecursionError)"),
        "not JSON": ("'{not json'", "(JSONDecodeError)"),
        "a number": ("'42'", "a lesson state has the keys"),
    }

    def refusals(since):
        return [m for r in p.records.records[since:]
                if (m := r.getMessage()).startswith("refused a lesson state from the page")]

    for name, (text, says) in forged.items():
        before = len(p.records.records)
        forge_wire(p.pg, text)
        # Found by what it says: the log is the worker's, shared with every session its server holds. Given as long
        # as the refusal takes: the server's thread shares this process with a 4 MB message just parsed.
        try:
            lp.wait_until(lambda b=before, w=says: any(w in m for m in refusals(b)), timeout=20)
        except TimeoutError:  # say what the server logged instead (Bokeh's and Tornado's records included)
            seen = [f"{r.name}: {r.getMessage()[:300]}" for r in p.records.records[before:]]
            # Where the text stopped: each document's wire in the page (the page's and the session's) and Python's.
            wires = p.pg.evaluate("() => Bokeh.documents.map((d) => d.get_model_by_name('wire')?.text.length)")
            pytest.fail(f"{name}: no refusal saying {says!r} in 20 s; the log since: {seen}; "
                        f"the page's errors: {p.errors}; the page's wires' lengths {wires}, Python's "
                        f"{len(p.explainer._wire.text)}")
        lp.wait_state(p.pg, "(s) => s.notice === 'refused'")
        grown = sum(len(r.getMessage()) for r in p.records.records[before:])
        assert grown < 1000, (name, grown)
        assert p.lesson.class_names == ["cat", "dog", "bird"] and p.lesson.notice == "refused", name
    assert p.records.tracebacks(since=p.first) == []
    assert p.errors == [], p.errors


# ---- the server goes away, and comes back ---------------------------------------------------------------------

def test_a_lost_server_is_said_within_5_s_and_its_return_reloads_the_whole_lesson(new_page):
    port = free_port()
    with instructor_server(port) as (url, stop, _):
        p = new_page()
        p.pg.goto(f"{url}?z=1,2,3&T=0.5")
        lp.wait_ready(p.pg)
        lp.drag(p.pg, 0, 50)
        lp.click(p.pg, "add_one")
        lp.wait_state(p.pg, "(s) => s.z[1] === 3")
        kept = lp.state(p.pg)
        assert kept["initial"] == [1.0, 2.0, 3.0] != kept["z"]
        stop()
        p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('connection')", timeout=5000)
        assert "changes stay" in lp.text(p.pg, "notice") or "still works" in lp.text(p.pg, "notice")
        lp.click(p.pg, "reset")  # the page keeps working without its server
        lp.wait_state(p.pg, "(s) => s.z[0] === 1")
        np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], core.softmax([1, 2, 3], T=0.5), rtol=1e-12)
        lp.drag(p.pg, 2, 40)
        kept = lp.state(p.pg)
    with instructor_server(port):
        p.pg.wait_for_function(f"() => ({lp.FIND})('notice').text.includes('reconnect')", timeout=15000)
        link = (f"() => Bokeh.index.find_one(({lp.FIND})('notice')).el.shadowRoot.querySelector('a')"
                ".getAttribute('href')")
        first = p.pg.evaluate(link)
        # A gesture while the notice shows writes the link again, in the same shape: its href is the new lesson's,
        # unescaped (it was written as the HTML held it, "&amp;", and reloaded a broken link).
        lp.drag(p.pg, 1, 30)
        kept = lp.state(p.pg)
        p.pg.wait_for_function(f"(first) => ({link})() !== first", arg=first, timeout=5000)
        href = p.pg.evaluate(link)
        assert href.startswith("?z=") and "z0=1,2,3" in href and "&amp;" not in href, href
        p.pg.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('notice')).el.shadowRoot.querySelector('a').click()")
        p.pg.wait_for_url(f"{url}?z=*")
        lp.wait_ready(p.pg)
        assert lp.state(p.pg) == {**kept, "notice": ""}
        p.errors.clear()  # the old page's socket errors as the server went away are not the new page's
