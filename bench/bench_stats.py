"""Benchmark: bootstrap intervals over 10,000 documents (1,000 resamples), one and paired.

Run: ``python bench/bench_stats.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.metrics.stats import bootstrap, martino_f1, mean_of, paired_bootstrap


def main() -> None:
    rng = np.random.default_rng(0)
    n = 10_000
    den = rng.integers(0, 20, size=(n, 2)).astype(float)
    table = np.column_stack([den[:, 0] * rng.random(n), den[:, 0], den[:, 1] * rng.random(n),
                             den[:, 1]])
    other = table * np.array([0.9, 1, 0.9, 1])
    for name, fn in (
        ("Martino F1 (pooled sums), 1,000 resamples", lambda: bootstrap(table, martino_f1)),
        ("mean of per-document F1, 1,000 resamples",
         lambda: bootstrap(rng.random(n), mean_of(0, n))),
        ("paired Martino F1 difference, 1,000 resamples",
         lambda: paired_bootstrap(table, other, martino_f1)),
    ):
        t0 = time.perf_counter()
        result = fn()
        print(f"{name} over {n} documents: {time.perf_counter() - t0:.3f} s -> {result}")


if __name__ == "__main__":
    main()
