"""How the tests and the benchmarks start the system Chromium: one place, imported by both (not a conftest)."""

import base64
import os
import shutil

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOCAL = ("file:", "data:", "blob:", "about:")
IMPORT = "async (src) => { window.twin = await import('data:text/javascript;charset=utf-8;base64,' + src); }"


def executable():
    """The system Chromium, or None (Playwright cannot download its own browser here)."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def launch(playwright):
    return playwright.chromium.launch(executable_path=executable(), args=ARGS)


def module_page(browser, source):
    """A blank page whose `window.twin` is the ES module `source` (one file of static/, or the whole bundle)."""
    page = browser.new_page()
    page.evaluate(IMPORT, base64.b64encode(source.encode("utf-8")).decode())
    return page
