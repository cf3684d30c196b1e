"""How the explainer is served: where its scripts come from, whose session a visitor joins, how much work one
message may cost, and what reaches the log.

`install()` runs in the server process before the first visitor (app/main.py, which `--warm` runs at
start-up; the tests' in-process server). `serve_command` is what `softmax-explainer serve` runs.

- **Links cannot choose a session or a script root.** Bokeh takes `bokeh-session-id` and `bokeh-token` from a
  page request (a link carrying one puts everyone who opens it into one session), and Panel takes its
  resource root from `bokeh-absolute-url` (a link carrying one makes the app's origin run another server's
  scripts). No link of the lesson needs them: a page request that carries any `bokeh-*` key is redirected to
  the same address without them, before a session is made or joined. The hook is Panel's
  `authorize_callback`, which runs for every page request before its session and may answer with a redirect.
  Autoload requests (`server_document` embeds) are not page requests: their scripts run in the embedding page.
- **Sessions are signed** (`--session-ids signed` with `BOKEH_SECRET_KEY`, generated when the environment has
  none), so a session id or token that this server did not make is refused.
- **Bounded work.** A lesson's message to the server is a few kB; the websocket takes at most WEBSOCKET_MAX
  bytes. Tornado refuses a query of more than 1,000 fields with a bare HTTP 400 before any handler runs; the
  limit is raised past what the request line can hold, so the app's own link parser answers such a link with
  the defaults and a notice.
- **A class that leaves gives its memory back.** A session's document is a few hundred Bokeh models; once
  Bokeh has destroyed the unused sessions, a garbage collection and glibc's `malloc_trim` hand the freed pages
  to the system (without them the process kept its peak: tests/benchmarks/bench_class.py).
- **Session builds take turns.** Each page request and each embed's autoload request makes a session, a few ms of
  the process's only thread. Run side by side, a burst of them advanced together and a visitor's gesture, which
  takes several turns of the event loop, waited for the whole burst (20 autoload requests 4 at a time held it
  134 ms where it takes 86). One at a time per process (`taking_turns`), the gesture waits for one build at most,
  and the burst takes as long (tests/benchmarks/bench_embed_load.py).
- **One line per refusal in the log.** Bokeh logs a message it cannot decode with the whole message and a
  traceback (a 4 MB forged write grew the log by 4.2 MB); those records are cut to one short line.
"""

import asyncio
import atexit
import ctypes
import gc
import logging
import os
import secrets
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote_plus

WEBSOCKET_MAX = 64 * 1024  # bytes: a lesson's largest state is about 3 kB
QUERY_FIELDS_MAX = 1 << 16  # more than a request line (Tornado: 64 kB) can hold
LOG_LINE_MAX = 300  # characters of one log record from Bokeh's server
SCRIPTS_ENV = "SOFTMAX_EXPLAINER_SCRIPTS"  # the folder app/page.py `write_scripts` filled, named to the server
SCRIPTS_ROUTE = "explainer-static"  # where the server serves that folder (panel serve --static-dirs)
# Loggers whose records a request can cause, each cut to one line: Tornado's "Uncaught exception" (a websocket
# handshake with a bad or missing token), Bokeh's messages it cannot decode.
QUIETED = ("bokeh.server.views.ws", "bokeh.server.protocol_handler", "bokeh.server.session", "tornado.websocket",
           "tornado.application", "tornado.general")


def bokeh_free(query):
    """The raw query without its `bokeh-*` fields, in order, or None when it has none.

    >>> bokeh_free("z=1,2,3&bokeh-session-id=lecture-3&T=2")
    'z=1,2,3&T=2'
    >>> bokeh_free("bokeh%2Dabsolute-url=http://evil.example.org/&z=1")
    'z=1'
    >>> bokeh_free("z=1,2,3") is None
    True
    """
    fields = query.split("&")
    # Keys as Tornado and Bokeh read them: percent-decoded ("bokeh%2Dsession-id" is bokeh-session-id too).
    kept = [f for f in fields if not unquote_plus(f.partition("=")[0], errors="replace").startswith("bokeh-")]
    return None if len(kept) == len(fields) else "&".join(kept)


def guard(user_info, path):
    """Panel's `authorize_callback`: True, or a redirect to the same page without the request's `bokeh-*` keys.

    The redirect is relative (the last path segment and the query), so it stays on the address the visitor
    used, behind a proxy or a path prefix too.
    """
    import panel as pn

    request = pn.state.curdoc.session_context.request if pn.state.curdoc else None
    clean = bokeh_free(getattr(request, "query", "") or "")
    if clean is None:
        return True
    return redirect_without_keys(path, clean)


