"""The lesson's state: what a learner can change, with every shown number derived from it by `core`.

No Panel import: the same object drives the served app, the exported file and a notebook. It is the one
gatekeeper on the Python side: every value is checked (app/rules.py) before it is kept, and a change that
is refused leaves every parameter as it was, a batch `lesson.param.update(...)` included. One lock per lesson
makes every change, and every read of the whole state, happen at once for other threads (a served app runs
callbacks on several).
"""

import difflib
import math
import threading

import numpy as np
import param
from param.parameterized import Parameters, Undefined

import core

from . import actions, calibration, fields, refusal, rules, vocabulary
from .fields import K_BOUNDS
from .fold import fold
from .strings import LANGS, default_class_names

STEPS_MAX = 100_000  # the gradient steps of one `Lesson.step` call: a bound on how long it holds the lesson's lock

# The state's short keys (the links' keys) and the parameters they stand for: app/fields.py's table.
STATE_KEYS = {f.key: f.param for f in fields.FIELDS}
KEY_OF = {name: key for key, name in STATE_KEYS.items()}


class _Checked:
    """A value the rules have already cleaned, set as it is (a batch checks once, not twice)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Cleaned:
    """A parameter that keeps its value cleaned by the rules of its row of app/fields.py (stripped names,
    floats) and refuses what breaks them; param's own checks then run on the cleaned value. Each kind keeps
    its `row` in a slot of its own: param copies a parameter for each lesson by its slots."""

    __slots__ = ()

    def __init__(self, row, **params):
        self.row = row
        super().__init__(doc=row.doc, **params)

    def __set__(self, obj, val):
        super().__set__(obj, val.value if isinstance(val, _Checked) else rules.checked_field(self.row, val))


class Logits(_Cleaned, param.List):
    """Two to ten finite logits, each within ±100 (the axis a learner can reach)."""

    __slots__ = ["row"]

    def __init__(self, row, default):
        super().__init__(row, default=default, item_type=float, bounds=K_BOUNDS)


class ClassNames(_Cleaned, param.List):
    """Two to ten class names by the rules of app/names.py (stripped, no control or direction characters)."""

    __slots__ = ["row"]

    def __init__(self, row, default):
        super().__init__(row, default=default, item_type=str, bounds=K_BOUNDS)


class Real(_Cleaned, param.Number):
    """A finite real within the row's bounds: booleans, NaN and text are refused, not taken as numbers."""

    __slots__ = ["row"]

    def __init__(self, row):
        super().__init__(row, default=row.default, bounds=row.bounds)


class Count(_Cleaned, param.Integer):
    """A whole number within the row's bounds: booleans, floats and text are refused."""

    __slots__ = ["row"]

    def __init__(self, row):
        super().__init__(row, default=row.default, bounds=row.bounds)


class Notice(_Cleaned, param.String):
    """"" or a key of the string table, with a detail after a colon for the link notices."""

    __slots__ = ["row"]

    def __init__(self, row):
        super().__init__(row, default=row.default)


class ClassIndex(_Cleaned, param.Integer):
    """A class index: an integer (Python's or NumPy's, not a bool) from 0 to 9; the lesson checks it against
    its number of classes."""

    __slots__ = ["row"]

    def __init__(self, row):
        super().__init__(row, default=row.default, bounds=(0, K_BOUNDS[1] - 1))


class Choice(_Cleaned, param.Selector):
    """One of the row's choices, as text: a number is refused with the text to write ('8' for the ALiBi head)."""

    __slots__ = ["row"]

    def __init__(self, row):
        super().__init__(row, default=row.default, objects=list(row.choices))


class Keys(_Cleaned, param.ListSelector):
    """Link keys of the controls a learner has (app/fields.py CONTROLLED), none twice, in the table's order."""

    __slots__ = ["row"]

    def __init__(self, row):
        super().__init__(row, default=list(row.default), objects=list(row.choices))


