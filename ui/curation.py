"""The Curation page's logic: the proposed consensus, the lead's decisions, the curated set.

Every rule and number comes from :mod:`core.analysis.consensus` (the proposal and its
decisions, :func:`~core.analysis.consensus.curated_set`, the decisions CSV) and from
:mod:`core.metrics.agreement` (each annotator against the curated set); this module keeps the
lead's decisions in the session, draws the lanes and builds the tables.

Session state (the page's keys are below): the lead's decisions live in
``st.session_state[K_CUR_OVERRIDES][workspace key]`` as ``{decision key: Override}``, keyed by
:attr:`~core.analysis.consensus.Decision.key` (document, members, proposal), so they survive
reruns, page changes and changes of the rules that leave a proposal as it was. The curated set is
stored in ``K_CUR_CURATED`` and :func:`with_curated` adds it to the workspace of every page as
the gold set ``curated``.

Keyboard: Streamlit has no page-wide key handler, but ``st.button(..., shortcut=...)``
(Streamlit ≥ 1.52) binds a key to a button: the decision buttons use ``A`` (accept), ``X``
(reject), ``L`` (relabel), ``B`` (set bounds), ``U`` (undo), ``N`` / ``P`` (next / previous
disputed span), ``Shift+N`` (next undecided). The keys fire while no text field has the focus.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import threading
import zipfile
from collections.abc import Sequence
from contextlib import closing
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from core.analysis.consensus import (
    ACTIONS,
    BOUNDARIES,
    CONFLICT_FLAGS,
    FLAGS,
    MATCHES,
    TIE_FLAGS,
    Consensus,
    Decision,
    Override,
    consensus,
    curated_set,
    decisions_csv,
    read_decisions,
)
from core.formats import WRITABLE, write_files
from core.metrics.agreement import Study, against
from core.model import AnnotationSet, Corpus, Span
from core.model.errors import SpanScopeError
from core.render import highlight
from core.render.html import esc
from core.render.palette import OKABE_ITO
from core.store import curation as cstore
from core.store import store_path
from ui import above_one, doc_picker, jobs, state, text_policy
from ui.curation_lanes import Lane, context_window, lanes_html
from ui.escape import md
from ui.state import Workspace
from ui.widgets import notes, paginate

# ---- keys (this page's; the shared ones are in ui.state) ----------------------------------------
# Sets, k, match, bounds and focus are bound to the URL.
K_CUR_SETS = "cur_sets"  # the annotators' sets adjudicated
K_CUR_K = "cur_k"  # k, the annotators that must mark a span
K_CUR_MATCH = "cur_match"  # gamma | overlap | exact | char
K_CUR_BOUNDS = "cur_bounds"  # majority | union | intersection
K_CUR_DOC = "cur_doc"  # the document drawn
K_CUR_FOCUS = "cur_focus"  # which disputed proposals to step through
K_CUR_POS = "cur_pos"  # session: index of the disputed proposal shown
K_CUR_OVERRIDES = "cur_overrides"  # session: {workspace key: {decision key: the lead's Override}}
K_CUR_CURATED = "cur_curated"  # session: {workspace key: (digest, curated set)}, in workspace()
K_CUR_LABEL, K_CUR_START, K_CUR_END = "cur_label", "cur_start", "cur_end"  # Relabel, Set bounds
K_CUR_UPLOAD, K_CUR_UPLOADED = "cur_upload", "cur_uploaded"  # decisions uploader, file id
K_CUR_NOTE = "cur_note"  # session: what the last decisions upload applied
K_CUR_FORMAT = "cur_format"  # format of the curated set's download
K_CUR_PAGE, K_CUR_TABLE = "cur_page", "cur_table"  # decisions table: page, row selection
K_CUR_SEEN = "cur_seen"  # session: {workspace key: {decision key: store revision last read}}
K_CUR_PROJECT = "cur_project"  # session: {workspace key: project key in the store}
K_CUR_PENDING = "cur_pending"  # session: {workspace key: title} of a project the store lacks yet
K_CUR_BATCH = "cur_batch"  # session: (workspace key, batch id, keys) of the last accept-all
# still in place, read from the store by sync() (kept in the tab only without a store)
K_CUR_EFFECT = "cur_effect_on"  # whether the decision-effect table is shown
K_CUR_MSG = "cur_msg"  # session: a refused decision's message, shown once
K_CUR_STORE_ERR = "cur_store_err"  # session: why the store could not be used (session only)
K_CUR_WHOLE = "cur_whole"  # whether the whole document and its proposals table are drawn

CONSENSUS_AUTO_DOCS = 2000
"""Above this many documents the Curation page builds the consensus when asked (a toggle): with
γ matching it takes about 10 s per 10,000 documents on this machine (docs/performance.md)."""
K_CUR_UNDO = "cur_undo_stack"  # session: {ws key: [(decision key, previous Override)]}, no store
K_CUR_UNDO_DEPTH = "cur_undo_depth"  # session: {workspace key: decisions the store can undo}
K_CUR_UNDO_STALE = "cur_undo_stale"  # session: {ws key: history entries changed since}
K_CUR_UPGRADE = "cur_upgrade"  # session: {ws key: the store upgrade's note, until shown once}
K_CUR_BUILD = "cur_build"  # session: the consensus of a large corpus is built (toggle)
CURATED = "curated"
"""Name of the curated set in the workspace (``curated (2)`` if a loaded set has the name)."""

MATCH_HELP = {
    "gamma": "γ alignment (Mathet et al. 2015): at most one span per annotator in a group, "
             "by position and label",
    "overlap": "spans of one label that share a character",
    "exact": "same start, end and label",
    "char": "no matching: each character and label voted on",
}
BOUNDS_HELP = {
    "majority": "characters more than half of the group marked",
    "union": "every character one of the group marked",
    "intersection": "characters all of the group marked",
}
MATCH_SHORT = {"gamma": "gamma (γ alignment)", "overlap": "overlap (shared char.)",
               "exact": "exact (same span)", "char": "char (no matching)"}
BOUNDS_SHORT = {"majority": "majority (> half)", "union": "union (any)",
                "intersection": "intersection (all)"}
"""The pickers' option texts: short enough for their columns at 800 px (the rule is in help)."""
FOCUS = {
    "every disputed span": lambda d: d.disputed,
    "ties and conflicts only": lambda d: bool(set(d.flags) & {*TIE_FLAGS, *CONFLICT_FLAGS}),
    "label disputes only": lambda d: bool(set(d.flags) & {"label-tie", "label-split",
                                                          "label-conflict"}),
    "kept by fewer than all": lambda d: d.disputed and "partial" in d.flags,
    "every proposal (unanimous too)": lambda d: True,
}
"""What the disputed-span navigation steps through (a filter of the disputed proposals)."""
SPAN_FORMATS = tuple(f for f in WRITABLE if f != "hateval")
WRITTEN_AS = {"uima-xmi": "webanno-tsv", "uima-json": "webanno-tsv", "webanno-tsv2": "webanno-tsv"}
"""Read-only formats and the writable one the curated set goes back as: INCEpTION and WebAnno,
whose exports these are, import WebAnno TSV 3 (docs/formats.md, ``webanno-tsv``)."""
SHORTCUTS = {"accept": "A", "keep": "K", "drop": "X", "relabel": "L", "bounds": "B",
             "undo": "U", "next": "N", "previous": "P", "todo": "Shift+N"}


# ---- the curated set in every page's workspace -------------------------------------------------

def curated_name(ws: Workspace) -> str:
    name, n = CURATED, 2
    while name in ws.sets:
        name, n = f"{CURATED} ({n})", n + 1
    return name


def with_curated(ws: Workspace) -> Workspace:
    """``ws`` plus the curated set of this session, if the lead curated one on this data (built
    here, when another page asks, not on every decision)."""
    stored = (st.session_state.get(K_CUR_CURATED) or {}).get(ws.key)
    if stored is None:
        return ws
    result, decided, name = stored
    key = f"{ws.key}+curated:{decisions_digest(result, decided)}:{name}"
    return _joined(key, ws, result, dict(decided), name)


def undecided(ws: Workspace) -> str | None:
    """The name of the curated set :func:`with_curated` added to ``ws`` while the lead has decided
    nothing yet (it is then the automatic consensus, not a reference anyone checked); else
    None."""
    for source, (_result, decided, name) in (st.session_state.get(K_CUR_CURATED) or {}).items():
        if ws.key.startswith(f"{source}+curated:") and name in ws.sets and not decided:
            return str(name)
    return None


