"""core's decoding pipeline, router and ALiBi against Hugging Face transformers' and PyTorch's own code.

Here transformers 5.25.0 and torch 2.13.0 (CPU). They are not in the test extras (a torch download is more than CI
can afford), so without them this file is skipped and tests/test_decoding.py's line-by-line ports of the same
code, with their sources named, stand in. The same strategies drive both files.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import core
from tests.test_decoding import logit_rows, on_a_knife_edge, stage_lists

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from transformers import GptOssConfig, MixtralConfig  # noqa: E402
from transformers.generation.logits_process import (  # noqa: E402
    LogitsProcessorList,
    MinPLogitsWarper,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
    TopPLogitsWarper,
)
from transformers.models.bloom.modeling_bloom import build_alibi_tensor  # noqa: E402
from transformers.models.gpt_oss.modeling_gpt_oss import GptOssTopKRouter  # noqa: E402
from transformers.models.mixtral.modeling_mixtral import MixtralTopKRouter  # noqa: E402

WARPERS = {"top_k": TopKLogitsWarper, "top_p": TopPLogitsWarper, "min_p": MinPLogitsWarper}
DTYPES = {np.float64: torch.float64, np.float32: torch.float32}


def transformers_pipeline(z, T, stages, dtype):
    """generate's sampling warpers in the order given, after TemperatureLogitsWarper: what stays and the p."""
    processors = LogitsProcessorList([TemperatureLogitsWarper(T), *(WARPERS[name](value) for name, value in stages)])
    scores = processors(None, torch.tensor(np.asarray(z, dtype))[None])[0]
    return torch.isfinite(scores).numpy(), torch.softmax(scores, dim=-1).numpy()


@settings(max_examples=400, deadline=None)
@given(logit_rows, st.sampled_from([1e-3, 0.05, 0.5, 1.0, 2.0, 100.0, 1e8]), stage_lists(),
       st.sampled_from([np.float64, np.float32]))
def test_the_pipeline_keeps_what_transformers_keeps_in_every_order(z, T, stages, dtype):
    assume(not on_a_knife_edge(z, T, stages, dtype))
    p, kept = core.decode_kept(np.asarray(z, dtype), T, stages)
    theirs, their_p = transformers_pipeline(z, T, stages, dtype)
    rel, tiny = (1e-12, 1e-300) if dtype == np.float64 else (1e-5, 1e-37)
    if len(z) <= 16 or len(set(np.asarray(z, dtype) / dtype(T))) == len(z):
        assert kept.tolist() == theirs.tolist()
        assert p == pytest.approx(their_p, rel=rel, abs=tiny)
    else:  # from 17 classes torch.sort orders equal scores as it likes: top-p may drop another of them
        assert kept.sum() == theirs.sum()
        assert np.sort(p) == pytest.approx(np.sort(their_p), rel=rel, abs=tiny)


def test_the_issues_top_k_case_and_underflow_against_transformers():
    for z, T, stages in (([1.0, 1.0 + 1e-9, 0.0], 1e8, (("top_k", 1),)), ([1e-9, 0.0], 1e8, (("top_p", 0.05),)),
                         ([0.0, -800.0, -801.0, -802.0], 1.0, (("top_k", 3), ("top_p", 0.5))),
                         ([0.0, -800.0, -801.0, -802.0], 1.0, (("top_k", 3),))):
        for dtype in (np.float64, np.float32):
            assert core.decode_kept(np.asarray(z, dtype), T, stages)[1].tolist() == transformers_pipeline(
                z, T, stages, dtype)[0].tolist(), (z, T, stages, dtype)


def test_torch_sort_is_stable_up_to_16_classes_only():
    # What core's docstrings say of transformers' top-p: torch.sort(descending=False) on CPU keeps equal scores in
    # index order up to 16 classes, and not from 17 on.
    rng = np.random.default_rng(36)
    for n, stable in ((2, True), (9, True), (16, True), (17, False), (64, False)):
        rows = [torch.tensor(rng.integers(0, 3, n).astype(np.float32)) for _ in range(50)]
        same = [np.array_equal(torch.sort(r, descending=False).indices.numpy(), np.argsort(r.numpy(), kind="stable"))
                for r in rows]
        assert all(same) if stable else not all(same), n


