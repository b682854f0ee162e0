"""Is system A really better than system B? Paired significance tests over documents.

Two tests, both on the metric's per-document additive statistics
(:class:`core.metrics.additive.DocumentTable`), so no span is paired again and each resample or
shuffle is one matrix product:

* **Approximate randomization** (Noreen 1989, *Computer-Intensive Methods for Testing
  Hypotheses*; for NLP: Yeh 2000, Riezler & Maxwell 2005). Under the null hypothesis the two
  systems are exchangeable, so each document's two rows may be swapped. Each of ``R`` rounds
  swaps every document's rows with probability 1/2 and recomputes the difference of the two
  systems' values; the two-sided p-value is (1 + #{rounds with |δ'| ≥ |δ|}) / (R + 1), the
  add-one estimate that never says 0 (Davison & Hinkley 1997, §4.2.1). With ``R`` rounds the
  smallest p-value is 1 / (R + 1).
* **Paired bootstrap** (Efron & Tibshirani 1993; for NLP: Koehn 2004, Berg-Kirkpatrick et al.
  2012): the same document resamples for both systems (:func:`core.metrics.stats.
  paired_bootstrap`, the Scores page's paired comparison); the 95% percentile interval of
  δ = value(A) − value(B) and the two-sided p-value 2·min(share of resamples with δ* ≤ 0,
  share with δ* ≥ 0), capped at 1: the smallest α whose (1 − α) percentile interval leaves 0
  out, so "p < 0.05" and "the 95% interval excludes 0" say the same. Like the randomization
  p-value it is floored at 1 / (R + 1): ``R`` resamples cannot show a smaller one. With fewer
  than :data:`~core.metrics.stats.FEW_DOCUMENTS` documents it is not given (None): the
  percentile bootstrap's p is anti-conservative there (three documents have ten distinct
  resamples; a system better on each of them gets p = 0 where the exact permutation p is
  2/8), which is why the randomization test decides by default.

A pooled metric (Da San Martino) swaps or resamples the sums it pools; a metric averaged over
texts (MAFALDA) the per-text values it averages. P, R and F1 are each tested (one set of rounds
and resamples for all three). No correction for multiple comparisons is applied: with k
systems against one, a reader may divide α by k − 1 (Bonferroni) or see Dror et al. (2017).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from core.metrics.additive import DocumentTable
from core.metrics.result import Statistic
from core.metrics.stats import FEW_DOCUMENTS, _weights
from core.model.errors import ParameterError

TESTS = ("randomization", "bootstrap")
"""The tests a comparison can be decided by (both are always computed)."""


@dataclass(frozen=True)
class Comparison:
    """``system`` against ``against`` on one ``measure``: the difference of their values and
    both tests' two-sided p-values; ``low``/``high`` the paired bootstrap interval of the
    difference. Every number is None when the reference has fewer than two documents, and
    ``p_bootstrap`` when it has fewer than :data:`~core.metrics.stats.FEW_DOCUMENTS` (module
    docstring)."""

    system: str
    against: str
    measure: str
    difference: float
    low: float | None
    high: float | None
    p_bootstrap: float | None
    p_randomization: float | None


def _aligned(a: DocumentTable, b: DocumentTable) -> tuple[np.ndarray, np.ndarray]:
    """The two tables' rows in one document order (the same documents are required)."""
    if a.documents == b.documents:
        return a.table, b.table
    if sorted(a.documents) != sorted(b.documents):
        raise ParameterError("tables", "a paired test needs both systems scored on the same "
                             f"documents ({len(a.documents)} and {len(b.documents)} documents)")
    where = {d: i for i, d in enumerate(b.documents)}
    return a.table, b.table[[where[d] for d in a.documents]]


_SWAP_CELLS = 1 << 21
"""The most swap cells one chunk of :func:`randomization_p` draws (2M: 16 MB of int64 and as
much of float64)."""


