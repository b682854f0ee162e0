"""Column settings of a data grid wider than the page (bugleft21): its first columns pinned at
the left edge while the rest scrolls sideways (under the scrollbar ``ui.sidebar.TABLE_CSS`` draws),
and a text column as wide as its longest text. No import of the pages' modules, so that any of
them (:mod:`ui.small_table`, :mod:`ui.learn`) can use it."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import streamlit as st


def pinned(df: pd.DataFrame, n: int) -> dict[str, Any]:
    """A data grid's ``column_config`` that pins the first ``n`` columns of ``df`` at its left
    edge while the rest scroll sideways (Streamlit's ``pinned``)."""
    return {str(c): st.column_config.Column(pinned=True) for c in list(df.columns)[:n]}


CHAR_PX = 6.6
"""About the width of a character of a data grid's 14 px type (Source Sans), with room."""


def text_width(values: pd.Series, header: str) -> int:
    """A data grid column's width in pixels that shows the longest of ``values`` (and
    ``header``) whole: the grid cuts a cell's text at the width it picks by itself (at most
    some 500 px) with an ellipsis, and Learn's notes are a sentence or two.

    >>> text_width(pd.Series(["a" * 100, None]), "note")
    684
    """
    longest = max([len(header), *(len(str(v)) for v in values if v is not None)])
    return math.ceil(24 + CHAR_PX * longest)
