"""The Documents page: its list (orders by id, disagreement, score, spans; search; the window of
ids the selector shows; how each id is labelled) and its sections, which ``pages/documents.py``
calls in order. Scores come from :mod:`ui.results`, error categories from :mod:`ui.errors`."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import re
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from core.metrics import registry
from core.model import AnnotationSet
from core.render import highlight, passages
from core.render.html import esc
from ui import above_one, doc_switch, export, jobs, levels, plain, results, state, uploads
from ui import errors as err_ui
from ui import hateval as hateval_ui
from ui.escape import md
from ui.lazy import lazy_expander
from ui.results import per_doc_f1
from ui.role_words import set_noun
from ui.state import Workspace
from ui.theme import theme_type
from ui.widgets import download_buttons, paginate, set_pair

DOC_SORTS: dict[str, str] = {
    "id": "by id",
    "disagreement": "most disagreement first",
    "score": "lowest score first",
    "spans": "most spans first",
}
"""Orders of the Documents page's list (``disagreement``:
:func:`core.render.segments.disagreement`)."""
K_DOC_TAB = "dtab"  # the open tab of the document (bound)
K_PASSAGE = "passage"  # a long document's passage, per document (passage/<doc>)
DOC_TABS = ("🖍️ Highlights", "🧮 Contributions", "📊 This document's scores")
"""The document's tabs below the span selector; only the open one is drawn (``st.tabs`` with
``on_change="rerun"``): both annotations side by side and the merged view; every pair's
contribution C(s,t,h); every metric's score of the document (docs/performance.md, issue 29,
"the Documents page draws less per switch")."""


def _doc_length(ws: Workspace, doc_id: str, *sets: AnnotationSet) -> int:
    text = ws.corpus.texts.get(doc_id)
    if text is not None:
        return len(text)
    return max((s.end for aset in sets for s in aset.get(doc_id)), default=0)


@st.cache_data(max_entries=16, show_spinner="Ranking documents…")
def disagreements(ws_key: str, _ws: Workspace, set_a: str, set_b: str) -> dict[str, float]:
    """Per document, :func:`core.render.segments.disagreement` between two sets."""
    from core.render.segments import disagreement

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
    ids = pair_documents(ws_key, _ws, set_a, set_b)[0]
    by_id = list(_by_id(ws_key, _ws, set_a, set_b))
    if sort == "id":
        return by_id
    rank = {d: i for i, d in enumerate(by_id)}  # ties by id, as the key (…, _natural_key(d))
    if sort == "disagreement":
        dis = disagreements(ws_key, _ws, set_a, set_b)
        return sorted(ids, key=lambda d: (-dis.get(d, 0.0), rank[d]))
    if sort == "spans":
        a, b = _ws.sets[set_a], _ws.sets[set_b]
        return sorted(ids, key=lambda d: (-(len(a.get(d)) + len(b.get(d))), rank[d]))
    if sort == "score":
        scores = per_doc_f1(ws_key, _ws, set_a, set_b, metric, variant, level)
        if scores:
            return sorted(ids, key=lambda d: (d not in scores, scores.get(d, 0.0), rank[d]))
    return by_id


@st.cache_data(max_entries=16, show_spinner=False)
def pair_documents(ws_key: str, _ws: Workspace, set_a: str, set_b: str
                   ) -> tuple[list[str], dict[str, int]]:
    """The documents of the pair, in the corpus's order: those either set covers (a document it
    holds without a span too), and a text no set covers; with, per other set, how many of its
    documents the pair leaves out. A document only a third set holds is not the pair's to
    compare (tour: 44 documents listed for two sets of 36, the other 8 an annotator's)."""
    a, b = _ws.sets[set_a].spans, _ws.sets[set_b].spans
    others = {n: s.spans for n, s in _ws.sets.items() if n not in (set_a, set_b)}
    ids: list[str] = []
    left: dict[str, int] = {}
    for d in _ws.corpus.doc_ids:
        holders = [n for n, spans in others.items() if d in spans] if others else []
        if d in a or d in b or not holders:
            ids.append(d)
        else:
            for n in holders:
                left[n] = left.get(n, 0) + 1
    return ids, left


def _natural_key(doc_id: str) -> tuple[tuple[int, int | str], ...]:
    """Sort ``doc2`` before ``doc10`` and ``16`` before ``113``: digit runs compare as numbers.

    >>> sorted(["113", "16", "1", "doc10", "doc2"], key=_natural_key)
    ['1', '16', '113', 'doc2', 'doc10']
    """
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in _DIGIT_RUNS(doc_id) if p)


_DIGIT_RUNS = re.compile(r"(\d+)").split
_NAME_NUMBER = re.compile(r"([^0-9]*)[0-9]+").fullmatch


@st.cache_resource(max_entries=16, show_spinner=False)
def _by_id(ws_key: str, _ws: Workspace, set_a: str, set_b: str) -> tuple[str, ...]:
    """The pair's documents (:func:`pair_documents`) by id, numbers as numbers: the list's
    default order, whatever the metric (:func:`document_order` is keyed by it too), kept per
    pair so that :func:`lists_ahead` sorts them once for every metric (30-60 ms at 10,000
    documents)."""
    return tuple(natural_sorted(pair_documents(ws_key, _ws, set_a, set_b)[0]))


def natural_sorted(ids: Sequence[str]) -> list[str]:
    """``sorted(ids, key=_natural_key)``, faster when every id is one ASCII name followed by a
    number without leading zeros (``doc17``, or ``17`` alone): such ids sort by length, then as
    text, which is their numbers' order (0.45 → 0.05 s for 100,000 ids; docs/performance.md,
    issue 29). Any other set of ids takes the general key.

    >>> natural_sorted(["doc10", "doc2", "doc0"])
    ['doc0', 'doc2', 'doc10']
    >>> natural_sorted(["113", "16", "1", "doc10", "doc2", "doc02"])
    ['1', '16', '113', 'doc2', 'doc02', 'doc10']
    """
    head = _NAME_NUMBER(ids[0]) if ids and ids[0].isascii() else None
    if head is not None:
        name = head[1]
        k = len(name)
        if all(d.isascii() and d.startswith(name) and d[k:].isdigit()
               and (d[k] != "0" or len(d) == k + 1) for d in ids):
            out = sorted(ids)
            out.sort(key=len)
            return out
    return sorted(ids, key=_natural_key)


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
    from core.model.textsafe import search_match  # bugtour9 D9: one hunk (NFC, casefold)

    texts = _ws.corpus.texts
    return [d for d in _order if search_match(q, d, texts.get(d))]


DOC_WINDOW = 200
"""Most documents the Documents page's list shows at once (and the Annotators and Curation
pages' selectors, :mod:`ui.doc_picker`)."""
DOC_CHOICES = 50
"""Most documents the Documents page's selector lists at once (plus the one shown): a
selectbox's cost in the browser grows with its options, and the selector is drawn again on every
document switch (200 options: about 0.045 s more of Chromium's main thread per switch than 50;
docs/performance.md, issue 29, eleventh pass). The search finds the others, Previous / Next
steps through every one, and the list above shows :data:`DOC_WINDOW`."""


