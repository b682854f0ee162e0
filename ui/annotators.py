"""The Annotators page's cached computations, background jobs, tables and figures.

Every number comes from :mod:`core.metrics.agreement` (the measures, and
:mod:`core.metrics.agreement.panel` for the majority set, any measure over pairs, each annotator
against a reference, the document ranking and :func:`~core.metrics.agreement.measure_view`, all
of it for one measure); this module caches those results per workspace and turns them into
tables and plotly figures.

γ and γ-cat sample chance continua and take seconds on a corpus (``docs/agreement.md``), so they
run in the background: :func:`gamma_job` and, for the γ measures, :func:`view_job` return a
:class:`Job` at once, kept per (workspace key, sets, label, seed, samples) with
``st.cache_resource``. The work runs in one worker *process* (:mod:`ui.jobs`,
:mod:`ui.gamma_worker`: a thread would hold the interpreter lock against every page run, and two
cores are shared by everyone, so jobs queue rather than compete), which reports progress. The
page shows a
:func:`progress` fragment that polls the job and reruns the page when it is done; the rest of
the page stays usable meanwhile. Every other measure takes well under a second and is computed
in the script run (:func:`measure_view`).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.metrics.agreement import (
    MEASURES,
    DocDisagreement,
    ManyResult,
    MeasureView,
    PairwiseResult,
    Study,
    fleiss_text,
    gamma_alignment,
    krippendorff_text,
    majority_set,
    unitizing,
)
from core.metrics.agreement import measure_view as core_measure_view
from core.metrics.agreement.panel import ASYMMETRIC, MANY_MEASURES
from core.model import AnnotationSet
from core.segments import assign_lanes
from ui.highlight import PALETTE
from ui.jobs import Job, progress, submit
from ui.jobs import shown as jobs_shown
from ui.palette import SEQUENTIAL
from ui.state import K_ANN_JOBS, Workspace

GAMMA_MEASURES = ("gamma", "gamma-cat")
SPAN_CELLS = ("F1", "precision", "recall")
"""What a span-F1 matrix cell shows (radio options as shown, so the URL carries them)."""

MEASURE_HELP: dict[str, str] = {
    "span-f1": "Da San Martino et al. (2019) span P/R/F1 (SemEval-2021 variant): partial-overlap "
               "credit; the row annotator is the reference.",
    "mafalda-f1": "MAFALDA (Helwe et al. 2024) span P/R/F1 (paper variant, level 2): best match "
                  "per span; the row annotator is the reference.",
    "char-kappa": "Cohen's κ (1960) over characters × labels: is each character covered by a "
                  "span of each label?",
    "char-jaccard": "|A ∩ B| / |A ∪ B| of the (character, label) pairs the two annotators marked.",
    "text-kappa": "Cohen's κ over documents × labels (is the label present in the text?), "
                  "MAFALDA's multi-label binary κ.",
    "fleiss-kappa": "Fleiss' κ (1971) over documents × labels (present/absent); for one pair it "
                    "is Scott's π.",
    "krippendorff-alpha": "Krippendorff's α (2011, nominal) over documents × labels, missing "
                          "documents allowed.",
    "unitizing-alpha": "Krippendorff's α_U (1995) per label, the documents laid end to end: "
                       "positions and lengths of the units.",
    "gamma": "Mathet et al. (2015) γ: the best alignment of the units against chance continua "
             "(positional and categorical dissimilarity).",
    "gamma-cat": "Mathet (2018) γ-cat: the categorical part of γ over the aligned units.",
}

MANY_NAMES: dict[str, str] = {
    "fleiss-kappa": "Fleiss' κ", "krippendorff-alpha": "Krippendorff's α",
    "unitizing-alpha": "unitizing α_U", "gamma": "γ", "gamma-cat": "γ-cat",
}

_LAYOUT = dict(margin=dict(l=10, r=10, t=60, b=10), template="plotly_white")


# ---- background jobs (ui.jobs) ------------------------------------------------------------------


def shown(jobs: Sequence[Job[MeasureView] | Job[dict[str, ManyResult]] | None], *,
          memory: MutableMapping[str, object] | None = None) -> None:
    """:func:`ui.jobs.shown` with the Annotators page's key (``memory``: the session state)."""
    jobs_shown(jobs, memory=memory if memory is not None else st.session_state, key=K_ANN_JOBS)


