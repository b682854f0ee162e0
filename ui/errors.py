"""Errors page helpers: cached error tables and slices, their figures, and the Documents filter.

Numbers come from :mod:`core.analysis.errors` (categories) and :mod:`core.analysis.slices`
(scores per bucket); this module caches them under the ``ws_key`` / ``_ws`` convention of
:mod:`ui.state`, lays them out as tidy tables and draws them. Colours are Okabe & Ito's (2008)
colour-blind-safe palette, and each category and each system also has a fill pattern and a
text label, so colour is never the only cue.

Charts: the modebar camera saves the chart as PNG or SVG (a control above it picks which), drawn
by the browser with Plotly's own export (:func:`ui.widgets.chart_image`), offline and at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots
from streamlit.errors import StreamlitPageNotFoundError

from core.analysis.errors import (
    CATEGORIES,
    ERRORS,
    JOIN,
    PREDICTION_CATEGORIES,
    REFERENCE_CATEGORIES,
    SIDES,
    ErrorTable,
    categorise,
)
from core.analysis.slices import (
    META_PREFIX,
    META_RULE,
    SPAN_DIMENSIONS,
    Metadata,
    dimensions,
    meta_plan,
    parse_meta_bytes,
)
from core.analysis.slices import METRICS as SLICE_METRICS
from core.metrics import registry
from core.metrics.labels import level_namer
from core.model import NOTHING
from core.model.errors import FormatError, SpanScopeError
from core.render.highlight import MARK_BACKGROUND, SpanItem
from core.render.html import esc
from core.render.palette import (
    ERROR_COLOURS,
    ERROR_MARKS,
    FILL_PATTERNS,
    OKABE_ITO,
    STATUS_TEXT,
)
from ui import above_one, jobs, levels, paging, plain, results, state
from ui.escape import md, plot
from ui.role_words import set_noun
from ui.set_names import full_name_help
from ui.small_table import page_table_html
from ui.theme import EITHER_GREY, theme_ink
from ui.widgets import asked_for, chart_image, download_buttons, paginate

# ---- keys (Errors page; the Documents filters are bound to the URL on the Documents page) -------
K_ERR_CATEGORY = "ecat"  # Documents: show documents with a span of this category
K_ERR_LABEL = "elabel"  # Documents: ... and of this label
K_ERR_DIM = "edim"  # Errors: slice dimension (bound)
K_ERR_METRIC = "emetric"  # Errors: span metric of the slices (bound)
K_ERR_MEASURE = "emeasure"  # Errors: P, R or F1 in the slice chart (bound)
K_ERR_VIEW = "eview"  # Errors: all spans or errors only in the category charts (bound)
K_ERR_SCALE = "escale"  # Errors: counts or share in the category chart (bound)
GROUPINGS = ("each", "joined")
"""How the per-label chart and table count a span that offers alternatives (MAFALDA): under
each of its labels, or under the alternatives joined (``A | B``), as read."""
LABEL_COLUMNS = ["system", "label", "side", "category", "count"]
LABELS_PER_PAGE = 15
"""Labels per page of the per-label chart (the biggest first): 50 labels in one chart are
bars too thin to read, on a phone most of all."""
K_ERR_GROUPING = "egroup"  # Errors: each label or the alternatives joined (bound)
K_ERR_LOG = "elog"  # Errors: the per-label chart's log count axis
FILTER_AUTO_DOCS = 2000
"""Above this many documents what costs a pass over the whole corpus beyond the error categories
waits for a toggle: the Documents page's error filters, the Errors page's SemEval-2013 schemas,
list of the spans of one category and bootstrapped slices."""
K_ERR_CHART = "err_chart"  # selection state of the category chart
K_ERR_LABEL_CHART = "err_label_chart"  # selection state of the per-label chart
K_ERR_SLICE_CHART = "err_slice_chart"  # selection state of the slice chart
K_ERR_TABLE = "err_table"  # the category table's container
K_ERR_SCHEMAS_OPEN = "err_schemas_open"  # the SemEval-2013 schemas' expander is open
K_ERR_META = "err_meta"  # metadata CSV uploader
K_ERR_OPENED = "err_opened"  # session: the last selection that opened the Documents page
K_ERR_PENDING = "err_pending"  # session: what a callback could not open at once (follow_link)
K_ERR_TAB = "etab"  # the open tab (bound)
ALL = "(all)"
TABS = ("📊 Categories", "📈 Category chart", "🏷️ Per label", "📋 Spans of one category",
        "🧩 Slices and report")
"""The page's tabs below the reference and level; only the open one is drawn (``st.tabs`` with
``on_change="rerun"``), so that a return to the page redraws the category table, not the
charts, the per-label table, the span list and the slices' widgets too (docs/performance.md,
"Issue 29, sixth pass"; the category chart has its own tab since the seventh pass: it was a
quarter of the browser's work in a return to the page)."""

_FILL_PATTERNS = {"correct": "", "label": "/", "boundary": "\\", "boundary+label": "x",
                  "missed": "-", "spurious": "|", "optional": "."}