def document_window(ids: list[str], current: str | None,
                    members: Callable[[], Collection[str]] | None = None,
                    size: int | None = None) -> list[str]:
    """The first ``size`` (default :data:`DOC_WINDOW`) of ``ids``, plus ``current`` when it
    matches but lies beyond (so a deep link to any document works). ``members``: ``ids`` as a
    set, when the caller keeps one (called only for a document beyond the window).

    >>> document_window([f"d{i}" for i in range(600)], "d550")[-2:]
    ['d199', 'd550']
    >>> document_window([f"d{i}" for i in range(600)], "d70", size=50)[-2:]
    ['d49', 'd70']
    """
    window = ids[:DOC_WINDOW if size is None else size]
    if current is not None and current not in window and current in (
            members() if members is not None else set(ids)):
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
    variant: str | None, level: int | None, _filtered: bool = False,
) -> pd.DataFrame:
    """One row per document of ``order`` (in that order): its F1 under ``metric``, disagreement,
    missed and spurious spans (the error categories of 🔍 Errors and of the filter, at the
    metric's level: no span of the other set overlaps them; None where the pair cannot be
    categorised), spans per set and the start of its text.

    ``_filtered``: the list is filtered by an error category or label, so the corpus's error
    table is already computed and gives every document's missed and spurious counts at once
    (:func:`ui.errors.missed_and_spurious`); otherwise each listed document is categorised
    alone (a large corpus is categorised only when asked). The table is the same either way,
    so the flag is not part of the cache key."""
    # Only the listed documents (at most DOC_WINDOW + 1): the whole corpus's scores and
    # disagreements are computed when the list is sorted by them, not to fill 200 rows.
    scores = results.listed_f1(ws_key, _ws, set_a, set_b, order, metric, variant, level)
    # A document's counts do not depend on the order: kept per pair, so that another filter
    # or order (an Errors click) computes only the documents not listed before.
    cat_level = int(level) if level is not None else 2  # as View.cat_level
    kept = _document_counts(ws_key, _ws, set_a, set_b, cat_level)
    whole = (err_ui.missed_and_spurious(ws_key, _ws, set_a, set_b, cat_level) if _filtered
             and any(d not in kept for d in order) else None)
    rows = []
    for d in order:
        if d not in kept:
            kept[d] = _counts_row(ws_key, _ws, set_a, set_b, cat_level, d, whole)
        dis, missed, spurious, n_gold, n_pred, text = kept[d]
        rows.append({"document": d, "F1": scores.get(d), "disagreement": dis, "missed": missed,
                     "spurious": spurious, f"{set_a} spans": n_gold, f"{set_b} spans": n_pred,
                     "text": text})
    return pd.DataFrame(rows)


Counts = tuple[float, int | None, int | None, int, int, str]
"""A document's row of :func:`document_table` but the F1: disagreement, missed and spurious
spans, spans per set, the start of its text."""


@st.cache_resource(max_entries=16, show_spinner=False)
def _document_counts(ws_key: str, _ws: Workspace, set_a: str, set_b: str, level: int
                     ) -> dict[str, Counts]:
    """Document -> its row of :func:`document_table` but the F1, filled as documents are
    listed (an Errors click lists another 200 documents: 90 ms of CPU at 10,000 documents)."""
    return {}


def _counts_row(ws_key: str, _ws: Workspace, set_a: str, set_b: str, level: int, d: str,
                whole: Callable[[str], tuple[int, int]] | None) -> Counts:
    """Document ``d``'s :data:`Counts` (``whole``: :func:`ui.errors.missed_and_spurious`, the
    corpus's counts; None: ``d`` categorised alone)."""
    from core.render.highlight import span_items
    from core.render.segments import disagreement

    a, b = _ws.sets[set_a], _ws.sets[set_b]
    gold, pred = span_items(a, d, "G"), span_items(b, d, "P")
    missed: int | None
    spurious: int | None
    if whole is not None:
        missed, spurious = whole(d)
    else:
        cats = err_ui.document_error_table(ws_key, _ws, set_a, set_b, level, d)
        missed = None if cats is None else cats.counts("reference")["missed"]
        spurious = None if cats is None else cats.counts("prediction")["spurious"]
    return (round(disagreement(a.alt_spans(d), b.alt_spans(d), _doc_length(_ws, d, a, b)), 3),
            missed, spurious, len(gold), len(pred), snippet(_ws.corpus.texts.get(d)))


LISTS_AHEAD_CHUNK = 25
"""Documents :func:`lists_ahead` counts between two looks at the page runs under way."""
LISTS_AHEAD_COUNTED: collections.Counter[tuple[str, str, str, int]] = collections.Counter()
"""Documents :func:`lists_ahead` counted, by (workspace key, reference, system, level): tests
read it."""


def lists_ahead(ws: Workspace, ref: str, system: str, level: int,
                categories: Sequence[str]) -> int:
    """Fill the caches the Documents page's first run reads when an Errors link opens it on
    ``system``'s documents holding one of ``categories`` (in this order, the links' order),
    sorted by id (the list's default): the pair's documents by id (:func:`_by_id`) and, for
    each category, the :data:`Counts` of the documents its list shows first (the first
    :data:`DOC_WINDOW` by id, the rows :func:`document_table` builds), into
    :func:`_document_counts`, which every later list of the pair reads. Runs in a background
    thread of the server (:func:`errors_ahead`); pauses while a person's page run
    is under way (:func:`ui.jobs.wait_while_running`), so a run never shares the server's
    interpreter with it, and a run that comes first computes what it needs itself (the same
    rows, one cache). Returns how many documents it counted."""
    # Started in the middle of the Errors page's run: its first look comes before any work
    # (review19: the sort by id and the categories' documents ran beside that run)
    jobs.wait_while_running()
    by_id = _by_id(ws.key, ws, ref, system)
    kept = _document_counts(ws.key, ws, ref, system, level)
    whole = err_ui.missed_and_spurious(ws.key, ws, ref, system, level)
    counted = 0
    for category in categories:
        jobs.wait_while_running()
        held = set(err_ui.documents_with(ws, ref, system, level, category, err_ui.ALL) or ())
        window = [d for d in by_id if d in held][:DOC_WINDOW]
        todo = [d for d in window if d not in kept]
        for start in range(0, len(todo), LISTS_AHEAD_CHUNK):
            jobs.wait_while_running()
            for d in todo[start:start + LISTS_AHEAD_CHUNK]:
                if d not in kept:
                    kept[d] = _counts_row(ws.key, ws, ref, system, level, d, whole)
                    counted += 1
    LISTS_AHEAD_COUNTED[(ws.key, ref, system, level)] += counted
    return counted


LISTS_AHEAD_DOCS = err_ui.FILTER_AUTO_DOCS
"""From this many documents on (a set's), the Errors page has this page's lists of its links
filled ahead (:func:`errors_ahead`)."""
_lists_started: dict[tuple[str, str, tuple[str, ...], int], threading.Thread | None] = {}
"""The lists filled ahead in this process: (workspace key, reference, systems, level) -> the
thread that fills them (:func:`errors_ahead`)."""
_lists_lock = threading.Lock()
LISTS_THREAD = "spanscope-lists-ahead"


