"""Plotly figure builders for the Data, Scores and Documents pages.

Each takes a tidy DataFrame that ``core`` computed (through :mod:`ui.state`) and returns a
``go.Figure``; none computes a metric. PNG export is Plotly's own modebar camera button.
Every string a builder draws that can come from a file (labels, set names, titles that name
them) goes through :func:`ui.escape.plot` here, once: callers pass plain text.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go

from core.render.highlight import PALETTE
from core.render.palette import FILL_PATTERNS, SEQUENTIAL
from ui.escape import plot

TITLE_CHARS = 44
"""The longest line of a chart's title, in characters: Plotly's bold title font draws about 7 px
a character, so a line fits the 358 px a chart has on a phone (390 px wide)."""


def wrapped_title(title: str) -> tuple[str, int]:
    """A chart's title wrapped at :data:`TITLE_CHARS` (``<br>`` between lines) and the top
    margin that holds it below Plotly's toolbar: the toolbar takes the margin's first 25 px or
    so, and Plotly centres the title in the rest; a title on one line in a 60 px margin was cut
    on a phone and drawn under the toolbar.

    >>> wrapped_title("F1, one rule at a time")
    ('F1, one rule at a time', 60)
    >>> wrapped_title("Per text: Martino F1 (SemEval-2021) against MAFALDA F1 (paper, level 2)")
    ('Per text: Martino F1 (SemEval-2021) against<br>MAFALDA F1 (paper, level 2)', 80)

    """
    lines = textwrap.wrap(title, TITLE_CHARS)
    return "<br>".join(plot(line) for line in lines), 40 + 20 * len(lines)


TOOLBAR_PX, LINE_PX, TITLE_GAP = 34, 22, 12
"""A titled chart's top margin, from the top: the row of Plotly's toolbar, each line of the
title (its 17 px font), then a gap above the plot."""

LABEL_CHARS = 22
"""The longest line of a label beside the per-label chart's bars, in characters: about 145 px of
Plotly's 12 px tick font, which leaves a phone's chart (358 px) two thirds of its width for the
bars."""
GROUP_PX, LABEL_LINE_PX, AXIS_PX = 48, 15, 90
"""The per-label chart's height: each label's group of three bars (at least :data:`GROUP_PX`,
more for a label wrapped on more than two lines of :data:`LABEL_LINE_PX`), then the score axis,
its title and the legend below them."""


def label_lines(label: str) -> str:
    """A label as a tick of the per-label chart: escaped (:func:`ui.escape.plot`) and wrapped at
    :data:`LABEL_CHARS` (``<br>`` between lines).

    >>> label_lines("Misrepresentation of Someone's Position (Straw Man)")
    "Misrepresentation of<br>Someone's Position<br>(Straw Man)"
    >>> label_lines("<b>x</b>")
    '&lt;b&gt;x&lt;/b&gt;'
    """
    lines = textwrap.wrap(str(label), LABEL_CHARS, break_long_words=False,
                          break_on_hyphens=False) or [str(label)]
    return "<br>".join(plot(line) for line in lines)


def _titled(fig: go.Figure, title: str, *, height: int) -> go.Figure:
    """``fig`` with ``title`` wrapped (:func:`wrapped_title`) at the top left, under the
    toolbar's row, in a margin as tall as its lines, and the legend at the figure's foot (as
    the Errors page's charts, ``ui.errors._legend_below``): on a phone the title ran past the
    chart's edge, and a legend over the plot's corner wraps to two rows there, into the title.
    ``height`` is the figure's with a one-line title; the figure grows by each further line.
    The title is placed by its middle (Plotly moves a multi-line title anchored at its top up
    by half a line a line, into the toolbar)."""
    text, _ = wrapped_title(title)
    lines = len(text.split("<br>"))
    top = TOOLBAR_PX + LINE_PX * lines + TITLE_GAP
    full = height + LINE_PX * (lines - 1)
    fig.update_layout(
        title=dict(text=text, x=0, xanchor="left", xref="container", pad=dict(l=8),
                   yref="container", yanchor="middle",
                   y=1 - (TOOLBAR_PX + LINE_PX * lines / 2) / full),
        height=full, template="plotly_white", margin=dict(l=10, r=10, t=top, b=10),
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0, x=0,
                    xanchor="left"))
    return fig


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
    """Grouped horizontal bars of P, R and F1 per label (columns ``label``, ``P``, ``R``,
    ``F1``), one group a row in the table's order, each score with its colour and its fill
    pattern (:data:`~core.render.palette.FILL_PATTERNS`); each label wrapped beside its bars
    (:func:`label_lines`) and whole in the hover.

    The chart is as tall as its labels need (:data:`GROUP_PX` a label, more for a label of more
    than two lines): upright bars gave each label's group about 120 px of width on a phone (390
    px), its name drawn upright below them, and twenty labels were unreadable (bugleft27).
    """
    ticks = [label_lines(lab) for lab in df["label"]]
    full = [plot(str(lab)) for lab in df["label"]]
    fig = go.Figure()
    for i, col in enumerate(("P", "R", "F1")):
        if col in df:
            fig.add_bar(y=ticks, x=df[col], name=col, orientation="h", customdata=full,
                        hovertemplate=f"%{{customdata}}<br>{col} %{{x:.4f}}<extra></extra>",
                        marker_color=PALETTE[i], marker_pattern_shape=FILL_PATTERNS[i])
    rows = sum(max(GROUP_PX, LABEL_LINE_PX * (t.count("<br>") + 1) + 18) for t in ticks)
    fig.update_layout(barmode="group", xaxis_title="score", bargap=0.25,
                      yaxis=dict(autorange="reversed", automargin=True),
                      xaxis=dict(rangemode="tozero"))
    return _titled(fig, title, height=max(300, rows + AXIS_PX + 60))


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
    fig.update_layout(barmode="group", yaxis_title="score")
    return _titled(fig, title, height=360)


def doc_scores_hist(df: pd.DataFrame, column: str, *, title: str) -> go.Figure:
    """Histogram of per-document scores in ``column``."""
    fig = go.Figure(go.Histogram(x=df[column], nbinsx=20, marker_color=PALETTE[0]))
    fig.update_layout(xaxis_title=plot(column), yaxis_title="documents")
    return _titled(fig, title, height=300)
