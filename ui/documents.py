"""The Documents page's list: orders (by id, disagreement, score, spans), search, the window of
ids the selector shows, and how each id is labelled. Scores come from :mod:`ui.results`."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from core.model import AnnotationSet
from ui.results import per_doc_f1
from ui.state import Workspace

DOC_SORTS: dict[str, str] = {
    "id": "by id",
    "disagreement": "most disagreement first",
    "score": "lowest score first",
    "spans": "most spans first",
}
"""Orders of the Documents page's list (``disagreement``: :func:`core.segments.disagreement`)."""


def _doc_length(ws: Workspace, doc_id: str, *sets: AnnotationSet) -> int:
    text = ws.corpus.texts.get(doc_id)
    if text is not None:
        return len(text)
    return max((s.end for aset in sets for s in aset.get(doc_id)), default=0)


@st.cache_data(max_entries=16, show_spinner="Ranking documents…")
def disagreements(ws_key: str, _ws: Workspace, set_a: str, set_b: str) -> dict[str, float]:
    """Per document, :func:`core.segments.disagreement` between two sets."""
    from core.segments import disagreement

    a, b = _ws.sets[set_a], _ws.sets[set_b]
    return {
        d: disagreement(a.alt_spans(d), b.alt_spans(d), _doc_length(_ws, d, a, b))
        for d in _ws.corpus.doc_ids
    }


@st.cache_data(max_entries=32, show_spinner="Sorting documents…")
def document_order(
    ws_key: str, _ws: Workspace, set_a: str, set_b: str, sort: str, metric: str,
    variant: str | None, level: int | None,
) -> list[str]:
    """Document ids in the order ``sort`` (see :data:`DOC_SORTS`); ties are broken by id (numbers
    as numbers), so the order never depends on the corpus's file order.

    ``score`` uses the per-document F1 of ``metric`` (documents it cannot score go last) and falls
    back to ``id`` when the metric is unavailable.
    """
    ids = _ws.corpus.doc_ids
    if sort == "disagreement":
        dis = disagreements(ws_key, _ws, set_a, set_b)
        return sorted(ids, key=lambda d: (-dis.get(d, 0.0), _natural_key(d)))
    if sort == "spans":
        a, b = _ws.sets[set_a], _ws.sets[set_b]
        return sorted(ids, key=lambda d: (-(len(a.get(d)) + len(b.get(d))), _natural_key(d)))
    if sort == "score":
        scores = per_doc_f1(ws_key, _ws, set_a, set_b, metric, variant, level)
        if scores:
            return sorted(ids, key=lambda d: (d not in scores, scores.get(d, 0.0),
                                              _natural_key(d)))
    return sorted(ids, key=_natural_key)


def _natural_key(doc_id: str) -> tuple[tuple[int, int | str], ...]:
    """Sort ``doc2`` before ``doc10`` and ``16`` before ``113``: digit runs compare as numbers.

    >>> sorted(["113", "16", "1", "doc10", "doc2"], key=_natural_key)
    ['1', '16', '113', 'doc2', 'doc10']
    """
    import re

    return tuple((0, int(p)) if p.isdigit() else (1, p)
                 for p in re.split(r"(\d+)", doc_id) if p)


def search_documents(ws_key: str, _ws: Workspace, order: tuple[str, ...], query: str) -> list[str]:
    """The ids of ``order`` whose id or text contains ``query`` (case-insensitive)."""
    if not query.strip():
        return list(order)
    # The cache key holds Python's hash of the ids, not the ids: Streamlit's hasher walks a
    # 100,000-id tuple in 0.4 s on every rerun, hash() in milliseconds.
    return _search(ws_key, _ws, hash(order), order, query.strip().lower())


@st.cache_data(max_entries=32, show_spinner="Searching…")
def _search(ws_key: str, _ws: Workspace, order_key: int, _order: tuple[str, ...], q: str
            ) -> list[str]:
    texts = _ws.corpus.texts
    return [d for d in _order if q in d.lower() or q in (texts.get(d) or "").lower()]


DOC_WINDOW = 200
"""Most documents the Documents page's selector lists at once."""


def document_window(ids: list[str], current: str | None) -> list[str]:
    """The first :data:`DOC_WINDOW` of ``ids``, plus ``current`` when it matches but lies beyond
    (so a deep link to any document works).

    >>> document_window([f"d{i}" for i in range(600)], "d550")[-2:]
    ['d199', 'd550']
    """
    window = ids[:DOC_WINDOW]
    if current is not None and current not in window and current in set(ids):
        window = [*window, current]
    return window


def doc_label_func(
    ws_key: str, ws: Workspace, set_a: str, set_b: str, sort: str, metric: str,
    variant: str | None, level: int | None,
) -> Callable[[str], str]:
    """``format_func`` of the document selector: the id plus the value it is sorted by."""
    if sort == "disagreement":
        dis = disagreements(ws_key, ws, set_a, set_b)
        return lambda d: f"{d} · disagreement {dis.get(d, 0.0):.2f}"
    if sort == "score":
        scores = per_doc_f1(ws_key, ws, set_a, set_b, metric, variant, level)
        return lambda d: f"{d} · F1 {scores[d]:.3f}" if d in scores else str(d)
    return str


