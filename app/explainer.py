"""The explainer as a Panel view: the Bokeh document of app/document.py bound to a `Lesson`.

The browser computes every frame; a finished gesture arrives here once, as a whole lesson state, and goes
through the one gatekeeper (`Lesson.set_state`). A state the lesson refuses is logged in one line and the
page is put back to the lesson's valid state with a notice; other sessions never notice. A change made in
Python (a notebook cell) goes to the page at once: in a notebook Panel sends edits of raw Bokeh models only
through `pn.io.push_notebook`, so the view pushes them itself.
"""

import logging

import panel as pn
import param

from .document import VIEWPORT, build
from .link import parse_link
from .state import STATE_KEYS, Lesson
from .strings import TEXT

log = logging.getLogger("softmax_explainer")


def visitor_path():
    """The path a visitor asked for (/main), or None outside a visitor's session: in a notebook, or while
    `panel serve --warm` runs the app once before serving (its request has no path)."""
    context = pn.state.curdoc.session_context if pn.state.curdoc else None
    return getattr(getattr(context, "request", None), "path", None)


def _served_context():
    """(mode, app path, app URL): "served" inside a `panel serve` session (where links live in the query).

    The URL is the app's own address for "copy link": an app embedded in a course page with Bokeh's
    `server_document` is requested from autoload.js, whose request names the app's address itself.
    """
    if pn.state.curdoc is None or pn.state.curdoc.session_context is None:
        return "notebook", "", ""
    request = pn.state.curdoc.session_context.request
    path = visitor_path() or ""
    absolute = getattr(request, "arguments", {}).get("bokeh-absolute-url", [b""])[0].decode("utf-8", "replace")
    host = getattr(request, "host", None)
    url = absolute or (f"{request.protocol}://{host}{path}" if host else "")
    return "served", path, url


def lesson_from_query(args, lang="en"):
    """The lesson a served page's query describes (Panel's `session_args`: lists of bytes per key)."""
    pairs = [(key, value.decode("utf-8", "replace")) for key, values in args.items() for value in values]
    state, _ = parse_link(pairs, lang)
    lesson = Lesson(lang=state["lang"])
    lesson.set_state(state)
    return lesson


def session_explainer(lang="en"):
    """The explainer for the served session being opened: the lesson its query describes (`lang` when the
    query names no language), its page titled in that language and laid out at a phone's own width."""
    pn.state.curdoc.template = VIEWPORT
    explainer = Explainer(lesson=lesson_from_query(pn.state.session_args, lang))
    pn.state.curdoc.title = TEXT[explainer.lesson.lang]["title"]
    return explainer


class Explainer(pn.viewable.Viewer):
    """Drag the logits, watch softmax and cross-entropy follow.

    >>> explainer = Explainer(lesson=Lesson(T=0.5))
    >>> explainer.lesson.probabilities().round(3)
    array([0.864, 0.117, 0.019])
    """

    lesson = param.ClassSelector(class_=Lesson, constant=True,
                                 doc="The state this view shows and updates (set when the view is made).")

    def __init__(self, **params):
        params.setdefault("lesson", Lesson())
        super().__init__(**params)
        mode, app_path, app_url = _served_context()
        self._doc = build(self.lesson.state(), mode=mode, app_path=app_path, app_url=app_url)
        self._pane = pn.pane.Bokeh(self._doc.layout)
        self._doc.lesson.on_change("state", self._from_page)
        self.lesson.param.watch(self._to_page, list(STATE_KEYS.values()), precedence=1)

    def _from_page(self, attr, old, new):
        if new == self.lesson.state():
            return
        try:
            self.lesson.set_state(new)
        except (ValueError, TypeError) as e:  # a Refusal is a ValueError; a state of the wrong shape, a TypeError
            log.warning("refused a lesson state from the page: %s", str(e)[:300])
            self.lesson.notice = "refused"
            self._to_page()

    def _to_page(self, *events):
        state = self.lesson.state()
        if self._doc.lesson.state != state:
            self._doc.lesson.state = state
            pn.io.push_notebook(self._pane)  # in a notebook output; elsewhere there is no comm and it does nothing

    @property
    def document_lesson(self):
        """The lesson model in the page's document (read it to see what the page holds)."""
        return self._doc.lesson

    def __panel__(self):
        return self._pane
