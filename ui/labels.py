"""Labels page helpers: cached label matrices, their tables, and the clickable heatmap.

The matrices and the evidence behind every cell come from :mod:`core.metrics.labels`; this
module only caches them (``ws_key`` / ``_ws`` convention of :mod:`ui.state`), lays them out as
tidy tables and draws them. The matrix is drawn at once at every corpus size: core counts it on
arrays (0.1 to 0.3 s CPU for 1M spans per set) and builds the span pairs of one cell, one
page of its table at a time, only when the user opens that cell (issue 29, target 3;
docs/performance.md). Plotly heatmap clicks never reach Streamlit (docs/dashboard.md), so
the heatmap is an Altair ``mark_rect`` with a point selection on the cell's (row, column),
written once as a Vega-Lite spec and rendered by ``st.vega_lite_chart(on_select="rerun")``;
:func:`clicked_cell` reads the event with item access, so AppTest can inject it.

Colours: label-by-label cells are blue, the cells of ``missed`` and ``spurious`` orange (errors,
not labels), those of ``optional (⊥)`` grey (gold spans MAFALDA lets go unpredicted, grey as on
the Documents page), each group scaled to its own maximum; the selected cell has a black frame.
Text reaches the chart as data (Vega draws it as text, never as HTML).
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from core.metrics.labels import BUCKETS, JOIN, OPTIONAL, Evidence, LabelMatrix
from core.model import NOTHING, Span
from core.model.errors import SpanScopeError
from core.render.highlight import span_items
from core.render.palette import OKABE_ITO
from ui import escape, levels, paging, plain, results, state
from ui.theme import theme_ink
from ui.widgets import download_buttons, safe_csv, set_pair

# ---- keys (this page's; the shared ones are in ui.state) ----------------------------------------
# View keys are bound to the URL; the level is state.K_LEVEL, the sets state.K_SET_A / K_SET_B.
K_LAB_VIEW = "lview"  # "confusion" | "within reference" | "within compared"
K_LAB_SCOPE = "lscope"  # co-occurrence scope: "span" | "overlap" | "text"
K_LAB_VALUES = "lvalues"  # "counts" | "row-normalised"
K_LAB_ALT = "lalt"  # gold alternatives in the confusion: "match" | "joined" | "each"
K_LAB_CELL = "lcell"  # URL: the selected (row, column) cell, as the selector names it
K_LAB_CHART = "lab_chart"  # the heatmap's selection state (st.vega_lite_chart key)
K_LAB_TABLE = "lab_table_open"  # the expander of the matrix as a table (lazy)
K_LAB_PAIRS = "lab_pairs"  # the span-pair table's row selection (st.dataframe key)
K_LAB_CLICKED = "lab_clicked"  # session: the last cell the heatmap reported (a new one wins)
K_LAB_OPENED = "lab_opened"  # session: (table key, row) of the last pair opened on Documents
K_LAB_PAIRS_PAGE = K_LAB_PAIRS + "_page"  # the page of the span-pair table
K_LAB_EMPTY_ROWS = "lempty"  # show the rows with no span (row total 0) in the heatmap (bound)
ROW_LABEL_PX = 190
"""Most pixels a row name takes beside the heatmap (longer ones end in "…", whole in the
tooltip): at 360 px the names of MAFALDA's alternatives ("appeal to (false) authority | appeal
to ridicule | …") filled a phone's first screen, its cells off to the right (tour 7 item 2)."""
WIDE_PX = 358 - ROW_LABEL_PX
"""A heatmap whose cells are wider than this scrolls sideways on a phone (a 358 px column
beside the row names): the page says so above it, as on a desktop where a wide matrix is cut
at the column's edge (tour 7 items 2 and 10)."""

VIEWS = ("confusion", "within reference", "within compared")
VIEW_HELP = {
    "confusion": "gold label × predicted label over overlapping spans, with missed and spurious",
    "within reference": "which labels occur together in the reference set",
    "within compared": "which labels occur together in the compared set",
}
SCOPES = ("span", "overlap", "text")
SCOPE_HELP = ("span: labels given to the same interval (MAFALDA's alternatives; its Figure 2). "
              "overlap: labels of spans that share a character. text: labels in the same "
              "document.")
VALUES = ("counts", "row-normalised")
ALTERNATIVES = ("match", "joined", "each")
ALT_HELP = ("How a gold span with alternative labels counts. match: under the predicted label "
            "when it is one of the alternatives (a hit), else under 'A | B'; joined: always "
            "under 'A | B'; each: once per alternative.")
CELL_PARAM = "cell"
"""Name of the heatmap's selection parameter (the key under ``event["selection"]``)."""

LABEL_BLUE = OKABE_ITO[4]  # Okabe–Ito blue
BUCKET_ORANGE = OKABE_ITO[5]  # Okabe–Ito vermillion
OPTIONAL_GREY = "#6c757d"

Cell = tuple[str, str]


@st.cache_resource(max_entries=4, show_spinner="Counting labels…")
def label_matrix(ws_key: str, _ws: state.Workspace, view: str, set_a: str, set_b: str,
                 scope: str, level: int, alternatives: str) -> LabelMatrix:
    """The matrix of ``view``: :func:`core.metrics.labels.confusion` of ``set_b`` against
    ``set_a``, or :func:`~core.metrics.labels.cooccurrence` within one of them. Labels are
    mapped with the taxonomy of both sets (:func:`ui.results.taxonomy_for`), so the three views
    name labels alike.

    A resource, not data: the matrix keeps the arrays its cells' evidence is built from
    (:class:`core.metrics.labels.CellEvidence`, 30 to 75 MB at 1M spans per set), which
    ``st.cache_data`` would copy on every rerun; what the page draws from it is cached as data
    (:func:`matrix_cells`, :func:`pair_page`). Few entries, for the same reason: counting again
    costs under half a second."""
    from core.metrics import labels as lab

    tax = results.taxonomy_for(_ws, set_a, set_b)
    if view == "confusion":
        return lab.confusion(_ws.sets[set_a], _ws.sets[set_b], level=level,
                             alternatives=alternatives, taxonomy=tax)
    name = set_a if view == "within reference" else set_b
    return lab.cooccurrence(_ws.sets[name], scope=scope, level=level, taxonomy=tax)