class _AllOrNothing(Parameters):
    """`lesson.param`: a batch update checks the lesson it makes, whole, with the pure rules (each given value by
    `rules.checked_field`, then `rules.checked_counts`; param's own parameters on a scratch lesson) before any
    value is set; if setting still fails (a watcher refuses), every value is put back. All of it under the
    lesson's lock.

    >>> lesson = Lesson()
    >>> lesson.param.update(T=0.5, name=5)
    Traceback (most recent call last):
    ValueError: String parameter 'Lesson.name' only takes a string value, not value of <class 'int'>.
    >>> lesson.T
    1.0
    """

    def update(self_, arg=Undefined, /, **kwargs):
        values = {**(dict(arg) if arg is not Undefined else {}), **kwargs}
        lesson = self_.self
        if lesson is None:
            return super().update(values)
        with lesson._lesson_lock:
            unknown = next((name for name in values if name not in self_), None)
            if unknown is not None:
                raise ValueError(f"{refusal.shown(unknown)} is not a parameter of {type(lesson).__name__}"
                                 f"{_nearest(unknown)}")
            ours = {KEY_OF[name]: value for name, value in values.items() if name in KEY_OF}
            # The given values cleaned; the rest already are: then the classes counted together.
            checked = rules.checked_counts({**lesson.state(), **{key: rules.checked_field(fields.BY_KEY[key], value)
                                                                 for key, value in ours.items()}})
            theirs = {name: value for name, value in values.items() if name not in KEY_OF}
            if theirs:
                # param has no public check of a value that leaves the object as it was: a scratch lesson
                # takes them first, its watchers silent, so a refusal comes before the lesson is touched.
                scratch = type(lesson)()
                with param.discard_events(scratch):
                    for name, value in theirs.items():
                        setattr(scratch, name, value)
            return self_.set_checked({**theirs, **{STATE_KEYS[k]: checked[k] for k in ours}})

    def set_checked(self_, values):
        """Set values already checked in one batch with param's public update, not cleaned again; put every one
        back, silently, if a watcher refuses."""
        lesson = self_.self
        with lesson._lesson_lock:
            old = {name: getattr(lesson, name) for name in values}
            try:
                return super().update(self_._as_checked(values))
            except BaseException:
                with param.discard_events(lesson):
                    super().update(self_._as_checked(old))
                raise

    def _as_checked(self_, values):
        """Clean values wrapped for the lesson's own parameters, which then set them as they are."""
        return {name: _Checked(v) if isinstance(self_[name], _Cleaned) else v for name, v in values.items()}


class _AllOrNothingNamespace:
    """The `param` namespace of `Lesson`: its instances hand out `_AllOrNothing`."""

    def __get__(self, obj, objtype):
        return _AllOrNothing(objtype, self=obj)


def _nearest(name):
    """"; did you mean learning_rate?" for a name that is a field's link key ("lr") or close to a parameter's
    name, else ""."""
    if not isinstance(name, str) or len(name) > 40:
        return ""
    near = STATE_KEYS.get(name) or next(iter(difflib.get_close_matches(name, list(Lesson.param), n=1)), None)
    return f"; did you mean {near}?" if near else ""


def lesson_parameter(f):
    """The `Lesson` parameter of a row of app/fields.py: its kind's type, with the row's default, bounds and doc."""
    start = fields.default_state()
    if f.kind == "logits":
        return Logits(f, start[f.key])
    if f.kind == "names":
        return ClassNames(f, start[f.key])
    if f.kind == "real":
        return Real(f)
    if f.kind == "index":
        return ClassIndex(f)
    if f.kind == "count":
        return Count(f)
    if f.kind == "choice":
        return Choice(f)
    if f.kind == "flag":
        return param.Boolean(default=f.default, doc=f.doc)
    if f.kind == "notice":
        return Notice(f)
    if f.kind == "keys":
        return Keys(f)
    raise ValueError(f"app/fields.py: field {f.key!r} has an unknown kind {f.kind!r}")


# The lesson's parameters, one per row of the table, on a base class so that Lesson's methods can name them.
# Named "Lesson" as param's own messages name a parameter by its class ("Lesson.units").
_LessonFields = param.parameterized_class("Lesson", {f.param: lesson_parameter(f) for f in fields.FIELDS})
_LessonFields.__module__, _LessonFields.__qualname__ = __name__, "_LessonFields"


