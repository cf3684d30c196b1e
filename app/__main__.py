"""`python -m app export OUT.html ...` and `python -m app serve ...`: the `softmax-explainer` command."""

import sys

from app.cli import main

sys.exit(main())
