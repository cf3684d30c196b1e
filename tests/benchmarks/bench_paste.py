"""How long a paste takes to read, hostile text beside a plain row of the same length. A script, not a test.

    python tests/benchmarks/bench_paste.py [-n 5]

Each text is as long as a paste may be (app/rules.py PASTE_MAX); the peer is a real one, a GPT-2-sized row
(50,257 values) printed in full by NumPy, repeated to the same length's worth of values where it is shorter. Prints
the median of N runs of app/pasted.py `parse_logits` and its ratio to the peer's time per character: a parser that
backtracks on a hostile shape shows as a ratio far above 1.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.pasted import parse_logits  # noqa: E402
from app.refusal import Refusal  # noqa: E402
from app.rules import PASTE_MAX  # noqa: E402
from tests.test_pasted import HOSTILE  # noqa: E402


def seconds(text, n):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        try:
            parse_logits(text)
        except Refusal:
            pass
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=5)
    n = parser.parse_args().n
    row = np.random.default_rng(2).normal(-80.0, 3.0, 50_257)
    with np.printoptions(floatmode="unique", threshold=sys.maxsize):
        peer = repr(row)
    per_char = seconds(peer, n) / len(peer)
    print(f"peer: a GPT-2 row printed in full, {len(peer):,} characters: {per_char * 1e9:.1f} ns a character")
    for name, (text, _) in HOSTILE.items():
        t = seconds(text, n)
        print(f"{name:12s} {len(text):>9,} chars  {t * 1e3:8.1f} ms  {t / len(text) / per_char:6.2f} × the peer's "
              f"time a character")
    print(f"(PASTE_MAX = {PASTE_MAX:,} characters)")


if __name__ == "__main__":
    main()