@st.cache_resource(max_entries=16, show_spinner=False)
def _joined(key: str, _ws: Workspace, _result: Consensus, _decided: dict[str, Override],
            name: str) -> Workspace:
    aset = curated_set(_result, _decided, name=name)
    corpus = Corpus(dict(_ws.corpus.texts), {**_ws.sets, aset.name: aset})
    return dataclasses.replace(_ws, key=key, corpus=corpus,
                               undecided=None if _decided else aset.name)


def decisions_digest(result: Consensus, decided: dict[str, Override]) -> str:
    """A digest of the proposal (its rules and workspace) and the decisions that apply to it:
    equal digests, equal curated sets (cheaper than :func:`digest` of the set)."""
    h = hashlib.sha256(repr(sorted(result.params.items())).encode())
    h.update(f"{id(result)}".encode())  # the proposal is cached: one object per rules
    ix = index(result)
    for k in sorted(k for k in decided if k in ix.by_key):
        o = decided[k]
        h.update(f"{k}\0{o.decision},{o.start},{o.end},{o.label}\1".encode())
    return h.hexdigest()[:16]


def publish(ws: Workspace, result: Consensus, decided: dict[str, Override], name: str
            ) -> None:
    """Make the proposal with the lead's decisions the workspace's curated set for the rest of
    the session (:func:`with_curated` builds it when another page asks)."""
    store = st.session_state.setdefault(K_CUR_CURATED, {})
    store[ws.key] = (result, decided, name)


@dataclasses.dataclass(frozen=True)
class Index:
    """A proposal's decisions by document and by key, and its disputed keys: what every step
    looks up, so that a step costs the document's decisions, not the corpus's."""

    by_doc: dict[str, list[Decision]]
    by_key: dict[str, Decision]
    disputed: frozenset[str]


_INDEX: dict[int, tuple[Consensus, Index]] = {}
_INDEX_LOCK = threading.Lock()
"""Taken to evict from and add to :data:`_INDEX`: the sessions' script threads share it, and two
evicting at once could pop the same key (``KeyError`` on a page) or add past its bound."""


def index(result: Consensus) -> Index:
    """The :class:`Index` of ``result`` (built once per proposal object; the proposal is
    cached, see :func:`proposal`)."""
    got = _INDEX.get(id(result))
    if got is not None and got[0] is result:
        return got[1]
    by_doc: dict[str, list[Decision]] = {}
    for d in result.decisions:
        by_doc.setdefault(d.doc, []).append(d)
    ix = Index(by_doc, {d.key: d for d in result.decisions},
               frozenset(d.key for d in result.decisions if d.disputed))
    with _INDEX_LOCK:
        while len(_INDEX) >= 64:
            _INDEX.pop(next(iter(_INDEX)))
        _INDEX[id(result)] = (result, ix)  # holding ``result`` keeps its id from being reused
    return ix


def curated_count(result: Consensus, decided: dict[str, Override]) -> int:
    """``curated_set(result, decided).span_count()``, recounting only the documents with a
    decision."""
    ix = index(result)
    total = result.set.span_count()
    for doc in {ix.by_key[k].doc for k in decided if k in ix.by_key}:
        kept = {span for d in ix.by_doc[doc] for v, span, _ in [final(d, decided)]
                if v == "keep"}
        total += len(kept) - len(result.set.get(doc))
    return total


# ---- proposal and decisions --------------------------------------------------------------------

@st.cache_resource(max_entries=32, show_spinner="Building the consensus…")
def proposal(ws_key: str, _ws: Workspace, sets: tuple[str, ...], k: int, match: str,
             boundaries: str) -> Consensus:
    """The consensus of ``sets`` (cached per workspace and rules while the server runs, and in
    the store across restarts: :func:`core.store.curation.load_proposal`)."""
    proj = _project_key(ws_key, _ws)
    rules_key = cstore.rules_key(sets, k=k, match=match, boundaries=boundaries)
    try:  # no store file is made before a decision is written (tour 5, minor c)
        conn = cstore.open_store(store_path()) if store_path().exists() else None
    except SpanScopeError:
        conn = None  # the page says so (see sync); the proposal is computed
    with closing(conn) if conn is not None else contextlib.nullcontext():
        if conn is not None:
            cstore.ensure_project(conn, proj, _ws.title)
            stored = cstore.load_proposal(conn, proj, rules_key)
            if stored is not None:
                return stored
        result = consensus([_ws.sets[n] for n in sets], _ws.texts(), min_agree=k,
                           match=match, boundaries=boundaries,  # type: ignore[arg-type]
                           name=CURATED)
        if conn is not None:
            cstore.save_proposal(conn, proj, rules_key, result)
    return result


def overrides(ws_key: str) -> dict[str, Override]:
    """The lead's decisions on this workspace (a live dict in the session state, refreshed from
    the store by :func:`sync`)."""
    store = st.session_state.setdefault(K_CUR_OVERRIDES, {})
    return store.setdefault(ws_key, {})


def seen(ws_key: str) -> dict[str, int]:
    """The store revision of each decision this tab last read."""
    return st.session_state.setdefault(K_CUR_SEEN, {}).setdefault(ws_key, {})


@st.cache_data(max_entries=16, show_spinner=False)
def _project_key(ws_key: str, _ws: Workspace) -> str:
    del ws_key  # cache key
    return cstore.project_key(_ws.sets.values(), _ws.texts())


_SCHEMA_READY: set[str] = set()


def _connect() -> Any:
    """A connection to the store (one per operation: Streamlit runs a session per thread), or
    None when the store cannot be used (the reason is shown once, decisions stay in the
    session)."""
    path = store_path()
    try:
        opener = cstore.connect if str(path) in _SCHEMA_READY else cstore.open_store
        conn = opener(path)
    except SpanScopeError as exc:
        st.session_state[K_CUR_STORE_ERR] = str(exc)
        return None
    _SCHEMA_READY.add(str(path))
    st.session_state.pop(K_CUR_STORE_ERR, None)
    return conn


def project(ws: Workspace) -> str:
    """This workspace's project in the store (created on first use): one per set of inputs."""
    keys = st.session_state.setdefault(K_CUR_PROJECT, {})
    if ws.key not in keys:
        keys[ws.key] = _project_key(ws.key, ws)
        if not store_path().exists():  # made by the first decision (:func:`write`)
            st.session_state.setdefault(K_CUR_PENDING, {})[ws.key] = ws.title
            return str(keys[ws.key])
        conn = _connect()
        if conn is not None:
            with closing(conn):
                cstore.ensure_project(conn, keys[ws.key], ws.title)
    return str(keys[ws.key])


def sync(ws: Workspace) -> None:
    """Read every decision of the workspace's project from the store into the session (another
    tab's decisions included), with their revisions."""
    proj = project(ws)
    conn = _connect() if store_path().exists() else None
    if conn is None:
        return
    with closing(conn):
        stored = cstore.load(conn, proj)
        depth = cstore.undo_depth(conn, proj)
        stale = cstore.stale_history(conn, proj)
        batch = cstore.last_batch(conn, proj)
        upgraded = cstore.upgrade_note(conn, proj)  # an earlier store's Undo history, once
    if upgraded is not None:
        st.session_state.setdefault(K_CUR_UPGRADE, {})[ws.key] = upgraded
    st.session_state.setdefault(K_CUR_UNDO_DEPTH, {})[ws.key] = depth
    st.session_state.setdefault(K_CUR_UNDO_STALE, {})[ws.key] = stale
    # the last "accept every remaining proposal" is the store's too: a reload can undo it
    if batch is not None:
        st.session_state[K_CUR_BATCH] = (ws.key, *batch)
    elif (st.session_state.get(K_CUR_BATCH) or (None,))[0] == ws.key:
        st.session_state.pop(K_CUR_BATCH)
    decided, revs = overrides(ws.key), seen(ws.key)
    decided.clear()
    decided.update({k: v.override for k, v in stored.items()})
    revs.clear()
    revs.update({k: v.revision for k, v in stored.items()})


