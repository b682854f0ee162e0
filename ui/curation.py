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

import dataclasses
import hashlib
import io
import zipfile
from collections.abc import Sequence
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from core.analysis.consensus import (
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
from ui import doc_picker, state, text_policy
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

CONSENSUS_AUTO_DOCS = 2000
"""Above this many documents the Curation page builds the consensus when asked (a toggle): with
γ matching it takes about 10 s per 10,000 documents on this machine (docs/performance.md)."""
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
SHORTCUTS = {"accept": "A", "reject": "X", "relabel": "L", "bounds": "B", "undo": "U",
             "next": "N", "previous": "P"}


# ---- the curated set in every page's workspace -------------------------------------------------

def curated_name(ws: Workspace) -> str:
    name, n = CURATED, 2
    while name in ws.sets:
        name, n = f"{CURATED} ({n})", n + 1
    return name


def with_curated(ws: Workspace) -> Workspace:
    """``ws`` plus the curated set of this session, if the lead curated one on this data."""
    stored = (st.session_state.get(K_CUR_CURATED) or {}).get(ws.key)
    if stored is None:
        return ws
    digest, aset = stored
    return _joined(f"{ws.key}+curated:{digest}", ws, aset)


@st.cache_resource(max_entries=16, show_spinner=False)
def _joined(key: str, _ws: Workspace, _aset: AnnotationSet) -> Workspace:
    corpus = Corpus(dict(_ws.corpus.texts), {**_ws.sets, _aset.name: _aset})
    return dataclasses.replace(_ws, key=key, corpus=corpus)


def digest(aset: AnnotationSet) -> str:
    h = hashlib.sha256()
    for doc, spans in aset:
        h.update(doc.encode("utf-8") + b"\0")
        for s in spans:
            h.update(f"{s.start},{s.end},{s.label}\0".encode())
        h.update(b"\1")
    return h.hexdigest()[:16]


def publish(ws: Workspace, aset: AnnotationSet) -> None:
    """Make ``aset`` the workspace's curated set for the rest of the session."""
    store = st.session_state.setdefault(K_CUR_CURATED, {})
    store[ws.key] = (digest(aset), aset)


# ---- proposal and decisions --------------------------------------------------------------------

@st.cache_resource(max_entries=32, show_spinner="Building the consensus…")
def proposal(ws_key: str, _ws: Workspace, sets: tuple[str, ...], k: int, match: str,
             boundaries: str) -> Consensus:
    """The consensus of ``sets`` (cached per workspace and rules)."""
    return consensus([_ws.sets[n] for n in sets], _ws.texts(), min_agree=k,
                     match=match, boundaries=boundaries,  # type: ignore[arg-type]
                     name=CURATED)


def overrides(ws_key: str) -> dict[str, Override]:
    """The lead's decisions on this workspace (a live dict in the session state)."""
    store = st.session_state.setdefault(K_CUR_OVERRIDES, {})
    return store.setdefault(ws_key, {})


def progress(result: Consensus, decided: dict[str, Override]) -> tuple[int, int]:
    """(disputed proposals the lead decided, disputed proposals)."""
    disputed = result.disputed()
    return sum(1 for d in disputed if d.key in decided), len(disputed)


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
           text_len: int | None) -> None:
    """A button's callback: record the lead's ``action`` on disputed proposal ``pos``."""
    decided = overrides(ws_key)
    d = disputed[pos]
    _, span, _ = final(d, decided)
    if action == "accept":
        decided[d.key] = Override("keep", span.start, span.end, span.label)
    elif action == "reject":
        decided[d.key] = Override("drop", span.start, span.end, span.label)
    elif action == "undo":
        decided.pop(d.key, None)
        set_inputs(d, decided)
        return
    elif action == "relabel":
        label = str(st.session_state.get(K_CUR_LABEL) or span.label)
        decided[d.key] = Override("keep", span.start, span.end, label)
        return
    elif action == "bounds":
        start = int(st.session_state.get(K_CUR_START, span.start))
        end = int(st.session_state.get(K_CUR_END, span.end))
        if end <= start or (text_len is not None and end > text_len):
            st.session_state[K_CUR_END] = span.end
            st.session_state[K_CUR_START] = span.start
            st.toast(f"Bounds not set: need start < end ≤ {text_len}", icon="⚠️")
            return
        decided[d.key] = Override("keep", start, end, span.label)
        return
    go_to(pos + 1, disputed, decided)  # accept and reject move on to the next one


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
    """The decision in words with an icon (never a colour alone)."""
    verdict, span, by_lead = final(d, decided)
    mark = "✓ keep" if verdict == "keep" else "✗ drop"
    if not by_lead:
        return f"{mark} (rule{', to decide' if d.disputed else ''})"
    changed = []
    if span.label != d.span.label:
        changed.append("relabelled")
    if span.interval != d.span.interval:
        changed.append("re-bounded")
    return f"{mark} (you{': ' + ', '.join(changed) if changed else ''})"


