"""The Metric differences page's cached computations and figures.

Every number comes from :mod:`core.metrics.differences` (one parameterised computation whose end
points are the official metrics); this module caches it per workspace and turns its results
into tables and plotly figures.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.metrics.differences import (
    REASONS,
    DocDifference,
    Step,
    document_differences,
    metric_path,
)
from core.render.highlight import PALETTE
from core.render.palette import OKABE_ITO
from ui.results import taxonomy_for
from ui.state import Workspace

# ---- keys (this page's; the shared ones are in ui.state) ----------------------------------------
K_DIFF_MEASURE = "measure"  # bound: which score the waterfall shows (f1, precision, recall)
K_DIFF_SCATTER = "diff_scatter"  # selection state of the per-text scatter
K_DIFF_DRAW = "diff_draw"  # the scatter is drawn on a large corpus (toggle)
K_DIFF_TABLE = "diff_table"  # selection state of the per-text table
K_DIFF_PAGE = "diff_page"  # page of the per-text table

MEASURES = {"f1": "F1", "precision": "P", "recall": "R"}
SHOWN_MEASURES = {shown: attr for attr, shown in MEASURES.items()}
"""Radio options as shown (a widget bound to the URL writes its shown value) -> attribute."""

_LAYOUT = dict(margin=dict(l=10, r=10, t=60, b=10), template="plotly_white")


@st.cache_resource(max_entries=32, show_spinner="Walking from one metric to the other…")
def path(ws_key: str, _ws: Workspace, ref: str, system: str, level: int,
         variant: str) -> list[Step]:
    """:func:`core.metrics.differences.metric_path` for ``system`` against ``ref``."""
    return metric_path(_ws.sets[ref], _ws.sets[system], level=level, mafalda_variant=variant,
                       taxonomy=taxonomy_for(_ws, ref, system), texts=_ws.corpus.texts)


@st.cache_resource(max_entries=32, show_spinner="Comparing the texts…")
def documents(ws_key: str, _ws: Workspace, ref: str, system: str, level: int,
              variant: str) -> list[DocDifference]:
    """:func:`core.metrics.differences.document_differences`, most different first."""
    return document_differences(_ws.sets[ref], _ws.sets[system], level=level,
                                mafalda_variant=variant,
                                taxonomy=taxonomy_for(_ws, ref, system), texts=_ws.corpus.texts)


def steps_table(steps: list[Step], measure: str) -> pd.DataFrame:
    """One row per step: its value, the change from the step before, the rules, the reason."""
    rows, before = [], None
    for s in steps:
        value = s.value(measure)
        change: float | None = (None if s.official or value is None or before is None
                                else value - before)
        rows.append({"step": s.title, "official metric": s.official,
                     MEASURES[measure]: value, "change": change,
                     "rules": s.rules.describe(), "what changes": s.error or s.explanation})
        if value is not None:
            before = value
    return pd.DataFrame(rows)


def waterfall(steps: list[Step], measure: str, *, title: str) -> go.Figure:
    """A waterfall from the first official metric to the last: official metrics are drawn as
    totals, every rule as the change it makes. Steps that could not be scored are left out.

    The bars are horizontal, one step per row from the top, with the step's name wrapped on
    the left: the names stay readable on a phone (390 px), where side-by-side bars overlapped
    their labels (issue 16 item 9).
    """
    names, values, kinds, texts = [], [], [], []
    before = None
    for s in steps:
        value = s.value(measure)
        if value is None:
            continue
        if before is None:
            kinds.append("absolute")
            values.append(value)
        elif s.official:
            kinds.append("total")
            values.append(value)
        else:
            kinds.append("relative")
            values.append(value - before)
        texts.append(f"{value:.3f}" if s.official or before is None else f"{value - before:+.3f}")
        names.append("<br>".join(textwrap.wrap(s.title, 20)))
        before = value
    fig = go.Figure(go.Waterfall(
        orientation="h", y=names, x=values, measure=kinds, text=texts, textposition="outside",
        connector=dict(line=dict(color="#999", width=1, dash="dot")),
        # Blue up, vermillion down, grey totals: apart under every colour-vision deficiency,
        # and each step is also signed in its text.
        increasing=dict(marker=dict(color=OKABE_ITO[4])),
        decreasing=dict(marker=dict(color=OKABE_ITO[5])),
        totals=dict(marker=dict(color="#777777")),
        hovertemplate="%{y}<br>%{text}<extra></extra>",
    ))
    running, top = 0.0, 1.0
    for kind, v in zip(kinds, values, strict=True):
        running = running + v if kind == "relative" else v
        top = max(top, abs(running))
    lines = textwrap.wrap(title, 44)
    fig.update_layout(title="<br>".join(lines), height=90 + 52 * len(names), showlegend=False,
                      xaxis=dict(title=MEASURES[measure], range=[0, top * 1.22]),
                      **{**_LAYOUT, "margin": dict(l=10, r=10, t=40 + 20 * len(lines), b=10)})
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig


def documents_table(rows: list[DocDifference]) -> pd.DataFrame:
    """The per-text comparison as a table (reasons in words in ``why``)."""
    df = pd.DataFrame([r.to_dict() for r in rows],
                      columns=["document", "Martino P", "Martino R", "Martino F1", "MAFALDA P",
                               "MAFALDA R", "MAFALDA F1", "F1 difference", "reasons",
                               "weight pooled", "weight averaged"])
    return df


NO_REASON = "nothing that separates the metrics"


def first_reason(reasons: str) -> str:
    return reasons.split(", ")[0] if reasons else NO_REASON


SCATTER_MAX = 2000
"""Most texts the scatter draws: a random sample (:mod:`ui.sampling`) beyond, so that the share
of texts on the diagonal stays what it is in the corpus; the table lists every text."""
SCATTER_AUTO = 500
"""Above this many texts the page draws the scatter only when asked (measured with
``bench/bench_app.py``: 2,000 markers take a headless Chromium about 1.3 s, 500 about 0.5 s)."""


def scatter(df: pd.DataFrame, *, level: int, variant: str) -> go.Figure:
    """Per-text Martino F1 (x) against MAFALDA F1 (y), coloured by the first reason; points on
    the diagonal score the same under both metrics. The caller passes at most
    :data:`SCATTER_MAX` rows (:func:`ui.sampling.sample_rows`): a browser draws 10,000 markers
    slowly."""
    fig = go.Figure()
    top = max(1.0, float(df["Martino F1"].max() if len(df) else 1.0),
              float(df["MAFALDA F1"].max() if len(df) else 1.0))
    fig.add_scatter(x=[0, top], y=[0, top], mode="lines", name="same score",
                    line=dict(color="#bbb", dash="dash"), hoverinfo="skip")
    groups = df.assign(reason=df["reasons"].map(first_reason)).groupby("reason", sort=True)
    for i, (reason, part) in enumerate(groups):
        colour = "#9e9e9e" if reason == NO_REASON else PALETTE[(i + 1) % len(PALETTE)]
        fig.add_scatter(
            x=part["Martino F1"], y=part["MAFALDA F1"], mode="markers", name=str(reason),
            customdata=part[["document", "reasons"]].to_numpy(),
            marker=dict(size=11, color=colour, opacity=0.85,
                        line=dict(width=1, color="white")),
            hovertemplate="document %{customdata[0]}<br>Martino F1 %{x:.3f}<br>MAFALDA F1 "
                          "%{y:.3f}<br>%{customdata[1]}<extra></extra>")
    fig.update_layout(title=f"Per text: Martino F1 (SemEval-2021) against MAFALDA F1 "
                            f"({variant}, level {level})", height=460,
                      xaxis=dict(title="Martino F1", range=[-0.03, top + 0.05]),
                      yaxis=dict(title="MAFALDA F1", range=[-0.03, top + 0.05]),
                      legend=dict(orientation="h", yanchor="top", y=-0.15, x=0), **_LAYOUT)
    return fig


def reasons_legend() -> pd.DataFrame:
    """The reason tags and what each does to the two metrics."""
    return pd.DataFrame([{"reason": k, "what it does": v} for k, v in REASONS.items()])


def selected_document(event: Any, df: pd.DataFrame) -> str | None:
    """The document of a clicked scatter point or a selected table row (``event`` is the
    selection state of ``st.plotly_chart``/``st.dataframe``), else None."""
    if not event:
        return None
    sel = event["selection"]
    points = sel.get("points")
    if points:
        data = points[0].get("customdata")
        return str(data[0]) if data else None
    rows = sel.get("rows")
    if rows:
        return str(df.iloc[int(rows[0])]["document"])
    return None
