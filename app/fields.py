"""The lesson described once, as data: one row per key of a lesson state.

What reads or writes a lesson derives from this table: `Lesson`'s parameters (app/state.py: bounds, defaults
and docs), the keys and limits the rules check (app/rules.py), the page's gatekeeper (static/lesson.mjs
`checked_state`, which receives the table as data), both link codecs (app/link.py and static/link.mjs) and the
tests' lessons (`default_state`). A row's kind says how its value is checked and how a link writes it:

- logits: 2 to 10 finite numbers within ±LOGIT_LIMIT ("2,1,0.1" in a link);
- names: 2 to 10 class names by the rules of app/names.py ("cat,dog,bird");
- real: a finite number within `bounds`, refused with the string-table key `refusal`;
- index: a class index, below the number of classes;
- count: a whole number within `bounds`, refused with `refusal` ("10000" in a link);
- choice: one of `choices`;
- flag: true or false ("1" or "0");
- keys: some of the row's `choices`, none twice, kept in their order ("T,y" in a link): the sections a
  learner opened, what an instructor's link locks or hides;
- notice: "" or a key of the string table (never in a link).

A link writes a field when `always`, or when it differs from its default (the initial logits: from z; the
names: from the language's default names).

A row's `cli` is its option of the export command (app/export.py builds it by the row's kind, app/cli.py's
usage line lists it), or None for a field no option sets.
"""

from dataclasses import asdict, dataclass

from .steps import STEPS
from .strings import LANGS, default_class_names

LOGIT_LIMIT = 100.0
K_BOUNDS = (2, 10)
# Where a lesson's logits start: the seed's cat, dog, bird first, then seven more with distinct values.
TEN = [2.0, 1.0, 0.1, -0.5, 0.8, -1.2, 0.3, -2.0, 1.4, -0.7]
SEED_MAX = 2**32 - 1  # the generator's seed is one 32-bit word (core/sampling.py)
# The readouts beyond p_y and the loss, in sections a learner opens: the table of classes (with the softmax of
# the true class), the information (entropy, floor, KL, perplexity, the information bar) and log-sum-exp (with
# the arrows' sum).
SECTIONS = ("table", "info", "lse")


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
    # Kept when a step of the guided path starts from a fresh lesson (app/tour.py `enter`): how the page looks
    # and where the path is, and what an instructor's link fixed, not the lesson itself.
    kept: bool = False


