"""The page reads the tables (app/fields.py, app/controls.py, app/document.py READOUTS); it keeps no copy of one.

A list of names restated in a static/*.mjs file drifts from its table unseen: a new readout the page forgot to
hold during a gesture, a view's readout it forgot to empty, a field a step forgot to keep. Each such list is
sent to the page as data instead (app/document.py VIEW, app/rules.py rules_data).
"""

import ast
import re
from pathlib import Path

from app import controls, document, fields

STATIC = Path(__file__).resolve().parents[1] / "static"
# The names the tables hold: readouts, controls, and the fields' state and link keys.
NAMES = ({r.key for r in document.READOUTS} | {c.name for c in controls.CONTROLS}
         | {f.key for f in fields.FIELDS} | {f.link for f in fields.FIELDS if f.link})
STRING_LIST = re.compile(r'\[\s*"[^"\n]*"(?:\s*,\s*"[^"\n]*")*\s*,?\s*\]')


def copies(text):
    """The array literals of three or more strings in JavaScript text that are all names of the tables."""
    found = []
    for m in STRING_LIST.finditer(text):
        items = re.findall(r'"([^"\n]*)"', m.group())
        if len(items) >= 3 and set(items) <= NAMES:
            found.append(items)
    return found


def test_the_finder_finds_a_copy():
    text = 'const HELD = ["probs", "update",\n  "race"];\nconst words = ["a", "b", "c"];\nconst two = ["z0", "names"];'
    assert copies(text) == [["probs", "update", "race"]]


def test_no_module_of_the_page_keeps_a_copy_of_a_table():
    found = {p.name: copies(p.read_text(encoding="utf-8")) for p in sorted(STATIC.glob("*.mjs"))}
    assert {name: lists for name, lists in found.items() if lists} == {}


def module_lists(path):
    """The module-level names of a Python file bound to a literal tuple, list or set of two or more names of the
    tables: a hand list beside a table (the tables themselves are rows, not literals of names)."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        value = getattr(node, "value", None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(value, (ast.Tuple, ast.List, ast.Set)):
            items = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(items) == len(value.elts) >= 2 and set(items) <= NAMES:
                found[ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)] = items
    return found


def test_the_python_finder_finds_a_hand_list(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('HELD = ("probs", "update")\nWORDS = ("a", "b")\nMIXED = ("z", 1)\n')
    assert module_lists(module) == {"HELD": ["probs", "update"]}


def test_no_python_module_keeps_a_hand_list_beside_a_table():
    """What a link may lock (fields.CONTROLLED), what "Start again" writes (tour.RESTART_WRITES), what a step keeps
    (tour.KEPT) and the views' readout columns are made from the rows that say so."""
    found = {p.name: module_lists(p) for p in sorted((STATIC.parent / "app").glob("*.py"))}
    assert {name: lists for name, lists in found.items() if lists} == {}
