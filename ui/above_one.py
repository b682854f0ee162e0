"""Scores above 1, marked and explained wherever a table shows them.

The Da San Martino et al. (2019) span metric as the SemEval-2021 Task 6 scorer computes it sums
over every same-label pair (prediction s, gold t): P adds C(s, t, |s|) = |s ∩ t| / |s|, R adds
C(s, t, |t|) = |s ∩ t| / |t| (docs/martino.md). A prediction that overlaps two gold spans which
overlap each other is credited twice, so overlapping gold spans push precision above 1; a gold
span overlapped by two predictions which overlap each other (a duplicate, say) is credited twice,
so overlapping predictions push recall above 1; F1 follows. The Learn scenario ``duplicates``
shows the second step by step. A table holding such a value gets an ``above 1`` column naming
the columns concerned, the cells drawn bold on a tint (two cues), and a note under it linking to
that scenario. Only ratios are checked: a column of sums (``P numerator``) or counts is not a
score.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from core.render.palette import STATUS_COLOURS

LEARN_SCENARIO = "duplicates"
"""The :mod:`core.teaching.scenarios` id whose worked example pushes the 2021 scorer above 1."""

NOTE = ("**Above 1?** The 2021 scorer (SemEval-2021 Task 6, the Da San Martino et al. 2019 span "
        "metric) adds up every overlap of a span with the same-label spans of the other set, so "
        "P, R or F1 can exceed 1. The marked values are computed correctly: gold spans that "
        "overlap each other raise precision (a prediction is credited once per gold span it "
        "overlaps), predictions that overlap each other raise recall (a gold span is credited "
        "once per prediction that overlaps it).")

_SCORE = re.compile(r"(^|[\s_(·:-])(p|r|f1|precision|recall|span-f1)($|[\s_)·:-])", re.I)
_NOT_RATIO = re.compile(r"numerator|denominator", re.I)
"""Names that hold the sums behind a score, not a score: ``P numerator`` is not checked."""


def score_columns(df: pd.DataFrame) -> list[str]:
    """Numeric columns whose name says they hold a precision, recall or F1.

    >>> score_columns(pd.DataFrame({"label": ["a"], "P": [1.0], "gold spans": [3],
    ...                             "span-f1": [0.5], "martino F1": [0.2], "P numerator": [2.5]}))
    ['P', 'span-f1', 'martino F1']
    """
    return [c for c in df.columns if _SCORE.search(str(c)) and not _NOT_RATIO.search(str(c))
            and pd.api.types.is_numeric_dtype(df[c])]


def _over(df: pd.DataFrame) -> tuple[list[str], Any]:
    """The score columns and a boolean array (rows × those columns): value above 1."""
    cols = score_columns(df)
    if not cols or not len(df):
        return cols, None
    return cols, (df[cols].apply(pd.to_numeric, errors="coerce") > 1 + 1e-12).to_numpy()


def above_one(df: pd.DataFrame) -> pd.Series:
    """Per row, the score columns above 1, joined (empty string when none).

    Rows are joined from a NumPy array, only those with a value above 1: a row-wise
    ``DataFrame.apply`` took 0.5 s on 20,000 documents, on every rerun.
    """
    cols, over = _over(df)
    values = np.full(len(df), "", dtype=object)
    if over is not None:
        hit = over.any(axis=1)
        joined = [", ".join(c for c, f in zip(cols, row, strict=True) if f) for row in over[hit]]
        values[hit] = np.array(joined, dtype=object)
    return pd.Series(values, index=df.index, dtype=object)


def any_above_one(df: pd.DataFrame) -> bool:
    """Whether any score of ``df`` exceeds 1."""
    _, over = _over(df)
    return bool(over is not None and over.any())


def mark(df: pd.DataFrame) -> Any:
    """``df`` unchanged when no score exceeds 1; else with an ``above 1`` column and the cells
    above 1 bold on a tint (a pandas ``Styler``, which ``st.dataframe`` draws)."""
    flags = above_one(df)
    if not flags.astype(bool).any():
        return df
    out = df.copy()
    out["above 1"] = flags.map(lambda s: f"↑ {s}" if s else "")
    cols = score_columns(df)
    tint = STATUS_COLOURS["mismatch"]

    def style(value: Any) -> str:
        try:
            return f"font-weight:700;background-color:{tint};color:#222222" if float(
                value) > 1 + 1e-12 else ""
        except (TypeError, ValueError):
            return ""

    # A Styler's numbers would be drawn with six decimals (pandas' default), the table's
    # unmarked neighbours with at most four: the same four here.
    floats = pd.Index([c for c in out.columns if pd.api.types.is_float_dtype(out[c])])
    return out.style.map(style, subset=pd.Index(cols)).format(_four, subset=floats, na_rep="")


def _four(value: object) -> str:
    """At most four decimals, trailing zeros dropped, as ``st.dataframe`` draws a float column.

    >>> _four(1.020667), _four(1.0), _four(0.5)
    ('1.0207', '1', '0.5')
    """
    return f"{value:.4f}".rstrip("0").rstrip(".")


def note(df: pd.DataFrame, *, key: str) -> bool:
    """Under a table: the explanation and a link to the Learn scenario, when a score of ``df``
    exceeds 1. Returns whether it was shown."""
    if not any_above_one(df):
        return False
    from ui.learn import K_SCENARIO  # ui.learn draws tables that use this module

    with st.container(key=f"above_one_{key}"):
        st.caption(NOTE)
        st.page_link("pages/learn.py", icon="🎓",
                     label="See why on Learn: duplicate predictions push recall above 1",
                     query_params={K_SCENARIO: LEARN_SCENARIO})
    return True
