"""Real Chromium (the system `chromium`, driven by Playwright) against the served app and the exported file.

Browser tests skip when Chromium or Playwright is missing, unless REQUIRE_BROWSER=1 (as in .ci/run), where
they fail instead.
"""

import os
import shutil
import socket
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOCAL = ("file:", "data:", "blob:", "about:")


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
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        _missing("no system chromium on PATH")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """A browser page plus what it did: requests it was refused and errors it logged."""

    def __init__(self, browser, block_network=False, viewport=(1280, 960)):
        self.pg = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        self.blocked, self.errors, self.requests = [], [], []
        self.pg.on("pageerror", lambda e: self.errors.append(str(e)))
        self.pg.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.pg.on("request", lambda r: self.requests.append(r.url))
        if block_network:
            self.pg.route("**/*", self._route)

    def _route(self, route):
        url = route.request.url
        if url.startswith(LOCAL):
            return route.continue_()
        self.blocked.append(url)
        return route.abort()


@pytest.fixture
def new_page(browser):
    pages = []

    def make(**kw):
        p = Page(browser, **kw)
        pages.append(p)
        return p

    yield make
    for p in pages:
        p.pg.close()


def wait_serving(url, alive=lambda: True, timeout=60):
    """Poll until the server answers at `url` (or has died), instead of guessing its start-up time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and alive():
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def served():
    """The app served in this process, so tests can read each session's Python `Lesson`."""
    import panel as pn

    from app import Explainer

    sessions = []

    def app():
        explainer = Explainer()
        sessions.append(explainer)
        return explainer

    port = free_port()
    server = pn.serve({"main": app}, port=port, address="127.0.0.1", show=False, threaded=True,
                      websocket_origin=[f"127.0.0.1:{port}"])
    url = f"http://127.0.0.1:{port}/main"
    wait_serving(url)
    sessions.clear()  # the readiness request opened a session of its own
    yield url, sessions
    server.stop()


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    from app.export import main

    out = tmp_path_factory.mktemp("export") / "explainer.html"
    assert main([str(out)]) == 0
    return out