def write(ws_key: str, changes: dict[str, Override | None], *, batch: str | None = None,
          undoable: bool = False) -> bool:
    """Write decisions (None: forget it) to the store, then to the session; False (with a
    message for the lead) when another tab changed one of them since this tab read it.
    ``undoable``: Undo can take them back (:func:`undo_last`), from this session or a later
    one (the store keeps what each was before; without a store, this tab does)."""
    decided, revs = overrides(ws_key), seen(ws_key)
    proj = st.session_state.get(K_CUR_PROJECT, {}).get(ws_key)
    conn = _connect() if proj is not None else None
    if conn is not None:
        with closing(conn):
            pending = st.session_state.get(K_CUR_PENDING) or {}
            if ws_key in pending:  # the first decision: the store is made now
                cstore.ensure_project(conn, str(proj), pending.pop(ws_key))
            try:
                for k, rev in cstore.write(conn, proj, changes, revs, batch=batch,
                                           undoable=undoable).items():
                    if rev is None:
                        revs.pop(k, None)
                    else:
                        revs[k] = rev
            except cstore.Conflict as exc:
                _refused(conn, str(proj), exc, decided, revs)
                return False
    elif undoable:  # no store: this tab keeps the history
        stack = st.session_state.setdefault(K_CUR_UNDO, {}).setdefault(ws_key, [])
        stack.extend((k, decided.get(k)) for k, o in changes.items() if decided.get(k) != o)
    for k, o in changes.items():
        if o is None:
            decided.pop(k, None)
        else:
            decided[k] = o
    return True


def _refused(conn: Any, proj: str, exc: cstore.Conflict, decided: dict[str, Override],
             revs: dict[str, int]) -> None:
    """After a refused write: the message for the lead, and the session's decisions and
    revisions read again from the store."""
    stored = cstore.load(conn, proj)
    key = exc.keys[0]
    now = (f"now {stored[key].override.decision}, by “{stored[key].override.action}”"
           if key in stored else "now undecided")
    st.session_state[K_CUR_MSG] = (
        f"Not saved: another tab changed this decision since this one showed it ({now}). This "
        "view now shows the stored decisions; decide again if needed.")
    decided.clear()
    decided.update({k: v.override for k, v in stored.items()})
    revs.clear()
    revs.update({k: v.revision for k, v in stored.items()})


def progress(result: Consensus, decided: dict[str, Override]) -> tuple[int, int]:
    """(disputed proposals the lead decided, disputed proposals)."""
    disputed = index(result).disputed
    return sum(1 for k in decided if k in disputed), len(disputed)


def final(d: Decision, decided: dict[str, Override]) -> tuple[str, Span, bool]:
    """(keep/drop, span, whether the lead decided it) of one proposal."""
    o = decided.get(d.key)
    if o is None:
        return d.decision, d.span, False
    return o.decision, o.span, True


def set_inputs(d: Decision | None, decided: dict[str, Override]) -> None:
    """Preset the relabel and re-bound inputs to the shown proposal (its final span)."""
    if d is None:
        return
    _, span, _ = final(d, decided)
    st.session_state[K_CUR_LABEL] = span.label
    st.session_state[K_CUR_START] = span.start
    st.session_state[K_CUR_END] = span.end


def go_to(pos: int, disputed: Sequence[Decision], decided: dict[str, Override]) -> None:
    """Show disputed proposal ``pos`` (clamped): its document and its inputs."""
    if not disputed:
        return
    pos = max(0, min(pos, len(disputed) - 1))
    st.session_state[K_CUR_POS] = pos
    st.session_state[K_CUR_DOC] = disputed[pos].doc
    set_inputs(disputed[pos], decided)


def first_undecided(disputed: Sequence[Decision], decided: dict[str, Override]) -> int:
    """The index of the first disputed proposal without a decision (0 when every one is
    decided): where a new session starts."""
    return next((i for i, d in enumerate(disputed) if d.key not in decided), 0)


def next_undecided(disputed: Sequence[Decision], decided: dict[str, Override], pos: int
                   ) -> int | None:
    """The index of the next disputed proposal without a decision after ``pos`` (wrapping
    around), or None when every one is decided."""
    n = len(disputed)
    for step in range(1, n + 1):
        i = (pos + step) % n
        if disputed[i].key not in decided:
            return i
    return None


def decide(ws_key: str, disputed: Sequence[Decision], pos: int, action: str,
           text_len: int | None, text: str | None = None) -> None:
    """A button's callback: record the lead's ``action`` (one of
    :data:`~core.analysis.consensus.ACTIONS`, ``undo`` the last decision, ``reset`` this one) on
    disputed proposal ``pos``; a decision that changed the span is what ``undo`` takes back
    next, wherever the card has moved since, in this session or a later one
    (:func:`undo_last`). ``text``: the document's, for the whitespace warning of new bounds."""
    decided = overrides(ws_key)
    d = disputed[pos]
    _, span, _ = final(d, decided)
    if action == "accept":
        o: Override | None = Override.accept(d)
    elif action in ("keep", "drop"):
        o = Override(action, span.start, span.end, span.label, action)  # type: ignore[arg-type]
    elif action == "undo":
        undo_last(ws_key, disputed)
        return
    elif action == "reset":
        if write(ws_key, {d.key: None}):
            set_inputs(d, decided)
        return
    elif action == "relabel":
        label = str(st.session_state.get(K_CUR_LABEL) or span.label)
        if label == span.label:  # nothing would change: no decision, and none described
            st.toast("Nothing recorded: the label is unchanged. Choose a new label in “New "
                     "label” first (K keeps the span as it is).", icon="ℹ️")
            return
        write(ws_key, {d.key: Override("keep", span.start, span.end, label, "relabel")},
              undoable=True)
        return
    elif action == "bounds":
        start = int(st.session_state.get(K_CUR_START, span.start))
        end = int(st.session_state.get(K_CUR_END, span.end))
        if end <= start or (text_len is not None and end > text_len):
            st.session_state[K_CUR_END] = span.end
            st.session_state[K_CUR_START] = span.start
            st.toast(f"Bounds not set: need start < end ≤ {text_len}", icon="⚠️")
            return
        if (start, end) == span.interval:
            st.toast("Nothing recorded: the bounds are unchanged. Type a new Start or End "
                     "first (K keeps the span as it is).", icon="ℹ️")
            return
        write(ws_key, {d.key: Override("keep", start, end, span.label, "bounds")},
              undoable=True)
        from core.formats._common import span_warnings

        # the loaders' warning about a span with whitespace at an edge (tour 4 item 11d)
        for message, _ in span_warnings(Span(start, end, span.label), text):
            if "whitespace" in message:
                st.toast(f"Bounds set, but {message}: most annotation guidelines leave it out "
                         "(U undoes).", icon="⚠️")
        return
    else:
        raise ValueError(f"unknown curation action {action!r}")
    if write(ws_key, {d.key: o}, undoable=True):
        go_to(pos + 1, disputed, decided)  # accept, keep and drop move on to the next one


def undo_last(ws_key: str, disputed: Sequence[Decision]) -> None:
    """Undo the last decision (each press one more): the span gets the decision it had
    before, and the card goes back to it. The history is the store's
    (:func:`core.store.curation.undo`): the last :data:`~core.store.curation.UNDO_DEPTH`
    decisions on these inputs, made in this tab or another, before a reload or a restart
    too; without a store, this tab's."""
    proj = st.session_state.get(K_CUR_PROJECT, {}).get(ws_key)
    conn = _connect() if proj is not None and store_path().exists() else None
    decided, revs = overrides(ws_key), seen(ws_key)
    if conn is None:
        stack = st.session_state.get(K_CUR_UNDO, {}).get(ws_key)
        if not stack:
            return
        key, before = stack.pop()
        if not write(ws_key, {key: before}):
            return
    else:
        with closing(conn):
            try:
                done = cstore.undo(conn, str(proj), revs)
            except cstore.Conflict as exc:
                _refused(conn, str(proj), exc, decided, revs)
                return
        if done is None:
            return
        if done.skipped:
            st.toast(f"{_decisions(done.skipped, 'later decision')} could not be undone: "
                     f"{'it was' if done.skipped == 1 else 'they were'} changed since by a "
                     "write Undo did not record (an older SpanScope or a hand edit of the "
                     "store) and stay as they are. "
                     + ("The decision before them was undone." if done.key is not None
                        else "Nothing else was left to undo."), icon="⚠️")
        if done.key is None:
            return
        key = done.key
        if done.override is None:
            decided.pop(key, None)
            revs.pop(key, None)
        else:
            decided[key] = done.override
            revs[key] = int(done.revision or 0)
    where = next((i for i, d in enumerate(disputed) if d.key == key), None)
    if where is not None:
        go_to(where, disputed, decided)


def _decisions(n: int, noun: str = "decision") -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def undo_help(ws_key: str) -> str:
    """The Undo button's help: what it does, or, when the store's history holds only decisions
    changed since (:func:`core.store.curation.stale_history`), why it cannot."""
    stale = (st.session_state.get(K_CUR_UNDO_STALE) or {}).get(ws_key, 0)
    if stale and not undoable(ws_key):
        one = stale == 1
        return (f"Nothing to undo: the {_decisions(stale)} Undo kept "
                f"{'was' if one else 'were'} changed since by a write Undo did not record (an "
                "older SpanScope or a hand edit of the store), so taking "
                f"{'it' if one else 'them'} back would overwrite that change. Undo takes back "
                "the decisions you make from now on.")
    return ("Undo the last decision (each press one more) and go back to its span; the store "
            "keeps the last decisions on these files, so a reload can undo them too.")