def md(text: str) -> str:
    """``text`` with Markdown's special characters escaped (set names and labels come from
    files; Streamlit's Markdown would otherwise format ``*`` or ``$``)."""
    return escape.md(text)


def is_bucket(name: str) -> bool:
    return name in BUCKETS


def shown(label: str) -> str:
    """A row or column name as displayed: ⊥ for ``nothing``, also inside joined alternatives.

    >>> shown("ad hominem | nothing"), shown("nothing"), shown("spurious")
    ('ad hominem | ⊥', '⊥ (nothing)', 'spurious')
    """
    if label == NOTHING:
        return "⊥ (nothing)"
    if JOIN in label:
        return JOIN.join("⊥" if part == NOTHING else part for part in label.split(JOIN))
    return label


def row_name(row: str, total: int) -> str:
    """A row as the heatmap's axis shows it: the label and its row total."""
    return f"{shown(row)} ({total:,})"


def cell_frame(m: LabelMatrix, values: str) -> pd.DataFrame:
    """Every cell of ``m`` with what the heatmap draws: ``value`` (count or row share),
    ``text``, ``group`` (label / error / optional), ``intensity`` (the value over its group's
    maximum), ``tone`` (where the colour scale puts it: label cells in [0, 1], missed and
    spurious in [-1, 0], optional in [-3, -2]) and ``row_name`` (label and row total)."""
    df = pd.DataFrame(m.cells(), columns=["row", "column", "count", "row_total", "frequency",
                                          "pairs"])
    df["bucket"] = df["row"].map(is_bucket) | df["column"].map(is_bucket)
    share = df["frequency"].astype(float).fillna(0.0)
    df["value"] = df["count"].astype(float) if values == "counts" else share
    df["group"] = ["optional" if c == OPTIONAL else "error" if b else "label"
                   for c, b in zip(df["column"], df["bucket"], strict=True)]
    top = df.groupby("group")["value"].transform("max")
    df["intensity"] = (df["value"] / top.where(top > 0, 1.0)).fillna(0.0)
    offset = {"label": 0.0, "error": 0.0, "optional": -2.0}
    sign = {"label": 1.0, "error": -1.0, "optional": -1.0}
    df["tone"] = [offset[g] + sign[g] * i for g, i in zip(df["group"], df["intensity"],
                                                          strict=True)]
    if values == "counts":
        df["text"] = [f"{n:,}" if n else "" for n in df["count"]]
    else:
        df["text"] = [f"{f:.0%}" if n else "" for f, n in zip(share, df["count"], strict=True)]
    df["share"] = [f"{f:.1%}" for f in share]
    df["row_name"] = [row_name(r, t) for r, t in zip(df["row"], df["row_total"], strict=True)]
    df["column_name"] = [shown(c) for c in df["column"]]
    return df


@st.cache_data(max_entries=64, show_spinner=False)
def matrix_cells(ws_key: str, _ws: state.Workspace, view: str, set_a: str, set_b: str,
                 scope: str, level: int, alternatives: str, values: str) -> pd.DataFrame:
    """:func:`cell_frame` of :func:`label_matrix`, cached (a warm rerun draws it as it is)."""
    m = label_matrix(ws_key, _ws, view, set_a, set_b, scope, level, alternatives)
    return cell_frame(m, values)


K_LAB_HEAT = "lab_heat"  # the horizontal container of the row names and the heatmap
K_LAB_ROWS = "lab_rows"  # the chart of the row names, pinned at the left
SCROLL_CSS = (f"<style>.st-key-{K_LAB_HEAT}{{overflow-x:auto;max-width:100%;flex-wrap:nowrap;"
              "gap:0}"
              f".st-key-{K_LAB_HEAT} > div{{flex:0 0 auto;width:max-content}}"
              f".st-key-{K_LAB_HEAT} > div:has(.st-key-{K_LAB_ROWS}){{order:-1;position:sticky;"
              "left:0;z-index:2}"
              f".stApp :has(.st-key-{K_LAB_HEAT}),.st-key-{K_LAB_HEAT},"
              f".st-key-{K_LAB_HEAT} > div:has(.st-key-{K_LAB_ROWS}){{background-color:inherit}}"
              ".lab-names{padding:0 6px 0 5px;font-size:11px;text-align:right}"
              ".lab-names-title{display:flex;align-items:flex-end;justify-content:flex-end;"
              "box-sizing:border-box;padding-bottom:8px;font-weight:600}"
              f".lab-name{{max-width:{ROW_LABEL_PX}px;white-space:nowrap;overflow:hidden;"
              "text-overflow:ellipsis}"
              f".lab-name-outcome{{color:{BUCKET_ORANGE};font-weight:700}}"
              "</style>")
"""Lets the heatmap scroll sideways inside its column (on a 390 px phone it was cut off) while
the row names stay in view: they are the page's own HTML (:func:`row_names`, a second Vega-Lite
chart before issue 29's fourteenth pass), drawn after the heatmap, shown before it and pinned at
the left edge of the scrolling row (CSS ``position: sticky``). The pinned names hide the cells
that pass under them with the page's own background, whatever the theme: the elements that hold
the heatmap, transparent otherwise, inherit it from the app's (no colour written here); the
names take the page's text colour, the outcome rows (missed, spurious) bold and orange as the
outcome columns' names are."""