# ---- cached computations ------------------------------------------------------------------------


def _sets(ws: Workspace, names: Sequence[str]) -> list[AnnotationSet]:
    return [ws.sets[n] for n in names]


@st.cache_resource(max_entries=16, show_spinner=False)
def study(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None) -> Study:
    """The agreement study of ``sets`` (only ``label`` when given); raises ``InputError``."""
    return Study.from_sets(_sets(_ws, sets), _ws.corpus.texts, label=label)


@st.cache_resource(max_entries=16, show_spinner=False)
def majority(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
             ) -> AnnotationSet:
    """:func:`core.metrics.agreement.majority_set` of ``sets`` (strict majority, per label)."""
    return majority_set(_sets(_ws, sets), label=label)


@st.cache_resource(max_entries=16, show_spinner="Fleiss' κ, Krippendorff's α, α_U…")
def many_values(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None
                ) -> dict[str, ManyResult]:
    """The many-annotator measures that take about a second or less (every one but γ); corpus
    values only (the ranking of documents comes from :func:`measure_view`)."""
    s = study(ws_key, _ws, sets, label)
    return {"fleiss-kappa": fleiss_text(s, per_document=False),
            "krippendorff-alpha": krippendorff_text(s, per_document=False),
            "unitizing-alpha": unitizing(s, per_document=False)}


GAMMA_AUTO_DOCS = 1000
"""Above this many documents the Annotators page computes the corpus γ only when asked
(docs/agreement.md: ≈ 40 ms a document on two cores, so minutes for ten thousand)."""


@st.cache_resource(max_entries=32, show_spinner=False)
def gamma_job(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
              seed: int, samples: int) -> Job[dict[str, ManyResult]]:
    """Corpus γ and γ-cat of ``sets`` in the background: ``{"gamma": …, "gamma-cat": …}``."""
    s = study(ws_key, _ws, sets, label)
    return submit(Job(f"γ of {len(sets)} annotators, {samples} samples, seed {seed}", "gamma",
                       {"study": s, "samples": samples, "seed": seed}))


def _view_args(ws: Workspace, sets: tuple[str, ...], label: str | None, measure: str,
               gold: str | None, leave_one_out: bool) -> dict[str, Any]:
    return {"sets": _sets(ws, sets), "texts": dict(ws.corpus.texts), "measure": measure,
            "label": label, "gold": ws.sets[gold] if gold is not None else None,
            "leave_one_out": leave_one_out}


@st.cache_resource(max_entries=32, show_spinner="Computing agreement…")
def measure_view(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
                 measure: str, gold: str | None, leave_one_out: bool) -> MeasureView:
    """:func:`core.metrics.agreement.measure_view` of a measure other than γ (computed in the
    script run)."""
    return core_measure_view(**_view_args(_ws, sets, label, measure, gold, leave_one_out))


@st.cache_resource(max_entries=32, show_spinner=False)
def view_job(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None,
             measure: str, gold: str | None, leave_one_out: bool, seed: int, samples: int
             ) -> Job[MeasureView]:
    """:func:`core.metrics.agreement.measure_view` of γ or γ-cat, in the background."""
    return submit(Job(f"{measure} of every pair and against the gold and the majority "
                       f"({samples} samples, seed {seed})", "view",
                       {**_view_args(_ws, sets, label, measure, gold, leave_one_out),
                        "samples": samples, "seed": seed}))


@st.cache_data(max_entries=64, show_spinner="Aligning…")
def alignment(ws_key: str, _ws: Workspace, sets: tuple[str, ...], label: str | None, doc: str,
              seed: int, samples: int) -> dict[str, Any]:
    """:func:`core.metrics.agreement.gamma_alignment` of one document (raises ``InputError``
    when fewer than two annotators list it)."""
    return gamma_alignment(study(ws_key, _ws, sets, label), doc, samples=samples, seed=seed)