def test_torch_topk_does_not_always_take_the_lower_index_of_a_tie():
    # What core's router docstring says: torch.topk returns exactly k, but not always the lowest indices of a tie.
    assert sorted(torch.topk(torch.tensor([0.0, 1.0, 1.0, 1.0, 1.0]), 2).indices.tolist()) == [2, 4]


def routed(router, scores, k):
    """A transformers router whose linear layer is the identity, on one row of scores: one weight per expert."""
    E = scores.size
    with torch.no_grad():
        router.weight.copy_(torch.eye(E))
        _, weights, indices = router(torch.tensor(scores, dtype=torch.float32)[None])
    out = np.zeros(E, dtype=np.float32)
    out[indices[0].numpy()] = weights[0].numpy()
    return out


def configs(E, k):
    size = dict(num_local_experts=E, num_experts_per_tok=k, hidden_size=E, intermediate_size=4, num_hidden_layers=1,
                num_attention_heads=1, num_key_value_heads=1)
    return MixtralTopKRouter(MixtralConfig(**size)), GptOssTopKRouter(GptOssConfig(**size))


@pytest.mark.parametrize("E", [2, 3, 4, 7, 8, 16, 17, 32, 64])
def test_the_router_routes_as_mixtral_and_gpt_oss_do(E):
    rng = np.random.default_rng(E)
    rows = [rng.normal(scale=3.0, size=E), rng.integers(-2, 3, E).astype(float), np.zeros(E),
            np.array([0.0] + [1.0] * (E - 1))]
    for k in sorted({1, 2, E // 2, E - 1, E} - {0}):
        mixtral, gpt_oss = configs(E, k)
        for s in rows:
            s = s.astype(np.float32)
            for router, order, ranked in ((mixtral, "softmax_then_renormalise", core.softmax(s)),
                                          (gpt_oss, "mask_then_softmax", s)):
                theirs, ours = routed(router, s, k), core.router_weights(s, k, order)
                assert (ours > 0).sum() == k and (theirs > 0).sum() == k  # exactly k, ties or not
                top = np.sort(ranked)[::-1]
                if k == E or top[k - 1] > top[k]:
                    assert ours == pytest.approx(theirs, rel=1e-5, abs=1e-30)
                else:  # a tie at the k-th: torch picks any of them, core the lower indices; the weights are the same
                    assert np.sort(ours) == pytest.approx(np.sort(theirs), rel=1e-5, abs=1e-30)
                    assert ranked[theirs > 0].min() == ranked[ours > 0].min() == top[k - 1]
                    assert np.flatnonzero(ours > 0).tolist() == sorted(np.argsort(-ranked, kind="stable")[:k])


@pytest.mark.parametrize("n", range(1, 65))
def test_alibi_is_blooms_for_1_to_64_heads(n):
    # build_alibi_tensor gives each head m_h·j for key j (float32): within a causal row that is −m_h(i − j) plus one
    # number, so the attention weights are core's.
    L = 6
    alibi = build_alibi_tensor(torch.ones(1, L), n, torch.float32)[:, 0, :].numpy()
    assert alibi[:, 1] == pytest.approx(core.alibi_slopes(n), rel=5 * 2.0**-23)
    s = np.random.default_rng(n).normal(size=(L, L))
    causal = np.where(np.tril(np.ones((L, L))) > 0, 0.0, -np.inf)
    theirs = torch.softmax(torch.tensor(s + causal + alibi[:, None, :]), dim=-1).numpy()
    ours = np.stack([core.attention_weights(s, core.alibi_bias(L, m)) for m in core.alibi_slopes(n)])
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-12)
