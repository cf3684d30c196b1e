"""The explainer as one Bokeh document: figures, controls, readouts and the browser callbacks that drive them.

Built once from a `Lesson`; the served app, the exported file and a notebook all show this same layout.
Model names follow the testing contract in shared/DESIGN.md.
"""

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bokeh.core.properties import expr
from bokeh.layouts import column, row
from bokeh.models import (
    Arrow,
    Button,
    ColumnDataSource,
    CustomJS,
    CustomJSExpr,
    CustomJSTickFormatter,
    Div,
    FixedTicker,
    InlineStyleSheet,
    LabelSet,
    PlainText,
    PointDrawTool,
    Range1d,
    Select,
    Slider,
    Span,
    VeeHead,
)
from bokeh.plotting import figure

from .readouts import render_readouts, to_fixed
from .state import LOGIT_LIMIT, T_BOUNDS, Lesson
from .strings import TEXT

STATIC = Path(__file__).resolve().parent.parent / "static"
TEAL = "#0f8b8d"
BAR = "#5b7db1"
POINT = "#1d3557"
HALF_WINDOW = 6.0
# Drawing rules shared with static/explainer.mjs (passed to it as `view`): the vertical room between the
# outermost draggable position and the frame's edge; how much longer than −∂L/∂z an arrow is drawn, how far
# right of its point (clear of the marker), and how close to the frame's edge a long arrow stops; the head's
# size in px, shrinking with short arrows (px per logit unit) so that a head never outgrows its shaft; and
# the drawn length below which an arrow loses its head (a zero-length Bokeh Arrow still draws one).
VIEW = {"pad": 0.6, "arrow_scale": 2.0, "arrow_dx": 0.2, "arrow_margin": 0.15, "head": 12, "head_per_unit": 24,
        "min_arrow": 0.04}
MANY_CLASSES = 6  # beyond this, tick labels turn and the value beside each point is left to the table


def bundle(*names):
    """The ES modules in static/, joined into one module: later files' `import` lines name earlier files."""
    parts = []
    for name in names:
        lines = (STATIC / name).read_text(encoding="utf-8").splitlines()
        parts.append("\n".join(line for line in lines if not line.startswith("import ")))
    return "\n".join(parts)


def initial_window(z):
    """The logit axis (start, end): ±6 around 0, moved or widened in whole units to hold every logit."""
    lo, hi = -HALF_WINDOW, HALF_WINDOW
    zmin, zmax = min(z), max(z)
    if zmax - zmin > hi - lo:
        half, mid = (zmax - zmin) / 2 + 1, (zmax + zmin) / 2
        lo, hi = mid - half, mid + half
    elif zmax > hi:
        lo, hi = lo + math.ceil(zmax - hi), hi + math.ceil(zmax - hi)
    elif zmin < lo:
        lo, hi = lo - math.ceil(lo - zmin), hi - math.ceil(lo - zmin)
    return lo - VIEW["pad"], hi + VIEW["pad"]


def heads(drawn):
    """Arrowhead sizes (px) for arrows of these drawn lengths (logit units)."""
    length = np.abs(drawn)
    return np.where(length < VIEW["min_arrow"], 0.0, np.minimum(VIEW["head"], VIEW["head_per_unit"] * length))


def lesson_data(lesson, window):
    """Every figure's data and the readouts for the lesson's state, computed with `core`.

    The Python twin of recompute() in static/explainer.mjs, which draws every later frame; `window` is the
    logit axis (start, end).
    """
    z, T, y = lesson.z, lesson.T, lesson.true_class
    x = np.arange(len(z))
    p, g = lesson.probabilities(), lesson.neg_grad()
    state = {"names": lesson.class_names, "z": z.tolist(), "T": T, "y": y, "p": p.tolist(), "g": g.tolist(),
             "log_p": lesson.log_probabilities().tolist(), "loss": lesson.loss(),
             "entropy_bits": lesson.entropy_bits(), "lse": lesson.logsumexp()}
    bottom, top = window[0] + VIEW["arrow_margin"], window[1] - VIEW["arrow_margin"]
    y1 = np.clip(z + VIEW["arrow_scale"] * g, bottom, top)
    return {
        "probs": {"x": x, "p": p, "label": [to_fixed(v, 3) for v in p], "is_true": (x == y).astype(int)},
        "neg_grad": {"x": x, "g": g, "y0": z, "y1": y1, "x_arrow": x + VIEW["arrow_dx"], "head": heads(y1 - z)},
        "settings": {"T": [T], "y": [y]},
        "labels": {"x": x, "z": z, "text": [to_fixed(v, 2) for v in z]},
        "readouts": render_readouts(state, TEXT[lesson.lang]),
    }


