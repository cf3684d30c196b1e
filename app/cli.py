"""`softmax-explainer export OUT.html [options]` and `softmax-explainer serve [panel serve options]`."""

import subprocess
import sys
from pathlib import Path

from . import export

USAGE = """usage: softmax-explainer export OUT.html [--logits 2,1,0.1] [--classes cat,dog,bird] [-T 1]
                                             [--true-class cat] [--label-smoothing 0.1] [--units nats|bits]
                                             [--lang en|ko] [--theme light|dark] [--lecture] [--overwrite]
       softmax-explainer serve [options for panel serve, e.g. --port 5006 --show] [--args --lang ko]"""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["export"]:
        return export.main(argv[1:], prog="softmax-explainer export")
    if argv[:1] == ["serve"]:
        main_py = Path(__file__).with_name("main.py")
        # --warm runs the app once before serving, so a bad --args stops the server at start.
        return subprocess.call([sys.executable, "-m", "panel", "serve", str(main_py), "--warm", *argv[1:]])
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