def document_gamma(al: Mapping[str, Any], corpus: ManyResult | None, *, from_corpus: bool
                   ) -> tuple[str, str | None]:
    """One document's γ as shown, and why it is undefined.

    ``from_corpus``: the value is the document's entry in the corpus γ (``corpus``; "…" while
    that runs), which is the value :func:`gamma_alignment` gives with the same samples and seed
    (``docs/agreement.md``); otherwise the alignment's own γ (computed with the samples).
    """
    if from_corpus:
        if corpus is None:
            return "… (computing with the corpus γ)", None
        agr = corpus.per_document.get(al["doc"])
        if agr is None:
            return "n/a", "not in the corpus γ"
        return ("n/a" if agr.value is None else f"{agr.value:.3f}"), agr.reason
    g = al["gamma"]
    return ("n/a" if g["value"] is None else f"{g['value']:.3f}"), g.get("reason")


# ---- tables -------------------------------------------------------------------------------------


def cell_key(measure: str, cell: str) -> str | None:
    """``PairwiseResult.matrix`` key of what the matrix shows (None: the headline value)."""
    if measure in ASYMMETRIC and cell in ("precision", "recall"):
        return cell
    return None


def _cell(result: PairwiseResult, a: str, b: str, key: str | None) -> tuple[float | None, str]:
    """Value and reason of the (row a, column b) cell; the reason is '' when defined."""
    pv = result.pairs.get((a, b))
    if pv is None and result.symmetric:
        pv = result.pairs.get((b, a))
    if pv is None:
        return None, "same annotator" if a == b else "not computed"
    agr = pv.overall if key is None else pv.extra.get(key, pv.overall)
    if agr.value is None:
        return None, agr.reason or "undefined"
    return agr.value, ""


def matrix_table(result: PairwiseResult, key: str | None = None) -> pd.DataFrame:
    """One row per ordered cell (row, column, value, why undefined), diagonal left out."""
    rows = []
    for a in result.annotators:
        for b in result.annotators:
            if a == b:
                continue
            value, why = _cell(result, a, b, key)
            rows.append({"row (reference)" if not result.symmetric else "row": a,
                         "column": b, "value": value, "undefined because": why})
    return pd.DataFrame(rows)


def undefined_cells(result: PairwiseResult, key: str | None = None) -> pd.DataFrame:
    """The off-diagonal cells without a value and why (unordered pairs once when symmetric)."""
    rows = []
    for (a, b), _ in result.pairs.items():
        value, why = _cell(result, a, b, key)
        if value is None:
            rows.append({"pair": f"{a} · {b}", "undefined because": why})
    return pd.DataFrame(rows, columns=["pair", "undefined because"])


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def many_table(values: Mapping[str, ManyResult]) -> pd.DataFrame:
    """One row per many-annotator measure: value, its Monte-Carlo spread (γ), documents, samples
    and seed (γ), and why it is undefined."""
    rows = []
    for name, res in values.items():
        sd = res.overall.stats.get("gamma_mc_sd") if name == "gamma" else None
        rows.append({
            "measure": name, "shown as": MANY_NAMES.get(name, name), "value": res.overall.value,
            "± 2 sd": 2 * sd if sd is not None else None,
            "documents": res.params.get("documents"),
            "documents left out": res.params.get("documents_left_out", 0),
            "samples": res.params.get("samples"), "seed": res.params.get("seed"),
            "undefined because": res.overall.reason or "",
        })
    return pd.DataFrame(rows)


def per_label_table(values: Mapping[str, ManyResult]) -> pd.DataFrame:
    """Label × measure values of the many-annotator measures that break down by label."""
    labels: dict[str, dict[str, float | None]] = {}
    for name, res in values.items():
        shown = "γ-k" if name == "gamma-cat" else MANY_NAMES.get(name, name)
        for lab, agr in res.per_label.items():
            labels.setdefault(lab, {})[shown] = agr.value
    return pd.DataFrame([{"label": lab, **vals} for lab, vals in sorted(labels.items())])


def against_table(view: MeasureView) -> pd.DataFrame:
    """Each annotator's value against the gold and against the majority (P and R as well for the
    span-F1 measures)."""
    rows = []
    for ref_name, results in (("gold", view.gold), ("majority", view.majority)):
        if results is None:
            continue
        for annotator, pv in results.items():
            row: dict[str, Any] = {"annotator": annotator, "against": ref_name}
            if view.measure in ASYMMETRIC:
                row["P"] = pv.extra["precision"].value if "precision" in pv.extra else None
                row["R"] = pv.extra["recall"].value if "recall" in pv.extra else None
                row["F1"] = pv.overall.value
            else:
                row[view.measure] = pv.overall.value
            row["undefined because"] = pv.overall.reason or ""
            rows.append(row)
    return pd.DataFrame(rows)


