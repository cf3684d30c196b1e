"""Write the explainer as one self-contained HTML file: every script and style inlined, no network needed.

    python -m app.export explainer.html --logits -2,1,0.1 --temperature 0.5 --true-class dog
    python -m app.export --scorm lesson.zip --step 4 --lock T    # the same page in a SCORM 1.2 package

Pure Bokeh (`file_html` with INLINE resources) rather than Panel's `save`, which still links stylesheets
from a CDN (panel#6759, #7073). The page runs the same document and callbacks as the served app, and opens
any lesson a link's hash describes (explainer.html#z=-1,3,0.5&T=0.5&y=2).
"""

import argparse
import re
import reprlib
import sys
from pathlib import Path

from bokeh.document import Document
from bokeh.embed import file_html
from bokeh.resources import Resources

from . import files, link, names, refusal, rules, scorm
from .bundle import MissingFile
from .document import VIEWPORT, build
from .fields import FIELDS, K_BOUNDS
from .state import Lesson
from .strings import TEXT


class OwnOnly(Resources):
    """Bokeh's resources (INLINE unless told) without other packages' external files.

    Bokeh links the `__javascript__`/`__css__` URLs of every model class imported in the process; once
    Panel is imported that includes a CDN script (es-module-shims), which an offline page cannot load and a
    served page (app/page.py) would load for nothing.
    """

    def __init__(self, mode="inline", components=None, **kwargs):
        super().__init__(mode=mode, components=components, **kwargs)
        self._kwargs = kwargs

    def clone(self, *, components=None):
        return OwnOnly(self.mode, components if components is not None else list(self.components), **self._kwargs)

    def _collect_external_resources(self, resource_attr):
        return []


def page_html(lesson: Lesson) -> str:
    """The whole exported page for `lesson` as a string."""
    doc = Document()
    doc.add_root(build(lesson.state(), mode="file").layout)
    return file_html(doc, OwnOnly(), title=TEXT[lesson.lang]["title"], template=VIEWPORT)


def write_page(lesson: Lesson, path, overwrite: bool = False) -> Path:
    """Write the page for `lesson` to `path` without losing anything there (app/files.py)."""
    files.destination(path, overwrite)  # refuse before spending a second on the page
    return files.write_text(path, page_html(lesson), overwrite)


def write_scorm(lesson: Lesson, path, overwrite: bool = False) -> Path:
    """Write the page for `lesson` in a SCORM 1.2 package (app/scorm.py) to `path`, as write_page writes it."""
    files.destination(path, overwrite)
    return files.write_bytes(path, scorm.package(page_html(lesson), TEXT[lesson.lang]["title"]), overwrite)


_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
LINE_MAX = 320  # characters of a message: a list of every link key fits; a 100 kB value must not become a 100 kB line


def short(text: str) -> str:
    """A refused value as its first and last characters and its length: the person typed it, they know the rest."""
    if len(text) <= _SHORT.maxstring:
        return repr(text)
    return f"{_SHORT.repr(text)} ({len(text)} characters)"


def one_line(message: str) -> str:
    """`message` escaped to one printable line (app/files.py `shown`) and cut in the middle to LINE_MAX."""
    text = files.shown(message)
    if len(text) <= LINE_MAX:
        return text
    head = LINE_MAX * 2 // 3  # the start names the option, the end often says why
    return f"{text[:head]}…{text[head + 1 - LINE_MAX:]}"


def _option(check):
    """An argparse type from a rules check: its refusal becomes argparse's one-line message, with the value
    given (once: a check may name it already)."""

    def parse(text):
        try:
            return check(text)
        except ValueError as e:
            given = short(text)
            raise argparse.ArgumentTypeError(str(e) if given in str(e) else f"{e} (got {given})") from None

    parse.__name__ = check.__name__
    return parse


def _one_of(*choices):
    """An argparse type for a fixed choice: argparse's `choices` would repeat the whole refused value."""

    def parse(text):
        if text not in choices:
            raise argparse.ArgumentTypeError(f"pick one of {', '.join(choices)} (got {short(text)})")
        return text

    parse.__name__ = "choice"
    return parse


# The lesson's fields that an option sets (app/fields.py, a row's `cli`), in the table's order, by parameter.
BY_PARAM = {f.param: f for f in FIELDS if f.cli}
# Kinds whose option's value is the parameter's value as it is; the others are set by lesson_from_args.
PLAIN = ("real", "count", "choice", "flag", "keys")


def logits(text):
    """The check of --logits: numbers as a link writes them, each within ±LOGIT_LIMIT, 2 to 10 of them."""
    lo, hi = -rules.LOGIT_LIMIT, rules.LOGIT_LIMIT
    values = text.split(",")
    for v in values:
        if not _in_digits(v.strip(), (lo, hi)):
            raise refusal.Refusal("not_number", f"{short(v)} is not a logit: a number from {lo:g} to {hi:g} in ASCII "
                                              f"digits, e.g. -2 or 0.5")
    return rules.logits([float(v) for v in values], "logits")