def redirect_without_keys(path, clean):
    """Where `guard` sends a request for `path` whose query without `bokeh-*` keys is `clean`: relative, so that it
    stays on the address the visitor used (a proxy's path prefix, a trailing slash) with the query alone changed.

    >>> from urllib.parse import urljoin
    >>> urljoin("http://h/pre/main/?bokeh-token=x&z=1", redirect_without_keys("/main/", "z=1"))
    'http://h/pre/main/?z=1'
    >>> [urljoin(f"http://h{p}?bokeh-token=x", redirect_without_keys(p, "")) for p in ("/main", "/main/")]
    ['http://h/main', 'http://h/main/']
    """
    if clean:
        return f"?{clean}"
    return "." if path.endswith("/") else path.rsplit("/", 1)[-1]


class OneLine(logging.Filter):
    """Cut a record to one line of at most LOG_LINE_MAX characters, without its traceback."""

    def filter(self, record):
        text = record.getMessage()
        if record.exc_info and record.exc_info[0] is not None:
            text = f"{text} [{record.exc_info[0].__name__}]"
        text = " ".join(text.split())
        record.msg = text if len(text) <= LOG_LINE_MAX else f"{text[:LOG_LINE_MAX]}… ({len(text)} characters)"
        record.args, record.exc_info, record.exc_text, record.stack_info = (), None, None, None
        return True


RELEASE_AFTER_S = 1.0  # seconds after a session is destroyed: one release for a class that leaves together
_release = {"pending": False}


def settle_heap():
    """Once the process has built what it keeps for its life (Bokeh, Panel, the shared explainer), hand it to the
    garbage collector's permanent generation: a full collection no longer walks those 180,000 objects (60-90 ms of
    the only thread, every time sessions ended or Bokeh's churn triggered one), only what sessions made since."""
    gc.collect()
    gc.freeze()


def _release_memory():
    _release["pending"] = False
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the collection alone
        pass


def release_memory_soon(session_context):
    """Bokeh's `on_session_destroyed` hook: collect and trim once, a moment after the last session went."""
    if not _release["pending"]:
        from tornado.ioloop import IOLoop

        _release["pending"] = True
        IOLoop.current().call_later(RELEASE_AFTER_S, _release_memory)


def readable_anywhere(handler):
    """Bokeh's per-app metadata handler, answering any page's script: a served page whose server went away asks it
    whether an app process is back (static/startup.mjs `lost`), and an embedded app's page is another origin. It
    holds the app's path and no session."""

    class Metadata(handler):
        def set_default_headers(self):
            super().set_default_headers()
            self.set_header("Access-Control-Allow-Origin", "*")

    return Metadata


# Bokeh's per-app routes whose requests make a session: the page (Panel's DocHandler) and an embed's autoload.js.
BUILDING_ROUTES = ("/?", "/autoload.js")
_TURN = asyncio.Lock()  # bound to the server's event loop at its first use


def taking_turns(handler):
    """A per-app handler whose requests make their session one at a time in this process: first come, first
    served (asyncio's lock is fair), and between two builds the loop serves everyone else."""

    class TakingTurns(handler):
        takes_turns = True

        async def get(self, *args, **kwargs):
            async with _TURN:
                await super().get(*args, **kwargs)

    TakingTurns.__name__ = TakingTurns.__qualname__ = f"TakingTurns{handler.__name__}"
    return TakingTurns


def install():
    """Apply the serving rules above to this process (idempotent)."""
    import panel as pn
    from panel.io.server import per_app_patterns
    from tornado import httputil

    # Panel keeps a config value set while a session's document is current (as when --warm runs app/main.py)
    # for that session alone; the guard must hold for every request, so it is set on the config object itself.
    super(type(pn.config), pn.config).__setattr__("authorize_callback", guard)
    config = httputil.ParseBodyConfig()
    config.urlencoded.max_arguments = QUERY_FIELDS_MAX
    httputil.set_parse_body_config(config)
    for name in QUIETED:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLine) for f in logger.filters):
            logger.addFilter(OneLine())
    # `softmax-explainer serve` made the scripts' folder for this process alone (`run_folder`, before its execve):
    # it goes when the server stops (Bokeh stops on SIGTERM and Ctrl-C by returning, so atexit runs).
    folder = os.environ.get(SCRIPTS_ENV)
    if folder and Path(folder).name.startswith(f"{RUN_PREFIX}{os.getpid()}-") and not _owned:
        _owned.append(folder)
        atexit.register(shutil.rmtree, folder, True)
    # Panel's server reads the routes when it starts, after --warm has run this.
    for i, (route, handler) in enumerate(per_app_patterns):
        if route == "/metadata" and handler.__name__ != "Metadata":
            per_app_patterns[i] = (route, readable_anywhere(handler))
        if route in BUILDING_ROUTES and not getattr(handler, "takes_turns", False):
            per_app_patterns[i] = (route, taking_turns(handler))


