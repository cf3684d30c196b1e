"""How the tests and the benchmarks start the system Chromium: one place, imported by both (not a conftest)."""

import os
import shutil

from app.bundle import read

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOCAL = ("file:", "data:", "blob:", "about:")
# The page's modules are served from a made-up origin, each as it is in static/: the browser resolves their imports.
ORIGIN = "http://modules.test"
IMPORT = ("async (names) => { window.twin = Object.assign({}, "
          "...await Promise.all(names.map((n) => import(`/${n}`)))); }")


def executable():
    """The system Chromium, or None (Playwright cannot download its own browser here)."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def shell():
    """Chromium's headless shell (Debian's chromium-headless-shell), else the system Chromium, else None.

    The shell is what Playwright itself runs for headless tests (microsoft/playwright#33566): the same Blink, V8
    and Skia as the browser of its version, without the browser's own layer (windows, tabs' UI, extensions): its
    browser process does a third of the whole browser's work, and a run of the suite takes 0.79 × the machine's CPU
    (the README; tests/browser/test_shell.py checks that it shows the page alike). Where a test's claim is the
    browser people use (JupyterLab, an installed export offline, the fonts a page draws) and in the benchmarks, the
    whole browser runs (`launch`)."""
    return os.environ.get("CHROMIUM_SHELL") or shutil.which("chromium-headless-shell") or executable()


def launch(playwright, executable_path=None):
    """The system Chromium (or `executable_path`), headless, with the suite's arguments."""
    return playwright.chromium.launch(executable_path=executable_path or executable(), args=ARGS)


def local_only(target, *also, refused=None):
    """Let a page or context (`target`) load only local URLs (LOCAL, and any prefix in `also`): every other
    request is aborted, and its URL appended to `refused` when given."""
    allowed = (*LOCAL, *also)

    def route(r):
        if r.request.url.startswith(allowed):
            return r.continue_()
        if refused is not None:
            refused.append(r.request.url)
        return r.abort()

    target.route("**/*", route)


def module_page(browser, names):
    """A blank page whose `window.twin` holds the exports of the static/ modules `names`, imported by the browser
    with everything they import."""
    page = browser.new_page()
    page.route(f"{ORIGIN}/**", lambda route: route.fulfill(
        content_type="text/html" if route.request.url == f"{ORIGIN}/" else "text/javascript",
        body="" if route.request.url == f"{ORIGIN}/" else read(route.request.url.removeprefix(f"{ORIGIN}/"))))
    page.goto(f"{ORIGIN}/")
    page.evaluate(IMPORT, list(names))
    return page