CATEGORY_STYLE: dict[str, tuple[str, str, str]] = {
    # category: (colour, plotly fill pattern, short mark shown on the text)
    cat: (colour, _FILL_PATTERNS[cat], ERROR_MARKS[cat]) for cat, colour in ERROR_COLOURS.items()
}
CATEGORY_HELP = {
    "correct": "same boundaries, same label",
    "label": "same boundaries, another label",
    "boundary": "overlap with other boundaries, same label",
    "boundary+label": "overlap with other boundaries, another label",
    "missed": "a reference span no prediction overlaps",
    "spurious": "a prediction that overlaps no reference span",
    "optional": "a reference span offering ⊥ that nothing overlaps: not an error",
}
SYSTEM_PATTERNS = FILL_PATTERNS  # a system's second cue next to its colour
MEASURES = ("F1", "P", "R")
DIMENSION_NAMES = {
    "span_length": "span length (characters)", "label": "label",
    "label_frequency": "label frequency in the reference", "position": "position in the document",
    "doc_length": "document length (characters)",
    "reference_spans": "reference spans in the document",
}
_LAYOUT = dict(template="plotly_white", margin=dict(l=10, r=10, t=70, b=10),
               legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"))


# ---- cached computations ------------------------------------------------------------------------


@st.cache_resource(max_entries=64, show_spinner="Categorising spans…")
def error_table(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int
                ) -> tuple[ErrorTable | None, str | None]:
    """:func:`core.analysis.errors.categorise` of ``system`` against ``ref`` (or the error)."""
    try:
        return categorise(_ws.sets[ref], _ws.sets[system], level=level,
                          taxonomy=results.taxonomy_for(_ws, ref, system)), None
    except SpanScopeError as exc:
        return None, str(exc)


@st.cache_data(max_entries=32, show_spinner=False)
def category_frame(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
                   level: int) -> pd.DataFrame:
    """One row per system and category: reference and prediction counts (None: n/a)."""
    rows = []
    for system in systems:
        table, error = error_table(ws_key, _ws, ref, system, level)
        if table is None:
            rows.append({"system": system, "category": "error", "reference": None,
                         "prediction": None, "note": error})
            continue
        for r in table.table():
            rows.append({"system": system, **r, "note": CATEGORY_HELP[r["category"]]})
    return pd.DataFrame(rows, columns=["system", "category", "reference", "prediction", "note"])


@st.cache_data(max_entries=32, show_spinner=False)
def category_documents(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int
                       ) -> dict[str, int]:
    """Error category -> how many documents hold a span of it (for the links to Documents)."""
    table, _ = error_table(ws_key, _ws, ref, system, level)
    if table is None:
        return {}
    # One pass over the spans: which (category, document) pairs occur (0.006 s for 2,000,000
    # spans; a ``documents_with`` per category took 0.13-0.15 s for the five).
    c = table.columns
    held = np.zeros((len(CATEGORIES), len(table.documents)), dtype=bool)
    held[c.category, c.doc] = True
    per = held.sum(axis=1)
    return {cat: int(per[CATEGORIES.index(cat)]) for cat in ERRORS}


@st.cache_resource(max_entries=32, show_spinner=False)
def category_figure(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
                    level: int, view: str, scale: str) -> go.Figure:
    """:func:`category_chart` of the page's table, kept per view: building it cost about 40 ms
    of every rerun under cProfile (most of it Plotly's template copy). The chart element sends
    a copy, so the kept figure never changes."""
    return category_chart(_compared(category_frame(ws_key, _ws, ref, systems, level)),
                          view=view, scale=scale)


@st.cache_data(max_entries=32, show_spinner=False)
def label_frame(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
                level: int) -> pd.DataFrame:
    """One row per system, label, side and category with its count (zeros left out)."""
    rows: list[dict[str, Any]] = []
    for system in systems:
        table, _ = error_table(ws_key, _ws, ref, system, level)
        if table is None:
            continue
        rows.extend({"system": system, **r} for r in table.per_label_rows() if r["count"])
    return pd.DataFrame(rows, columns=LABEL_COLUMNS)


@st.cache_resource(max_entries=32, show_spinner=False)
def label_figure(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
                 level: int, view: str, grouping: str = GROUPINGS[0],
                 labels: tuple[str, ...] | None = None, log: bool = False) -> go.Figure:
    """:func:`label_chart` of :func:`label_frame` under ``grouping``, kept per view and page
    of labels (the chart element sends a copy): building it took 100-250 ms of every rerun of
    the page under cProfile."""
    return label_chart(grouped_labels(label_frame(ws_key, _ws, ref, systems, level), grouping),
                       systems, view=view, labels=labels, log=log)


@st.cache_data(max_entries=32, show_spinner=False)
def label_wide(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
               level: int, grouping: str = GROUPINGS[0]) -> pd.DataFrame:
    """:func:`label_frame` under ``grouping`` with one column per category (the per-label
    table), its labels written as the chart writes them (⊥ for ``nothing``)."""
    labels = grouped_labels(label_frame(ws_key, _ws, ref, systems, level), grouping)
    # "label" is also a category: the label column is named "span label" here.
    wide = labels.rename(columns={"label": "span label"}).pivot_table(
        index=["system", "span label", "side"], columns="category", values="count",
        fill_value=0).reset_index()
    wide.columns.name = None
    wide["span label"] = wide["span label"].map(label_shown)
    return wide


@st.cache_data(max_entries=32, show_spinner="Scoring each bucket…")
def slice_frame(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
                metric: str, variant: str | None, level: int, dimension: str, n_boot: int,
                seed: int, meta_key: str, _metadata: Mapping[str, Mapping[str, str]] | None
                ) -> tuple[pd.DataFrame, dict[tuple[str, str], Any], dict[str, str]]:
    """Scores per bucket of every system (:func:`core.analysis.slices.slice_scores`), the
    documents and spans of each (system, bucket) (``{"documents": ..., "spans": ...}``), and
    the systems the metric refused (system -> error).
    ``meta_key`` identifies ``_metadata`` (the uploaded CSV's digest)."""
    from core.analysis.slices import slice_scores

    rows: list[dict[str, Any]] = []
    docs: dict[tuple[str, str], Any] = {}
    errors: dict[str, str] = {}
    for system in systems:
        try:
            buckets = slice_scores(
                _ws.sets[ref], _ws.sets[system], dimension=dimension, metric=metric,
                variant=variant, level=level, texts=_ws.corpus.texts,
                taxonomy=results.taxonomy_for(_ws, ref, system), metadata=_metadata,
                n_resamples=n_boot, seed=seed)
        except SpanScopeError as exc:
            errors[system] = str(exc)
            continue
        for b in buckets:
            # A bucket of one document has no interval (each resample is that document):
            # None, as `slices --json` writes it, not low = high (a flat whisker).
            rows.append({"system": system, **b.as_row(one_document_bounds=False)})
            docs[(system, b.bucket)] = {"documents": b.documents, "spans": b.spans}
    columns = ["system", "dimension", "bucket", "order", "kind", "documents", "reference spans",
               "predicted spans", "P", "R", "F1", "P low", "P high", "R low", "R high",
               "F1 low", "F1 high"]
    return pd.DataFrame(rows, columns=columns), docs, errors


# ---- figures ------------------------------------------------------------------------------------


VIEWS = ("all spans", "errors only")
"""What the category charts stack: every span, or only the errors (``correct`` and ``optional``
left out, so that a good system's few errors are not slivers beside its correct spans)."""
SCALES = ("counts", "share")
"""The category chart's scale: span counts, or each bar's share in percent (of its side's
spans, or of its errors with "errors only"), so that systems of different sizes compare."""


def _legend_below() -> dict[str, Any]:
    """Title at the top left, under the modebar; legend at the bottom of the figure, under the
    tick labels (its rows push the margin): at 390 px a legend beside the title ran into it
    and into the modebar (issue 27)."""
    return dict(template="plotly_white",
                margin=dict(l=10, r=10, t=76, b=10),
                # The title sits under the modebar's row (top right, 30 px), not beside it.
                title=dict(y=1, yref="container", yanchor="top", x=0, xanchor="left",
                           pad=dict(t=34, l=8)),
                legend=dict(orientation="h", yref="container", yanchor="bottom", y=0,
                            x=0, xanchor="left"))


UNIFORM_TEXT = 11
"""Pixel size of the numbers inside the category chart's segments (``uniformtext``)."""


def category_chart(df: pd.DataFrame, *, view: str = VIEWS[0], scale: str = SCALES[0]
                   ) -> go.Figure:
    """Stacked bars: per system, its reference spans and its predictions by category.

    ``view`` "errors only" leaves out ``correct`` and ``optional``; ``scale`` "share" draws
    each bar as percentages of what it stacks (its side's spans, or its errors), with the count
    in the hover. Bars carry ``customdata`` (system, side, category) so that a click names
    what it hit."""
    if view not in VIEWS or scale not in SCALES:
        raise ValueError(f"view must be one of {VIEWS} and scale one of {SCALES}; got "
                         f"{view!r}, {scale!r}")
    ok = df[df["category"] != "error"]
    systems = list(dict.fromkeys(ok["system"]))
    shown = ERRORS if view == "errors only" else CATEGORIES
    totals: dict[tuple[str, str], int] = {}
    for row in ok[ok["category"].isin(shown)].itertuples(index=False):
        for side in ("reference", "prediction"):
            value = getattr(row, side)
            if value is not None and not pd.isna(value):
                key = (str(row.system), side)
                totals[key] = totals.get(key, 0) + int(value)
    share = scale == "share"
    fig = go.Figure()
    for cat in shown:
        colour, pattern, _ = CATEGORY_STYLE[cat]
        xs: list[list[str]] = [[], []]
        ys: list[float] = []
        texts, custom = [], []
        for system in systems:
            row = ok[(ok["system"] == system) & (ok["category"] == cat)]
            for side in ("reference", "prediction"):
                value = row[side].iloc[0] if len(row) else None
                if value is None or pd.isna(value):
                    continue
                n, total = int(value), totals.get((system, side), 0)
                xs[0].append(plot(system))
                xs[1].append(side)
                ys.append(100 * n / total if share and total else 0.0 if share else n)
                texts.append(("" if not n else f"{100 * n / total:.0f}%") if share
                             else (n or ""))
                custom.append([system, side, cat, n])
        fig.add_bar(x=xs, y=ys, name=cat, customdata=custom, text=texts,
                    textposition="inside", insidetextanchor="middle", textangle=0,
                    textfont=dict(shadow="auto"),  # readable over the fill's pattern
                    marker=dict(color=colour,
                                                       pattern=dict(shape=pattern)),
                    hovertemplate="%{x}<br>" + cat + ": %{customdata[3]} spans"
                    + (" (%{y:.1f}%)" if share else "") + "<extra></extra>")
    what = "Errors" if view == "errors only" else "Spans"
    title = f"{what} by category" + (" (share, %)" if share else "")
    # One size for every segment's number, level and centred, and none on a segment too thin
    # to hold it: plotly otherwise shrinks or turns such a number and the plot area cuts it (a
    # "1" on a one-span segment at the axis); its count is in the hover and the Categories
    # tab's table.
    fig.update_layout(barmode="stack", title_text=title, height=440,
                      yaxis_title=("% of " + ("errors" if view == "errors only" else "spans")
                                   if share else what.lower()),
                      uniformtext=dict(minsize=UNIFORM_TEXT, mode="hide"), **_legend_below())
    if share:
        fig.update_yaxes(range=[0, 100])
    fig.update_layout(legend_traceorder="normal")
    return fig


def grouped_labels(df: pd.DataFrame, grouping: str = GROUPINGS[0]) -> pd.DataFrame:
    """:func:`label_frame`'s rows under the labels ``grouping`` counts them by: ``each``
    counts a span that offers alternatives (MAFALDA's ``A | B | nothing``) once under each of
    them, as the Labels page's ``each`` does, so that one label is one bar; ``joined`` keeps
    the alternatives as read (``A | B``). Counts of one (system, label, side, category) are
    summed.

    >>> df = pd.DataFrame([["s", "A | nothing", "reference", "missed", 2],
    ...                    ["s", "A", "reference", "missed", 1]], columns=LABEL_COLUMNS)
    >>> grouped_labels(df).values.tolist()
    [['s', 'A', 'reference', 'missed', 3], ['s', 'nothing', 'reference', 'missed', 2]]
    """
    if grouping not in GROUPINGS:
        raise ValueError(f"grouping must be one of {GROUPINGS}; got {grouping!r}")
    if grouping == "joined" or not len(df):
        return df
    split = df.assign(label=df["label"].str.split(JOIN, regex=False)).explode("label")
    return split.groupby(LABEL_COLUMNS[:4], as_index=False, sort=True).agg(
        count=("count", "sum"))


def label_order(df: pd.DataFrame) -> list[str]:
    """The labels of ``df``, the one with the most spans first (ties by name): the page's
    pages of :data:`LABELS_PER_PAGE` then hold the biggest labels first, and a huge bucket
    (a model's 130 spurious ``unknown``) is one bar at the top, not spread among the rest."""
    totals = df.groupby("label")["count"].sum()
    return sorted(totals.index, key=lambda lab: (-int(totals[lab]), lab == NOTHING,
                                                 str(lab).lower()))


def label_shown(label: str) -> str:
    """A label as the per-label chart and table write it: ⊥ for ``nothing`` (as the Labels and
    Learn pages write it), also among alternatives.

    >>> label_shown("nothing"), label_shown("ad hominem | nothing"), label_shown("Doubt")
    ('⊥ (nothing)', 'ad hominem | ⊥', 'Doubt')
    """
    if label == NOTHING:
        return "⊥ (nothing)"
    return JOIN.join("⊥" if part == NOTHING else part for part in label.split(JOIN))


def _short(name: str, most: int = 34) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def label_chart(df: pd.DataFrame, systems: Sequence[str], *, view: str = VIEWS[0],
                labels: Sequence[str] | None = None, log: bool = False) -> go.Figure:
    """Per system (one panel each), per label (one horizontal bar, the label's name at its
    left, readable on a phone): its reference spans by category stacked, and the spurious
    predictions of that label at its end; ``view`` "errors only" leaves out ``correct`` and
    ``optional``. ``labels``: the labels drawn, top down (default: all, the biggest first,
    :func:`label_order`); ``log``: a logarithmic count axis, so that a huge bar leaves the
    others visible. ``customdata`` holds the label as read, so that a click opens it."""
    keep = df[(df["side"] == "reference") | (df["category"] == "spurious")]
    if view == "errors only":
        keep = keep[keep["category"].isin(ERRORS)]
    systems = [s for s in systems if s in set(keep["system"])] or list(systems[:1])
    labels = list(labels) if labels is not None else label_order(keep)
    names: list[str] = []
    for lab in labels:  # short names on the axis, each once (the axis merges equal names)
        name = plot(_short(label_shown(lab)))
        names.append(name if name not in names else f"{name} ({len(names) + 1})")
    fig = make_subplots(rows=max(1, len(systems)), cols=1, shared_xaxes=True,
                        subplot_titles=[plot(s) for s in systems],
                        vertical_spacing=0.2 / max(1, len(systems)))
    in_legend: set[str] = set()  # each category once, from the first panel that draws it
    for i, system in enumerate(systems, start=1):
        sub = keep[keep["system"] == system]
        for cat in (*REFERENCE_CATEGORIES, "spurious"):
            colour, pattern, _ = CATEGORY_STYLE[cat]
            counts = sub[sub["category"] == cat].groupby("label")["count"].sum()
            xs = [int(counts.get(lab, 0)) for lab in labels]
            if not any(xs):
                continue
            side = "prediction" if cat == "spurious" else "reference"
            fig.add_bar(y=names, x=[x or None for x in xs] if log else xs, orientation="h",
                        name=cat, legendgroup=cat, showlegend=cat not in in_legend,
                        marker=dict(color=colour, pattern=dict(shape=pattern)),
                        customdata=[[system, lab, cat, side, plot(label_shown(lab))]
                                    for lab in labels], row=i, col=1,
                        hovertemplate="%{customdata[4]}<br>" + cat + ": %{x}<extra>"
                        + plot(system) + "</extra>")
            in_legend.add(cat)
        fig.update_yaxes(autorange="reversed", automargin=True, row=i, col=1)
    if log:
        fig.update_xaxes(type="log")
    per_panel = 60 + 24 * max(1, len(labels))
    fig.update_layout(barmode="stack", height=per_panel * max(1, len(systems)) + 150,
                      title_text=("Errors" if view == "errors only" else "Spans")
                      + " per label" + (" (log scale)" if log else ""), **_legend_below())
    # The legend from the figure's left edge, not the bars' (the names take a third of a
    # phone's width): three categories a row instead of one.
    fig.update_layout(legend=dict(xref="container", x=0))
    return fig


ONE_DOCUMENT = "one document: no interval"
"""The label of a bucket of one document in the slice chart, in place of a whisker."""


def slice_chart(df: pd.DataFrame, measure: str, *, title: str, ink: str = EITHER_GREY
                ) -> go.Figure:
    """Grouped bars of ``measure`` per bucket, one colour and one pattern per system, with the
    bootstrap interval as whiskers; ``customdata`` (system, bucket). A bucket of one document
    has no interval (every resample is that document): instead of a whisker of zero length,
    which read as certainty, a grey ◇ over its bar with its value, named in the legend
    (:data:`ONE_DOCUMENT`) and in its hover text.

    The whiskers and the bars' outlines are drawn in ``ink``, the theme's text colour
    (:func:`ui.theme.theme_ink`): plotly's default whisker colour, a dark navy, is hard to see
    on the dark theme's background; without ``ink``, :data:`~ui.theme.EITHER_GREY`. The ◇ is
    that grey, 3:1 or more on either theme, and its shape and legend entry say what it is."""
    fig = go.Figure()
    buckets = list(dict.fromkeys(df.sort_values(["order", "bucket"])["bucket"]))
    singles: list[tuple[int, Any, pd.DataFrame]] = []
    for i, system in enumerate(dict.fromkeys(df["system"])):
        sub = df[df["system"] == system].set_index("bucket").reindex(buckets)
        err = None
        if f"{measure} low" in sub and sub[f"{measure} low"].notna().any():
            err = dict(type="data", symmetric=False, array=sub[f"{measure} high"] - sub[measure],
                       arrayminus=sub[measure] - sub[f"{measure} low"], thickness=1.5, width=4,
                       color=ink)
        single = sub[(sub["documents"] == 1) & sub[measure].notna()]
        fig.add_bar(x=[plot(b) for b in buckets], y=sub[measure], name=plot(system),
                    error_y=err,
                    offsetgroup=str(i),
                    marker=dict(color=OKABE_ITO[i % len(OKABE_ITO)],
                                pattern=dict(shape=SYSTEM_PATTERNS[i % len(SYSTEM_PATTERNS)]),
                                line=dict(color=ink, width=0.5)),
                    customdata=[[system, b] for b in buckets],
                    text=["" if pd.isna(v) or b in single.index else f"{v:.2f}"
                          for b, v in sub[measure].items()],
                    textposition="outside",
                    hovertemplate="%{x}<br>" + measure + " %{y:.3f}<extra>"
                    + plot(system) + "</extra>")
        if len(single):
            singles.append((i, system, single))
    # Each one-document bucket's value over its own bar (scattermode group), after the bars
    # so that the legend lists the systems first; one legend entry names the marker for every
    # system (a label on each marker crowded a chart of many buckets).
    for i, system, single in singles:
        fig.add_scatter(
            x=[plot(b) for b in single.index], y=single[measure], mode="markers+text",
            offsetgroup=str(i), legendgroup=ONE_DOCUMENT, name=ONE_DOCUMENT,
            showlegend=not any(t.type == "scatter" for t in fig.data), cliponaxis=False,
            marker=dict(symbol="diamond-open", size=11, color=EITHER_GREY, line=dict(width=2.5)),
            text=[f"{v:.2f}" for v in single[measure]], textposition="top center",
            customdata=[[system, b] for b in single.index],
            hovertemplate="%{x}<br>" + measure + " %{y:.3f}: " + ONE_DOCUMENT
            + "<extra>" + plot(system) + "</extra>")
    fig.update_layout(barmode="group", scattermode="group", title_text=plot(title), height=440,
                      yaxis_title=plot(measure), **_legend_below())
    return fig


def clicked(event: Any) -> list[Any] | None:
    """The ``customdata`` of the point a chart selection holds, or None (item access, so
    AppTest can inject the event)."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return None
    for p in points or ():
        data = p.get("customdata")
        if data:
            return list(data)
    return None


# ---- the Documents page: filters and categories on the text -----------------------------------


def documents_with(ws: state.Workspace, ref: str, system: str, level: int, category: str,
                   label: str) -> list[str] | None:
    """Documents holding a span of ``category`` and ``label`` (ALL: any); None if the pair
    cannot be categorised."""
    found = _documents_with(ws.key, ws, ref, system, level, category, label)
    return None if found is None else list(found)


@st.cache_resource(max_entries=64, show_spinner=False)
def _documents_with(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int,
                    category: str, label: str) -> tuple[str, ...] | None:
    # Kept: the Errors click and the Documents page ask for the same list (10-15 ms each at
    # 10,000 documents: a mask over every span, then the documents in reference order).
    table, _ = error_table(ws_key, _ws, ref, system, level)
    if table is None:
        return None
    cat = None if category == ALL else category
    names = table.columns.names
    if label == ALL or JOIN in label:
        return tuple(table.documents_with(category=cat, label=None if label == ALL else label))
    # A single label: the spans that offer it among their alternatives (A | B) hold it too, as
    # the per-label chart's "each" grouping counts them under it.
    held = {d for name in names if label in name.split(JOIN)
            for d in table.documents_with(category=cat, label=name)}
    return tuple(d for d in table.documents if d in held)


@st.cache_resource(max_entries=256, show_spinner=False)
def document_error_table(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int,
                         doc: str) -> ErrorTable | None:
    """:func:`error_table` of one document: ``categorise`` of that document alone, with the
    corpus's taxonomy. A document's spans are categorised from that document only, so its rows
    equal the corpus table's (a test checks); the Documents page colours one document without
    categorising 100,000. None where the corpus cannot be categorised."""
    from core.model import AnnotationSet

    if not _categorisable(ws_key, _ws, ref, system):
        return None
    gold, pred = _ws.sets[ref], _ws.sets[system]
    try:
        one = [AnnotationSet(s.name, {doc: s.spans[doc]} if doc in s.spans else {}, s.role,
                             s.alternatives) for s in (gold, pred)]
        return categorise(*one, level=level, taxonomy=results.taxonomy_for(_ws, ref, system))
    except SpanScopeError:
        return None


@st.cache_resource(max_entries=16, show_spinner=False)
def missed_and_spurious(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int
                        ) -> Callable[[str], tuple[int, int]] | None:
    """Document -> (missed reference spans, spurious predictions), counted once for every
    document from :func:`error_table`'s columns: the counts of :func:`document_error_table`
    (a document's spans are categorised from that document only; a test compares them), for
    a caller that already has the corpus's table (the Documents page filtered by a category:
    200 listed documents categorised one by one cost 0.1-0.2 s of CPU at 10,000 documents).
    None where :func:`document_error_table` gives None."""
    if not _categorisable(ws_key, _ws, ref, system):
        return None
    table, _ = error_table(ws_key, _ws, ref, system, level)
    if table is None:
        return None
    c, n = table.columns, len(table.documents)
    missed = np.bincount(c.doc[(c.side == SIDES.index("reference"))
                               & (c.category == CATEGORIES.index("missed"))], minlength=n)
    spurious = np.bincount(c.doc[(c.side == SIDES.index("prediction"))
                                 & (c.category == CATEGORIES.index("spurious"))], minlength=n)
    pos = {d: i for i, d in enumerate(table.documents)}

    def counts(doc: str) -> tuple[int, int]:
        i = pos.get(doc)
        return (0, 0) if i is None else (int(missed[i]), int(spurious[i]))

    return counts


@st.cache_resource(max_entries=64, show_spinner=False)
def _categorisable(ws_key: str, _ws: state.Workspace, ref: str, system: str) -> bool:
    """Whether every document of ``system`` is one of ``ref``'s (the policy
    :func:`document_error_table` categorises under), checked once per pair: two sets of
    100,000 ids take about 20 ms, which a document switch would otherwise pay each time."""
    from core.model.docsets import check_same_documents

    gold, pred = _ws.sets[ref], _ws.sets[system]
    try:
        check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name,
                             "pred-subset-of-gold")
    except SpanScopeError:
        return False
    return True


def label_options(ws: state.Workspace, ref: str, system: str, level: int) -> list[str]:
    """The Documents page's label filter: :data:`ALL`, then every label the pair's spans are
    counted under."""
    return [ALL, *_labels(ws.key, ws, ref, system, level)]


@st.cache_resource(max_entries=64, show_spinner=False)
def _labels(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int
            ) -> tuple[str, ...]:
    table, _ = error_table(ws_key, _ws, ref, system, level)
    return tuple(table.labels()) if table is not None else ()


def span_categories(ws: state.Workspace, ref: str, system: str, level: int, doc: str,
                    items_a: Sequence[SpanItem], items_b: Sequence[SpanItem]
                    ) -> tuple[dict[str, str], dict[str, str]]:
    """Item id -> category, for the reference items ``items_a`` and the compared ``items_b``
    (matched by interval and projected labels)."""
    table = document_error_table(ws.key, ws, ref, system, level, doc)
    if table is None:
        return {}, {}
    name = level_namer(results.taxonomy_for(ws, ref, system), level)
    found: dict[tuple[str, int, int, frozenset[str]], str] = {}
    for s in table.spans:
        if s.document == doc:
            found.setdefault((s.side, s.start, s.end, frozenset(s.labels)), s.category)

    def lookup(side: str, items: Sequence[SpanItem]) -> dict[str, str]:
        out = {}
        for it in items:
            key = (side, it.start, it.end, frozenset(name(lab) for lab in it.labels))
            if key in found:
                out[it.id] = found[key]
        return out

    return lookup("reference", items_a), lookup("prediction", items_b)


def span_ids(ws: state.Workspace, ref: str, system: str, level: int, rows: pd.DataFrame,
             copy: Sequence[int]) -> list[str]:
    """The Documents page's id of each row of :func:`span_frame` (``G1``… the reference's,
    ``P1``… the system's, :func:`core.render.highlight.span_items`): found by side, interval
    and the label the row is counted under (:func:`item_labels`); ``copy`` says which copy of
    a span its set gives more than once the row is (0 the first, in the table's order), which
    takes that copy's own id, as the Documents page's P1, P2 (:class:`ui.results._SpanIds`).
    Rows whose span the page has no item for (none expected) get ""."""
    from core.render.highlight import span_items

    items: dict[tuple[str, str], list[SpanItem]] = {}
    out = []
    for doc, side, start, end, label, k in zip(rows["document"], rows["side"], rows["start"],
                                               rows["end"], rows["label"], copy, strict=True):
        if (doc, side) not in items:
            name, prefix = (ref, "G") if side == "reference" else (system, "P")
            items[doc, side] = span_items(ws.sets[name], doc, prefix)
        found = [it.id for it in items[doc, side] if (it.start, it.end) == (start, end)]
        if len(found) > 1:
            found = [it.id for it in items[doc, side] if (it.start, it.end) == (start, end)
                     and label in item_labels(ws, ref, system, level, it)]
        out.append(found[min(k, len(found) - 1)] if found else "")
    return out


def notes(categories: Mapping[str, str]) -> dict[str, tuple[str, str, str]]:
    """Item id -> (mark, colour, category) for :func:`core.render.highlight.render_lanes`."""
    return {i: (CATEGORY_STYLE[c][2], CATEGORY_STYLE[c][0], c) for i, c in categories.items()}


def category_legend() -> str:
    """HTML legend of the marks drawn after each span's tag."""
    chips = "".join(
        f'<span title="{esc(CATEGORY_HELP[c])}" style="display:inline-block;'
        f'margin:2px 10px 2px 0;white-space:nowrap"><span class="ss-cat" style="border:2px solid '
        f'{colour};color:{STATUS_TEXT};background:{MARK_BACKGROUND};border-radius:3px;'
        'padding:0 3px;font-weight:700;'
        f'font-size:0.8em;margin-right:4px">{esc(mark)}</span>{esc(c)}</span>'
        for c, (colour, _, mark) in CATEGORY_STYLE.items())
    return (f'<div class="ss-legend ss-cat-legend" style="font-size:0.85em">Categories: '
            f"{chips}</div>")


def side_categories(side: str) -> tuple[str, ...]:
    return REFERENCE_CATEGORIES if side == "reference" else PREDICTION_CATEGORIES


def item_labels(ws: state.Workspace, ref: str, system: str, level: int, item: SpanItem
                ) -> set[str]:
    """An item's labels as the error table counts them (projected to ``level``; a reference
    span with alternatives also under its joined name)."""
    from core.analysis.errors import JOIN

    name = level_namer(results.taxonomy_for(ws, ref, system), level)
    labels = {name(lab) for lab in item.labels}
    if len(labels) > 1:
        labels.add(JOIN.join(sorted(labels, key=lambda x: (x == NOTHING, x.lower(), x))))
    return labels


K_ERR_DOCS = "err_docs"
"""Session: ``{"documents": (...), "what": "...", "spans": ((doc, side, start, end), ...)}``,
the documents (and spans) of a clicked bucket, which the Documents page lists alone (and marks)
until cleared."""


def bucket_marks(bucket: Mapping[str, Any] | None, doc: str, items_a: Sequence[SpanItem],
                 items_b: Sequence[SpanItem]) -> list[str]:
    """Ids of the items of ``doc`` that lie in a clicked span-level bucket."""
    if not bucket or not bucket.get("spans"):
        return []
    inside = {(side, s, e) for d, side, s, e in bucket["spans"] if d == doc}
    return [it.id for side, items in (("reference", items_a), ("prediction", items_b))
            for it in items if (side, it.start, it.end) in inside]


def open_documents(ws: state.Workspace, *, ref: str, system: str, level: int,
                   category: str = ALL, label: str = ALL,
                   documents: Sequence[str] | None = None, what: str = "",
                   spans: Sequence[tuple[str, str, int, int]] = (),
                   marker: Any = None) -> None:
    """Switch to the Documents page filtered to what was clicked (once per ``marker``).

    Category and label travel as the Documents page's URL filters (when not :data:`ALL`); the
    compared set, the metric (MAFALDA when the level is not 2, so the level applies there) and
    the document travel in the session under the Documents page's keys, as a bucket's
    documents (:data:`K_ERR_DOCS`) and ``ref`` (bound on the Errors page under the Documents
    page's own key) do.
    """
    if marker is not None and st.session_state.get(K_ERR_OPENED) == marker:
        return
    st.session_state[K_ERR_OPENED] = marker
    if documents is None:
        documents = documents_with(ws, ref, system, level, category, label) or []
    metric = "mafalda" if level != 2 else st.session_state.get(state.K_METRIC, "martino")
    st.session_state[K_ERR_DOCS] = ({"documents": tuple(documents), "what": what,
                                     "spans": tuple(spans)} if what else None)
    st.session_state[K_ERR_CATEGORY] = category
    st.session_state[K_ERR_LABEL] = label
    st.session_state[state.K_SET_B] = system
    st.session_state[state.K_METRIC] = metric
    st.session_state[state.K_DOC_QUERY] = ""
    if documents:
        st.session_state[state.K_DOC] = documents[0]
    # The URL is written once, with the filters alone (the rest travels in the session): each
    # parameter the Documents page's widgets then dropped as a default was one more browser
    # history entry, so one click made six and Back landed on in-between URLs (tour finding
    # 7). Streamlit still pushes the new query string, then the new page: two entries, and
    # Back and Forward keep the filters.
    st.switch_page("pages/documents.py", query_params={
        k: v for k, v in ((K_ERR_CATEGORY, category), (K_ERR_LABEL, label)) if v != ALL})


def write_report(ws: state.Workspace, ref: str, systems: tuple[str, ...], level: int,
                 n_boot: int, seed: int, meta_key: str,
                 metadata: Mapping[str, Mapping[str, str]] | None,
                 progress: Callable[[str, int, int], None] | None = None,
                 note: str = "", variants: Mapping[str, str] | None = None) -> str:
    """The self-contained HTML report (:func:`core.analysis.report.build_report`) of the
    current view, its metrics scored in ``variants`` (:func:`chosen_variants`; None: each
    metric's default); what the page shows is stated as its "command", with ``note``
    (:func:`variants_note`) after it. ``progress`` is told each step
    (:data:`core.analysis.report.Progress`)."""
    from core.analysis.report import ReportInputs, build_report

    named = [f"{registry.get(m).title} {v}" for m, v in (variants or {}).items()
             if v != registry.get(m).default_variant]
    command = (f"SpanScope dashboard, 🔍 Errors page: data {ws.title!r}, reference {ref!r}, "
               f"systems {', '.join(repr(s) for s in systems)}, level {level}, "
               f"{n_boot} resamples, seed {seed}"
               + (f", metadata CSV sha256 {meta_key[:12]}" if meta_key else "")
               + (f", variants {', '.join(named)}" if named else "")
               + (f". {note}" if note else ""))
    # No taxonomy: each system's is its pair's, as results.taxonomy_for(ws, ref, system) gives
    # the page's tables (core.analysis.report.taxonomy_of).
    inputs = ReportInputs(ws.sets[ref], [ws.sets[s] for s in systems], ws.corpus.texts,
                          level, metadata, None, n_boot, seed, variants=dict(variants or {}))
    return build_report(inputs, command=command, progress=progress)


class ReportJob:
    """One report written in a background thread of the server, so the page stays usable and
    shows how far it is (the step and its share) instead of a spinner: at 10,000 documents the
    report takes 11 s of CPU, most of it the slices' bootstrap draws (docs/performance.md).
    The numpy draws let go of the interpreter lock; the rest holds it, so other page runs of
    the server are slower while it runs."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self.stage, self.done_steps, self.total_steps = "starting", 0, 0
        self.started: float | None = None
        self.finished: float | None = None
        self.html: str | None = None
        self.error: str | None = None

    def start(self, write: Callable[[Callable[[str, int, int], None]], str]) -> None:
        """Write the report with ``write(progress)`` in a new thread (once: a report being
        written or written is not started again; one that failed is)."""
        import threading
        import time

        with self._lock:
            if self.running or self.html is not None:
                return
            self.started, self.finished, self.error = time.perf_counter(), None, None
            self.stage, self.done_steps, self.total_steps = "starting", 0, 0

        def told(stage: str, done: int, total: int) -> None:
            with self._lock:
                self.stage, self.done_steps, self.total_steps = stage, done, total

        def work() -> None:
            html: str | None = None
            error: str | None = None
            try:
                html = write(told)
            except SpanScopeError as exc:
                error = str(exc)
            except Exception as exc:  # a bug: shown, never kept silent
                error = f"the report failed: {type(exc).__name__}: {exc}"
            with self._lock:
                self.html, self.error, self.finished = html, error, time.perf_counter()

        threading.Thread(target=work, name="spanscope-report", daemon=True).start()

    @property
    def running(self) -> bool:
        return self.started is not None and self.finished is None

    def status(self) -> tuple[float, str]:
        """The share of the steps done and the line the progress bar shows."""
        import time

        with self._lock:
            fraction = self.done_steps / self.total_steps if self.total_steps else 0.0
            elapsed = (self.finished or time.perf_counter()) - (self.started or 0.0)
            step = (f" · step {self.done_steps + 1} of {self.total_steps}"
                    if self.total_steps and self.done_steps < self.total_steps else "")
            return fraction, f"Writing the report: {self.stage}{step} · {elapsed:.0f} s"


def chosen_variants() -> tuple[tuple[str, str], ...]:
    """The variant chosen in this session of each span metric that has variants, as (metric,
    variant) pairs: the report scores in them (``python -m core report --variant``; tour 4
    item 6)."""
    return tuple((m.name, v) for m in registry.span_metrics()
                 if (v := results.chosen_variant(m)) is not None)


def variants_note() -> str:
    """What the report says where a choice of the page cannot apply to it, else ``""``: a
    variant chosen for a metric the report does not score, and the slices, which the report
    scores with Da San Martino's metric alone (in its chosen variant) whatever the slices
    above use. The report never silently replaces the page's choice (tour 4 item 6)."""
    from core.analysis.report import SLICE_METRIC

    scored = {m.name for m in registry.span_metrics()}
    notes = [f"it does not score {m.title}, so not in the {v} chosen on the page"
             for m in registry.entries() if m.name not in scored and m.variants
             and (v := results.chosen_variant(m)) != m.default_variant]
    sliced = st.session_state.get(K_ERR_METRIC, SLICE_METRICS[0])
    if sliced != SLICE_METRIC and sliced in scored:
        martino, metric = registry.get(SLICE_METRIC), registry.get(sliced)
        notes.append(f"its slices score {martino.title} ({results.chosen_variant(martino)}), "
                     f"not {results.describe(metric, results.chosen_variant(metric), None)} "
                     "as the slices above")
    return ("The report: " + "; ".join(notes) + ".") if notes else ""


@st.cache_resource(max_entries=4, show_spinner=False)
def report_job(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...],
               level: int, n_boot: int, seed: int, meta_key: str, note: str = "",
               variants: tuple[tuple[str, str], ...] = ()) -> ReportJob:
    """The report of these choices, shared by the sessions of the server (the same choices
    give the same report): not started until a user asks for it (:func:`report`)."""
    return ReportJob()


