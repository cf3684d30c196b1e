"""The lesson described once, as data: one row per key of a lesson state.

What reads or writes a lesson derives from this table: `Lesson`'s parameters (app/state.py: bounds, defaults
and docs), the keys and limits the rules check (app/rules.py), the page's gatekeeper (static/lesson.mjs
`checked_state`, which receives the table as data), both link codecs (app/link.py and static/link.mjs) and the
tests' lessons (`default_state`). A row's kind says how its value is checked and how a link writes it:

- logits: 2 to 10 finite numbers within ±LOGIT_LIMIT ("2,1,0.1" in a link);
- names: 2 to 10 class names by the rules of app/rules.py ("cat,dog,bird");
- real: a finite number within `bounds`, refused with the string-table key `refusal`;
- index: a class index, below the number of classes;
- choice: one of `choices`;
- flag: true or false ("1" or "0");
- notice: "" or a key of the string table (never in a link).

A link writes a field when `always`, or when it differs from its default (the initial logits: from z; the
names: from the language's default names).

A row's `cli` is its option of the export command (app/export.py builds it by the row's kind, app/cli.py's
usage line lists it), or None for a field no option sets.
"""

from dataclasses import asdict, dataclass

from .strings import LANGS, default_class_names

LOGIT_LIMIT = 100.0
K_BOUNDS = (2, 10)
# Where a lesson's logits start: the seed's cat, dog, bird first, then seven more with distinct values.
TEN = [2.0, 1.0, 0.1, -0.5, 0.8, -1.2, 0.3, -2.0, 1.4, -0.7]


@dataclass(frozen=True)
class Option:
    """A field's option of the export command (`python -m app.export`, `softmax-explainer export`)."""

    name: str  # "--temperature"; its value is checked by the field's kind, as a link's is
    short: str | None = None  # an alias, "-T"
    help: str = ""  # its line in --help ({lo} and {hi}: the row's bounds, or the number of classes); "": the doc
    example: str | None = None  # the value app/cli.py's usage line shows; None: the field's default


@dataclass(frozen=True)
class Field:
    """One key of a lesson state; see the module's doc for the kinds."""

    key: str
    param: str
    kind: str
    doc: str
    default: object = None
    bounds: tuple | None = None
    choices: tuple | None = None
    refusal: str | None = None
    link: str | None = None
    always: bool = False
    cli: Option | None = None


FIELDS = (
    # No option: --logits sets where the logits start (the row below), and they start there.
    Field("z", "logits", "logits", "z_k, the logit of each class; a learner drags them.", link="z", always=True,
          cli=None),
    Field("initial", "initial_logits", "logits",
          "Where the logits start, and where 'back to the initial logits' returns.", link="z0",
          cli=Option("--logits", help="starting logits, e.g. 2,1,0.1 or -2,1,0 ({lo} to {hi})")),
    Field("names", "class_names", "names",
          "Class names in class order, shown as text (never as HTML); by default the language's own.", link="names",
          cli=Option("--classes", help="class names, e.g. cat,dog,bird (default: the language's)")),
    Field("T", "T", "real", "Temperature: p = softmax(z / T). T → 0 approaches argmax, large T approaches uniform.",
          default=1.0, bounds=(0.01, 100.0), refusal="T_range", link="T", always=True,
          cli=Option("--temperature", "-T", help="temperature T ({lo} to {hi})")),
    Field("y", "true_class", "index", "Index of the true class y (the target of the cross-entropy).", default=0,
          link="y", always=True, cli=Option("--true-class", help="the true class: its name or its index (default 0)")),
    Field("eps", "label_smoothing", "real", "ε: the target becomes y' = (1 − ε)·onehot(y) + ε/K.", default=0.0,
          bounds=(0.0, 0.5), refusal="eps_range", link="eps",
          cli=Option("--label-smoothing", help="ε, from {lo} to {hi}", example="0.1")),
    Field("lr", "learning_rate", "real", "η: the step of a gradient step on the logits, z ← z − η·∂L/∂z.",
          default=0.1, bounds=(0.001, 100.0), refusal="lr_range", link="lr",
          cli=Option("--learning-rate", help="learning rate η ({lo} to {hi})")),
    Field("units", "units", "choice", "Unit of every information readout.", default="nats",
          choices=("nats", "bits"), link="units", cli=Option("--units", help="unit of the information readouts")),
    Field("lang", "lang", "choice", "Language of every label on screen.", default="en", choices=LANGS, link="lang",
          always=True, cli=Option("--lang", help="language of every label")),
    Field("theme", "theme", "choice", "Light or dark colours.", default="light", choices=("light", "dark"),
          link="theme", cli=Option("--theme", help="colours")),
    Field("lecture", "lecture", "flag", "Large type and thick lines for a projector.", default=False,
          link="lecture", cli=Option("--lecture", help="large type and thick lines for a projector")),
    Field("notice", "notice", "notice",
          "Why the last change was refused, as a key of the string table ('' when all is well).", default="",
          cli=None),  # the page's own: an option has nothing to refuse it for
)
BY_KEY = {f.key: f for f in FIELDS}
STATE_KEYS = [f.key for f in FIELDS]


def default_logits(K):
    """The starting logits for K classes: the first K of TEN (the seed's 2, 1, 0.1 for K = 3)."""
    return TEN[:K]


def default_state(lang="en", K=3):
    """The lesson a link without values opens, for K classes in `lang`.

    >>> default_state()["z"], default_state("ko", 2)["names"]
    ([2.0, 1.0, 0.1], ['고양이', '개'])
    """
    z = default_logits(K)
    computed = {"z": z, "initial": list(z), "names": default_class_names(lang, K), "lang": lang}
    return {f.key: computed.get(f.key, f.default) for f in FIELDS}


def is_default(f, s):
    """Whether state s holds field f's default, as a link sees it (so a link may leave it out)."""
    if f.key == "initial":
        return s["initial"] == s["z"]
    if f.key == "names":
        return s["names"] == default_class_names(s["lang"], len(s["names"]))
    return s[f.key] == f.default


def table():
    """The rows as the page receives them (plain dicts)."""
    return [asdict(f) for f in FIELDS]