def errors_ahead(ws: Workspace, s: err_ui.Setup) -> threading.Thread | None:
    """Called by the Errors page once its category links are drawn (``pages/errors.py``, which
    imports this module: it is imported before the first click); once per workspace,
    reference, systems and level in this process, from :data:`LISTS_AHEAD_DOCS` documents on:
    a background thread that fills what this page's first run reads when one of those links
    opens it (:func:`lists_ahead`: the pair's documents by id, and the rows of each category's
    list), system by system, each system's categories in the links' order. The
    first Errors → Documents click of a session computed them in its run: 0.1 s of the
    server's CPU at 10,000 documents that the later clicks did not pay (docs/performance.md,
    issue 29, eighteenth pass). Returns the thread, or None when there is nothing to start or
    the system refuses a thread (then nothing is marked started: a later run tries again, as
    after anything raised before the thread starts, which is raised again)."""
    if s.n_docs < LISTS_AHEAD_DOCS:
        return None
    key = (ws.key, s.ref, tuple(s.systems), s.level)
    with _lists_lock:
        if key in _lists_started:
            return None
        _lists_started[key] = None
    try:
        todo = [(system, [c for c, n in err_ui.category_documents(ws.key, ws, s.ref, system,
                                                                  s.level).items() if n])
                for system in s.systems]
    except BaseException:
        # not started (an error, or the run stopped by a rerun while it counted): a later run
        # tries again; the key was left marked, and the lists were never filled ahead for the
        # life of the server (review20)
        _unmark(key)
        raise

    def work() -> None:
        for system, cats in todo:
            if cats:
                # An error here is the page's to meet when it computes the same rows.
                with contextlib.suppress(Exception):
                    lists_ahead(ws, s.ref, system, s.level, cats)

    thread = threading.Thread(target=work, name=LISTS_THREAD, daemon=True)
    try:
        thread.start()
    except RuntimeError:  # no thread to be had (the system's limit): the Documents page
        # counts its rows itself, and a later run of this page may start it (review19)
        _unmark(key)
        return None
    with _lists_lock:
        _lists_started[key] = thread
    return thread


def _unmark(key: tuple[Any, ...]) -> None:
    """Forgets that :func:`errors_ahead` started the lists of ``key``: they were not, and a
    later run may start them."""
    with _lists_lock:
        _lists_started.pop(key, None)


K_ORDER_SEEN = "doc_order_seen"
"""Session key: a fingerprint of the document order shown last (a change moves to its first)."""
K_DOC_SHOWN = "doc_shown"
"""Session key: the document the picker showed last. Another document asked for (a link from
another page, or the picker) is a request: it opens even when the filters exclude it."""
K_FILTERS_CLEARED = "doc_filters_cleared"
"""Session key: (document, filters) when a link asked for a document the filters excluded;
the next run clears those filters before their widgets are drawn and says so."""
K_DOC_TABLE = "doc_table"
"""Widget key of the Documents page's clickable document table."""


K_STEPPED = "doc_stepped"
"""Session key: the document the stepper (Previous / Next, keys P and N) opened last."""
K_HELD = "doc_switch_held"
"""Session key: the document whose highlights the swapping component was handed last."""


def _open(doc: str | None) -> None:
    from ui.state import K_DOC

    if doc is not None:
        st.session_state[K_DOC] = doc


def _step(doc: str | None) -> None:
    """The stepper's callback: open ``doc``, remembered as reached by a step (:func:`_jumped`)."""
    _open(doc)
    st.session_state[K_STEPPED] = doc


def _jumped(doc: str) -> bool:
    """Whether this run moved to ``doc`` otherwise than by a step (the selector typed into, a
    row of the list, a link from another page). Such a run hands the swapping component no
    neighbours: building and sending two more documents' highlights tripled the bytes of a
    switch (62 KB against 22 KB at 100,000 documents) and cost the typed switch its 300 ms
    (docs/performance.md, issue 29, after the thirteenth pass); the step that follows is drawn
    by its run, and hands the neighbours on from then."""
    held = st.session_state.get(K_HELD)
    st.session_state[K_HELD] = doc
    return held is not None and held != doc and st.session_state.pop(K_STEPPED, None) != doc


def warm_highlights() -> None:
    """The Errors page's last element: the highlights' component warmed for the first Errors ->
    Documents click of the session (:func:`ui.doc_switch.warm`, a hidden copy until the session
    knows that its script runs). The component then holds no document yet (:data:`K_HELD` an
    empty string, not None): the page a link opens is reached by a jump (:func:`_jumped`), whose
    run hands no neighbours, as that first click's run did while the session did not know."""
    if doc_switch.live():
        return
    st.session_state.setdefault(K_HELD, "")
    doc_switch.warm()


def picker_label(shown: int, total: int) -> str:
    """The document picker's label: how many documents the search and filters keep, said so
    that it is not read as a position ("Document (6 of 6)" above "Document 1 of 6 in this
    order" read as being on the sixth document, tour 18).

    >>> picker_label(6, 6), picker_label(2, 1_500)
    ('Document (all 6)', 'Document (2 of 1,500 match the search and filters)')
    """
    if shown == total:
        return f"Document (all {total:,})"
    return f"Document ({shown:,} of {total:,} match the search and filters)"


def stepper(ids: list[str], doc: str) -> None:
    """Previous / next buttons (keys P and N) that move through ``ids`` from ``doc``."""
    prev_doc, next_doc = neighbours(ids, doc)
    pos = ids.index(doc) + 1 if doc in ids else 0
    # One row, not three columns: three blocks fewer for a document switch to send and
    # reconcile (docs/performance.md, issue 29, twelfth pass); it wraps on a narrow screen.
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
    row.button("◀ Previous", key="doc_prev", shortcut="P", on_click=_step, args=(prev_doc,),
               disabled=prev_doc is None, width="stretch",
               help="Previous document in this order (key P)")
    # The keys are in the buttons' own labels and help (a keyboard's hint, meaningless on a
    # touch screen, tour 7 item 8), not in this caption.
    row.html(plain.caption_html(f"Document {pos:,} of {len(ids):,} in this order"))
    row.button("Next ▶", key="doc_next", shortcut="N", on_click=_step, args=(next_doc,),
               disabled=next_doc is None, width="stretch",
               help="Next document in this order (key N)")


def _ticked_row() -> int | None:
    """The row of the document list ticked by a click, if any."""
    event = st.session_state.get(K_DOC_TABLE)
    rows = event["selection"]["rows"] if event else ()
    return int(rows[0]) if rows else None


def table_picker(ws: Workspace, set_a: str, set_b: str, ids: list[str], metric: str,
                 variant: str | None, level: int | None, filtered: bool = False) -> None:
    """:func:`document_table` of ``ids`` (``filtered``: by an error category or label);
    clicking a row opens its document."""
    table = document_table(ws.key, ws, set_a, set_b, tuple(ids), metric, variant, level,
                           filtered)
    ticked = _ticked_row()
    if ticked is not None and (ticked >= len(ids) or ids[ticked] != asked_document()[0]):
        # The row ticked names another document than the one shown (tour finding 10): untick.
        st.session_state[K_DOC_TABLE] = {"selection": {"rows": [], "columns": [], "cells": []}}

    def picked() -> None:
        rows = st.session_state[K_DOC_TABLE].selection.rows
        if rows:
            _open(str(table.iloc[rows[0]]["document"]))

    st.dataframe(table, hide_index=True, key=K_DOC_TABLE, on_select=picked,
                 selection_mode="single-row", height=min(36 * (len(table) + 1) + 3, 300),
                 column_config={
                     "F1": st.column_config.NumberColumn(format="%.3f"),
                     "missed": st.column_config.NumberColumn(
                         help=f"Error category missed (🔍 Errors, and the filter below): "
                         f"{err_ui.CATEGORY_HELP['missed']}"),
                     "spurious": st.column_config.NumberColumn(
                         help=f"Error category spurious (🔍 Errors, and the filter below): "
                         f"{err_ui.CATEGORY_HELP['spurious']}"),
                     "text": st.column_config.TextColumn(width="large")}, placeholder="—")
    why = results.missing_f1(ws.key, ws, set_a, set_b, ids, dict(zip(table["document"],
                                                                      table["F1"], strict=True)),
                             metric, variant, level)
    if why:
        st.caption(md(why))


# ---- the page's sections, in the order pages/documents.py draws them ----------------------------


