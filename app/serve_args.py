"""The options `panel serve app/main.py --args ...` passes to the app, read without argparse's sys.exit.

argparse exits the process on a bad option; inside a served session that killed the server at its first
visitor. Here a bad option is a `UsageError` whose message is one line, and the caller decides: stop at
start (app/main.py run by --warm) or show the line on the page.
"""

import argparse

from .fields import BY_KEY

# The one option: the language a link that names none opens in, the lesson's "lang" field (app/fields.py).
LANG = BY_KEY["lang"]
USAGE = f"usage: panel serve app/main.py --warm [--args --lang {{{','.join(LANG.choices)}}}]"


class UsageError(Exception):
    """A bad option (exit code 2) or a request for help (exit code 0); the message is what to print."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(f"{message} ({USAGE})")

    def print_help(self, file=None):
        raise UsageError(USAGE, code=0)


def parse_serve_args(argv):
    """The app's options from `argv`; a UsageError when they are not usable.

    >>> parse_serve_args(["--lang", "ko"]).lang
    'ko'
    >>> parse_serve_args(["--lang", "xx"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    app.serve_args.UsageError: argument --lang: invalid choice: 'xx' (choose from 'en', 'ko', 'es') (usage: ...)
    """
    parser = _Parser(prog="app/main.py", add_help=True)
    parser.add_argument("--lang", choices=LANG.choices, default=LANG.default, help="language when the link names none")
    return parser.parse_args(argv)
