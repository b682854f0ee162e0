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

from core.render.palette import STATUS_COLOURS
from ui import above_one
from ui.escape import attr, md
from ui.grid_columns import pinned

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
        # The first column (what the row is: a system, a label, a document) pinned, so that
        # a grid wider than the page scrolls its numbers under it (bugleft21).
        st.dataframe(above_one.mark(df) if mark else df, hide_index=True, key=key,
                     placeholder="—", column_config=pinned(df, 1))
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


PAGE_TABLE_CSS = (
    "<style>.ss-page-table-box{container-type:inline-size}"
    ".ss-page-table{overflow-x:auto;max-width:100%;width:fit-content}"
    ".ss-page-table table{border-collapse:collapse;font-size:.875rem;margin:0;"
    "font-variant-numeric:tabular-nums}"
    ".ss-page-table caption{caption-side:top;text-align:left;font-size:.875rem;opacity:.75;"
    "padding:0 0 .4rem;position:sticky;left:0;max-width:100cqw}"
    ".ss-page-table th,.ss-page-table td{padding:.3rem .75rem;white-space:nowrap;"
    "border:1px solid rgba(128,128,128,.3)}"
    ".ss-page-table th{font-weight:600;text-align:left;background:rgba(128,128,128,.08)}"
    ".ss-page-table .n{text-align:right}"
    ".ss-page-table td.up{font-weight:700;color:#222222;background:" + STATUS_COLOURS["mismatch"]
    + "}.ss-page-table:focus-visible{outline:2px solid #1c83e1;outline-offset:2px}</style>")
"""The style of :func:`page_table_html`: the theme's text colour, grey rules and header tint
that read on the light and the dark theme alike, numbers right-aligned in even digits; a score
above 1 bold, dark, on the tint the grid's marked cells have (:func:`ui.above_one.mark`). The
caption wraps at the column's width (``100cqw`` of the ``ss-page-table-box`` around the table)
and stays in place while a table wider than the column scrolls sideways: laid out at the
table's width, it ran off a phone's screen mid-word (tour20)."""


def page_table_html(df: pd.DataFrame, *, caption: str, label: str) -> str:
    """One page of a long table as an HTML table for ``st.html`` (issue 29, sixteenth pass):
    drawn by the browser as one element of plain HTML. Its cost to Chromium's main thread grows
    with its rows: a page of 20 costs some 60 ms less on every visit than a data grid of 50,
    a page of 50 about as much (docs/performance.md, issue 29, sixteenth pass).

    Scores above 1 are marked as :func:`table_markdown` marks them (an ``above 1`` column
    naming the columns, the cells bold on a tint: two cues). ``caption`` is the table's
    ``<caption>`` (which rows of how many, the order); the header row is ``<th scope="col">``;
    the wrapper scrolls sideways in a narrow window, takes the keyboard's focus and is named
    ``label``. Numbers are shown with at most four decimals, a missing value as "—", every
    text escaped.

    >>> print(page_table_html(pd.DataFrame({"document": ["<b>"], "P": [1.25], "n": [3]}),
    ...                       caption="Rows 1–1 of 1.", label="Per document"))
    ... # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    <style>...</style><div class="ss-page-table-box"><div class="ss-page-table" role="region"
    tabindex="0" aria-label="Per document"><table><caption>Rows 1–1 of 1.</caption><thead><tr><th
    scope="col">document</th><th scope="col" class="n">P</th><th scope="col" class="n">n</th><th
    scope="col">above 1</th></tr></thead><tbody><tr><td>&lt;b&gt;</td><td class="n up">1.25</td><td
    class="n">3</td><td>↑ P</td></tr></tbody></table></div></div>
    """
    over_cols = set(above_one.score_columns(df))
    flags = above_one.above_one(df)
    marked = bool(flags.astype(bool).any())
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    head = "".join(f'<th scope="col"{_class("n" if n else "")}>{attr(c)}</th>'
                   for c, n in zip(df.columns, numeric, strict=True))
    if marked:
        head += '<th scope="col">above 1</th>'
    body = []
    for i, row in enumerate(df.itertuples(index=False)):
        cells = []
        for column, value, n in zip(df.columns, row, numeric, strict=True):
            up = column in over_cols and _above(value)
            cells.append(f'<td{_class("n" if n else "", "up" if up else "")}>{_text(value)}</td>')
        if marked:
            cells.append(f"<td>{attr(f'↑ {flags.iloc[i]}') if flags.iloc[i] else ''}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'{PAGE_TABLE_CSS}<div class="ss-page-table-box"><div class="ss-page-table" '
            f'role="region" tabindex="0" aria-label="{attr(label)}"><table><caption>'
            f"{attr(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}"
            "</tbody></table></div></div>")


def _class(*names: str) -> str:
    """`` class="..."`` of the non-empty ``names``, or nothing."""
    joined = " ".join(n for n in names if n)
    return f' class="{joined}"' if joined else ""



def _text(value: object) -> str:
    """One cell of :func:`page_table_html`: as :func:`_cell` shows it, escaped for HTML."""
    if isinstance(value, str):
        return attr(value)
    shown = _cell(value)
    return shown if isinstance(value, Real) or shown == "—" else attr(value)


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
