"""The explainer as a Panel view: the Bokeh document of app/document.py bound to a `Lesson`.

The browser computes every frame; this view carries each finished gesture into the lesson (so Python
holds the authoritative state) and carries changes made in Python (a notebook cell) back to the page.
"""

import math

import panel as pn
import param
from bokeh.models import ColumnDataSource

from .document import build
from .state import Lesson


class Explainer(pn.viewable.Viewer):
    """Drag the logits, watch softmax and cross-entropy follow.

    >>> explainer = Explainer(lesson=Lesson(T=0.5))
    >>> explainer.lesson.probabilities().round(3)
    array([0.864, 0.117, 0.019])
    """

    lesson = param.ClassSelector(class_=Lesson, doc="The state this view shows and updates.")

    def __init__(self, **params):
        params.setdefault("lesson", Lesson())
        super().__init__(**params)
        self._doc = build(self.lesson)
        self._doc.logits.on_change("data", self._logits_from_browser)
        self._doc.temperature.on_change("value", self._temperature_from_browser)
        self._doc.true_class.on_change("value", self._true_class_from_browser)
        self.lesson.param.watch(self._to_browser, ["logits", "T", "true_class"], precedence=1)

    def _logits_from_browser(self, attr, old, new):
        # A point deleted with the drawing tool's Backspace arrives here once before the page puts it
        # back (static/explainer.mjs, `data`): the lesson keeps its classes and waits for that.
        if len(new["z"]) == len(self.lesson.class_names):
            self.lesson.logits = [float(z) for z in new["z"]]

    def _temperature_from_browser(self, attr, old, new):
        # The slider holds log10 T; a T set in Python came through log10 and back, so keep it as typed.
        if not math.isclose(10.0**new, self.lesson.T, rel_tol=1e-12):
            self.lesson.T = 10.0**new

    def _true_class_from_browser(self, attr, old, new):
        self.lesson.true_class = int(new)

    def _to_browser(self, *events):
        d = self._doc
        if list(d.logits.data["z"]) != self.lesson.logits:
            d.logits.data = {"z": list(self.lesson.logits)}
        if not math.isclose(10.0**d.temperature.value, self.lesson.T, rel_tol=1e-12):
            d.temperature.value = math.log10(self.lesson.T)
        if d.true_class.value != str(self.lesson.true_class):
            d.true_class.value = str(self.lesson.true_class)

    @property
    def logits_source(self) -> ColumnDataSource:
        """The `logits` source the learner drags (read it to see what the page shows)."""
        return self._doc.logits

    def __panel__(self):
        return pn.pane.Bokeh(self._doc.layout)