def undoable(ws_key: str) -> bool:
    """Whether Undo has a decision to take back (the store's history, read by :func:`sync`, or
    this tab's without a store)."""
    return bool((st.session_state.get(K_CUR_UNDO_DEPTH) or {}).get(ws_key)
                or (st.session_state.get(K_CUR_UNDO) or {}).get(ws_key))


def remaining(disputed: Sequence[Decision], decided: dict[str, Override]) -> list[Decision]:
    """The proposals of ``disputed`` without a decision of the lead."""
    return [d for d in disputed if d.key not in decided]


def accept_all(ws_key: str, disputed: Sequence[Decision]) -> None:
    """The "accept every remaining proposal" callback: one batch, undone at once by
    :func:`undo_all`."""
    todo = remaining(disputed, overrides(ws_key))
    if not todo:
        return
    batch = cstore.new_batch()
    if write(ws_key, {d.key: Override.accept(d, "accept-all") for d in todo}, batch=batch):
        st.session_state[K_CUR_BATCH] = (ws_key, batch, [d.key for d in todo])


def undo_all(ws_key: str) -> None:
    """Undo the last "accept every remaining proposal" still in place (the decisions of it that
    nobody changed since): the store's (:func:`core.store.curation.last_batch`, so a reloaded
    tab or another session reaches it), or this tab's without a store."""
    got = st.session_state.pop(K_CUR_BATCH, None)
    if not got or got[0] != ws_key:
        return
    _, batch, keys = got
    conn = _connect()
    decided = overrides(ws_key)
    if conn is None:
        for k in keys:
            if decided.get(k) is not None and decided[k].action == "accept-all":
                decided.pop(k)
        return
    with closing(conn):
        cstore.undo_batch(conn, st.session_state[K_CUR_PROJECT][ws_key], batch)


def pick_row(doc: str, shown_ids: Sequence[str], stepped: Sequence[Decision],
             decided: dict[str, Override]) -> None:
    """The decisions table's selection callback: show the picked proposal (when the chosen
    "Step through" list holds it)."""
    rows = st.session_state[K_CUR_TABLE]["selection"]["rows"]
    if not rows:
        return
    wanted = f"{doc}#{shown_ids[rows[0]]}"
    for i, d in enumerate(stepped):
        if d.id == wanted:
            go_to(i, stepped, decided)
            return
    st.toast(f"{md(wanted)} is not in the list stepped through; choose “every proposal” in "
             "“Step through” to decide it.", icon="ℹ️")


def apply_upload(ws_key: str, result: Consensus, data: bytes, name: str) -> str:
    """Merge a decisions file into the session's decisions; a message saying what happened
    (Markdown: the file's name and contents are escaped)."""
    import csv

    from core.formats import decode
    from core.formats._common import csv_problem
    from core.model.errors import FormatError

    try:
        # decode: bytes that are not UTF-8 are an error naming the file, line and byte
        loaded, notes = read_decisions(decode(name, data), result, file=name)
    except FormatError as exc:
        return f"❌ {md(exc)}"
    except csv.Error as exc:  # a lone CR ending a line, a field over csv's 128 KiB limit
        return f"❌ {md(name)}: {md(csv_problem(exc))}"
    revs = seen(ws_key)
    proj = st.session_state.get(K_CUR_PROJECT, {}).get(ws_key)
    conn = _connect() if proj is not None else None
    if conn is not None:
        with closing(conn):  # an uploaded file is deliberate: it replaces what the store holds
            stored = cstore.load(conn, proj)
            revs.clear()
            revs.update({k: v.revision for k, v in stored.items()})
            revs.update(cstore.record(conn, proj, loaded, revs))
    overrides(ws_key).update(loaded)
    msg = f"✅ Restored {len(loaded)} decision(s) from {md(name)}."
    if notes:
        msg += f" {len(notes)} row(s) match no proposal of the current rules and were not " \
               "applied (first: " + md(notes[0]) + ")."
    return msg


# ---- tables ------------------------------------------------------------------------------------

def flag_text(flags: Sequence[str]) -> str:
    return ", ".join(flags) if flags else "unanimous"


def status_text(d: Decision, decided: dict[str, Override]) -> str:
    """The decision in words with an icon (never a colour alone) and who made it."""
    verdict, span, by_lead = final(d, decided)
    mark = "✓ keep" if verdict == "keep" else "✗ drop"
    if not by_lead:
        return f"{mark} (rule{', to decide' if d.disputed else ''})"
    o = decided[d.key]
    how = {"accept": "you accepted the proposal", "accept-all": "you accepted all proposals",
           "keep": "you kept it", "drop": "you dropped it"}.get(o.action, "you")
    changed = []
    if span.label != d.span.label:
        changed.append("relabelled")
    if span.interval != d.span.interval:
        changed.append("re-bounded")
    return f"{mark} ({how}{': ' + ', '.join(changed) if changed else ''})"


def doc_table(result: Consensus, doc: str, text: str | None,
              decided: dict[str, Override]) -> pd.DataFrame:
    rows = []
    for d in index(result).by_doc.get(doc, ()):
        _, span, _ = final(d, decided)
        rows.append({"#": d.id.rsplit("#", 1)[1], "span": f"[{span.start}, {span.end})",
                     "text": span.fragment(text) if text else "", "label": span.label,
                     "decision": status_text(d, decided), "dispute": flag_text(d.flags),
                     "votes": f"{d.votes} of {d.n}", "marked by": ", ".join(d.annotators),
                     "why": d.why})
    return pd.DataFrame(rows)


def items_for(aset: AnnotationSet, doc: str, prefix: str, members: Sequence[tuple[str, Span]]
              ) -> tuple[list[highlight.SpanItem], list[str]]:
    """The set's spans in ``doc`` as lane items, and the ids of those among ``members``."""
    items = highlight.span_items(AnnotationSet(aset.name, {doc: aset.get(doc)}), doc, prefix)
    mine = {(s.start, s.end, s.label) for a, s in members if a == aset.name}
    marked = [it.id for it in items if any((it.start, it.end, lab) in mine for lab in it.labels)]
    return items, marked


def lane_note(items: Sequence[highlight.SpanItem]) -> str:
    """An annotator's lane's count of spans, each copy of a span given more than once counted
    (its own id, A1 and A2, as the Documents page's P1 and P2), and how many of them are such
    copies: the consensus reads an annotator's copies as one vote, so they are marked together
    as one member of a decision.

    >>> lane_note([highlight.SpanItem("A1", 0, 4, ("x",)), highlight.SpanItem("A2", 0, 4, ("x",))])
    '2 span(s) · 1 is a copy of another (one vote)'
    """
    copies = len(items) - len({(it.start, it.end, it.labels) for it in items})
    said = ("" if not copies else " · 1 is a copy of another (one vote)" if copies == 1
            else f" · {copies:,} are copies of others (each span and its copies: one vote)")
    return f"{len(items)} span(s){said}"


def proposal_items(result: Consensus, doc: str, decided: dict[str, Override] | None
                   ) -> list[highlight.SpanItem]:
    """Kept proposals of ``doc`` (``decided`` None: the rule's; else with the lead's)."""
    out = []
    for d in index(result).by_doc.get(doc, ()):
        verdict, span, _ = final(d, decided or {}) if decided is not None else (
            d.decision, d.span, False)
        if verdict == "keep":
            out.append(highlight.SpanItem(f"{'✓' if decided is not None else 'P'}"
                                          f"{d.id.rsplit('#', 1)[1]}", span.start, span.end,
                                          (span.label,)))
    return sorted(out, key=lambda it: (it.start, -it.end, it.id))


KEEP_COLOUR, DROP_COLOUR = OKABE_ITO[4], OKABE_ITO[5]
"""Okabe–Ito blue and vermillion (``core/render/palette.py``): the card's edge and a kept or
dropped verdict's border (its icon and word say it too)."""


