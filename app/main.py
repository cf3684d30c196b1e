"""`panel serve app/main.py` serves the explainer at /main: one fresh lesson per browser session."""

import panel as pn

from app import Explainer

pn.extension()
Explainer().servable(title="Softmax explainer")
