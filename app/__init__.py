"""The draggable-logits explainer: a `Lesson` state, its Bokeh document and a Panel view.

`Explainer` is imported on first use: exporting a page needs neither Panel nor its start-up time.
"""

from .state import Lesson

__all__ = ["Explainer", "Lesson"]


def __getattr__(name):
    if name == "Explainer":
        from .explainer import Explainer

        return Explainer
    raise AttributeError(f"module 'app' has no attribute {name!r}")
