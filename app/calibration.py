"""Temperature scaling on a real classifier: the shipped held-out logits and what the calibration view shows.

The data (app/data/digits_logits.json, made by tests/reference/make_calibration_data.py) is a deliberately
overconfident logistic regression on the UCI handwritten digits: 500 validation and 1,097 test images. T is
fitted on the validation split; everything reported is on the test split. In a notebook:

>>> from app import calibration
>>> r = calibration.report(T=1.0)
>>> round(r.accuracy, 3), round(r.ece, 3), round(r.nll, 3)
(0.913, 0.056, 0.484)
>>> fitted = calibration.report(T=calibration.fitted().T)
>>> round(fitted.T, 2), round(fitted.accuracy, 3), round(fitted.ece, 3), round(fitted.nll, 3)
(2.36, 0.913, 0.02, 0.318)
"""

import json
from functools import cache
from importlib.resources import files
from typing import NamedTuple

import numpy as np

from core import calibration

from . import rules

BINS = (10, 15, 20)  # the reliability diagram's choices of M


class Heldout(NamedTuple):
    """The held-out images' logits (n × 10), labels and split ("val" or "test"), and what made them."""

    logits: np.ndarray
    labels: np.ndarray
    split: np.ndarray
    meta: dict


class Report(NamedTuple):
    """What the calibration view shows at temperature T with M bins, on the test split."""

    T: float
    bins: calibration.Bins
    ece: float
    mce: float
    nll: float
    accuracy: float


@cache
def data():
    """The shipped held-out data, read once."""
    doc = json.loads(files("app").joinpath("data/digits_logits.json").read_text(encoding="utf-8"))
    rows = doc.pop("rows")
    return Heldout(logits=np.array([r["z"] for r in rows], dtype=np.float64),
                   labels=np.array([r["label"] for r in rows], dtype=np.intp),
                   split=np.array([r["split"] for r in rows]), meta=doc)


def part(name):
    """The logits and labels of one split, "val" or "test"."""
    d = data()
    keep = d.split == rules.one_of(name, ("val", "test"), "split")
    return d.logits[keep], d.labels[keep]


def fitted():
    """Temperature scaling fitted on the validation split: the T and Newton's iterates from T = 1."""
    return calibration.fit_temperature(*part("val"))


def report(T=1.0, bins=15):
    """The test split's reliability bins, ECE, MCE, mean NLL (nats) and accuracy at temperature T (a number > 0,
    NumPy's too) with M = `bins` (10, 15 or 20: Python's int or NumPy's)."""
    T, bins = rules.number(T, "T"), rules.one_of(bins, BINS, "bins")
    z, y = part("test")
    confidence, correct = calibration.confidence_and_correct(z, y, T)
    b = calibration.reliability_bins(confidence, correct, bins)
    return Report(T=float(T), bins=b, ece=b.ece, mce=b.mce, nll=calibration.mean_nll(z, y, T),
                  accuracy=float(np.mean(correct)))
