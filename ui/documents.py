"""The Documents page's list: orders (by id, disagreement, score, spans), search, the window of
ids the selector shows, and how each id is labelled. Scores come from :mod:`ui.results`."""

from __future__ import annotations

from collections.abc import Callable

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
    """Document ids in the order ``sort`` (see :data:`DOC_SORTS`); ties keep corpus order.

    ``score`` uses the per-document F1 of ``metric`` (documents it cannot score go last) and falls
    back to ``id`` when the metric is unavailable.
    """
    ids = _ws.corpus.doc_ids
    if sort == "disagreement":
        dis = disagreements(ws_key, _ws, set_a, set_b)
        return sorted(ids, key=lambda d: -dis.get(d, 0.0))
    if sort == "spans":
        a, b = _ws.sets[set_a], _ws.sets[set_b]
        return sorted(ids, key=lambda d: -(len(a.get(d)) + len(b.get(d))))
    if sort == "score":
        scores = per_doc_f1(ws_key, _ws, set_a, set_b, metric, variant, level)
        if scores:
            return sorted(ids, key=lambda d: (d not in scores, scores.get(d, 0.0)))
    return sorted(ids, key=_natural_key)


def _natural_key(doc_id: str) -> tuple[int | str, ...]:
    """Sort ``doc2`` before ``doc10``: digit runs compare as numbers."""
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", doc_id))


@st.cache_data(max_entries=32, show_spinner=False)
def search_documents(ws_key: str, _ws: Workspace, order: tuple[str, ...], query: str) -> list[str]:
    """The ids of ``order`` whose id or text contains ``query`` (case-insensitive)."""
    q = query.strip().lower()
    if not q:
        return list(order)
    texts = _ws.corpus.texts
    return [d for d in order if q in d.lower() or q in (texts.get(d) or "").lower()]


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
