"""Time `core` against SciPy and PyTorch side by side, in one process, on one thread.

    python tests/benchmarks/bench_core.py [--quick]

A (256, 50257) float32 batch (a GPT-2-sized vocabulary) of logits 3·N(0, 1) with random targets:
core.softmax vs scipy.special.softmax, core.cross_entropy vs torch.nn.functional.cross_entropy (index
targets, mean), and single-row K = 3 calls as the app makes them. Measurements are interleaved in rounds
(each round takes the best of a few calls of every contender) so that drifting machine load hits all
contenders alike; the table shows the median round. Exits non-zero only on an error, never on a ratio.
"""

import os

# One thread everywhere, set before NumPy or PyTorch load their thread pools.
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy.special

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # runs from a checkout without installing
import core

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None


def best_of(fn: Callable[[], object], calls: int) -> float:
    """The fastest of `calls` timed calls, in seconds."""
    best = float("inf")
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def race(contenders: dict[str, Callable[[], object]], rounds: int, calls: int) -> dict[str, float]:
    """Median over interleaved rounds of each contender's best-of-`calls` time, in seconds."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()  # warm up: first-touch page faults, thread pools, caches
    for _ in range(rounds):
        for name, fn in contenders.items():
            times[name].append(best_of(fn, calls))
    return {name: statistics.median(t) for name, t in times.items()}


def repeat(fn: Callable[[], object], n: int) -> Callable[[], None]:
    """`fn` called n times, so a microsecond call is timed over many calls."""

    def many() -> None:
        for _ in range(n):
            fn()

    return many


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="3 rounds of best-of-2 instead of 7 of best-of-5 (a smoke test)"
    )
    args = parser.parse_args()
    rounds, calls = (3, 2) if args.quick else (7, 5)

    rng = np.random.default_rng(0)
    logits = (rng.standard_normal((256, 50257)) * 3).astype(np.float32)
    target = rng.integers(0, 50257, 256)
    rows = []

    t = race(
        {"core": lambda: core.softmax(logits), "scipy": lambda: scipy.special.softmax(logits, axis=-1)},
        rounds,
        calls,
    )
    rows.append(("softmax (256, 50257) f32", "scipy", t["core"] * 1e3, t["scipy"] * 1e3, "ms"))

    if torch is None:
        print("torch is not installed: the cross_entropy comparison with PyTorch was skipped")
    else:
        torch.set_num_threads(1)
        logits_t, target_t = torch.from_numpy(logits), torch.from_numpy(target)
        agree = np.isclose(core.cross_entropy(logits, target), F.cross_entropy(logits_t, target_t), rtol=1e-5)
        assert agree, "core.cross_entropy and PyTorch disagree"
        t = race(
            {
                "core": lambda: core.cross_entropy(logits, target),
                "torch": lambda: F.cross_entropy(logits_t, target_t),
            },
            rounds,
            calls,
        )
        rows.append(("cross_entropy (256, 50257) f32", "torch", t["core"] * 1e3, t["torch"] * 1e3, "ms"))

    z = np.array([2.0, 1.0, 0.1])
    n = 200 if args.quick else 2000
    t = race(
        {
            "core": repeat(lambda: core.softmax(z), n),
            "scipy": repeat(lambda: scipy.special.softmax(z), n),
            "ce": repeat(lambda: core.cross_entropy(z, 0), n),
            "grad": repeat(lambda: core.grad_logits(z, 0), n),
        },
        rounds,
        calls,
    )
    rows.append(("softmax K=3, one row", "scipy", t["core"] / n * 1e6, t["scipy"] / n * 1e6, "us"))
    extras = {"cross_entropy K=3": t["ce"] / n * 1e6, "grad_logits K=3": t["grad"] / n * 1e6}

    print(
        f"numpy {np.__version__}, scipy {scipy.__version__}, torch {torch.__version__ if torch else '-'}; "
        f"1 thread; median of {rounds} rounds of best-of-{calls}"
    )
    print(f"{'case':34} {'vs':6} {'core':>9} {'theirs':>9}  {'ours/theirs':>11}")
    for case, them, ours, theirs, unit in rows:
        print(f"{case:34} {them:6} {ours:7.2f}{unit} {theirs:7.2f}{unit}  {ours / theirs:11.2f}")
    for case, us in extras.items():
        print(f"{case:34} {'':6} {us:7.2f}us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