HEATMAP_DATA = "cells"
"""Name of the heatmap's dataset in its Vega-Lite spec (:func:`heatmap`)."""


def heatmap(cells: pd.DataFrame, *, rows: Sequence[str], columns: Sequence[str],
            totals: Mapping[str, int], row_title: str, column_title: str,
            selected: Cell | None = None, ink: str = "#31333f") -> dict[str, Any]:
    """A clickable heatmap of ``cells`` (:func:`cell_frame`): one rect per cell, its value as
    text, the selection parameter :data:`CELL_PARAM` on the cell's (row, column). Returned as
    the Vega-Lite spec for ``st.vega_lite_chart``, its data the frame named
    :data:`HEATMAP_DATA`: Altair validates the whole chart when it writes the spec (60-80 ms at
    every page run when ``st.altair_chart`` converted it; :func:`heatmap_spec` writes it once).
    ``ink``: the colour of the labels that are no outcome column, the theme's text colour
    (:func:`theme_ink`; a fixed dark grey was unreadable on the dark theme, tour 4 item 4)."""
    df = cells.copy()
    df["selected"] = [(r, c) == selected for r, c in zip(df["row"], df["column"], strict=True)]
    df["row_display"] = [shown(r) for r in df["row"]]
    percent = cells["text"].str.endswith("%").any()
    size = 30 if len(columns) <= 16 or percent else 24
    # A cell is as wide as its longest number (six digits at 100,000 documents), so that the
    # numbers of neighbouring cells never run into each other.
    longest = int(cells["text"].str.len().max()) if len(cells) else 0
    cell_width = max(size, 7 * longest + 8)
    row_names = [row_name(r, totals.get(r, 0)) for r in rows]
    outcome, label_colour = _label_colours(rows, columns, totals, ink)
    top = _top_extent(columns)
    sel = alt.selection_point(name=CELL_PARAM, fields=["row", "column"], on="click")
    # The outcome columns (missed) first, beside the row labels: last, they were past the
    # right edge of an 800 px window and reached only by scrolling the chart sideways.
    x_order = [shown(c) for c in columns if is_bucket(c)] + [shown(c) for c in columns
                                                              if not is_bucket(c)]
    x = alt.X("column_name:N", sort=x_order, title=column_title,
              axis=alt.Axis(orient="top", labelAngle=-40, labelLimit=COLUMN_LABEL_PX,
                            labelFontSize=11, labelOverlap=False, titlePadding=10,
                            labelColor=label_colour, minExtent=top, maxExtent=top,
                            labelFontWeight=alt.expr(f"{outcome} ? 'bold' : 'normal'")))
    # The row names are the page's HTML, pinned beside this chart (row_names): here the rows
    # have neither labels nor an axis title (the title names the rows in each cell's
    # description for screen readers).
    y = alt.Y("row_name:N", sort=row_names, title=row_title,
              axis=alt.Axis(title=None, labels=False, ticks=False, domain=False, minExtent=0,
                            maxExtent=0))
    tooltip = [alt.Tooltip("row_display:N", title=row_title),
               alt.Tooltip("column_name:N", title=column_title),
               alt.Tooltip("count:Q", title="count"),
               alt.Tooltip("row_total:Q", title="row total"),
               alt.Tooltip("share:N", title="share of the row")]
    base = alt.Chart(alt.NamedData(name=HEATMAP_DATA)).encode(x=x, y=y)
    rect = base.mark_rect().encode(
        color=alt.condition(
            "datum.count == 0", alt.value("#ffffff"),
            alt.Color("tone:Q", legend=None,
                      scale=alt.Scale(domain=[-3, -2, -1, 0, 1], interpolate="rgb",
                                      range=[OPTIONAL_GREY, "#e9ecef", BUCKET_ORANGE,
                                             "#ffffff", LABEL_BLUE]))),
        stroke=alt.condition("datum.selected", alt.value("#111111"), alt.value("#e3e3e3")),
        strokeWidth=alt.condition("datum.selected", alt.value(3), alt.value(1)),
        tooltip=tooltip,
    ).add_params(sel)
    text = base.mark_text(fontSize=9 if percent else 10 if size < 30 else 11).encode(
        text="text:N",
        color=alt.condition("datum.intensity > 0.55", alt.value("white"),
                            alt.value("#222222")),
    )
    # "pad": the cells keep their size and the long axis labels are added around them (Streamlit
    # would otherwise "fit" labels and cells into the plot width).
    spec: dict[str, Any] = alt.layer(rect, text).properties(
        width=cell_width * len(columns), height=_row_px(rows, columns, bool(percent)),
        autosize=alt.AutoSizeParams(type="pad", contains="padding"),
        padding={"left": 0, "top": 5, "right": 5, "bottom": 5},
    ).configure_view(strokeWidth=0).to_dict()
    spec["datasets"] = {HEATMAP_DATA: df}  # Streamlit sends it as Arrow, as for Altair's data
    return spec


COLUMN_LABEL_PX = 230
"""Most pixels a column name takes above the heatmap (slanted; longer ones end in "…")."""


def _row_px(rows: Sequence[str], columns: Sequence[str], percent: bool) -> int:
    """The height of the heatmap's rows in pixels: one cell per row, 30 px each (24 px for
    more than 16 columns of counts)."""
    return (30 if len(columns) <= 16 or percent else 24) * len(rows)


