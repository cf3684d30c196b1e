"""`core` is total on finite input: a finite answer, an inf the docs describe, or a clear ValueError.

Hypothesis drives every public function far beyond the app's range (logits to ±1e308, T from 1e-300 to
1e300, weights and target masses to 1e308) with warnings turned into errors: no NaN, no NumPy warning.
The one documented NaN (PyTorch's 'mean' over zero counted weight) is kept out by construction.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import core

# Not ResourceWarning: a socket another test in this worker left open may be collected during these.
pytestmark = pytest.mark.filterwarnings("error", "ignore::ResourceWarning")
SETTINGS = settings(max_examples=300, deadline=None)

finite = st.floats(-1e308, 1e308, allow_nan=False, allow_infinity=False, allow_subnormal=True)
finite32 = st.floats(allow_nan=False, allow_infinity=False, width=32)
temperatures = st.floats(1e-300, 1e300)
masses = st.floats(0.0, 1e308)
fractions = st.floats(0.0, 1.0)
shapes = hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=6)


@st.composite
def lessons(draw, dtype=np.float64):
    z = draw(hnp.arrays(dtype, shapes, elements=finite if dtype == np.float64 else finite32))
    K = z.shape[-1]
    return {
        "z": z,
        "T": draw(temperatures),
        "index": draw(hnp.arrays(np.int64, z.shape[:-1], elements=st.integers(0, K - 1))),
        "masses": draw(hnp.arrays(np.float64, z.shape, elements=masses)),
        "weight": draw(st.none() | hnp.arrays(np.float64, (K,), elements=st.floats(1e-300, 1e308))),
        "eps": draw(fractions),
    }


def no_nan(*values):
    for v in values:
        assert not np.isnan(np.asarray(v, dtype=float)).any(), v


def usable(w):
    """Weights core computes with; others must be refused clearly (core/cross_entropy.py `_weights`)."""
    if w is None or not w.any():
        return True
    try:
        core.cross_entropy(np.zeros(len(w)), 0, weight=w)
    except ValueError as e:
        assert "span too many orders of magnitude" in str(e)
        return False
    return True


def check(lesson):
    z, T, eps = lesson["z"], lesson["T"], lesson["eps"]
    w = lesson["weight"] if usable(lesson["weight"]) else None
    p = core.softmax(z, T=T)
    assert ((p >= 0) & (p <= 1)).all()
    np.testing.assert_allclose(p.sum(axis=-1, dtype=np.float64), 1.0, rtol=1e-6 if z.dtype == np.float32 else 1e-12)
    no_nan(p, core.log_softmax(z, T=T), core.logsumexp(z), core.softmax_jacobian(z, T=T))
    for target in (lesson["index"], lesson["masses"]):
        for reduction in ("mean", "sum", "none"):
            loss = core.cross_entropy(z, target, T=T, weight=w, reduction=reduction, label_smoothing=eps)
            no_nan(loss)
            assert (np.asarray(loss) >= 0).all()
        no_nan(core.grad_logits(z, target, T=T, weight=w, label_smoothing=eps))
    loss = core.cross_entropy(z, lesson["index"], T=T, label_smoothing=eps)
    no_nan(core.perplexity(loss), core.nats_to_bits(loss), core.bits_to_nats(loss))
    q = core.softmax(z[..., ::-1], T=T)
    no_nan(core.entropy(p), core.entropy(p, base=2), core.kl_divergence(p, q), core.kl_divergence(q, p, base=2))
    K = z.shape[-1]
    no_nan(core.smoothed_target(lesson["index"], K, eps), core.label_smoothing_floor(K, eps),
           core.label_smoothing_optimal_gap(K, eps), core.uniform_loss(K))


@SETTINGS
@given(lessons())
def test_float64_input_gives_no_nan_and_no_warning(lesson):
    check(lesson)


@SETTINGS
@given(lessons(np.float32))
def test_float32_input_gives_no_nan_and_no_warning(lesson):
    check(lesson)


@SETTINGS
@given(st.integers(1, 10**15), fractions)
def test_smoothing_floor_and_gap_for_any_vocabulary(K, eps):
    floor, gap = core.label_smoothing_floor(K, eps), core.label_smoothing_optimal_gap(K, eps)
    assert 0 <= floor <= np.log(K) * (1 + 1e-12) and gap >= 0
