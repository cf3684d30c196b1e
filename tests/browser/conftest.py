"""Real Chromium (the system's, driven by Playwright) against the served app and the exported file.

Browser tests skip when Chromium or Playwright is missing, unless REQUIRE_BROWSER=1 (as in .ci/run), where
they fail instead. A test server that dies or never answers fails the test and prints its log.
"""

import logging
import os
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import chromium

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


def _missing(reason):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    if chromium.executable() is None:
        _missing("no system chromium on PATH")
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright):
    """Chromium's headless shell, where the page's behaviour is tested (tests/browser/chromium.py `shell`)."""
    b = chromium.launch(playwright, chromium.shell())
    yield b
    b.close()


@pytest.fixture(scope="session")
def real_browser(playwright):
    """The whole system Chromium, for a claim about the browser people use: a module whose own `browser` fixture
    gives it runs every page of its tests in it."""
    b = chromium.launch(playwright)
    yield b
    b.close()


# One browser context per browser for the tests' pages, each a tab in it, and in it one idle tab kept on each
# exported file a test opened: a new tab of a file then starts in that tab's renderer, its scripts already
# compiled, at about two thirds of the CPU of a page in a context of its own (tests/benchmarks/bench_tabs.py). A tab
# leaves the context as a fresh profile would be: its storage cleared as it closes.
TABS = {}
KEPT_FILES = {}
REFUSE_STORAGE = ("Object.defineProperty(window, 'localStorage', "
                  "{get() { throw new DOMException('refused', 'SecurityError'); }});")
CLEAR_STORAGE = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch { /* refused: none kept */ } }"


class Page:
    """A browser page plus what it did: requests it was refused, errors it logged, dialogs it opened.

    A tab of the browser's shared context, unless it needs a context of its own: one with options of its own
    (`context`: a touch screen, a service worker blocked), a page kept open beside others that write the same
    storage (a module's page), or one standing for another browser (`own_context`)."""

    def __init__(self, browser, block_network=False, viewport=(1280, 960), own_context=False, **context):
        size = {"width": viewport[0], "height": viewport[1]}
        self.own = own_context or bool(context)
        if self.own:
            self.context = browser.new_context(viewport=size, **context)
        else:
            if browser not in TABS:
                TABS[browser] = browser.new_context()
            self.context = TABS[browser]
        self.pg = self.context.new_page()
        if not self.own:
            self.pg.set_viewport_size(size)
        self.blocked, self.errors, self.requests, self.dialogs = [], [], [], []
        self.pg.on("pageerror", lambda e: self.errors.append(str(e)))
        self.pg.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.pg.on("request", lambda r: self.requests.append(r.url))
        self.pg.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        if block_network:
            chromium.local_only(self.pg, refused=self.blocked)

    def close(self):
        if self.own:
            self.context.close()
            return
        for frame in self.pg.frames:
            try:
                frame.evaluate(CLEAR_STORAGE)
            except Exception:  # noqa: BLE001 - a frame gone or never loaded holds no storage of the test's
                pass
        file = self.pg.url.split("#")[0]
        if file.startswith("file:") and (self.context, file) not in KEPT_FILES:
            idle = KEPT_FILES[self.context, file] = self.context.new_page()
            idle.add_init_script(REFUSE_STORAGE)  # the idle tab writes nothing the tests' tabs would read
            idle.goto(file, wait_until="load")
        self.pg.close()


@pytest.fixture
def new_page(browser):
    pages = []

    def make(**kw):
        p = Page(browser, **kw)
        pages.append(p)
        return p

    yield make
    for p in pages:
        p.close()


def wait_serving(url, alive=lambda: True, log=lambda: "", timeout=60):
    """Poll until the server answers at `url`; fail with its log if it dies or never answers."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=10)  # a session is built per GET: seconds on a loaded machine
            return
        except OSError as e:
            last = e
        if not alive():
            pytest.fail(f"the server at {url} died before answering:\n{log()}")
        if time.monotonic() > deadline:
            pytest.fail(f"the server at {url} did not answer within {timeout} s ({last}):\n{log()}")
        time.sleep(0.2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Bokeh's and Panel's loggers do not propagate to the root logger: a handler there alone sees none of their
# tracebacks.
LOGGERS = ("", "bokeh", "panel", "tornado")


class Records(logging.Handler):
    """Every log record the in-process server writes, to check that none holds a traceback."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)

    def tracebacks(self, since=0):
        """The records from index `since` on that hold a traceback, formatted."""
        return [self.format(r) for r in self.records[since:] if r.exc_info or "Traceback" in r.getMessage()]


class Sessions(list):
    """The served sessions, newest last; each callable in `on_open` is called with a session as it opens,
    before its document reaches the page (a test's change that Python makes first)."""

    def __init__(self):
        super().__init__()
        self.on_open = []


