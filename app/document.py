"""The explainer as one Bokeh document: the lesson model, figures, controls, readouts and one browser callback.

Built once from a lesson's state; the served app, the exported file and a notebook all show this same
document. It holds no frame: its sources start empty (their columns named), its readouts, notice and logit
inputs without text, and the page draws every frame itself, the first one at the logit figure's first layout
(static/frame.mjs, readouts.mjs, digits.mjs). Nor a look: the figures are made from their rows (FIGURES) with
no colour, size or text, which the page draws from LOOK and the strings. The number of classes is not fixed
here: the page adds, removes and renames classes by itself (static/actions.mjs), so an exported file can too.
Model names follow the team's testing contract (the named sources, controls, figures and readout classes that
tests and tools rely on); `settings` is drawn by nothing and kept for them.
"""

import json
import math
from dataclasses import dataclass

from bokeh.core.properties import Any, String, expr
from bokeh.layouts import column, row
from bokeh.model import DataModel
from bokeh.models import (
    Arrow,
    BasicTicker,
    Button,
    CheckboxButtonGroup,
    ColumnDataSource,
    CustomJS,
    CustomJSExpr,
    CustomJSTickFormatter,
    Div,
    FixedTicker,
    HoverTool,
    HSpan,
    HStrip,
    InlineStyleSheet,
    LabelSet,
    Legend,
    LegendItem,
    Line,
    MultiLine,
    PointDrawTool,
    Quad,
    RadioButtonGroup,
    Range1d,
    Rect,
    Scatter,
    Segment,
    Select,
    Slider,
    Span,
    Text,
    TextInput,
    Title,
    Toggle,
    VBar,
    VeeHead,
    Whisker,
)
from bokeh.plotting import figure

from . import bundle, calibration, controls, steps, vocabulary
from .actions import PRESETS
from .controls import CONTROLS
from .controls import table as controls_table
from .fields import BY_KEY
from .rules import rules_data
from .strings import TEXT

# Okabe–Ito colours, distinguishable with every common colour-vision deficiency; the true class keeps its
# black-and-white double outline in every theme. `line`: the width of the axes, ticks, grid lines and frames.
# The projector's: a projector washes colours out and shows black as grey, so a white field, text at ≥ 7:1
# against it, every mark at ≥ 3:1 (the same hues, darker) and no line of one pixel (tests/browser/test_themes.py
# measures them in the page).
THEMES = {
    "light": {"bg": "#ffffff", "fg": "#1d2733", "muted": "#4a5563", "grid": "#e3e7ec", "bar": "#0072b2",
              "arrow": "#009e73", "point": "#1d3557", "point_line": "#ffffff", "target": "#d55e00",
              "selected": "#e69f00", "span": "#999999", "draws": "#cc79a7", "line": 1},
    "dark": {"bg": "#15191f", "fg": "#e8edf2", "muted": "#aab4c0", "grid": "#2c333d", "bar": "#56b4e9",
             "arrow": "#009e73", "point": "#e8edf2", "point_line": "#15191f", "target": "#e69f00",
             "selected": "#f0e442", "span": "#6b7480", "draws": "#f0a3d0", "line": 1},
    "projector": {"bg": "#ffffff", "fg": "#111820", "muted": "#3a4350", "grid": "#87919c", "bar": "#005a9c",
                  "arrow": "#00755a", "point": "#1d3557", "point_line": "#ffffff", "target": "#b04a00",
                  "selected": "#946200", "span": "#6b7480", "draws": "#a3407a", "line": 2},
}
# Sizes that lecture mode (a projector) makes larger: px for text, lines and markers.
SIZES = {
    # `least`: a figure's title or key takes another line rather than shrink below it (static/draw.mjs fit_text).
    "normal": {"title": "14px", "hint": "12px", "axis": "13px", "ticks": "15px", "ticks_many": "13px",
               "yticks": "12px", "labels": "13px", "arrow": 4, "point": 22, "outline": 7, "outline_inner": 3,
               "target": 3, "least": 11},
    # No text below 20 px for the back row.
    "lecture": {"title": "20px", "hint": "20px", "axis": "20px", "ticks": "20px", "ticks_many": "20px",
                "yticks": "20px", "labels": "20px", "arrow": 7, "point": 30, "outline": 9, "outline_inner": 4,
                "target": 5, "least": 20},
}

# The look, as data: each model the page colours or sizes, and for each of its properties a colour of the theme
# (THEMES) or, after "size.", a size of the look (SIZES). Python builds the models without it; the page applies it
# at its first frame and at every change of theme or lecture mode (static/draw.mjs draw_look). A target is one
# of the page's models by its path in the page's arguments, or a group of them (static/draw.mjs LOOK_GROUPS).
LOOK = (
    ("figures", {"background_fill_color": "bg", "border_fill_color": "bg", "outline_line_color": "grid",
                 "outline_line_width": "line"}),
    ("titles", {"text_color": "fg"}),  # their sizes, and the keys': static/draw.mjs fit_hints
    ("hints", {"text_color": "muted"}),
    ("grids", {"grid_line_color": "grid", "grid_line_width": "line"}),
    ("axes", {"axis_label_text_color": "fg", "major_label_text_color": "fg", "axis_line_color": "muted",
              "major_tick_line_color": "muted", "minor_tick_line_color": "muted", "axis_line_width": "line",
              "major_tick_line_width": "line", "minor_tick_line_width": "line",
              "axis_label_text_font_size": "size.axis"}),
    # Every axis but the two figures' class axes, whose ticks static/draw.mjs draw_axes sizes by the classes.
    ("small_ticks", {"major_label_text_font_size": "size.yticks"}),
    ("glyphs.arrows", {"line_color": "arrow", "line_width": "size.arrow"}),
    ("glyphs.heads", {"fill_color": "arrow", "line_color": "arrow"}),
    ("glyphs.marks", {"fill_color": "arrow", "line_color": "arrow"}),
    ("glyphs.arrow_labels", {"text_color": "arrow", "text_font_size": "size.hint"}),
    ("glyphs.points", {"fill_color": "point", "line_color": "point_line"}),  # their size: static/draw.mjs
    ("glyphs.selected", {"fill_color": "selected", "line_color": "point_line"}),
    ("glyphs.unselected", {"fill_color": "point", "line_color": "point_line"}),
    ("glyphs.bars", {"fill_color": "bar"}),
    ("glyphs.outer", {"line_width": "size.outline"}),
    ("glyphs.inner", {"line_width": "size.outline_inner"}),
    ("glyphs.targets", {"line_color": "target", "line_width": "size.target"}),
    ("glyphs.point_labels", {"text_color": "fg", "text_font_size": "size.labels"}),
    ("glyphs.bar_labels", {"text_color": "fg", "text_font_size": "size.labels"}),
    ("glyphs.span", {"line_color": "span", "line_width": "line"}),
    ("glyphs.freq", {"fill_color": "draws", "line_color": "fg", "line_width": "line"}),
    ("glyphs.whiskers", {"line_color": "fg"}),
    ("glyphs.whiskers.upper_head", {"line_color": "fg"}),
    ("glyphs.whiskers.lower_head", {"line_color": "fg"}),
    ("glyphs.loss_line", {"line_color": "bar"}),
    ("glyphs.jacobian_text", {"text_font_size": "size.hint"}),
    ("fn.curves", {"line_color": "bar"}),
    ("fn.dashed", {"line_color": "target"}),
    ("fn.points", {"fill_color": "fg", "line_color": "bg"}),
    ("fn.lse_band", {"fill_color": "span"}),
    ("fn.lse_line", {"line_color": "target"}),
    ("calibration.diagonal", {"line_color": "span"}),
    ("calibration.bars", {"fill_color": "bar", "line_color": "bg"}),
    ("calibration.gaps", {"fill_color": "target", "line_color": "target", "hatch_color": "target"}),
    ("calibration.gaps_under", {"hatch_color": "bg", "line_color": "bg"}),
    ("calibration.key_bars", {"fill_color": "bar", "line_color": "bg"}),
    ("calibration.key_over", {"fill_color": "target", "hatch_color": "target", "line_color": "target"}),
    ("calibration.key_under", {"fill_color": "bar", "hatch_color": "bg", "line_color": "bar"}),
    ("calibration.legend", {"background_fill_color": "bg", "label_text_color": "fg",
                            "label_text_font_size": "size.hint"}),
    ("calibration.counts", {"fill_color": "muted", "line_color": "bg"}),
    ("calibration.test", {"line_color": "bar"}),
    ("calibration.val", {"line_color": "target"}),
    ("calibration.span", {"line_color": "span"}),
    ("calibration.now", {"fill_color": "fg", "line_color": "bg"}),
    ("calibration.fit_line", {"line_color": "selected"}),
    ("calibration.fit_dots", {"fill_color": "selected", "line_color": "fg"}),
    ("lm.att_text", {"text_font_size": "size.hint"}),
    ("lm.router_text", {"text_color": "fg", "text_font_size": "size.hint"}),
    ("lm.line", {"line_color": "muted"}),
    ("lm.kept", {"fill_color": "bar", "line_color": "bar", "line_width": "line"}),
    ("lm.router", {"fill_color": "bar"}),
    ("lm.decay_bars", {"fill_color": "bar"}),
    ("lm.decay_line", {"line_color": "target"}),
    ("lm.grad", {"line_color": "target"}),
    ("lm.grad_T2", {"line_color": "bar"}),
    ("lm.span", {"line_color": "span"}),
    ("lm.now", {"fill_color": "fg", "line_color": "bg"}),
)


