"""`panel serve app/main.py` serves the explainer at /main: one fresh lesson per browser session.

    panel serve app/main.py --warm --args --lang ko

The query sets the lesson (?z=-1,3,0.5&T=0.5&y=2, see app/link.py); the app reads it itself, and Panel's
`Location` (which parses every query and broke the session on some, e.g. ?y=%C2%B2) is left out.
app/server.py `install` sets the serving rules (no `bokeh-*` keys from links, bounded work, one-line logs).

`--args` takes `--lang en|ko|es`, the language when the query names none. Bad `--args` stop the server at
start with one line (that needs `--warm`, which runs this script once before serving; `softmax-explainer
serve` adds it); without `--warm` a visitor gets the same one line on the page instead of a dead session.
"""

import sys

import panel as pn

from app.explainer import visitor_path
from app.page import explainer_parts, serve_session
from app.serve_args import UsageError, parse_serve_args
from app.server import install, settle_heap

install()

try:
    options = parse_serve_args(sys.argv[1:])
except UsageError as e:
    line = str(e) if e.code == 0 else f"app/main.py: error: {e}"
    if visitor_path() is None:  # --warm: before anyone is served
        print(line, file=sys.stderr)
        raise SystemExit(e.code) from None
    pn.pane.Str(line).servable(title="softmax-explainer", location=False)
else:
    serve_session(options.lang)
    if visitor_path() is None:  # --warm: the first visitor's page is built now, and kept with the rest
        explainer_parts(options.lang)
        settle_heap()