@st.cache_data(max_entries=32, show_spinner=False)
def schema_frame(ws_key: str, _ws: state.Workspace, ref: str, systems: tuple[str, ...]
                 ) -> pd.DataFrame:
    """The SemEval-2013 schemas of every system (:mod:`core.metrics.nervaluate`), one row per
    system and schema."""
    from core.metrics import nervaluate

    rows = []
    for system in systems:
        try:
            res = nervaluate.score(_ws.sets[ref], _ws.sets[system]).to_dict()
        except SpanScopeError as exc:
            rows.append({"system": system, "schema": "error", "note": str(exc)})
            continue
        for schema in nervaluate.SCHEMAS:
            v = res[schema]
            rows.append({"system": system, "schema": schema, "P": v["precision"],
                         "R": v["recall"], "F1": v["f1"], "COR": v["correct"],
                         "INC": v["incorrect"], "PAR": v["partial"], "MIS": v["missed"],
                         "SPU": v["spurious"], "POS": v["possible"], "ACT": v["actual"]})
    return pd.DataFrame(rows, columns=["system", "schema", "P", "R", "F1", "COR", "INC", "PAR",
                                       "MIS", "SPU", "POS", "ACT", *(
                                           ["note"] if any("note" in r for r in rows) else [])])


@st.cache_data(max_entries=32, show_spinner=False)
def span_frame(ws_key: str, _ws: state.Workspace, ref: str, system: str, level: int,
               category: str) -> pd.DataFrame:
    """Every span of ``category`` (ALL: every span) of ``system`` against ``ref``: where it
    is, its text, its labels and the span of the other side that decided its category."""
    table, _ = error_table(ws_key, _ws, ref, system, level)
    columns = ["document", "side", "category", "start", "end", "label", "text",
               "decided by", "overlap", "duplicate"]
    if table is None:
        return pd.DataFrame(columns=columns)
    # From the table's columns, whole columns at a time, for the rows of the category only:
    # no Python object per span of the corpus (0.2 s per category at 200,000 spans, and the
    # objects themselves 1-2 s the first time). The values are those of ``table.spans``.
    c = table.columns
    keep = (np.arange(len(c.doc)) if category == ALL
            else np.flatnonzero(c.category == CATEGORIES.index(category)))
    if not len(keep):
        return pd.DataFrame(columns=columns)
    texts, docs, sets = _ws.corpus.texts, table.documents, c.label_sets
    doc = c.doc[keep].tolist()
    start, end = c.start[keep].tolist(), c.end[keep].tolist()
    of_doc = [texts.get(d) for d in docs]
    partner_start, partner_end = c.partner_start[keep].tolist(), c.partner_end[keep].tolist()
    frame = {
        "document": [docs[d] for d in doc],
        "side": np.array(SIDES, dtype=object)[c.side[keep]],
        "category": np.array(CATEGORIES, dtype=object)[c.category[keep]],
        "start": c.start[keep], "end": c.end[keep],
        "label": np.array(c.names, dtype=object)[c.label[keep]],
        "text": [t[a:b] if (t := of_doc[d]) is not None else ""
                 for d, a, b in zip(doc, start, end, strict=True)],
        "decided by": ["" if ps < 0 else f"[{ps}, {pe}) {' | '.join(sets[pl])}"
                       for ps, pe, pl in zip(partner_start, partner_end,
                                             c.partner_labels[keep].tolist(), strict=True)],
        "overlap": c.overlap[keep], "duplicate": c.duplicate[keep]}
    return pd.DataFrame(frame, columns=columns)