@dataclass(frozen=True)
class Readout:
    """One readout Div of the page, which static/readouts.mjs (or its view's module) fills with HTML."""

    key: str  # its CSS class is readout-<key> (the testing contract's readout-loss …)
    role: str  # its room: a block may take two lines on a wide screen, a short one one line on a phone
    column: str  # the column of readouts it sits in (`build` places each column)
    section: str | None = None  # the section of app/fields.py SECTIONS it shows with; None: always, with its part
    view: str = "lesson"  # what draws it: the lesson (static/readouts.mjs), "calibration" or "lm" (their modules)
    # Held at its height while a gesture lasts (static/gestures.mjs hold_box): its lines, which a gesture's frames
    # never change, are laid out inside it alone, where a box that follows its content lays the page out again.
    held: bool = False


READOUTS = (
    # The first screen: p_y (and, with two classes, the sigmoid) beside the loss.
    Readout("py", "readout-short", "key"),
    Readout("sigmoid", "readout-line", "key"),
    Readout("loss", "readout-block", "loss"),
    # The sections a learner opens, in two columns.
    Readout("probs", "readout-probs", "sections", section="table", held=True),
    Readout("strip", "readout-lab", "sections", section="table"),
    Readout("formula", "readout-block", "sections", section="table"),
    Readout("lse", "readout-line", "sections", section="lse"),
    Readout("arrows", "readout-line", "sections", section="lse"),
    Readout("entropy", "readout-block", "info", section="info"),
    Readout("floor", "readout-block", "info", section="info"),
    Readout("kl", "readout-line", "info", section="info"),
    Readout("perplexity", "readout-line", "info", section="info"),
    Readout("info", "readout-info", "info", section="info"),
    Readout("gap", "readout-block", "info", section="info"),  # shown with ε as well
    # The lab's parts, each under its controls.
    Readout("update", "readout-lab", "update", held=True),
    Readout("race", "readout-lab", "race", held=True),
    Readout("chain", "readout-lab", "chain", held=True),
    Readout("naive", "readout-lab", "naive", held=True),
    # The calibration view: the numbers under the NLL curve, a few sentences below the figures.
    *(Readout(k, "readout-lab", "calibration_side", view="calibration", held=True)
      for k in ("ece", "mce", "nll", "accuracy", "fit")),
    Readout("calibration", "readout-lab", "calibration_below", view="calibration"),
    # The road to language models: the filters beside the rank-probability plot, the other softmaxes below.
    *(Readout(k, "readout-lab", "lm_side", view="lm", held=True) for k in ("decoding", "uniform")),
    *(Readout(k, "readout-lab", "lm_below", view="lm", held=True) for k in ("alibi", "routing", "distillation")),
    Readout("lm", "readout-lab", "lm_below", view="lm"),
)


def column_of(name):
    """The keys of the readouts in column `name`, in the table's order."""
    return [r.key for r in READOUTS if r.column == name]


# Drawing rules, the page's (static/frame.mjs reads them as `view`): the logit axis is ±half_window, grown on a
# side in steps of half_window where a logit would leave it, plus `pad` between the outermost draggable position
# and the frame's edge; an arrow is drawn arrow_scale times as long as −∂L/∂z, arrow_dx right of its point, or
# cut arrow_margin short of the frame's edge with a break mark (a dash of break_size px at break_angle,
# break_at of the axis before the cut) and its value label_gap px from the cut; its head is `head` px,
# shrinking with short arrows (head_per_unit px per logit unit), and below min_arrow it is a dot of dot_size px
# (a zero-length Bokeh Arrow still draws a head); beyond many_classes the tick labels turn and the value beside
# each point is left to the table.
# The logit axis: ±half_window, and beyond it `headroom` past the outermost logit, so a point can be dragged on
# past it and "add 1" grows it by the press (static/frame.mjs logit_window); `pad` more inside each end.
VIEW = {"half_window": 6.0, "headroom": 3.0, "pad": 0.6,
        "arrow_scale": 2.0, "arrow_dx": 0.2, "arrow_margin": 0.15, "head": 12,
        "head_per_unit": 24, "min_arrow": 0.04, "break_at": 0.12, "break_angle": 0.6, "break_size": 24,
        "dot_size": 8, "label_gap": 16, "many_classes": 6, "bar_width": 0.62,
        # The kept words the road to language models lists (the page's Hangul covers every word it can list).
        "top_words": 10,
        # Where labels sit, in px (static/frame.mjs `fit` keeps them clear of everything else by `clearance`):
        # a cut arrow's value right of it, a bar's value above it, a point's value left of it and a little down.
        "label_offset": 8, "bar_label_offset": 6, "point_label_dx": 18, "point_label_dy": -8, "clearance": 3,
        # The probability axis's end as built: room above p = 1 for a bar's value, which the page raises where the
        # labels' size needs more (lecture mode's on a short figure; static/frame.mjs prob_end).
        "prob_end": 1.12,
        # How far a class axis's names may reach from it, as a share of the figure's height (names below) or
        # width (names on its left); a longer name is shortened with "…" (static/frame.mjs class_labels).
        "name_depth": 0.25,
        # What the page reads of the readouts' table: each one's section, each view's (emptied when the view
        # closes), those held during a gesture.
        "section_of": {r.key: r.section for r in READOUTS if r.section},
        "readouts_of": {v: [r.key for r in READOUTS if r.view == v] for v in ("calibration", "lm")},
        "held": [r.key for r in READOUTS if r.held],
        # The rows of controls (app/controls.py) shown while a flag is on: the lab's parts, the guided path.
        "flag_rows": {"5": "learn", "6": "sample", "7": "naive", "8": "tour", "9": "calib", "10": "lm", "11": "lm"},
        # The figures' text (a canvas's): Bokeh's own font, a machine's Korean fonts, then the page's Hangul
        # (static/hangul.css), which the page gives the figures once it has loaded.
        "hangul": "SX Hangul",
        "font": 'helvetica, Arial, "Liberation Sans", "DejaVu Sans", "Noto Sans", "Noto Sans CJK KR", '
                '"Apple SD Gothic Neo", "Malgun Gothic", NanumGothic, "SX Hangul", '
                "sans-serif"}