class Lesson(_LessonFields):
    """One softmax / cross-entropy lesson: K named classes, their logits, a temperature, a true class and ε.

    Derived values (probabilities, loss, arrows, information) are methods, never stored, so they cannot go
    stale. The events do what the page's buttons do, limits included (app/actions.py).

    >>> lesson = Lesson()
    >>> lesson.probabilities().round(3)
    array([0.659, 0.242, 0.099])
    >>> round(lesson.loss(), 3)
    0.417
    >>> lesson.param.trigger("add_one"); lesson.logits
    [3.0, 2.0, 1.1]
    """

    add_one = param.Event(doc="Add 1 to every logit: nothing derived changes (shift invariance).")
    subtract_max = param.Event(doc="Subtract the largest logit from every logit: nothing derived changes, and "
                               "e^(z/T) can no longer overflow.")
    reset = param.Event(doc="Put the logits back to initial_logits.")
    add_class = param.Event(doc="Add a class at the end (at most ten).")
    remove_class = param.Event(doc="Remove the last class (at least two remain).")

    def __init__(self, **params):
        # Re-entrant: a watcher that runs inside a change (and the events' actions) changes the lesson again.
        self._lesson_lock = threading.RLock()
        unknown = next((k for k in params if k not in type(self).param), None)
        if unknown is not None:  # a TypeError, as for any function, before anything is looked at
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {refusal.shown(unknown)}"
                            f"{_nearest(unknown)}")
        lang = params.get("lang", "en")
        if not isinstance(lang, str) or lang not in LANGS:
            raise refusal.Refusal("refused", f"lang must be one of {', '.join(LANGS)}, got {refusal.shown(lang)}")
        given = next((params[k] for k in ("logits", "initial_logits", "class_names") if k in params), None)
        sized = isinstance(given, list | tuple) or isinstance(given, np.ndarray) and given.ndim == 1
        K = len(given) if sized and K_BOUNDS[0] <= len(given) <= K_BOUNDS[1] else 3
        params.setdefault("initial_logits", params.get("logits", actions.default_logits(K)))
        params.setdefault("logits", params["initial_logits"])
        params.setdefault("class_names", default_class_names(lang, K))
        super().__init__(**params)
        rules.checked_counts(self.state())
        # Before any view's watcher (precedence ≥ 1), so a view never sees a broken lesson.
        self.param.watch(self._keep_whole, ["class_names", "initial_logits", "logits", "true_class", "lang"],
                         precedence=0)
        self.param.watch(self._act, ["add_one", "subtract_max", "reset", "add_class", "remove_class"])

    @classmethod
    def from_logits(cls, x, names=None, T=1.0, y=None, **params):
        """A lesson on a row of logits of one's own: a PyTorch tensor, a NumPy row, a list, or the text PyTorch or
        NumPy printed (app/pasted.py), at temperature T. A row of more than ten values keeps its nine largest
        and folds the others into "the rest" (app/fold.py); `fold` then says how.

        `names`: one per value of the row (default "class i", i its index in the row); `y`: the true class, an
        index in the row (default the largest logit's); other parameters as for `Lesson()`.

        >>> lesson = Lesson.from_logits(np.arange(12.0))
        >>> lesson.class_names[:2], lesson.class_names[-1], lesson.fold.folded, f"{lesson.fold.rest_p:.3g}"
        (['class 11', 'class 10'], 'rest (3)', 3, '0.000117')
        """
        row = fold(x, names, y, params.get("lang", "en"))
        lesson = cls(logits=list(row.logits), class_names=list(row.names), true_class=row.y, T=T, **params)
        lesson._fold = row
        return lesson

    @property
    def fold(self):
        """How `from_logits` made this lesson's classes from a row (app/fold.py `Fold`: the row's indices kept,
        how many values the rest holds and their probability at T = 1); None for a lesson made otherwise. It
        describes the initial logits, whatever the learner does with them since."""
        return self.__dict__.get("_fold")

    def __setattr__(self, name, value):
        """Every assignment under the lesson's lock, with the watchers it runs: a reader sees it all or none.

        A public name that is not a parameter is an AttributeError: `lesson.lr = 0.5` would keep a value nothing
        reads (the learning rate is `learning_rate`; "lr" is its link key), `lesson.loss = 0` would hide the
        method. Private names are param's machinery's and the lesson's own.

        >>> Lesson().lr = 0.5
        Traceback (most recent call last):
        AttributeError: Lesson has no parameter 'lr'; did you mean learning_rate?
        """
        if not name.startswith("_") and name not in type(self).param:
            cls = type(self).__name__
            if hasattr(type(self), name):
                raise AttributeError(f"{cls}.{name} is not a parameter: it cannot be set")
            raise AttributeError(f"{cls} has no parameter {refusal.shown(name)}{_nearest(name)}")
        lock = self.__dict__.get("_lesson_lock")
        if lock is None:
            return super().__setattr__(name, value)
        with lock:
            return super().__setattr__(name, value)

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_lesson_lock", None)  # a lock cannot be pickled or copied: a copy gets its own
        return state

    def __setstate__(self, state):
        self.__dict__["_lesson_lock"] = threading.RLock()
        super().__setstate__(state)

    def _keep_whole(self, *events):
        """Put back what a single assignment broke, then say why; a new language renames default names.

        >>> lesson = Lesson()
        >>> lesson.logits = [1.0, 2.0]
        Traceback (most recent call last):
        app.refusal.Refusal: 3 class names but 3 initial logits and 2 logits (change them together: param.update)
        >>> lesson.logits
        [2.0, 1.0, 0.1]
        """
        try:
            rules.checked_counts(self.state())
        except ValueError:
            with param.discard_events(self):
                self.param.update({e.name: e.old for e in events})
            raise
        lang = next((e for e in events if e.name == "lang"), None)
        if lang is not None and "class_names" not in {e.name for e in events}:
            renamed = actions.set_lang({"names": self.class_names, "lang": lang.old}, lang.new)["names"]
            if renamed != self.class_names:
                self.class_names = renamed

    def state(self):
        """The lesson as the page holds it: a dict with the short keys that links use, read whole (never half
        of another thread's change, such as three names with four logits)."""
        with self._lesson_lock:
            return {key: getattr(self, name) for key, name in STATE_KEYS.items()}

    def set_state(self, s):
        """Take a whole state (from the page) at once, or refuse it and keep everything as it was."""
        checked = rules.checked_state(s)
        with self._lesson_lock:
            self.param.set_checked({STATE_KEYS[k]: v for k, v in checked.items()
                                    if v != getattr(self, STATE_KEYS[k])})

    def _act(self, *events):
        """An event runs the action of app/actions.py with its name, as the page's button of that name does."""
        for event in events:
            self.set_state(getattr(actions, event.name)(self.state()))

    def load_preset(self, name):
        """Load a scenario: 'seed', 'two' (the sigmoid), 'ten' or 'uniform' (a model that knows nothing)."""
        self.set_state(actions.preset(self.state(), rules.one_of(name, actions.PRESETS, "the scenario")))

    @property
    def z(self):
        """The logits as a float64 array."""
        return np.asarray(self.logits, dtype=float)

    def numbers(self):
        """Everything the page shows about this lesson's maths (`_lesson_numbers`, the one function).

        From one whole state (`state()` reads it under the lock), so every derived method is consistent; the
        maths itself runs outside the lock, and other threads' changes need not wait for it."""
        return _lesson_numbers(self.state())

    @param.depends("logits", "T")
    def probabilities(self):
        """p = softmax(z / T)."""
        return np.asarray(self.numbers()["p"])

    @param.depends("logits", "T")
    def log_probabilities(self):
        """log p = log_softmax(z / T), exact where p underflows to 0."""
        return np.asarray(self.numbers()["log_p"])

    @param.depends("class_names", "true_class", "label_smoothing")
    def target(self):
        """y' = (1 − ε)·onehot(y) + ε/K, the smoothed target."""
        return np.asarray(self.numbers()["target"])

    @param.depends("logits", "T", "true_class", "label_smoothing")
    def neg_grad(self):
        """−∂L/∂z = (y' − p)/T: what the arrows show (drawn at twice this length)."""
        return np.asarray(self.numbers()["g"])

    @param.depends("logits", "T", "true_class", "label_smoothing")
    def loss(self):
        """L = H(y', p) in nats (−ln p_y when ε = 0), from log-softmax: exact where p_y underflows."""
        return self.numbers()["loss"]

    @param.depends("class_names", "label_smoothing")
    def floor(self):
        """H(y'), the lowest loss label smoothing allows, in nats (0 when ε = 0)."""
        return self.numbers()["floor"]

    @param.depends("logits", "T", "true_class", "label_smoothing")
    def kl(self):
        """KL(y'‖p) = L − H(y'), in nats: how far the loss is above its floor."""
        return self.numbers()["kl"]

    @param.depends("logits", "T")
    def entropy(self):
        """H(p), in nats."""
        return self.numbers()["entropy"]

    @param.depends("logits", "T")
    def logsumexp(self):
        """LSE(z / T), with max(z/T) ≤ LSE ≤ max(z/T) + ln K."""
        return self.numbers()["lse"]

    @param.depends("logits", "T")
    def jacobian(self):
        """J = ∂p/∂z = (diag(p) − ppᵀ)/T, K × K, rows summing to 0 (why adding 1 to every logit changes no p)."""
        return core.softmax_jacobian(self.z, T=self.T)

    def sample(self, n, seed=0):
        """How often each class wins among n draws by the Gumbel-max trick, with the page's generator and seed
        (core/sampling.py): argmax_k(z_k/T + g_k), class k with probability p_k. Counts, in class order."""
        n = rules.integer(n, (1, core.sampling.SAMPLES_MAX), "n")
        seed = rules.integer(seed, (0, core.sampling.SEED_MAX), "seed")
        s = self.state()
        z = np.asarray(s["z"], dtype=float)
        return core.gumbel_max_counts(z, core.gumbel_noise(n, len(z), seed), T=s["T"])

    def calibration(self):
        """The calibration view's figures at the lesson's calibration_T and bins: the test split's reliability
        bins, ECE, MCE, mean NLL (nats) and accuracy (app/calibration.py `report`, what the page shows).

        >>> r = Lesson(calibration_T=2.36).calibration()
        >>> round(r.ece, 4), round(r.accuracy, 3), round(r.nll, 3)
        (0.0202, 0.913, 0.318)
        """
        return calibration.report(self.calibration_T, int(self.calibration_bins))

    def next_word(self):
        """The road to language models' next word at the lesson's T, vocabulary and filters: the kept words in
        rank order and their renormalised p (app/vocabulary.py `next_word`, what the page's `vocab` source holds).

        >>> words, p = Lesson(top_k=3).next_word()
        >>> words, p.round(3).tolist()
        (['the', 'to', 'and'], [0.505, 0.253, 0.242])
        """
        return vocabulary.next_word(self.vocab_lang, self.T, self.top_k, self.top_p, self.min_p)

    def step(self, n=1):
        """n steps of gradient descent on the logits, z ← z − η·(p − y′)/T with the lesson's learning rate η,
        set as one change; it stops before a step would take a logit past ±100 (the notice says so). The
        losses after each step taken, as a list.

        >>> lesson = Lesson(learning_rate=1.0)
        >>> [round(v, 4) for v in lesson.step(2)], [round(v, 3) for v in lesson.logits]
        ([0.2636, 0.1907], [2.573, 0.6, -0.073])
        """
        n = rules.integer(n, (1, STEPS_MAX), "n")
        with self._lesson_lock:
            s, losses = self.state(), []
            for _ in range(n):
                s = actions.step(s)  # the page's step button runs its twin
                if s["notice"]:
                    break
                losses.append(float(core.cross_entropy(s["z"], s["y"], T=s["T"], label_smoothing=s["eps"])))
            self.set_state(s)
        return losses

    # Last in the class body: from here on the name `param` is this namespace, not the module.
    param = _AllOrNothingNamespace()