@dataclass(frozen=True)
class View:
    """The two sets compared and how: the metric, its variant and level."""

    set_a: str
    set_b: str
    metric: str
    entry: registry.Metric
    variant: str | None
    level: int | None

    @property
    def cat_level(self) -> int:
        """The level error categories (core.analysis.errors) compare labels at: the metric's."""
        return int(self.level) if self.level is not None else 2


def pairs_of(ws: Workspace) -> list[tuple[str, str]]:
    """Every pair of the sets of ``ws`` in the pickers' order (the Curation page's undecided
    consensus left out), each once: A · B, A · C, B · C."""
    names = [n for n in ws.sets if n != ws.undecided]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


def _next_pair(pairs: list[tuple[str, str]], at: int) -> None:
    st.session_state[state.K_SET_A], st.session_state[state.K_SET_B] = pairs[
        (at + 1) % len(pairs)]


def pair_steps(ws: Workspace, set_a: str, set_b: str) -> None:
    """With three sets or more (bugleft26: a lead's three annotators), a line under the pickers
    saying how many sets and pairs there are and which pair is shown ("3 annotators, 3 pairs:
    this is pair 1, A · B"), and a button that shows the next pair (A · B, A · C, B · C, then A
    · B again): the page compares two sets, and with two pickers alone the others were out of
    sight. The line names the Annotators page's document view, which draws every set of one
    document in lanes of its own. Nothing with two sets."""
    pairs = pairs_of(ws)
    if len(pairs) < 3:
        return
    names = [n for n in ws.sets if n != ws.undecided]
    at = next((i for i, p in enumerate(pairs) if set(p) == {set_a, set_b}), -1)
    nxt = pairs[(at + 1) % len(pairs)]
    where = f"this is pair {at + 1}, " if at >= 0 else "this pair is "
    row = st.container(horizontal=True, gap="small", vertical_alignment="center",
                       key="doc_pairs")
    row.caption(f"{len(names)} {set_noun(ws, names, plural=True)}, {len(pairs)} pairs: "
                f"{where}{md(set_a)} · {md(set_b)}. Every set of one document at once, in "
                "lanes: 👥 Annotators, Documents by disagreement.")
    row.button(f"Next pair: {md(nxt[0])} · {md(nxt[1])}", key="doc_next_pair", type="secondary",
               on_click=_next_pair, args=(pairs, at),
               help="Shows the next pair of sets, in the order of the pickers; after the "
               "last, the first again")


def choose(ws: Workspace) -> View:
    """The pair of sets, the metric and its variant and level."""
    # The classes of the highlighted texts and legends (core.render.highlight, compact=True):
    # one <style> for the page (alone in its element, so Streamlit puts it out of the layout),
    # drawn by a whole run, outside the document's fragment: a switch sends the texts alone.
    st.html(highlight.compact_css(theme_type()))
    if len(ws.sets) == 1:
        one_set(ws)  # nothing to compare it with: its spans alone; stops
    c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
    set_a, set_b = set_pair(ws, c1, c2, "Left (reference)", "Right (compared)")
    pair_steps(ws, set_a, set_b)
    metric = c3.radio("Metric", results.span_metric_names(), help=results.metric_help(),
                      key=state.K_METRIC, bind="query-params", horizontal=True)
    entry = registry.get(metric)
    variant: str | None = None
    level: int | None = None
    with c4:
        if entry.variants:
            variant = st.selectbox(f"{entry.title} variant", entry.variants,
                                   key=state.variant_key(metric), bind="query-params",
                                   help=entry.variants_help())
        if entry.levels:
            level = levels.level_select(st, ws, set_a, set_b)
    if llm_note := uploads.llm_note(ws, set_a, set_b):  # issue 16 item 2: why offsets drift
        # One line, opened on demand: in full it filled a phone's first screen (tour 7 item 8).
        with st.expander("ℹ️ Why these spans begin and end mid-word (paper-2023 parsing)"):
            st.info(llm_note, icon="ℹ️")
    return View(set_a, set_b, metric, entry, variant, level)


def one_set(ws: Workspace) -> None:
    """The page when one set is loaded: its spans alone, with no correct / missed categories (a
    set compared with itself is all correct; tour 4, finding 7), the search, the picker and the
    stepper; stops."""
    ((name, aset),) = ws.sets.items()
    st.info(f"Only one set is loaded ({md(name)}): its spans are shown alone. Load a second set "
            "to compare.", icon="ℹ️")
    st.page_link("pages/data.py", label="Load a second set on the Data page", icon="📂")
    query = st.text_input("Search documents by id or text", key=state.K_DOC_QUERY,
                          bind="query-params", placeholder="e.g. 111111 or 'migrants'")
    order = natural_sorted(pair_documents(ws.key, ws, name, name)[0])
    ids = search_documents(ws.key, ws, tuple(order), query)
    if not ids:
        st.warning("No document matches the search.")
        st.stop()
    options = document_window(ids, asked_document()[0], size=DOC_CHOICES)
    label = picker_label(len(ids), len(order))
    if len(options) < len(ids):
        label += f": the first {DOC_CHOICES:,} by id are listed, search for others"
    doc = st.selectbox(label, options, key=state.K_DOC, bind="query-params")
    st.session_state[K_DOC_SHOWN] = doc
    stepper(ids, doc)
    items = highlight.span_items(aset, doc, "G")
    colours = highlight.label_colours(state.all_labels(ws.key, ws))
    st.html(highlight.legend(colours, {lab for it in items for lab in it.labels}, compact=True))
    labelled = hateval_ui.text_labels(ws, (name,), doc)  # HatEval: the text's labels
    st.markdown(f"**{md(name)}** ({aset.role}) · "
                + (labelled[0][0] if labelled else f"{len(items)} span(s)"))
    st.html(highlight.render_lanes(ws.corpus.texts.get(doc), items, colours, dom_id="left-doc",
                                   compact=True, labelled=True))
    st.stop()


@dataclass(frozen=True)
class Filters:
    """The error category and label the list is filtered by, and the Errors page's bucket."""

    category: str
    label: str
    bucket: dict[str, Any] | None

    @property
    def active(self) -> bool:
        return self.category != err_ui.ALL or self.label != err_ui.ALL


def _error_filters(ws: Workspace, v: View) -> tuple[str, str]:
    category = label_filter = err_ui.ALL
    # The filters categorise every span of the corpus (seconds per 10,000 documents): on a
    # large corpus only when asked, or when a link carries a filter.
    gold, pred = ws.sets[v.set_a], ws.sets[v.set_b]
    n_docs = max(len(ws.corpus.texts), len(gold.spans), len(pred.spans))  # doc_ids: a list
    linked = any(st.query_params.get(k, err_ui.ALL) != err_ui.ALL
                 for k in (err_ui.K_ERR_CATEGORY, err_ui.K_ERR_LABEL))
    if n_docs <= err_ui.FILTER_AUTO_DOCS or st.toggle(
            f"Filter by error category and label (categorises all {n_docs:,} documents)",
            value=linked, key="doc_err_filter_on", persist_state="session"):
        e1, e2 = st.columns([3, 2])
        category = e1.selectbox("Error category", [err_ui.ALL, *err_ui.CATEGORY_STYLE],
                                key=err_ui.K_ERR_CATEGORY, bind="query-params",
                                # No format_func: a bound widget writes its shown value into
                                # the URL.
                                help="Only documents holding a span of this category (see 🔍 "
                                "Errors): " + "; ".join(f"{c}: {h}"
                                                        for c, h in err_ui.CATEGORY_HELP.items()))
        label_filter = e2.selectbox("Label", err_ui.label_options(ws, v.set_a, v.set_b,
                                                                  v.cat_level),
                                    key=err_ui.K_ERR_LABEL, bind="query-params",
                                    help=f"Only documents holding a span counted under this "
                                    f"label (level {v.cat_level}).")
    return category, label_filter


