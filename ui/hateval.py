"""HatEval 2019 results for the Scores page: every prediction file against the gold file.

HatEval files hold one label per text and column (HS, TR, AG), not spans; the readers return
them as :class:`core.formats.hateval.HatEvalTable` records, and :mod:`core.metrics.hateval`
computes tasks A and B exactly as the final official program (with clear errors instead of its
exits). This module only caches those results and lays them out as tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from core.formats.hateval import COLUMNS, LONG_NAMES, HatEvalTable
from core.metrics import hateval
from core.model.errors import SpanScopeError
from ui.escape import md
from ui.state import Workspace


def tables(ws: Workspace) -> dict[str, HatEvalTable]:
    """The workspace's HatEval tables by set name."""
    return ws.records(HatEvalTable)


def is_gold(ws: Workspace, name: str, table: HatEvalTable) -> bool:
    """Whether the table ``name`` is a gold file: it holds the texts, unless its set has the
    system role (Data page, or guessed from its name): a prediction may carry the gold's five
    columns (tour 4, finding 3)."""
    aset = ws.sets.get(name)
    return table.is_gold and (aset is None or aset.role != "system")


@st.cache_data(max_entries=16, show_spinner=False)
def labels_by_text(ws_key: str, _ws: Workspace, name: str) -> dict[str, dict[str, int]]:
    """Text id -> the labels (``{"HS": 1, "TR": 0, "AG": 1}``, the file's columns) the HatEval
    table of set ``name`` gives it; empty when the set is no HatEval table."""
    table = tables(_ws).get(name)
    if table is None:
        return {}
    return {d: {c: table.labels[c][i] for c in table.columns} for i, d in enumerate(table.ids)}


def text_labels(ws: Workspace, names: Sequence[str], doc: str
                ) -> tuple[list[str], list[str]] | None:
    """The text labels of ``doc`` in each set of ``names``, as Markdown (``HS 1 · TR 0 · AG 1``;
    a label that differs from the first set's in bold, with ≠), and the columns where they
    differ; None when no set of ``names`` is a HatEval table holding ``doc`` (the Documents
    page, tour 4, finding 8)."""
    got = [labels_by_text(ws.key, ws, n).get(doc) for n in names]
    if all(g is None for g in got):
        return None
    first = got[0] or {}
    differ = [c for c in COLUMNS if any(g is not None and c in g and c in first
                                        and g[c] != first[c] for g in got[1:])]
    lines = [" · ".join(f"**{c} {v} ≠**" if i and c in differ and first.get(c) != v
                        else f"{c} {v}" for c, v in g.items()) if g is not None
             else "no text labels" for i, g in enumerate(got)]
    return lines, differ


@st.cache_data(max_entries=16, show_spinner="Scoring HatEval…")
def results(ws_key: str, _ws: Workspace, gold: str) -> dict[str, dict[str, Any]]:
    """Each other HatEval table scored against ``gold``: task A for 2-column predictions, task B
    for 4-column ones (and 5-column ones with the system role, :func:`is_gold`);
    ``{"error": message}`` where the official checks refuse the file."""
    found = tables(_ws)
    out: dict[str, dict[str, Any]] = {}
    for name, table in found.items():
        if name == gold or is_gold(_ws, name, table):
            continue
        try:
            if table.columns == COLUMNS:
                out[name] = hateval.evaluate_b(found[gold], table)
            else:
                out[name] = hateval.evaluate_a(found[gold], table)
        except SpanScopeError as exc:
            out[name] = {"error": str(exc)}
    return out


def summary(res: dict[str, dict[str, Any]], task: str) -> pd.DataFrame:
    """One row per system of ``task`` (``hateval-a`` or ``hateval-b``)."""
    rows = []
    for name, r in res.items():
        if r.get("metric") != task:
            continue
        if task == "hateval-a":
            rows.append({"system": name, "accuracy": r["accuracy"], "P macro": r["precision_macro"],
                         "R macro": r["recall_macro"], "F1 macro": r["f1_macro"],
                         "texts": r["documents"]})
        else:
            row: dict[str, Any] = {"system": name, "EMR": r["emr"], "mean macro-F1": r["macro_f1"]}
            for c in COLUMNS:
                row[f"{c} accuracy"] = r["accuracy"][c]
                row[f"{c} F1 macro"] = r["f1_macro"][c]
            row["texts"] = r["documents"]
            rows.append(row)
    return pd.DataFrame(rows)


def per_class(r: dict[str, Any]) -> pd.DataFrame:
    """Per-class P/R/F1 and support of one result (each column for task B)."""
    classes = r["per_class"]
    if r["metric"] == "hateval-a":
        classes = {"HS": classes}
    rows = [{"column": LONG_NAMES[col], "class": cls, "P": v["precision"], "R": v["recall"],
             "F1": v["f1"], "support": v["support"]}
            for col, by_class in classes.items() for cls, v in by_class.items()]
    return pd.DataFrame(rows)


def render(ws: Workspace) -> None:
    """The Scores page's HatEval section: gold choice, task A and task B tables, per class."""
    from ui.widgets import download_buttons

    found = tables(ws)
    golds = [n for n, t in found.items() if is_gold(ws, n, t)]
    st.header("HatEval 2019")
    st.caption("Text classification (SemEval-2019 Task 5, Basile et al. 2019): task A scores HS "
               "(hate speech or not) by accuracy and macro P/R/F1 over the classes present; task "
               "B scores HS, TR (target: individual or group) and AG (aggressive or not) each, "
               "their mean macro-F1, and the Exact Match Ratio (all three right), which ranked "
               "task B. Computed by core.metrics.hateval as the official program does; F1 is the "
               "harmonic mean (the task page's (2·P·R)/(P·R) is a typo).")
    if not golds:
        st.info("No HatEval gold file (5 columns: id, text, HS, TR, AG) is loaded.", icon="ℹ️")
        return
    gold = st.selectbox("HatEval gold", golds, key="hev_gold")
    res = results(ws.key, ws, gold)
    if not res:
        st.info(f"No prediction file to score against {md(gold)}.", icon="ℹ️")
        return
    for name, r in res.items():
        if "error" in r:
            st.error(f"{md(name)}: {md(r['error'])}", icon="❌")
        for w in r.get("warnings", []):
            st.warning(f"{md(name)}: {md(w)}", icon="⚠️")
    for task, title in (("hateval-a", "Task A (HS)"), ("hateval-b", "Task B (HS, TR, AG)")):
        table = summary(res, task)
        if not len(table):
            continue
        st.markdown(f"**{title}**")
        st.dataframe(table, hide_index=True, key=f"hev_{task}",
                     column_config={c: st.column_config.NumberColumn(format="%.4f")
                                    for c in table.columns if c not in ("system", "texts")},
                     placeholder="—")
        download_buttons(table, task, key=f"dl_{task}")
    scored = [n for n, r in res.items() if "error" not in r]
    if scored:
        one = st.selectbox("Per class, for", scored, key="hev_system")
        detail = per_class(res[one])
        st.dataframe(detail, hide_index=True, key="hev_per_class",
                     column_config={c: st.column_config.NumberColumn(format="%.4f")
                                    for c in ("P", "R", "F1")}, placeholder="—")
        download_buttons(detail, f"hateval_per_class_{one}", key="dl_hev_per_class")
