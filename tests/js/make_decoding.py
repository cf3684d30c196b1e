"""The fixture decoding.json for `node --test`: core's decoding, attention and distillation answers.

build() makes it; tests/js/fixtures.py writes it.

tests/js/decoding.test.mjs checks static/decoding.mjs against them: the top-k, top-p and min-p masks of
distributions with exact ties (small integer weights over their sum), shuffled and in rank order, at every k
and at levels that fall on their running sums, the decoding pipeline in each order (also on logits whose p rounds
equal or underflows where z/T does not), a router's weights in both orders (a tie at the k-th broken by the lower
index), ALiBi's slopes for 1 to 64 heads, bias and biased weights, the distillation loss and gradient from
T = 0.5 to 100, and top-p and top-k on a real vocabulary in rank order, as runs of kept words.

"""

import json
import platform
import sys
from itertools import permutations
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import numpy as np  # noqa: E402

import core  # noqa: E402
from app import vocabulary  # noqa: E402

LEVELS = (0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 0.99, 1.0)
TEMPERATURES = (0.5, 1.0, 2.0, 4.0, 8.0, 20.0, 100.0)
VOCABULARY_LEVELS = (0.5, 0.8, 0.9, 0.95)
VOCABULARY_KS = (1, 7, 40, 1000, 49_999)


def distributions(rng):
    rows = [np.array([0.5, 0.3, 0.15, 0.03, 0.02]), np.array([0.4, 0.3, 0.3]), np.full(4, 0.25)]
    while len(rows) < 20:
        w = rng.integers(0, 7, size=rng.integers(2, 13))
        if w.sum():
            rows.append(w / w.sum())
    # The same in rank order too, as a vocabulary comes: the twin reads those without sorting.
    return rows + [np.sort(r)[::-1] for r in rows]


def runs(mask):
    """The kept classes as [start, end) runs of indices: a vocabulary's masks are a few runs long."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], mask.astype(np.int8), [0]))))
    return edges.reshape(-1, 2).tolist()


def on_vocabulary():
    """top-p and top-k (the pipeline's, on z/T) on wordfreq's 50,000 English words in rank order (their buckets are
    exact ties), down to T = 0.005, where most words' p underflows to 0."""
    z = vocabulary.unigram("en")[1]
    return [{"T": T, "top_p": {str(v): runs(core.top_p_mask(core.softmax(z, T=T), v)) for v in VOCABULARY_LEVELS},
             "top_k": {str(k): runs(core.decode_kept(z, T, (("top_k", k),))[1]) for k in VOCABULARY_KS}}
            for T in (0.005, 0.5, 1.0, 2.0)]


# Logits whose probabilities round equal or underflow where z/T does not (issue 36): top-k ranks z/T, so it keeps
# what transformers' TopKLogitsWarper keeps, not every class tied with the k-th probability.
SCORES = [([1.0, 1.0 + 1e-9, 0.0], 1e8), ([0.0, -800.0, -801.0, -802.0], 1.0), ([3.0, 2.0, 1.0, 0.0, -1.0], 0.005),
          ([5.0, -1000.0, -1000.0, 5.0, -1001.0, 4.0], 1.0), ([2.0, 1e-300, 0.0, -1e-300, 0.0], 1e10),
          ([1e300, 1e300, 9e299, 0.0], 1e-9), ([1e-9, 0.0], 1e8), ([0.0, 1e-9, 0.0, 2e-9, 1e-9], 1e8),
          ([3.0] * 3 + [2.0] * 5 + [-900.0 - k for k in range(12)], 1.0)]  # in rank order, as a vocabulary


def build():
    rng = np.random.default_rng(19)
    cases = []
    for p in distributions(rng):
        z = np.log(np.where(p > 0, p, 1e-300))
        cases.append({
            "p": p.tolist(), "z": z.tolist(),
            "top_k": {str(k): core.top_k_mask(z, k).tolist() for k in range(1, len(p) + 2)},
            "top_p": {str(v): core.top_p_mask(p, v).tolist() for v in LEVELS},
            "min_p": {str(v): core.min_p_mask(p, v).tolist() for v in LEVELS},
            "decode": [{"T": T, "stages": [list(s) for s in stages], "p": core.decode(z, T, stages).tolist(),
                        "kept": core.decode_kept(z, T, stages)[1].tolist()}
                       for T in (0.7, 1.0, 1.5)
                       for stages in permutations((("top_k", 3), ("top_p", 0.8), ("min_p", 0.2)))],
        })
    for z, T in SCORES:
        cases.append({"z": z, "T": T, "decode": [
            {"T": T, "stages": [list(s) for s in stages], "p": core.decode(z, T, stages).tolist(),
             "kept": core.decode_kept(z, T, stages)[1].tolist()}
            for k in sorted({1, 2, len(z) // 2, len(z)}) for top_p in (0.05, 0.5, 0.9)
            for stages in permutations((("top_k", k), ("top_p", top_p), ("min_p", 1e-3)))]})
    scores = rng.normal(scale=2.0, size=8)
    tied = [1.0, 2.0, 2.0, 2.0, 0.0, 2.0, -1.0, 2.0]  # exactly k run: the lower indices win the tie
    router = [{"scores": s.tolist() if isinstance(s, np.ndarray) else s,
               "weights": {order: {str(k): core.router_weights(s, k, order).tolist() for k in range(1, 9)}
                           for order in ("mask_then_softmax", "softmax_then_renormalise")}}
              for s in (scores, tied, [0.0] * 8)]
    s = rng.normal(size=(5, 5))
    alibi = {"slopes": core.alibi_slopes(8).tolist(), "scores": s.tolist(),
             "by_heads": {str(n): core.alibi_slopes(n).tolist() for n in range(1, 65)},
             "by_slope": [{"m": float(m),
                           "bias": [[None if np.isinf(b) else float(b) for b in row] for row in core.alibi_bias(5, m)],
                           "weights": core.attention_weights(s, core.alibi_bias(5, m)).tolist()}
                          for m in core.alibi_slopes(8)]}
    pairs = [([3.0, 0.0, -1.0, -2.0], [0.375, 0.375, -0.125, -0.625])]
    pairs += [(rng.normal(scale=3, size=6).tolist(), rng.normal(scale=3, size=6).tolist()) for _ in range(4)]
    distill = [{"v": v, "z": z, "T": T, "loss": float(core.distillation_loss(v, z, T)),
                "grad": core.distillation_grad(v, z, T).tolist()} for v, z in pairs for T in TEMPERATURES]
    fixture = {"produced_by": "tests/js/make_decoding.py", "python": platform.python_version(),
               "numpy": np.__version__, "cases": cases, "router": router, "alibi": alibi, "distill": distill,
               "vocabulary": on_vocabulary()}
    return json.dumps(fixture, allow_nan=False, separators=(",", ":")) + "\n"
