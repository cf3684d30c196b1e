"""The page's JavaScript and CSS, read from the installed package; its modules joined into one ES module.

Each static/*.mjs file is an ES module: it imports what it uses from the others (`import { a, b as c } from
"./x.mjs"`) and exports what they use. Bokeh runs a callback's code as one module with no neighbours to
import from, so `bundle` joins the modules reached from ENTRY into one, keeping each in its own scope:

    const $modules = {"softmax.mjs": {}, ...};            // each module's exports, filled as it runs
    (() => {                                              // ---- static/frame.mjs
      let softmax;                                        // its imports, bound from the others' exports
      $links.push(() => ({ softmax } = $modules["softmax.mjs"]));
      ...                                                 // the module's text, `export ` taken off
    })();
    export default $modules["startup.mjs"].default;

Modules run in import order (depth first, a module after what it imports), as a browser runs them. Modules may
import each other in a cycle, as ES modules may: a module's functions are exported before its body runs and
every module's imports are bound again after each one runs, so a function reached through a cycle is there by
the time anything calls it. `bundle` refuses what a browser would refuse when it loads the page (an import of
a file or a name that does not exist) and what it would find only when the line runs: a name another module
exports, used here, neither imported nor declared. The files are read through importlib.resources, so an
installed package (a wheel, `pip install .` or editable) finds them from any folder.
"""

import base64
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

ENTRY = "startup.mjs"
IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w-]+\.mjs)";[ \t]*\n', re.M)
ANY_IMPORT = re.compile(r"^import\b", re.M)
EXPORT = re.compile(r"^export\s+(?=(?:async\s+)?(?:function\*?|class|const|let)\s)", re.M)
DEFAULT = re.compile(r"^export\s+default\s+", re.M)
TOP_LEVEL = re.compile(r"^(?:export\s+)?(?:async\s+)?(function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)", re.M)
CONSTANT = re.compile(r"[A-Z][A-Z0-9_]+")
IDENTIFIER = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")
# Where a module binds a name of its own that may hide another module's export: declarations, destructuring,
# a function's or an arrow's parameters, a caught error.
BINDINGS = (re.compile(r"\b(?:const|let|var|function\*?|class)\s+([A-Za-z_$][\w$]*)"),
            re.compile(r"\b(?:const|let|var)\s*([{\[][^=;]*?[}\]])\s*="),
            re.compile(r"\bfunction\*?\s*[\w$]*\s*\(([^)]*)\)"),
            re.compile(r"(\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>"),
            re.compile(r"\bcatch\s*\(([^)]*)\)"))
# Comments and the text of strings, so that a name in prose or in a message is not taken for a use.
NOT_CODE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


class MissingFile(RuntimeError):
    """The installed package lacks one of its browser files: it was built or installed incompletely."""


def read(name):
    """The text of static/<name> from the installed package."""
    try:
        return resources.files("static").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as e:
        raise MissingFile(f"the package is missing its browser file static/{name} ({e}); reinstall "
                          "softmax-explainer") from None


def read_bytes(name):
    """The bytes of static/<name> from the installed package (a font)."""
    try:
        return resources.files("static").joinpath(name).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as e:
        raise MissingFile(f"the package is missing its file static/{name} ({e}); reinstall softmax-explainer") from None


@cache
def fonts_css():
    """static/hangul.css with each font's file written into its url() as data: a page that carries its fonts
    needs no request for them (the exported file works offline, the served page asks for nothing more)."""
    css = read("hangul.css")
    for name in re.findall(r'url\("([\w-]+\.woff2)"\)', css):
        data = base64.b64encode(read_bytes(f"fonts/{name}")).decode("ascii")
        css = css.replace(f'url("{name}")', f'url("data:font/woff2;base64,{data}")')
    return css


def fonts_head(href=None):
    """The page head's fonts: their style (`fonts_css`, or a link to it at `href`) and static/fonts_load.js,
    which loads them at once."""
    style = f'<link rel="stylesheet" href="{href}">' if href else f"<style>{fonts_css()}</style>"
    return f"{style}<script>{read('fonts_load.js')}</script>"


