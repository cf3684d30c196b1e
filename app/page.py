"""The served page: one explainer document for everyone, and per visitor a session that holds only the wire.

Python never writes a figure after `build`: the page computes and draws every frame, and a session's only traffic
is the lesson's JSON text on the wire (app/explainer.py). So the explainer a served page shows is built once per
process and language, like the exported file, and sent inside the page's HTML; the visitor's Bokeh session is a
document of an empty root and the wire, whose one callback, static/session_bridge.mjs, joins its wire to
the page's. The page reads its own query, as the exported file reads its hash, and tells Python the lesson at its
first commit; Python reads the same query with the same rules (app/link.py) for the session's lesson.

A session built this way costs the server milliseconds instead of the ~0.9 s of building, converting and sending
a 587-model document (tests/benchmarks/bench_class.py).

`softmax-explainer serve` goes one step further (`write_scripts`): before its server starts, it writes each
language's explainer script (1.1 MB, the same for every visitor) to a file named by its content's hash and serves
that folder (the fonts' style is a file there too), so a page's HTML is a few kB of links and a browser keeps the
script across reloads and lessons; nginx sends it gzipped from the disk (app/stack.py). Plain `panel serve
app/main.py` has no such folder, and its pages carry the script inline. An app embedded in another page with
Bokeh's `server_document` (autoload.js) gets the whole explainer in its session, as before: its page is not ours to
write.
"""

import gzip
import hashlib
import json
import os
import re
from functools import cache
from pathlib import Path

import panel as pn
from bokeh.core.templates import JS_RESOURCES
from bokeh.embed import components
from bokeh.embed.bundle import bundle_for_objs_and_resources
from bokeh.models import CustomJS, Div
from bokeh.server.views.static_handler import StaticHandler
from markupsafe import Markup

from . import bundle
from .document import VIEWPORT_META, WireModel, build
from .explainer import AUTOLOAD, Wired, lesson_from_query, session_explainer, visitor_path
from .export import OwnOnly
from .server import SCRIPTS_ENV, SCRIPTS_ROUTE, release_memory_soon
from .state import Lesson
from .strings import LANGS, TEXT

# Bokeh's page template (Panel's base.html) with the explainer after the session's roots; its parts are
# template variables, so a request compiles this short text and not the 1.2 MB they hold. The scripts are the ones
# the explainer's models need, from this server (BokehJS and its widgets): not the Panel bundle, Tabulator and
# the rest that Panel's page links for any app (2 MB more a page that nothing here runs).
TEMPLATE = ("{% block css_resources %}{% endblock %}{% block js_resources %}{{ explainer_js }}{% endblock %}"
            f"{{% block postamble %}}{VIEWPORT_META}{{{{ explainer_head }}}}{{% endblock %}}"
            "{% block contents %}{{ super() }}{{ explainer_body }}{% endblock %}")


@cache
def built_parts(lang):
    """The template variables of every served page in `lang`, built here: the scripts its explainer needs, the
    fonts' style, and the explainer's element and script (Bokeh's `components`: its document's JSON and the call
    that draws it)."""
    doc = build(Lesson(lang=lang).state(), mode="served")
    # The page's wire starts empty: the page writes it at its first commit, which the bridge sends to Python.
    doc.wire.text = ""
    resources = OwnOnly("server", root_url="", path_versioner=StaticHandler.append_version)
    needed = bundle_for_objs_and_resources([doc.layout], resources)
    scripts = JS_RESOURCES.render(js_files=needed.js_files, js_raw=needed.js_raw)
    script, div = components(doc.layout, theme=None)
    return {"explainer_js": scripts, "explainer_head": bundle.fonts_head(),
            "explainer_body": f"{div}{script}"}


def hashed(folder, stem, suffix, text):
    """Write `text` to folder/STEM-HASH.SUFFIX and its gzip beside it (HASH: the first 12 hex digits of its
    SHA-256); returns the file's name with `?v=HASH`."""
    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()[:12]
    name = f"{stem}-{digest}.{suffix}"
    (folder / name).write_bytes(data)
    (folder / f"{name}.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    return f"{name}?v={digest}"


def write_scripts(folder):
    """Write each language's explainer script into `folder` as `explainer-LANG-HASH.js` and the fonts' style
    as `fonts-HASH.css` (`hashed`, a gzip beside each for nginx), and `pages.json`: each language's template
    variables, which link them. Returns `folder`. A server whose environment names the folder in
    SCRIPTS_ENV, and which serves it at SCRIPTS_ROUTE, sends these pages."""
    folder.mkdir(parents=True, exist_ok=True)
    # Relative links, so that they resolve under a proxy's path prefix too; `v` makes Tornado's static handler
    # send a file with a cache time of years (nginx sends them so by their names).
    head = bundle.fonts_head(href=f"{SCRIPTS_ROUTE}/{hashed(folder, 'fonts', 'css', bundle.fonts_css())}")
    pages = {}
    for lang in LANGS:
        parts = built_parts(lang)
        div, script = re.fullmatch(r"(.*?)<script>(.*)</script>\s*", parts["explainer_body"], re.S).groups()
        body = f'{div}<script src="{SCRIPTS_ROUTE}/{hashed(folder, f"explainer-{lang}", "js", script)}"></script>'
        pages[lang] = {**parts, "explainer_head": head, "explainer_body": body}
    (folder / "pages.json").write_text(json.dumps(pages), encoding="utf-8")
    return folder


@cache
def explainer_parts(lang):
    """The template variables of every served page in `lang`: those `write_scripts` wrote when the server has
    its folder (SCRIPTS_ENV), else those built here, the script inline."""
    folder = os.environ.get(SCRIPTS_ENV)
    parts = (json.loads((Path(folder) / "pages.json").read_text(encoding="utf-8"))[lang] if folder
             else built_parts(lang))
    return {key: Markup(value) for key, value in parts.items()}


class ServedPage(Wired):
    """A visitor's session: the page's lesson through the session's own wire, in the session's document."""

    def __init__(self, doc, **params):
        super().__init__(**params)
        wire = WireModel(text="", name="session_wire")
        self._bind(wire)
        bridge = CustomJS(code=bundle.read("session_bridge.mjs"), args={"wire": wire})
        root = Div(visible=False, name="session")
        # What puts the wire in the document Python syncs: a document event's callback is sent with the document,
        # not kept among its models, and the page's writes to a model the server does not hold would be refused.
        root.js_on_change("visible", bridge)
        doc.add_root(root)
        doc.js_on_event("document_ready", bridge)
        doc.js_on_event("connection_lost", bridge)
        doc.template = TEMPLATE
        doc.template_variables.update(explainer_parts(self.lesson.lang))


def serve_session(lang="en"):
    """Fill the served session being opened (Panel's current document): a page request gets the shared
    explainer and a `ServedPage`; an autoload.js request (an app embedded elsewhere) the whole `Explainer`.
    The lesson is the one the query describes (`lang` when it names no language). Returns the session's
    lesson holder (`.lesson`, `.page_state`, `.document`)."""
    doc = pn.state.curdoc
    doc.on_session_destroyed(release_memory_soon)
    lesson = lesson_from_query(getattr(doc.session_context.request, "query", "") or "", lang)
    doc.title = TEXT[lesson.lang]["title"]
    if (visitor_path() or "").endswith(AUTOLOAD):
        explainer = session_explainer(lesson)
        explainer.servable(location=False)
        return explainer
    return ServedPage(doc, lesson=lesson)
