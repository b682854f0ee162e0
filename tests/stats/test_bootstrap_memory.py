"""The bootstrap draws its resamples in chunks of at most ``stats.CELLS`` counts (it drew 256
resamples at a time: 2 × 102 MB at 50,000 documents), and gives the numbers it gave before:
``data/bootstrap_before.json`` was written by the code before the change (commit
73ae640) from the tables below, at 9,000 and 30,000 documents, where the chunks are now 233 and
69 resamples instead of 256."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.analysis.significance import compare
from core.metrics import stats
from core.metrics.additive import DocumentTable
from core.metrics.stats import (
    bootstrap,
    bootstrap_many,
    martino_f1,
    martino_precision,
    martino_recall,
    paired_bootstrap,
)

BEFORE = json.loads((Path(__file__).parent / "data" / "bootstrap_before.json")
                    .read_text(encoding="utf-8"))


def _tables(n: int, pooled: bool) -> np.ndarray:
    """Two systems' per-document statistics: pooled (p_num, p_den, r_num, r_den) or averaged
    (P, R, F1 per text)."""
    rng = np.random.default_rng(n * 10 + pooled)
    if pooled:
        den = rng.integers(0, 6, size=(2, n, 2)).astype(float)
        num = den * rng.random((2, n, 2)) * 1.1
        return np.stack([num[..., 0], den[..., 0], num[..., 1], den[..., 1]], axis=-1)
    return rng.random((2, n, 3))


def _numbers(n: int) -> list[dict[str, object]]:
    """What ``data/bootstrap_before.json`` holds for ``n`` documents, by the code of now."""
    out: list[dict[str, object]] = []
    for pooled in (True, False):
        t = _tables(n, pooled)
        docs = [f"d{i}" for i in range(n)]
        z = np.zeros(n, dtype=np.int64)
        a, b = (DocumentTable(docs, t[k], z, z, pooled) for k in range(2))
        for rounds in (300, 299):
            for c in compare("a", a, "b", b, n_resamples=rounds, seed=5):
                out.append({"n": n, "pooled": pooled, "R": rounds, "what": f"compare {c.measure}",
                            "low": c.low, "high": c.high, "p_bootstrap": c.p_bootstrap,
                            "p_randomization": c.p_randomization})
    t = _tables(n, True)
    many = bootstrap_many(t[0], {"P": martino_precision, "R": martino_recall, "F1": martino_f1},
                          n_resamples=300, seed=2)
    out.extend({"n": n, "pooled": True, "R": 300, "what": f"bootstrap_many {name}",
                "low": iv.low, "high": iv.high} for name, iv in many.items())
    iv = bootstrap(t[1], martino_f1, n_resamples=299, seed=3)
    out.append({"n": n, "pooled": True, "R": 299, "what": "bootstrap F1", "low": iv.low,
                "high": iv.high})
    pi = paired_bootstrap(t[0], t[1], martino_f1, n_resamples=300, seed=4)
    out.append({"n": n, "pooled": True, "R": 300, "what": "paired_bootstrap F1", "low": pi.low,
                "high": pi.high, "p_not_better": pi.p_not_better})
    return out


@pytest.mark.parametrize("n", [9000, 30000])
def test_intervals_and_p_values_are_those_of_the_chunks_of_256(n: int) -> None:
    """The p-values exactly; the interval bounds to 1e-12: at these sizes a bound's last bits
    vary from one run of the same code to another on one machine (the matrix product's
    rounding under OpenBLAS's threads), the code before included."""
    stats._KEPT_DRAWS.clear()
    want = [r for r in BEFORE if r["n"] == n]
    assert len(want) == 17
    got = _numbers(n)
    assert [{k: v for k, v in r.items() if k not in ("low", "high")} for r in got] == [
        {k: v for k, v in r.items() if k not in ("low", "high")} for r in want]
    for g, w in zip(got, want, strict=True):
        assert (g["low"], g["high"]) == (pytest.approx(w["low"], abs=1e-12),
                                         pytest.approx(w["high"], abs=1e-12)), g["what"]


def test_a_chunk_of_draws_holds_at_most_cells_counts() -> None:
    """At 100,000 documents a chunk of 256 resamples was 205 MB of float64 (and as much of
    int64); now 20 resamples, 16 MB."""
    stats._KEPT_DRAWS.clear()
    sizes = [w.shape for w in stats._weights(100_000, 45, 0)]
    assert sizes == [(20, 100_000), (20, 100_000), (5, 100_000)]
    assert all(rows * docs <= stats.CELLS for rows, docs in sizes)


def test_the_chunk_is_256_resamples_up_to_8192_documents_and_one_at_least() -> None:
    assert [stats._chunk(n) for n in (1, 300, 8192, 8193, 50_000, 100_000, 3_000_000)] == [
        256, 256, 256, 255, 41, 20, 1]


def test_draws_in_chunks_are_the_draws_of_one_call() -> None:
    """NumPy draws a multinomial row after row from one stream: the chunks change no count."""
    stats._KEPT_DRAWS.clear()
    n = 30_000
    chunked = np.vstack(list(stats._weights(n, 150, 9)))
    whole = np.random.default_rng(9).multinomial(n, np.full(n, 1 / n), size=150)
    assert np.array_equal(chunked, whole)
