"""The draggable-logits explainer: a `Lesson` state, its Bokeh document and a Panel view.

Both are imported on first use: exporting a page needs neither Panel nor its start-up time, and the command
line (app/cli.py) starts with nothing heavy loaded, so a Ctrl-C at any moment reaches its handler.
"""

__all__ = ["Explainer", "Lesson"]


def __getattr__(name):
    if name == "Explainer":
        from .explainer import Explainer

        return Explainer
    if name == "Lesson":
        from .state import Lesson

        return Lesson
    raise AttributeError(f"module 'app' has no attribute {name!r}")