@dataclass(frozen=True)
class Module:
    """One static/*.mjs file: its text, what it imports (file → [(exported name, local name)]), what it
    declares at its top level (name → kind: function, class, const, …) and which of those it exports."""
    name: str
    text: str
    imports: dict
    declared: dict
    exported: tuple

    @classmethod
    def parse(cls, name, text):
        imports = {}
        for names, source in IMPORT.findall(text):
            pairs = [tuple(p.strip() for p in item.split(" as ")) for item in names.split(",") if item.strip()]
            imports.setdefault(source, []).extend((p[0], p[-1]) for p in pairs)
        if len(ANY_IMPORT.findall(text)) != len(IMPORT.findall(text)):
            raise ValueError(f"static/{name} has an import the bundle cannot read: write "
                             '`import { a, b as c } from "./file.mjs";`')
        declared = {n: kind.rstrip("*") for kind, n in TOP_LEVEL.findall(text)}
        exported = tuple(TOP_LEVEL.match(text, m.start()).group(2) for m in EXPORT.finditer(text))
        clash = sorted(declared.keys() & {local for pairs in imports.values() for _, local in pairs})
        if clash:
            raise ValueError(f"static/{name} declares {', '.join(clash)}, which it also imports")
        return cls(name, text, imports, declared, exported)

    def body(self):
        """The text with its import lines and `export` keywords taken off."""
        text = IMPORT.sub("", self.text)
        return DEFAULT.sub(f"$modules[{json.dumps(self.name)}].default = ", EXPORT.sub("", text))


def modules(entry=ENTRY, read=read):
    """The modules reached from `entry` through imports, each after the ones it imports (a cycle is entered
    once, where it is first met); MissingFile for an import of a file that is not there, ValueError for a name
    its file does not export."""
    found, order = {}, []

    def visit(name, importer):
        if name in found:
            return
        try:
            text = read(name)
        except MissingFile as e:
            raise MissingFile(f"{e} (static/{importer} imports it)") from None
        found[name] = Module.parse(name, text)
        for source in found[name].imports:
            visit(source, name)
        order.append(found[name])

    visit(entry, entry)
    for m in order:
        for source, pairs in m.imports.items():
            for exported, _ in pairs:
                if exported not in found[source].exported:
                    raise ValueError(f"static/{m.name} imports {exported!r} from ./{source}, which does not export it")
    return order


def unimported(order):
    """(module, name) for each name another module exports that a module calls or, for a CONSTANT, names
    (outside comments and strings, not as a property) but neither imports nor binds itself: in a browser, a
    ReferenceError when the line runs."""
    owners = {n: m.name for m in order for n in m.exported}
    for m in order:
        local = {local for pairs in m.imports.values() for _, local in pairs} | set(m.declared)
        code = NOT_CODE.sub('""', IMPORT.sub("", m.text))
        bound = {n for pattern in BINDINGS for found in pattern.findall(code) for n in IDENTIFIER.findall(found)}
        used = set(re.findall(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(", code))  # called
        used |= {n for n in IDENTIFIER.findall(code) if CONSTANT.fullmatch(n)}  # a constant, anywhere
        for name in sorted(used - local - bound):
            if owners.get(name, m.name) != m.name:
                yield m.name, name


@cache
def bundle(entry=ENTRY, read=read):
    """The modules reached from `entry` joined into one ES module whose default export is the entry's;
    ValueError for what a browser would refuse (see the module's docstring)."""
    order = modules(entry, read)
    missing = [f"static/{m} uses {n!r} without importing it" for m, n in unimported(order)]
    if missing:
        raise ValueError("; ".join(missing))
    parts = ["const $modules = {" + ", ".join(f"{json.dumps(m.name)}: {{}}" for m in order) + "};",
             "const $links = [];", "const $link = () => { for (const link of $links) link(); };"]
    for m in order:
        imported = [local for pairs in m.imports.values() for _, local in pairs]
        functions = [n for n in m.exported if m.declared[n] == "function"]
        others = [n for n in m.exported if m.declared[n] != "function"]
        lines = [f"// ---- static/{m.name}", "(() => {"]
        if imported:
            lines.append(f"let {', '.join(imported)};")
            binds = "; ".join(f"({{ {', '.join(e if e == n else f'{e}: {n}' for e, n in pairs)} }} = "
                              f"$modules[{json.dumps(source)}])" for source, pairs in m.imports.items())
            lines.append(f"$links.push(() => {{ {binds}; }});")
        if functions:
            lines.append(f"Object.assign($modules[{json.dumps(m.name)}], {{ {', '.join(functions)} }});")
        lines.append("$link();")
        lines.append(m.body())
        if others:
            lines.append(f"Object.assign($modules[{json.dumps(m.name)}], {{ {', '.join(others)} }});")
        lines.append("$link();")
        lines.append("})();")
        parts.append("\n".join(lines))
    parts.append(f"export default $modules[{json.dumps(entry)}].default;")
    return "\n".join(parts)