# ---- the page's sections, in the order pages/errors.py draws them -------------------------------


@dataclass(frozen=True)
class Setup:
    """The reference, the level labels are compared at, and the systems."""

    ref: str
    level: int
    systems: tuple[str, ...]
    n_docs: int
    """The most documents a set lists: above :data:`FILTER_AUTO_DOCS` the schemas and slices are
    computed when asked."""


def setup(ws: state.Workspace) -> Setup:
    """The reference and level widgets and the categories' definitions; stops without a system."""
    names = list(ws.sets)
    default_a, _ = state.default_pair(ws)
    c1, c2 = st.columns([3, 1])
    ref = c1.selectbox("Reference (gold)", names,
                       index=names.index(default_a) if default_a else 0,
                       key=state.K_SET_A, bind="query-params",
                       help=full_name_help(state.K_SET_A, default_a or names[0]))
    level = int(levels.level_select(c2, ws, ref, label="Level",
                                    help="Labels are compared at this MAFALDA level: 2 as "
                                    "annotated, 1 emotion / logic / credibility, 0 fallacy or "
                                    "not."))
    systems = tuple(state.compared_sets(ws, ref))
    if not systems:
        st.info("Only the reference set is loaded: add a system or annotator file.", icon="ℹ️")
        st.stop()
    named = [part for i, (c, h) in enumerate(CATEGORY_HELP.items())
             for part in (("; " if i else ""), plain.b(c), f": {h}")]
    plain.caption("Every reference span and every prediction gets one category from its best "
                  "overlapping pair (docs/errors.md): ", *named, ".")
    return Setup(ref, level, systems, max(len(ws.sets[n].spans) for n in (ref, *systems)))