def doc_table(result: Consensus, doc: str, text: str | None,
              decided: dict[str, Override]) -> pd.DataFrame:
    rows = []
    for d in result.decisions:
        if d.doc != doc:
            continue
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


def proposal_items(result: Consensus, doc: str, decided: dict[str, Override] | None
                   ) -> list[highlight.SpanItem]:
    """Kept proposals of ``doc`` (``decided`` None: the rule's; else with the lead's)."""
    out = []
    for d in result.decisions:
        if d.doc != doc:
            continue
        verdict, span, _ = final(d, decided or {}) if decided is not None else (
            d.decision, d.span, False)
        if verdict == "keep":
            out.append(highlight.SpanItem(f"{'✓' if decided is not None else 'P'}"
                                          f"{d.id.rsplit('#', 1)[1]}", span.start, span.end,
                                          (span.label,)))
    return sorted(out, key=lambda it: (it.start, -it.end, it.id))


def current_card(d: Decision, text: str | None, decided: dict[str, Override]) -> str:
    """HTML card of the shown proposal: fragment, who marked what, the rule and the dispute
    (every value escaped)."""
    _, span, _ = final(d, decided)
    frag = esc(span.fragment(text)) if text else "<i>no text</i>"
    members = "".join(
        f"<li><b>{esc(a)}</b>: [{s.start}, {s.end}) {esc(s.label)}"
        + (f" — “{esc(s.fragment(text))}”" if text else "") + "</li>" for a, s in d.members)
    flags = "".join(f"<li><b>{esc(f)}</b>: {esc(FLAGS[f])}</li>" for f in d.flags)
    return (
        '<div id="cur-card" style="border:1px solid #ccc;border-left:6px solid #0072B2;'
        'border-radius:6px;padding:8px 12px;margin:4px 0">'
        f'<div style="font-size:1.05em"><b>{esc(d.id)}</b> · [{span.start}, {span.end}) '
        f'<b>{esc(span.label)}</b> · {esc(status_text(d, decided))}</div>'
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
        kept = sorted({s for x in result.decisions if x.doc == d.doc
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
    return decisions_csv(result, {d.key: decided[d.key] for d in result.decisions
                                  if d.key in decided})


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
    st.caption("Propose a consensus from the annotators' spans by explicit rules, then accept, "
               "reject, relabel or re-bound each disputed span. The result is the set "
               f"**{curated_name(ws)}** on every page (pick it as the gold) and downloads in any "
               "format; your decisions download as a file you can upload later to resume.")
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
    match = c2.selectbox("Match spans by", MATCHES, key=K_CUR_MATCH, bind="query-params",
                         format_func=lambda m: f"{m}: {MATCH_HELP[m]}")
    bounds = c3.selectbox("Boundaries", BOUNDARIES, key=K_CUR_BOUNDS, bind="query-params",
                          format_func=lambda b: f"{b}: {BOUNDS_HELP[b]}",
                          disabled=match in ("exact", "char"),
                          help="Not used by exact and char matching.")
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
        result = proposal(ws.key, ws, r.sets, r.k, r.match, r.bounds)
    except SpanScopeError as exc:
        st.error("These sets cannot be adjudicated: "
                 f"{md(text_policy.for_agreement_pages(str(exc)))}", icon="❌")
        st.page_link("pages/data.py", label="Change the choice on the Data page", icon="📂")
        st.stop()
    notes([*clipped, *result.warnings], key="cur_warnings")
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


def curate(source: Workspace, ws: Workspace, p: Proposed) -> AnnotationSet:
    """The curated set, published to every page's workspace, and the progress tiles."""
    curated = curated_set(p.result, p.decided, name=curated_name(ws))
    publish(source, curated)  # every page's workspace adds it to the source
    done, total = progress(p.result, p.decided)
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Decided", f"{done} / {total}", help="Disputed spans you have decided / all "
              "disputed spans (a span is disputed when not every annotator marked it "
              "identically).")
    m2.metric("Proposed spans", len(p.result.decisions))
    m3.metric("Unanimous", len(p.result.decisions) - total)
    m4.metric("Curated spans", curated.span_count())
    st.progress(done / total if total else 1.0,
                text=f"{done} of {total} disputed spans decided" if total
                else "Nothing disputed: the annotators agree everywhere.")
    return curated


def _step_buttons(ws: Workspace, p: Proposed, pos: int, shown: Decision,
                  text_len: int | None) -> None:
    disputed, decided = p.disputed, p.decided
    args = (ws.key, disputed, pos)
    row = st.container(horizontal=True)  # buttons at their own width, wrapping if narrow
    row.button("◀ Previous", key="cur_prev", shortcut=SHORTCUTS["previous"],
               on_click=go_to, args=(pos - 1, disputed, decided), disabled=pos == 0)
    row.button("Next ▶", key="cur_next", shortcut=SHORTCUTS["next"],
               on_click=go_to, args=(pos + 1, disputed, decided),
               disabled=pos >= len(disputed) - 1)
    row.button("✓ Accept", key="cur_accept", type="primary", shortcut=SHORTCUTS["accept"],
               on_click=decide, args=(*args, "accept", text_len),
               help="Keep this span (as shown) in the curated set, then go to the next.")
    row.button("✗ Reject", key="cur_reject", shortcut=SHORTCUTS["reject"],
               on_click=decide, args=(*args, "reject", text_len),
               help="Leave this span out of the curated set, then go to the next.")
    row.button("↺ Undo", key="cur_undo", shortcut=SHORTCUTS["undo"],
               on_click=decide, args=(*args, "undo", text_len),
               disabled=shown.key not in decided, help="Back to the rule's proposal.")
    todo = next_undecided(disputed, decided, pos)
    row.button("⏭ Next undecided", key="cur_todo", shortcut="Shift+N",
               on_click=go_to, args=(todo if todo is not None else pos, disputed, decided),
               disabled=todo is None, help="Skip to the next disputed span you have not "
               "decided (from the start when none is left after this one).")


def _edit_inputs(ws: Workspace, p: Proposed, pos: int, shown: Decision,
                 text_len: int | None) -> None:
    args = (ws.key, p.disputed, pos)
    labels = state.all_labels(ws.key, ws)
    if st.session_state.get(K_CUR_LABEL) not in labels:
        st.session_state[K_CUR_LABEL] = shown.span.label
    e1, e2, e3, e4, e5 = st.columns([3, 1, 1, 1, 1], vertical_alignment="bottom")
    e1.selectbox("New label", labels, key=K_CUR_LABEL)
    e2.button("🏷️ Relabel", key="cur_relabel", shortcut=SHORTCUTS["relabel"],
              on_click=decide, args=(*args, "relabel", text_len),
              help="Keep this span with the label chosen on the left.")
    e3.number_input("Start", min_value=0, step=1, key=K_CUR_START)
    e4.number_input("End", min_value=1, step=1, key=K_CUR_END)
    e5.button("↔ Set bounds", key="cur_bounds_btn", shortcut=SHORTCUTS["bounds"],
              on_click=decide, args=(*args, "bounds", text_len),
              help="Keep this span with the start and end on the left (end exclusive).")


def disputed_span(ws: Workspace, r: Rules, p: Proposed) -> Decision | None:
    """The disputed span stepped to, with the decision buttons, the edit inputs and what the
    decision does to each annotator; returns it (None when nothing is disputed)."""
    docs = list(p.result.set.spans)
    pos = int(st.session_state.get(K_CUR_POS) or 0)
    pos = max(0, min(pos, len(p.disputed) - 1)) if p.disputed else 0
    shown = p.disputed[pos] if p.disputed else None
    if shown is not None and K_CUR_START not in st.session_state:
        set_inputs(shown, p.decided)
    if st.session_state.get(K_CUR_DOC) not in docs:
        st.session_state[K_CUR_DOC] = shown.doc if shown is not None else docs[0]
    st.subheader("Disputed spans")
    if shown is None:
        total = progress(p.result, p.decided)[1]
        st.success("No disputed span: every proposal is unanimous." if not total else
                   f"No disputed span is of the kind chosen in “Step through” ({p.focus}).",
                   icon="✅")
        return None
    text = ws.corpus.texts.get(shown.doc)
    text_len = len(text) if text is not None else None
    st.caption(f"Disputed span **{pos + 1} of {len(p.disputed)}** ({p.focus}; document "
               f"{md(shown.doc)}). "
               "Keys: **A** accept · **X** reject · **N** next · **P** previous · **Shift+N** "
               "next undecided · **L** relabel · **B** set bounds · **U** undo (while no text "
               "field has the focus).")
    _step_buttons(ws, p, pos, shown, text_len)
    _edit_inputs(ws, p, pos, shown, text_len)
    st.html(current_card(shown, text, p.decided))
    with st.expander(f"What this decision does to each annotator's span F1 on document "
                     f"{md(shown.doc)}"):
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


def document_lanes(ws: Workspace, r: Rules, p: Proposed, shown: Decision | None) -> None:
    """One document: each annotator in a lane, the proposal and the curated set below, and its
    proposals as a table whose row selection steps to a proposal."""
    st.subheader("The document, annotator by annotator")
    doc = doc_picker.pick_document(ws, list(p.result.set.spans), key=K_CUR_DOC)
    text = ws.corpus.texts.get(doc)
    colours = highlight.label_colours(state.all_labels(ws.key, ws))
    members = shown.members if shown is not None and shown.doc == doc else ()
    rule_items = proposal_items(p.result, doc, None)
    cur_items = proposal_items(p.result, doc, p.decided)
    used = {s.label for n in r.sets for s in ws.sets[n].get(doc)} | {
        lab for it in cur_items for lab in it.labels}
    st.html(highlight.legend(colours, used))
    st.caption("Each lane is one set; a tag (A1, P3, ✓3…) marks where a span starts and names "
               "it. The shown disputed span's spans are drawn thicker on a yellow tint. P = the "
               "rule's proposal, ✓ = the curated set (number = row # in the table below).")
    for i, name in enumerate(r.sets):
        items, marked = items_for(ws.sets[name], doc, chr(65 + i % 26), members)
        listed = "" if doc in ws.sets[name].spans else " · does not list this document"
        st.markdown(f"**{md(name)}** · {len(items)} span(s){listed}")
        st.html(highlight.render_lanes(text, items, colours, partners=marked,
                                       dom_id=f"cur-lane-{i}"))
    shown_id = shown.id.rsplit("#", 1)[1] if shown is not None and members else None
    st.markdown(f"**Proposed consensus** (k = {r.k}, {r.match}"
                + (f", {r.bounds} boundaries" if r.match not in ("exact", "char") else "")
                + f") · {len(rule_items)} span(s)")
    st.html(highlight.render_lanes(text, rule_items, colours,
                                   partners=[f"P{shown_id}"] if shown_id else (),
                                   dom_id="cur-proposed"))
    st.markdown(f"**Curated** (the proposal with your decisions) · {len(cur_items)} span(s)")
    st.html(highlight.render_lanes(text, cur_items, colours,
                                   partners=[f"✓{shown_id}"] if shown_id else (),
                                   dom_id="cur-curated"))
    table = doc_table(p.result, doc, text, p.decided)
    shown_rows = paginate(table, key=K_CUR_PAGE)
    st.caption("Select a row to show that proposal above (and decide it).")
    st.dataframe(shown_rows, hide_index=True, key=K_CUR_TABLE, selection_mode="single-row",
                 on_select=partial(pick_row, doc, list(shown_rows["#"]) if len(shown_rows)
                                   else [], p.disputed, p.decided), placeholder="—")


def agreement(ws: Workspace, r: Rules, curated: AnnotationSet) -> None:
    """Each annotator scored against the curated set (recomputed as the lead decides)."""
    st.subheader("Each annotator against the curated set")
    st.caption("Span P/R/F1: Da San Martino et al. (2019), SemEval-2021 variant, with the "
               "curated set as the gold (partial-overlap credit). Character κ: Cohen's κ over "
               "characters × labels. Both recomputed as you decide.")
    agree = agreement_table(digest(curated), tuple(ws.sets[n] for n in r.sets), curated,
                            ws.texts(), r.sets)
    st.dataframe(agree, hide_index=True, key="cur_agreement",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in agree.columns if c != "annotator"}, placeholder="—")


def downloads(ws: Workspace, p: Proposed, curated: AnnotationSet) -> None:
    """The decisions file, the curated set in a chosen format, and a link to score against it."""
    st.subheader("Download")
    d1, d2, d3 = st.columns([2, 2, 2])
    d1.download_button("⬇️ Decisions (CSV)", lambda: decisions_file(p.result, p.decided),
                       file_name="decisions.csv", mime="text/csv", key="cur_dl_decisions",
                       help="Every proposal with the rule's and your decision; upload it above "
                       "to resume.")
    fmt = d2.selectbox("Format of the curated set", SPAN_FORMATS, key=K_CUR_FORMAT)
    try:
        data, fname, mime = download_files(fmt, ws.texts(), curated)
    except SpanScopeError as exc:
        d3.caption(f"Cannot write {fmt}: {md(exc)}")
    else:
        d3.download_button(f"⬇️ Curated set ({fmt})", data, file_name=fname, mime=mime,
                           key="cur_dl_set")
    st.page_link("pages/scores.py", icon="📊",
                 label=f"Score the systems against “{md(curated.name)}” on the Scores page")