RUN_PREFIX = "softmax-explainer-"  # a run's folder in the temporary directory: RUN_PREFIX, its process id, "-", …
_owned = []  # the run folder this process removes at exit


def run_folder(say=lambda line: None):
    """A new folder for this run in the temporary directory, named by this process's id, which `os.execve` keeps
    (app/cli.py) and which `install` reads to remove it at exit. First the folders of runs whose process is gone
    are removed: a run killed outright (SIGKILL) leaves its folder, 3 MB of scripts and more, and a stack's nginx
    that may still hold its port, which is stopped here and told to `say`."""
    for folder in Path(tempfile.gettempdir()).glob(f"{RUN_PREFIX}*-*"):
        pid = folder.name[len(RUN_PREFIX):].split("-", 1)[0]
        if not pid.isascii() or not pid.isdigit() or _alive(int(pid)) or not folder.is_dir() \
                or folder.stat().st_uid != os.getuid():
            continue
        nginx = _left_nginx(folder)
        if nginx is not None:
            os.kill(nginx, signal.SIGTERM)
            say(f"stopped nginx (pid {nginx}), left running by a stack that was killed (process {pid})")
        shutil.rmtree(folder, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-"))


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def _left_nginx(folder):
    """The pid of a live nginx that runs from `folder` (its pid file, and its command line naming the folder)."""
    try:
        pid = int((folder / "nginx.pid").read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes()  # nginx's master rewrites it as one line
    except (OSError, ValueError):
        return None
    return pid if str(folder).encode() in command and _alive(pid) else None


def with_static_dir(argv, pair):
    """(argv, options before it) that serve `pair` (ROUTE=FOLDER) beside the user's own `--static-dirs`: Panel
    keeps only the last `--static-dirs` it is given, so the pair joins the user's list rather than a second one.

    >>> with_static_dir(["--port", "5007"], "x=/run/x")
    (['--port', '5007'], ['--static-dirs', 'x=/run/x'])
    >>> with_static_dir(["--static-dirs=img=/srv/img", "--show"], "x=/run/x")
    (['--static-dirs', 'x=/run/x', 'img=/srv/img', '--show'], [])
    """
    for i, arg in enumerate(argv):
        name, eq, value = arg.partition("=")
        if name == "--static-dirs":
            return [*argv[:i], name, pair, *([value] if eq else []), *argv[i + 1:]], []
    return list(argv), ["--static-dirs", pair]


def serve_command(argv, environ=None, scripts=None):
    """(command, environment) for `softmax-explainer serve ARGV`: `panel serve app/main.py` with the rules above,
    and with `scripts`, a folder app/page.py `write_scripts` filled, served at SCRIPTS_ROUTE for its pages.

    >>> command, env = serve_command(["--port", "5007"], environ={})
    >>> command[1:4], command[-2:], env["BOKEH_SIGN_SESSIONS"], len(env["BOKEH_SECRET_KEY"]) >= 43
    (['-m', 'panel', 'serve'], ['--port', '5007'], 'yes', True)
    >>> command, env = serve_command([], environ={}, scripts=Path("/run/x"))
    >>> command[command.index("--static-dirs") + 1], env[SCRIPTS_ENV]
    ('explainer-static=/run/x', '/run/x')
    """
    env = dict(os.environ if environ is None else environ)
    env.setdefault("BOKEH_SECRET_KEY", secrets.token_urlsafe(32))
    env["BOKEH_SIGN_SESSIONS"] = "yes"
    main_py = Path(__file__).with_name("main.py")
    static = []
    if scripts is not None:
        env[SCRIPTS_ENV] = str(scripts)
        argv, static = with_static_dir(argv, f"{SCRIPTS_ROUTE}={scripts}")
    # --warm runs app/main.py once before serving: a bad --args stops the server at start, and install()
    # has run before the first visitor arrives.
    command = [sys.executable, "-m", "panel", "serve", str(main_py), *static, "--warm", "--session-ids", "signed",
               "--websocket-max-message-size", str(WEBSOCKET_MAX), *argv]
    return command, env
