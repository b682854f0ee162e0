"""Bootstrap intervals over documents: reproducibility, coverage of the estimate, pairing."""

from __future__ import annotations

import numpy as np
import pytest

from core.metrics.martino import score
from core.metrics.stats import bootstrap, martino_f1, mean_of, paired_bootstrap
from core.model import AnnotationSet, Span


def _table(result: object) -> np.ndarray:
    r = result
    return np.column_stack([r.doc_p_num, r.doc_p_den, r.doc_r_num, r.doc_r_den])  # type: ignore[attr-defined]


def _corpus(n: int, hit_rate: float, seed: int) -> tuple[AnnotationSet, AnnotationSet]:
    rng = np.random.default_rng(seed)
    gold = {str(i): (Span(0, 10, "A"),) for i in range(n)}
    pred = {str(i): ((Span(0, 10, "A"),) if rng.random() < hit_rate else (Span(20, 30, "A"),))
            for i in range(n)}
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


def test_estimate_equals_the_metric_and_lies_in_the_interval() -> None:
    result = score(*_corpus(200, 0.6, 1))
    iv = bootstrap(_table(result), martino_f1, n_resamples=500, seed=3)
    assert iv.estimate == pytest.approx(result.f1)
    assert iv.low <= iv.estimate <= iv.high
    assert (iv.n_resamples, iv.seed, iv.confidence) == (500, 3, 0.95)


def test_same_seed_same_interval_and_another_seed_differs() -> None:
    table = _table(score(*_corpus(100, 0.5, 2)))
    a = bootstrap(table, martino_f1, n_resamples=300, seed=7)
    assert a == bootstrap(table, martino_f1, n_resamples=300, seed=7)
    assert a != bootstrap(table, martino_f1, n_resamples=300, seed=8)


def test_mean_statistic_matches_a_plain_percentile_bootstrap() -> None:
    rng = np.random.default_rng(0)
    values = rng.random(50)
    iv = bootstrap(values, mean_of(0, 50), n_resamples=2000, seed=0)
    assert iv.estimate == pytest.approx(values.mean())
    draws = [values[rng.integers(0, 50, 50)].mean() for _ in range(2000)]
    assert iv.low == pytest.approx(np.quantile(draws, 0.025), abs=0.02)
    assert iv.high == pytest.approx(np.quantile(draws, 0.975), abs=0.02)


def test_paired_comparison_of_a_better_system() -> None:
    gold, good = _corpus(300, 0.9, 4)
    _, bad = _corpus(300, 0.4, 5)
    a, b = _table(score(gold, good)), _table(score(gold, bad))
    res = paired_bootstrap(a, b, martino_f1, n_resamples=500, seed=0)
    assert res.difference == pytest.approx(score(gold, good).f1 - score(gold, bad).f1)
    assert 0 < res.low <= res.difference <= res.high
    assert res.p_not_better == 0.0


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="documents"):
        bootstrap(np.zeros((0, 4)), martino_f1)
    with pytest.raises(ValueError, match="same documents"):
        paired_bootstrap(np.zeros((3, 4)), np.zeros((4, 4)), martino_f1)


def test_kept_draws_give_the_same_resamples_as_fresh_ones() -> None:
    from core.metrics import stats
    stats._KEPT_DRAWS.clear()
    fresh = [w.copy() for w in stats._weights(300, 600, 7)]
    assert (300, 600, 7) in stats._KEPT_DRAWS
    again = list(stats._weights(300, 600, 7))
    assert len(fresh) == len(again) == 3
    for a, b in zip(fresh, again, strict=True):
        assert a.dtype == b.dtype == np.float64
        assert np.array_equal(a, b)
    assert all(w.sum() == 300 * len(w) for w in again)
