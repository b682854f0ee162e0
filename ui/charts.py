"""Plotly figure builders for the Data, Scores and Documents pages.

Each takes a tidy DataFrame that ``core`` computed (through :mod:`ui.state`) and returns a
``go.Figure``; none computes a metric. PNG export is Plotly's own modebar camera button.
Every string a builder draws that can come from a file (labels, set names, titles that name
them) goes through :func:`ui.escape.plot` here, once: callers pass plain text.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go

from core.render.highlight import PALETTE
from core.render.palette import FILL_PATTERNS, SEQUENTIAL
from ui.escape import plot

_LAYOUT = dict(margin=dict(l=10, r=10, t=70, b=10), template="plotly_white",
               legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"))


def spans_per_label(labels: pd.DataFrame) -> go.Figure:
    """Heatmap of spans per label (rows of ``labels``) and set (its other columns), counts as
    text: with many labels and sets it stays readable where grouped bars do not."""
    sets = [c for c in labels.columns if c != "label"]
    z = labels[sets].to_numpy()
    fig = go.Figure(go.Heatmap(
        z=z, x=[plot(s) for s in sets], y=[plot(lab) for lab in labels["label"]], text=z,
        texttemplate="%{text}",
        colorscale=SEQUENTIAL, showscale=False,
        hovertemplate="%{y}<br>%{x}: %{z} spans<extra></extra>",
    ))
    # The set names sit above the columns, slanted; the top margin makes room for the longest
    # so that it never runs into the title (real file names are long: a model's results file).
    longest = max((len(str(s)) for s in sets), default=0)
    names_height = int(min(longest, 60) * 7 * 0.5) + 20
    layout = {**_LAYOUT, "margin": dict(l=10, r=10, t=40 + names_height, b=10)}
    fig.update_layout(title=dict(text="Spans per label and set", y=1, yref="container",
                                 yanchor="top", pad=dict(t=8)),
                      height=max(260, 26 * len(labels) + 70 + names_height), **layout)
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(side="top", tickangle=-30)
    return fig


def per_label_prf(df: pd.DataFrame, *, title: str) -> go.Figure:
    """Grouped bars of P, R and F1 per label (columns ``label``, ``P``, ``R``, ``F1``), each
    score with its colour and its fill pattern (:data:`~core.render.palette.FILL_PATTERNS`)."""
    fig = go.Figure()
    for i, col in enumerate(("P", "R", "F1")):
        if col in df:
            fig.add_bar(x=[plot(lab) for lab in df["label"]], y=df[col], name=col,
                        marker_color=PALETTE[i],
                        marker_pattern_shape=FILL_PATTERNS[i])
    fig.update_layout(barmode="group", title=plot(title), height=380, yaxis_title="score",
                      **_LAYOUT)
    return fig


def systems_f1(df: pd.DataFrame, *, columns: Mapping[str, str], title: str) -> go.Figure:
    """Bars of each system's scores with their 95% intervals as error bars; each score has its
    colour and its fill pattern, so the groups read apart without colour.

    ``columns`` maps a shown name to a column of ``df``; a column ``<col> low`` / ``<col> high``
    beside it, when present, gives the interval.
    """
    fig = go.Figure()
    for i, (shown, col) in enumerate(columns.items()):
        if col not in df:
            continue
        err = None
        if f"{col} low" in df and f"{col} high" in df:
            err = dict(type="data", symmetric=False, array=df[f"{col} high"] - df[col],
                       arrayminus=df[col] - df[f"{col} low"])
        fig.add_bar(x=[plot(s) for s in df["system"]], y=df[col], name=plot(shown), error_y=err,
                    marker_color=PALETTE[i % len(PALETTE)],
                    marker_pattern_shape=FILL_PATTERNS[i % len(FILL_PATTERNS)])
    fig.update_layout(barmode="group", title=plot(title), height=360, yaxis_title="score",
                      **_LAYOUT)
    return fig


def doc_scores_hist(df: pd.DataFrame, column: str, *, title: str) -> go.Figure:
    """Histogram of per-document scores in ``column``."""
    fig = go.Figure(go.Histogram(x=df[column], nbinsx=20, marker_color=PALETTE[0]))
    fig.update_layout(title=plot(title), height=300, xaxis_title=plot(column),
                      yaxis_title="documents", **_LAYOUT)
    return fig
