"""The page's controls described once, as data: one row per control, in the page's order.

The document builds every widget from these rows (app/document.py `widget`), the page reads and writes them by
their widget kind (static/controls.mjs, which receives the rows), and the tests walk them all. A row says:

- name: the model's name (the testing contract: tools find a control by it);
- widget: what it looks like and how it reads and writes its field (WIDGETS);
- label: the string-table key of its title or its label;
- field: the state key the control shows and sets, if any;
- action: what a button or a menu does, or how a field control's value becomes the next state (a page action
  of static/controls.mjs `ACTIONS`: "add_one" → static/actions.mjs `add_one`; "rename" takes the typed text);
- writes: the link keys an action changes: the control is locked when a link locks or hides any of them, or
  its own field (a link's `lock` and `hide`, app/fields.py); it is hidden when its own field is hidden;
- row: which row of controls it sits in (0 and 1 under the figures, 2 above the sections of readouts; then
  the lab: 4 what a learner opens, 5 the gradient steps, 6 the draws, 7 the naive softmax, each shown with
  its part; 9 the calibration view's; 10 and 11 the road to language models' (decoding; attention and the
  router); 3 the page's commands, at the end; 8 the guided path's, above the
  figures); width in px;
- symbol: what a log slider's label calls its value ("T = 0.501"); primary: a button drawn as the main one.

The twin of `locked` and `hidden` is static/controls.mjs `control_off`.
"""

from dataclasses import asdict, dataclass

from .tour import RESTART_WRITES

# widget: (Bokeh model, what a learner does with it)
WIDGETS = {
    "log_slider": "a Slider over log10 of a real field: slide it, or press the arrow keys",
    "slider": "a Slider over a real field",
    "number": "a TextInput of a real field: type a value (a decimal comma is refused with a notice)",
    "select": "a Select of an index field (the classes) or a choice field (its choices' labels)",
    "radio": "a RadioButtonGroup of a choice field, one button per choice",
    "toggle": "a Toggle of a flag field, or of a choice field: on is its second choice (theme=auto shows as the "
              "theme it resolves to)",
    "text": "a TextInput whose text becomes the field through its action",
    "button": "a Button that runs its action",
    "menu": "a Select of the action's arguments; choosing one runs the action and the menu goes back to none",
    "paste": "a TextInput whose text (pasted, then Enter) is the action's argument; emptied when the action is done, "
             "kept to be mended when it is refused",
    "checks": "a CheckboxButtonGroup of a keys field, one button per choice, pressed when the state holds it",
}


@dataclass(frozen=True)
class Control:
    """One control of the page; see the module's doc."""

    name: str
    widget: str
    label: str
    field: str | None = None
    action: str | None = None
    writes: tuple = ()
    row: int = 0
    width: int = 150
    symbol: str | None = None
    primary: bool = False