def _verdict_box(title: str, verdict: str | None, span: Span | None, note: str,
                 dom_id: str) -> str:
    """One half of the card: a verdict with its icon, word and span (never colour alone)."""
    if verdict is None or span is None:
        body = "<b>— not decided yet</b>"
        border = "#999"
    else:
        icon, word = ("✓", "keep") if verdict == "keep" else ("✗", "drop")
        border = KEEP_COLOUR if verdict == "keep" else DROP_COLOUR
        body = (f"<b>{icon} {word}</b> [{span.start}, {span.end}) <b>{esc(span.label)}</b>")
    return (f'<div id="{dom_id}" style="flex:1;min-width:14em;border:1px dashed {border};'
            f'border-radius:4px;padding:4px 8px"><div style="font-size:0.8em;opacity:0.8">'
            f'{esc(title)}</div><div>{body}</div><div style="font-size:0.8em">{esc(note)}</div>'
            '</div>')


def current_card(d: Decision, text: str | None, decided: dict[str, Override]) -> str:
    """HTML card of the shown proposal: the rule's proposal and the current decision side by
    side, the fragment, who marked what, the rule and the dispute (every value escaped)."""
    _, span, _ = final(d, decided)
    frag = esc(span.fragment(text)) if text else "<i>no text</i>"
    members = "".join(
        f"<li><b>{esc(a)}</b>: [{s.start}, {s.end}) {esc(s.label)}"
        + (f" — “{esc(s.fragment(text))}”" if text else "") + "</li>" for a, s in d.members)
    flags = "".join(f"<li><b>{esc(f)}</b>: {esc(FLAGS[f])}</li>" for f in d.flags)
    o = decided.get(d.key)
    proposal_box = _verdict_box("The rule proposes", d.decision, d.span,
                                f"{d.votes} of {d.n} marked it, k = {d.k}", "cur-proposal")
    decision_box = _verdict_box(
        "Your decision", o.decision if o else None, o.span if o else None,
        ACTIONS.get(o.action, "") if o else "A accepts the proposal · K keeps · X drops",
        "cur-decision")
    return (
        f'<div id="cur-card" style="border:1px solid #ccc;border-left:6px solid {KEEP_COLOUR};'
        'border-radius:6px;padding:8px 12px;margin:4px 0">'
        f'<div style="font-size:1.05em"><b>{esc(d.id)}</b> · [{span.start}, {span.end}) '
        f'<b>{esc(span.label)}</b> · {esc(status_text(d, decided))}</div>'
        f'<div style="display:flex;gap:8px;flex-wrap:wrap;margin:6px 0">{proposal_box}'
        f'{decision_box}</div>'
        f'<div style="margin:6px 0;font-size:1.1em">“{frag}”</div>'
        f'<div style="font-size:0.9em">Marked by {d.votes} of {d.n} annotators (k = {d.k}):'
        f'<ul style="margin:2px 0">{members}</ul>Dispute:<ul style="margin:2px 0">{flags}</ul>'
        f'Rule: {esc(d.why)}</div></div>')


@st.cache_data(max_entries=16, show_spinner="Scoring each annotator against the curated set…")
def agreement_table(cur_digest: str, _sets: tuple[AnnotationSet, ...], _curated: AnnotationSet,
                    _texts: dict[str, str | None], names: tuple[str, ...]) -> pd.DataFrame:
    """Each annotator against the curated set: span P/R/F1 (Da San Martino et al. 2019,
    SemEval-2021 variant, the curated set as gold) and character κ (Cohen 1960, characters ×
    labels), from :func:`core.metrics.agreement.against`."""
    del cur_digest, names  # cache keys
    study = Study.from_sets([_curated, *_sets], _texts)
    f1 = against(study, _curated.name, measure="span-f1")
    kappa = against(study, _curated.name, measure="char-kappa")
    rows = []
    for aset in _sets:
        pv, kv = f1[aset.name], kappa[aset.name]
        rows.append({"annotator": aset.name,
                     "span precision": pv.extra["precision"].value,
                     "span recall": pv.extra["recall"].value, "span F1": pv.overall.value,
                     "char κ": kv.overall.value})
    return pd.DataFrame(rows)


def decision_effect(result: Consensus, decided: dict[str, Override], d: Decision,
                    sets: Sequence[AnnotationSet], texts: dict[str, str | None]
                    ) -> pd.DataFrame:
    """What the shown decision does to each annotator's span F1 on its document: the curated
    document with the span kept, then dropped (Da San Martino et al. 2019, SemEval-2021
    variant, the curated set as gold, from :func:`core.metrics.agreement.against`)."""
    _, span, _ = final(d, decided)
    ref = "(curated)"
    values: dict[str, dict[str, float | None]] = {}
    for verdict in ("keep", "drop"):
        choice = {**decided, d.key: Override(verdict, span.start, span.end,
                                             span.label)}
        kept = sorted({s for x in index(result).by_doc[d.doc]
                       for v, s, _ in [final(x, choice)] if v == "keep"})
        gold = AnnotationSet(ref, {d.doc: tuple(kept)})
        others = [AnnotationSet(a.name, {d.doc: a.get(d.doc)}, "annotator") for a in sets
                  if d.doc in a.spans]
        res = against(Study.from_sets([gold, *others], {d.doc: texts.get(d.doc)}), ref,
                      measure="span-f1")
        values[verdict] = {a: pv.overall.value for a, pv in res.items()}
    marked = {a: s for a, s in d.members}
    rows = []
    for a in values["keep"]:
        k, x = values["keep"][a], values["drop"][a]
        rows.append({"annotator": a,
                     "marked it": f"yes, {marked[a].label} [{marked[a].start}, {marked[a].end})"
                     if a in marked else "no",
                     "span F1 if kept": k, "span F1 if dropped": x,
                     "kept − dropped": None if k is None or x is None else k - x})
    return pd.DataFrame(rows)


def download_files(fmt: str, texts: dict[str, str | None], aset: AnnotationSet
                   ) -> tuple[bytes, str, str]:
    """(bytes, file name, mime) of the curated set in ``fmt``: one file, or a zip of several."""
    files = write_files(fmt, texts, [aset])
    if len(files) == 1:
        name, content = next(iter(files.items()))
        return content.encode("utf-8"), name, "text/plain"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in sorted(files.items()):
            zf.writestr(name, content)
    return buf.getvalue(), f"{aset.name}_{fmt}.zip", "application/zip"


def decisions_file(result: Consensus, decided: dict[str, Override]) -> str:
    by_key = index(result).by_key
    return decisions_csv(result, {k: o for k, o in decided.items() if k in by_key})


def summary(result: Consensus, decided: dict[str, Override]) -> dict[str, Any]:
    done, disputed = progress(result, decided)
    cur = curated_set(result, decided)
    return {"decided": done, "disputed": disputed, "spans": cur.span_count(),
            "proposals": len(result.decisions)}


# ---- the page's sections, in the order pages/curation.py draws them -----------------------------


def data(source: Workspace) -> tuple[Workspace, list[str]]:
    """``source`` (:func:`ui.current.source_workspace`) with spans past their text clipped for
    the consensus, and the notes saying so; stops the page without two sets of spans."""
    ws, clipped = text_policy.for_agreement(source)
    if ws.empty or len(ws.sets) < 2 or not ws.has_spans:
        st.info("Curation needs at least two annotation sets with spans (annotators).", icon="ℹ️")
        st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
        st.stop()
    if not ws.shareable:
        st.caption("🔗 " + state.UPLOAD_LINK_NOTE)
    st.caption("Propose a consensus from the annotators' spans by explicit rules, then accept "
               "the proposal, keep, drop, relabel or re-bound each disputed span. The result is "
               f"the set **{curated_name(ws)}** on every page (pick it as the gold) and "
               "downloads in any format. Every decision is saved as you make it and is there "
               "when you come back to the same files (another tab, a restarted server).")
    return ws, clipped


@dataclasses.dataclass(frozen=True)
class Rules:
    """The sets adjudicated and the consensus rules chosen."""

    sets: tuple[str, ...]
    k: int
    match: str
    bounds: str