def _top_extent(columns: Sequence[str]) -> int:
    """The room the slanted column names take above the cells, the same in the heatmap and
    in the pinned row names (:func:`row_names`), so that their rows line up: the longest name
    at about 6.5 px a character (11 px type), at most :data:`COLUMN_LABEL_PX`, slanted 40°,
    with the ticks and padding, for Vega's ``minExtent`` and ``maxExtent``."""
    longest = max((len(shown(c)) for c in columns), default=0)
    return math.ceil(min(COLUMN_LABEL_PX, 6.5 * longest) * math.sin(math.radians(40))
                     + 11 * math.cos(math.radians(40))) + 9


def _label_colours(rows: Sequence[str], columns: Sequence[str], totals: Mapping[str, int],
                   ink: str) -> tuple[str, Any]:
    """The test that a label is an outcome (missed, spurious: bold, orange) and the labels'
    colour expression (grey for ⊥, orange for outcomes, else ``ink``)."""
    bucket_names = [row_name(r, totals.get(r, 0)) for r in rows if is_bucket(r)]
    bucket_names += [shown(c) for c in columns if is_bucket(c)]
    outcome = f"indexof({json.dumps(bucket_names)}, datum.value) >= 0"
    optional = f"datum.value == {json.dumps(shown(OPTIONAL))}"
    return outcome, alt.expr(f"{optional} ? '{OPTIONAL_GREY}' : {outcome} ? '{BUCKET_ORANGE}' "
                             f": '{ink}'")


NAMES_TOP_PX = 28
"""What the heatmap has above its first row besides the slanted column names
(:func:`_top_extent`): Vega's padding (5 px), the column title's line (13 px, 11 px bold type)
and its padding (10 px). The row names (:func:`row_names`) start this much lower, so that each
is level with its cells (``tests/e2e/test_labels_browser.py`` measures it)."""


def row_names(cells: pd.DataFrame, *, rows: Sequence[str], columns: Sequence[str],
              totals: Mapping[str, int], row_title: str) -> str:
    """The heatmap's row names (each with its row total) and row title as the page's own HTML,
    drawn beside :func:`heatmap` and pinned there while a wide matrix scrolls sideways
    (:data:`SCROLL_CSS`): one line per row, as high as the heatmap's rows and starting as low
    as its first (:data:`NAMES_TOP_PX`), so that each name stays level with its cells; the row
    title in the corner above them, which the slanted column names leave free. Names longer
    than :data:`ROW_LABEL_PX` end in "…" (whole in their own title on hover and in the cells'
    tooltips); missed and spurious rows are bold and orange (:data:`BUCKET_ORANGE`), the
    other names in the page's text colour, whatever the theme. Text from files is escaped.

    HTML, not a second Vega-Lite view: the chart of the names cost the browser a Vega view
    (parsed, compiled and drawn) on every visit of the page (docs/performance.md, issue 29,
    fourteenth pass)."""
    percent = bool(cells["text"].str.endswith("%").any())
    height = _row_px(rows, columns, percent) // max(len(rows), 1)
    top = _top_extent(columns) + NAMES_TOP_PX
    title = html.escape(row_title)
    lines = [f'<div class="lab-names"><div class="lab-names-title" style="height:{top}px">'
             f'{title}</div><div role="list" aria-label="{title}">']
    for r in rows:
        name = html.escape(row_name(r, totals.get(r, 0)))
        kind = " lab-name-outcome" if is_bucket(r) else ""
        lines.append(f'<div class="lab-name{kind}" role="listitem" title="{name}" '
                     f'style="height:{height}px;line-height:{height}px">{name}</div>')
    lines.append("</div></div>")
    return "".join(lines)


@st.cache_data(max_entries=64, show_spinner=False)
def heatmap_spec(ws_key: str, c: Choice, selected: Cell | None, _cells: pd.DataFrame,
                 _m: LabelMatrix, row_title: str, column_title: str,
                 ink: str = "#31333f", rows: tuple[str, ...] = ()) -> dict[str, Any]:
    """:func:`heatmap` of :func:`matrix_cells` (``_cells``) and :func:`label_matrix`
    (``_m``) of the choice ``c``, written once per choice and selected cell: a warm page run
    or revisit sends the spec as it is (docs/performance.md, issue 29, seventh pass).
    ``rows``: the rows drawn (:func:`shown_rows`), part of the cache key."""
    del rows  # the cache key: _m holds them
    return heatmap(_cells, rows=_m.rows, columns=_m.columns, totals=_m.row_totals,
                   row_title=row_title, column_title=column_title, selected=selected, ink=ink)


@st.cache_data(max_entries=64, show_spinner=False)
def row_names_spec(ws_key: str, c: Choice, _cells: pd.DataFrame, _m: LabelMatrix,
                   row_title: str, rows: tuple[str, ...] = ()) -> str:
    """:func:`row_names` of the choice ``c``, written once per choice (as
    :func:`heatmap_spec`); ``rows``: the rows drawn, part of the cache key."""
    del rows  # the cache key: _m holds them
    return row_names(_cells, rows=_m.rows, columns=_m.columns, totals=_m.row_totals,
                     row_title=row_title)


def shown_rows(m: LabelMatrix, cells: pd.DataFrame, empty_rows: bool,
               selected: Cell | None = None) -> tuple[LabelMatrix, pd.DataFrame, list[str]]:
    """The matrix and its cells without the rows whose total is 0 (unless ``empty_rows``, or the
    selected cell is in one); the hidden rows' names. ``appeal to pity (0)``, ``unknown (0)``
    and ``⊥ (nothing) (0)`` rows cluttered MAFALDA's confusion (tour 7 item 10)."""
    if empty_rows:
        return m, cells, []
    keep = [r for r in m.rows if m.row_totals.get(r, 0) or (selected and selected[0] == r)]
    hidden = [r for r in m.rows if r not in keep]
    if not hidden or not keep:
        return m, cells, []
    return dataclasses.replace(m, rows=tuple(keep)), cells[cells["row"].isin(keep)], hidden