def _lesson_numbers(s):
    """The lesson's maths for state `s`, computed by `core`, as plain floats and lists (what the page shows;
    static/frame.mjs `lesson_numbers` computes the same in the browser, tests/js/lessons.test.mjs compares them)."""
    z, T, y, eps = np.asarray(s["z"], dtype=float), s["T"], s["y"], s["eps"]
    K = len(z)
    log_p = core.log_softmax(z, T=T)
    target = core.smoothed_target(y, K, eps)
    g = -core.grad_logits(z, y, T=T, label_smoothing=eps)
    # KL(y'‖p) from log p, not p: it stays finite where p underflows to 0 but log p does not. Both sums run
    # left to right, as the browser's do (Python 3.12's sum() would compensate).
    kl = g_sum = 0.0
    for t, lp in zip(target.tolist(), log_p.tolist(), strict=True):
        if t > 0:
            kl += t * (math.log(t) - lp)
    for v in g.tolist():
        g_sum += v
    others = [v for k, v in enumerate(s["z"]) if k != y]
    return {
        "p": core.softmax(z, T=T).tolist(),
        "log_p": log_p.tolist(),
        "target": target.tolist(),
        "g": g.tolist(),
        # Σ(y′ − p)/T is 0 in exact arithmetic; what remains is rounding in the last bits of the p_k, which a
        # learner would misread as a real imbalance of the arrows.
        "g_sum": 0.0 if abs(g_sum) < 1e-9 else g_sum,
        "loss": float(core.cross_entropy(z, y, T=T, label_smoothing=eps)),
        "floor": core.label_smoothing_floor(K, eps),
        "kl": max(kl, 0.0),
        "entropy": float(core.entropy(core.softmax(z, T=T))),
        "lse": float(core.logsumexp(z / T)),
        "ln_k": core.uniform_loss(K),
        "gap_best": T * core.label_smoothing_optimal_gap(K, eps),
        "gap_now": s["z"][y] - max(others),
    }
