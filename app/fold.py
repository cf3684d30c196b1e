"""A learner's own row of logits made into a lesson: any number of values folded into 2 to 10 classes.

The explainer shows 2 to 10 classes (K_BOUNDS), each logit within ±LOGIT_LIMIT. A row of more than ten values
(a language model's vocabulary: GPT-2's has 50,257) keeps its nine largest and folds the others into one class,
"the rest", whose logit is the log-sum-exp of theirs:

    z_rest = LSE(z_folded) = ln Σ_{j folded} e^(z_j),   so   e^(z_rest) = Σ_{j folded} e^(z_j)

and softmax's denominator Σ_k e^(z_k) is unchanged: at T = 1 every kept class's probability and the rest's total
are those of the full row (at another T they are not: LSE(z/T) ≠ LSE(z)/T). The true class is always kept (the
eighth largest makes way for it when it is not among the nine).

Softmax is shift-invariant, so a row that does not fit ±LOGIT_LIMIT is shifted whole, its largest logit to 0,
as the explainer's "Subtract the largest logit" does; a row that fits keeps the numbers it was printed with. A
logit still below −LOGIT_LIMIT after the shift is raised to it, and the `Fold` says how many were: each had a
probability below e^−100 of the largest's, and stays below e^−100 ≈ 4·10^−44 of it.

Classes are named by their index in the row ("class 50256"), so a learner can look a token up, or by the names
given for the whole row; the rest by how many it holds ("rest (50248)": no comma, which separates names). The
names follow app/names.py's rules, so two given names that look alike are refused.
"""

from dataclasses import dataclass

import numpy as np

import core

from .fields import K_BOUNDS, LOGIT_LIMIT
from .names import clean_names
from .pasted import parse_logits
from .refusal import Refusal, TypeRefusal, shown
from .rules import integer
from .strings import LANGS, TEXT

KEPT = K_BOUNDS[1] - 1  # the largest values kept as classes of their own when a row is folded: 9, and the rest


@dataclass(frozen=True)
class Fold:
    """How a row of logits became a lesson's classes (`fold`).

    size: the values in the row; kept: the row's indices of the lesson's classes, in the lesson's order (the
    rest, last when there is one, is not among them); folded: how many values the rest holds (0: none, every
    value is a class); rest_p: their total probability at T = 1 (0.0 when none); shift: what was added to every
    logit (0.0 when the row fitted ±100); clamped: how many of the lesson's logits were raised to −100; logits,
    names and y: the lesson's.
    """
    size: int
    kept: tuple
    folded: int
    rest_p: float
    shift: float
    clamped: int
    logits: tuple
    names: tuple
    y: int

    def summary(self):
        """One line that says what the lesson holds of the row.

        >>> fold([2.0, 1.0, 0.1]).summary()
        'all 3 values of the row, as printed'
        """
        said = ([f"the {len(self.kept)} largest of {self.size:,} values; the other {self.folded:,} folded into "
                 f"the rest, which holds p = {self.rest_p:.4g} at T = 1"] if self.folded
                else [f"all {self.size:,} values of the row"])
        said.append(f"every logit shifted by {self.shift:+.6g}" if self.shift else "as printed")
        if self.clamped:
            said.append(f"{self.clamped} raised to −{LOGIT_LIMIT:g} (p below e^−100 of the largest)")
        return ", ".join(said)