LESSON_FIELDS = (
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
    Field("learn", "show_steps", "flag", "Show the gradient steps: take one, or play them, and watch the loss.",
          default=False, link="learn", cli=Option("--learn", help="show the gradient steps and their loss")),
    Field("logloss", "log_loss", "flag", "Draw the loss after each step on a log scale (its creep toward 0 with a "
          "one-hot target is a straight line there).", default=False, link="logloss",
          cli=Option("--log-loss", help="the loss figure on a log scale")),
    Field("n", "num_samples", "count", "N: how many classes to draw by the Gumbel-max trick.", default=1000,
          bounds=(1, 100_000), refusal="n_range", link="n",
          cli=Option("--samples", help="N, the number of draws ({lo} to {hi})")),
    Field("seed", "seed", "count", "The seed of the draws' noise: the same seed draws the same noise, here and in "
          "the page.", default=0, bounds=(0, SEED_MAX), refusal="seed_range", link="seed",
          cli=Option("--seed", help="seed of the draws' noise ({lo} to {hi})")),
    Field("sample", "show_samples", "flag", "Show N draws: how often each class wins, on the bars.",
          default=False, link="sample", cli=Option("--sample", help="show N draws on the bars")),
    Field("jacobian", "show_jacobian", "flag", "Show the Jacobian ∂p/∂z as a heatmap.", default=False,
          link="jacobian", cli=Option("--jacobian", help="show the Jacobian ∂p/∂z")),
    Field("naive", "show_naive", "flag", "Show softmax computed three ways, naive exp/Σexp among them.",
          default=False, link="naive", cli=Option("--naive", help="show the naive softmax beside the stable ones")),
    Field("dtype", "naive_dtype", "choice", "The floating-point type of the three ways (float16 and float32 "
          "emulated exactly).", default="float64", choices=("float64", "float32", "float16"), link="dtype",
          cli=Option("--dtype", help="floating-point type of the naive softmax")),
    Field("calib", "show_calibration", "flag", "Show temperature scaling on a real classifier (app/calibration.py): "
          "its reliability diagram, ECE, MCE, NLL and accuracy on held-out digits.", default=False, link="calib",
          cli=Option("--calibration", help="show temperature scaling on the held-out digits")),
    Field("cT", "calibration_T", "real", "The digit classifier's temperature T in the calibration view (its own, "
          "not the lesson's T): every figure of the view is on the test split at this T.", default=1.0,
          bounds=(0.2, 5.0), refusal="cT_range", link="cT",
          cli=Option("--calibration-temperature", help="the classifier's temperature in the calibration view "
                     "({lo} to {hi})", example="2.36")),
    Field("bins", "calibration_bins", "choice", "M, the number of equal-width confidence bins of the reliability "
          "diagram, ECE and MCE.", default="15", choices=("10", "15", "20"), link="bins",
          cli=Option("--bins", help="confidence bins of the reliability diagram")),
    Field("lm", "show_language_model", "flag", "Show the road to language models (app/vocabulary.py): a real "
          "vocabulary's next word under top-k, top-p and min-p, attention with ALiBi, a router and distillation.",
          default=False, link="lm", cli=Option("--language-model", help="show the road to language models")),
    Field("vlang", "vocab_lang", "choice", "The vocabulary's language: wordfreq's 50,000 English words or 29,988 "
          "Korean morphemes (wordfreq splits Korean text into them), each one's logit ln(frequency).",
          default="en", choices=("en", "ko"), link="vlang",  # wordfreq's data (app/data): not every page language
          cli=Option("--vocabulary", help="the vocabulary's language")),
    Field("topk", "top_k", "count", "Top-k: keep the k most probable words (ties with the k-th stay); 0 keeps "
          "every word.", default=0, bounds=(0, 50_000), refusal="topk_range", link="topk",
          cli=Option("--top-k", help="top-k, the words kept ({lo} to {hi}; 0: off)", example="50")),
    Field("topp", "top_p", "real", "Top-p (nucleus): keep the most probable words until their mass passes p, by "
          "Hugging Face's rule; 1 keeps every word.", default=1.0, bounds=(0.0, 1.0), refusal="topp_range",
          link="topp", cli=Option("--top-p", help="top-p, the nucleus's mass ({lo} to {hi}; 1: off)", example="0.9")),
    Field("minp", "min_p", "real", "Min-p: keep the words with p ≥ min-p · max p; 0 keeps every word.",
          default=0.0, bounds=(0.0, 1.0), refusal="minp_range", link="minp",
          cli=Option("--min-p", help="min-p, relative to the top word ({lo} to {hi}; 0: off)", example="0.05")),
    Field("head", "alibi_head", "choice", "The ALiBi head h of 8 whose slope m_h = 2^(−8h/8) biases the attention "
          "weights; 0: no bias.", default="0", choices=tuple(str(h) for h in range(9)), link="head",
          cli=Option("--alibi-head", help="the ALiBi head, 1 to 8 (0: no bias)")),
    Field("rk", "router_k", "count", "The router's k: how many experts (the classes) each token is sent to.",
          default=2, bounds=(1, 10), refusal="rk_range", link="rk",
          cli=Option("--router-k", help="the experts a token goes to ({lo} to {hi})")),
    Field("fn", "function_figure", "choice", "A figure of a function beside the bars, with the lesson's point on it: "
          "the loss −ln p against p, p against its margin (the sigmoid), or each p and the entropy against T.",
          default="none", choices=("none", "nll", "sigmoid", "sweep"), link="fn",
          cli=Option("--function", help="a figure of a function beside the bars", example="nll")),
    Field("units", "units", "choice", "Unit of every information readout.", default="nats",
          choices=("nats", "bits"), link="units", kept=True,
          cli=Option("--units", help="unit of the information readouts")),
    Field("lang", "lang", "choice", "Language of every label on screen.", default="en", choices=LANGS, link="lang",
          always=True, kept=True, cli=Option("--lang", help="language of every label")),
    Field("theme", "theme", "choice", "Light or dark colours, auto: the reader's own (prefers-color-scheme), or "
          "projector: contrast for a washed-out projector (with lecture mode's sizes for the back row).",
          default="light", choices=("light", "dark", "auto", "projector"), link="theme", kept=True,
          cli=Option("--theme", help="colours; auto follows the reader's light or dark mode, projector is for a "
                                     "washed-out projector")),
    Field("lecture", "lecture", "flag", "Large type and thick lines for a projector.", default=False,
          link="lecture", kept=True, cli=Option("--lecture", help="large type and thick lines for a projector")),
    Field("open", "open_sections", "keys",
          "The sections of readouts a learner has opened (table, info, lse); the first screen shows p_y and the "
          "loss.", default=(), choices=SECTIONS, link="open",
          cli=Option("--open", help="sections open at the start: table, info, lse", example="table,info")),
    Field("step", "tour_step", "count", "The step of the guided path (app/tour.py) the page shows, from 1.",
          default=1, bounds=(1, len(STEPS)), refusal="step_range", link="step", kept=True,
          cli=Option("--step", help="the step of the guided path it opens at ({lo} to {hi})")),
    Field("tour", "show_tour", "flag", "Show the guided path above the figures (tour=0 in a link: free play).",
          default=True, link="tour", kept=True, cli=None),  # on by default: an option would only turn it off
    Field("teach", "show_instructor", "flag", "Show the instructor's section: a link builder for this lesson with "
          "locks, hidden controls, a step, a language and colours (hide=teach keeps it from learners).",
          default=False, link="teach", kept=True, cli=None),  # an instructor's tool: an export opens without it
)
# The link keys a link may lock or hide: every field a link writes but the initial logits, which move with the
# logits ("z" stands for every control that moves them: the points, their inputs, the buttons), and the locks
# themselves. Each has a control (tests/test_controls.py).
CONTROLLED = tuple(f.link for f in LESSON_FIELDS if f.link and f.key != "initial")
FIELDS = (
    *LESSON_FIELDS,
    Field("lock", "locked", "keys",
          "Link keys of the controls a learner cannot change (an instructor's question: lock=T,y); the notebook's "
          "own code still can.", default=(), choices=CONTROLLED, link="lock", kept=True,
          cli=Option("--lock", help="controls a learner cannot change, by link key, e.g. T,y", example="T,y")),
    Field("hide", "hidden", "keys",
          "Link keys of the controls not shown at all (hide=eps,names); hidden is locked too.", default=(),
          choices=CONTROLLED, link="hide", kept=True,
          cli=Option("--hide", help="controls not shown, by link key, e.g. eps,names", example="eps,names")),
    Field("xapi", "xapi_statements", "flag",
          "Post xAPI-shaped statements (a step of the guided path completed, a prediction answered) to the page "
          "that frames this one, for a course platform to store; never to the network.", default=False,
          link="xapi", kept=True, cli=Option("--xapi", help="post xAPI statements to the course page around it")),
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
    return {f.key: computed.get(f.key, default_of(f)) for f in FIELDS}


def default_of(f):
    """Field f's default as a state holds it: a list for a keys field (its row keeps a tuple)."""
    return list(f.default) if f.kind == "keys" else f.default


def is_default(f, s):
    """Whether state s holds field f's default, as a link sees it (so a link may leave it out)."""
    if f.key == "initial":
        return s["initial"] == s["z"]
    if f.key == "names":
        return s["names"] == default_class_names(s["lang"], len(s["names"]))
    return s[f.key] == default_of(f)


def table():
    """The rows as the page receives them (plain dicts)."""
    return [asdict(f) for f in FIELDS]
