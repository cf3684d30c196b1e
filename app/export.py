"""Write the explainer as one self-contained HTML file: every script and style inlined, no network needed.

    python -m app.export explainer.html --logits 3,1,0.2 --temperature 0.5 --true-class dog

Pure Bokeh (`file_html` with INLINE resources) rather than Panel's `save`, which still links stylesheets
from a CDN (panel#6759, #7073). The page runs the same document and callbacks as the served app.
"""

import argparse
import math
import os
import sys
import tempfile
from pathlib import Path

from bokeh.document import Document
from bokeh.embed import file_html
from bokeh.resources import Resources

from .document import build
from .state import LOGIT_LIMIT, T_BOUNDS, Lesson
from .strings import TEXT, default_class_names


class InlineOnly(Resources):
    """Bokeh's INLINE resources without other packages' external files.

    Bokeh links the `__javascript__`/`__css__` URLs of every model class imported in the process; once
    Panel is imported that includes a CDN script (es-module-shims), which an offline page cannot load.
    """

    def __init__(self, components=None):
        super().__init__(mode="inline", components=components)

    def clone(self, *, components=None):
        return InlineOnly(components=components if components is not None else list(self.components))

    def _collect_external_resources(self, resource_attr):
        return []


def page_html(lesson: Lesson) -> str:
    """The whole exported page for `lesson` as a string."""
    doc = Document()
    doc.add_root(build(lesson).layout)
    return file_html(doc, InlineOnly(), title=TEXT[lesson.lang]["title"])


def write_page(lesson: Lesson, path) -> Path:
    """Write the page next to its final place first, so a failed write never leaves a broken file."""
    path = Path(path)
    html = page_html(lesson)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".explainer-", suffix=".html")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(html)
        # mkstemp makes the file private (0600); a page for a web host must be readable like any new file.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _numbers(text):
    try:
        z = [float(v) for v in text.split(",")]
    except ValueError:
        z = [math.nan]
    if not all(math.isfinite(v) and abs(v) <= LOGIT_LIMIT for v in z):
        raise argparse.ArgumentTypeError(
            f"logits must be finite numbers within ±{LOGIT_LIMIT:g} separated by commas, got {text!r}")
    return z


def _names(text):
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise argparse.ArgumentTypeError(f"class names must be non-empty and separated by commas, got {text!r}")
    return names


class OneLineErrors(argparse.ArgumentParser):
    """An instructor sees one line saying what is wrong, not a usage block."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _temperature(text):
    lo, hi = T_BOUNDS
    try:
        T = float(text)
    except ValueError:
        T = math.nan
    if not lo <= T <= hi:
        raise argparse.ArgumentTypeError(f"temperature T must be a number from {lo:g} to {hi:g}, got {text!r}")
    return T


def parser(prog="python -m app.export"):
    p = OneLineErrors(prog=prog, description=__doc__.splitlines()[0])
    p.add_argument("out", help="the HTML file to write, e.g. explainer.html")
    p.add_argument("--logits", type=_numbers, help="starting logits, e.g. 2,1,0.1 (one per class)")
    p.add_argument("--classes", type=_names, help="class names, e.g. cat,dog,bird (default: as many as logits)")
    p.add_argument("--temperature", "-T", type=_temperature, default=1.0, help="starting temperature T (0.01 to 100)")
    p.add_argument("--true-class", default="0", help="the true class: its name or its index (default 0)")
    p.add_argument("--lang", choices=sorted(TEXT), default="en", help="language of every label")
    return p


def lesson_from_args(args) -> Lesson:
    """The lesson the options describe; ValueError with a one-line reason when they do not fit."""
    logits = args.logits or [2.0, 1.0, 0.1]
    names = args.classes or default_class_names(args.lang, len(logits))
    if len(names) != len(logits):
        raise ValueError(f"{len(names)} class names but {len(logits)} logits")
    if args.true_class in names:
        y = names.index(args.true_class)
    elif args.true_class.isdigit() and int(args.true_class) < len(names):
        y = int(args.true_class)
    else:
        choices = f"{', '.join(names)} or 0..{len(names) - 1}"
        raise ValueError(f"unknown true class {args.true_class!r}: pick one of {choices}")
    return Lesson(initial_logits=logits, class_names=names, T=args.temperature, true_class=y, lang=args.lang)


def main(argv=None, prog="python -m app.export"):
    p = parser(prog)
    args = p.parse_args(argv)
    try:
        lesson = lesson_from_args(args)
        out = write_page(lesson, args.out)
    except (ValueError, TypeError) as e:
        p.exit(2, f"{p.prog}: error: {e}\n")
    except OSError as e:
        p.exit(2, f"{p.prog}: error: cannot write {args.out}: {e.strerror or e}\n")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB): open it in any browser, no network needed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
