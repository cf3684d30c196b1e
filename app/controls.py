"""The page's controls described once, as data: one row per control, in the page's order.

The document builds every widget from these rows (app/document.py `widget`), the page reads and writes them by
their widget kind (static/controls.mjs, which receives the rows), and the tests walk them all. A row says:

- name: the model's name (the testing contract: tools find a control by it);
- widget: what it looks like and how it reads and writes its field (WIDGETS);
- label: the string-table key of its title or its label;
- field: the state key the control shows and sets, if any;
- action: what a button or a menu does, or how a field control's value becomes the next state (a page action
  of static/controls.mjs `ACTIONS`: "add_one" → static/actions.mjs `add_one`; "rename" takes the typed text);
- row: which row of controls it sits in (0 and 1 above the readouts, 2 under them); width in px;
- symbol: what a log slider's label calls its value ("T = 0.50"); primary: a button drawn as the main one.
"""

from dataclasses import asdict, dataclass

# widget: (Bokeh model, what a learner does with it)
WIDGETS = {
    "log_slider": "a Slider over log10 of a real field: slide it, or press the arrow keys",
    "slider": "a Slider over a real field",
    "number": "a Spinner of a real field: type a value, or step it by its lower bound with the arrow keys",
    "select": "a Select of an index field (the classes) or a choice field (its choices' labels)",
    "radio": "a RadioButtonGroup of a choice field, one button per choice",
    "toggle": "a Toggle of a flag field, or of a choice field with two choices (on is the second)",
    "text": "a TextInput whose text becomes the field through its action",
    "button": "a Button that runs its action",
    "menu": "a Select of the action's arguments; choosing one runs the action and the menu goes back to none",
}


@dataclass(frozen=True)
class Control:
    """One control of the page; see the module's doc."""

    name: str
    widget: str
    label: str
    field: str | None = None
    action: str | None = None
    row: int = 0
    width: int = 150
    symbol: str | None = None
    primary: bool = False


CONTROLS = (
    Control("temperature", "log_slider", "temperature", field="T", width=300, symbol="T"),
    Control("true_class", "select", "true_class", field="y", width=170),
    Control("add_one", "button", "add_one", action="add_one", width=190, primary=True),
    Control("reset", "button", "reset", action="reset", width=210),
    Control("label_smoothing", "slider", "label_smoothing", field="eps", row=1, width=240),
    Control("learning_rate", "number", "learning_rate", field="lr", row=1),
    Control("units", "radio", "units", field="units", row=1),
    Control("preset", "menu", "preset", action="preset", row=1, width=240),
    Control("add_class", "button", "add_class", action="add_class", row=1),
    Control("remove_class", "button", "remove_class", action="remove_class", row=1, width=190),
    Control("class_names", "text", "class_names_box", field="names", action="rename", row=2, width=320),
    Control("lang", "select", "lang", field="lang", action="set_lang", row=2),
    Control("theme", "toggle", "theme", field="theme", row=2, width=140),
    Control("lecture", "toggle", "lecture", field="lecture", row=2, width=140),
    Control("copy_link", "button", "copy_link", action="copy_link", row=2, width=130),
    Control("download_png", "button", "download_png", action="download_png", row=2, width=190),
)


def table():
    """The rows as the page receives them (plain dicts)."""
    return [asdict(c) for c in CONTROLS]
