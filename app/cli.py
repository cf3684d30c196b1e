"""`softmax-explainer export OUT.html [options]` (or `--scorm OUT.zip`, the page in a SCORM 1.2 package) and
`softmax-explainer serve [panel serve options]`.

Nothing heavy is imported at the top: Ctrl-C while Bokeh loads must reach the `except` below, not the
interpreter (which would print a traceback).
"""

import os
import sys

from .fields import FIELDS, default_state  # data only: the lesson's table and its strings

EXPORT = "softmax-explainer export"
WIDTH = 108  # at most, characters of a line of USAGE (where it was wrapped by hand)


def example(f):
    """How the usage line shows field f's option: `-T 1`, `--units nats|bits`, `--lecture`."""
    name, start = f.cli.short or f.cli.name, default_state()
    if f.kind == "flag":
        return name
    if f.cli.example:
        value = f.cli.example
    elif f.kind == "choice":
        value = "|".join(f.choices)
    elif f.kind == "index":
        value = start["names"][f.default]  # a class by its name, as a person would give it
    elif f.kind in ("logits", "names"):
        value = ",".join(v if isinstance(v, str) else f"{v:g}" for v in start[f.key])
    else:
        value = f"{f.default:g}"
    return f"{name} {value}"


def _usage():
    """The export line lists every option (app/fields.py, a row's `cli`), wrapped under its first option."""
    lead = f"usage: {EXPORT} OUT.html|--scorm OUT.zip "
    lines, line = [], lead
    for word in [f"[{example(f)}]" for f in FIELDS if f.cli] + ["[--overwrite]"]:
        if len(line) + len(word) > WIDTH and line.strip():
            lines.append(line.rstrip())
            line = " " * (len(lead) + 4)
        line += f"{word} "
    serve = ["       softmax-explainer serve [--workers N] [--port 5006] [--address 127.0.0.1]",
             "                               [options for panel serve, e.g. --show] [--args --lang ko]"]
    return "\n".join([*lines, line.rstrip(), *serve])


USAGE = _usage()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["export"]:
            from . import export

            return export.main(argv[1:], prog=EXPORT)
        if argv[:1] == ["serve"]:
            from . import stack

            try:
                options = stack.split_args(argv[1:])
            except stack.StackError as e:
                stack.say(str(e))
                return 2
            if options.workers is not None:
                return stack.main(options)
            from .page import write_scripts
            from .server import run_folder, serve_command

            # The explainer's scripts, one file a language that browsers keep (app/page.py), in a folder of this run
            # that the server removes when it stops (the execve below keeps this process's id, which names it).
            scripts = write_scripts(run_folder(stack.say))
            served = ["--port", str(options.port), "--address", options.address,
                      *(f"--allow-websocket-origin={o}" for o in options.origins), *options.rest]
            command, env = serve_command(served, scripts=scripts)
            if os.name == "posix":
                # Panel's server takes this process's place: a service manager's SIGTERM reaches the server
                # itself, where a child would outlive its killed parent and keep the port.
                os.execve(command[0], command, env)
            import subprocess

            return subprocess.call(command, env=env)
        print(USAGE, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Before export.main could catch it (while Bokeh loads), or while serving: Panel says it stopped.
        if argv[:1] == ["export"]:
            print(f"{EXPORT}: interrupted; nothing was written", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
