"""The explainer as one Bokeh document: the lesson model, figures, controls, readouts and one browser callback.

Built once from a lesson's state; the served app, the exported file and a notebook all show this same
document. The number of classes is not fixed here: the page adds, removes and renames classes by itself
(static/explainer.mjs), so an exported file can too. Model names follow the team's testing contract (the
named sources, controls, figures and readout classes that tests and tools rely on); `settings` is drawn by
nothing and kept for them.
"""

import json
import math
from dataclasses import dataclass
from functools import cache

from bokeh.core.properties import Any, String, expr
from bokeh.layouts import column, row
from bokeh.model import DataModel
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
    PointDrawTool,
    RadioButtonGroup,
    Range1d,
    Select,
    Slider,
    Span,
    TextInput,
    Title,
    Toggle,
    VeeHead,
)
from bokeh.plotting import figure

from . import bundle
from .actions import PRESETS
from .digits import logit_text
from .frame import VIEW, frame
from .readouts import escape_html, fill, notice_html
from .rules import FIELDS, LOGIT_LIMIT, T_BOUNDS, rules_data
from .strings import LANGS, TEXT

# Okabe–Ito colours, distinguishable with every common colour-vision deficiency; the true class keeps its
# black-and-white double outline in both themes.
THEMES = {
    "light": {"bg": "#ffffff", "fg": "#1d2733", "muted": "#4a5563", "grid": "#e3e7ec", "bar": "#0072b2",
              "arrow": "#009e73", "point": "#1d3557", "point_line": "#ffffff", "target": "#d55e00",
              "selected": "#e69f00", "span": "#999999"},
    "dark": {"bg": "#15191f", "fg": "#e8edf2", "muted": "#aab4c0", "grid": "#2c333d", "bar": "#56b4e9",
             "arrow": "#009e73", "point": "#e8edf2", "point_line": "#15191f", "target": "#e69f00",
             "selected": "#f0e442", "span": "#6b7480"},
}
# Sizes that lecture mode (a projector) makes larger: px for text, lines and markers.
SIZES = {
    "normal": {"title": "14px", "hint": "12px", "axis": "13px", "ticks": "15px", "ticks_many": "13px",
               "labels": "13px", "arrow": 4, "point": 22, "outline": 7, "outline_inner": 3, "target": 3},
    "lecture": {"title": "20px", "hint": "16px", "axis": "18px", "ticks": "20px", "ticks_many": "17px",
                "labels": "17px", "arrow": 7, "point": 30, "outline": 9, "outline_inner": 4, "target": 5},
}
READOUTS = {  # key: role; a block readout may take two lines on a wide screen
    "probs": "readout-probs", "formula": "readout-block", "sigmoid": "readout-line", "info": "readout-info",
    "loss": "readout-block", "entropy": "readout-block", "floor": "readout-block", "kl": "readout-line",
    "perplexity": "readout-line", "gap": "readout-block", "lse": "readout-line", "arrows": "readout-line",
}


# Neither Bokeh's page template nor Panel's has a viewport tag: without it a phone lays the page out about
# 980 px wide and shrinks it, so no narrow-screen rule applies. The exported page and the served app add it.
VIEWPORT = ('{% block postamble %}<meta name="viewport" content="width=device-width, initial-scale=1">'
            "{% endblock %}")


class LessonModel(DataModel):
    """The whole lesson in the page, in one property, the page's own (syncable=False): the page writes it once
    per gesture and draws from it; a script may read it, or write it and be checked."""

    state = Any(help="The lesson's state: a dict with the short keys of app/frame.py")


class WireModel(DataModel):
    """The lesson between the page and Python, as JSON text: the page writes it once per commit, Python
    answers through it (app/explainer.py). Text, because text is all a forged value can become here: Bokeh's
    server cannot decode some values a script can put in an `Any` (a Date, a Symbol, a list nested a
    thousand deep), and closes the connection on them."""

    text = String(default="", help="The lesson's state as JSON text (the keys of LessonModel.state)")


@dataclass
class LessonDocument:
    """The layout, the models a caller syncs with its lesson, and the one callback (for document events)."""

    layout: object
    lesson: LessonModel
    wire: WireModel
    notice: Div
    callback: CustomJS
    controls: dict


