"""The bootstrap's draws (``core.metrics.stats._weights``) against the ways NumPy could draw them
all at once, CPU time in process, and whether each gives the same numbers (issue 29, tenth pass).

The report's intervals are printed, so a faster draw must give the same counts for a seed.
``_weights`` asks ``Generator.multinomial`` for 256 resamples at a time (a C loop over the
documents of each resample: one conditional binomial per document); the candidates are one call
for every resample, the conditional binomials drawn a document at a time for every resample at
once (NumPy-vectorised across resamples), and uniform document indices counted with
``bincount`` (the textbook bootstrap).

    python bench/bench_draws.py [--docs 1000,10000] [--resamples 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.metrics import stats


def as_drawn(n: int, r: int, seed: int) -> np.ndarray:
    """What the report draws: ``_weights`` in its chunks of 256 (its cache emptied first)."""
    stats._KEPT_DRAWS.clear()
    return np.vstack(list(stats._weights(n, r, seed)))


def one_call(n: int, r: int, seed: int) -> np.ndarray:
    """``multinomial`` once, for every resample."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, np.full(n, 1.0 / n), size=r).astype(np.float64)


def by_column(n: int, r: int, seed: int) -> np.ndarray:
    """The same conditional binomials, one document at a time for every resample at once."""
    rng = np.random.default_rng(seed)
    out = np.zeros((r, n))
    left = np.full(r, n, dtype=np.int64)
    for j in range(n - 1):
        out[:, j] = rng.binomial(left, 1.0 / (n - j))
        left -= out[:, j].astype(np.int64)
    out[:, n - 1] = left
    return out


def by_index(n: int, r: int, seed: int) -> np.ndarray:
    """n uniform document indices per resample, counted."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(r, n)) + np.arange(r)[:, None] * n
    return np.bincount(idx.ravel(), minlength=r * n).reshape(r, n).astype(np.float64)


WAYS: dict[str, Callable[[int, int, int], np.ndarray]] = {
    "_weights (as drawn)": as_drawn, "multinomial, one call": one_call,
    "binomial by column": by_column, "indices + bincount": by_index}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", default="1000,10000")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with open("/proc/loadavg") as fh:
        print("load average", " ".join(fh.read().split()[:3]))
    for n in map(int, args.docs.split(",")):
        reference = as_drawn(n, args.resamples, 0)
        for name, way in WAYS.items():
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.process_time()
                got = way(n, args.resamples, 0)
                best = min(best, time.process_time() - t0)
            same = got.shape == reference.shape and bool(np.array_equal(got, reference))
            print(f"{n:>7} documents × {args.resamples} resamples  {name:24} {best:7.3f} s CPU  "
                  f"{'same draws' if same else 'OTHER draws'}", flush=True)


if __name__ == "__main__":
    main()
