"""The draggable-logits explainer: a `Lesson` state, its Bokeh document and a Panel view."""

from .explainer import Explainer
from .state import Lesson

__all__ = ["Explainer", "Lesson"]
