"""`softmax-explainer export OUT.html [options]` and `softmax-explainer serve [panel serve options]`.

Nothing heavy is imported at the top: Ctrl-C while Bokeh loads must reach the `except` below, not the
interpreter (which would print a traceback).
"""

import sys

EXPORT = "softmax-explainer export"
USAGE = """usage: softmax-explainer export OUT.html [--logits 2,1,0.1] [--classes cat,dog,bird] [-T 1]
                                             [--true-class cat] [--label-smoothing 0.1] [--units nats|bits]
                                             [--lang en|ko] [--theme light|dark] [--lecture] [--overwrite]
       softmax-explainer serve [options for panel serve, e.g. --port 5006 --show] [--args --lang ko]"""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["export"]:
            from . import export

            return export.main(argv[1:], prog=EXPORT)
        if argv[:1] == ["serve"]:
            import subprocess

            from .server import serve_command

            command, env = serve_command(argv[1:])
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
