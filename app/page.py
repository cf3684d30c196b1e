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
app/main.py` has no such folder, and its pages carry the script inline.

An app embedded in another page with Bokeh's `server_document` (autoload.js) has the same session of a wire: its page
is not ours to write, so the bridge puts the shared explainer into it (`embed_parts`), and a learner's autoload
request costs what a page request costs. Building a whole explainer per autoload request let one client freeze a
class (tests/benchmarks/bench_embed_load.py).
"""

import gzip
import hashlib
import json
import os
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote

import panel as pn
from bokeh.core.templates import JS_RESOURCES
from bokeh.document import Document
from bokeh.embed import components
from bokeh.embed.bundle import bundle_for_objs_and_resources
from bokeh.io.doc import patch_curdoc
from bokeh.models import CustomJS, Div
from bokeh.server.views.static_handler import StaticHandler
from markupsafe import Markup

from . import bundle
from .document import VIEWPORT_META, WireModel, build
from .explainer import Wired, lesson_from_query, served_context
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
    # `components` copies the current document's JS event callbacks into the page: under a blank document of its
    # own it copies none, not a session's (built during --warm) nor a destroyed document's (which raises).
    blank = Document()
    with patch_curdoc(blank):
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


# Bokeh's autoload request names the element it embeds into; the arguments travel in the session's signed token, so a
# session that another process makes from that token (behind nginx: the embedding page sends no cookie) knows them.
AUTOLOAD_ELEMENT = "bokeh-autoload-element"


def embed_link(request):
    """The link of an app embedded with `server_document`: its autoload request's arguments without Bokeh's own, as
    query text (the page reads the same text by the same rules); None when the session is not an embed's.

    >>> class Request: arguments = {"bokeh-autoload-element": [b"p1"], "z": [b"1,2,3"], "names": ["a b,é,c".encode()]}
    >>> embed_link(Request())
    'z=1%2C2%2C3&names=a%20b%2C%C3%A9%2Cc'
    >>> embed_link(None) is None
    True
    """
    arguments = getattr(request, "arguments", None) or {}
    if AUTOLOAD_ELEMENT not in arguments:
        return None
    # Tornado's keys are the query's bytes read as Latin-1; its values, the bytes.
    return "&".join(f"{quote(key.encode('latin-1', 'replace'), safe='')}={quote(value, safe='')}"
                    for key, values in arguments.items() if not key.startswith("bokeh-") for value in values)


def embed_parts(lang, link):
    """What the bridge puts into a page that embeds the app: the shared explainer's element and script
    (`explainer_parts`: a link to the script file when the server has one, which the browser keeps, else the script
    itself), the fonts' style, the app's address (for its relative links, "copy link" and the server's return: from
    the request this server answered, never from a request argument) and the embed's link."""
    parts = explainer_parts(lang)
    return {"url": served_context()[2], "link": link, "head": str(parts["explainer_head"]),
            "body": str(parts["explainer_body"])}


class ServedPage(Wired):
    """A visitor's session: the page's lesson through the session's own wire, in the session's document. With `embed`
    (an app embedded in another page: `embed_parts`), the bridge puts the shared explainer into that page too."""

    def __init__(self, doc, embed=None, **params):
        super().__init__(**params)
        wire = WireModel(text="", name="session_wire")
        self._bind(wire)
        root = Div(visible=False, name="session")
        bridge = CustomJS(code=bundle.read("session_bridge.mjs"), args={"wire": wire, "root": root, "embed": embed})
        # What puts the wire in the document Python syncs: a document event's callback is sent with the document,
        # not kept among its models, and the page's writes to a model the server does not hold would be refused.
        root.js_on_change("visible", bridge)
        doc.add_root(root)
        doc.js_on_event("document_ready", bridge)
        doc.js_on_event("connection_lost", bridge)
        doc.template = TEMPLATE
        doc.template_variables.update(explainer_parts(self.lesson.lang))


def serve_session(lang="en"):
    """Fill the served session being opened (Panel's current document) with a `ServedPage`, for a page of ours or for
    an app embedded elsewhere (an autoload.js request, or a session made from its token). The lesson is the one the
    query describes (`lang` when it names no language). Returns the session's lesson holder (`.lesson`,
    `.page_state`, `.document`)."""
    doc = pn.state.curdoc
    doc.on_session_destroyed(release_memory_soon)
    # No session context: Panel's /liveness?endpoint= builds a document with none.
    request = doc.session_context.request if doc.session_context else None
    link = embed_link(request)
    lesson = lesson_from_query((getattr(request, "query", "") or "") if link is None else link, lang)
    doc.title = TEXT[lesson.lang]["title"]
    return ServedPage(doc, embed=None if link is None else embed_parts(lesson.lang, link), lesson=lesson)
