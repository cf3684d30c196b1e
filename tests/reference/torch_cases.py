"""The cases on which `core` is compared with PyTorch: generated here (seeded), answered by PyTorch once.

tests/reference/make_torch_reference.py stores the inputs and PyTorch's answers in torch_reference.json;
tests/test_core_torch.py reads that file, tests/test_core_torch_live.py asks an installed PyTorch again.
"""

import itertools
import zlib

import numpy as np

SHAPES = [(5,), (6, 5), (3, 4, 5)]
OPTIONS = [
    {},
    {"T": 0.5},
    {"T": 2.5, "label_smoothing": 0.2},
    {"weight": True},
    {"weight": True, "label_smoothing": 0.15},
    {"weight": True, "label_smoothing": 0.3, "T": 1.7},
]
REDUCTIONS = ["mean", "sum", "none"]
TARGET_KINDS = ["index", "index with ignored", "probabilities"]


def _case(shape, options, reduction, target_kind, dtype="float64", scale=3.0):
    seed = zlib.crc32(repr((shape, sorted(options.items()), reduction, target_kind, dtype)).encode())
    rng = np.random.default_rng(seed)
    K = shape[-1]
    z = (rng.standard_normal(shape) * scale).astype(dtype)
    if target_kind == "probabilities":
        y = rng.dirichlet(np.ones(K), shape[:-1]) if len(shape) > 1 else rng.dirichlet(np.ones(K))
    else:
        y = np.asarray(rng.integers(0, K, shape[:-1]))
        if target_kind == "index with ignored":
            y = np.where(rng.random(shape[:-1]) < 0.3, -100, y)
    return {
        "shape": list(shape), "dtype": dtype, "target_kind": target_kind, "reduction": reduction,
        "T": options.get("T", 1.0), "label_smoothing": options.get("label_smoothing", 0.0),
        "weight": rng.uniform(0.1, 3.0, K).tolist() if options.get("weight") else None,
        "z": z.astype(np.float64).tolist(), "target": y.tolist(),
    }


def cross_entropy_cases():
    """Every shape × option × reduction × target kind, then the corner cases PyTorch has a word on."""
    cases = [_case(*combo) for combo in itertools.product(SHAPES, OPTIONS, REDUCTIONS, TARGET_KINDS)]
    every_ignored = _case((2, 3), {}, "mean", "index")
    every_ignored["target"] = [-100, -100]  # mean over no counted target: nan in both
    cases.append(every_ignored)
    cases.append({**_case((3,), {}, "none", "index"), "target": 0})  # unbatched logits, scalar target
    # float32 with enough classes for core's run-wise float32 summation (K ≥ 2048).
    cases.append(_case((1, 4096), {}, "mean", "index", dtype="float32"))
    return cases


def extreme_softmax_cases():
    """Logits where e^z overflows a double, near-ties that only a shift keeps, and T at the app's ends."""
    rows = [[710.0, 0.0, -710.0], [1e4, 1e4 - 1.0, 0.0], [0.0, -40.0, -45.0], [100.0, -100.0, 0.0],
            [2.0, 1.0, 0.1], [-3.5, 3.5]]
    return [{"z": z, "T": T} for z in rows for T in (0.01, 0.3, 1.0, 7.0, 100.0)]


def jacobian_case():
    return {"z": np.random.default_rng(3).standard_normal(5).tolist(), "T": 0.7}