def _bucket(ids: list[str]) -> tuple[dict[str, Any] | None, list[str]]:
    """A bucket clicked on the Errors page: its documents only, until cleared."""
    bucket = st.session_state.get(err_ui.K_ERR_DOCS)
    if not bucket:
        return bucket, ids
    b1, b2 = st.columns([5, 1])
    b1.caption(f"Showing the {len(bucket['documents'])} document(s) of the bucket "
               f"{md(bucket['what'])} (🔍 Errors).")
    if b2.button("Show all", key="err_docs_clear"):
        st.session_state[err_ui.K_ERR_DOCS] = None
        st.rerun()
    kept = set(bucket["documents"])
    return bucket, [d for d in ids if d in kept]


@dataclass(frozen=True)
class Listing:
    """The documents the search, order and filters keep, in that order: what the document
    picker (:func:`document`) steps through."""

    ids: list[str]
    total: int
    sort: str
    filters: Filters
    rows: tuple[str, ...] = ()
    """The documents of the table drawn with this listing (:func:`listing`)."""

    @functools.cached_property
    def members(self) -> frozenset[str]:
        """``ids`` as a set, built once per listing and only when a document beyond the window
        is asked for (11 ms at 100,000 documents)."""
        return frozenset(self.ids)

    def window(self, size: int | None = None) -> list[str]:
        """:func:`document_window` of ``ids`` with the document shown now: the list's
        (:data:`DOC_WINDOW`), or the first ``size``."""
        return document_window(self.ids, asked_document()[0], lambda: self.members, size)


def asked_document() -> tuple[str | None, bool]:
    """The document to show and whether it was asked for (it is not the one shown last): by a
    link's URL (``st.page_link`` sets the URL alone, and a bound widget takes the URL's value
    on arrival), by ``st.session_state`` (``st.switch_page`` links, the stepper, the list)."""
    shown = st.session_state.get(K_DOC_SHOWN)
    for asked in (st.query_params.get(state.K_DOC), st.session_state.get(state.K_DOC)):
        if asked is not None and asked != shown:
            return asked, True
    return shown, False


def listing(ws: Workspace, v: View) -> Listing:
    """Search, order and filters; stops when no document matches. A new order moves to its
    first document."""
    cleared = st.session_state.pop(K_FILTERS_CLEARED, None)
    if cleared is not None:
        _clear_filters(*cleared)
    d1, d2 = st.columns([3, 2])
    # Both bound to the URL, so that a link reproduces the view (tour finding 8); the order is
    # written as it is shown ("most disagreement first"), which reads back the same.
    query = d1.text_input("Search documents by id or text", key=state.K_DOC_QUERY,
                          bind="query-params", placeholder="e.g. 111111 or 'migrants'")
    sort = d2.selectbox("Order", list(DOC_SORTS), format_func=lambda k: DOC_SORTS[k],
                        key=state.K_DOC_SORT, bind="query-params")
    order = document_order(ws.key, ws, v.set_a, v.set_b, sort, v.metric, v.variant, v.level)
    if left := pair_documents(ws.key, ws, v.set_a, v.set_b)[1]:
        plain.caption("Not listed: documents only other sets hold ("
                      + ", ".join(f"{n:,} of {name}" for name, n in left.items())
                      + f"); neither {v.set_a} nor {v.set_b} annotates them.")
    ids = search_documents(ws.key, ws, tuple(order), query)
    category, label_filter = _error_filters(ws, v)
    if category != err_ui.ALL or label_filter != err_ui.ALL:
        allowed = err_ui.documents_with(ws, v.set_a, v.set_b, v.cat_level, category,
                                        label_filter)
        kept = set(allowed or ())  # once, not once per document
        ids = [d for d in ids if d in kept]
    bucket, ids = _bucket(ids)
    # A document asked for from outside (a link: Errors, Metric differences, Labels, Scores,
    # Annotators; or a deep link) opens even when the filters kept from an earlier visit
    # exclude it: they are cleared, with a notice (tour finding 1). The picker, the stepper and
    # the list only offer listed documents, so an unlisted request comes from a link.
    current, requested = asked_document()
    if requested and current not in order and current in state.doc_id_set(ws.key, ws):
        holders = ", ".join(md(n) for n, s in ws.sets.items() if current in s.spans)
        st.info(f"Document {md(current)} is not listed: neither {md(v.set_a)} nor "
                f"{md(v.set_b)} holds it ({holders} does); compare a pair that holds it to "
                "open it.", icon="ℹ️")
    elif requested and current not in ids and current in state.doc_id_set(ws.key, ws):
        excluding = [f"search “{query.strip()}”" if query.strip() else "",
                     f"error category {category}" if category != err_ui.ALL else "",
                     f"label {label_filter}" if label_filter != err_ui.ALL else "",
                     f"the Errors bucket {bucket['what']}" if bucket else ""]
        st.session_state[K_FILTERS_CLEARED] = (current, ", ".join(e for e in excluding if e))
        st.rerun()
    if not ids:
        st.warning("No document matches the search and filters.")
        st.stop()
    # A new order starts at its first document ("lowest score first" must show the lowest
    # score, not stay on the document shown before); a deep link or another page's link
    # keeps its document.
    order_seen = hash(tuple(ids))
    if not requested and st.session_state.get(K_ORDER_SEEN, order_seen) != order_seen:
        st.session_state[state.K_DOC] = ids[0]
    st.session_state[K_ORDER_SEEN] = order_seen
    listed = Listing(ids, len(order), sort, Filters(category, label_filter, bucket))
    # The list is drawn here, above the picker and outside the fragment of :func:`document`:
    # a document switch does not send its rows again. A lazy expander: its grid is the page's
    # costliest element to draw again on every visit (docs/performance.md, issue 29, seventh
    # pass).
    rows = listed.window()
    shown = lazy_expander(f"📋 Documents in this order, with F1, disagreement, missed and "
                          f"spurious spans: click a row to open it ({len(rows):,} listed)",
                          key=K_DOC_LIST, opened=listed.filters.active or bool(bucket))
    if shown.open is not False:
        with shown:
            table_picker(ws, v.set_a, v.set_b, rows, v.metric, v.variant, v.level,
                         listed.filters.active)
    return dataclasses.replace(listed, rows=tuple(rows))


K_DOC_LIST = "doc_list"
"""Widget key of the list's expander (:func:`ui.lazy.lazy_expander`: its table is drawn only
when it is open; closed at first unless a filter or an Errors bucket narrows the list, as a link
from the Errors page does)."""


def _clear_filters(doc: str, excluding: str) -> None:
    """Clear the search and filters (before their widgets are drawn) so that ``doc``, which a
    link asked for and they excluded, is listed; say which were cleared."""
    for key, default in ((state.K_DOC_QUERY, ""), (err_ui.K_ERR_CATEGORY, err_ui.ALL),
                         (err_ui.K_ERR_LABEL, err_ui.ALL)):
        st.session_state[key] = default  # a bound widget's URL parameter follows its value
    st.session_state[err_ui.K_ERR_DOCS] = None
    st.session_state[state.K_DOC] = doc
    st.info(f"Opened document {md(doc)}, as the link asked: the filters kept from before "
            f"({md(excluding)}) excluded it, so they were cleared.", icon="ℹ️")


