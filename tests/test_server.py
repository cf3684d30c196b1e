"""The serving rules of app/server.py and the page's wire, without a browser (issue 13's regressions)."""

import gzip
import hashlib
import json
import logging
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from app import server
from app.bundle import read
from app.explainer import STATE_TEXT_MAX, state_from_text
from app.page import write_scripts
from app.refusal import Refusal
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


def listening(port):
    """The addresses (hex, as /proc/net/tcp writes them) that listen on `port`."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, _, state = line.split()[1:4]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.add(address)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")
def test_a_terminated_softmax_explainer_serve_leaves_no_server_and_no_folder_behind(tmp_path):
    # Regression: `softmax-explainer serve` ran Panel's server as a child; a SIGTERM (a service manager, a
    # script's terminate()) killed the wrapper and left the server holding the port. And each start left its 3 MB
    # folder of scripts in the temporary directory; and it listened on every interface unless told.
    from tests.browser.conftest import free_port, wait_serving

    port, folder, out = free_port(), tmp_path / "tmp", tmp_path / "serve.log"
    folder.mkdir()
    with out.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)],
                                env={**os.environ, "TMPDIR": str(folder)}, cwd=Path(__file__).resolve().parents[1],
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        # It builds both languages' explainers before it listens: long on a machine the other tests keep busy.
        wait_serving(f"http://127.0.0.1:{port}/main", alive=lambda: proc.poll() is None, log=out.read_text, timeout=180)
        assert listening(port) == {"0100007F"}, "the loopback alone unless --address says otherwise"
        assert [f.name.split("-")[2] for f in folder.iterdir()] == [str(proc.pid)], "its folder, named by its pid"
        proc.terminate()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while listening(port):
            assert time.monotonic() < deadline, f"something still serves on port {port} after it was terminated"
            time.sleep(0.1)
        assert list(folder.iterdir()) == [], "the served process removed its folder of scripts"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_next_start_removes_what_a_run_killed_outright_left(tmp_path, monkeypatch):
    """A run killed by SIGKILL keeps its folder (3 MB of scripts, a stack's export) and maybe an nginx that holds its
    port: the next start removes the one and stops the other (a process whose command line names the folder)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()  # its pid names no process now
    stale = tmp_path / f"{server.RUN_PREFIX}{ended.pid}-x"
    stale.mkdir()
    (stale / "pages.json").write_text("{}")
    left = subprocess.Popen([sys.executable, "-c", "import time; print(flush=True); time.sleep(60)", str(stale)],
                            stdout=subprocess.PIPE)
    # Running, as a left nginx has long been: Popen returns once the child's exec begins, before the kernel shows its
    # command line (/proc/PID/cmdline reads empty for a moment), which a loaded machine made long enough to fail.
    left.stdout.readline()
    (stale / "nginx.pid").write_text(f"{left.pid}\n")
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # names no folder: left alone
    ours = tmp_path / f"{server.RUN_PREFIX}{os.getpid()}-y"  # a live run's
    ours.mkdir()
    (ours / "nginx.pid").write_text(f"{other.pid}\n")
    try:
        told = []
        made = server.run_folder(told.append)
        assert left.wait(timeout=10) == -signal.SIGTERM and other.poll() is None
        assert not stale.exists() and ours.exists() and made.name.startswith(f"{server.RUN_PREFIX}{os.getpid()}-")
        assert len(told) == 1 and f"pid {left.pid}" in told[0], told
    finally:
        for proc in (left, other):
            proc.kill()
        left.stdout.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG)")
def test_the_stacks_processes_die_with_it_when_it_is_killed():
    """A stack killed outright (SIGKILL) left nginx and its processes holding the port: they die with it now."""
    code = ("import os, subprocess, sys, time; from app.stack import die_with; "
            "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], "
            "preexec_fn=die_with(os.getpid())); print(c.pid, flush=True); time.sleep(60)")
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1],
                              stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while running(child):
        if time.monotonic() > deadline:
            os.kill(child, signal.SIGKILL)
            pytest.fail("the child outlived its killed parent")
        time.sleep(0.05)


def running(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


# One line, exit code 2, no traceback, before anything starts: ASCII digits only, each option once.
BAD_SERVE = {
    "--workers ²": (["--workers", "²"], "--workers takes a whole number"),
    "--port ²": (["--port", "²"], "--port takes a port number"),
    "--workers ٣": (["--workers", "٣"], "--workers takes a whole number"),
    "stack --port ²": (["--workers", "2", "--port=²"], "--port takes a port number"),
    "--port 0": (["--port", "0"], "--port takes a port number"),
    "--port twice": (["--port", "5006", "--port", "5007"], "--port is given more than once"),
    "--workers twice": (["--workers=2", "--workers", "3"], "--workers is given more than once"),
    "--address twice": (["--address", "127.0.0.1", "--address=0.0.0.0"], "--address is given more than once"),
    "--port without a value": (["--port"], "--port needs a value"),
}


@pytest.mark.parametrize("name", BAD_SERVE)
def test_a_bad_serve_option_is_one_line(name):
    args, says = BAD_SERVE[name]
    run = subprocess.run([sys.executable, "-m", "app", "serve", *args], cwd=Path(__file__).resolve().parents[1],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run
    assert says in run.stderr and len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr, run.stderr


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


def test_the_explainer_s_parts_carry_no_current_document_s_callbacks():
    """built_parts under whatever document is current (a session's during --warm, with its `connection_lost`
    callback, or one already destroyed, as an earlier test leaves it): the parts build, and carry none of its
    callbacks. Bokeh's `components` copies the current document's JS event callbacks into the page it makes."""
    from bokeh.document import Document
    from bokeh.io.doc import patch_curdoc
    from bokeh.models import CustomJS

    from app.page import built_parts

    session = Document()
    session.js_on_event("connection_lost", CustomJS(code="window.a_session_s_own_callback()"))
    with patch_curdoc(session):
        body = built_parts.__wrapped__("en")["explainer_body"]
    assert "embed_items" in body and "a_session_s_own_callback" not in body
    with patch_curdoc(Document()):  # held by a weak reference only, so destroyed at once
        assert "embed_items" in built_parts.__wrapped__("en")["explainer_body"]


def test_an_embed_s_own_bokeh_keys_are_not_the_lesson_s():
    """An autoload request carries Bokeh's `bokeh-*` keys beside the lesson's: no notice names them, though a link
    names any other key it cannot use (app/link.py refuses them, for the exported page's hash)."""
    from app.explainer import lesson_from_query

    query = "bokeh-autoload-element=p1&bokeh-app-path=/main&bokeh-absolute-url=http://127.0.0.1:5006/main&T=2"
    assert {k: v for k, v in lesson_from_query(query).state().items() if k in ("T", "notice")} == {"T": 2.0,
                                                                                                  "notice": ""}
    assert lesson_from_query("T=2&q=1").notice == "link_bad:q"