# The row of controls (app/controls.py) of the guided path's buttons.
PATH_ROW = 8
# The sources' columns, as static/frame.mjs `frame` fills them; they start empty.
SOURCES = {
    "logits": ("z", "name"), "probs": ("x", "p", "label", "is_true", "label_y", "label_alpha", "name"),
    "neg_grad": ("x", "g"), "target": ("x", "y", "x0", "x1"),
    "arrows": ("x", "y0", "y1", "clipped", "head", "mark_y", "mark", "mark_alpha", "mark_angle", "mark_size", "label",
               "label_dy"),
    "settings": ("T", "y", "eps"), "point_labels": ("x", "z", "text", "dy", "alpha"),
}
# The lab's sources, which static/draw.mjs `lab_frame` fills from the page's own record as well as the state:
# the loss after each step (y: as drawn, log10 of it on the log scale), the draws on the bars (from the kept
# noise), the Jacobian's cells (row-major).
LAB_SOURCES = {"loss_history": ("step", "loss", "y"), "samples": ("x", "count", "freq", "lower", "upper"),
               "jacobian": ("i", "j", "value", "color", "text")}
# The calibration view's, which static/calibration_view.mjs fills from `heldout` (the one source Python fills:
# data, not a frame): a row per non-empty bin of the test split's confidences, the mean NLL against T on
# both splits (T log-spaced over the view's slider), the NLL at the view's T, and Newton's iterates while the
# view's T is the fitted one.
CALIBRATION_SOURCES = {
    "reliability": ("confidence", "accuracy", "count", "lower", "upper", "mid", "width", "gap_bottom", "gap_top",
                    "over", "under", "over_fill", "alpha"),
    "nll_curve": ("T", "val", "test"), "nll_now": ("T", "nll"), "fit_path": ("T", "nll")}
# The road to language models', which static/lm_view.mjs fills from `lexicon` (Python fills it: data, not a
# frame): every kept word in rank order with its renormalised p and its rank (top-p may skip into a run of
# equal frequencies), the filters' row, ranks log-spaced for the
# rank-probability plot (p before the filters, and after them where kept), the causal attention weights of the
# classes as tokens, the router's experts, and the distillation gradient's norm on a log grid of T.
LM_SOURCES = {"vocab": ("word", "p", "rank"), "decoding": ("T", "top_k", "top_p", "min_p", "kept"),
              "vocab_curve": ("rank", "p"), "vocab_kept": ("rank", "p"),
              "attention": ("i", "j", "weight", "color", "ink", "text"), "router": ("expert", "x", "weight", "label"),
              "alibi_decay": ("d", "ratio"), "alibi_factor": ("d", "factor"),
              "distill": ("T", "grad", "grad_T2"), "distill_now": ("T", "grad", "grad_T2")}
# The figure of a function beside the bars (app/fields.py `fn`), which static/frame.mjs `function_figure` fills: its
# curves (solid, and the entropy's dashed), the lesson's points on them; and on the logit figure, while the
# log-sum-exp section is open, the band from max z to max z + T ln K and the line at T·LSE(z/T) inside it.
FUNCTION_SOURCES = {"fn_curves": ("xs", "ys"), "fn_dashed": ("xs", "ys"), "fn_points": ("x", "y"),
                    "lse_marks": ("y0", "y1", "y")}
# Where the axes start, until the page's first frame sets them: three classes, and logits within ±half_window.
X_RANGE = (-0.6, 2.6)
LOGIT_RANGE = (-VIEW["half_window"] - VIEW["pad"], VIEW["half_window"] + VIEW["pad"])


@dataclass(frozen=True)
class Figure:
    """One figure of the page, built by `build` from this row and drawn by its view's module. Its model is named
    `<key>_figure`; the page finds it by `key` (the lesson's two in `figs`, every other in `lab_figs`), its key to
    the figure above it (`hints`, `lab_hints`) and its axes (`<key>_x`, `<key>_y`)."""

    key: str
    view: str  # what draws it: "lesson" (the two main figures), "lab", "calibration", "lm" or "function"
    height: int
    x_range: tuple | str  # its ends (the page moves them), or the key of the figure whose x range it shares
    y_range: tuple
    x_axis: str = "linear"  # or "log"
    y_axis: str = "linear"
    grid: str = "y"  # the grid lines it draws, in the look's colour (LOOK "grids"): "", "x", "y" or "xy"
    class_axes: str = ""  # its axes that name the classes (the page sets their ticks and shortens the names)
    shown_with: str | None = None  # the field that shows it; None: always; "page": hidden until the page shows it
    classes: tuple = ()  # its CSS classes besides "fig" (static/layout.css sizes it by them)
    width: int | None = None  # its width where it does not stretch to its row's
    max_width: int | None = None
    min_border_right: int | None = None


FIGURES = (
    Figure("logit", "lesson", 400, X_RANGE, LOGIT_RANGE, class_axes="x", classes=("fig-main",), width=500,
           min_border_right=20),
    Figure("prob", "lesson", 400, X_RANGE, (0, VIEW["prob_end"]), class_axes="x", classes=("fig-main",), width=500,
           min_border_right=20),
    # The loss after each step: shown from the first step on (static/draw.mjs draw_lab_figures).
    Figure("loss", "lab", 240, (0, 10), (0, 1), shown_with="page", max_width=520),
    # The Jacobian: cell (j, i) is ∂p_i/∂z_j, row i at the top.
    Figure("jacobian", "lab", 340, (-0.5, 2.5), (2.5, -0.5), grid="", class_axes="xy", shown_with="jacobian",
           max_width=420),
    # The calibration view: the reliability diagram over its histogram of counts (one confidence axis), and the
    # mean NLL against T (static/calibration_view.mjs).
    Figure("reliability", "calibration", 330, (0, 1), (0, 1.02), grid="xy", shown_with="calib",
           classes=("fig-stacked",)),
    Figure("counts", "calibration", 170, "reliability", (0.5, 10), y_axis="log", grid="xy", shown_with="calib",
           classes=("fig-stacked", "fig-counts")),
    Figure("nll", "calibration", 330, BY_KEY["cT"].bounds, (0, 2.5), x_axis="log", grid="xy", shown_with="calib",
           classes=("fig-stacked",)),
    # The road to language models (static/lm_view.mjs): the next word's rank against its p, then attention, ALiBi's
    # factor against distance, the router and distillation.
    Figure("vocab", "lm", 330, (0.8, 65_000), (1e-8, 1.5), x_axis="log", y_axis="log", grid="xy", shown_with="lm",
           classes=("fig-column",), min_border_right=24),
    Figure("attention", "lm", 330, (-0.5, 2.5), (2.5, -0.5), grid="", class_axes="xy", shown_with="lm",
           classes=("fig-column",)),
    Figure("decay", "lm", 330, (-0.5, 2.5), (0, 1.1), shown_with="lm", classes=("fig-column",)),
    Figure("router", "lm", 330, X_RANGE, (0, 1.1), class_axes="x", shown_with="lm", classes=("fig-column",)),
    Figure("distill", "lm", 330, BY_KEY["T"].bounds, (1e-3, 10), x_axis="log", y_axis="log", grid="xy",
           shown_with="lm", classes=("fig-column",), min_border_right=24),
    # The figure of a function: its title, key and axes are the mode's (static/draw.mjs draw_function).
    Figure("function", "function", 400, (0, 1), (0, 1), grid="xy", shown_with="fn", width=420),
)