def pick(ws: Workspace, v: View, listed: Listing) -> str:
    """The document picker and stepper over ``listed`` (its list is drawn above, by
    :func:`listing`); returns the document."""
    ids = listed.ids
    if tuple(listed.window()) != listed.rows:
        # A document beyond the list's window (the stepper past its end): the list above,
        # outside this fragment, lists it too after a whole run, as a first visit would.
        st.rerun(scope="app")
    # The selector lists at most DOC_CHOICES documents (a selectbox's options are drawn again
    # on every switch; a 10,000-option list makes every rerun slow in the browser); the search
    # narrows it, and the current document (URL) is always an option.
    options = listed.window(DOC_CHOICES)
    label = picker_label(len(ids), listed.total)
    if len(options) < len(ids):
        label += f": the first {DOC_CHOICES:,} in this order are listed, search for others"
    # No format_func: a bound widget writes its *shown* value into the URL, so ids are shown
    # as they are.
    doc = st.selectbox(label, options, key=state.K_DOC, bind="query-params")
    st.session_state[K_DOC_SHOWN] = doc
    ticked = _ticked_row()
    if ticked is not None and (ticked >= len(listed.rows) or listed.rows[ticked] != doc):
        # Another document than the row clicked in the list above (the stepper, the selector):
        # a whole run unticks it; only the first switch after a click pays it.
        st.rerun(scope="app")
    stepper(ids, doc)
    if listed.sort in ("score", "disagreement"):
        describe = doc_label_func(ws.key, ws, v.set_a, v.set_b, listed.sort, v.metric,
                                  v.variant, v.level)
        plain.caption(f"Sorted {DOC_SORTS[listed.sort]}: {describe(doc)}")
    return doc


@st.fragment
@jobs.person_fragment
def document(ws: Workspace, v: View, listed: Listing) -> None:
    """The picker and everything drawn of the document it picks: the part of the page a
    document switch changes. A fragment (docs/performance.md, issue 29, sixth pass): the
    selector, the stepper and the span selector rerun this part alone, not the app's frame,
    the pair, metric, search, filters and list above it; a whole run draws the same page. A
    click on a row of the list, outside, reruns the whole page."""
    doc = pick(ws, v, listed)
    shown = select_span(ws, v, doc, listed.filters)
    # Lazy tabs: only the open one is drawn, so a switch draws the two highlighted texts and
    # the merged view, not the contribution and score tables too (docs/performance.md).
    highlights, contrib, doc_scores = st.tabs(list(DOC_TABS), key=K_DOC_TAB, on_change="rerun",
                                              bind="query-params")
    if highlights.open is not False:
        with highlights:
            highlights_tab(ws, v, shown, listed)
    if contrib.open is not False:
        with contrib:
            contributions(v, shown)
    if doc_scores.open is not False:
        with doc_scores:
            scores(ws, v, doc)


@dataclass(frozen=True)
class Shown:
    """The document drawn: its spans as items, the span selected and the spans marked."""

    doc: str
    text: str | None
    items_a: list[highlight.SpanItem]
    items_b: list[highlight.SpanItem]
    colours: dict[str, str]
    selected: str | None
    span_text: dict[str, str]
    explained: Any
    partners: tuple[str, ...]
    cats_a: dict[str, str]
    cats_b: dict[str, str]
    matched: tuple[str, ...] = ()
    """The spans the error filters or the Errors bucket keep (a cue of their own)."""


def select_span(ws: Workspace, v: View, doc: str, f: Filters) -> Shown:
    """The span picker; the selected span's partners and the spans behind the filters are
    marked."""
    items_a, items_b = _items(ws, v, doc)
    text, drawn_a, drawn_b = passage_picker(doc, ws.corpus.texts.get(doc), items_a, items_b)
    span_options = ["—"] + [it.id for it in drawn_a + drawn_b]
    span_text = _span_text(items_a, items_b)
    picked = st.selectbox("Select a span to see every pair it forms", span_options,
                          key=state.K_SPAN, format_func=lambda s: span_text.get(s, "— none —"))
    selected = None if picked == "—" else picked
    explained = results.explain_document(ws.key, ws, v.set_a, v.set_b, doc, v.metric, v.variant,
                                         v.level)
    return _shown(ws, v, doc, f, text, items_a, items_b, drawn_a, drawn_b, selected, explained)


def _items(ws: Workspace, v: View, doc: str
           ) -> tuple[list[highlight.SpanItem], list[highlight.SpanItem]]:
    return (highlight.span_items(ws.sets[v.set_a], doc, "G"),
            highlight.span_items(ws.sets[v.set_b], doc, "P"))


def _span_text(items_a: list[highlight.SpanItem], items_b: list[highlight.SpanItem]
               ) -> dict[str, str]:
    return {it.id: f"{it.id} [{it.start}, {it.end}) {it.label_text}" for it in items_a + items_b}


def _shown(ws: Workspace, v: View, doc: str, f: Filters, text: str | None,
           items_a: list[highlight.SpanItem], items_b: list[highlight.SpanItem],
           drawn_a: list[highlight.SpanItem], drawn_b: list[highlight.SpanItem],
           selected: str | None, explained: Any) -> Shown:
    """The document drawn, once its passage and span are picked: the selected span's partners
    (from ``explained``), the error categories and the spans behind the filters."""
    partners = results.partners_of(explained, selected) if selected else ()
    colours = highlight.label_colours(state.all_labels(ws.key, ws))
    span_text = _span_text(items_a, items_b)
    cats_a, cats_b = err_ui.span_categories(ws, v.set_a, v.set_b, v.cat_level, doc, items_a,
                                            items_b)
    behind: set[str] = set()
    if f.active:
        # The spans behind the filter get their own cue, not the pair tint of a selected span's
        # partners (tour finding 15).
        behind = {it.id for items, cats in ((items_a, cats_a), (items_b, cats_b)) for it in items
                  if f.category in (err_ui.ALL, cats.get(it.id))
                  and (f.label == err_ui.ALL or f.label in err_ui.item_labels(
                      ws, v.set_a, v.set_b, v.cat_level, it))}
    matched = (*sorted(behind), *err_ui.bucket_marks(f.bucket, doc, items_a, items_b))
    return Shown(doc, text, drawn_a, drawn_b, colours, selected, span_text,
                 explained, tuple(partners), cats_a, cats_b, matched)


def neighbour_shown(ws: Workspace, v: View, doc: str, f: Filters) -> Shown | None:
    """What :func:`select_span` will draw of ``doc`` when the stepper opens it, without drawing
    a widget: the span selected stays selected when ``doc`` has a span of that id (the span
    selector keeps its value among its new options), else none is. None for a text drawn a
    passage at a time (its passage is picked on arrival): the stepper's run draws it."""
    text = ws.corpus.texts.get(doc)
    if text and len(passages.passages(text)) > 1:
        return None
    items_a, items_b = _items(ws, v, doc)
    asked = st.session_state.get(state.K_SPAN)
    selected = asked if asked in {it.id for it in items_a + items_b} else None
    explained = (results.explain_document(ws.key, ws, v.set_a, v.set_b, doc, v.metric,
                                          v.variant, v.level) if selected else None)
    return _shown(ws, v, doc, f, text, items_a, items_b, items_a, items_b, selected, explained)