CONTROLS = (
    Control("temperature", "log_slider", "temperature", field="T", width=330, symbol="T"),
    Control("true_class", "select", "true_class", field="y", width=170),
    Control("add_one", "button", "add_one", action="add_one", writes=("z",), width=190, primary=True),
    Control("subtract_max", "button", "subtract_max", action="subtract_max", writes=("z",), width=230),
    Control("reset", "button", "reset", action="reset", writes=("z",), width=210),
    Control("label_smoothing", "slider", "label_smoothing", field="eps", row=1, width=240),
    Control("units", "radio", "units", field="units", row=1),
    Control("preset", "menu", "preset", action="preset", writes=("z", "names", "T", "y", "eps"), row=1, width=240),
    # A row of one's own logits, as PyTorch, NumPy or a list prints it (static/pasted.mjs), folded into at most
    # ten classes (static/fold.mjs): the logits, the initial logits, the names and the true class in one gesture.
    Control("paste_logits", "paste", "paste_logits", action="paste", writes=("z", "names", "y"), row=1, width=300),
    Control("add_class", "button", "add_class", action="add_class", writes=("z", "names"), row=1),
    Control("remove_class", "button", "remove_class", action="remove_class", writes=("z", "names", "y"), row=1,
            width=190),
    # The lab: what a learner opens (row 4), and each part's own controls in a row that shows with it (VIEW
    # "flag_rows"). Play keeps stepping once per frame: a page command, as the state holds no "playing".
    Control("learn", "toggle", "learn", field="learn", row=4, width=170),
    Control("sample", "toggle", "sample", field="sample", row=4, width=170),
    Control("jacobian", "toggle", "jacobian", field="jacobian", row=4, width=170),
    Control("naive", "toggle", "naive", field="naive", row=4, width=210),
    Control("calibration", "toggle", "calibration", field="calib", row=4, width=230),
    Control("step", "button", "step", action="step", writes=("z",), row=5, width=130, primary=True),
    Control("play", "button", "play", action="play", writes=("z",), row=5, width=110),
    # Its track marks η = 4T², below which a step never raises the loss (static/draw.mjs draw_lab_figures).
    Control("learning_rate", "log_slider", "learning_rate", field="lr", row=5, width=360, symbol="η"),
    Control("log_loss", "toggle", "log_loss", field="logloss", row=5, width=150),
    Control("num_samples", "number", "num_samples", field="n", row=6, width=130),
    Control("seed", "number", "seed", field="seed", row=6, width=130),
    Control("naive_dtype", "radio", "naive_dtype", field="dtype", row=7, width=260),
    # Fitting T is Newton's method on the validation split (static/calibration.mjs fit_temperature), a page
    # command: it sets the view's T and keeps the iterates to draw on the NLL curve.
    # Its value is T itself (the testing contract), on a linear track: from overconfident to underconfident.
    Control("calibration_T", "slider", "calibration_T", field="cT", row=9, width=300),
    Control("fit_T", "button", "fit_T", action="fit_T", writes=("cT",), row=9, width=200, primary=True),
    Control("bins", "select", "bins", field="bins", row=9, width=120),
    Control("language_model", "toggle", "language_model", field="lm", row=4, width=250),
    Control("vocab_lang", "select", "vocab_lang", field="vlang", row=10, width=190),
    # The three filters in Hugging Face's order (temperature, top-k, top-p, min-p), each renormalising.
    Control("top_k", "number", "top_k", field="topk", row=10, width=130),
    Control("top_p", "slider", "top_p", field="topp", row=10, width=220),
    Control("min_p", "slider", "min_p", field="minp", row=10, width=220),
    Control("alibi_head", "select", "alibi_head", field="head", row=11, width=170),
    Control("router_k", "number", "router_k", field="rk", row=11, width=130),
    Control("sections", "checks", "sections", field="open", row=2, width=340),
    Control("function", "select", "function", field="fn", row=2, width=260),
    Control("class_names", "text", "class_names_box", field="names", action="rename", row=3, width=320),
    Control("tour", "toggle", "tour", field="tour", row=3, width=150),
    Control("lang", "select", "lang", field="lang", action="set_lang", row=3),
    Control("theme", "toggle", "theme", field="theme", row=3, width=140),
    Control("lecture", "toggle", "lecture", field="lecture", row=3, width=140),
    Control("copy_link", "button", "copy_link", action="copy_link", row=3, width=130),
    # Every field back to where the page opened, but those a link locks or hides and the reader's own
    # (language, theme, lecture mode, open sections): never locked itself.
    Control("reset_all", "button", "reset_all", action="reset_all", row=3, width=170),
    Control("download_png", "button", "download_png", action="download_png", row=3, width=190),
    Control("download_svg", "button", "download_svg", action="download_svg", row=3, width=190),
    Control("teach", "toggle", "teach", field="teach", row=3, width=130),
    # The guided path (app/steps.py), its row above the figures while it is shown. Next and Back enter a step
    # (app/tour.py `enter`), which never changes what a link locks; "Start again" enters it again from its
    # initial logits (app/tour.py `restart`), which may write every key but the reader's own: a lock of any of
    # them makes it inert.
    Control("tour_back", "button", "tour_back", action="tour_back", writes=("step",), row=8, width=100),
    Control("tour_setup", "button", "tour_setup", action="tour_setup", writes=RESTART_WRITES, row=8, width=190),
    Control("tour_next", "button", "tour_next", action="tour_next", writes=("step",), row=8, width=100,
            primary=True),
)

BY_NAME = {c.name: c for c in CONTROLS}


def locked(c, s):
    """Whether control c is inert in lesson state s: a link locks or hides its field or a key its action writes.

    >>> locked(BY_NAME["add_one"], {"lock": ["z"], "hide": []}), locked(BY_NAME["add_one"], {"lock": ["T"], "hide": []})
    (True, False)
    """
    return any(key in s["lock"] or key in s["hide"] for key in (c.field, *c.writes) if key)


def hidden(c, s):
    """Whether control c is left out of lesson state s's page: a link hides its field."""
    return c.field is not None and c.field in s["hide"]


def table():
    """The rows as the page receives them (plain dicts)."""
    return [asdict(c) for c in CONTROLS]
