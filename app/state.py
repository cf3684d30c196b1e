"""The lesson's state: what a learner can change, with every shown number derived from it by `core`.

No Panel import: the same object drives the served app, the exported file and a notebook.
"""

import math

import numpy as np
import param

import core

from .strings import default_class_names

LOGIT_LIMIT = 100.0
T_BOUNDS = (0.01, 100.0)
MAX_CLASSES = 10


class Logits(param.List):
    """A list of finite logits, one per class, each within ±limit (the axis a learner can reach)."""

    __slots__ = ["limit"]

    def __init__(self, default=None, *, limit=LOGIT_LIMIT, **params):
        self.limit = limit
        super().__init__(default=default, item_type=(int, float), **params)

    def _validate_value(self, value, allow_None):
        super()._validate_value(value, allow_None)
        if value is None:
            return
        for v in value:
            if isinstance(v, bool) or not math.isfinite(v) or abs(v) > self.limit:
                raise ValueError(f"{self.name}: every logit must be a finite number within ±{self.limit:g}, got {v!r}")


class Lesson(param.Parameterized):
    """One softmax / cross-entropy lesson: K logits, a temperature and a true class.

    Derived values (probabilities, loss, entropy, arrows) are methods, never stored, so they cannot go stale.

    >>> lesson = Lesson()
    >>> lesson.probabilities().round(3)
    array([0.659, 0.242, 0.099])
    >>> round(lesson.loss(), 3)
    0.417
    """

    class_names = param.List(
        default=None, item_type=str, bounds=(2, MAX_CLASSES),
        doc="Class names in class order, shown as text (never as HTML).")
    initial_logits = Logits(
        default=[2.0, 1.0, 0.1], bounds=(2, MAX_CLASSES),
        doc="Where the logits start and where 'back to the initial logits' returns them.")
    logits = Logits(
        default=None, bounds=(2, MAX_CLASSES),
        doc="z_k, the logit of each class; a learner drags them. Starts at initial_logits.")
    T = param.Number(
        default=1.0, bounds=T_BOUNDS,
        doc="Temperature: p = softmax(z / T). T → 0 approaches argmax, large T approaches uniform.")
    true_class = param.Integer(
        default=0, bounds=(0, MAX_CLASSES - 1),
        doc="Index of the true class y (the one-hot target of the cross-entropy).")
    lang = param.Selector(
        default="en", objects=["en", "ko"], doc="Language of every label on screen.")
    add_one = param.Event(doc="Add 1 to every logit: nothing derived changes (shift invariance).")
    reset = param.Event(doc="Put the logits back to initial_logits.")

    def __init__(self, **params):
        initial = params.get("initial_logits", self.param.initial_logits.default)
        if "class_names" not in params:
            params["class_names"] = default_class_names(params.get("lang", "en"), len(initial))
        params.setdefault("logits", list(initial))
        super().__init__(**params)
        self._check_shapes()
        # Before any other watcher (a view has precedence ≥ 1), so a view never sees a broken lesson.
        self.param.watch(self._refuse_mismatch, ["class_names", "initial_logits", "logits", "true_class"],
                         precedence=0)

    def _refuse_mismatch(self, *events):
        """Put back what a change broke, then say why: the lesson is never left inconsistent.

        >>> lesson = Lesson()
        >>> lesson.logits = [1.0, 2.0]
        Traceback (most recent call last):
        ValueError: 3 class names but 3 initial logits and 2 logits
        >>> lesson.logits
        [2.0, 1.0, 0.1]
        """
        try:
            self._check_shapes()
        except ValueError:
            with param.discard_events(self):
                self.param.update({e.name: e.old for e in events})
            raise

    def _check_shapes(self):
        K = len(self.class_names)
        if len(self.initial_logits) != K or len(self.logits) != K:
            raise ValueError(
                f"{K} class names but {len(self.initial_logits)} initial logits and {len(self.logits)} logits")
        if len(set(self.class_names)) != K:
            raise ValueError(f"class names must differ from each other, got {self.class_names}")
        if self.true_class >= K:
            raise ValueError(f"true_class {self.true_class} is out of range for {K} classes")

    @param.depends("add_one", watch=True)
    def _add_one(self):
        self.logits = [z + 1.0 for z in self.logits]

    @param.depends("reset", watch=True)
    def _reset(self):
        self.logits = list(self.initial_logits)

    @property
    def z(self):
        """The logits as a float64 array."""
        return np.asarray(self.logits, dtype=float)

    @param.depends("logits", "T")
    def probabilities(self):
        """p = softmax(z / T)."""
        return core.softmax(self.z, T=self.T)

    @param.depends("logits", "T")
    def log_probabilities(self):
        """log p = log_softmax(z / T), exact where p underflows to 0."""
        return core.log_softmax(self.z, T=self.T)

    @param.depends("logits", "T", "true_class")
    def neg_grad(self):
        """−∂L/∂z = (y − p)/T: what the arrows show (drawn at twice this length)."""
        return -core.grad_logits(self.z, self.true_class, T=self.T)

    @param.depends("logits", "T", "true_class")
    def loss(self):
        """L = −ln p_y in nats, computed from log-softmax so it stays exact when p_y underflows."""
        return float(core.cross_entropy(self.z, self.true_class, T=self.T))

    @param.depends("logits", "T")
    def entropy_bits(self):
        """H(p) in bits."""
        return float(core.entropy(self.probabilities(), base=2))

    @param.depends("logits", "T")
    def logsumexp(self):
        """LSE(z / T), with max(z/T) ≤ LSE ≤ max(z/T) + ln K."""
        return float(core.logsumexp(self.z / self.T))