def rules(ws: Workspace) -> Rules:
    """The annotators, k, matching and boundary widgets; stops below two sets."""
    names = list(ws.sets)
    default_sets = state.set_options(ws, "annotator")
    if len(default_sets) < 2:
        default_sets = names
    if any(n not in names for n in st.session_state.get(K_CUR_SETS) or ()):
        del st.session_state[K_CUR_SETS]
    chosen = st.multiselect("Annotators", names, default=default_sets, key=K_CUR_SETS,
                            bind="query-params", help="The sets to adjudicate (two or more).")
    if len(chosen) < 2:
        st.info("Pick at least two annotation sets above.", icon="ℹ️")
        st.stop()
    sets = tuple(sorted(chosen))
    c1, c2, c3 = st.columns([1, 2, 2])
    k_default = len(sets) // 2 + 1
    if int(st.session_state.get(K_CUR_K) or k_default) > len(sets):
        del st.session_state[K_CUR_K]  # fewer sets than k now: back to the default
    k = int(c1.number_input("Min. annotators (k)", min_value=1, max_value=len(sets),
                            value=k_default, step=1, key=K_CUR_K, bind="query-params",
                            help=f"A span is kept when at least k of the {len(sets)} annotators "
                            "marked it: 1 = union, all = intersection."))
    # The options say their name and a hint short enough for a third of an 800 px window; the
    # whole rule of each is in the help (it was cut to "gamma: γ alignment (Mathet…").
    match = c2.selectbox("Match spans by", MATCHES, key=K_CUR_MATCH, bind="query-params",
                         format_func=lambda m: MATCH_SHORT.get(m, m),
                         help="How the annotators' spans are grouped:\n\n" + "\n".join(
                             f"* **{m}**: {MATCH_HELP[m]}" for m in MATCHES))
    bounds = c3.selectbox("Boundaries", BOUNDARIES, key=K_CUR_BOUNDS, bind="query-params",
                          format_func=lambda b: BOUNDS_SHORT.get(b, b),
                          disabled=match in ("exact", "char"),
                          help="Which characters of a group the kept span covers:\n\n"
                          + "\n".join(f"* **{b}**: {BOUNDS_HELP[b]}" for b in BOUNDARIES)
                          + "\n\nNot used by exact and char matching.")
    return Rules(sets, k, match, bounds)


@dataclasses.dataclass(frozen=True)
class Proposed:
    """The rules' proposal, the lead's decisions so far and the disputed spans stepped through."""

    result: Consensus
    decided: dict[str, Override]
    focus: str
    disputed: list[Decision]


def propose(ws: Workspace, r: Rules, clipped: Sequence[str]) -> Proposed:
    """The consensus of the rules (on a large corpus once asked for) and the focus picker;
    stops the page on sets that cannot be adjudicated."""
    n_docs = max(len(ws.sets[n].spans) for n in r.sets)
    if n_docs > CONSENSUS_AUTO_DOCS and not st.toggle(
            f"Build the consensus of all {n_docs:,} documents", key=K_CUR_BUILD,
            persist_state="session",
            help=f"Off by default above {CONSENSUS_AUTO_DOCS:,} documents: the consensus "
            "aligns every document of every annotator (γ matching takes about 10 s per 10,000 "
            "documents; exact and char matching are faster)."):
        st.info(f"The consensus of {n_docs:,} documents is built when asked: choose the rules "
                "above, then turn on “Build the consensus”. It is computed once per set of "
                "rules and kept while the server runs.", icon="⏸️")
        st.stop()
    try:
        # The spinner draws over whatever the last run left at its place (the faded "built
        # when asked" note once the toggle is turned on): a slot of its own replaces that first.
        with st.empty():
            result = proposal(ws.key, ws, r.sets, r.k, r.match, r.bounds)
    except SpanScopeError as exc:
        st.error("These sets cannot be adjudicated: "
                 f"{md(text_policy.for_agreement_pages(str(exc)))}", icon="❌")
        st.page_link("pages/data.py", label="Change the choice on the Data page", icon="📂")
        st.stop()
    notes([*clipped, *result.warnings], key="cur_warnings")
    sync(ws)
    upgraded = (st.session_state.get(K_CUR_UPGRADE) or {}).pop(ws.key, None)
    if upgraded:  # said once: in the run that opened the upgraded store, in no other session
        st.info(md(upgraded), icon="ℹ️")
    if st.session_state.get(K_CUR_STORE_ERR):
        st.warning("Your decisions are kept in this browser tab only (download them before "
                   f"closing it): {md(st.session_state[K_CUR_STORE_ERR])}", icon="⚠️")
    decided = overrides(ws.key)
    focus = st.selectbox("Step through", list(FOCUS), key=K_CUR_FOCUS,
                         bind="query-params", help="Which disputed spans the buttons and keys "
                         "step through: all, the ties and conflicts the rules could not settle, "
                         "the label disputes, or the spans some annotators did not mark.")
    disputed = [d for d in result.decisions if d.disputed and FOCUS[focus](d)]
    return Proposed(result, decided, focus, disputed)


def resume(ws: Workspace, p: Proposed) -> None:
    """The decisions-file uploader (a file applies once, then the inputs follow it)."""
    with st.expander("📤 Resume: upload a decisions file", expanded=False):
        upload = st.file_uploader("Decisions file (CSV downloaded from this page or written by "
                                  "`python -m core adjudicate --decisions`)", type=["csv"],
                                  key=K_CUR_UPLOAD)
        if upload is not None and st.session_state.get(K_CUR_UPLOADED) != upload.file_id:
            st.session_state[K_CUR_UPLOADED] = upload.file_id
            st.session_state[K_CUR_NOTE] = apply_upload(ws.key, p.result, upload.getvalue(),
                                                         upload.name)
            set_inputs(p.disputed[0] if p.disputed else None, p.decided)
        note = st.session_state.get(K_CUR_NOTE)
        if note:
            st.markdown(note)


def curate(source: Workspace, ws: Workspace, p: Proposed) -> None:
    """The progress tiles; the curated set published to every page's workspace."""
    publish(source, p.result, p.decided, curated_name(ws))  # other pages add it to the source
    done, total = progress(p.result, p.decided)
    # tiles as wide as their numbers, wrapping (four equal columns cut "0 / 2,345" to "0 / 2,…"
    # on a laptop's half screen)
    m1 = m2 = m3 = m4 = st.container(horizontal=True, gap="medium")
    m1.metric("Decided", f"{done:,} / {total:,}", help="Disputed spans you have decided / all "
              "disputed spans (a span is disputed when not every annotator marked it "
              "identically).", width="content")
    keep = sum(d.decision == "keep" for d in p.result.decisions)
    drop = len(p.result.decisions) - keep
    m2.metric("Proposed spans", f"{len(p.result.decisions):,}", width="content",
              help=f"Every span the rule judged: {keep:,} it proposes to keep and {drop:,} to "
              "drop (marked by fewer than k annotators, or a label tie), so the curated set "
              "starts smaller than this count.")
    m3.metric("Unanimous", f"{len(p.result.decisions) - total:,}", width="content",
              help="Proposed spans marked identically by every annotator (same start, end and "
              "label): nothing to decide, they are not among the disputed spans.")
    m4.metric("Curated spans", f"{curated_count(p.result, p.decided):,}", width="content",
              help="The spans of the curated set: the rule's kept proposals, changed by your "
              "decisions (a kept span dropped, a dropped one kept, a label or bounds changed).")
    st.progress(done / total if total else 1.0,
                text=f"{done:,} of {total:,} disputed spans decided" if total
                else "Nothing disputed: the annotators agree everywhere.")


def _step_buttons(ws: Workspace, p: Proposed, pos: int, shown: Decision,
                  text_len: int | None) -> None:
    disputed, decided = p.disputed, p.decided
    args = (ws.key, disputed, pos)
    nav = st.container(horizontal=True)  # buttons at their own width, wrapping if narrow
    nav.button("◀ Previous", key="cur_prev", shortcut=SHORTCUTS["previous"],
               on_click=go_to, args=(pos - 1, disputed, decided), disabled=pos == 0)
    nav.button("Next ▶", key="cur_next", shortcut=SHORTCUTS["next"],
               on_click=go_to, args=(pos + 1, disputed, decided),
               disabled=pos >= len(disputed) - 1)
    todo = next_undecided(disputed, decided, pos)
    nav.button("⏭ Next undecided", key="cur_todo", shortcut=SHORTCUTS["todo"],
               on_click=go_to, args=(todo if todo is not None else pos, disputed, decided),
               disabled=todo is None, help="Skip to the next disputed span you have not "
               "decided (from the start when none is left after this one).")
    verdict = "keep" if shown.decision == "keep" else "drop"
    row = st.container(horizontal=True)
    row.button(f"✓ Accept the proposal ({verdict})", key="cur_accept", type="primary",
               shortcut=SHORTCUTS["accept"], on_click=decide, args=(*args, "accept", text_len),
               help=f"Take the rule's proposal as it is: {verdict} this span "
               f"[{shown.span.start}, {shown.span.end}) {shown.span.label}. Then go to the "
               "next.")
    row.button("➕ Keep this span", key="cur_keep", shortcut=SHORTCUTS["keep"],
               on_click=decide, args=(*args, "keep", text_len),
               help="Keep this span (as shown) in the curated set, whatever the rule "
               "proposes. Then go to the next.")
    row.button("✗ Drop this span", key="cur_drop", shortcut=SHORTCUTS["drop"],
               on_click=decide, args=(*args, "drop", text_len),
               help="Leave this span out of the curated set, whatever the rule proposes. "
               "Then go to the next.")
    row.button("↺ Undo", key="cur_undo", shortcut=SHORTCUTS["undo"],
               on_click=decide, args=(*args, "undo", text_len), disabled=not undoable(ws.key),
               help=undo_help(ws.key))
    row.button("⟲ Reset this span", key="cur_reset", on_click=decide,
               args=(*args, "reset", text_len), disabled=shown.key not in decided,
               help="Back to undecided for the span shown (the rule's proposal stands).")
    left = remaining(disputed, decided)
    bulk = st.container(horizontal=True, vertical_alignment="center")
    bulk.button(f"✓✓ Accept every remaining proposal ({len(left):,})", key="cur_accept_all",
                on_click=accept_all, args=(ws.key, disputed), disabled=not left,
                help=f"Take the rule's proposal for the {len(left)} disputed span(s) of the "
                f"list stepped through ({p.focus}) that you have not decided: "
                f"{sum(d.decision == 'keep' for d in left)} kept, "
                f"{sum(d.decision == 'drop' for d in left)} dropped. One click undoes it.")
    batch = st.session_state.get(K_CUR_BATCH)
    if batch and batch[0] == ws.key:
        bulk.button(f"↶ Undo accepting {len(batch[2])} proposals", key="cur_undo_all",
                    on_click=undo_all, args=(ws.key,),
                    help="Back to undecided for every proposal the last “accept every "
                    "remaining proposal” decided (those you changed since stay).")


