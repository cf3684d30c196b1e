"""Write the node tests' fixtures: Python's answers on the shared cases, one JSON file per node test.

    python tests/js/fixtures.py [folder]        # tests/js/fixtures/ unless a folder is given

They take seconds to make, so none is kept in the repository: tests/test_js_tier.py writes them afresh for each
run, and this command writes them for `node --test tests/js/` on its own (tests/js/fixture.mjs reads them).
"""

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Each fixture and the script whose build() writes it (the script's docstring says what it holds).
SCRIPTS = {"rules.json": "make_fixture.py", "twins.json": "make_twins.py", "lessons.json": "make_lessons.py",
           "digits.json": "make_digits.py", "calibration.json": "make_calibration.py",
           "decoding.json": "make_decoding.py", "pasted.json": "make_pasted.py",
           "fold.json": "make_fold.py"}


def build(script):
    spec = importlib.util.spec_from_file_location(Path(script).stem, HERE / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build()


def write(folder):
    """Every fixture written into `folder`; their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, script in SCRIPTS.items():
        (folder / name).write_text(build(script), encoding="utf-8")
    return [folder / name for name in SCRIPTS]


if __name__ == "__main__":
    for path in write(sys.argv[1] if len(sys.argv) > 1 else HERE / "fixtures"):
        print(f"wrote {path} ({path.stat().st_size / 1e3:.0f} kB)")