def ranking_table(rows: Sequence[DocDisagreement], measure: str) -> pd.DataFrame:
    """Documents, most disagreement first: value, least-agreeing pair and its value (for the
    asymmetric span-F1 measures written ``reference → compared``)."""
    sep = " → " if measure in ASYMMETRIC else " · "
    return pd.DataFrame([{
        "rank": i, "document": r.doc, measure: r.value,
        "least agreeing pair": sep.join(r.pair) if r.pair else None,
        "pair value": r.pair_value, "pairs defined": r.pairs, "undefined because": r.reason or "",
    } for i, r in enumerate(rows, 1)], columns=["rank", "document", measure,
                                                  "least agreeing pair", "pair value",
                                                  "pairs defined", "undefined because"])


def alignment_table(al: Mapping[str, Any]) -> pd.DataFrame:
    """One row per unitary alignment: each annotator's unit (∅ when it has none), disorder."""
    units = al["units"]
    rows = []
    for k, row in enumerate(al["alignments"], 1):
        rec: dict[str, Any] = {"#": k}
        for who in al["annotators"]:
            u = row["units"].get(who)
            rec[who] = ("∅" if u is None else
                        f"[{units[u]['start']}, {units[u]['end']}) {units[u]['label']}")
        rec["disorder"] = row["disorder"]
        rows.append(rec)
    return pd.DataFrame(rows)


def restricted(aset: AnnotationSet, doc: str, label: str | None) -> AnnotationSet:
    """``aset`` reduced to one document (and one label when given), for drawing."""
    spans = aset.get(doc)
    if label is not None:
        spans = tuple(s for s in spans if s.label == label)
    return AnnotationSet(aset.name, {doc: spans}, aset.role, aset.alternatives)


# ---- figures ------------------------------------------------------------------------------------


def heatmap(result: PairwiseResult, *, key: str | None, title: str) -> go.Figure:
    """The pairwise matrix as a heatmap, every value written in its cell; undefined cells grey
    with "n/a" and their reason on hover, the diagonal "—"."""
    who = result.annotators
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    grey: list[list[float | None]] = []
    grey_text: list[list[str]] = []
    why: list[list[str]] = []
    for a in who:
        zr, tr, gr, gt, wr = [], [], [], [], []
        for b in who:
            value, reason = _cell(result, a, b, key)
            zr.append(value)
            tr.append(_fmt(value) if value is not None else "")
            gr.append(None if value is not None else 0.0)
            gt.append("" if value is not None else ("—" if a == b else "n/a"))
            wr.append(reason)
        z.append(zr)
        text.append(tr)
        grey.append(gr)
        grey_text.append(gt)
        why.append(wr)
    values = [v for r in z for v in r if v is not None]
    zmin = min(0.0, *values) if values else 0.0
    fig = go.Figure()
    fig.add_heatmap(z=grey, x=who, y=who, text=grey_text, texttemplate="%{text}",
                    customdata=why, colorscale=[[0, "#eeeeee"], [1, "#eeeeee"]],
                    showscale=False, zmin=0, zmax=1, xgap=2, ygap=2, hoverongaps=False,
                    hovertemplate="%{y} · %{x}<br>%{customdata}<extra></extra>")
    fig.add_heatmap(z=z, x=who, y=who, text=text, texttemplate="%{text}", textfont=dict(size=15),
                    colorscale=SEQUENTIAL, zmin=zmin, zmax=1.0, xgap=2, ygap=2, hoverongaps=False,
                    colorbar=dict(thickness=12, len=0.8),
                    hovertemplate=("row %{y} (reference)" if not result.symmetric else "%{y}")
                    + " · %{x}: %{z:.4f}<extra></extra>")
    n = len(who)
    fig.update_layout(title=title, height=max(300, 70 * n + 160), **_LAYOUT)
    fig.update_yaxes(autorange="reversed", title="reference (row)" if not result.symmetric
                     else None, type="category")
    fig.update_xaxes(side="bottom", title="compared (column)" if not result.symmetric else None,
                     type="category")
    return fig