def clicked_cell(event: Any) -> Cell | None:
    """The (row, column) the heatmap's selection holds, or None.

    Streamlit returns a point selection as a list of the selected data's fields,
    ``{"selection": {"cell": [{"row": ..., "column": ...}]}}``.
    """
    try:
        points = event["selection"][CELL_PARAM]
    except (KeyError, TypeError):
        return None
    if isinstance(points, Mapping):  # some versions give {field: [values]}
        rows, cols = points.get("row"), points.get("column")
        if rows and cols:
            return (str(rows[0]), str(cols[0])) if isinstance(rows, list) else (str(rows),
                                                                                 str(cols))
        return None
    if not points:
        return None
    point = points[0]
    if "row" in point and "column" in point:
        return (str(point["row"]), str(point["column"]))
    return None


def cell_option(m: LabelMatrix, cell: Cell | None) -> str:
    """How the cell selector shows a cell, and the URL names it: row → column. No counts: the
    selector is bound to the URL (``?lcell=``), where a name must stay the same in every view
    and level; the chosen cell's count is shown below it."""
    if cell is None:
        return "— choose a cell —"
    row, column = cell
    return f"{shown(row)} → {shown(column)}"


def cell_options(m: LabelMatrix) -> list[Cell]:
    """The non-empty cells, most counts first."""
    return sorted(m.counts, key=lambda c: (-m.counts[c], c))


# ---- the evidence behind a cell ------------------------------------------------------------


def sides(view: str) -> tuple[str, str, str]:
    """Names of the row side, the column side and the overlap column of the pair table."""
    if view == "confusion":
        return "gold", "predicted", "|s∩t|"
    return "row label", "column label", "shared chars"


def _labels_text(spans: Sequence[Span]) -> str:
    labels = list(dict.fromkeys(s.label for s in spans))
    return JOIN.join("⊥" if lab == NOTHING else lab for lab in labels)


def _span_text(spans: Sequence[Span], alternatives: bool) -> str:
    if not spans:
        return ""
    if alternatives:  # one gold span, one interval, several labels
        return f"[{spans[0].start}, {spans[0].end}) {_labels_text(spans)}"
    return "; ".join(f"[{s.start}, {s.end}) {_labels_text([s])}" for s in spans)


def _fragment(text: str | None, spans: Sequence[Span], limit: int = 60) -> str:
    if text is None or not spans:
        return ""
    parts = []
    for s in dict.fromkeys((s.start, s.end) for s in spans):
        piece = " ".join(text[s[0]:s[1]].split())
        parts.append(piece if len(piece) <= limit else piece[: limit - 1] + "…")
    return " / ".join(parts)


def _ids(ws: state.Workspace, set_name: str, doc: str, prefix: str,
         cache: dict[tuple[str, str], dict[tuple[int, int], list[tuple[str, tuple[str, ...]]]]],
         spans: Sequence[Span]) -> str:
    """Ids of ``spans`` as the Documents page numbers them (``G3``, ``P1``)."""
    key = (set_name, doc)
    if key not in cache:
        by_interval: dict[tuple[int, int], list[tuple[str, tuple[str, ...]]]] = {}
        for item in span_items(ws.sets[set_name], doc, prefix):
            by_interval.setdefault(item.interval, []).append((item.id, item.labels))
        cache[key] = by_interval
    out: list[str] = []
    for s in spans:
        found = cache[key].get(s.interval, [])
        exact = [i for i, labels in found
                 if s.label.lower() in {lab.lower() for lab in labels}]
        out.extend(exact or [i for i, _ in found])
    return ", ".join(dict.fromkeys(out))


