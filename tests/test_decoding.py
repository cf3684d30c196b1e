"""core/decoding.py, core/attention.py and core/distillation.py: the reference numbers of issue 19, Hugging Face's
published rules for top-k, top-p and min-p (ported below from transformers' `generation/logits_process.py`, ties
and boundaries included), the whole pipeline, the routers of Mixtral and GPT-OSS and ALiBi's slopes ported line by
line from their sources (named at each port), properties on generated distributions, and finite differences for
the gradient. tests/test_decoding_live.py runs the same comparisons against transformers and torch themselves
where they are installed."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
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
@given(st.lists(st.floats(-30, 30) | st.sampled_from([0.0, 1.0, 2.0]), min_size=8, max_size=8), st.integers(1, 8))
def test_the_routers_two_published_orders_are_equal(scores, k):
    a = router_weights(scores, k, "mask_then_softmax")
    b = router_weights(scores, k, "softmax_then_renormalise")
    assert a == pytest.approx(b, rel=1e-12, abs=1e-300)
    assert a.sum() == pytest.approx(1.0, abs=1e-12)
    # Exactly the k largest, a tie at the k-th going to the lower index: the first k of a stable descending sort.
    assert np.flatnonzero(a > 0).tolist() == sorted(np.argsort(-np.array(scores), kind="stable")[:k].tolist())
    assert a == pytest.approx(gpt_oss_router(scores, k), rel=1e-12, abs=1e-300)
    # Mixtral ranks the probabilities, which round equal where scores differ in their last bits (−2e-263 and 0):
    # the same experts wherever the k-th probability is not tied with the next.
    p = np.sort(core.softmax(np.array(scores)))[::-1]
    if k == len(scores) or p[k - 1] > p[k]:
        assert b == pytest.approx(mixtral_router(scores, k), rel=1e-12, abs=1e-300)


def test_the_router_ran_every_expert_tied_with_the_kth():
    # Issue 36: top-k decoding keeps every class tied with the k-th, and the router used its mask, so five experts
    # ran where k = 2. Mixtral and GPT-OSS always run exactly k (torch.topk); core breaks the tie by the lower index.
    scores = [1.0, 2.0, 2.0, 2.0, 0.0, 2.0, -1.0, 2.0]
    for order in ("mask_then_softmax", "softmax_then_renormalise"):
        assert router_weights(scores, 2, order).tolist() == [0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0]
        assert (router_weights(scores, 4, order) > 0).tolist() == [False, True, True, True, False, True, False, False]
        assert (router_weights([0.0] * 8, 3, order) > 0).sum() == 3


# The pipeline, the routers and ALiBi's slopes as their sources compute them, line by line in NumPy (float64 or
# float32, as the scores come). torch.sort and torch.topk become a stable sort: torch's CPU sort is stable up to 16
# classes and not from 17 on, and torch.topk's choice among experts tied at the k-th is not specified (both are
# checked in tests/test_decoding_live.py); the stable order is the rule core follows.

def torch_softmax(x):
    """torch.softmax over the last axis, in x's type: exp(x − max x) / Σ, −inf → 0."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def hf_temperature_warper(scores, temperature):
    """transformers 5.25.0, src/transformers/generation/logits_process.py, TemperatureLogitsWarper.__call__."""
    scores_processed = scores / temperature
    return scores_processed


def hf_top_k_warper(scores, top_k):
    """TopKLogitsWarper.__call__ (same file; __init__ takes max(top_k, min_tokens_to_keep = 1))."""
    top_k = min(top_k, scores.shape[-1])  # Safety check
    # Remove all tokens with a probability less than the last token of the top-k
    indices_to_remove = scores < -np.sort(-scores)[..., top_k - 1, None]  # torch.topk(scores, top_k)[0][..., -1, None]
    scores_processed = np.where(indices_to_remove, -np.inf, scores)  # scores.masked_fill(…, self.filter_value)
    return scores_processed


def hf_top_p_warper(scores, top_p):
    """TopPLogitsWarper.__call__ (same file), min_tokens_to_keep = 1."""
    sorted_indices = np.argsort(scores, axis=-1, kind="stable")  # torch.sort(scores, descending=False)
    sorted_logits = np.take_along_axis(scores, sorted_indices, axis=-1)
    cumulative_probs = np.cumsum(torch_softmax(sorted_logits), axis=-1)  # sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    # Remove tokens with cumulative top_p above the threshold (token with 0 are kept)
    sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
    # Keep at least min_tokens_to_keep
    sorted_indices_to_remove[..., -1:] = False
    # scatter sorted tensors to original indexing
    indices_to_remove = np.empty_like(sorted_indices_to_remove)
    np.put_along_axis(indices_to_remove, sorted_indices, sorted_indices_to_remove, axis=-1)
    scores_processed = np.where(indices_to_remove, -np.inf, scores)
    return scores_processed