def randomization_p(table_a: np.ndarray, table_b: np.ndarray,
                    statistics: Mapping[str, Statistic], *, n_rounds: int = 1000,
                    seed: int = 0, chunk: int = 256) -> dict[str, float]:
    """Two-sided approximate-randomization p-value of each statistic's difference A − B.

    ``table_a`` and ``table_b`` hold one row per document, aligned; a statistic maps an (m, k)
    array of column sums to m values (:mod:`core.metrics.stats`). Each round swaps each
    document's two rows with probability 1/2; the same seed gives the same rounds.

    >>> a = np.array([[1.0], [1.0], [1.0]])
    >>> b = np.array([[0.0], [0.0], [0.0]])
    >>> mean = {"mean": lambda s: s[:, 0] / 3}
    >>> p = randomization_p(a, b, mean, n_rounds=4000, seed=1)["mean"]
    >>> abs(p - 2 / 8) < 0.02  # exactly: 2 of the 8 swaps are as extreme (none or all)
    True
    """
    a = np.asarray(table_a, dtype=np.float64)
    b = np.asarray(table_b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2 or not len(a):
        raise ParameterError("tables", f"expected two aligned (documents × statistics) tables, "
                             f"got shapes {a.shape} and {b.shape}")
    if n_rounds < 1:
        raise ParameterError("n_rounds", f"n_rounds must be positive, got {n_rounds}")
    sum_a, sum_b, delta = a.sum(axis=0), b.sum(axis=0), b - a
    observed = {name: abs(float(stat(sum_a[None, :])[0] - stat(sum_b[None, :])[0]))
                for name, stat in statistics.items()}
    # A shuffled difference equal to the observed one up to rounding counts as "as extreme".
    tolerance = {name: 1e-12 * max(1.0, v) for name, v in observed.items()}
    extreme = dict.fromkeys(statistics, 0)
    # The swaps of a chunk are an (m, documents) matrix: at most _SWAP_CELLS cells, so that
    # 100,000 documents do not hold 256 rows of them (400 MB). Drawn row after row, the rounds
    # are the same whatever the chunk (each swap is one 32-bit draw of the generator).
    chunk = max(1, min(chunk, _SWAP_CELLS // len(a)))
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_rounds:
        m = min(chunk, n_rounds - done)
        swap = rng.integers(0, 2, size=(m, len(a))).astype(np.float64)
        moved = swap @ delta  # what swapping moves from B to A (and back)
        for name, stat in statistics.items():
            shuffled = np.abs(stat(sum_a + moved) - stat(sum_b - moved))
            extreme[name] += int(np.count_nonzero(shuffled >= observed[name] - tolerance[name]))
        done += m
    return {name: (1 + extreme[name]) / (n_rounds + 1) for name in statistics}


def compare(system: str, table: DocumentTable, against: str, reference: DocumentTable, *,
            n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95,
            measures: Sequence[str] = ("P", "R", "F1")) -> list[Comparison]:
    """``system`` against ``against`` on ``measures`` (of P, R, F1, in that order): the
    differences, the paired bootstrap interval and both tests' p-values (module docstring).
    One document: no test (every resample and every shuffle of one document is that
    document), the numbers None. The p-values of a measure do not depend on the others asked
    with it."""
    a, b = _aligned(table, reference)
    every = table.measures(len(a))
    unknown = [m for m in measures if m not in every]
    if unknown:
        raise ParameterError("measures", f"unknown measures {unknown}; expected some of "
                             f"{list(every)}")
    chosen = {m: s for m, s in every.items() if m in measures}
    values_a = {m: float(s(a.sum(axis=0)[None, :])[0]) for m, s in chosen.items()}
    values_b = {m: float(s(b.sum(axis=0)[None, :])[0]) for m, s in chosen.items()}
    if len(a) < 2:
        return [Comparison(system, against, m, values_a[m] - values_b[m], None, None, None,
                           None) for m in chosen]
    p_random = randomization_p(a, b, chosen, n_rounds=n_resamples, seed=seed)
    boot = _paired_bootstrap(a, b, chosen, n_resamples=n_resamples, seed=seed,
                             confidence=confidence)
    return [Comparison(system, against, m, values_a[m] - values_b[m], *boot[m], p_random[m])
            for m in chosen]


def _paired_bootstrap(a: np.ndarray, b: np.ndarray, statistics: Mapping[str, Statistic], *,
                      n_resamples: int, seed: int, confidence: float
                      ) -> dict[str, tuple[float, float, float | None]]:
    """Each statistic's paired bootstrap (low, high, p) of A − B: the resamples of
    :func:`core.metrics.stats.paired_bootstrap` (same seed, same draws, same interval), drawn
    once for every statistic, both shares of the p-value from one array of δ* (module
    docstring); p None below :data:`~core.metrics.stats.FEW_DOCUMENTS` documents."""
    diffs: dict[str, list[np.ndarray]] = {m: [] for m in statistics}
    for w in _weights(len(a), n_resamples, seed):
        sums_a, sums_b = w @ a, w @ b
        for m, stat in statistics.items():
            diffs[m].append(stat(sums_a) - stat(sums_b))
    alpha = (1 - confidence) / 2
    floor = 1 / (n_resamples + 1)
    out: dict[str, tuple[float, float, float | None]] = {}
    for m in statistics:
        d = np.concatenate(diffs[m])
        low, high = np.quantile(d, [alpha, 1 - alpha])
        p: float | None = None
        if len(a) >= FEW_DOCUMENTS:
            share = min(float(np.mean(d <= 0)), float(np.mean(d >= 0)))
            p = max(floor, min(1.0, 2 * share))
        out[m] = (float(low), float(high), p)
    return out


def check_test(test: str) -> str:
    if test not in TESTS:
        raise ParameterError("test", f"The 'test' parameter must be one of "
                             f"{{{', '.join(TESTS)}}}. Got {test!r} instead.")
    return test


def p_value(c: Comparison, test: str) -> float | None:
    """The p-value of ``c`` under ``test`` (one of :data:`TESTS`)."""
    return c.p_randomization if check_test(test) == "randomization" else c.p_bootstrap


__all__ = ["TESTS", "Comparison", "check_test", "compare", "p_value", "randomization_p"]