def _edit_inputs(ws: Workspace, p: Proposed, pos: int, shown: Decision,
                 text_len: int | None) -> None:
    args = (ws.key, p.disputed, pos)
    labels = state.all_labels(ws.key, ws)
    if st.session_state.get(K_CUR_LABEL) not in labels:
        st.session_state[K_CUR_LABEL] = shown.span.label
    # two groups in a row that wraps, each button as wide as its label and key (in five equal
    # columns they read "Rela…" and "Set bo…" on a laptop's screen)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="medium")
    e1 = e2 = row.container(horizontal=True, vertical_alignment="bottom", width="content")
    e3 = e4 = e5 = row.container(horizontal=True, vertical_alignment="bottom", width="content")
    e1.selectbox("New label", labels, key=K_CUR_LABEL, width=240)
    e2.button("🏷️ Relabel", key="cur_relabel", shortcut=SHORTCUTS["relabel"],
              on_click=decide, args=(*args, "relabel", text_len),
              help="Keep this span with the label chosen on the left.")
    e3.number_input("Start", min_value=0, step=1, key=K_CUR_START, width=120)
    e4.number_input("End", min_value=1, step=1, key=K_CUR_END, width=120)
    e5.button("↔ Set bounds", key="cur_bounds_btn", shortcut=SHORTCUTS["bounds"],
              on_click=decide, args=(*args, "bounds", text_len, ws.texts().get(shown.doc)),
              help="Keep this span with the start and end on the left (end exclusive).")


def disputed_span(ws: Workspace, r: Rules, p: Proposed) -> Decision | None:
    """The disputed span stepped to, with the decision buttons, the edit inputs and what the
    decision does to each annotator; returns it (None when nothing is disputed)."""
    docs = list(p.result.set.spans)
    if K_CUR_POS not in st.session_state and p.disputed:
        # A new session (a reload, another tab, a restarted server) resumes where the work
        # stands, at the first disputed span the store holds no decision for, not at span 1.
        go_to(first_undecided(p.disputed, p.decided), p.disputed, p.decided)
    pos = int(st.session_state.get(K_CUR_POS) or 0)
    pos = max(0, min(pos, len(p.disputed) - 1)) if p.disputed else 0
    shown = p.disputed[pos] if p.disputed else None
    if shown is not None and K_CUR_START not in st.session_state:
        set_inputs(shown, p.decided)
    if st.session_state.get(K_CUR_DOC) not in docs:
        st.session_state[K_CUR_DOC] = shown.doc if shown is not None else docs[0]
    if shown is None:
        total = progress(p.result, p.decided)[1]
        st.success("No disputed span: every proposal is unanimous." if not total else
                   f"No disputed span is of the kind chosen in “Step through” ({p.focus}).",
                   icon="✅")
        return None
    text = ws.corpus.texts.get(shown.doc)
    text_len = len(text) if text is not None else None
    st.caption(f"Disputed span **{pos + 1:,} of {len(p.disputed):,}** ({p.focus}; document "
               f"{md(shown.doc)}).")
    msg = st.session_state.pop(K_CUR_MSG, None)
    if msg:
        st.warning(md(msg), icon="⚠️")
    _step_buttons(ws, p, pos, shown, text_len)
    _edit_inputs(ws, p, pos, shown, text_len)
    st.html(current_card(shown, text, p.decided) + context_lanes(ws, r, p, shown))
    if st.toggle(f"Show what this decision does to each annotator's span F1 on document "
                 f"{md(shown.doc)}", key=K_CUR_EFFECT,
                 help="Off by default: it scores each annotator twice per span shown, which "
                 "slows every step down on long documents."):
        effect = decision_effect(p.result, p.decided, shown, [ws.sets[n] for n in r.sets],
                                 ws.texts())
        st.dataframe(effect, hide_index=True, key="cur_effect",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in effect.columns if c.startswith(("span", "kept"))},
                     placeholder="—")
        st.caption("Da San Martino et al. (2019) span F1 (SemEval-2021 variant) of each "
                   "annotator on this document, against the curated document with this span "
                   "kept, then dropped: who the decision agrees with.")
    return shown


def guide(ws: Workspace) -> None:
    """What does not change with a decision, drawn once per page run (outside the fragment):
    the heading, the keys and where the decisions are saved."""
    st.header("Disputed spans")
    st.caption("Keys: **A** accept the proposal · **K** keep · **X** drop · **N** next · "
               "**P** previous · **Shift+N** next undecided · **L** keep it with the label chosen "
               "in “New label” · **B** keep it with the Start and End typed there "
               "· **U** undo the last decision (while no text field has the focus). Below the "
               "card, each annotator's spans around the disputed span, the rule's proposal (P) "
               "and the "
               "curated set (✓), each in a lane: a tag marks where a span starts and names it "
               "(A3: the first annotator's 3rd span in the document, B… the second's; P3 and "
               "✓3: row 3 of the document's proposals table); the disputed span's spans are "
               "drawn thicker on a yellow tint.")
    if not st.session_state.get(K_CUR_STORE_ERR):
        st.caption(f"💾 Saved as you decide, in the store {md(store_path().name)} (project "
                   f"{project(ws)[:8]}: these input files; `spanscope app --store PATH` "
                   "chooses the file).")


@st.fragment
@jobs.person_fragment
def workbench(source: Workspace, ws: Workspace, r: Rules, p: Proposed) -> None:
    """What a decision changes, redrawn alone when the lead decides or moves (a Streamlit
    fragment: no whole-page rerun): the progress, the disputed span's card with its
    neighbourhood, and the whole document when asked. Each run reads the store first, so
    another tab's decisions show on this tab's next action."""
    sync(ws)
    curate(source, ws, p)
    shown = disputed_span(ws, r, p)
    if st.toggle("Show the whole document, annotator by annotator, with its proposals table",
                 key=K_CUR_WHOLE, help="Off by default: every key then redraws the card and "
                 "the disputed span's neighbourhood only, which keeps decisions instant on "
                 "long documents."):
        document_lanes(ws, r, p, shown)


def _lanes(ws: Workspace, r: Rules, p: Proposed, doc: str, members: Sequence[tuple[str, Span]],
           shown_id: str | None, prefix: str) -> list[Lane]:
    """Each annotator's lane, the proposal's and the curated set's, of ``doc`` (DOM ids
    ``<prefix>lane-<i>``, ``<prefix>proposed``, ``<prefix>curated``)."""
    out = []
    for i, name in enumerate(r.sets):
        items, marked = items_for(ws.sets[name], doc, chr(65 + i % 26), members)
        listed = "" if doc in ws.sets[name].spans else " · does not list this document"
        out.append(Lane(name, lane_note(items) + listed, items, marked, f"{prefix}lane-{i}"))
    rule_items = proposal_items(p.result, doc, None)
    cur_items = proposal_items(p.result, doc, p.decided)
    how = f"k = {r.k}, {r.match}" + (f", {r.bounds}" if r.match not in ("exact", "char")
                                     else "")
    out.append(Lane("Proposed consensus", f"{how} · {len(rule_items)} span(s)", rule_items,
                    [f"P{shown_id}"] if shown_id else [], f"{prefix}proposed"))
    out.append(Lane("Curated", f"with your decisions · {len(cur_items)} span(s)", cur_items,
                    [f"✓{shown_id}"] if shown_id else [], f"{prefix}curated"))
    return out