def hf_min_p_warper(scores, min_p):
    """MinPLogitsWarper.__call__ (same file), min_tokens_to_keep = 1."""
    # Convert logits to probabilities
    probs = torch_softmax(scores)
    # Get the probability of the top token for each sequence in the batch
    top_probs = probs.max(axis=-1, keepdims=True)
    # Calculate the actual min_p threshold by scaling min_p with the top token's probability
    scaled_min_p = min_p * top_probs
    # Create a mask for tokens that have a probability less than the scaled min_p
    tokens_to_remove = probs < scaled_min_p
    # Keep at least min_tokens_to_keep tokens: torch.topk(probs, 1).indices, scattered False
    np.put_along_axis(tokens_to_remove, np.argmax(probs, axis=-1)[..., None], False, axis=-1)
    scores_processed = np.where(tokens_to_remove, -np.inf, scores)
    return scores_processed


HF_WARPERS = {"top_k": hf_top_k_warper, "top_p": hf_top_p_warper, "min_p": hf_min_p_warper}


def hf_pipeline(z, T, stages):
    """The warpers in the order given after TemperatureLogitsWarper, as generate's LogitsProcessorList runs them:
    what stays (scores above −inf) and the distribution sampled from (softmax of the scores)."""
    scores = hf_temperature_warper(np.asarray(z), T)
    for name, value in stages:
        scores = HF_WARPERS[name](scores, value)
    return scores > -np.inf, torch_softmax(scores)


def mixtral_router(router_logits, top_k):
    """transformers 5.25.0, src/transformers/models/mixtral/modeling_mixtral.py, MixtralTopKRouter.forward after its
    linear layer (softmax in float32 there; in the logits' type here), scattered to one weight per expert."""
    router_logits = np.asarray(router_logits, dtype=float)
    router_probs = torch_softmax(router_logits)
    router_indices = np.argsort(-router_probs, kind="stable")[:top_k]  # torch.topk(router_probs, self.top_k, dim=-1)
    router_top_value = router_probs[router_indices]
    router_top_value /= router_top_value.sum(axis=-1, keepdims=True)
    weights = np.zeros_like(router_probs)
    weights[router_indices] = router_top_value
    return weights


def gpt_oss_router(router_logits, top_k):
    """transformers 5.25.0, src/transformers/models/gpt_oss/modeling_gpt_oss.py, GptOssTopKRouter.forward after its
    linear layer, scattered to one weight per expert."""
    router_logits = np.asarray(router_logits, dtype=float)
    router_indices = np.argsort(-router_logits, kind="stable")[:top_k]  # torch.topk(router_logits, self.top_k, dim=-1)
    router_top_value = router_logits[router_indices]
    router_scores = torch_softmax(router_top_value)  # softmax(router_top_value, dim=1, dtype=router_top_value.dtype)
    weights = np.zeros_like(router_logits)
    weights[router_indices] = router_scores
    return weights


def get_slopes(n):
    """Press, Smith & Lewis's code: github.com/ofirpress/attention_with_linear_biases (commit 3b7c2ec),
    fairseq/models/transformer.py, TransformerDecoder.__init__'s get_slopes, verbatim."""
    def get_slopes_power_of_2(n):
        start = (2**(-2**-(math.log2(n)-3)))
        ratio = start
        return [start*ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    else:
        closest_power_of_2 = 2**math.floor(math.log2(n))
        return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2]


def bloom_alibi_slopes(num_heads):
    """transformers 5.25.0, src/transformers/models/bloom/modeling_bloom.py, _get_alibi_slopes (which
    build_alibi_tensor multiplies by the positions), in float32 as there."""
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    base = np.float32(2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3))))
    powers = np.arange(1, 1 + closest_power_of_2, dtype=np.int32)
    slopes = base ** powers
    if closest_power_of_2 != num_heads:
        extra_base = np.float32(2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3))))
        num_remaining_heads = min(closest_power_of_2, num_heads - closest_power_of_2)
        extra_powers = np.arange(1, 1 + 2 * num_remaining_heads, 2, dtype=np.int32)
        slopes = np.concatenate([slopes, extra_base ** extra_powers])
    return slopes


def stage_lists():
    """Every order of every non-empty subset of the three filters."""
    return st.tuples(st.integers(1, 12), st.sampled_from([0.05, 0.3, 0.5, 0.77, 0.9, 0.99]),
                     st.sampled_from([0.001, 0.013, 0.1, 0.21, 0.5])).flatmap(
        lambda v: st.sampled_from([order for r in (1, 2, 3) for subset in itertools.combinations(
            (("top_k", v[0]), ("top_p", v[1]), ("min_p", v[2])), r) for order in itertools.permutations(subset)]))


logit_rows = st.one_of(
    st.lists(st.integers(-3, 3).map(float), min_size=2, max_size=20),  # ties
    st.lists(st.floats(-20, 20), min_size=2, max_size=20),
    st.lists(st.sampled_from([0.0, -1.0, -800.0, -801.0, -1000.0, 1e-9, 1.0 + 1e-9]), min_size=2, max_size=20))


