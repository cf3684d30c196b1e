"""`panel serve app/main.py` serves the explainer at /main: one fresh lesson per browser session.

`panel serve app/main.py --args --lang ko` serves it in Korean.
"""

import argparse

import panel as pn

from app import Explainer, Lesson

options = argparse.ArgumentParser(prog="app/main.py")
options.add_argument("--lang", choices=Lesson.param.lang.objects, default="en")
args, _ = options.parse_known_args()

pn.extension()
Explainer(lesson=Lesson(lang=args.lang)).servable(title="Softmax explainer")
