"""`core` is pure NumPy: importing it must not pull in the app's UI stack (panel, bokeh, param)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_core_loads_no_ui_module():
    # A fresh interpreter: this test process may already have imported the app.
    check = (
        "import sys, core; "
        "ui = sorted(m for m in sys.modules if m.startswith(('panel', 'bokeh', 'param'))); "
        "print(ui); sys.exit(1 if ui else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, f"import core loaded UI modules: {result.stdout} {result.stderr}"


def test_public_api_is_declared():
    import core

    assert sorted(core.__all__) == sorted(
        name for name in vars(core) if not name.startswith("_") and callable(getattr(core, name))
    )
