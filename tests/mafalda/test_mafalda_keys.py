"""The counting shortcuts of the corpus-wide MAFALDA path give what the sorts they replace give
(issue 29, tenth pass): :func:`core.metrics.mafalda._unique` on keys already increasing, on keys
of a small range (counted) and of a large one (sorted); :func:`core.metrics.mafalda._member`
against ``np.isin``; :func:`core.metrics.overlap._key_bounds` against ``np.searchsorted``;
:func:`core.metrics.mafalda._interval_order` against ``np.lexsort``, and the gold spans with
alternatives numbered without it (eleventh pass)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics import mafalda as m
from core.metrics.overlap import _key_bounds
from core.model import AnnotationSet, Span


def _sorted_unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct values, each key's index among them and their counts, by ``np.unique``."""
    values, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return values, inverse.reshape(-1), counts


def _same(got: tuple[np.ndarray, ...], want: tuple[np.ndarray, ...]) -> None:
    for g, w in zip(got, want, strict=True):
        assert g.dtype.kind == "i"
        assert g.tolist() == w.tolist()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 60), max_size=40), st.sampled_from([1, 10**6, 10**12]))
def test_unique_equals_the_sort(values: list[int], scale: int) -> None:
    keys = np.array(values, dtype=np.int64) * scale
    _same(m._unique(keys), _sorted_unique(keys))


def test_unique_each_shortcut_taken_and_equal() -> None:
    rng = np.random.default_rng(7)
    increasing = np.cumsum(rng.integers(1, 5, 1000))  # one code per gold span
    small = rng.integers(0, 3000, 1000)  # (text, label) keys: range below 4 × their number
    large = rng.integers(0, 10**9, 1000)  # sorted
    negative = rng.integers(-50, 50, 1000)  # sorted
    assert int(small.max()) < m.UNIQUE_SPREAD * len(small) + 1024 <= int(large.max())
    for keys in (increasing, small, large, negative, np.zeros(0, dtype=np.int64)):
        _same(m._unique(keys), _sorted_unique(keys))
    values, index, counts = m._unique(increasing)
    assert values is increasing and index.tolist() == list(range(1000))
    assert set(counts.tolist()) == {1}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=30), st.lists(st.integers(0, 30), max_size=10))
def test_member_equals_isin(keys: list[int], of: list[int]) -> None:
    k, o = np.array(keys, dtype=np.int64), np.array(of, dtype=np.int64)
    assert m._member(k, o, 31).tolist() == np.isin(k, o).tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=30), st.integers(13, 20))
def test_key_bounds_equal_searchsorted(keys: list[int], n_keys: int) -> None:
    k = np.array(keys, dtype=np.int64)
    want = np.searchsorted(np.sort(k), np.arange(n_keys + 1))
    assert _key_bounds(k, n_keys).tolist() == want.tolist()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 6), st.integers(0, 6)), max_size=30),
       st.booleans())
def test_interval_order_is_the_lexsort_or_none_when_that_is_the_identity(
        rows: list[tuple[int, int, int]], in_order: bool) -> None:
    if in_order:
        rows = sorted(rows)
    doc, start, end = (np.array([row[k] for row in rows], dtype=np.int64) for k in range(3))
    want = np.lexsort((end, start, doc))
    got = m._interval_order(doc, start, end)
    if got is None:
        assert want.tolist() == list(range(len(rows)))
    else:
        assert got.tolist() == want.tolist() and want.tolist() != list(range(len(rows)))
    if in_order:
        assert got is None


def _random_pair(seed: int, in_order: bool) -> tuple[AnnotationSet, AnnotationSet]:
    """A gold whose spans share intervals (alternatives) and a prediction, 40 texts; the gold's
    spans of each text by (start, end), as the readers' tables keep them, when ``in_order``."""
    rng = np.random.default_rng(seed)
    labels = list(m.mafalda().names())[:8]  # "nothing" (⊥) among them
    gold: dict[str, tuple[Span, ...]] = {}
    pred: dict[str, tuple[Span, ...]] = {}
    for d in range(40):
        spans = []
        for _ in range(int(rng.integers(0, 6))):
            s = int(rng.integers(0, 80))
            e = s + int(rng.integers(1, 20))
            spans += [Span(s, e, str(rng.choice(labels))) for _ in range(int(rng.integers(1, 3)))]
        gold[f"t{d}"] = tuple(sorted(spans, key=lambda x: (x.start, x.end)) if in_order
                              else spans)
        pred[f"t{d}"] = tuple(Span(s, s + int(rng.integers(1, 25)), str(rng.choice(labels)))
                              for s in rng.integers(0, 90, int(rng.integers(0, 6))).tolist())
    return (AnnotationSet("g", gold, alternatives=True),
            AnnotationSet("p", pred, role="system"))


def test_scores_with_gold_rows_in_order_take_no_sort_and_equal_the_sorted_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A set whose table has its rows by (document, start, end), as the readers' tables do:
    the spans with alternatives are numbered without ``np.lexsort``, and every value is the one
    the sort gave; a set in another order is sorted, as before."""
    orders: dict[bool, list[bool]] = {True: [], False: []}
    real = m._interval_order

    def spy(doc: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
        got = real(doc, start, end)
        orders[in_order].append(got is None)
        return got

    for seed, in_order in itertools.product(range(6), (True, False)):
        gold, pred = _random_pair(seed, in_order)
        monkeypatch.setattr(m, "_interval_order", spy)
        fast = {(v, lev): m.score(gold, pred, level=lev, variant=v).to_dict(per_document=True)
                for v in m.VARIANTS for lev in m.LEVELS}
        monkeypatch.setattr(m, "_interval_order",
                            lambda doc, start, end: np.lexsort((end, start, doc)))
        sorted_path = {(v, lev): m.score(gold, pred, level=lev, variant=v).to_dict(
            per_document=True) for v in m.VARIANTS for lev in m.LEVELS}
        assert repr(fast) == repr(sorted_path)
    assert orders[True] and all(orders[True])  # every score took the rows as they came
    assert not any(orders[False])  # those sets were sorted
