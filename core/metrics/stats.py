"""Bootstrap confidence intervals over documents, and paired comparison of two systems.

Documents are the unit of resampling (Efron & Tibshirani 1993; for NLP evaluation, Koehn 2004
and Berg-Kirkpatrick et al. 2012): a resample draws n documents with replacement, and the metric
is recomputed from the documents' *sufficient statistics*, so no span is paired again. A metric
pooled over the corpus (Da San Martino: numerators and denominators are summed) and a metric
averaged over texts (MAFALDA: per-text values are averaged) both fit: each is a function of the
column sums of a (documents × k) table, with multiplicities as weights. A registered metric's
table and statistics come from its additive statistics
(:class:`core.metrics.additive.DocumentTable`), so no caller names a metric.

Resamples are drawn as multinomial counts (a resample is a vector of n counts summing to n), in
chunks of at most 2M counts (256 resamples up to 8,192 documents, fewer above: 16 MB, whatever
the corpus), so 1,000 resamples need one (chunk × n) matrix product per chunk.
Intervals are percentile intervals; the seed and the number of resamples are part of the result.

API
---
``bootstrap(table, statistic, n_resamples=1000, seed=0, confidence=0.95) -> Interval``
    ``table``: (n_docs, k) per-document statistics; ``statistic``: maps an (m, k) array of
    weighted column sums to m values (it is also called once on the plain sums for the estimate).
``bootstrap_many(table, {name: statistic}, ...) -> {name: Interval}``
    several statistics over the same resamples (drawn once).
``paired_bootstrap(table_a, table_b, statistic, ...) -> PairedInterval``
    the same resamples for both systems (their documents must be aligned row by row); the
    interval of statistic(a) − statistic(b) and the share of resamples where a is not better.
``martino_f1``, ``martino_precision``, ``martino_recall``: statistics over columns
    (p_num, p_den, r_num, r_den) with the official edge cases; ``mean_of(column, n_docs)``: the
    mean of a per-document value (MAFALDA's averaging).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from core.metrics.result import Statistic, mean_of, pooled_f1, prf_arrays

FEW_DOCUMENTS = 20
"""Below this many documents an interval over documents says little, and the dashboard's Scores
page and the HTML report say so: a few documents give a few distinct resamples and a narrow
interval; one document gives none (every resample is that document)."""


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float
    confidence: float
    n_resamples: int
    seed: int
    method: str = "percentile"


@dataclass(frozen=True)
class PairedInterval:
    difference: float
    low: float
    high: float
    confidence: float
    n_resamples: int
    seed: int
    p_not_better: float  # share of resamples with difference <= 0


_KEPT_DRAWS: dict[tuple[int, int, int], np.ndarray] = {}
"""The resample counts of the last few ``(documents, resamples, seed)``, as 16-bit counts:
drawing them is most of a bootstrap's time (one binomial per document and resample), and every
metric and system of a page resamples the same documents with the same seed."""
_KEEP_AT_MOST = 4
_KEEP_CELLS = 25_000_000  # 50 MB of uint16 per entry at most

CELLS = 1 << 21
"""Documents × resamples drawn at once (:func:`_weights`): 16 MB of float64 counts, and as much
again of the int64 counts NumPy draws them as, however large the corpus. Drawing 256 resamples
at a time took 2 × 102 MB at 50,000 documents and 2 × 205 MB at 100,000."""


def _chunk(n_docs: int) -> int:
    """Resamples per chunk: 256 up to 8,192 documents (as before :data:`CELLS`), fewer above,
    so that a chunk holds at most :data:`CELLS` counts (one resample at least). A function of
    the number of documents only: a chunk is one matrix product, whose rounding depends on its
    shape (OpenBLAS picks its kernels by the number of rows), so no setting but the corpus,
    the resamples and the seed changes it (the last bits of a large product can still vary
    with OpenBLAS's threads, as they did before)."""
    return max(1, min(256, CELLS // max(n_docs, 1)))


def _weights(n_docs: int, n_resamples: int, seed: int) -> Iterator[np.ndarray]:
    """How often each document is drawn in each resample (resampling with replacement), in
    chunks of :func:`_chunk` resamples; the same seed gives the same draws, in any chunks
    (NumPy draws a multinomial row after row from one stream)."""
    key = (n_docs, n_resamples, seed)
    m = _chunk(n_docs)
    kept = _KEPT_DRAWS.get(key)
    if kept is not None:
        for done in range(0, n_resamples, m):
            yield kept[done:done + m].astype(np.float64)
        return
    keep = n_docs < 2**16 and n_docs * n_resamples <= _KEEP_CELLS
    drawn = np.empty((n_resamples, n_docs), dtype=np.uint16) if keep else None
    rng = np.random.default_rng(seed)
    probs = np.full(n_docs, 1.0 / n_docs)
    for done in range(0, n_resamples, m):
        counts = rng.multinomial(n_docs, probs, size=min(m, n_resamples - done))
        if drawn is not None:
            drawn[done:done + len(counts)] = counts
        weights = counts.astype(np.float64)
        del counts  # not held beside its float64 copy while the caller multiplies
        yield weights
    if drawn is not None:
        while len(_KEPT_DRAWS) >= _KEEP_AT_MOST:
            del _KEPT_DRAWS[next(iter(_KEPT_DRAWS))]
        _KEPT_DRAWS[key] = drawn


def _check(table: np.ndarray, n_resamples: int, confidence: float) -> np.ndarray:
    arr = np.asarray(table, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError(f"expected a (documents × statistics) table, got shape {arr.shape}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be positive, got {n_resamples}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return arr


def bootstrap(table: np.ndarray, statistic: Statistic, *, n_resamples: int = 1000,
              seed: int = 0, confidence: float = 0.95) -> Interval:
    """Percentile bootstrap interval of ``statistic`` over documents.

    >>> t = np.array([[1.0, 1, 1.0, 1], [0.0, 1, 0.0, 1]])   # one right, one wrong document
    >>> iv = bootstrap(t, martino_f1, n_resamples=200, seed=1)
    >>> iv.estimate, iv.low, iv.high
    (0.5, 0.0, 1.0)
    """
    arr = _check(table, n_resamples, confidence)
    values = np.concatenate([statistic(w @ arr) for w in _weights(len(arr), n_resamples, seed)])
    alpha = (1 - confidence) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    estimate = float(statistic(arr.sum(axis=0)[None, :])[0])
    return Interval(estimate, float(low), float(high), confidence, n_resamples, seed)


def paired_bootstrap(table_a: np.ndarray, table_b: np.ndarray, statistic: Statistic, *,
                     n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95
                     ) -> PairedInterval:
    """Interval of statistic(A) − statistic(B) with the same document resamples for both."""
    a = _check(table_a, n_resamples, confidence)
    b = _check(table_b, n_resamples, confidence)
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"the two systems cover {a.shape[0]} and {b.shape[0]} documents; a "
                         "paired comparison needs the same documents")
    diffs = np.concatenate([statistic(w @ a) - statistic(w @ b)
                            for w in _weights(len(a), n_resamples, seed)])
    alpha = (1 - confidence) / 2
    low, high = np.quantile(diffs, [alpha, 1 - alpha])
    diff = float(statistic(a.sum(axis=0)[None, :])[0] - statistic(b.sum(axis=0)[None, :])[0])
    return PairedInterval(diff, float(low), float(high), confidence, n_resamples, seed,
                          float(np.mean(diffs <= 0)))


def martino_precision(sums: np.ndarray) -> np.ndarray:
    """P from columns (p_num, p_den, r_num, r_den); 0 when nothing is predicted."""
    return prf_arrays(sums, empty="official")[0]


def martino_recall(sums: np.ndarray) -> np.ndarray:
    return prf_arrays(sums, empty="official")[1]


martino_f1 = pooled_f1
"""F1 of pooled sums with the official edge cases (:func:`core.metrics.result.prf`)."""


def bootstrap_many(table: np.ndarray, statistics: Mapping[str, Statistic], *,
                   n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95
                   ) -> dict[str, Interval]:
    """:func:`bootstrap` of several statistics over the *same* resamples (drawn once), so
    P, R and F1 of one table cost one set of draws; each interval equals what
    :func:`bootstrap` gives for that statistic with the same seed.

    >>> t = np.array([[1.0, 1, 1.0, 1], [0.0, 1, 0.0, 1]])
    >>> many = bootstrap_many(t, {"F1": martino_f1, "P": martino_precision}, n_resamples=200,
    ...                       seed=1)
    >>> many["F1"] == bootstrap(t, martino_f1, n_resamples=200, seed=1)
    True
    """
    arr = _check(table, n_resamples, confidence)
    values: dict[str, list[np.ndarray]] = {name: [] for name in statistics}
    for w in _weights(len(arr), n_resamples, seed):
        sums = w @ arr
        for name, stat in statistics.items():
            values[name].append(stat(sums))
    alpha = (1 - confidence) / 2
    out = {}
    for name, stat in statistics.items():
        low, high = np.quantile(np.concatenate(values[name]), [alpha, 1 - alpha])
        estimate = float(stat(arr.sum(axis=0)[None, :])[0])
        out[name] = Interval(estimate, float(low), float(high), confidence, n_resamples, seed)
    return out


__all__ = ["Interval", "PairedInterval", "Statistic", "bootstrap", "bootstrap_many", "martino_f1",
           "martino_precision", "martino_recall", "mean_of", "paired_bootstrap"]
