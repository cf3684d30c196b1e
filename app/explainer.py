"""The explainer as a Panel view: the Bokeh document of app/document.py bound to a `Lesson`.

The browser computes every frame; a finished gesture arrives here once, as a whole lesson state in JSON text
(app/document.py `WireModel`), and goes through the one gatekeeper (`Lesson.set_state`). The text is measured
before it is read, so a forged megabyte costs nothing. A state the lesson refuses is logged in one line and the
page is put back to the lesson's valid state with a notice; other sessions never notice. A change made in
Python (a notebook cell) goes to the page at once: in a notebook Panel sends edits of raw Bokeh models only
through `pn.io.push_notebook`, so the view pushes them itself.
"""

import json
import logging
import reprlib

import panel as pn
import param
from tornado.ioloop import IOLoop

from . import tour
from .document import build
from .link import link_pairs, parse_link
from .refusal import Refusal
from .state import STATE_KEYS, Lesson
from .steps import STEPS

log = logging.getLogger("softmax_explainer")
STATE_TEXT_MAX = 32 * 1024  # characters: a valid lesson's text is about 3,000 at most
_shown = reprlib.Repr()  # Python 3.11's takes no keywords
_shown.maxstring = _shown.maxother = 60


def state_from_text(text):
    """A lesson state from the page's JSON text; a Refusal when it is too long or is not JSON. Its rules are
    checked by `Lesson.set_state`.

    >>> state_from_text('{"T": 2}')
    {'T': 2}
    >>> state_from_text("[" * 40000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    app.refusal.Refusal: a lesson state is at most 32768 characters of JSON, got 40000
    """
    if not isinstance(text, str):
        raise Refusal("refused", f"a lesson state is JSON text, got {type(text).__name__}")
    if len(text) > STATE_TEXT_MAX:
        raise Refusal("refused", f"a lesson state is at most {STATE_TEXT_MAX} characters of JSON, got {len(text)}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise Refusal("refused", f"a lesson state is JSON text, got {_shown.repr(text)} ({type(e).__name__})") from None


def visitor_path():
    """The path a visitor asked for (/main), or None outside a visitor's session: in a notebook, or while
    `panel serve --warm` runs the app once before serving (its request has no path)."""
    context = pn.state.curdoc.session_context if pn.state.curdoc else None
    return getattr(getattr(context, "request", None), "path", None)


# Where Bokeh's routes for an app end: an app embedded with `server_document` is requested at its autoload.js, and a
# session may be made at its websocket (from an embed's token, on another process behind nginx).
APP_ROUTES = ("/autoload.js", "/ws")


def served_context():
    """(mode, app path, app URL): "served" inside a `panel serve` session (where links live in the query).

    The URL is the app's own address for "copy link", from the request this server answered. Never from a request
    argument such as `bokeh-absolute-url`: a link could name any address there.
    """
    if pn.state.curdoc is None or pn.state.curdoc.session_context is None:
        return "notebook", "", ""
    request = pn.state.curdoc.session_context.request
    path = visitor_path() or ""
    for route in APP_ROUTES:
        path = path.removesuffix(route)
    host = getattr(request, "host", None)
    return "served", path, f"{request.protocol}://{host}{path}" if host else ""


def lesson_from_query(query, lang="en"):
    """The lesson a served page's raw query text describes (the app reads its query itself: app/link.py).

    The `bokeh-*` keys Bokeh's embedding adds to an autoload request are not the link's, so no notice names
    them; a page request that carries one never gets here (app/server.py redirects it).
    """
    state, _ = parse_link([(k, v) for k, v in link_pairs(query) if not k.startswith("bokeh-")], lang)
    lesson = Lesson(lang=state["lang"])
    lesson.set_state(tour.opened(state, STEPS))
    return lesson


class Wired(param.Parameterized):
    """A lesson kept in step with a page through a wire (app/document.py `WireModel`): what the page sends goes
    through the gatekeeper, what Python changes goes back. `_wire` is the wire; `_push` sends a change made in
    Python where the document does not send it by itself (a notebook)."""

    lesson = param.ClassSelector(class_=Lesson, constant=True,
                                 doc="The state this view shows and updates (set when the view is made).")

    def _bind(self, wire):
        self._wire = wire
        wire.on_change("text", self._from_page)
        self.lesson.param.watch(self._to_page, list(STATE_KEYS.values()), precedence=1)

    def _from_page(self, attr, old, new):
        try:
            state = state_from_text(new)
            if state != self.lesson.state():
                self.lesson.set_state(state)
        except (ValueError, TypeError) as e:  # a Refusal is a ValueError; a state of the wrong shape, a TypeError
            log.warning("refused a lesson state from the page: %s", " ".join(str(e).split())[:300])
            self.lesson.notice = "refused"
            self._to_page()

    def _page_state(self):
        """The lesson the page last sent or was sent (None when that text is not a lesson)."""
        try:
            return state_from_text(self._wire.text)
        except ValueError:
            return None

    def _to_page(self, *events):
        state = self.lesson.state()
        if self._page_state() != state:
            self._wire.text = json.dumps(state, ensure_ascii=False)
            self._push()

    def _push(self):
        """Send a change made in Python to the page: served, Bokeh sends the wire's change by itself."""

    @property
    def page_state(self):
        """The lesson the page last sent or was sent, as a dict (None if that was not a lesson)."""
        return self._page_state()

    @property
    def document(self):
        """The Bokeh document that holds the wire: the one to lock for a change made from another thread."""
        return self._wire.document


class Explainer(Wired, pn.viewable.Viewer):
    """Drag the logits, watch softmax and cross-entropy follow.

    >>> explainer = Explainer(lesson=Lesson(T=0.5))
    >>> explainer.lesson.probabilities().round(3)
    array([0.864, 0.117, 0.019])
    """

    def __init__(self, **params):
        unknown = set(params) - set(self.param)
        if unknown:
            raise TypeError(f"Explainer() got an unexpected keyword argument {sorted(unknown)[0]!r}")
        lesson = params.setdefault("lesson", Lesson())
        if not isinstance(lesson, Lesson):
            raise TypeError(f"Explainer(lesson=...) takes a Lesson, got {type(lesson).__name__}")
        super().__init__(**params)
        mode, app_path, app_url = served_context()
        self._doc = build(self.lesson.state(), mode=mode, app_path=app_path, app_url=app_url)
        self._pane = pn.pane.Bokeh(self._doc.layout)
        self._push_waiting = False
        self._bind(self._doc.wire)

    @classmethod
    def from_logits(cls, x, names=None, T=1.0, y=None, **params):
        """The explainer on a row of logits of one's own (`Lesson.from_logits`, which it makes): a PyTorch
        tensor, a NumPy row, a list or printed text; more than ten values are folded (`explainer.lesson.fold`).

        >>> Explainer.from_logits("tensor([2.0, 1.0, 0.1])", names=["cat", "dog", "bird"]).lesson.class_names
        ['cat', 'dog', 'bird']
        """
        return cls(lesson=Lesson.from_logits(x, names=names, T=T, y=y, **params))

    def _push(self):
        """Send the document's changes to a notebook output once its comm is open; elsewhere do nothing.

        Panel's `push_notebook` before the page has opened the comm (cells run before their output is drawn:
        "Run all") takes the changes made so far and tries them again 0.1 s later, each push on a timer of its
        own, so the lesson of one cell could arrive after the next cell's and stay on the page. The changes
        wait in the document instead, and one retry at a time sends them all, in order, once it is open.
        """
        views = [pn.state._views[ref] for ref in self._pane._models if ref in pn.state._views]
        if any(comm is not None and comm._comm is None for *_, comm in views):
            if not self._push_waiting:
                self._push_waiting = True
                IOLoop.current().call_later(0.1, self._push_again)
            return
        pn.io.push_notebook(self._pane)

    def _push_again(self):
        self._push_waiting = False
        self._push()

    def __panel__(self):
        return self._pane