@pytest.fixture(scope="session")
def course_port():
    """The port of a course page on another site (localhost, where the app is 127.0.0.1) that embeds the app
    (test_embed): the served app lets its websocket in."""
    return free_port()


@pytest.fixture(scope="session")
def served(course_port):
    """The app served in this process as app/main.py serves it, so tests can read each session's `Lesson`."""
    import panel as pn

    from app.page import serve_session
    from app.server import install

    install()
    sessions, records = Sessions(), Records()
    for logger in LOGGERS:
        logging.getLogger(logger).addHandler(records)

    def app():
        session = serve_session()
        sessions.append(session)
        for opened in sessions.on_open:
            opened(session)

    port = free_port()
    server = pn.serve({"main": app}, port=port, address="127.0.0.1", show=False, threaded=True,
                      websocket_origin=[f"127.0.0.1:{port}", f"localhost:{course_port}"], location=False)
    url = f"http://127.0.0.1:{port}/main"
    wait_serving(url)
    sessions.clear()  # the readiness request opened a session of its own
    yield url, sessions, records
    server.stop()
    for logger in LOGGERS:
        logging.getLogger(logger).removeHandler(records)


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    from app.export import main

    out = tmp_path_factory.mktemp("export") / "explainer.html"
    assert main([str(out)]) == 0
    return out


def opened(p, request, where, link=""):
    """The explainer opened in page p at `link`, served (the link its query, its session's explainer as
    `p.session()`) or exported (the link its hash; every non-file request refused when p was made so), ready."""
    from tests.browser import lessonpage as lp

    if where == "served":
        url, sessions, _ = request.getfixturevalue("served")
        p.pg.goto(f"{url}?{link}" if link else url)
        lp.wait_ready(p.pg)
        lp.wait_joined(p.pg)
        own = sessions[-1]  # this page's session, whatever pages open after it
        p.session = lambda: own
    else:
        p.pg.goto(request.getfixturevalue("exported").as_uri() + (f"#{link}" if link else ""))
        lp.wait_ready(p.pg)
        p.session = None
    return p


def assert_clean(p, capfd):
    """What every test on an explainer's page ends with: no console error, no request to the network, no dialog,
    (served) the Python lesson equal to the page's, and no traceback from the in-process server."""
    from tests.browser import lessonpage as lp

    assert p.errors == [], f"browser console errors: {p.errors}"
    assert p.blocked == [], f"the page asked the network for {p.blocked}"
    assert p.dialogs == [], p.dialogs
    if p.session:
        lp.wait_until(lambda: p.session().lesson.state() == lp.state(p.pg))
    assert "Traceback" not in capfd.readouterr().err, "the in-process server wrote a traceback to stderr"


@pytest.fixture(params=["served", "exported"])
def page(request, new_page, capfd):
    """A fresh page of the explainer, served and exported; the exported one runs with every non-file request
    refused. Afterwards: `assert_clean`."""
    p = opened(new_page(block_network=request.param == "exported"), request, request.param)
    yield p
    assert_clean(p, capfd)


@pytest.fixture(scope="module", params=["served", "exported"])
def kept_page(request, browser):
    """One page of the explainer, served and exported, that a module's tests share (`lesson_page` writes the spec
    lesson on it for each): a page costs about two seconds to open, a lesson written on it a tenth of that."""
    p = opened(Page(browser, block_network=request.param == "exported", own_context=True), request, request.param)
    yield p
    p.close()


@pytest.fixture
def lesson_page(kept_page, capfd):
    """`page` on the module's kept page: the spec lesson written on it as a script writes a lesson (checked, then
    drawn as the page's own), from wherever the test before left it. Afterwards: `assert_clean`."""
    from app.fields import default_state
    from tests.browser import lessonpage as lp

    p = kept_page
    p.errors.clear()  # a failed test's own, said there
    p.pg.evaluate(f"""(s) => {{ document.activeElement?.blur(); window.scrollTo(0, 0);
                                ({lp.FIND})('lesson').state = s; }}""", default_state())
    lp.settled(p.pg)
    if p.session:
        lp.wait_until(lambda: p.session().lesson.state() == lp.state(p.pg))
    yield p
    assert_clean(p, capfd)


@pytest.fixture
def served_page(request, new_page, capfd):
    """A page of the in-process server with its session's explainer and lesson, and where the log stood."""
    from tests.browser import lessonpage as lp

    url, sessions, records = request.getfixturevalue("served")
    p = new_page()
    p.pg.goto(url)
    lp.wait_ready(p.pg)
    lp.wait_joined(p.pg)
    p.explainer, p.records, p.first = sessions[-1], records, len(records.records)
    p.lesson = p.explainer.lesson
    yield p
    assert p.dialogs == [], p.dialogs
    assert "Traceback" not in capfd.readouterr().err, "the in-process server wrote a traceback to stderr"
