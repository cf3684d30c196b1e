"""Write the explainer as one self-contained HTML file: every script and style inlined, no network needed.

    python -m app.export explainer.html --logits -2,1,0.1 --temperature 0.5 --true-class dog

Pure Bokeh (`file_html` with INLINE resources) rather than Panel's `save`, which still links stylesheets
from a CDN (panel#6759, #7073). The page runs the same document and callbacks as the served app, and opens
any lesson a link's hash describes (explainer.html#z=-1,3,0.5&T=0.5&y=2).
"""

import argparse
import re
import sys
from pathlib import Path

from bokeh.document import Document
from bokeh.embed import file_html
from bokeh.resources import Resources

from . import files, rules
from .bundle import MissingFile
from .document import VIEWPORT, build
from .state import Lesson
from .strings import LANGS, TEXT


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
    doc.add_root(build(lesson.state(), mode="file").layout)
    return file_html(doc, InlineOnly(), title=TEXT[lesson.lang]["title"], template=VIEWPORT)


def write_page(lesson: Lesson, path, overwrite: bool = False) -> Path:
    """Write the page for `lesson` to `path` without losing anything there (app/files.py)."""
    files.destination(path, overwrite)  # refuse before spending a second on the page
    return files.write_text(path, page_html(lesson), overwrite)


def _option(check):
    """An argparse type from a rules check: its refusal becomes argparse's one-line message."""

    def parse(text):
        try:
            return check(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(f"{e} (got {text!r})") from None

    parse.__name__ = check.__name__
    return parse


def logits(text):
    return rules.logits([rules.parse_number(v.strip(), "a logit") for v in text.split(",")])


def classes(text):
    return rules.clean_names(text.split(","))


def temperature(text):
    return rules.within(rules.parse_number(text, "T"), rules.T_BOUNDS, "T", "T_range")


def label_smoothing(text):
    return rules.within(rules.parse_number(text, "label smoothing"), rules.EPS_BOUNDS, "label smoothing", "eps_range")


class OneLineErrors(argparse.ArgumentParser):
    """An instructor sees one line saying what is wrong, not a usage block."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


VALUE_OPTIONS = ("--logits", "--classes", "--temperature", "-T", "--true-class", "--lang", "--label-smoothing",
                 "--units", "--theme")


def attach_values(argv):
    """'--logits -2,1,0' → '--logits=-2,1,0': argparse takes a value that starts with '-' for an option."""
    out, rest = [], iter(argv)
    for arg in rest:
        value = next(rest, None) if arg in VALUE_OPTIONS else None
        out.append(arg if value is None else f"{arg}={value}")
    return out


def parser(prog="python -m app.export"):
    p = OneLineErrors(prog=prog, description=__doc__.splitlines()[0])
    p.add_argument("out", help="the HTML file to write, e.g. explainer.html")
    p.add_argument("--logits", type=_option(logits), help="starting logits, e.g. 2,1,0.1 or -2,1,0 (2 to 10)")
    p.add_argument("--classes", type=_option(classes), help="class names, e.g. cat,dog,bird (default: the language's)")
    p.add_argument("--temperature", "-T", type=_option(temperature), default=1.0, help="temperature T (0.01 to 100)")
    p.add_argument("--true-class", default="0", help="the true class: its name or its index (default 0)")
    p.add_argument("--label-smoothing", type=_option(label_smoothing), default=0.0, help="ε, from 0 to 0.5")
    p.add_argument("--units", choices=["nats", "bits"], default="nats", help="unit of the information readouts")
    p.add_argument("--lang", choices=LANGS, default="en", help="language of every label")
    p.add_argument("--theme", choices=["light", "dark"], default="light", help="colours")
    p.add_argument("--lecture", action="store_true", help="large type and thick lines for a projector")
    p.add_argument("--overwrite", action="store_true", help="replace OUT.html even if it is read-only")
    return p


def lesson_from_args(args) -> Lesson:
    """The lesson the options describe; ValueError with a one-line reason, naming the option, when they do not fit."""
    given = {"initial_logits": args.logits} if args.logits else {}
    if args.classes:
        given["class_names"] = args.classes
    try:
        lesson = Lesson(lang=args.lang, **given)
    except ValueError as e:
        raise ValueError(f"--logits and --classes: {e}") from None
    names = lesson.class_names
    if args.true_class in names:
        y = names.index(args.true_class)
    elif re.fullmatch("[0-9]+", args.true_class) and int(args.true_class) < len(names):
        y = int(args.true_class)
    else:
        choices = f"{', '.join(names)} or 0..{len(names) - 1}"
        raise ValueError(f"--true-class: unknown true class {args.true_class!r}: pick one of {choices}")
    lesson.param.update(T=args.temperature, true_class=y, label_smoothing=args.label_smoothing, units=args.units,
                        theme=args.theme, lecture=args.lecture)
    return lesson


def main(argv=None, prog="python -m app.export"):
    p = parser(prog)
    args = p.parse_args(attach_values(sys.argv[1:] if argv is None else argv))
    try:
        lesson = lesson_from_args(args)
        out = write_page(lesson, args.out, overwrite=args.overwrite)
    except (ValueError, MissingFile) as e:
        p.exit(2, f"{p.prog}: error: {e}\n")
    except OSError as e:
        p.exit(2, f"{p.prog}: error: cannot write {args.out}: {e.strerror or e}\n")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB): open it in any browser, no network needed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