def passage_picker(doc: str, text: str | None, items_a: list[highlight.SpanItem],
                   items_b: list[highlight.SpanItem]
                   ) -> tuple[str | None, list[highlight.SpanItem], list[highlight.SpanItem]]:
    """The text and spans to draw: the whole document, or for a text longer than
    :data:`core.render.passages.PASSAGE_CHARS` one passage of it, picked here (the passage of
    the selected span when one outside is asked for), its spans clipped to its edges."""
    cuts = passages.passages(text) if text else []
    if len(cuts) < 2:
        return text, items_a, items_b
    assert text is not None
    key = f"{K_PASSAGE}/{doc}"
    asked = st.session_state.get(state.K_SPAN)
    where = {it.id: it.start for it in items_a + items_b}
    first = 0
    if asked in where and st.session_state.get(f"{key}/span") != asked:
        # a span newly asked for (here, or by another page): open its passage; then the
        # picker is the reader's again
        st.session_state[f"{key}/span"] = asked
        first = passages.passage_of(cuts, where[asked])
        if key in st.session_state and st.session_state[key] != first:
            st.session_state[key], first = first, 0  # the state wins over ``index``
    k = st.selectbox(
        "Passage", range(len(cuts)), key=key, index=first,
        format_func=lambda i: (f"{i + 1} of {len(cuts)}: characters {cuts[i][0]:,}–"
                               f"{cuts[i][1]:,} of {len(text):,}"),
        help="A long text is drawn one passage at a time, so that the page stays quick. "
             "Spans that cross a passage's edge are drawn up to the edge, in both passages. "
             "The scores, the contributions and the error categories are the whole "
             "document's.")
    start, end = cuts[k]
    drawn_a, drawn_b = passages.clip(items_a, start, end), passages.clip(items_b, start, end)
    if asked in where and asked not in {it.id for it in drawn_a + drawn_b}:
        st.session_state[state.K_SPAN] = "—"  # the span picker lists this passage's spans
    return text[start:end], drawn_a, drawn_b


HTML_BUILDS: collections.Counter[str] = collections.Counter()
"""How many times each HTML element of the document was built (a cache miss of
:func:`highlights_html`): tests read it to tell a document drawn again from one built again."""


def highlights_tab(ws: Workspace, v: View, s: Shown, listed: Listing) -> None:
    """The tab of highlights: both sets' spans side by side and the merged view, in one HTML
    element (:func:`highlights_html`), then the export's two buttons. One element, not the
    eleven (headings, set names, captions, legends, two columns) a document switch drew before:
    each is a React element the front end reconciles on every switch (docs/performance.md, issue
    29, twelfth pass). In a browser that runs :mod:`ui.doc_switch`, that component draws it,
    holding the highlights of the documents Previous and Next open too (thirteenth pass), and
    of those the selector's search narrowed to, once it asks (fifteenth pass)."""

    jumped = _jumped(s.doc)

    def steps() -> dict[str, tuple[str, str] | None]:
        out: dict[str, tuple[str, str] | None] = {}
        for direction, other in zip(("prev", "next"), neighbours(listed.ids, s.doc),
                                    strict=True):
            if jumped:  # reached by the selector, a row or a link: no neighbour held ahead
                out[direction] = None
                continue
            shown = None if other is None else neighbour_shown(ws, v, other, listed.filters)
            out[direction] = (None if shown is None or other is None
                              else (other, highlights_html(ws, v, shown)))
        return out

    def picks(asked: list[str]) -> dict[str, str]:
        # The documents the selector's search narrowed to, among those it can open: what
        # select_span will draw of each once picked, as a step's neighbour (fifteenth pass).
        options = set(listed.window(DOC_CHOICES))
        out: dict[str, str] = {}
        for other in asked[:doc_switch.PICKS]:
            shown = (neighbour_shown(ws, v, other, listed.filters)
                     if other != s.doc and other in options else None)
            if shown is not None:
                out[other] = highlights_html(ws, v, shown)
        return out

    doc_switch.draw(s.doc, highlights_html(ws, v, s), steps, picks)
    merged_a, merged_b = merged_items(ws, v, s)
    export.download_buttons(s.doc, s.text, s.items_a, s.items_b, s.colours, gold_name=v.set_a,
                            pred_name=v.set_b, merged=(merged_a, merged_b),
                            notes=(err_ui.notes(s.cats_a), err_ui.notes(s.cats_b)))


def highlights_html(ws: Workspace, v: View, s: Shown) -> str:
    """:func:`side_by_side` then :func:`merged_view`, built once per document and view: kept by
    a small key (the workspace, the pair, the metric, its variant and level, the document, the
    passage's text, the places of the spans drawn, the span selected and the spans marked),
    not by hashing the whole items. The places tell apart two passages of one document whose
    texts are the same (a repeated block) but whose spans are not."""
    key = (ws.key, v.set_a, v.set_b, v.metric, v.variant, v.level, s.doc,
           len(s.text) if s.text is not None else -1, hash(s.text), _places(s.items_a),
           _places(s.items_b), s.selected, s.partners, s.matched)
    return _highlights_html(key, ws, v, s)


def _places(items: list[highlight.SpanItem]) -> tuple[tuple[str, int, int], ...]:
    """Each drawn span's id and offsets in the passage (its labels follow the workspace)."""
    return tuple((it.id, it.start, it.end) for it in items)


@st.cache_data(max_entries=64, show_spinner=False)
def _highlights_html(key: tuple[Any, ...], _ws: Workspace, _v: View, _s: Shown) -> str:
    HTML_BUILDS["highlights"] += 1
    return side_by_side(_ws, _v, _s) + merged_view(_ws, _v, _s)


def _caption(html: str) -> str:
    return f'<p class="ss-cap">{html}</p>'


def _bold_markdown(line: str) -> str:
    """A HatEval text-label line (:func:`ui.hateval.text_labels`: ``**HS 0 ≠**`` in bold) as
    HTML, escaped.

    >>> _bold_markdown("**HS 0 ≠** · TR <1>")
    '<strong>HS 0 ≠</strong> · TR &lt;1&gt;'
    """
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", esc(line))


def side_by_side(ws: Workspace, v: View, s: Shown) -> str:
    """Both sets' spans in lanes, side by side (two columns; one on a narrow screen), with the
    error categories noted and the legends, as HTML (classes of
    :func:`core.render.highlight.compact_css`; every text escaped)."""
    gold, pred = ws.sets[v.set_a], ws.sets[v.set_b]
    used = {lab for it in s.items_a + s.items_b for lab in it.labels}
    out = [f'<p class="ss-head"><strong>Both annotations of document {esc(s.doc)}, side by '
           "side</strong></p>"]
    labelled = hateval_ui.text_labels(ws, (v.set_a, v.set_b), s.doc)  # HatEval: text labels
    if labelled is not None:
        out.append(_caption("Text labels (HatEval): " + (
            f"{esc(v.set_b)} differs on " + esc(", ".join(labelled[1]))
            + " (in bold, ≠)" if labelled[1] else "they agree") + "; their scores are on 📊 "
            "Scores."))
    if s.selected:
        out.append(_caption(f"Tinted yellow, tag in bold: {esc(s.span_text[s.selected])} and "
                            f"the spans it forms pairs with; what each pair contributes: tab "
                            f"{esc(DOC_TABS[1])}."))
    if s.matched:
        out.append(_caption("Dashed outline, tag underlined: the spans the error filters or the "
                            "Errors bucket keep."))
    out.append(highlight.legend(s.colours, used, compact=True) + err_ui.category_legend())
    split_a, split_b, said = split_marks(ws, v, s)
    if said:
        out.append(_caption(said))
    out.append('<div class="ss-pair">')
    for i, (name, aset, items, cats, dom_id, splits) in enumerate((
            (v.set_a, gold, s.items_a, s.cats_a, "left-doc", split_a),
            (v.set_b, pred, s.items_b, s.cats_b, "right-doc", split_b))):
        count = (_bold_markdown(labelled[0][i]) if labelled else f"{len(items)} span(s)")
        out.append(f'<div><p class="ss-set"><strong>{esc(name)}</strong> ({esc(aset.role)}) · '
                   f"{count}</p>")
        out.append(highlight.render_lanes(s.text, items, s.colours, selected=s.selected,
                                          dom_id=dom_id, partners=s.partners,
                                          notes=err_ui.notes(cats), matched=s.matched,
                                          compact=True, labelled=True, splits=splits))
        out.append("</div>")
    out.append("</div>")
    if gold.alternatives:
        out.append(_caption(alternatives_caption(v)))
    return "".join(out)


