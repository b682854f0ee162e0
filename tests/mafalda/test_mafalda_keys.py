"""The counting shortcuts of the corpus-wide MAFALDA path give what the sorts they replace give
(issue 29, tenth pass): :func:`core.metrics.mafalda._unique` on keys already increasing, on keys
of a small range (counted) and of a large one (sorted); :func:`core.metrics.mafalda._member`
against ``np.isin``; :func:`core.metrics.overlap._key_bounds` against ``np.searchsorted``."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics import mafalda as m
from core.metrics.overlap import _key_bounds


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
