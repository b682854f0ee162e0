"""Tables of a few rows drawn as Markdown, not as a data grid (issue 29, eighth pass).

A data grid (``st.dataframe``) costs Chromium's main thread some 15-40 ms of CPU each time its
page is drawn, whatever its rows; a Markdown table of a few rows about 3 ms (docs/performance.md,
issue 29, eighth pass: a warm revisit of the Data page, whose Files and Sets tables are drawn
here, takes 40 ms less). A table of two or three rows gains nothing from the grid's scrolling
and sorting, and its page keeps its downloads. :func:`small_table` draws one or the other by the
number of rows.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import pandas as pd
import streamlit as st

from ui import above_one
from ui.escape import md

SMALL_TABLE_ROWS = 12
"""Up to this many rows :func:`small_table` draws a Markdown table, above it a data grid."""

SMALL_TABLE_COLUMNS = 10
"""Up to this many columns :func:`small_table` draws a Markdown table (unless the caller says
otherwise). A wider one (the systems' scores with their intervals: up to 20 columns) stays a
data grid: as Markdown its headers wrap word by word and it scrolls sideways, harder to read
for the few milliseconds it would save."""

NOWRAP_COLUMNS = 12
"""The Scores page's systems table without its intervals (system, role, three scorings' P, R
and F1, the text-level exact-match ratio: 12 columns) is a Markdown table whose headers do not
wrap (:data:`ui.sidebar.TABLE_CSS`): one line of headers, one of numbers per system at 1,500 px,
scrolled sideways in a narrower window as the grid is (issue 29, eleventh pass: about 12 ms of
the browser's main thread on every visit)."""


def small_table(df: pd.DataFrame, *, key: str, mark: bool = False,
                columns: int = SMALL_TABLE_COLUMNS) -> None:
    """``df`` as a Markdown table in a container keyed ``key`` when it has at most
    :data:`SMALL_TABLE_ROWS` rows and ``columns`` columns, else as a data grid
    keyed ``key``; with ``mark``, scores above 1 are marked as :func:`ui.above_one.mark` marks
    them (an ``above 1`` column, the cells bold on a tint). Numbers are shown with at most four
    decimals, as the grid shows them; a missing value as "—"; text escaped
    (:func:`ui.escape.md`); the table scrolls sideways when it is wider than the page
    (``ui.sidebar.TABLE_CSS``)."""
    if (len(df) > SMALL_TABLE_ROWS or len(df.columns) > columns
            or not len(df.columns)):
        st.dataframe(above_one.mark(df) if mark else df, hide_index=True, key=key,
                     placeholder="—")
        return
    with st.container(key=key):
        st.markdown(table_markdown(df, mark=mark))


def table_markdown(df: pd.DataFrame, *, mark: bool = False) -> str:
    """The Markdown table of :func:`small_table` (numbers right-aligned).

    >>> print(table_markdown(pd.DataFrame({"set": ["a|b"], "P": [1.25], "n": [3],
    ...                                    "R": [float("nan")]}), mark=True))
    | set | P | n | R | above 1 |
    |:--|--:|--:|--:|:--|
    | a\\|b | **:orange-background[1.25]** | 3 | — | ↑ P |
    """
    over_cols = set(above_one.score_columns(df)) if mark else set()
    flags = above_one.above_one(df) if mark else None
    marked = flags is not None and bool(flags.astype(bool).any())
    columns = [str(c) for c in df.columns] + (["above 1"] if marked else [])
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns] + (
        [False] if marked else [])
    lines = ["| " + " | ".join(md(c) for c in columns) + " |",
             "|" + "|".join("--:" if n else ":--" for n in numeric) + "|"]
    for i, row in enumerate(df.itertuples(index=False)):
        cells = []
        for column, value in zip(df.columns, row, strict=True):
            shown = _cell(value)
            if column in over_cols and _above(value):
                shown = f"**:orange-background[{shown}]**"
            cells.append(shown)
        if marked and flags is not None:
            cells.append(md(f"↑ {flags.iloc[i]}") if flags.iloc[i] else "")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _above(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool) and float(value) > 1 + 1e-12


def _cell(value: object) -> str:
    """One cell: "—" for a missing value, an integer as it is, a real with at most four
    decimals, anything else escaped."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Integral):
        return str(int(value))
    if isinstance(value, Real):
        text = f"{float(value):.4f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return md(value)
