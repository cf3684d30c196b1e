"""app/bundle.py joins the ES modules of static/ into the one module Bokeh runs, each in its own scope, and
refuses what a browser would refuse: an import of a file or a name that is not there, a name used unimported."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app.bundle import ENTRY, MissingFile, bundle, modules, unimported

STATIC = Path(__file__).resolve().parents[1] / "static"


def reader(files):
    """A `read` over a dict of file texts, as bundle.read over static/."""
    def read(name):
        if name not in files:
            raise MissingFile(name)
        return files[name]
    return read


def test_every_module_imports_what_it_uses_of_another_and_the_page_reaches_them_all():
    order = modules()
    assert list(unimported(order)) == []
    # session_bridge.mjs is the served page's second callback, a module on its own.
    assert {m.name for m in order} == {p.name for p in STATIC.glob("*.mjs")} - {"session_bridge.mjs"}
    for m in order:
        others = {n for o in order if o is not m for n in o.exported}
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", m.text, flags=re.S)
        if any(re.search(rf"(?<![\w$.]){re.escape(n)}\s*\(", code) for n in others - set(m.declared)):
            assert m.imports, f"static/{m.name} calls another module's function and imports nothing"


def test_each_module_runs_after_the_modules_it_imports_unless_they_import_it_back():
    order = [m.name for m in modules()]
    assert order[-1] == ENTRY
    imports = {m.name: set(m.imports) for m in modules()}

    def reaches(a, b, seen=()):
        return b in imports[a] or any(reaches(c, b, (*seen, a)) for c in imports[a] if c not in seen)

    for m, sources in imports.items():
        for source in sources:
            assert order.index(source) < order.index(m) or reaches(source, m), (m, source)


def test_a_name_used_without_its_import_is_refused():
    files = {"a.mjs": 'import { f } from "./b.mjs";\nexport default () => f() + g(1) + LIMIT;\n',
             "b.mjs": "export const LIMIT = 2;\nexport function f() { return 1; }\n"
                      "export function g(x) { return x; }\n"}
    assert list(unimported(modules("a.mjs", read=reader(files)))) == [("a.mjs", "LIMIT"), ("a.mjs", "g")]
    # A parameter or a local of the same name is the module's own.
    files["a.mjs"] = 'import { f } from "./b.mjs";\nexport default (g) => f() + g(1);\n'
    assert list(unimported(modules("a.mjs", read=reader(files)))) == []


@pytest.mark.parametrize(("a", "message"), [
    ('import { h } from "./b.mjs";\n', r"static/a\.mjs imports 'h' from \./b\.mjs, which does not export it"),
    ('import { f } from "./b.mjs";\nfunction f() {}\n', r"static/a\.mjs declares f, which it also imports"),
    ('import * as b from "./b.mjs";\n', r"static/a\.mjs has an import the bundle cannot read"),
])
def test_an_import_a_browser_would_refuse_is_refused_first(a, message):
    files = {"a.mjs": a, "b.mjs": "export function f() { return 1; }\n"}
    with pytest.raises(ValueError, match=message):
        modules("a.mjs", read=reader(files))


def test_an_import_of_a_file_that_is_not_there_names_the_file_and_its_importer():
    with pytest.raises(MissingFile, match=r"c\.mjs \(static/a\.mjs imports it\)"):
        modules("a.mjs", read=reader({"a.mjs": 'import { f } from "./c.mjs";\n'}))


def run_in_node(tmp_path, source, call):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing")
    (tmp_path / "bundle.mjs").write_text(source, encoding="utf-8")
    (tmp_path / "run.mjs").write_text(f'import run from "./bundle.mjs";\nconsole.log(JSON.stringify({call}));\n')
    done = subprocess.run([node, tmp_path / "run.mjs"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_modules_keep_their_own_scope_and_reach_each_other_through_a_cycle(tmp_path):
    files = {"a.mjs": 'import { twice, x as bx } from "./b.mjs";\nconst x = "a";\n'
                      "export function name() { return x; }\nexport default (n) => [twice(n), x, bx];\n",
             "b.mjs": 'import { name } from "./a.mjs";\nexport const x = "b";\n'
                      "export function twice(n) { return `${name()}${n * 2}`; }\n"}
    assert run_in_node(tmp_path, bundle("a.mjs", read=reader(files)), "run(21)") == ["a42", "a", "b"]


def test_the_page_s_bundle_loads_as_one_module_whose_default_is_the_callback(tmp_path):
    assert run_in_node(tmp_path, bundle(), "typeof run") == "function"