def shown_at_start(row, s):
    """Whether figure `row` is visible in the document built for state s."""
    if row.shown_with is None:
        return True
    if row.shown_with == "page":
        return False
    return s[row.shown_with] not in (False, "none")


# The polite ARIA live region, empty: the page writes its text once a change is done, never during a drag (a
# live region must be in the page before its text changes for a screen reader to announce it).
LIVE_REGION = '<div class="live-region" role="status" aria-live="polite"></div>'
# Neither Bokeh's page template nor Panel's has a viewport tag: without it a phone lays the page out about
# 980 px wide and shrinks it, so no narrow-screen rule applies. The exported page and the served app add it,
# and the Hangul font (static/hangul.css), which only the document's head can declare.
VIEWPORT_META = '<meta name="viewport" content="width=device-width, initial-scale=1">'
VIEWPORT = f"{{% block postamble %}}{VIEWPORT_META}{bundle.fonts_head()}{{% endblock %}}"


class LessonModel(DataModel):
    """The whole lesson in the page, in one property, the page's own (syncable=False): the page writes it once
    per gesture and draws from it; a script may read it, or write it and be checked."""

    state = Any(help="The lesson's state: a dict with the short keys of app/fields.py")


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


# The names the team's testing contract promises to tests and tools (../shared/DESIGN.md, "Testing contract"):
# every document has a model with each name, or a model with it as a CSS class (the readouts). Every control
# of app/controls.py is named by its row; a contract control without a row would fail the tests.
CONTRACT = {
    "sources": ("logits", "probs", "neg_grad", "settings", "target", "heldout", "reliability", "vocab", "decoding",
                "attention", "router", "distill"),
    "controls": ("temperature", "true_class", "add_one", "reset", "add_class", "remove_class", "class_names",
                 "preset", "label_smoothing", "units", "copy_link", "lang", "calibration_T", "fit_T", "bins",
                 "top_k", "top_p", "min_p", "vocab_lang", "alibi_head", "router_k"),
    "readouts": ("readout-loss", "readout-entropy", "readout-floor", "readout-kl", "readout-perplexity",
                 "readout-gap", "readout-ece", "readout-mce", "readout-nll", "readout-accuracy"),
    "page": ("notice", "logit_figure", "prob_figure", "lesson", "wire"),
}
# What fires the callback, by widget kind (app/controls.py WIDGETS); a button fires its click event.
WIRED = {"log_slider": ("value", "value_throttled"), "slider": ("value", "value_throttled"), "number": ("value",),
         "select": ("value",),
         "radio": ("active",), "toggle": ("active",), "text": ("value",), "button": (), "menu": ("value",),
         "checks": ("active",), "paste": ("value",)}
MENUS = {"preset": PRESETS}  # a menu's choices: its action's arguments (static/controls.mjs has the same)
PASTE_EXAMPLE = "tensor([2.0, 1.0, 0.1])"  # what the paste box shows while empty: code, the same in every language


def js_number(x):
    """JavaScript's String(x) for the numbers a slider shows: 100.0 is "100", 0.0123 is "0.0123"."""
    return repr(x).removesuffix(".0")


def widest_value(c, f):
    """The characters of the longest value control c's slider can show ("T = 0.0123" is 10 for T in
    [0.01, 100]): the title keeps that room, so a slide never moves the title's line break (a line more is a
    12 ms relayout of the page in the middle of a drag, and the page below jumps)."""
    lo, hi = (math.log10(b) for b in f.bounds) if c.widget == "log_slider" else f.bounds
    steps = range(round((hi - lo) / 0.01) + 1)
    if c.widget == "log_slider":
        return max(len(f"{c.symbol} = {js_number(float(f'{10 ** (lo + 0.01 * k):.3g}'))}") for k in steps)
    return max(len(f"{lo + 0.01 * k:.2f}".removesuffix(".00")) for k in steps)


def widget(c, s, t, look):
    """The Bokeh model of control row c, showing state s in strings t (static/controls.mjs writes it later)."""
    f = BY_KEY.get(c.field)
    common = {"name": c.name, "width": c.width, "disabled": controls.locked(c, s),
              "visible": not controls.hidden(c, s), **look}
    if c.row == PATH_ROW:  # one line on a phone (static/layout.css)
        common["css_classes"] = [*look["css_classes"], "path-button"]
    if c.widget in ("button", "toggle", "radio"):
        common["align"] = "end"
    if c.widget in ("log_slider", "slider"):
        common["css_variables"] = {"--sx-value-ch": f"{widest_value(c, f)}ch"}
    if c.widget == "log_slider":
        # The track is log10 of the field; its label shows the field itself ("T = 0.501").
        return Slider(title=t[c.label], start=math.log10(f.bounds[0]), end=math.log10(f.bounds[1]), step=0.01,
                      value=math.log10(s[c.field]), **common,
                      format=CustomJSTickFormatter(args={"symbol": c.symbol}, code=bundle.read("log_slider.js")))
    if c.widget == "slider":
        return Slider(title=t[c.label], start=f.bounds[0], end=f.bounds[1], step=0.01, value=s[c.field], **common)
    if c.widget == "number":
        return TextInput(title=t[c.label], value=str(s[c.field]) if f.kind == "count" else f"{s[c.field]:g}", **common)
    if c.widget == "select" and f.kind == "index":
        return Select(title=t[c.label], value=str(s[c.field]), options=[(str(k), n) for k, n in enumerate(s["names"])],
                      **common)
    if c.widget == "select":
        return Select(title=t[c.label], value=s[c.field],
                      options=[(v, t[f"{c.label}_options"][v]) for v in f.choices], **common)
    if c.widget == "radio":
        return RadioButtonGroup(labels=[t[v] for v in f.choices], active=f.choices.index(s[c.field]), **common)
    if c.widget == "toggle":
        on = s[c.field] if f.kind == "flag" else s[c.field] == f.choices[1]
        return Toggle(label=t[c.label], active=on, **common)
    if c.widget == "text":
        return TextInput(title=t[c.label], value=", ".join(s[c.field]), **common)
    if c.widget == "button":
        return Button(label=t[c.label], button_type="primary" if c.primary else "default", **common)
    if c.widget == "checks":
        return CheckboxButtonGroup(labels=[t[f"{c.label}_options"][v] for v in f.choices],
                                   active=[f.choices.index(v) for v in s[c.field]], **common)
    if c.widget == "paste":
        return TextInput(title=t[c.label], value="", placeholder=PASTE_EXAMPLE, **common)
    if c.widget == "menu":
        return Select(title=t[c.label], value="", **common,
                      options=[("", t[f"{c.label}_none"])] + [(v, t[f"{c.label}_{v}"]) for v in MENUS[c.action]])
    raise ValueError(f"control {c.name!r} has an unknown widget kind {c.widget!r}")