def against_bars(table: pd.DataFrame, column: str, *, title: str) -> go.Figure:
    """Grouped bars: each annotator's ``column`` against the gold and against the majority."""
    fig = go.Figure()
    for i, (ref, part) in enumerate(table.groupby("against", sort=False)):
        fig.add_bar(x=part["annotator"], y=part[column], name=f"against {ref}",
                    marker_color=PALETTE[i % len(PALETTE)],
                    text=[_fmt(v) if pd.notna(v) else "n/a" for v in part[column]],
                    textposition="outside")
    fig.update_layout(barmode="group", title=title, height=340, yaxis_title=column,
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1,
                                  xanchor="right"), **_LAYOUT)
    return fig


def alignment_figure(al: Mapping[str, Any], colours: Mapping[str, str], *, title: str
                     ) -> go.Figure:
    """The best alignment of one document: one band per annotator, each unit a bar coloured by
    its label (an annotator's overlapping units on separate lines of its band), the units of one
    unitary alignment joined by a dotted grey line."""
    who: list[str] = list(al["annotators"])
    units = al["units"]
    # y of each unit: its annotator's band (top to bottom in annotator order) plus its lane.
    lane = [0] * len(units)
    depth: dict[str, int] = {}
    for w in who:
        idx = [i for i, u in enumerate(units) if u["annotator"] == w]
        lanes = assign_lanes([(units[i]["start"], units[i]["end"]) for i in idx])
        for i, ln in zip(idx, lanes, strict=True):
            lane[i] = ln
        depth[w] = max(lanes, default=0) + 1
    base: dict[str, float] = {}
    y = 0.0
    for w in who:
        base[w] = y
        y -= depth[w] * 0.45 + 0.8
    ys = [base[u["annotator"]] - 0.45 * lane[i] for i, u in enumerate(units)]
    fig = go.Figure()
    links_x: list[float | None] = []
    links_y: list[float | None] = []
    for row in al["alignments"]:
        members = [row["units"][w] for w in who if row["units"].get(w) is not None]
        if len(members) < 2:
            continue
        for u in members:
            links_x.append((units[u]["start"] + units[u]["end"]) / 2)
            links_y.append(ys[u])
        links_x.append(None)
        links_y.append(None)
    if links_x:
        fig.add_scatter(x=links_x, y=links_y, mode="lines", name="aligned units",
                        line=dict(color="#777777", width=1.5, dash="dot"), hoverinfo="skip")
    by_label: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        by_label.setdefault(u["label"], []).append(i)
    for lab, idx in sorted(by_label.items()):
        xs: list[float | None] = []
        yv: list[float | None] = []
        hover: list[str | None] = []
        for i in idx:
            u = units[i]
            desc = f"{u['annotator']}: [{u['start']}, {u['end']}) {lab}"
            xs += [u["start"], u["end"], None]
            yv += [ys[i], ys[i], None]
            hover += [desc, desc, None]
        fig.add_scatter(x=xs, y=yv, mode="lines", name=lab, text=hover, hoverinfo="text",
                        line=dict(color=colours.get(lab, "#444444"), width=12))
    rows = sum(depth.values())
    fig.update_layout(title=title, height=150 + 34 * rows + 30 * len(who),
                      xaxis_title="character offset", showlegend=True,
                      legend=dict(orientation="h", yanchor="top", y=-0.3, x=0), **_LAYOUT)
    fig.update_yaxes(tickvals=[base[w] for w in who], ticktext=who, zeroline=False,
                     range=[y + 0.4, 0.5], showgrid=False)
    return fig


__all__ = [
    "ASYMMETRIC", "GAMMA_MEASURES", "MANY_MEASURES", "MEASURES", "MEASURE_HELP", "SPAN_CELLS",
    "Job", "MeasureView",
    "against_bars", "against_table", "alignment", "alignment_figure", "alignment_table",
    "cell_key", "document_gamma", "gamma_job", "heatmap", "majority", "many_table",
    "many_values", "matrix_table", "measure_view", "per_label_table", "progress",
    "ranking_table", "restricted", "shown", "study", "undefined_cells", "view_job",
]