def _compared(cats: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`category_frame` of the systems that could be compared (not their
    ``error`` rows), numbered from 0 as the category table shows them."""
    return cats[cats["category"] != "error"].reset_index(drop=True)


def follow(ws: state.Workspace, s: Setup) -> None:
    """Open the Documents page at once when this run follows a click that asks for it: a bar
    of the category or per-label chart. Called before the page draws its sections, so the run
    that switches pages sends nothing more to the browser (the click's run drew the whole page
    again before, then switched: 60-80 ms of server CPU under cProfile, and the browser's
    redrawing of the page it leaves)."""
    hits = [clicked(st.session_state.get(k)) for k in (K_ERR_CHART, K_ERR_LABEL_CHART)]
    if not any(hits):
        # Nothing selected (a visit through the sidebar): the same bar clicked next opens the
        # Documents page again.
        st.session_state[K_ERR_OPENED] = None
        return
    hit = hits[0]
    if hit:
        system, _, category = hit[:3]
        open_documents(ws, ref=s.ref, system=str(system), level=s.level,
                       category=str(category), marker=("chart", *map(str, hit)))
    hit = hits[1]
    if hit:
        system, label, category = map(str, hit[:3])
        open_documents(ws, ref=s.ref, system=system, level=s.level, category=category,
                       label=label, marker=("label", *map(str, hit)))


def _open_now(ws: state.Workspace, ref: str, level: int, system: str, category: str,
              label: str = ALL) -> None:
    """Open the Documents page on ``system``'s documents holding ``category`` (and ``label``)
    from a callback: a link button of :func:`category_links` (the category table is plain HTML
    since issue 29's seventeenth pass: its rows open nothing).

    ``st.switch_page`` in a callback (Streamlit 1.67 queues the page's run once every callback
    has run) switches before the Errors page's script starts: the click's run does not draw
    the app's frame, the title or the reference and level widgets first, and sends the browser
    nothing of the page it leaves (docs/performance.md, issue 29, eighth pass). A session
    knows its pages from its last run; where the callback cannot see them (Streamlit's
    ``AppTest`` starts each run with an empty page registry) the switch is queued for
    :func:`follow_link`, at the top of the page's run."""
    if ref not in ws.sets or system not in ws.sets:
        return
    try:
        open_documents(ws, ref=ref, system=system, level=level, category=category, label=label)
    except StreamlitPageNotFoundError:
        st.session_state[K_ERR_PENDING] = {"ref": ref, "level": level, "system": system,
                                           "category": category, "label": label}


def follow_link(ws: state.Workspace) -> None:
    """Open the Documents page when a callback queued it (:func:`_open_now`), before the page
    draws anything."""
    pending = st.session_state.pop(K_ERR_PENDING, None)
    if pending and pending["ref"] in ws.sets and pending["system"] in ws.sets:
        open_documents(ws, **pending)


def documents_cells(ws: state.Workspace, s: Setup, ok: pd.DataFrame) -> list[int | None]:
    """How many documents hold each row's error category (:func:`category_documents`, the
    counts its link under the table names); none for correct and optional spans, nor for a
    category no document holds."""
    cells: list[int | None] = []
    for system, category in zip(ok["system"], ok["category"], strict=True):
        n = category_documents(ws.key, ws, s.ref, str(system), s.level).get(str(category), 0)
        cells.append(n or None)
    return cells


def _bar_picked(ws: state.Workspace, key: str, ref: str, level: int) -> None:
    """A category chart's ``on_select`` callback: open the clicked bar's system and category,
    and its label in the per-label chart (whose ``customdata`` is system, label, category)."""
    hit = clicked(st.session_state.get(key))
    if hit:
        system, second, category = map(str, hit[:3])
        _open_now(ws, ref, level, system, category,
                  label=second if key == K_ERR_LABEL_CHART else ALL)


def tabs() -> tuple[Any, Any, Any, Any, Any]:
    """The tabs of :data:`TABS` (lazy: a closed tab's ``open`` is False and the page skips
    it), bound to the URL so that a link opens the same tab (and a return to the page the tab
    it was left on: Streamlit keeps a page's bound parameters); a link that names a slice
    dimension (``edim``) and no tab opens the slices' tab."""
    if (K_ERR_DIM in st.query_params and K_ERR_TAB not in st.query_params
            and K_ERR_TAB not in st.session_state):
        # Once, before the widget: a default that changed between runs would make it another
        # widget, whose state undoes the user's next click on a tab.
        st.session_state[K_ERR_TAB] = TABS[-1]
    cats, chart, labels, spans, slices_tab = st.tabs(list(TABS), key=K_ERR_TAB,
                                                     on_change="rerun", bind="query-params")
    return cats, chart, labels, spans, slices_tab


def _view(where: Any) -> str:
    """The category charts' view (all spans or errors only): one choice for the category chart
    and the per-label chart, drawn in the tab of each (a bound widget of one key)."""
    return str(where.radio(
        "Category charts", VIEWS, key=K_ERR_VIEW, bind="query-params", horizontal=True,
        help="Errors only leaves out correct and optional spans, so that a good system's few "
        "errors are not slivers beside its correct spans (in the category chart and in the "
        "per-label chart)."))


def category_links(ws: state.Workspace, s: Setup) -> None:
    """One link button per system and error category, naming how many documents hold it (the
    table's ``documents``): a click, or Enter on it, opens the Documents page filtered to them
    (the category table is plain HTML since the seventeenth pass of issue 29: its rows are not
    buttons)."""
    for system in s.systems:
        counts = category_documents(ws.key, ws, s.ref, system, s.level)
        if not any(counts.values()):
            continue
        row = st.container(horizontal=True, gap="small", vertical_alignment="center")
        row.caption(f"📄 Open the documents of {md(system)} holding:" if len(s.systems) > 1
                    else "📄 Open the documents holding:", width="content")
        for category, n in counts.items():
            if n:
                row.button(f"{category} ({n:,})", key=f"err_open_{system}_{category}",
                           type="tertiary", on_click=_open_now,
                           args=(ws, s.ref, s.level, system, category),
                           help=f"Open the Documents page on the {n:,} document(s) holding "
                           f"{category} spans ({CATEGORY_HELP[category]})")


def categories(ws: state.Workspace, s: Setup) -> None:
    """Every system's category counts as an escaped HTML table (with how many documents hold
    each error category), then its downloads, then a link per system and error category that
    opens the documents holding it (:func:`category_links`). The chart of the same counts is
    :func:`category_chart_tab` (its own tab: a return to the page draws the table alone)."""
    noun = set_noun(ws, s.systems)
    st.header(f"Error categories, every {noun}")
    cats = category_frame(ws.key, ws, s.ref, s.systems, s.level)
    for row in cats[cats["category"] == "error"].itertuples():
        st.error(f"{md(row.system)} cannot be compared with {md(s.ref)}: "
                 f"{md(row.note)}", icon="❌")
    ok = _compared(cats)
    # An escaped HTML table (one element of plain HTML), not a data grid: the grid's canvas was
    # the last thing a return to the page drew, 0.2 s after the click (docs/performance.md,
    # issue 29, seventeenth pass). The links under it open a category's documents.
    shown = ok.assign(documents=pd.Series(documents_cells(ws, s, ok), index=ok.index,
                                          dtype="Int64"))
    shown = shown[["system", "category", "reference", "prediction", "documents", "note"]]
    with st.container(key=K_ERR_TABLE):
        st.html(page_table_html(
            shown.rename(columns={"system": noun}), label=f"Error categories, every {noun}",
            caption=f"{len(ok):,} rows: each {noun}'s reference and predicted spans per "
            "category; documents: how many documents hold an error category."))
    # The table's downloads under it, before the links: the keyboard's order is the page's
    # (tour 4 item 11a).
    download_buttons(ok, "error_categories", key="dl_err_categories")
    plain.caption("Click a link below (or a bar of the chart in "
                  f"{TABS[1]}) to open the Documents page on the documents holding spans of "
                  "that category.")
    category_links(ws, s)


def category_chart_tab(ws: state.Workspace, s: Setup) -> None:
    """The category counts of every system as a stacked bar chart (all spans or errors only,
    counts or shares); a bar segment opens the documents holding that category."""
    st.header(f"Error categories, every {set_noun(ws, s.systems)}")
    plain.caption("Click a bar segment to open the Documents page on the documents holding "
                  "spans of that category.")
    v1, v2 = st.columns(2)
    view = _view(v1)
    scale = v2.radio("Scale", SCALES, key=K_ERR_SCALE, bind="query-params", horizontal=True,
                     help="Share: each bar in percent of what it stacks (its side's spans, or "
                     f"its errors), so that {set_noun(ws, s.systems, plural=True)} of "
                     "different sizes compare.")
    config = chart_image("error_categories", key="dl_err_chart")
    st.plotly_chart(category_figure(ws.key, ws, s.ref, s.systems, s.level, view, scale),
                    key=K_ERR_CHART,
                    on_select=partial(_bar_picked, ws, K_ERR_CHART, s.ref, s.level),
                    selection_mode=("points",), config=config)


def schemas(ws: state.Workspace, s: Setup) -> None:
    """SemEval-2013's schemas, as nervaluate counts them, in a lazy expander: closed (as the
    page opens it), it draws nothing, where its caption and toggle were drawn, hidden, on every
    visit (the toggle's late update was the last change of a warm revisit once the category table
    was plain HTML: docs/performance.md, issue 29, seventeenth pass)."""
    box = st.expander("SemEval-2013 schemas (strict, exact, partial, type), as nervaluate "
                      "counts them", key=K_ERR_SCHEMAS_OPEN, on_change="rerun")
    if not box.open:
        return
    with box:
        st.caption("One-to-one greedy alignment (docs/errors.md): COR correct, INC incorrect, "
                   "PAR partial, MIS missed, SPU spurious; POS = COR+INC+PAR+MIS, ACT = "
                   "COR+INC+PAR+SPU; partial and type give PAR half credit. `python -m core "
                   "score --metric nervaluate` prints the same, per label too.")
        # Opened, on a large corpus the counts (seconds of work) still wait for their toggle.
        if asked_for(s.n_docs, FILTER_AUTO_DOCS,
                     f"Count the schemas of all {s.n_docs:,} documents", key="err_schemas_on"):
            table = schema_frame(ws.key, ws, s.ref, s.systems)
            st.dataframe(table, hide_index=True, key="err_schema_table", placeholder="—")
            download_buttons(table, "semeval2013_schemas", key="dl_err_schemas")


def biggest_error(ws: state.Workspace, ref: str, system: str, level: int) -> str:
    """The error category with the most spans of ``system`` (either side), which the list of
    the spans of one category opens on (``missed`` when there is no error): on MAFALDA data a
    model's missed spans can be one row beside a hundred spurious (tour 7)."""
    cats = category_frame(ws.key, ws, ref, (system,), level)
    ok = _compared(cats)
    ok = ok[ok["category"].isin(ERRORS)]
    sizes = ok["reference"].fillna(0).astype(int) + ok["prediction"].fillna(0).astype(int)
    counts = dict(zip(ok["category"].astype(str), sizes.astype(int).tolist(), strict=True))
    best = max(ERRORS, key=lambda c: (counts.get(c, 0), c == "missed"))
    return best if counts.get(best, 0) else "missed"


@st.fragment
@jobs.person_fragment
def spans_of_category(ws: state.Workspace, s: Setup) -> None:
    """One system's spans of one category, listed. A fragment: its system, category, toggle
    and pages rerun this section alone, so the browser does not draw the charts and tables of
    the rest of the page again for each (at 10,000 documents a rerun of the whole page kept
    Chromium's main thread busy 0.3-0.6 s on a loaded machine)."""
    st.markdown("**The spans of one category**")
    l1, l2 = st.columns(2)
    list_system = l1.selectbox(set_noun(ws, s.systems).capitalize(), s.systems,
                               key="err_list_system",
                               help=full_name_help("err_list_system", s.systems[0]))
    list_category = l2.selectbox("Category", [ALL, *CATEGORY_STYLE],
                                 index=1 + list(CATEGORY_STYLE).index(
                                     biggest_error(ws, s.ref, s.systems[0], s.level)),
                                 key="err_list_category")
    # Listing builds a row for each of the system's spans and the reference's (seconds at a
    # million spans): on a large corpus it waits for its toggle.
    if not asked_for(s.n_docs, FILTER_AUTO_DOCS, f"List the spans of all {s.n_docs:,} documents",
                     key="err_list_on"):
        return
    spans = span_frame(ws.key, ws, s.ref, list_system, s.level, list_category)
    # The ids of the rows shown (a page of them: items are built per document) as the
    # Documents page names them, so that a span the set gives twice is listed as P1 and P2
    # there too, where both rows looked the same but for "duplicate" (bugleft24).
    copy = spans.groupby(["document", "side", "start", "end", "label"], sort=False).cumcount()
    shown = paginate(spans.assign(copy=copy), key="err_list_page")
    shown.insert(2, "id", span_ids(ws, s.ref, list_system, s.level, shown,
                                   shown["copy"].tolist()))
    st.dataframe(shown.drop(columns="copy"), hide_index=True, key="err_span_table",
                 column_config={"text": st.column_config.TextColumn(width="large")},
                 placeholder="—")
    download_buttons(spans, f"spans_{list_category}_{list_system}", key="dl_err_spans")


def per_label(ws: state.Workspace, s: Setup) -> None:
    """The categories per label, as a chart and a table; a bar opens its documents. The chart
    draws :data:`LABELS_PER_PAGE` labels at a time, the biggest first (tour 7 item 3)."""
    st.header("Per label")
    labels = label_frame(ws.key, ws, s.ref, s.systems, s.level)
    if not len(labels):
        st.caption("No span to count.")
        return
    view = _view(st)
    g1, g2 = st.columns(2)
    alternatives = labels["label"].str.contains(JOIN, regex=False).any()
    grouping = GROUPINGS[0]
    if alternatives:
        grouping = str(g1.radio(
            "Spans with alternatives", GROUPINGS, key=K_ERR_GROUPING, bind="query-params",
            horizontal=True, help="each: a span offering alternatives (A | B | ⊥) counts "
            "under each of its labels, so that a label is one bar (as on the Labels page); "
            "joined: under the alternatives as read, A | B."))
    log = g2.toggle("Log scale", key=K_ERR_LOG, help="A logarithmic count axis: a label "
                    "with hundreds of spans leaves the small ones visible.")
    grouped = grouped_labels(labels, grouping)
    drawn = grouped[(grouped["side"] == "reference") | (grouped["category"] == "spurious")]
    if view == "errors only":
        drawn = drawn[drawn["category"].isin(ERRORS)]
    order = label_order(drawn)
    if not order:
        st.caption("No error to draw: every span is correct or optional.")
    else:
        page_labels = order
        if len(order) > LABELS_PER_PAGE:
            pages = paging.page_count(len(order), LABELS_PER_PAGE)
            if int(st.session_state.get("err_label_chart_page") or 1) > pages:
                del st.session_state["err_label_chart_page"]
            page = int(st.number_input(
                f"Labels page (of {pages:,}, {LABELS_PER_PAGE} labels each, the biggest "
                "first)", min_value=1, max_value=pages, value=1, step=1,
                key="err_label_chart_page"))
            page_labels = order[(page - 1) * LABELS_PER_PAGE: page * LABELS_PER_PAGE]
            st.caption(f"Labels {(page - 1) * LABELS_PER_PAGE + 1:,}–"
                       f"{(page - 1) * LABELS_PER_PAGE + len(page_labels):,} of "
                       f"{len(order):,}, by number of spans.")
        fig = label_figure(ws.key, ws, s.ref, s.systems, s.level, view, grouping,
                           tuple(page_labels), log)
        st.caption("Each label's reference spans by category, and that label's spurious "
                   "predictions at the end of its bar; click a bar to open its documents.")
        config = chart_image("error_categories_per_label", key="dl_err_label_chart")
        st.plotly_chart(fig, key=K_ERR_LABEL_CHART,
                        on_select=partial(_bar_picked, ws, K_ERR_LABEL_CHART, s.ref, s.level),
                        selection_mode=("points",), config=config)
    wide = label_wide(ws.key, ws, s.ref, s.systems, s.level, grouping)
    st.dataframe(paginate(wide, key="err_label_page"), hide_index=True, key="err_label_table",
                 placeholder="—")
    download_buttons(labels, "error_categories_per_label", key="dl_err_labels")


@dataclass(frozen=True)
class SliceSettings:
    """The metadata uploaded (``meta_key``: its digest) and the bootstrap of the slices."""

    metadata: Metadata | None
    meta_key: str
    n_boot: int
    seed: int


def _metadata() -> tuple[Metadata | None, str]:
    meta_file = st.file_uploader("Document metadata (CSV: an id column and any fields)",
                                 type=["csv"], key=K_ERR_META)
    if meta_file is None:
        return None, ""
    data = meta_file.getvalue()
    try:
        return (parse_meta_bytes(data, meta_file.name), hashlib.sha256(data).hexdigest())
    except FormatError as exc:  # it names the file, the line and the field
        st.error(md(exc), icon="❌")
        return None, ""


def dimension_name(d: str) -> str:
    """A slice dimension as the page names it."""
    if d.startswith(META_PREFIX):
        return f"metadata: {d[len(META_PREFIX):]}"
    return DIMENSION_NAMES.get(d, d)


def _open_bucket(ws: state.Workspace, s: Setup, dimension: str, hit: list[Any],
                 bucket_docs: Mapping[tuple[str, str], Any]) -> None:
    system, bucket = map(str, hit[:2])
    held = bucket_docs.get((system, bucket)) or {"documents": (), "spans": ()}
    if dimension == "label":
        open_documents(ws, ref=s.ref, system=system, level=s.level, label=bucket,
                       marker=("slice", dimension, system, bucket))
    else:
        open_documents(ws, ref=s.ref, system=system, level=s.level,
                       documents=held["documents"], spans=held["spans"],
                       what=f"{dimension_name(dimension)}: {bucket}",
                       marker=("slice", dimension, system, bucket))


def slices(ws: state.Workspace, s: Setup) -> SliceSettings:
    """Scores per bucket of a dimension (built-in or a metadata field), with bootstrap
    intervals; a bar opens the documents behind it. Returns the settings the report reuses."""
    st.header("Slices: scores per bucket")
    metadata, meta_key = _metadata()
    # "Bootstrap resamples" and its help on one line at 1,440 px, beside the seed's input
    s1, s2, s3, s4, s5 = st.columns([2, 2.4, 0.8, 1.5, 1.3])
    metric = s1.radio("Metric", list(SLICE_METRICS), key=K_ERR_METRIC, bind="query-params",
                      horizontal=True,
                      help="; ".join(f"{m}: {registry.get(m).description}"
                                     for m in SLICE_METRICS))
    entry = registry.get(metric)
    ref_docs = ws.sets[s.ref].doc_ids
    options = dimensions(metadata, ref_docs)
    not_sliced = [f for f in meta_plan(metadata, ref_docs) if f.kind == "skipped"]
    if not_sliced:
        st.caption(f"Metadata fields not sliced ({META_RULE}): "
                   + "; ".join(f"**{md(f.name)}** ({md(f.why)})" for f in not_sliced) + ".")
    dimension = s2.selectbox("Bucket by", options, key=K_ERR_DIM, bind="query-params",
                             format_func=dimension_name)
    measure = s3.radio("Show", MEASURES, key=K_ERR_MEASURE, bind="query-params")
    n_boot = int(s4.number_input(results.BOOT_N_LABEL, min_value=100, max_value=10000, step=100,
                                 key=state.K_BOOT_N, persist_state="session",
                                 help=results.BOOT_N_HELP))
    seed = int(s5.number_input(results.BOOT_SEED_LABEL, min_value=0, max_value=2**31 - 1, step=1,
                               key=state.K_SLICE_SEED, persist_state="session",
                               help=results.BOOT_SEED_HELP + " The slices' seed is their own, not "
                               "the Scores page's."))
    settings = SliceSettings(metadata, meta_key, n_boot, seed)
    variant = results.chosen_variant(entry)
    slices_on = s.n_docs <= FILTER_AUTO_DOCS or st.toggle(
        f"Score the slices: {n_boot:,} bootstrap resamples of {s.n_docs:,} documents per "
        "bucket", key="err_slices_on", persist_state="session",
        help=f"Off by default above {FILTER_AUTO_DOCS:,} documents: the intervals rescore "
        "every bucket once per resample.")
    if not slices_on:
        return settings
    table, bucket_docs, refused = slice_frame(
        ws.key, ws, s.ref, s.systems, metric, variant, s.level if entry.levels else 2,
        dimension, n_boot, seed, meta_key, metadata)
    for system, error in refused.items():
        st.error(f"{entry.title} ({variant}) cannot score {md(system)}: "
                 f"{md(error)}", icon="❌")
    rule = ("a span bucket holds the reference spans (recall) and predictions (precision) that "
            "fall in it" if dimension in SPAN_DIMENSIONS else
            "a document bucket holds whole documents: the metric on that sub-corpus")
    st.caption(f"{entry.title} ({variant}"
               + (f", level {s.level}" if entry.levels else "") + f"); {rule}. Whiskers: 95% "
               f"bootstrap interval over documents ({n_boot:,} resamples, seed {seed}); a bucket "
               "of one document has none and shows a grey ◇ marker instead. Click a bar to "
               "open the documents behind it.")
    if not len(table):
        st.caption("No bucket holds a span.")
        return settings
    title = f"{measure} per {dimension_name(dimension)} against {s.ref}"
    config = chart_image(f"slices_{dimension.replace(':', '_')}", key="dl_err_slices")
    event = st.plotly_chart(slice_chart(table, measure, title=title, ink=theme_ink()),
                            key=K_ERR_SLICE_CHART,
                            on_select="rerun", selection_mode=("points",), config=config)
    shown = table.drop(columns=["order", "dimension"])
    st.dataframe(above_one.mark(paginate(shown, key="err_slice_page")), hide_index=True,
                 key="err_slice_table", placeholder="—")
    above_one.note(shown, key="err_slices")
    download_buttons(shown, f"slices_{dimension.replace(':', '_')}", key="dl_err_slice_table")
    hit = clicked(event)
    if hit:
        _open_bucket(ws, s, dimension, hit, bucket_docs)
    return settings


def report(ws: state.Workspace, s: Setup, settings: SliceSettings) -> None:
    """The HTML report: a button writes it in the background (:class:`ReportJob`) with a
    progress bar that names the step, then its download button."""
    st.header("Report")
    st.caption("One HTML file that opens anywhere without a network: every system's scores "
               "with intervals; with two systems or more, which differences are real (each "
               "against the best, the F1 difference's paired interval and two-sided p-values) "
               "and the 10 documents where the systems disagree most; the error categories, "
               "the slices, the label confusion and the 20 worst documents side by side (the "
               "same as `python -m core report`).")
    note = variants_note()
    if note:
        st.info(md(note), icon="ℹ️")
    variants = chosen_variants()
    job = report_job(ws.key, ws, s.ref, s.systems, s.level, settings.n_boot, settings.seed,
                     settings.meta_key, note, variants)
    if job.html is not None:
        st.download_button(
            "⬇️ HTML report", job.html.encode("utf-8"),
            file_name=f"spanscope_report_{s.ref}.html", mime="text/html", key="dl_err_report",
            on_click="ignore")
        return
    if job.error is not None and not job.running:
        st.error(f"The report could not be written: {md(job.error)}")
    if not job.running:
        # A callback: it runs before the page does, so the click starts the report even when
        # the run it triggers is interrupted by another.
        st.button("📝 Write the HTML report", key="err_report_write", on_click=_start_report,
                  args=(job, ws, s, settings, note, variants),
                  help="Written in the background: the page stays usable, and the download "
                       "button appears here when it is done (about 11 s of CPU at 10,000 "
                       "documents).")
    if job.running:
        _report_progress(job)


def _start_report(job: ReportJob, ws: state.Workspace, s: Setup,
                  settings: SliceSettings, note: str = "",
                  variants: tuple[tuple[str, str], ...] = ()) -> None:
    job.start(partial(write_report, ws, s.ref, s.systems, s.level, settings.n_boot,
                      settings.seed, settings.meta_key, settings.metadata, note=note,
                      variants=dict(variants)))


def _report_progress(job: ReportJob, every: float = 0.5) -> None:
    """The report's progress bar, polled every ``every`` seconds (an ``st.fragment``: only the
    bar reruns meanwhile); the page reruns once the report is written, to offer it."""

    @st.fragment(run_every=every)
    def poll() -> None:
        if not job.running:
            st.rerun()
        fraction, text = job.status()
        st.progress(fraction, text=md(text))

    poll()
