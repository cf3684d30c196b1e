"""The page's JavaScript and CSS, read from the installed package and joined into one ES module.

The files in static/ are parts of one module: each exports its functions, and later files use earlier
files' names directly. They are joined as they are, in the order of FILES, with no text edited: no import
line to strip, no name to rewrite. A top-level name declared in two files would be a SyntaxError in the
browser; `bundle` refuses it first, naming both files. The files are read through importlib.resources, so
an installed package (a wheel, `pip install .` or editable) finds them from any folder.
"""

import base64
import re
from functools import cache
from importlib import resources

# The maths and the rules first (pure), then the page glue read top-down: Bokeh's internals, the lesson and its
# commit, drawing, controls, gestures, start-up (whose default export is the callback).
FILES = ("digits.mjs", "softmax.mjs", "sampling.mjs", "calibration.mjs", "decoding.mjs", "rules.mjs", "actions.mjs",
         "readouts.mjs", "lab.mjs", "frame.mjs", "link.mjs", "tour.mjs",
         "bokeh_adapter.mjs", "lesson.mjs", "draw.mjs", "calibration_view.mjs", "lm_view.mjs", "controls.mjs",
         "gestures.mjs", "startup.mjs")
TOP_LEVEL = re.compile(r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+"
                       r"([A-Za-z_$][\w$]*)", re.M)


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


@cache
def bundle(files=FILES):
    """The files joined into one module; ValueError if two of them declare the same top-level name."""
    texts = [(name, read(name)) for name in files]
    owner = {}
    for name, text in texts:
        for declared in TOP_LEVEL.findall(text):
            if declared in owner:
                raise ValueError(f"static/{name} declares {declared!r}, which static/{owner[declared]} declares "
                                 "too: the bundle shares one scope")
            owner[declared] = name
    return "\n".join(f"// ---- static/{name}\n{text}" for name, text in texts)
