"""core/decoding.py, core/attention.py and core/distillation.py: the reference numbers of issue 19, Hugging Face's
published rules for top-k, top-p and min-p (ported below from transformers' `generation/logits_process.py`, ties
and boundaries included), properties on generated distributions, and finite differences for the gradient."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import rel_entr

import core
from core.attention import alibi_bias, alibi_slopes, attention_weights
from core.decoding import decode, min_p_mask, renormalise, router_weights, top_k_mask, top_p_mask
from core.distillation import distillation_grad, distillation_loss

P = [0.5, 0.3, 0.15, 0.03, 0.02]


def hf_top_p(p, top_p):
    """TopPLogitsWarper.__call__ on log p (softmax(log p) = p), min_tokens_to_keep = 1, with a stable sort."""
    order = np.argsort(p, kind="stable")
    cumulative = np.cumsum(np.asarray(p)[order])
    remove = cumulative <= (1 - top_p)
    remove[-1:] = False
    keep = np.ones(len(p), dtype=bool)
    keep[order[remove]] = False
    return keep


def hf_top_k(z, k):
    """TopKLogitsWarper.__call__: scores below the k-th largest are removed (k capped at the vocabulary)."""
    k = min(k, len(z))
    return np.asarray(z) >= np.sort(z)[::-1][k - 1]


def hf_min_p(p, min_p):
    """MinPLogitsWarper.__call__: probs below min_p times the largest are removed."""
    return np.asarray(p) >= min_p * np.max(p)


# Distributions with exact ties and exact boundaries: small integer weights over their sum.
weights = st.lists(st.integers(0, 6), min_size=2, max_size=12).filter(lambda w: sum(w) > 0)
distributions = weights.map(lambda w: np.array(w, dtype=float) / sum(w))
levels = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 0.95, 0.99, 1.0]) | st.floats(0, 1)


def test_top_p_of_the_issues_reference_keeps_three_renormalised():
    keep = top_p_mask(P, 0.95)
    assert keep.tolist() == [True, True, True, False, False]
    assert renormalise(P, keep).round(3).tolist() == [0.526, 0.316, 0.158, 0.0, 0.0]
    assert renormalise(P, keep)[:3] == pytest.approx([0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95], rel=1e-15)


def test_top_p_keeps_the_class_that_crosses_and_at_an_exact_tie_drops_the_lower_index_first():
    assert top_p_mask([0.5, 0.25, 0.125, 0.125], 0.75).tolist() == [True, True, False, False]  # reaches it exactly
    # 1 − 0.8 rounds to 0.19999999999999996, below the 0.2 that 0.15 + 0.03 + 0.02 sums to: kept, as in transformers.
    assert top_p_mask(P, 0.8).tolist() == [True, True, True, False, False]
    assert top_p_mask(P, 0.81).tolist() == [True, True, True, False, False]  # 0.15 crosses 0.81: kept
    assert top_p_mask([0.4, 0.3, 0.3], 0.7).tolist() == [True, False, True]
    assert top_p_mask([0.25] * 4, 0.5).tolist() == [False, False, True, True]
    assert top_p_mask(P, 0.0).tolist() == [True, False, False, False, False]  # the most probable always stays
    assert top_p_mask(P, 1.0).all()


@settings(max_examples=300, deadline=None)
@given(distributions, levels)
def test_top_p_equals_hugging_faces_rule_and_is_the_smallest_nucleus(p, top_p):
    keep = top_p_mask(p, top_p)
    assert keep.tolist() == hf_top_p(p, top_p).tolist()
    kept, dropped = p[keep], p[~keep]
    assert not dropped.size or kept.min() >= dropped.max()  # the most probable classes
    # Its mass reaches top_p (within the running sum's rounding), and without its least probable class it would
    # not, unless that class is the one kept whatever top_p.
    assert kept.sum() >= top_p - 1e-12 or keep.sum() == 1
    assert keep.sum() == 1 or np.sort(kept)[1:].sum() <= top_p + 1e-12


@settings(max_examples=200, deadline=None)
@given(distributions, st.integers(1, 14))
def test_top_k_keeps_the_k_largest_and_everything_tied_with_the_kth(p, k):
    z = np.log(np.where(p > 0, p, 1e-300))
    keep = top_k_mask(z, k)
    assert keep.tolist() == hf_top_k(z, k).tolist()
    assert keep.sum() >= min(k, len(p))
    assert router_weights(z, k) == pytest.approx(router_weights(z, k, "softmax_then_renormalise"), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(distributions, levels)
def test_min_p_equals_hugging_faces_rule(p, min_p):
    assert min_p_mask(p, min_p).tolist() == hf_min_p(p, min_p).tolist()
    assert min_p_mask(p, min_p)[np.argmax(p)]


def test_the_order_of_the_stages_matters_and_each_renormalises():
    z = [2.0, 1.6, 1.5, 1.4, -1.0]
    first_k = decode(z, 1.0, (("top_k", 2), ("top_p", 0.55)))
    first_p = decode(z, 1.0, (("top_p", 0.55), ("top_k", 2)))
    assert (first_k > 0).sum() == 1 and (first_p > 0).sum() == 2
    for p in (first_k, first_p):
        assert p.sum() == pytest.approx(1.0, abs=1e-15)
    p = core.softmax(np.array(z) / 0.5)
    assert decode(z, 0.5) == pytest.approx(p, rel=1e-15)
    with pytest.raises(ValueError, match="a stage must be"):
        decode(z, 1.0, (("top_q", 3),))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-30, 30), min_size=8, max_size=8), st.integers(1, 8))
def test_the_routers_two_published_orders_are_equal(scores, k):
    a = router_weights(scores, k, "mask_then_softmax")
    b = router_weights(scores, k, "softmax_then_renormalise")
    assert a == pytest.approx(b, rel=1e-12, abs=1e-300)
    assert a.sum() == pytest.approx(1.0, abs=1e-12)
    assert (a > 0).tolist() == top_k_mask(scores, k).tolist()  # the top k (and ties with the k-th), no other


def test_alibi_slopes_and_the_identity_weights_of_s_minus_md():
    assert alibi_slopes(8).tolist() == [2.0 ** -h for h in range(1, 9)]
    rng = np.random.default_rng(19)
    s = rng.normal(size=(6, 6))
    for m in alibi_slopes(8):
        biased = attention_weights(s, alibi_bias(6, m))
        plain = attention_weights(s, np.where(np.tril(np.ones((6, 6))) > 0, 0.0, -np.inf))
        distance = np.subtract.outer(np.arange(6), np.arange(6))
        factor = np.where(distance >= 0, np.exp(-m * np.maximum(distance, 0)), 0.0)
        want = plain * factor / (plain * factor).sum(axis=1, keepdims=True)
        assert biased == pytest.approx(want, rel=1e-12, abs=1e-300)
        # Adding one number to a whole row of scores changes no weight.
        assert attention_weights(s + rng.normal(size=(6, 1)), alibi_bias(6, m)) == pytest.approx(biased, rel=1e-12)
    with pytest.raises(ValueError, match="n × n"):
        attention_weights(np.zeros((2, 3)))


def test_distillation_reference_the_gradient_times_t_squared():
    v, z = np.array([3.0, 0.0, -1.0, -2.0]), np.array([0.375, 0.375, -0.125, -0.625])
    sizes = [float(np.linalg.norm(distillation_grad(v, z, T))) * T * T for T in (1, 2, 4, 8, 20, 100)]
    assert np.round(sizes, 3).tolist() == [0.697, 0.921, 0.914, 0.858, 0.812, 0.785]
    limit = np.linalg.norm(z - v) / 4
    assert round(limit, 3) == 0.778
    assert float(np.linalg.norm(distillation_grad(v, z, 1e4))) * 1e8 == pytest.approx(limit, rel=1e-3)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-8, 8), min_size=3, max_size=3), st.lists(st.floats(-8, 8), min_size=3, max_size=3),
       st.floats(0.2, 20))
def test_distillation_loss_is_scipys_kl_and_its_gradient_the_finite_difference(v, z, T):
    q, p = core.softmax(np.array(v) / T), core.softmax(np.array(z) / T)
    assert float(distillation_loss(v, z, T)) == pytest.approx(rel_entr(q, p).sum(), rel=1e-9, abs=1e-12)
    g, h = distillation_grad(v, z, T), 1e-6
    for k in range(3):
        up, down = np.array(z, dtype=float), np.array(z, dtype=float)
        up[k] += h
        down[k] -= h
        fd = (float(distillation_loss(v, up, T)) - float(distillation_loss(v, down, T))) / (2 * h)
        assert g[k] == pytest.approx(fd, abs=1e-7)
    assert math.isclose(float(distillation_loss(v, np.array(v) + 3.0, T)), 0.0, abs_tol=1e-12)


def test_bad_input_says_what_is_wrong():
    for call, says in ((lambda: top_k_mask([1.0, 2.0], 0), "k must be"), (lambda: top_p_mask(P, 1.5), "top_p"),
                       (lambda: min_p_mask([0.5, 1.5], 0.1), "probabilities"),
                       (lambda: renormalise(P, [False] * 5), "kept class"),
                       (lambda: router_weights([1.0, 2.0], 1, "sideways"), "order must be"),
                       (lambda: alibi_bias(3, -1.0), "slope m"),
                       (lambda: distillation_grad([1.0, 2.0], [1.0, 2.0, 3.0]), "one shape"),
                       (lambda: distillation_loss([1.0, 2.0], [1.0, 2.0], 0.0), "temperature")):
        with pytest.raises(ValueError, match=says):
            call()
