"""Summaries of the loaded data for the Data and Home pages: counts, not metrics."""

from __future__ import annotations

from typing import TypedDict

import numpy as np
import pandas as pd
import streamlit as st

from ui.state import FileReport, Workspace


class SummaryTables(TypedDict):
    """What :func:`summary_tables` returns."""

    n_docs: int
    n_texts: int
    sets: pd.DataFrame
    labels: pd.DataFrame
    missing: pd.DataFrame


@st.cache_data(max_entries=16, show_spinner=False)
def summary_tables(ws_key: str, _ws: Workspace) -> SummaryTables:
    """Tables of the Data page, cached per workspace.

    ``sets``: one row per set (role, documents, spans, labels, documents missing from it);
    ``labels``: spans per label (rows) and set (columns); ``missing``: one row per (set, document)
    for every document of the corpus that the set does not cover; ``n_docs``: corpus size.
    """
    corpus = _ws.corpus
    all_ids = corpus.doc_ids
    set_rows, label_counts, missing_rows = [], {}, []
    for name, aset in corpus.sets.items():
        covered = aset.spans
        missing = [d for d in all_ids if d not in covered]
        # From the set's columns: a set read as columns builds no Span here.
        table = aset.table
        per_label = np.bincount(table.label, minlength=len(table.labels)).tolist()
        counts = {lab: n for lab, n in zip(table.labels, per_label, strict=True) if n}
        label_counts[name] = counts
        set_rows.append({
            "set": name, "role": aset.role, "documents": len(covered),
            "spans": aset.span_count(), "labels": len(counts),
            "alternatives": aset.alternatives, "missing documents": len(missing),
        })
        missing_rows += [{"set": name, "document": d} for d in missing]
    labels = pd.DataFrame(label_counts).fillna(0).astype(int).sort_index()
    labels.index.name = "label"
    return {
        "n_docs": len(all_ids),
        "n_texts": sum(1 for t in corpus.texts.values() if t is not None),
        "sets": pd.DataFrame(set_rows),
        "labels": labels.reset_index() if len(labels) else pd.DataFrame(columns=["label"]),
        "missing": pd.DataFrame(missing_rows, columns=["set", "document"]),
    }


def diagnostics_table(reports: tuple[FileReport, ...] | list[FileReport]) -> pd.DataFrame:
    """Every error and warning of the reports: severity, file, line, field, message, and how
    many occurrences the row stands for (a reader groups a kind of warning that repeats, such
    as 60,000 spans that start in whitespace or every relation line of a brat file: the row
    shows the first; ``python -m core validate --all-warnings`` lists them all)."""
    rows = []
    for rep in reports:
        diags = ([rep.error] if rep.error else []) + list(rep.diagnostics)
        for d in diags:
            rows.append({"severity": d.severity, "file": d.file, "line": d.line,
                         "field": d.field or (d.path or ""), "message": d.message,
                         "count": d.count})
    frame = pd.DataFrame(rows, columns=["severity", "file", "line", "field", "message",
                                        "count"])
    frame["line"] = frame["line"].astype("Int64")  # a missing line stays empty, not 1.0
    return frame
