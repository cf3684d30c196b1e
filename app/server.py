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
- **One line per refusal in the log.** Bokeh logs a message it cannot decode with the whole message and a
  traceback (a 4 MB forged write grew the log by 4.2 MB); those records are cut to one short line.
"""

import ctypes
import gc
import logging
import os
import secrets
import sys
from pathlib import Path
from urllib.parse import unquote_plus

WEBSOCKET_MAX = 64 * 1024  # bytes: a lesson's largest state is about 3 kB
QUERY_FIELDS_MAX = 1 << 16  # more than a request line (Tornado: 64 kB) can hold
LOG_LINE_MAX = 300  # characters of one log record from Bokeh's server
SCRIPTS_ENV = "SOFTMAX_EXPLAINER_SCRIPTS"  # the folder app/page.py `write_scripts` filled, named to the server
SCRIPTS_ROUTE = "explainer-static"  # where the server serves that folder (panel serve --static-dirs)
QUIETED = ("bokeh.server.views.ws", "bokeh.server.protocol_handler", "bokeh.server.session", "tornado.websocket")


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
    segment = path.rstrip("/").rsplit("/", 1)[-1] or "."
    return f"{segment}?{clean}" if clean else segment


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


def install():
    """Apply the serving rules above to this process (idempotent)."""
    import panel as pn
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