def neighbours(ids: list[str], current: str | None) -> tuple[str | None, str | None]:
    """The documents before and after ``current`` in ``ids`` (None at either end).

    >>> neighbours(["a", "b", "c"], "a")
    (None, 'b')
    >>> neighbours(["a", "b", "c"], "x")
    (None, 'a')
    """
    if current not in ids:
        return None, (ids[0] if ids else None)
    i = ids.index(current)
    return (ids[i - 1] if i > 0 else None), (ids[i + 1] if i + 1 < len(ids) else None)


SNIPPET = 80
"""Characters of text shown per document in the document table."""


def snippet(text: str | None) -> str:
    """The first :data:`SNIPPET` characters of ``text`` on one line, with an ellipsis when cut.

    >>> snippet("a  b\\nc")
    'a b c'
    """
    if not text:
        return ""
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1].rstrip() + "…"


@st.cache_data(max_entries=16, show_spinner="Listing documents…")
def document_table(
    ws_key: str, _ws: Workspace, set_a: str, set_b: str, order: tuple[str, ...], metric: str,
    variant: str | None, level: int | None,
) -> pd.DataFrame:
    """One row per document of ``order`` (in that order): its F1 under ``metric``, disagreement,
    missed and spurious spans (no same-label partner in the other set, as the merged view marks
    them), spans per set and the start of its text."""
    from core.render.highlight import missed_intervals, span_items
    from core.segments import disagreement

    a, b = _ws.sets[set_a], _ws.sets[set_b]
    scores = per_doc_f1(ws_key, _ws, set_a, set_b, metric, variant, level)
    # Only the listed documents (at most DOC_WINDOW + 1): the whole corpus's disagreements are
    # computed when the list is sorted by them, not to fill a column of 200 rows.
    dis = {d: disagreement(a.alt_spans(d), b.alt_spans(d), _doc_length(_ws, d, a, b))
           for d in order}
    rows = []
    for d in order:
        gold, pred = span_items(a, d, "G"), span_items(b, d, "P")
        rows.append({
            "document": d,
            "F1": scores.get(d),
            "disagreement": round(dis.get(d, 0.0), 3),
            "missed": len(missed_intervals(gold, pred)),
            "spurious": len(missed_intervals(pred, gold)),
            f"{set_a} spans": len(gold),
            f"{set_b} spans": len(pred),
            "text": snippet(_ws.corpus.texts.get(d)),
        })
    return pd.DataFrame(rows)


K_ORDER_SEEN = "doc_order_seen"
"""Session key: a fingerprint of the document order shown last (a change moves to its first)."""
K_DOC_TABLE = "doc_table"
"""Widget key of the Documents page's clickable document table."""


def _open(doc: str | None) -> None:
    from ui.state import K_DOC

    if doc is not None:
        st.session_state[K_DOC] = doc


def stepper(ids: list[str], doc: str) -> None:
    """Previous / next buttons (keys P and N) that move through ``ids`` from ``doc``."""
    prev_doc, next_doc = neighbours(ids, doc)
    pos = ids.index(doc) + 1 if doc in ids else 0
    left, mid, right = st.columns([1, 2, 1], vertical_alignment="center")
    left.button("◀ Previous", key="doc_prev", shortcut="P", on_click=_open, args=(prev_doc,),
                disabled=prev_doc is None, width="stretch",
                help="Previous document in this order (key P)")
    mid.caption(f"Document {pos:,} of {len(ids):,} in this order · keys P and N step through "
                "them")
    right.button("Next ▶", key="doc_next", shortcut="N", on_click=_open, args=(next_doc,),
                 disabled=next_doc is None, width="stretch",
                 help="Next document in this order (key N)")


def table_picker(ws: Workspace, set_a: str, set_b: str, ids: list[str], metric: str,
                 variant: str | None, level: int | None) -> None:
    """:func:`document_table` of ``ids``; clicking a row opens its document."""
    table = document_table(ws.key, ws, set_a, set_b, tuple(ids), metric, variant, level)

    def picked() -> None:
        rows = st.session_state[K_DOC_TABLE].selection.rows
        if rows:
            _open(str(table.iloc[rows[0]]["document"]))

    st.dataframe(table, hide_index=True, key=K_DOC_TABLE, on_select=picked,
                 selection_mode="single-row", height=min(36 * (len(table) + 1) + 3, 300),
                 column_config={
                     "F1": st.column_config.NumberColumn(format="%.3f"),
                     "missed": st.column_config.NumberColumn(
                         help="Gold spans that no same-label prediction overlaps"),
                     "spurious": st.column_config.NumberColumn(
                         help="Predicted spans that no same-label gold span overlaps"),
                     "text": st.column_config.TextColumn(width="large")}, placeholder="—")