def _in_digits(text, bounds):
    """Whether `text` is a number in the NUMBER form (ASCII digits, a point, an exponent) within `bounds`."""
    return bool(rules.NUMBER.fullmatch(text)) and bounds[0] <= float(text) <= bounds[1]


def classes(text):
    return names.clean_names(text.split(","))


def whole(f):
    """The check of a count field's option: ASCII digits, within the row's bounds. Whatever is wrong (a sign, a
    point, another script's digits, too large), the refusal says what the option takes, with an example from
    the usage line.

    >>> whole(BY_PARAM["seed"])("-1")
    Traceback (most recent call last):
    app.refusal.Refusal: takes a whole number from 0 to 4,294,967,295 in ASCII digits, e.g. 0
    """
    lo, hi = f.bounds
    takes = f"takes a whole number from {lo:,} to {hi:,} in ASCII digits, e.g. {_example(f)}"

    def parse(text):
        # At most the digits of the bound: int() refuses a 5000-digit string with a message about int itself.
        if not re.fullmatch(f"[0-9]{{1,{len(str(hi))}}}", text) or not lo <= int(text) <= hi:
            raise refusal.Refusal(f.refusal, takes)
        return int(text)

    parse.__name__ = f.param
    return parse


def real(f):
    """The check of a real field's option: a number as a link writes it (ASCII digits, a point, an exponent),
    within the row's bounds; the refusal says what the option takes, with an example within them.

    >>> real(BY_PARAM["top_p"])("nan")
    Traceback (most recent call last):
    app.refusal.Refusal: takes a number from 0 to 1 in ASCII digits, e.g. 0.9
    """
    lo, hi = f.bounds
    takes = f"takes a number from {lo:g} to {hi:g} in ASCII digits, e.g. {_example(f)}"

    def parse(text):
        if not _in_digits(text, f.bounds):
            raise refusal.Refusal(f.refusal, takes)
        return float(text)

    parse.__name__ = f.param
    return parse


def _example(f):
    """A real or count field's value as app/cli.py's usage line shows it: its example, or its default."""
    return f.cli.example or f"{f.default:g}"


def link_keys(f):
    """The check of a keys field's option: link keys separated by commas, as a link writes them, each once."""

    def parse(text):
        given = text.split(",")
        bad = next((key for key in given if key not in f.choices), None)
        if bad is not None:  # cut shorter than short() would: the line must hold every key it lists
            shown = short(bad) if len(bad) <= link.SHOWN_KEY else f"{bad[:link.SHOWN_KEY]!r}… ({len(bad)} characters)"
            raise refusal.Refusal("refused", f"{shown} is not one of {', '.join(f.choices)}")
        twice = next((key for key in given if given.count(key) > 1), None)
        if twice is not None:
            raise refusal.Refusal("refused", f"{short(twice)} is given twice: give each key once")
        return rules.keys(given, f)

    parse.__name__ = "link keys"
    return parse


def _one(kind):
    """The one optioned field of a kind that lesson_from_args handles by itself (logits, names, index)."""
    (f,) = (f for f in BY_PARAM.values() if f.kind == kind)
    return f


def _add_option(p, f):
    """Field f's option on parser p, by its kind; its value lands in `args.<f.param>`."""
    names = [f.cli.name, *filter(None, [f.cli.short])]
    lo, hi = f.bounds or K_BOUNDS
    shown = "{:,}" if f.kind == "count" else "{:g}"
    kwargs = {"action": Once, "dest": f.param, "help": f.cli.help.format(lo=shown.format(lo), hi=shown.format(hi))
              or f.doc,
              "metavar": f.cli.name.lstrip("-").replace("-", "_").upper()}  # what argparse would call it
    if f.kind == "logits":
        kwargs.update(type=_option(logits))
    elif f.kind == "names":
        kwargs.update(type=_option(classes))
    elif f.kind == "real":
        kwargs.update(type=_option(real(f)), default=f.default)
    elif f.kind == "count":
        kwargs.update(type=_option(whole(f)), default=f.default)
    elif f.kind == "index":
        kwargs.update(default=str(f.default))  # a name or an index: lesson_from_args reads it once names are known
    elif f.kind == "choice":
        kwargs.update(type=_one_of(*f.choices), default=f.default, metavar=f"{{{','.join(f.choices)}}}")
    elif f.kind == "flag":
        del kwargs["metavar"]
        kwargs.update(flag=True)
    elif f.kind == "keys":
        kwargs.update(type=_option(link_keys(f)), default=[])
    else:
        raise ValueError(f"app/fields.py: field {f.key!r} of kind {f.kind!r} cannot have an option")
    p.add_argument(*names, **kwargs)