def split_marks(ws: Workspace, v: View, s: Shown
                ) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]], str]:
    """The split marks of the shown document (:func:`core.render.highlight.split_pieces`, on the
    labels the metric compares, ⊥ predictions left out as the merged view leaves them): ``÷N``
    on a gold span N predictions of its label cover, ``÷`` on each of them, each mark's tooltip
    saying how the metric on view reads them (the Da San Martino metric sums the pieces'
    contributions to the span's recall, MAFALDA takes the best); and the caption above the
    texts ("" when the document has none)."""
    merged_a, merged_b = merged_items(ws, v, s)
    pieces = highlight.split_pieces(merged_a, merged_b)
    if not pieces:
        return {}, {}, ""
    # A metric that reads the gold's alternatives as MAFALDA does takes each span's best match
    # (MAFALDA); the others sum every pair (Da San Martino).
    best = v.entry.gold_alternatives
    rule = (f"{v.entry.title} takes only the best-covering one for the span's recall" if best
            else f"the {v.entry.title} metric sums their contributions to the span's recall")
    gold = {g: ("÷" + str(len(p)), f"{g} is covered by {len(p)} predictions of its label "
                f"({', '.join(p)}): {rule}.") for g, p in pieces.items()}
    pred: dict[str, tuple[str, str]] = {}
    for g, p in pieces.items():
        for piece in p:
            title = f"{piece} is one of {len(p)} predictions covering {g}: {rule}."
            pred[piece] = ("÷", title if piece not in pred else f"{pred[piece][1]} {title}")
    spans = "; ".join(f"{esc(g)} by {esc(', '.join(p))}" for g, p in pieces.items())
    said = ("Split predictions (÷N on a gold span N predictions of its label cover, ÷ on each "
            f"piece): {spans}. " + (f"{esc(v.entry.title)} takes only the best piece for the "
                                     "span's recall; the Da San Martino metric would sum them."
                                     if best else f"The {esc(v.entry.title)} metric sums the "
                                     "pieces' contributions to the span's recall; MAFALDA "
                                     "would take only the best."))
    return gold, pred, said


def alternatives_caption(v: View) -> str:
    """What a gold with alternative labels means for the metric on view, as HTML. MAFALDA takes
    any one label of ``A | B`` and may leave a ⊥ span out; the Da San Martino metric reads
    each label of the span as a gold span of its own and drops ⊥
    (:func:`core.metrics.martino.martino_gold_view`), so under it both labels must be found
    and a ``B | ⊥`` span unpredicted is a miss: saying only MAFALDA's reading under "martino"
    misled (tour19: the tags' "⊥ optional" beside a Martino recall that counted the span)."""
    mafalda_reading = ("a span tagged <code>A | B</code> may be matched by either label, and ⊥ "
                       "means it may also be left unpredicted")
    if v.entry.gold_alternatives:  # the metric reads them as MAFALDA does
        return (f"{esc(v.set_a)} lists alternative labels: {mafalda_reading}. These are "
                "alternatives, not conflicts.")
    return (f"{esc(v.set_a)} lists alternative labels. Under MAFALDA {mafalda_reading} "
            "(alternatives, not conflicts; the tags show these categories). The "
            f"{esc(v.entry.title)} metric shown here reads each label of such a span as a gold "
            "span of its own and "
            "drops ⊥: it needs every label, and a span offering ⊥ still counts under its "
            "other labels, so left unpredicted it is missed. Its pairs are on the "
            f"{esc(DOC_TABS[1])} tab.")


def merged_items(ws: Workspace, v: View, s: Shown
                 ) -> tuple[list[highlight.SpanItem], list[highlight.SpanItem]]:
    """The spans the merged view compares: at the metric's level, when it has levels, without
    ⊥ predictions (left out of precision, except by MAFALDA's repo-head code)."""
    if v.level is None:
        return s.items_a, s.items_b
    mapping = results.level_label_map(ws, v.set_a, v.set_b, int(v.level))
    return (highlight.relabel(s.items_a, mapping),
            highlight.relabel(s.items_b, mapping, drop_nothing=v.variant != "repo-head"))


def merged_view(ws: Workspace, v: View, s: Shown) -> str:
    """Each character coloured by its status as the metric compares them, as HTML, with the
    caption of the export's buttons that follow it."""
    out = ['<p class="ss-head"><strong>Merged view</strong></p>']
    merged_a, merged_b = merged_items(ws, v, s)
    if v.level is not None:
        out.append(_caption(f"As {esc(v.entry.title)} sees it: labels compared at level "
                            f"{v.level}" + ("" if v.variant == "repo-head"
                                            else "; ⊥ predictions left out") + "."))
    out.append(highlight.status_legend(compact=True)
               + highlight.render_merged(s.text, merged_a, merged_b, compact=True))
    counts = " · ".join(f"{esc(highlight.STATUS_NAMES[k])}: {n} chars"
                        for k, n in highlight.status_counts(s.text, merged_a, merged_b).items()
                        if n)
    if counts:  # none when every count is 0 (a caption of its own drew an empty line)
        out.append(_caption(counts))
    out.append(_caption("Export this document, both annotations highlighted, as a standalone "
                        "file:"))
    return "".join(out)


def contributions(v: View, s: Shown) -> None:
    """The pairs of the selected span and every pair of the document."""
    explained = s.explained
    if explained.error:
        st.error(md(explained.error), icon="❌")
        return
    if s.selected:
        st.markdown(f"**Pairs formed by {md(s.span_text[s.selected])}**")
        rows = results.rows_for_span(explained, s.selected)
        if len(rows):
            st.dataframe(rows, hide_index=True, key="span_pairs", placeholder="—")
        else:
            st.caption("This span overlaps no span of the other set: it adds nothing to the "
                       "numerators.")
        best = results.best_match_for_span(explained, s.selected)
        if best is not None:
            st.markdown(f"{v.entry.title} takes from it: {md(best)}")
    st.markdown(f"**Every pair of document {md(s.doc)}**")
    table = explained.pairs
    st.dataframe(paginate(table, key="pairs_page"), hide_index=True, key="doc_pairs",
                 placeholder="—")
    download_buttons(table, f"contributions_{s.doc}", key="dl_pairs")


def scores(ws: Workspace, v: View, doc: str) -> None:
    """Every span metric's score of this one document."""
    table = results.document_scores(  # a new frame each call: no copy needed
        ws.key, ws, v.set_a, v.set_b, doc,
        variants={m.name: results.chosen_variant(m) for m in registry.span_metrics()},
        level=int(v.level if v.level is not None else state.DEFAULTS[state.K_LEVEL]))
    st.dataframe(above_one.mark(table), hide_index=True, key="doc_scores", placeholder="—")
    above_one.note(table, key="doc_scores")
    download_buttons(table, f"scores_{doc}", key="dl_doc_scores")