def row_of(x):
    """A row of logits as a 1-D float64 array: from text (app/pasted.py), a PyTorch tensor (read through NumPy,
    no import of torch), anything NumPy reads (an array, a list, an object with `__array__`), with its leading
    axes of length 1 dropped (a batch of one row); a `Refusal` for a batch, a single number, fewer than two
    values, a value that is not finite or not a real number.

    >>> row_of([[2, 1, 0.1]])
    array([2. , 1. , 0.1])
    >>> row_of(np.zeros((4, 10)))
    Traceback (most recent call last):
    app.refusal.Refusal: logits must be one row, got a batch of 4 rows (shape (4, 10)): pass x[0], for instance
    """
    if isinstance(x, str):
        return np.asarray(parse_logits(x), dtype=np.float64)
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a PyTorch tensor: off the graph and the GPU first
        x = x.detach().cpu()
        if getattr(getattr(x, "dtype", None), "is_floating_point", False) and hasattr(x, "double"):
            x = x.double()  # bfloat16, which NumPy has no type for, and float16 alike
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:  # a ragged list, an object NumPy cannot read
        raise TypeRefusal("paste_format", f"logits must be a row of numbers, got {shown(x)} ({e})") from None
    if a.dtype.kind not in "iuf":
        raise TypeRefusal("paste_format", f"logits must be real numbers, got {shown(x)} of dtype {a.dtype}")
    if a.ndim == 0:
        raise Refusal("paste_count", f"logits must be a row, got a single number {shown(x)}")
    while a.ndim > 1 and a.shape[0] == 1:
        a = a[0]
    if a.ndim > 1:
        raise Refusal("paste_batch", f"logits must be one row, got a batch of {a.shape[0]} rows "
                                     f"(shape {a.shape}): pass x[0], for instance")
    a = a.astype(np.float64)
    if len(a) < K_BOUNDS[0]:
        raise Refusal("paste_count", f"a row of logits has at least {K_BOUNDS[0]} values, got {len(a)}")
    bad = np.flatnonzero(~np.isfinite(a))
    if len(bad):
        raise Refusal("paste_not_finite", f"logits must be finite: {len(bad):,} of {len(a):,} are nan or inf, the "
                                          f"first at index {bad[0]} ({a[bad[0]]})")
    return a


def fold(x, names=None, y=None, lang="en"):
    """Row `x` (anything `row_of` reads) as a lesson's classes, logits and true class: a `Fold`.

    `names`: one per value of the row (only the kept ones are checked); by default "class i", i the index in
    the row. `y`: the true class, an index in the row; by default the largest logit's (the first of equals).

    >>> f = fold(np.arange(12.0))
    >>> f.kept, f.folded, f.names[-1], f.logits[-1] == float(core.logsumexp([0.0, 1.0, 2.0]))
    ((11, 10, 9, 8, 7, 6, 5, 4, 3), 3, 'rest (3)', True)
    """
    z = row_of(x)
    n = len(z)
    if lang not in LANGS:
        raise Refusal("refused", f"lang must be one of {', '.join(LANGS)}, got {shown(lang)}")
    y = int(np.argmax(z)) if y is None else integer(y, (0, n - 1), "y (an index in the row)")
    if names is None:
        names = [TEXT[lang]["row_class"].format(i=i) for i in range(n)]
    elif isinstance(names, str) or not hasattr(names, "__len__") or not hasattr(names, "__getitem__"):
        raise TypeRefusal("name_type", f"names must be a list of text, one per value of the row, got {shown(names)}")
    elif len(names) != n:
        raise Refusal("class_count", f"names must be one per value of the row: {n:,} values, got {len(names):,} names")
    folding = n > K_BOUNDS[1]
    if not folding:
        kept = list(range(n))
    else:
        order = np.argsort(-z, kind="stable")  # the largest first, equals in the row's order
        kept = order[:KEPT].tolist()
        if y not in kept:
            kept[-1] = y
        folded = np.ones(n, dtype=bool)
        folded[kept] = False
    values = z[kept]
    rest_p = 0.0
    if folding:
        values = np.append(values, core.logsumexp(z[folded]))
        rest_p = float(core.softmax(values)[-1])
    shift = 0.0 if np.abs(values).max() <= LOGIT_LIMIT else -float(values.max())
    values = values + shift
    clamped = int(np.count_nonzero(values < -LOGIT_LIMIT))
    values = np.maximum(values, -LOGIT_LIMIT)
    given = [names[i] for i in kept]
    if folding:
        given.append(TEXT[lang]["row_rest"].format(n=n - len(kept)))
    return Fold(size=n, kept=tuple(kept), folded=n - len(kept), rest_p=rest_p, shift=shift, clamped=clamped,
                logits=tuple(values.tolist()), names=tuple(clean_names(given)), y=kept.index(y))