@dataclass
class LessonDocument:
    """The layout and the models a caller syncs with the lesson."""

    layout: object
    logits: ColumnDataSource
    temperature: Slider
    true_class: Select


def build(lesson: Lesson) -> LessonDocument:
    """Build the explainer for `lesson`; the browser recomputes it on every gesture from here on."""
    t = TEXT[lesson.lang]
    K = len(lesson.class_names)
    start, end = initial_window(lesson.logits)
    data = lesson_data(lesson, (start, end))
    style = InlineStyleSheet(css=(STATIC / "explainer.css").read_text(encoding="utf-8"))
    quiet = {"syncable": False}
    logits = ColumnDataSource({"z": lesson.z}, name="logits")
    logits.selected.syncable = False
    probs = ColumnDataSource(data["probs"], name="probs", **quiet)
    neg_grad = ColumnDataSource(data["neg_grad"], name="neg_grad", **quiet)
    settings = ColumnDataSource(data["settings"], name="settings", **quiet)
    labels = ColumnDataSource(data["labels"], name="point_labels", **quiet)

    ticks = FixedTicker(ticks=list(range(K)))
    # PlainText: a class name such as "$$x$$" is shown as typed, never typeset.
    names = {k: PlainText(text=name) for k, name in enumerate(lesson.class_names)}
    x_range = (-0.6, K - 0.4)
    common = {"height": 400, "width": 500, "toolbar_location": None, "x_range": x_range,
              "min_border_left": 60, "min_border_right": 20}

    fig_z = figure(title=t["logit_title"], y_range=Range1d(start, end), name="logit_figure", **common)
    fig_z.add_layout(Span(location=0, dimension="width", line_color="#999999", line_dash="dashed"))
    arrows = Arrow(source=neg_grad, x_start="x_arrow", y_start="y0", x_end="x_arrow", y_end="y1", line_color=TEAL,
                   line_width=4, end=VeeHead(size="head", fill_color=TEAL, line_color=TEAL))
    fig_z.add_layout(arrows)
    index = CustomJSExpr(code="return Array.from({length: this.get_length() ?? 0}, (_, k) => k)")
    points = fig_z.scatter(x=expr(index), y="z", source=logits, size=22, fill_color=POINT, line_color="white",
                           line_width=2, nonselection_fill_alpha=1.0, nonselection_line_alpha=1.0,
                           selection_fill_color="#e76f51")
    fig_z.add_layout(LabelSet(source=labels, x="x", y="z", text="text", x_offset=-16, y_offset=-8,
                              text_align="right", text_font_size="13px", text_color=POINT,
                              visible=K <= MANY_CLASSES))
    draw = PointDrawTool(renderers=[points], add=False, drag=True)
    fig_z.add_tools(draw)
    fig_z.toolbar.active_tap = draw
    fig_z.yaxis.axis_label = t["logit_axis"]

    fig_p = figure(title=t["prob_title"], y_range=Range1d(0, 1.12), name="prob_figure", **common)
    fig_p.vbar(x="x", top="p", width=0.62, source=probs, fill_color=BAR, line_color=None)
    fig_p.vbar(x="x", top="p", width=0.62, source=probs, fill_color=None, line_color="black", line_width=7,
               line_alpha="is_true")
    fig_p.vbar(x="x", top="p", width=0.62, source=probs, fill_color=None, line_color="white", line_width=3,
               line_alpha="is_true")
    fig_p.add_layout(LabelSet(source=probs, x="x", y="p", text="label", text_align="center", y_offset=6,
                              text_font_size="14px"))
    fig_p.yaxis.axis_label = t["prob_axis"]

    for fig in (fig_z, fig_p):
        fig.xaxis.ticker = ticks
        fig.xaxis.major_label_overrides = names
        fig.xaxis.major_label_text_font_size = "15px" if K <= MANY_CLASSES else "13px"
        fig.xaxis.major_label_orientation = 0 if K <= MANY_CLASSES else math.pi / 4
        fig.xaxis.axis_label = t["class_axis"]
        fig.title.text_font_size = "14px"
        fig.xgrid.grid_line_color = None

    temperature = Slider(
        title=t["temperature"], name="temperature", start=math.log10(T_BOUNDS[0]), end=math.log10(T_BOUNDS[1]),
        step=0.01, value=math.log10(lesson.T), width=320, stylesheets=[style],
        format=CustomJSTickFormatter(code="const T = 10 ** tick; return 'T = ' + "
                                          "(T < 1 ? T.toPrecision(2) : T.toPrecision(3));"))
    true_class = Select(title=t["true_class"], name="true_class", value=str(lesson.true_class), width=170,
                        options=[(str(k), name) for k, name in enumerate(lesson.class_names)],
                        stylesheets=[style])
    add_one = Button(label=t["add_one"], name="add_one", button_type="primary", width=200, align="end")
    reset = Button(label=t["reset"], name="reset", width=200, align="end")

    # Fixed sizes: a readout changes text on every drag frame, and a Div whose size follows its text makes
    # Bokeh lay out the whole page again each time (measured: p95 43 ms a frame, 5 ms with fixed sizes).
    sizes = {"probs": (520, 28 * (K + 1) + 12), "formula": (520, 64)}
    divs = {key: Div(text=html, css_classes=[f"readout-{key}", "readout"], stylesheets=[style], disable_math=True,
                     width=sizes.get(key, (480, 30))[0], height=sizes.get(key, (480, 30))[1], **quiet)
            for key, html in data["readouts"].items()}
    divs["status"] = Div(text="", css_classes=["readout-status"], stylesheets=[style], width=480, height=48,
                         disable_math=True,
                         **quiet)
    header = Div(text=f"<h1>{t['title']}</h1><p>{t['subtitle']}</p>", css_classes=["header"], disable_math=True,
                 stylesheets=[style])

    # One callback for every trigger: the module is compiled once and stored once in an exported page.
    callback = CustomJS(code=bundle("softmax.mjs", "readouts.mjs", "explainer.mjs"), args={
        "logits": logits, "probs": probs, "neg_grad": neg_grad, "settings": settings, "labels": labels,
        "temperature": temperature, "true_class": true_class, "add_one": add_one, "y_range": fig_z.y_range,
        "divs": divs, "t": t, "names": lesson.class_names, "initial": list(lesson.initial_logits),
        "initial_range": [start, end], "limit": LOGIT_LIMIT, "view": VIEW})
    fig_z.js_on_event("pan", callback)
    fig_z.js_on_event("tap", callback)
    logits.js_on_change("data", callback)
    temperature.js_on_change("value", callback)
    true_class.js_on_change("value", callback)
    add_one.js_on_event("button_click", callback)
    reset.js_on_event("button_click", callback)

    readouts = column(divs["loss"], divs["entropy"], divs["lse"], divs["arrows"], divs["status"], width=480)
    layout = column(
        header,
        row(fig_z, fig_p),
        row(temperature, true_class, add_one, reset),
        row(column(divs["probs"], divs["formula"], width=520), readouts),
        name="explainer", stylesheets=[style], margin=(8, 16, 24, 16),
    )
    return LessonDocument(layout=layout, logits=logits, temperature=temperature, true_class=true_class)
