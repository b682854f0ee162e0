"""Pagination of long tables: the arithmetic (pure, unit-tested) behind :func:`ui.widgets.
paginate`, which draws the page number input and the "rows 51–100 of 100,000" caption.

A table of 100,000 documents sent whole to the browser costs seconds on every rerun (Arrow
serialisation, then the grid); a page of 50 rows costs nothing. Sorting happens before paging
(the caller sorts), so paging never hides the best or the worst rows, and the downloads next to
a table always hold every row.
"""

from __future__ import annotations

import math

import pandas as pd

PAGE_SIZE = 50


def page_count(n_rows: int, page_size: int = PAGE_SIZE) -> int:
    """Pages needed for ``n_rows`` (at least one, so an empty table has page 1).

    >>> page_count(0), page_count(50), page_count(51), page_count(100_000)
    (1, 1, 2, 2000)
    """
    if page_size < 1:
        raise ValueError(f"page_size must be at least 1, got {page_size}")
    return max(1, math.ceil(n_rows / page_size))


def page_bounds(page: int, n_rows: int, page_size: int = PAGE_SIZE) -> tuple[int, int]:
    """``(start, stop)`` row positions of ``page`` (1-based), clamped to the pages there are.

    >>> page_bounds(2, 120), page_bounds(3, 120), page_bounds(99, 120), page_bounds(0, 120)
    ((50, 100), (100, 120), (100, 120), (0, 50))
    """
    page = min(max(1, int(page)), page_count(n_rows, page_size))
    start = (page - 1) * page_size
    return start, min(start + page_size, n_rows)


def page_rows(df: pd.DataFrame, page: int, page_size: int = PAGE_SIZE) -> pd.DataFrame:
    """The rows of ``df`` on ``page`` (1-based, clamped)."""
    start, stop = page_bounds(page, len(df), page_size)
    return df.iloc[start:stop]


def rows_caption(page: int, n_rows: int, page_size: int = PAGE_SIZE) -> str:
    """``Rows 51–100 of 100,000.``

    >>> rows_caption(2, 100_000)
    'Rows 51–100 of 100,000.'
    >>> rows_caption(1, 0)
    'No rows.'
    """
    if n_rows == 0:
        return "No rows."
    start, stop = page_bounds(page, n_rows, page_size)
    return f"Rows {start + 1:,}–{stop:,} of {n_rows:,}."