def context_lanes(ws: Workspace, r: Rules, p: Proposed, shown: Decision) -> str:
    """HTML of the lanes around the shown disputed span (:func:`ui.curation_lanes.
    context_window`): what a key redraws besides the card."""
    text = ws.corpus.texts.get(shown.doc)
    colours = highlight.label_colours(state.all_labels(ws.key, ws))
    _, span, _ = final(shown, p.decided)
    window = context_window(text, [shown.span.interval, span.interval,
                                   *(s.interval for _, s in shown.members)])
    lanes = _lanes(ws, r, p, shown.doc, shown.members, shown.id.rsplit("#", 1)[1], "cur-ctx-")
    caption = (f'<div style="font-size:0.9em;margin-top:10px"><b>Around {esc(shown.id)}</b> '
               f'in document {esc(shown.doc)}</div>')
    return lanes_html(text, lanes, colours, window=window, dom_id="cur-context",
                      caption=caption)


def document_lanes(ws: Workspace, r: Rules, p: Proposed, shown: Decision | None) -> None:
    """One whole document (on demand): each annotator in a lane, the proposal and the curated
    set below, and its proposals as a table whose row selection steps to a proposal."""
    st.header("The document, annotator by annotator")
    doc = doc_picker.pick_document(ws, list(p.result.set.spans), key=K_CUR_DOC)
    text = ws.corpus.texts.get(doc)
    colours = highlight.label_colours(state.all_labels(ws.key, ws))
    members = shown.members if shown is not None and shown.doc == doc else ()
    shown_id = shown.id.rsplit("#", 1)[1] if shown is not None and members else None
    st.html(lanes_html(text, _lanes(ws, r, p, doc, members, shown_id, "cur-"), colours,
                       dom_id="cur-document"))
    table = doc_table(p.result, doc, text, p.decided)
    shown_rows = paginate(table, key=K_CUR_PAGE)
    st.caption("Select a row to show that proposal above (and decide it).")
    st.dataframe(shown_rows, hide_index=True, key=K_CUR_TABLE, selection_mode="single-row",
                 on_select=partial(pick_row, doc, list(shown_rows["#"]) if len(shown_rows)
                                   else [], p.disputed, p.decided), placeholder="—")


@st.fragment
@jobs.person_fragment
def agreement(ws: Workspace, r: Rules, p: Proposed) -> None:
    """Each annotator scored against the curated set (its own fragment: recomputed when the
    page opens and when asked, not on every decision)."""
    st.header("Each annotator against the curated set")
    st.caption("Span P/R/F1: Da San Martino et al. (2019), SemEval-2021 variant, with the "
               "curated set as the gold (partial-overlap credit). Character κ: Cohen's κ over "
               "characters × labels. Computed when the page opens and when you press "
               "“Recompute” (not on every decision, to keep decisions instant).")
    curated = curated_set(p.result, p.decided, name=curated_name(ws))
    done = progress(p.result, p.decided)[0]
    # a row, not a narrow column: the button keeps its whole label ("↻ Reco…" at 800 px)
    c1 = c2 = st.container(horizontal=True, vertical_alignment="center")
    c1.button("↻ Recompute", key="cur_agree_refresh",
              help="Score the annotators against the curated set with your latest decisions.")
    c2.caption(f"Computed with {done:,} of your decisions.")
    agree = agreement_table(decisions_digest(p.result, p.decided),
                            tuple(ws.sets[n] for n in r.sets), curated, ws.texts(), r.sets)
    st.dataframe(above_one.mark(agree), hide_index=True, key="cur_agreement",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in agree.columns if c != "annotator"}, placeholder="—")
    above_one.note(agree, key="cur_agreement")


def source_format(ws: Workspace, names: Sequence[str]) -> str | None:
    """The writable span format the annotators ``names`` came in, when their files share one
    (:data:`WRITTEN_AS` maps INCEpTION's XMI to WebAnno TSV), else None: the curated set's
    download is preset to it, so that it goes back into the tool it came from."""
    wanted = set(names)
    found = {WRITTEN_AS.get(rep.format or "", rep.format) for rep in ws.reports
             if rep.ok and any(s.name in wanted or f"{rep.name}:{s.name}" in wanted
                               for s in rep.sets)}
    if len(found) != 1:
        return None
    (fmt,) = found
    return fmt if fmt in SPAN_FORMATS else None


@st.cache_data(max_entries=8, show_spinner="Writing the curated set…")
def _curated_files(cur_digest: str, fmt: str, _texts: dict[str, str | None],
                   _aset: AnnotationSet) -> tuple[bytes, str, str]:
    del cur_digest  # cache key
    return download_files(fmt, _texts, _aset)


@st.fragment
@jobs.person_fragment
def downloads(ws: Workspace, p: Proposed) -> None:
    """The decisions file, the curated set in a chosen format, and a link to score against it.
    The decisions file is written when clicked, from the store; the curated set when its
    format is chosen or “Prepare” is pressed (writing 2,000 documents takes a moment)."""
    st.header("Download")
    d1, d2, d3 = st.columns([2, 2, 2], vertical_alignment="bottom")
    d1.download_button("⬇️ Decisions (CSV)", partial(_fresh_decisions, ws, p),
                       file_name="decisions.csv", mime="text/csv", key="cur_dl_decisions",
                       on_click="ignore",
                       help="Every proposal with the rule's and your decision (the action "
                       "column says which button made it); upload it above to resume, or "
                       "open it in a spreadsheet. The store keeps your decisions anyway.")
    came = source_format(ws, p.result.annotators)
    fmt = d2.selectbox("Format of the curated set", SPAN_FORMATS, key=K_CUR_FORMAT,
                       index=SPAN_FORMATS.index(came) if came else 0,
                       help="Preset to the annotators' own format"
                       + (f" ({came})" if came else " when they share one that SpanScope "
                          "writes") + ", so that the curated set goes back where it came from.")
    name = curated_name(ws)
    try:  # a format that cannot hold the proposal (overlaps in a token format, say) is said
        _curated_files(decisions_digest(p.result, {}), fmt, ws.texts(), p.result.set)
    except SpanScopeError as exc:
        d3.caption(f"Cannot write {fmt}: {md(exc)}")
    else:
        d3.download_button(f"⬇️ Curated set ({fmt})",
                           partial(_fresh_curated, ws, p, fmt, name),
                           file_name=_curated_name_of(fmt, ws.texts(), p.result, name),
                           key="cur_dl_set", on_click="ignore",
                           help="The curated set with every decision made "
                           "until you click (written when clicked).")
    st.page_link("pages/scores.py", icon="📊",
                 label=f"Score the systems against “{md(name)}” on the Scores page",
                 query_params={state.K_SET_A: name})  # the curated set as the reference


def _stored(ws: Workspace, p: Proposed) -> dict[str, Override]:
    """The decisions the store holds now (the session's when the store is not used); reads no
    session state, so that a download's callable can call it."""
    proj = _project_key(ws.key, ws)
    try:
        if not store_path().exists():  # nothing decided yet: no store is made
            return dict(p.decided)
        conn = cstore.open_store(store_path())
    except SpanScopeError:
        return dict(p.decided)
    with closing(conn):
        return {k: v.override for k, v in cstore.load(conn, proj).items()}


def _fresh_decisions(ws: Workspace, p: Proposed) -> str:
    """The decisions file as the store holds it when the button is clicked."""
    return decisions_file(p.result, _stored(ws, p))


def _curated_name_of(fmt: str, texts: dict[str, str | None], result: Consensus,
                     name: str) -> str:
    """The download's file name (one file, or a zip of several: the same for any decisions)."""
    aset = result.set
    return _curated_files(decisions_digest(result, {}), fmt, texts, aset)[1].replace(
        aset.name, name)


def _fresh_curated(ws: Workspace, p: Proposed, fmt: str, name: str) -> bytes:
    """The curated set in ``fmt`` with the decisions the store holds when clicked."""
    decided = _stored(ws, p)
    curated = curated_set(p.result, decided, name=name)
    try:
        return _curated_files(decisions_digest(p.result, decided), fmt, ws.texts(), curated)[0]
    except SpanScopeError as exc:  # a decision since the page was drawn made it unwritable
        return f"Cannot write {fmt}: {exc}\n".encode()