def inputs_html(s, t):
    """The labelled number inputs that change a logit without dragging (static/explainer.mjs keeps them)."""
    fields = "".join(
        f'<label><span>{escape_html(name)}</span><input class="logit-input" type="number" step="0.1" '
        f'min="{-LOGIT_LIMIT:g}" max="{LOGIT_LIMIT:g}" value="{logit_text(z)}" data-k="{k}" '
        f'aria-label="{escape_html(fill(t["input_label"], {"name": name}))}"></label>'
        for k, (name, z) in enumerate(zip(s["names"], s["z"], strict=True)))
    return f'<div class="inputs-title">{t["inputs_title"]}</div><div class="inputs">{fields}</div>'


def live_html(text):
    """The polite ARIA live region; the page writes its text once a change is done, never during a drag."""
    return f'<div class="live-region" role="status" aria-live="polite">{escape_html(text)}</div>'


def build(s, mode="file", app_path="", app_url=""):
    """Build the explainer for state `s`. `mode` is where it runs: "file" (an exported page, links in the
    hash), "served" (links in the query, at `app_path`; `app_url` its address) or "notebook" (no address)."""
    t = TEXT[s["lang"]]
    first = frame(s, t)
    rules = rules_data()
    sheets = [InlineStyleSheet(css=bundle.read("explainer.css")), InlineStyleSheet(css=bundle.read("layout.css"))]
    stretch = {"sizing_mode": "stretch_width"}
    quiet = {"syncable": False}  # the page writes these on every frame; only `lesson` travels to Python

    lesson = LessonModel(state=s, name="lesson", **quiet)
    wire = WireModel(text=json.dumps(s, ensure_ascii=False), name="wire")
    sources = {name: ColumnDataSource(data, name=name, **quiet) for name, data in first["sources"].items()}
    sources["logits"].selected.syncable = False
    palette, size = THEMES[s["theme"]], SIZES["lecture" if s["lecture"] else "normal"]

    def fig(name, title, hint, y_range):
        # No tools but the logits' PointDrawTool: nothing pans or zooms an axis under a stray drag, and a
        # finger on the bar chart scrolls the page.
        f = figure(name=name, title=title, height=400, width=500, tools="", toolbar_location=None, y_range=y_range,
                   x_range=Range1d(*first["x_range"], **quiet), min_border_left=60, min_border_right=20,
                   css_classes=["fig"], stylesheets=sheets, background_fill_color=palette["bg"],
                   border_fill_color=palette["bg"], **stretch, **quiet)
        f.ygrid.grid_line_color = palette["grid"]  # the page draws every other colour of the theme at start-up
        f.xaxis.ticker = FixedTicker(ticks=list(range(first["K"])), **quiet)
        # Plain text: a class name such as "$$x$$" is shown as typed, never typeset.
        f.xaxis.formatter = CustomJSTickFormatter(args={"names": s["names"]}, code="return names[tick] ?? ''",
                                                  **quiet)
        f.xgrid.grid_line_color = None
        # The key to the figure on a line of its own under the title, so that a phone clips neither.
        f.add_layout(Title(text=hint, text_font_style="normal", text_font_size=size["hint"],
                           text_color=palette["muted"], **quiet), "above")
        return f

    fig_z = fig("logit_figure", t["logit_title"], t["logit_hint"], Range1d(*first["window"], **quiet))
    span = Span(location=0, dimension="width", line_color=palette["span"], line_dash="dashed")
    fig_z.add_layout(span)
    arrows = Arrow(source=sources["neg_grad"], x_start="x_arrow", y_start="y0", x_end="x_arrow", y_end="y1",
                   line_color=palette["arrow"], line_width=size["arrow"],
                   end=VeeHead(size="head", fill_color=palette["arrow"], line_color=palette["arrow"]))
    fig_z.add_layout(arrows)
    index = CustomJSExpr(code="return Array.from({length: this.get_length() ?? 0}, (_, k) => k)")
    points = fig_z.scatter(x=expr(index), y="z", source=sources["logits"], size=size["point"],
                           fill_color=palette["point"], line_color=palette["point_line"], line_width=2,
                           nonselection_fill_alpha=1.0, nonselection_line_alpha=1.0,
                           selection_fill_color=palette["selected"])
    point_labels = LabelSet(source=sources["point_labels"], x="x", y="z", text="text", x_offset=-18, y_offset=-8,
                            text_align="right", text_font_size=size["labels"], text_color=palette["fg"],
                            visible=not first["many"])
    fig_z.add_layout(point_labels)
    draw = PointDrawTool(renderers=[points], add=False, drag=True)
    fig_z.add_tools(draw)
    fig_z.toolbar.active_tap = draw
    fig_z.yaxis.axis_label = t["logit_axis"]

    fig_p = fig("prob_figure", t["prob_title"], t["prob_hint"], Range1d(0, 1.12, **quiet))
    bar = {"x": "x", "top": "p", "width": VIEW["bar_width"], "source": sources["probs"]}
    bars = fig_p.vbar(**bar, fill_color=palette["bar"], line_color=None)
    outer = fig_p.vbar(**bar, fill_color=None, line_color="black", line_width=size["outline"], line_alpha="is_true")
    inner = fig_p.vbar(**bar, fill_color=None, line_color="white", line_width=size["outline_inner"],
                       line_alpha="is_true")
    targets = fig_p.segment(x0="x0", x1="x1", y0="y", y1="y", source=sources["target"], line_color=palette["target"],
                            line_width=size["target"])
    bar_labels = LabelSet(source=sources["probs"], x="x", y="p", text="label", text_align="center", y_offset=6,
                          text_font_size=size["labels"], text_color=palette["fg"])
    fig_p.add_layout(bar_labels)
    fig_p.yaxis.axis_label = t["prob_axis"]
    for f in (fig_z, fig_p):
        f.xaxis.axis_label = t["class_axis"]

    # "lecture-mode", not "lecture": a class never shares a control's name (tools find models by either).
    control = {"css_classes": ["control", *(["lecture-mode"] if s["lecture"] else [])], "stylesheets": sheets,
               **quiet}
    controls = {
        "temperature": Slider(
            title=t["temperature"], name="temperature", start=math.log10(T_BOUNDS[0]), end=math.log10(T_BOUNDS[1]),
            step=0.01, value=math.log10(s["T"]), width=300,
            format=CustomJSTickFormatter(code="const T = 10 ** tick; return 'T = ' + "
                                              "(T < 1 ? T.toPrecision(2) : T.toPrecision(3));"), **control),
        "true_class": Select(title=t["true_class"], name="true_class", value=str(s["y"]), width=170,
                             options=[(str(k), name) for k, name in enumerate(s["names"])], **control),
        "add_one": Button(label=t["add_one"], name="add_one", button_type="primary", width=190, align="end",
                          **control),
        "reset": Button(label=t["reset"], name="reset", width=210, align="end", **control),
        "label_smoothing": Slider(title=t["label_smoothing"], name="label_smoothing", start=rules["eps"][0],
                                  end=rules["eps"][1], step=0.01, value=s["eps"], width=240, **control),
        "units": RadioButtonGroup(labels=[t["nats"], t["bits"]], active=int(s["units"] == "bits"), name="units",
                                  width=150, align="end", **control),
        "preset": Select(title=t["preset"], name="preset", value="", width=240, **control,
                         options=[("", t["preset_none"])] + [(p, t[f"preset_{p}"]) for p in PRESETS]),
        "add_class": Button(label=t["add_class"], name="add_class", width=150, align="end", **control),
        "remove_class": Button(label=t["remove_class"], name="remove_class", width=190, align="end", **control),
        "class_names": TextInput(title=t["class_names_box"], name="class_names", value=", ".join(s["names"]),
                                 width=320, **control),
        "lang": Select(title=t["lang"], name="lang", value=s["lang"], width=150,
                       options=[(code, t["lang_options"][code]) for code in LANGS], **control),
        "theme": Toggle(label=t["theme"], name="theme", active=s["theme"] == "dark", width=140, align="end",
                        **control),
        "lecture": Toggle(label=t["lecture"], name="lecture", active=s["lecture"], width=140, align="end",
                          **control),
        "copy_link": Button(label=t["copy_link"], name="copy_link", width=130, align="end", **control),
        "download_png": Button(label=t["download_png"], name="download_png", width=190, align="end", **control),
    }

    def div(key, html, role, **kw):
        return Div(text=html, css_classes=[f"readout-{key}", "readout", role], stylesheets=sheets, disable_math=True,
                   height=30, **stretch, **quiet, **kw)

    divs = {key: div(key, first["readouts"][key], role, visible=bool(first["readouts"][key]) or key not in
                     ("gap", "sigmoid")) for key, role in READOUTS.items()}
    notice = Div(text=notice_html(s, t, FIELDS), name="notice", css_classes=["notice"], stylesheets=sheets,
                 disable_math=True, **stretch, **quiet)
    inputs = Div(text=inputs_html(s, t), name="logit_inputs", css_classes=["inputs-box"], stylesheets=sheets,
                 disable_math=True, **stretch, **quiet)
    live = Div(text=live_html(first["live"]), name="live_region", css_classes=["a11y"], stylesheets=sheets,
               disable_math=True, height=1, **stretch, **quiet)
    header = Div(text=f"<h1>{t['title']}</h1><p>{t['subtitle']}</p>", name="header", css_classes=["header"],
                 stylesheets=sheets, disable_math=True, **stretch, **quiet)

    wrap = {"css_classes": ["wrap"], "stylesheets": sheets, **stretch}
    c = controls
    layout = column(
        header,
        row(fig_z, fig_p, spacing=16, **wrap),
        row(c["temperature"], c["true_class"], c["add_one"], c["reset"], **wrap),
        row(c["label_smoothing"], c["units"], c["preset"], c["add_class"], c["remove_class"], **wrap),
        inputs,
        notice,
        row(column(divs["probs"], divs["formula"], divs["sigmoid"], divs["info"], css_classes=["readout-column"],
                   stylesheets=sheets, **stretch),
            column(divs["loss"], divs["entropy"], divs["floor"], divs["kl"], divs["perplexity"], divs["gap"],
                   divs["lse"], divs["arrows"], css_classes=["readout-column"], stylesheets=sheets, **stretch),
            spacing=16, **wrap),
        row(c["class_names"], c["lang"], c["theme"], c["lecture"], c["copy_link"], c["download_png"], **wrap),
        live,
        name="explainer", css_classes=["explainer"] + (["dark"] if s["theme"] == "dark" else [])
        + (["lecture-mode"] if s["lecture"] else []), stylesheets=sheets, margin=(8, 16, 24, 16), max_width=1400,
        **stretch)

    # One callback for every trigger: the module is compiled once and stored once in an exported page.
    callback = CustomJS(code=bundle.bundle(), args={
        "lesson": lesson, "wire": wire, "sources": sources, "controls": controls, "divs": divs, "notice": notice,
        "inputs": inputs, "live": live, "header": header, "root": layout,
        "figs": {"logit": fig_z, "prob": fig_p}, "hints": {"logit": fig_z.above[0], "prob": fig_p.above[0]},
        "axes": {"logit_x": fig_z.xaxis[0], "logit_y": fig_z.yaxis[0], "prob_x": fig_p.xaxis[0],
                 "prob_y": fig_p.yaxis[0]},
        "grids": [fig_z.ygrid[0], fig_p.ygrid[0]],
        "glyphs": {"arrows": arrows, "heads": arrows.end, "points": points.glyph, "bars": bars.glyph,
                   "outer": outer.glyph, "inner": inner.glyph, "targets": targets.glyph,
                   "point_labels": point_labels, "bar_labels": bar_labels, "span": span},
        "strings": TEXT, "rules": rules, "view": VIEW, "themes": THEMES, "sizes": SIZES,
        "mode": mode, "app_path": app_path, "app_url": app_url})
    lesson.js_on_change("state", callback)
    wire.js_on_change("text", callback)
    sources["logits"].js_on_change("data", callback)
    for event in ("pan", "panend", "tap"):
        fig_z.js_on_event(event, callback)
    fig_z.js_on_change("inner_width", callback)
    for name in ("temperature", "label_smoothing"):
        controls[name].js_on_change("value", callback)
        controls[name].js_on_change("value_throttled", callback)
    for name in ("true_class", "preset", "lang", "class_names"):
        controls[name].js_on_change("value", callback)
    for name in ("units", "theme", "lecture"):
        controls[name].js_on_change("active", callback)
    for name in ("add_one", "reset", "add_class", "remove_class", "copy_link", "download_png"):
        controls[name].js_on_event("button_click", callback)
    return LessonDocument(layout=layout, lesson=lesson, wire=wire, notice=notice, callback=callback,
                          controls=controls)


@cache
def control_names():
    """The controls' model names, in the page's order (tests and tools read them here, never from a copy)."""
    from .state import Lesson

    return tuple(build(Lesson().state()).controls)