def pair_sets(view: str, set_a: str, set_b: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """(set, id prefix) of the row side and of the column side."""
    if view == "confusion":
        return (set_a, "G"), (set_b, "P")
    if view == "within reference":
        return (set_a, "G"), (set_a, "G")
    return (set_b, "P"), (set_b, "P")


def pairs_key(view: str, set_a: str, set_b: str, scope: str, level: int, alternatives: str,
              cell: Cell, page: int) -> str:
    """Key of the pair table: one per view, cell and page, so that a row selected in one list
    is never taken for a row of another."""
    digest = hashlib.sha1(repr((view, set_a, set_b, scope, level, alternatives, cell, page))
                          .encode()).hexdigest()[:12]
    return f"{K_LAB_PAIRS}:{digest}"


def pair_frame(ws: state.Workspace, m: LabelMatrix, evidence: Sequence[Evidence], *, view: str,
               set_a: str, set_b: str) -> pd.DataFrame:
    """One row per piece of evidence: document, each side's span ids, spans and text, and the
    characters they share (as core computed them)."""
    left, right, shared = sides(view)
    (row_set, row_prefix), (col_set, col_prefix) = pair_sets(view, set_a, set_b)
    alternatives = view == "confusion"
    cache: dict[tuple[str, str], dict[tuple[int, int], list[tuple[str, tuple[str, ...]]]]] = {}
    records = []
    for e in evidence:
        text = ws.corpus.texts.get(e.document)
        records.append({
            "document": e.document,
            f"{left} id": _ids(ws, row_set, e.document, row_prefix, cache, e.row),
            f"{left} span": _span_text(e.row, alternatives),
            f"{left} text": _fragment(text, e.row),
            f"{right} id": _ids(ws, col_set, e.document, col_prefix, cache, e.column),
            f"{right} span": _span_text(e.column, False),
            f"{right} text": _fragment(text, e.column),
            shared: e.overlap,
        })
    columns = ["document", f"{left} id", f"{left} span", f"{left} text", f"{right} id",
               f"{right} span", f"{right} text", shared]
    return pd.DataFrame(records, columns=columns)


@st.cache_data(max_entries=64, show_spinner=False)
def pair_page(ws_key: str, _ws: state.Workspace, view: str, set_a: str, set_b: str,
              scope: str, level: int, alternatives: str, row: str, column: str, page: int
              ) -> pd.DataFrame:
    """:func:`pair_frame` of one page of cell (row, column) of :func:`label_matrix`, cached:
    only the evidence of that page is built (a cell of 100,000 documents can list hundreds of
    thousands of pairs)."""
    m = label_matrix(ws_key, _ws, view, set_a, set_b, scope, level, alternatives)
    start, stop = paging.page_bounds(page, m.pairs(row, column))
    return pair_frame(_ws, m, m.evidence_part(row, column, slice(start, stop)), view=view,
                      set_a=set_a, set_b=set_b)


def pair_table(ws: state.Workspace, c: Choice, cell: Cell) -> pd.DataFrame:
    """:func:`pair_frame` of every pair of ``cell`` (for the downloads: built when asked)."""
    m = label_matrix(ws.key, ws, c.view, c.set_a, c.set_b, c.scope, c.level, c.alternatives)
    return pair_frame(ws, m, m.evidence.get(cell, ()), view=c.view, set_a=c.set_a,
                      set_b=c.set_b)


def matrix_wide(m: LabelMatrix, cells: pd.DataFrame) -> pd.DataFrame:
    """The matrix as a wide table of the shown values (rows × columns, row total last)."""
    wide = cells.pivot(index="row", columns="column", values="value")
    wide = wide.reindex(index=list(m.rows), columns=list(m.columns))
    wide["row total"] = [m.row_totals.get(r, 0) for r in m.rows]
    wide.index.name = "row"
    return wide.reset_index()


# ---- the page's sections, in the order pages/labels.py draws them -------------------------------


@dataclass(frozen=True)
class Choice:
    """The sets, level and view chosen, and how the view counts."""

    set_a: str
    set_b: str
    level: int
    view: str
    scope: str
    alternatives: str
    values: str
    gold_alternatives: bool


def choose(ws: state.Workspace) -> Choice:
    """The sets, the level, the view and its counting options."""
    if len(ws.sets) < 2:  # one set: not compared with itself (tour 4, finding 7)
        st.info("Labels need a reference set and at least one other set.", icon="ℹ️")
        st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
        st.stop()
    c1, c2, c3 = st.columns([2, 2, 1])
    set_a, set_b = set_pair(ws, c1, c2, "Reference (gold)", "Compared")
    level = levels.level_select(c3, ws, set_a, set_b, label="Level",
                                help="2: the labels as annotated; 1: MAFALDA's groups (emotion, "
                                "logic, credibility); 0: fallacy or not.")
    v1, v2, v3 = st.columns([3, 3, 2])
    view = v1.radio("View", VIEWS, key=K_LAB_VIEW, bind="query-params",
                    captions=[VIEW_HELP[v] for v in VIEWS])
    gold = ws.sets[set_a]
    scope, alternatives = "span", "match"
    if view == "confusion":
        if gold.alternatives:
            alternatives = v2.radio("Gold alternatives count", ALTERNATIVES, key=K_LAB_ALT,
                                    bind="query-params", help=ALT_HELP, horizontal=True)
        else:
            v2.caption(f"{md(set_a)} has one label per span: every gold span is one row "
                       "entry per overlapping prediction, or one in *missed*.")
    else:
        scope = v2.radio("Together means", SCOPES, key=K_LAB_SCOPE, bind="query-params",
                         help=SCOPE_HELP, horizontal=True)
    values = v3.radio("Values", VALUES, key=K_LAB_VALUES, bind="query-params",
                      horizontal=True, help="row-normalised: each cell divided by its row total "
                      "(shown in brackets after the row label).")
    return Choice(set_a, set_b, int(level), view, scope, alternatives, values,
                  gold.alternatives)


def matrix(ws: state.Workspace, c: Choice) -> LabelMatrix:
    """The label matrix of the choice, and which taxonomy maps its labels; stops on an input
    the matrix refuses."""
    try:
        m = label_matrix(ws.key, ws, c.view, c.set_a, c.set_b, c.scope, c.level,
                         c.alternatives)
    except SpanScopeError as exc:
        st.error(escape.md(exc), icon="❌")
        st.stop()
    if m.taxonomy == "MAFALDA":
        if c.level != 2:
            st.caption(f"Level {c.level}: labels mapped with MAFALDA's taxonomy "
                       f"({'emotion / logic / credibility' if c.level == 1 else 'fallacy or not'}"
                       "); ⊥ stays *nothing*.")
    elif levels.has_levels(ws, c.set_a, c.set_b):  # said only where a level control is shown
        merged = {2: "levels 1 and 0 use a flat taxonomy (one class per label)",
                  1: "a flat taxonomy is used (one class per label), so level 1 equals level 2",
                  0: "a flat taxonomy is used, and level 0 merges every label into one class, "
                     "*fallacy*"}[c.level]
        st.caption(f"These labels are not MAFALDA's: {merged}.")
    return m


_WITHIN_HELP = {
    "span": "A cell counts the intervals that carry both the row and the column label (for "
            "MAFALDA gold: a span's alternatives, as in the paper's Figure 2); the row total "
            "in brackets counts the intervals carrying the row label. The diagonal is empty "
            "by construction.",
    "overlap": "A cell counts the spans of the row label that overlap at least one span of "
               "the column label; the row total in brackets counts the spans of the row "
               "label. The diagonal counts spans that overlap another span of their label.",
    "text": "A cell counts the documents holding both labels; the row total in brackets "
            "counts the documents holding the row label. The diagonal is empty by "
            "construction.",
}


WIDE_NOTE = ("↔️ Wider than the page, the matrix scrolls sideways (swipe it, or Shift + wheel); a "
             "cell's tooltip names its row and column.")
"""Said under the heading's caption when the heatmap's cells are wider than the page."""


def _heading(c: Choice) -> tuple[str, str, str]:
    """The heatmap's heading; returns its caption (drawn by :func:`heatmap_view`, with the
    note on a wide matrix in the same element), its row and column titles."""
    if c.view == "confusion":
        st.header(f"{md(c.set_a)} (rows) against {md(c.set_b)} (columns)")
        optional_note = (" (in *optional (⊥)* when ⊥ is one of its alternatives: MAFALDA does "
                         "not require it)" if c.gold_alternatives else "")
        return ("Each overlapping (gold, predicted) span pair counts once in (gold label, "
                "predicted label); a gold span no prediction overlaps counts in *missed*"
                f"{optional_note}, a prediction no gold span overlaps in *spurious*. The "
                "diagonal is agreement. Row totals in brackets.",
                f"gold label in {c.set_a}", f"predicted label in {c.set_b}")
    in_set = c.set_a if c.view == "within reference" else c.set_b
    st.header(f"Labels together within {md(in_set)} (scope: {c.scope})")
    return _WITHIN_HELP[c.scope], f"label in {in_set}", "occurring with"


def _cell_choices(m: LabelMatrix) -> list[Cell | None]:
    """The cell selector's options; a cell clicked on the heatmap becomes the selected one."""
    grid = {(r, c) for r in m.rows for c in m.columns}
    # A click on the heatmap selects its cell; the selector below is the keyboard way to it.
    clicked = clicked_cell(st.session_state.get(K_LAB_CHART))
    if clicked != st.session_state.get(K_LAB_CLICKED):
        st.session_state[K_LAB_CLICKED] = clicked
        if clicked in grid:
            st.session_state[K_LAB_CELL] = clicked
    options: list[Cell | None] = [None, *cell_options(m)]
    current = st.session_state.get(K_LAB_CELL)
    if current is not None and current not in options:
        if current in grid:
            options.append(current)  # an empty cell that was clicked
        else:
            st.session_state[K_LAB_CELL] = None  # left over from another view
    return options


def heatmap_view(ws: state.Workspace, c: Choice, m: LabelMatrix) -> list[Cell | None]:
    """The heatmap (a click selects a cell) and the matrix as a table; stops when there is
    nothing to count. Returns the options of the cell selector."""
    caption, row_title, column_title = _heading(c)
    if all(is_bucket(r) for r in m.rows):
        st.caption(caption)
        st.info("No spans to count in this view.", icon="ℹ️")
        st.stop()
    cells = matrix_cells(ws.key, ws, c.view, c.set_a, c.set_b, c.scope, c.level, c.alternatives,
                         c.values)
    options = _cell_choices(m)
    selected = st.session_state.get(K_LAB_CELL)
    empty_rows = bool(st.session_state.get(K_LAB_EMPTY_ROWS, False))
    drawn, drawn_cells, hidden = shown_rows(m, cells, empty_rows, selected)
    spec = heatmap_spec(ws.key, c, selected, drawn_cells, drawn, row_title, column_title,
                        theme_ink(), tuple(drawn.rows))
    # One element: what a cell counts, and that a wide matrix scrolls (each element is mounted
    # again on every visit of the page, docs/performance.md, issue 29, thirteenth pass).
    st.caption(caption + (f"\n\n{WIDE_NOTE}" if _cells_px(spec) > WIDE_PX else ""))
    if hidden or empty_rows:
        st.toggle(f"Rows without spans ({len(hidden) if hidden else _empty_count(m)})",
                  key=K_LAB_EMPTY_ROWS, bind="query-params",
                  help="Show the rows whose total is 0 (" + ", ".join(
                      shown(r) for r in (hidden or _empty_rows(m))[:6])
                  + (", …" if len(hidden or _empty_rows(m)) > 6 else "") + ").")
    names = row_names_spec(ws.key, c, drawn_cells, drawn, row_title, tuple(drawn.rows))
    # The cells keep their size, so a matrix wider than a phone scrolls sideways instead of
    # being cut; the row names, drawn after the cells (the first chart of the page stays the
    # heatmap) and shown before them, stay pinned at the left.
    st.html(SCROLL_CSS)
    with st.container(horizontal=True, key=K_LAB_HEAT, gap=None):
        st.vega_lite_chart(spec, on_select="rerun", selection_mode=CELL_PARAM, key=K_LAB_CHART,
                           width="content", theme=None)
        with st.container(key=K_LAB_ROWS, width="content"):  # the CSS finds it by its key
            st.html(names)
    if c.view == "confusion":
        grey = ("; grey: optional (⊥) gold spans left unpredicted, not an error for MAFALDA"
                if c.gold_alternatives else "")
        plain.caption(f"Blue: label against label; orange: missed and spurious spans{grey}. "
                      "Click a cell to list its spans.")
    else:
        plain.caption("Click a cell to list its spans.")
    # Lazy: a closed expander draws nothing (a data grid rebuilt on every visit and widget
    # change, docs/performance.md, issue 29).
    table = st.expander("The matrix as a table", key=K_LAB_TABLE, on_change="rerun")
    if table.open:
        with table:
            wide = matrix_wide(m, cells)
            st.dataframe(wide, hide_index=True, key="lab_matrix_table", placeholder="—")
            tidy = cells[["row", "column", "count", "row_total", "frequency", "pairs"]]
            download_buttons(tidy, f"labels_{c.view.replace(' ', '_')}_level{c.level}",
                             key="dl_lab_matrix")
    return options


def _empty_rows(m: LabelMatrix) -> list[str]:
    return [r for r in m.rows if not m.row_totals.get(r, 0)]


def _empty_count(m: LabelMatrix) -> int:
    return len(_empty_rows(m))


def _cells_px(spec: Mapping[str, Any]) -> int:
    """The width of the heatmap's cells in pixels (its spec's width)."""
    return int(spec.get("width") or 0)


def _open_pair(c: Choice, record: pd.Series, marker: tuple[str, int]) -> None:
    """Open a picked pair's document on the Documents page (once per pick)."""
    if st.session_state.get(K_LAB_OPENED) == marker:
        return
    st.session_state[K_LAB_OPENED] = marker
    left_id, right_id = str(record.iloc[1]), str(record.iloc[4])
    span_id = (left_id or right_id).split(",")[0].strip()
    if span_id:
        st.session_state[state.K_SPAN] = span_id
    # The sets travel in the session (K_SET_A / K_SET_B are the Documents page's keys too);
    # switch_page may not set query parameters bound to this page's widgets.
    st.session_state[state.K_DOC] = str(record["document"])
    st.switch_page("pages/documents.py", query_params={state.K_DOC: str(record["document"])})


def _page(n_rows: int) -> int:
    """The page of the pair table chosen with a number input shown when there is more than one,
    with the "rows 51–100 of 6,475" caption (:func:`ui.widgets.paginate`, for a table whose
    rows are built a page at a time)."""
    pages = paging.page_count(n_rows)
    if pages == 1:
        return 1
    if int(st.session_state.get(K_LAB_PAIRS_PAGE) or 1) > pages:
        del st.session_state[K_LAB_PAIRS_PAGE]  # a shorter list now (another cell): page 1
    page = int(st.number_input(f"Page (of {pages:,}, {paging.PAGE_SIZE} rows each)",
                               min_value=1, max_value=pages, value=1, step=1,
                               key=K_LAB_PAIRS_PAGE))
    st.caption(paging.rows_caption(page, n_rows))
    return page


def _pairs_download(ws: state.Workspace, c: Choice, cell: Cell) -> None:
    """CSV and JSON of every pair of ``cell``, built when a button is clicked (the table shows
    one page; :func:`ui.widgets.download_buttons` for a table not built yet)."""
    row = st.container(horizontal=True, gap="small")
    row.download_button("⬇️ CSV", lambda: safe_csv(pair_table(ws, c, cell)),
                        file_name="label_pairs.csv", mime="text/csv", key="dl_lab_pairs_csv",
                        on_click="ignore")
    row.download_button(
        "⬇️ JSON", lambda: pair_table(ws, c, cell).to_json(orient="records", indent=1,
                                                           force_ascii=False),
        file_name="label_pairs.json", mime="application/json", key="dl_lab_pairs_json",
        on_click="ignore")


def spans_behind(ws: state.Workspace, c: Choice, m: LabelMatrix,
                 options: list[Cell | None]) -> None:
    """The span pairs counted in the chosen cell; a picked row opens its document."""
    st.header("Spans behind a cell")
    # Bound to the URL like the view's widgets: a choice replaces the page's history entry
    # (Back leaves the page), and a link or Back from a pair's document restores the cell.
    cell = st.selectbox("Cell (or click the heatmap)", options, key=K_LAB_CELL,
                        format_func=lambda x: cell_option(m, x),
                        placeholder=cell_option(m, None), bind="query-params")
    if cell is None:
        plain.caption("Choose a cell above, or click one in the heatmap.")
        st.stop()
    row, column = cell
    count, total = m.count(row, column), m.row_totals.get(row, 0)
    listed = m.pairs(row, column)
    share = f" ({count / total:.0%} of the row)" if total else ""
    st.markdown(f"**{count:,}** of **{total:,}**{share}; {listed:,} span pair(s) listed.",
                help="For co-occurrence in the overlap and text scopes one row-label span or "
                     "document can form several pairs, so the list may be longer than the "
                     "count.")
    if not listed:
        st.caption("Nothing was counted in this cell.")
        st.stop()
    page = _page(listed)
    shown_rows = pair_page(ws.key, ws, c.view, c.set_a, c.set_b, c.scope, c.level,
                           c.alternatives, row, column, page)
    table_key = pairs_key(c.view, c.set_a, c.set_b, c.scope, c.level, c.alternatives, cell, page)
    text_columns = [col for col in shown_rows.columns if col.endswith(" text")]
    picked = st.dataframe(shown_rows, hide_index=True, on_select="rerun",
                          selection_mode="single-row", key=table_key,
                          column_config={col: st.column_config.TextColumn(width="medium")
                                         for col in text_columns}, placeholder="—")
    plain.caption("Select a row to open its document on the Documents page, with both sets "
                  "and the gold span selected.")
    _pairs_download(ws, c, cell)
    rows_picked = picked["selection"]["rows"]
    if rows_picked:
        record = shown_rows.iloc[rows_picked[0]]
        _open_pair(c, record, (table_key, rows_picked[0]))
        st.page_link("pages/documents.py", label=f"Open document {escape.md(record['document'])}",
                     icon="📄", query_params={state.K_DOC: str(record["document"]),
                                             state.K_SET_A: c.set_a, state.K_SET_B: c.set_b})