def glyph(fig, model, source, level="glyph", **props):
    """A renderer in `fig` of `model(**props)`, drawn from `source`, with no colour but those in `props`:
    bokeh.plotting's glyph methods give each glyph colours of their own, which the look (LOOK) would set again."""
    return fig.add_glyph(source, model(**props), level=level)


def build(s, mode="file", app_path="", app_url=""):
    """Build the explainer for state `s`. `mode` is where it runs: "file" (an exported page, links in the
    hash), "served" (links in the query, at `app_path`; `app_url` its address) or "notebook" (no address)."""
    t = TEXT[s["lang"]]
    rules = rules_data()
    sheets = [InlineStyleSheet(css=bundle.read("explainer.css")), InlineStyleSheet(css=bundle.read("layout.css"))]
    stretch = {"sizing_mode": "stretch_width"}

    lesson = LessonModel(state=s, name="lesson")
    wire = WireModel(text=json.dumps(s, ensure_ascii=False), name="wire")
    sources = {name: ColumnDataSource({column: [] for column in columns}, name=name)
               for name, columns in {**SOURCES, **LAB_SOURCES, **CALIBRATION_SOURCES, **LM_SOURCES,
                                     **FUNCTION_SOURCES}.items()}
    heldout = calibration.data()
    sources["heldout"] = ColumnDataSource({"logits": heldout.logits.tolist(), "label": heldout.labels.tolist(),
                                           "split": heldout.split.tolist()}, name="heldout")
    sources["lexicon"] = ColumnDataSource({"lang": list(vocabulary.LANGS),
                                           "packed": [vocabulary.packed(lang) for lang in vocabulary.LANGS]},
                                          name="lexicon")

    def class_axis(axis):
        axis.ticker = FixedTicker()  # one per class: the page sets them
        # Plain text: a class name such as "$$x$$" is shown as typed, never typeset.
        axis.formatter = CustomJSTickFormatter(args={"names": s["names"]}, code="return names[tick] ?? ''")

    # Every figure from its row (FIGURES), with no tools but the logits' PointDrawTool: nothing pans or zooms an
    # axis under a stray drag, and a finger on the bar chart scrolls the page. Its key sits on a line of its own
    # under its title, so that a phone clips neither (both in the look's size, which the page makes smaller where a
    # frame is too narrow: static/draw.mjs fit_hints).
    figs, grids = {}, []
    for r in FIGURES:
        shared = isinstance(r.x_range, str)
        size = {k: v for k, v in (("width", r.width), ("max_width", r.max_width),
                                  ("min_border_right", r.min_border_right)) if v is not None}
        f = figure(name=f"{r.key}_figure", title=Title(), height=r.height, tools="", toolbar_location=None,
                   x_range=figs[r.x_range].x_range if shared else Range1d(*r.x_range), y_range=Range1d(*r.y_range),
                   x_axis_type=r.x_axis, y_axis_type=r.y_axis, min_border_left=60, css_classes=["fig", *r.classes],
                   stylesheets=sheets, visible=shown_at_start(r, s), **size, **stretch)
        f.add_layout(Title(text_font_style="normal"), "above")
        for xy in r.class_axes:
            class_axis(getattr(f, f"{xy}axis")[0])
        # The grid lines its row draws, in the look's colour; none other.
        for grid in f.grid:
            if "xy"[grid.dimension] in r.grid:
                grids.append(grid)
            else:
                grid.grid_line_color = None
        figs[r.key] = f
    fig_z, fig_p, fig_loss, fig_jac = figs["logit"], figs["prob"], figs["loss"], figs["jacobian"]
    fig_rel, fig_counts, fig_nll = figs["reliability"], figs["counts"], figs["nll"]
    fig_vocab, fig_att, fig_decay, fig_router, fig_distill = (figs[k] for k in ("vocab", "attention", "decay",
                                                                                 "router", "distill"))
    fig_fn = figs["function"]
    span = Span(location=0, dimension="width", line_dash="dashed")
    fig_z.add_layout(span)
    lse_band = glyph(fig_z, HStrip, y0="y0", y1="y1", source=sources["lse_marks"],
                     fill_alpha=0.18, line_color=None, level="underlay")
    lse_line = glyph(fig_z, HSpan, y="y", source=sources["lse_marks"], line_width=2,
                     line_dash="dashed", level="underlay")
    arrows = Arrow(source=sources["arrows"], x_start="x", y_start="y0", x_end="x", y_end="y1",
                   end=VeeHead(size="head"), level="overlay")
    fig_z.add_layout(arrows)
    # Where an arrow is cut, a slanted dash across it; where it is too short for a head, a dot.
    marks = glyph(fig_z, Scatter, x="x", y="mark_y", marker="mark", angle="mark_angle", source=sources["arrows"],
                  size="mark_size", line_width=3, fill_alpha="mark_alpha", line_alpha="mark_alpha", level="overlay")
    arrow_labels = LabelSet(source=sources["arrows"], x="x", y="y1", text="label", x_offset=VIEW["label_offset"],
                            y_offset="label_dy", text_baseline="middle", level="overlay")
    fig_z.add_layout(arrow_labels)
    index = CustomJSExpr(code="return Array.from({length: this.get_length() ?? 0}, (_, k) => k)")
    points = glyph(fig_z, Scatter, x=expr(index), y="z", source=sources["logits"], line_width=2, level="overlay")
    # The point a learner picks in the theme's colour, the others as they were (Bokeh's own fade them); the look
    # colours and the page sizes all three.
    points.selection_glyph = Scatter(x=expr(index), y="z", line_width=2)
    points.nonselection_glyph = Scatter(x=expr(index), y="z", line_width=2)
    point_labels = LabelSet(source=sources["point_labels"], x="x", y="z", text="text",
                            x_offset=-VIEW["point_label_dx"], y_offset="dy", text_alpha="alpha", text_align="right",
                            level="overlay")
    fig_z.add_layout(point_labels)
    draw = PointDrawTool(renderers=[points], add=False, drag=True)
    fig_z.add_tools(draw)
    fig_z.toolbar.active_tap = draw

    bar = {"x": "x", "top": "p", "width": VIEW["bar_width"], "source": sources["probs"]}
    bars = glyph(fig_p, VBar, **bar, line_color=None, level="overlay")
    outer = glyph(fig_p, VBar, **bar, fill_color=None, line_color="black", line_alpha="is_true",
                  level="overlay")
    inner = glyph(fig_p, VBar, **bar, fill_color=None, line_color="white",
                  line_alpha="is_true", level="overlay")
    targets = glyph(fig_p, Segment, x0="x0", x1="x1", y0="y", y1="y", source=sources["target"], level="overlay")
    bar_labels = LabelSet(source=sources["probs"], x="x", y="label_y", text="label", text_align="center",
                          y_offset=VIEW["bar_label_offset"], text_alpha="label_alpha", level="overlay")
    fig_p.add_layout(bar_labels)
    fig_p.yaxis.ticker = FixedTicker()  # a probability's, none past 1 whatever the end: the page sets them by height
    # A class's whole name and p under the pointer anywhere in its column: the axis may show its name shortened.
    fig_p.add_tools(HoverTool(renderers=[bars], mode="vline"))
    # The draws: each class's frequency, with its ±2σ whisker, over its bar.
    freq = glyph(fig_p, Scatter, x="x", y="freq", source=sources["samples"], marker="diamond", size=14, level="overlay")
    whiskers = Whisker(source=sources["samples"], base="x", lower="lower", upper="upper", level="overlay", line_width=2)
    fig_p.add_layout(whiskers)

    def heatmap(f, source, value, text_color):
        # Cell (i, j) in row i from the top, its colour and its text from the source; the pointer shows `value`.
        cells = glyph(f, Rect, x="j", y="i", width=0.96, height=0.96, source=source, fill_color="color",
                      line_color=None, level="overlay")
        text = glyph(f, Text, x="j", y="i", text="text", source=source, text_align="center", text_baseline="middle",
                     text_color=text_color, level="overlay")
        f.add_tools(HoverTool(renderers=[cells], tooltips=[("i, j", "@i, @j"), value]))
        return text

    # The loss after each step; the pointer shows the step and its loss. Its axes are the page's (static/frame.mjs
    # loss_window): ends that move only when the line crosses them.
    # On the overlay level, as the main figures' data: a step repaints the line, not the axes under it.
    loss_line = glyph(fig_loss, Line, x="step", y="y", source=sources["loss_history"], line_width=2, level="overlay")
    fig_loss.add_tools(HoverTool(renderers=[loss_line], mode="vline"))
    # The Jacobian: cell (j, i) is ∂p_i/∂z_j, row i at the top; the pointer shows its value.
    jacobian_text = heatmap(fig_jac, sources["jacobian"], ("∂p_i/∂z_j", "@value{0.0000}"), "#1d2733")
    fig_jac.xaxis.axis_label, fig_jac.yaxis.axis_label = "z_j", "p_i"  # row i is p_i, column j is z_j
    fig_loss.yaxis.ticker = BasicTicker(desired_num_ticks=4)
    # On the log scale the line is log10 L on a linear axis, each tick labelled with L itself (a LogScale cannot
    # be swapped in once drawn).
    # A tick is written as the short number it is: 0.41, never 0.41000000000000003.
    fig_loss.yaxis.formatter = CustomJSTickFormatter(
        args={"log": s["logloss"]},
        code="return String(log ? Number((10 ** tick).toPrecision(2)) : Number(tick.toPrecision(4)))")

    # The calibration view. Its axes' ends are the page's (static/calibration_view.mjs).
    diagonal = glyph(fig_rel, Line, source=ColumnDataSource({"x": [0, 1], "y": [0, 1]}), x="x", y="y",
                     line_dash="dashed", line_width=2)
    # A bin's bar is its accuracy, faded where it holds fewer than FEW_DIGITS digits (static/calibration_view.mjs);
    # the gap to its mean confidence is hatched: orange above a bar (confidence above accuracy, overconfident),
    # in the background's colour across a bar's top (accuracy above confidence), so it never reads as a bar.
    rel_bars = glyph(fig_rel, VBar, x="mid", width="width", top="accuracy", source=sources["reliability"],
                     fill_alpha="alpha", level="overlay")
    gaps = glyph(fig_rel, Quad, left="lower", right="upper", bottom="gap_bottom", top="gap_top",
                 source=sources["reliability"], fill_alpha="over_fill",
                 hatch_pattern="/", hatch_alpha="over", hatch_scale=8, line_alpha="over", line_width=1.5,
                 level="overlay")
    gaps_under = glyph(fig_rel, Quad, left="lower", right="upper", bottom="gap_bottom", top="gap_top",
                       source=sources["reliability"], fill_alpha=0, hatch_pattern="\\", hatch_alpha="under",
                       hatch_scale=8, hatch_weight=2, line_alpha="under", line_width=1.5, line_dash="dashed",
                       level="overlay")
    # The legend's swatches are glyphs of their own, each one row outside the axes (clipped; a legend draws no
    # glyph of a renderer with no rows): a glyph whose look varies by row shows its first row's in a legend.
    swatch = {"source": ColumnDataSource({"left": [-2], "right": [-1], "bottom": [0], "top": [1]}), "left": "left",
              "right": "right", "bottom": "bottom", "top": "top", "line_width": 1.5, "hatch_scale": 8}
    key_bars = glyph(fig_rel, Quad, **swatch)
    key_over = glyph(fig_rel, Quad, **swatch, fill_alpha=0.15, hatch_pattern="/")
    key_under = glyph(fig_rel, Quad, **swatch, hatch_pattern="\\", hatch_weight=2)
    rel_legend = Legend(items=[LegendItem(renderers=[key]) for key in (key_bars, key_over, key_under)],
                        location="top_left", background_fill_alpha=0.85, border_line_alpha=0,
                        glyph_height=18, glyph_width=24, padding=6, spacing=2, margin=6)
    fig_rel.add_layout(rel_legend)
    fig_rel.add_tools(HoverTool(renderers=[rel_bars], tooltips=[("n", "@count"), ("acc", "@accuracy{0.000}"),
                                                                ("conf", "@confidence{0.000}")]))
    # Counts on a log scale: one bin holds most digits, and a bin of 7 must still show (bars start at 0.5).
    count_bars = glyph(fig_counts, VBar, x="mid", width="width", top="count", bottom=0.5, source=sources["reliability"],
                       level="overlay")
    # Ticks at round temperatures: a log axis would label only 1 within the slider's 0.2 to 5.
    fig_nll.xaxis.ticker = FixedTicker(ticks=[0.2, 0.5, 1, 2, 5], minor_ticks=[0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 3, 4])
    fig_nll.xaxis.formatter = CustomJSTickFormatter(code="return String(tick)")
    nll_test = glyph(fig_nll, Line, x="T", y="test", source=sources["nll_curve"], line_width=2.5)
    nll_val = glyph(fig_nll, Line, x="T", y="val", source=sources["nll_curve"], line_width=2,
                    line_dash="dashed")
    now_span = Span(location=1.0, dimension="height", line_width=1.5)
    fig_nll.add_layout(now_span)
    nll_now = glyph(fig_nll, Scatter, x="T", y="nll", source=sources["nll_now"], size=11, line_width=2, level="overlay")
    fit_line = glyph(fig_nll, Line, x="T", y="nll", source=sources["fit_path"], line_width=1.5,
                     level="overlay")
    fit_dots = glyph(fig_nll, Scatter, x="T", y="nll", source=sources["fit_path"], size=9, level="overlay")
    fig_nll.add_tools(HoverTool(renderers=[nll_test, nll_val], mode="vline",
                                tooltips=[("T", "@T{0.000}"), ("test", "@test{0.000}"), ("val", "@val{0.000}")]))

    # The road to language models: the next word's rank against its p on log-log axes (a Zipf line at T = 1)
    # over the three softmaxes a model is made of beyond its last: attention, a router, distillation. Their
    # axes' ends are the page's (static/lm_view.mjs).
    vocab_line = glyph(fig_vocab, Line, x="rank", y="p", source=sources["vocab_curve"], line_width=2, level="overlay")
    vocab_kept = glyph(fig_vocab, Scatter, x="rank", y="p", source=sources["vocab_kept"], size=6, level="overlay")
    fig_vocab.add_tools(HoverTool(renderers=[vocab_line], mode="vline", tooltips=[("rank", "@rank"),
                                                                                  ("p", "@p{0.000e}")]))
    att_text = heatmap(fig_att, sources["attention"], ("a_ij", "@weight{0.0000}"), "ink")
    # ALiBi against distance: the last token's weight on the token d back over its weight on itself (bars), and the
    # factor e^(−m·d) its head's bias multiplies it by (line): on equal scores the bars stand on the line.
    decay_bars = glyph(fig_decay, VBar, x="d", top="ratio", width=VIEW["bar_width"], source=sources["alibi_decay"],
                       line_color=None)
    decay_line = glyph(fig_decay, Line, x="d", y="factor", source=sources["alibi_factor"], line_width=2.5)
    fig_decay.add_tools(HoverTool(renderers=[decay_bars], tooltips=[("d", "@d"), ("w / w₀", "@ratio{0.0000}")]))
    # No outline: a dropped expert's bar of height 0 drew its background-coloured outline across the axis.
    router_bars = glyph(fig_router, VBar, x="x", width=VIEW["bar_width"], top="weight", source=sources["router"],
                        line_color=None, level="overlay")
    router_text = glyph(fig_router, Text, x="x", y="weight", text="label", source=sources["router"],
                        text_align="center", text_baseline="bottom", y_offset=-VIEW["bar_label_offset"],
                        level="overlay")
    grad_line = glyph(fig_distill, Line, x="T", y="grad", source=sources["distill"], line_width=2)
    grad_T2_line = glyph(fig_distill, Line, x="T", y="grad_T2", source=sources["distill"], line_width=2.5)
    distill_span = Span(location=1.0, dimension="height", line_width=1.5, level="overlay")
    fig_distill.add_layout(distill_span)
    distill_now = glyph(fig_distill, Scatter, x="T", y="grad_T2", source=sources["distill_now"], size=11, line_width=2,
                        level="overlay")
    fig_distill.add_tools(HoverTool(renderers=[grad_T2_line], mode="vline",
                                    tooltips=[("T", "@T{0.000}"), ("‖∇‖", "@grad{0.000e}"),
                                              ("‖∇‖·T²", "@grad_T2{0.000}")]))

    # The figure of a function: its glyphs are clipped to the frame (an overlay is not), as a curve runs past the
    # axes' ends.
    fn_curves = glyph(fig_fn, MultiLine, xs="xs", ys="ys", source=sources["fn_curves"], line_width=2)
    fn_dashed = glyph(fig_fn, MultiLine, xs="xs", ys="ys", source=sources["fn_dashed"],
                      line_width=2, line_dash="dashed")
    fn_points = glyph(fig_fn, Scatter, x="x", y="y", source=sources["fn_points"], size=11, line_width=2)

    look = {"css_classes": ["control"], "stylesheets": sheets}
    controls = {c.name: widget(c, s, t, look) for c in CONTROLS}

    def div(key, html, role, **kw):
        return Div(text=html, css_classes=[f"readout-{key}", "readout", role], stylesheets=sheets, disable_math=True,
                   height=30, **stretch, **kw)

    # Empty until the page's first frame, which also shows the gap (with ε), the sigmoid (two classes) and the
    # sections a learner opened.
    shown = {"py", "loss", *(k for k, section in VIEW["section_of"].items() if section in s["open"])} - {"gap"}
    divs = {r.key: div(r.key, "", r.role, visible=r.key in shown) for r in READOUTS}
    notice = Div(text="", name="notice", css_classes=["notice"], stylesheets=sheets,
                 disable_math=True, **stretch)
    inputs = Div(text="", name="logit_inputs", css_classes=["inputs-box"], stylesheets=sheets,
                 disable_math=True, **stretch)
    live = Div(text=LIVE_REGION, name="live_region", css_classes=["a11y"], stylesheets=sheets,
               disable_math=True, height=1, **stretch)
    header = Div(text="", name="header", css_classes=["header"], stylesheets=sheets, disable_math=True, **stretch)
    # The instructor's link builder (static/teach.mjs), under the page's commands while it is open.
    teach = Div(text="", name="link_builder", css_classes=["teach-box"], stylesheets=sheets, disable_math=True,
                visible=s["teach"], **stretch)

    # The guided path (app/steps.py): the step's paragraph with its live numbers, then its task, which says when
    # it is done; both drawn by the page (static/tour.mjs), above the figures while the path is shown.
    tour_text = Div(text="", name="tour_text", css_classes=["tour-text", "tour-box"], stylesheets=sheets,
                    disable_math=True, visible=s["tour"], **stretch)
    tour_status = Div(text="", name="tour_status", css_classes=["tour-status", "tour-box"], stylesheets=sheets,
                      disable_math=True, visible=s["tour"], **stretch)

    wrap = {"css_classes": ["wrap"], "stylesheets": sheets, **stretch}
    sections_title = Div(text=t["sections_title"], name="sections_title", css_classes=["sections-title"],
                         stylesheets=sheets, disable_math=True)
    lab_title = Div(text=t["lab_title"], name="lab_title", css_classes=["sections-title"], stylesheets=sheets,
                    disable_math=True)
    titles = {2: [sections_title], 4: [lab_title]}
    shown_with = {int(r): flag for r, flag in VIEW["flag_rows"].items()}
    bands = {r: row(*titles.get(r, []), *(controls[c.name] for c in CONTROLS if c.row == r), **wrap,
                    visible=s[shown_with[r]] if r in shown_with else True)
             for r in sorted({c.row for c in CONTROLS})}
    def readouts(name, key=False):
        return column(*(divs[k] for k in column_of(name)),
                      css_classes=["readout-column", *(["key-readouts"] if key else [])], stylesheets=sheets, **stretch)

    # The diagram and its histogram in one column, the NLL curve over the readouts in another. Closed, the view's
    # figures stay out of the layout (a hidden figure is still built and laid out with every page): the page
    # puts them in when the view is first opened (static/calibration_view.mjs place_figures).
    calibration_left = column(fig_rel, fig_counts, css_classes=["fig-column", "narrow"], stylesheets=sheets, **stretch)
    calibration_right = column(*([fig_nll] if s["calib"] else []), *(divs[k] for k in column_of("calibration_side")),
                               css_classes=["fig-column"], stylesheets=sheets, **stretch)
    calibration_row = row(*([calibration_left] if s["calib"] else []), calibration_right, spacing=16, **wrap)

    # The road to language models the same way: the rank-probability plot beside its readouts, then attention,
    # the router and distillation in a row, each put in the layout when the view is first opened
    # (static/lm_view.mjs place_lm_figures).
    lm_right = column(*(divs[k] for k in column_of("lm_side")), css_classes=["fig-column"], stylesheets=sheets,
                      **stretch)
    lm_top = row(*([fig_vocab] if s["lm"] else []), lm_right, spacing=16, **wrap)
    lm_figures = row(fig_att, fig_decay, fig_router, fig_distill, spacing=16, **wrap)
    lm_below = row(readouts("lm_below"), **wrap)
    lm_bottom = column(*([lm_figures] if s["lm"] else []), lm_below, **stretch)

    # The figure of a function, or else the loss after each gradient step, sits beside the bars where three figures
    # fit in a row, else in a row of its own under p_y, the loss and T, which stay on the first screen
    # (static/draw.mjs place_beside moves them); the steps' controls are under T too, so a learner who plays sees
    # the points, the loss and the button together.
    figures_row = row(fig_z, fig_p, spacing=16, **wrap)
    function_row = row(fig_fn, fig_loss, spacing=16, **wrap)
    # The first screen: the guided path's step, the figures, then p_y and the loss beside each other; the
    # controls; then the sections a learner opens, the lab, and the page's own commands.
    layout = column(
        header,
        tour_text,
        tour_status,
        bands[PATH_ROW],
        figures_row,
        row(readouts("key", key=True), readouts("loss", key=True), spacing=16, **wrap),
        bands[0],
        bands[5],
        function_row,
        bands[1],
        inputs,
        notice,
        bands[2],
        row(readouts("sections"), readouts("info"), spacing=16, **wrap),
        # The lab: what a learner opens, then the step's update (its controls and loss are under T), draws, the
        # Jacobian, the naive softmax.
        bands[4],
        row(readouts("update"), **wrap),
        bands[6],
        row(readouts("race"), **wrap),
        row(fig_jac, readouts("chain"), spacing=16, **wrap),
        bands[7],
        row(readouts("naive"), **wrap),
        # The calibration view: its controls, the figures, the readouts with the fit and a few sentences.
        bands[9],
        calibration_row,
        row(readouts("calibration_below"), **wrap),
        # The road to language models: a real vocabulary's next word, then three more softmaxes, and their
        # readouts (the ALiBi identity, the router's two orders, distillation's T²) with a few sentences.
        bands[10],
        lm_top,
        bands[11],
        lm_bottom,
        bands[3],
        teach,
        live,
        name="explainer", css_classes=["explainer"], stylesheets=sheets, margin=(8, 16, 24, 16), max_width=1400,
        **stretch)

    main = {r.key: figs[r.key] for r in FIGURES if r.view == "lesson"}
    lab = {r.key: figs[r.key] for r in FIGURES if r.view != "lesson"}

    # One callback for every trigger: the module is compiled once and stored once in an exported page.
    callback = CustomJS(code=bundle.bundle(), args={
        "lesson": lesson, "wire": wire, "sources": sources, "controls": controls, "divs": divs, "notice": notice,
        "inputs": inputs, "live": live, "header": header, "teach": teach,
        "tour": {"text": tour_text, "status": tour_status},
        "steps": steps.table(), "sections_title": sections_title, "root": layout,
        "lab_title": lab_title, "flag_rows": {str(r): bands[r] for r in shown_with},
        "figs": main, "hints": {key: f.above[0] for key, f in main.items()},
        "lab_figs": lab, "lab_hints": {key: f.above[0] for key, f in lab.items()},
        "lab_axes": {f"{key}_{xy}": getattr(f, f"{xy}axis")[0] for key, f in lab.items() for xy in "xy"},
        "path": {"block": [tour_text, tour_status, bands[PATH_ROW]],
                 "above": {"figures": figures_row, "calibration": bands[9], "decoding": bands[10],
                           "attention": bands[11]}},
        "lm_layout": {"top": lm_top, "bottom": lm_bottom, "vocab": fig_vocab, "figures": lm_figures},
        "function_rows": {"beside": figures_row, "below": function_row},
        "fn": {"curves": fn_curves.glyph, "dashed": fn_dashed.glyph, "points": fn_points.glyph,
               "lse_band": lse_band.glyph, "lse_line": lse_line.glyph},
        "lm": {"decay_bars": decay_bars.glyph, "decay_line": decay_line.glyph, "line": vocab_line.glyph,
               "kept": vocab_kept.glyph, "router": router_bars.glyph,
               "router_text": router_text.glyph, "att_text": att_text.glyph, "grad": grad_line.glyph,
               "grad_T2": grad_T2_line.glyph, "span": distill_span, "now": distill_now.glyph},
        "calibration_layout": {"row": calibration_row, "left": calibration_left, "right": calibration_right,
                               "nll": fig_nll},
        "calibration": {"diagonal": diagonal.glyph, "bars": rel_bars.glyph, "gaps": gaps.glyph,
                        "gaps_under": gaps_under.glyph, "legend": rel_legend, "key_bars": key_bars.glyph,
                        "key_over": key_over.glyph, "key_under": key_under.glyph,
                        "counts": count_bars.glyph, "test": nll_test.glyph, "val": nll_val.glyph, "span": now_span,
                        "now": nll_now.glyph, "fit_line": fit_line.glyph, "fit_dots": fit_dots.glyph},
        "axes": {f"{key}_{xy}": getattr(f, f"{xy}axis")[0] for key, f in main.items() for xy in "xy"},
        "grids": grids,
        "glyphs": {"arrows": arrows, "heads": arrows.end, "marks": marks.glyph, "arrow_labels": arrow_labels,
                   "points": points.glyph, "selected": points.selection_glyph,
                   "unselected": points.nonselection_glyph, "bars": bars.glyph,
                   "outer": outer.glyph, "inner": inner.glyph, "targets": targets.glyph,
                   "point_labels": point_labels, "bar_labels": bar_labels, "span": span, "freq": freq.glyph,
                   "whiskers": whiskers, "loss_line": loss_line.glyph, "jacobian_text": jacobian_text.glyph},
        "hovers": {"loss": fig_loss.tools[-1], "probs": fig_p.tools[-1]},
        "strings": TEXT, "rules": rules, "control_rows": controls_table(), "view": VIEW, "themes": THEMES,
        "sizes": SIZES, "look": LOOK,
        "built_lang": s["lang"],
        "mode": mode, "app_path": app_path, "app_url": app_url})
    lesson.js_on_change("state", callback)
    wire.js_on_change("text", callback)
    sources["logits"].js_on_change("data", callback)
    for event in ("pan", "panend", "tap"):
        fig_z.js_on_event(event, callback)
    for f in main.values():
        f.js_on_change("inner_width", callback)
        f.js_on_change("inner_height", callback)
    for f in lab.values():
        f.js_on_change("inner_width", callback)
    for c in CONTROLS:
        if c.widget == "button":
            controls[c.name].js_on_event("button_click", callback)
        for prop in WIRED[c.widget]:
            controls[c.name].js_on_change(prop, callback)
    # Only the wire travels to Python: whatever else the page writes (a title in another language, a theme's
    # colours, a source's columns) stays in the page, so a gesture is one message.
    for model in layout.references():
        if model is not wire:
            model.syncable = False
    return LessonDocument(layout=layout, lesson=lesson, wire=wire, notice=notice, callback=callback,
                          controls=controls)


def control_names():
    """The controls' model names, in the page's order (tests and tools read them here, never from a copy)."""
    return tuple(c.name for c in CONTROLS)
