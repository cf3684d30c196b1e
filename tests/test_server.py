"""The serving rules of app/server.py and the page's wire, without a browser (issue 13's regressions)."""

import gzip
import hashlib
import json
import logging
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import server
from app.bundle import read
from app.explainer import STATE_TEXT_MAX, state_from_text
from app.page import write_scripts
from app.rules import Refusal
from app.strings import LANGS


@pytest.mark.parametrize(("query", "clean"), [
    ("z=1,2,3&bokeh-absolute-url=http://evil.example.com/", "z=1,2,3"),
    ("bokeh-session-id=lecture-3&z=1,2,3", "z=1,2,3"),
    ("bokeh-token=abc", ""),
    ("bokeh%2Dsession%2Did=x&T=2", "T=2"),  # Tornado percent-decodes keys: so does the guard
    ("bokeh-resources=cdn&bokeh-log-level=trace&y=1", "y=1"),
    ("z=1,2,3&T=2", None),
    ("", None),
    ("names=bokeh-a,b,c", None),  # a value may say anything
])
def test_bokeh_keys_are_taken_out_of_a_page_link(query, clean):
    assert server.bokeh_free(query) == clean


def test_softmax_explainer_serve_signs_sessions_and_bounds_messages():
    command, env = server.serve_command(["--port", "5999"], environ={"PATH": "/bin"})
    assert command[:4] == [sys.executable, "-m", "panel", "serve"] and command[-2:] == ["--port", "5999"]
    assert ["--session-ids", "signed"] == command[command.index("--session-ids"):][:2]
    assert int(command[command.index("--websocket-max-message-size") + 1]) == server.WEBSOCKET_MAX
    assert "--warm" in command
    assert env["BOKEH_SIGN_SESSIONS"] == "yes" and len(env["BOKEH_SECRET_KEY"]) >= 43
    assert server.serve_command([], environ={"BOKEH_SECRET_KEY": "k" * 50})[1]["BOKEH_SECRET_KEY"] == "k" * 50
    other = server.serve_command([], environ={})[1]["BOKEH_SECRET_KEY"]
    assert other != env["BOKEH_SECRET_KEY"], "a fresh secret each time the environment has none"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_terminated_softmax_explainer_serve_leaves_no_server_behind(tmp_path):
    # Regression: `softmax-explainer serve` ran Panel's server as a child; a SIGTERM (a service manager, a
    # script's terminate()) killed the wrapper and left the server holding the port.
    from tests.browser.conftest import free_port, wait_serving

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port), "--address", "127.0.0.1"],
                            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        wait_serving(f"http://127.0.0.1:{port}/main", alive=lambda: proc.poll() is None)
        proc.terminate()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) != 0:
                    return
            time.sleep(0.1)
        pytest.fail(f"something still serves on port {port} after its softmax-explainer serve was terminated")
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_record_of_bokehs_server_is_one_short_line_without_its_traceback():
    """Bokeh logged a message it could not decode whole, with a traceback: a 4 MB write grew the log 4.2 MB."""
    server.install()
    logger = logging.getLogger("bokeh.server.views.ws")
    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(logging.Formatter().format(record))
    logger.addHandler(handler)
    try:
        try:
            raise RecursionError("maximum recursion depth exceeded")
        except RecursionError as e:
            logger.error("Unhandled exception receiving a message: %r: %r", e, "[" * 4_000_000, exc_info=True)
    finally:
        logger.removeHandler(handler)
    assert len(seen) == 1
    line = seen[0]
    assert "\n" not in line and "Traceback" not in line and len(line) < 400, line[:500]
    assert "RecursionError" in line and "4000" in line.replace(",", "")  # what it was, and how long


def test_installing_twice_adds_one_filter():
    server.install()
    server.install()
    assert sum(isinstance(f, server.OneLine) for f in logging.getLogger("bokeh.server.views.ws").filters) == 1


def test_a_lesson_text_is_measured_before_it_is_read():
    with pytest.raises(Refusal, match="at most"):
        state_from_text("[" * (STATE_TEXT_MAX + 1))
    with pytest.raises(Refusal, match="RecursionError"):
        state_from_text("[" * 30_000)  # within the cap, nested too deep for the JSON reader
    for text in ("", "{", "NaN]", "\ud800"):
        with pytest.raises(Refusal):
            state_from_text(text)
    with pytest.raises(Refusal):
        state_from_text(None)
    assert state_from_text('{"T": 2}') == {"T": 2}


def test_a_four_million_character_name_from_the_page_is_refused_at_once():
    """One forged state took 3 s of the server (12 s for 4 M characters) while every visitor waited."""
    import json

    from app import Explainer

    explainer = Explainer()
    state = {**explainer.lesson.state(), "names": ["x" * 4_000_000, "dog", "bird"]}
    for text in (json.dumps(state), json.dumps({**state, "names": "x" * 4_000_000})):
        start = time.perf_counter()
        explainer._from_page("text", None, text)
        assert time.perf_counter() - start < 0.05
        assert explainer.lesson.notice == "refused" and explainer.lesson.class_names == ["cat", "dog", "bird"]
        assert explainer.page_state == explainer.lesson.state(), "the valid lesson goes back to the page"
        explainer.lesson.notice = ""


def test_the_view_refuses_what_is_not_a_lesson_with_a_type_error():
    from app import Explainer, Lesson

    for wrong in (None, 5, {"T": 2}):
        with pytest.raises(TypeError, match="takes a Lesson"):
            Explainer(lesson=wrong)
    with pytest.raises(TypeError, match="unexpected keyword argument 'lessons'"):
        Explainer(lessons=Lesson())
    assert Explainer(lesson=Lesson(T=0.5)).lesson.T == 0.5


def test_the_explainer_scripts_are_named_by_their_hash_and_each_page_links_its_own(tmp_path):
    """write_scripts: a file a language named by the SHA-256 of its content, its gzip the same bytes, and each
    language's page body the explainer's element and a link to that file; the script draws into that element;
    the page's head links the fonts' style, a file of its own."""
    folder = write_scripts(tmp_path / "scripts")
    pages = json.loads((folder / "pages.json").read_text(encoding="utf-8"))
    assert sorted(pages) == sorted(LANGS)
    for lang, parts in pages.items():
        element, src, digest = re.fullmatch(
            r'(<div id="[0-9a-f-]+" data-root-id="\w+" style="display: contents;"></div>)'
            rf'<script src="{server.SCRIPTS_ROUTE}/(explainer-{lang}-([0-9a-f]{{12}})\.js)\?v=\3"></script>',
            parts["explainer_body"]).groups()
        code = (folder / src).read_bytes()
        assert hashlib.sha256(code).hexdigest()[:12] == digest
        assert gzip.decompress((folder / f"{src}.gz").read_bytes()) == code
        assert re.search(r'id="([0-9a-f-]+)"', element).group(1).encode() in code and b"embed_items" in code
        assert "bokeh" in parts["explainer_js"]
        (css,) = re.findall(rf'<link rel="stylesheet" href="{server.SCRIPTS_ROUTE}/(fonts-[0-9a-f]{{12}}\.css)\?v=',
                            parts["explainer_head"])
        assert b"@font-face" in (folder / css).read_bytes() and read("fonts_load.js") in parts["explainer_head"]