class OneLineErrors(argparse.ArgumentParser):
    """An instructor sees one line saying what is wrong, not a usage block."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see --help)\n")


class Once(argparse.Action):
    """Store an option's value, refusing a second one: argparse would keep the last in silence.

    `-T 0.5 --temperature 2` most likely comes from a command edited in a hurry; which T was meant is a guess.
    """

    def __init__(self, option_strings, dest, flag=False, **kwargs):
        if flag:
            kwargs.update(nargs=0, const=True, default=False)
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        given = vars(namespace).setdefault("_given", set())
        if self.dest in given:
            names = " / ".join(self.option_strings)
            parser.error(f"{names} is given more than once: give it once")
        given.add(self.dest)
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)


# The options that take a value, under each of their names.
VALUE_OPTIONS = (*(name for f in BY_PARAM.values() if f.kind != "flag" for name in (f.cli.name, f.cli.short) if name),
                 "--scorm")


def attach_values(argv):
    """'--logits -2,1,0' → '--logits=-2,1,0': argparse takes a value that starts with '-' for an option."""
    out, rest = [], iter(argv)
    for arg in rest:
        value = next(rest, None) if arg in VALUE_OPTIONS else None
        out.append(arg if value is None else f"{arg}={value}")
    return out


def parser(prog="python -m app.export"):
    p = OneLineErrors(prog=prog, description=__doc__.splitlines()[0])
    p.add_argument("out", nargs="?", help="the HTML file to write, e.g. explainer.html")
    p.add_argument("--scorm", action=Once, metavar="OUT.zip",
                   help="write the page in a SCORM 1.2 package for a course platform instead (Moodle, Canvas, "
                        "Blackboard: it reports the lesson completed when the learner does its step's task)")
    for f in BY_PARAM.values():
        _add_option(p, f)
    p.add_argument("--overwrite", action=Once, flag=True, help="replace the file even if it is read-only")
    return p


def lesson_from_args(args) -> Lesson:
    """The lesson the options describe; ValueError with a one-line reason, naming the option, when they do not fit."""
    logits_field, names_field, index_field = _one("logits"), _one("names"), _one("index")
    given = {f.param: getattr(args, f.param) for f in (logits_field, names_field) if getattr(args, f.param)}
    plain = {f.param: getattr(args, f.param) for f in BY_PARAM.values() if f.kind in PLAIN}
    try:
        lesson = Lesson(**plain, **given)  # the language with the rest: it names the default classes
    except ValueError as e:
        raise ValueError(f"{logits_field.cli.name} and {names_field.cli.name}: {e}") from None
    classes, text = lesson.class_names, getattr(args, index_field.param)
    # The name as --classes would keep it, compared as the lesson compares names: " dog" or an NFD "café" is found.
    try:
        given = names.clean_name(text)
    except refusal.Refusal:
        given = None
    keys = [names.name_key(n) for n in classes]
    if given is not None and names.name_key(given) in keys:
        y = keys.index(names.name_key(given))
    elif given is not None and re.fullmatch("[0-9]{1,9}", given) and int(given) < len(classes):
        y = int(given)  # at most 9 digits: int() refuses a 5000-digit string with a message about int itself
    else:
        choices = f"{', '.join(classes)} or 0..{len(classes) - 1}"
        raise ValueError(f"{index_field.cli.name}: unknown true class {short(text)}: pick one of {choices}")
    lesson.param.update(**{index_field.param: y})
    return lesson


def main(argv=None, prog="python -m app.export"):
    out = None
    try:
        p = parser(prog)
        args = p.parse_args(attach_values(sys.argv[1:] if argv is None else argv))
        if (args.out is None) == (args.scorm is None):
            p.error("give the HTML file to write (OUT.html) or --scorm OUT.zip, one of them")
        path = args.out if args.scorm is None else args.scorm
        try:
            lesson = lesson_from_args(args)
            out = (write_page if args.scorm is None else write_scorm)(lesson, path, overwrite=args.overwrite)
        except (ValueError, MissingFile) as e:
            p.exit(2, f"{p.prog}: error: {one_line(str(e))}\n")
        except OSError as e:
            p.exit(2, f"{p.prog}: error: {one_line(f'cannot write {files.shown(path)}: {e.strerror or e}')}\n")
        size = out.stat().st_size / 1e6
        opened = ("open it in any browser, no network needed" if args.scorm is None
                  else "import it into a course platform as a SCORM 1.2 package")
        print(f"wrote {files.shown(out)} ({size:.1f} MB): {opened}")
    except KeyboardInterrupt:
        # Ctrl-C is an answer, not a crash: one line, and write_text has removed its temporary file.
        done = "nothing was written" if out is None else f"{files.shown(out)} was written"
        print(f"{prog}: interrupted; {done}", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
