"""How the tests and the benchmarks start the system Chromium: one place, imported by both (not a conftest)."""

import os
import shutil

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOCAL = ("file:", "data:", "blob:", "about:")


def executable():
    """The system Chromium, or None (Playwright cannot download its own browser here)."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def launch(playwright):
    return playwright.chromium.launch(executable_path=executable(), args=ARGS)