def on_a_knife_edge(z, T, stages, dtype):
    """Whether a top-p or min-p comparison of the ported pipeline is within rounding of its bound: there two
    computations of the same probabilities (core's renormalised p, the port's softmax of −inf-masked scores) may
    fall on either side."""
    scores, tol = np.asarray(z, dtype) / dtype(T), 1e-9 if dtype == np.float64 else 1e-4
    for name, value in stages:
        p = torch_softmax(scores)
        if name == "top_p":
            running = np.cumsum(np.sort(p))
            if np.any(np.abs(running - (1 - value)) <= tol):
                return True
        if name == "min_p" and np.any(np.abs(p - value * p.max()) <= tol * p.max()):
            return True
        scores = HF_WARPERS[name](scores, value)
    return False


@settings(max_examples=400, deadline=None)
@given(logit_rows, st.sampled_from([1e-3, 0.05, 0.5, 1.0, 2.0, 100.0, 1e8]), stage_lists(),
       st.sampled_from([np.float64, np.float32]))
def test_the_pipeline_keeps_what_transformers_warpers_keep_in_every_order(z, T, stages, dtype):
    # Ties, probabilities that underflow to 0 or round equal (T = 1e-3, 1e8), float32 scores as models give them.
    assume(not on_a_knife_edge(z, T, stages, dtype))
    x = np.asarray(z, dtype)
    p, kept = core.decode_kept(x, T, stages)
    hf_kept, hf_p = hf_pipeline(x, T, stages)
    assert kept.tolist() == hf_kept.tolist()
    # exp turns a score's rounding (half an ulp of z/T) into as large a relative error of p: a float32 score of
    # 262 (z = 13.1 at T = 0.05) is rounded by 1.5e-5, and p of 1e-27 then differs by that much between two
    # float32 computations of the same softmax.
    rel = (1e-12 if dtype == np.float64 else 1e-5) + 4 * float(np.finfo(dtype).eps * np.max(np.abs(x / dtype(T))))
    assert p == pytest.approx(hf_p, rel=rel, abs=1e-300 if dtype == np.float64 else 1e-37)


def test_top_k_ranked_probabilities_that_round_equal_or_underflow():
    # Issue 36: top-k ranked p, not the scores z/T. At T = 1e8 the first two p are equal to the last bit while
    # z/T = 1e-8 < 1.00000001e-8; at T = 1 the last three p underflow to 0 while z = −800 > −801 > −802.
    p, kept = core.decode_kept([1.0, 1.0 + 1e-9, 0.0], 1e8, (("top_k", 1),))
    assert kept.tolist() == [False, True, False] and p.tolist() == [0.0, 1.0, 0.0]
    assert kept.tolist() == hf_pipeline([1.0, 1.0 + 1e-9, 0.0], 1e8, (("top_k", 1),))[0].tolist()
    p, kept = core.decode_kept([0.0, -800.0, -801.0, -802.0], 1.0, (("top_k", 3), ("top_p", 0.5)))
    assert kept.tolist() == [True, False, False, False]
    assert core.decode_kept([0.0, -800.0, -801.0, -802.0], 1.0, (("top_k", 3),))[1].tolist() == [True] * 3 + [False]
    # Where z/T itself rounds two logits to one value, both stay, as in TopKLogitsWarper.
    assert core.decode_kept([1.0, 1.0 + 2**-52, 0.0], 3.0, (("top_k", 1),))[1].tolist() == hf_pipeline(
        [1.0, 1.0 + 2**-52, 0.0], 3.0, (("top_k", 1),))[0].tolist()


def test_alibi_slopes_are_the_authors_for_1_to_64_heads():
    for n in range(1, 65):
        m = alibi_slopes(n)
        assert m.shape == (n,)
        np.testing.assert_allclose(m, get_slopes(n), rtol=8 * 2.0**-52, atol=0)  # their ratio**i: up to 7 ulps
        np.testing.assert_allclose(m, bloom_alibi_slopes(n), rtol=8 * 2.0**-23, atol=0)  # float32: up to 4 ulps
        if n & (n - 1) == 0:
            assert m.tolist() == (2.0 ** (-8.0 * np.arange(1, n + 1) / n)).tolist()


def test_alibi_slopes_were_2_to_the_minus_8h_over_n_for_every_n():
    # Issue 36: at 12 heads the authors' slopes are 8 heads' 1/2 … 1/256 and then 2^(−1/2), 2^(−3/2), 2^(−5/2),
    # 2^(−7/2); 2^(−8h/12) gave every head another slope, and the weights of a row of attention moved by up to 0.58.
    assert alibi_slopes(12) == pytest.approx([2.0**-h for h in (1, 2, 3, 4, 5, 6, 7, 8, 0.5, 1.5, 2.5, 3.5)], rel=1e-15)
    assert alibi_slopes(12) == pytest.approx(get_slopes(12), rel=1e-15)


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
