"""The helpers that keep pages usable on 100,000 documents: pagination arithmetic
(:mod:`ui.paging`) and chart sampling (:mod:`ui.sampling`)."""

from __future__ import annotations

import doctest

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from ui import paging, sampling


def test_doctests() -> None:
    for module in (paging, sampling):
        assert doctest.testmod(module).failed == 0


@settings(deadline=None, max_examples=60)  # a page at a time through pandas: no speed test
@given(n=hst.integers(0, 1200), size=hst.integers(1, 300))
def test_the_pages_cover_every_row_once_in_order(n: int, size: int) -> None:
    df = pd.DataFrame({"i": range(n)})
    pages = paging.page_count(n, size)
    seen = [r for p in range(1, pages + 1) for r in paging.page_rows(df, p, size)["i"]]
    assert seen == list(range(n))
    assert all(len(paging.page_rows(df, p, size)) == size for p in range(1, pages))


def test_a_page_past_the_end_shows_the_last_page() -> None:
    df = pd.DataFrame({"i": range(120)})
    assert list(paging.page_rows(df, 7, 50)["i"]) == list(range(100, 120))
    assert paging.rows_caption(7, 120, 50) == "Rows 101–120 of 120."


def test_page_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="page_size"):
        paging.page_count(10, 0)


def test_a_sample_is_reproducible_ordered_and_without_repeats() -> None:
    df = pd.DataFrame({"doc": [f"d{i}" for i in range(100_000)]}, index=[0] * 100_000)
    one, two = sampling.sample_rows(df, 5000), sampling.sample_rows(df, 5000)
    assert one.rows.equals(two.rows) and one.sampled and one.total == 100_000
    docs = list(one.rows["doc"])
    assert len(set(docs)) == 5000
    assert docs == sorted(docs, key=lambda d: int(d[1:]))  # the frame's order is kept
    assert one.caption("documents") == (
        "Showing 5,000 of 100,000 documents (random sample, seed 0).")
    assert not sampling.sample_rows(df, 5000, seed=1).rows.equals(one.rows)


def test_a_small_frame_is_drawn_whole() -> None:
    df = pd.DataFrame({"x": range(10)})
    whole = sampling.sample_rows(df, 10)
    assert whole.rows is df and not whole.sampled
    assert whole.caption("texts") == "Showing all 10 texts."


def test_the_sample_is_uniform() -> None:
    """Every row is drawn with probability limit/total: over 200 seeds each decile of a
    10,000-row frame gets about a tenth of the points."""
    df = pd.DataFrame({"x": range(10_000)})
    counts = [0] * 10
    for seed in range(200):
        for x in sampling.sample_rows(df, 500, seed=seed).rows["x"]:
            counts[x // 1000] += 1
    assert all(abs(c / (200 * 500) - 0.1) < 0.01 for c in counts), counts
