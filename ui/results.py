"""Metric results as the tables the pages show, for any span metric of the registry.

Every number comes from ``core.metrics``: a metric's :class:`~core.metrics.registry.Metric`
entry scores, its result (a :class:`~core.metrics.result.SpanResult`) gives P/R/F1, per-label
and per-document rows and the bootstrap table, and its explanation gives typed rows. Nothing here
names a metric: a newly registered span metric appears on the Scores and Documents pages as it
is.

Caching: results are immutable and can be large, so :func:`pair_result` and
:func:`document_result` use ``st.cache_resource`` keyed by the workspace key (the workspace
itself is passed unhashed as ``_ws``); derived tables use ``st.cache_data``.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import pandas as pd
import streamlit as st
from streamlit.runtime.state import SessionStateProxy

from core.metrics import registry, stats
from core.metrics.additive import DocumentTable
from core.metrics.martino import DISJOINT_LABELS_HINT
from core.metrics.registry import Metric
from core.metrics.result import JSONValue, SpanNote, SpanRef, SpanResult
from core.model import NOTHING, AnnotationSet, Span
from core.model.errors import SpanScopeError
from core.model.taxonomy import Taxonomy
from core.render.highlight import span_items
from ui.escape import md
from ui.state import DEFAULTS, Workspace, variant_key

BOOT_N_LABEL, BOOT_SEED_LABEL = "Bootstrap resamples", "Bootstrap seed"
"""The bootstrap's two inputs, one wording on every page that draws them (Scores, its paper
table, the Errors slices): a bare "Seed" or "Resamples" did not say what it seeded or resampled."""
BOOT_N_HELP = ("How many times the documents are drawn again, with replacement, to estimate each "
               "95% interval: more resamples give steadier bounds and take longer.")
BOOT_SEED_HELP = ("The random seed of the bootstrap's draws: the same files, resamples and seed "
                  "give the same intervals; another seed shows how much they move by chance.")


# ---- the metric choice --------------------------------------------------------------------------


def span_metric_names() -> list[str]:
    """The span metrics of the registry, in registration order (the pages' metric choice).

    Widgets show the names (``martino``, ``mafalda``) because a widget bound to the URL writes
    the value it *shows* into the link."""
    return [m.name for m in registry.span_metrics()]


def metric_help() -> str:
    """One line per span metric: its name and description."""
    return "; ".join(f"{m.name}: {m.description}" for m in registry.span_metrics())


def abbreviation(metric: Metric) -> str:
    """Short column prefix of a metric in the systems table (``DSM``, ``MAFALDA``)."""
    return metric.abbreviation or metric.title


Session = Mapping[str, object] | SessionStateProxy
"""The session state, or a mapping that stands for one (:func:`chosen_variant`)."""


def chosen_variant(metric: Metric, session: Session | None = None) -> str | None:
    """The variant of ``metric`` chosen in this session (its default when none is); ``session``:
    another mapping than the session state (an empty one: a fresh session's, :mod:`ui.ahead`)."""
    if not metric.variants:
        return None
    key = variant_key(metric.name)
    value = (st.session_state if session is None else session).get(key, DEFAULTS.get(key))
    return value if value in metric.variants else metric.default_variant


def describe(metric: Metric, variant: str | None, level: int | None) -> str:
    """``Title (variant, level L)`` for captions."""
    parts = [p for p in (variant, None if level is None else f"level {level}") if p]
    return metric.title + (f" ({', '.join(parts)})" if parts else "")


# ---- results as tables --------------------------------------------------------------------------


@dataclass(frozen=True)
class PairScores:
    """One (reference, compared) pair under one metric, as tables for display.

    ``overall``: P, R, F1 and the metric's :meth:`~core.metrics.result.SpanResult.summary`;
    ``per_label`` and ``per_doc``: DataFrames with columns label/document, P, R, F1, ...;
    ``raw``: the metric's result. ``error``: why the metric refused these inputs (an
    ``InputError`` message), tables then empty. ``per_doc`` is built from ``raw`` when first
    asked for (``doc_table`` None): the Overview of a corpus being opened shows ``overall``
    only, and at 100,000 documents the table costs 0.6 s (docs/performance.md, issue 29).
    """

    overall: Mapping[str, float]
    per_label: pd.DataFrame
    doc_table: pd.DataFrame | None
    raw: SpanResult | None
    error: str | None = None

    @cached_property
    def per_doc(self) -> pd.DataFrame:
        if self.doc_table is not None:
            return self.doc_table
        assert self.raw is not None, "a PairScores without a result has its table"
        return _per_document_table(self.raw)


@dataclass(frozen=True)
class Explained:
    """One document's explanation under one metric: ``pairs`` (one row per explanation row,
    with ``gold``/``pred`` span ids) and ``best`` (span id -> what the metric takes from it)."""

    pairs: pd.DataFrame
    best: Mapping[str, str] = field(default_factory=dict)
    error: str | None = None


MEASURES = {"f1": "F1", "precision": "P", "recall": "R"}
"""Each measure's attribute -> its name as shown: the tables' columns, the Metric differences
page's score options, and the phone cards of its steps (``ui.sidebar.STEPS_CSS``), from here
alone (the three held copies of their own)."""


def column_name(key: str) -> str:
    """Display name of a per-document value: ``label_precision`` -> ``label-only P``."""
    head, _, last = key.rpartition("_")
    if last in MEASURES:
        return f"{head}-only {MEASURES[last]}" if head else MEASURES[last]
    return key.replace("_", " ")


LABEL_COLUMNS = ["label", "P", "R", "F1", "gold spans", "predicted spans"]
POOLED_COLUMNS = {"precision_numerator": "P numerator", "precision_denominator": "predicted spans",
                  "recall_numerator": "R numerator", "recall_denominator": "gold spans"}


def tables(result: SpanResult) -> PairScores:
    """Overall values, per-label and per-document tables of any span metric's result."""
    overall: dict[str, float] = {"P": result.precision, "R": result.recall, "F1": result.f1,
                                 **result.summary()}
    per_label = pd.DataFrame([
        {"label": lab, "P": v.precision, "R": v.recall, "F1": v.f1,
         "gold spans": v.recall_denominator, "predicted spans": v.precision_denominator}
        for lab, v in result.per_label().items()
        if v.recall_denominator or v.precision_denominator], columns=LABEL_COLUMNS)
    return PairScores(overall, per_label, None, result)


def _per_document_table(result: SpanResult) -> pd.DataFrame:
    """One row per document: P, R, F1, the pooled sums (Martino) and the metric's extra values,
    built column by column (a dict per row cost 0.3 s at 100,000 documents, on the Overview of
    a corpus being opened: docs/performance.md, issue 29 target 3). A document without one of
    the extra values has NaN there."""
    rows = result.per_document()
    columns: dict[str, list[object]] = {
        "document": [r.document for r in rows], "P": [r.precision for r in rows],
        "R": [r.recall for r in rows], "F1": [r.f1 for r in rows]}
    if result.pooled:
        for attr, name in POOLED_COLUMNS.items():
            columns[name] = [getattr(r, attr) for r in rows]
    for key in dict.fromkeys(k for r in rows for k in r.extra):
        columns[column_name(key)] = [r.extra.get(key, math.nan) for r in rows]
    if not rows:
        return pd.DataFrame([], columns=list(columns))
    return pd.DataFrame(columns, columns=list(columns))


def _restrict(aset: AnnotationSet, docs: tuple[str, ...] | None) -> AnnotationSet:
    """``aset`` on ``docs`` only (the documents it covers among them); all of it for None.

    Per-document values of the span metrics depend on that document alone, so one document is
    scored without scoring the corpus."""
    if docs is None:
        return aset
    return AnnotationSet(aset.name, {d: aset.spans[d] for d in docs if d in aset.spans},
                         aset.role, aset.alternatives)


def _as_system(aset: AnnotationSet) -> AnnotationSet:
    return AnnotationSet(aset.name, aset.spans, "system", False)


def _options(ws: Workspace, set_a: str, set_b: str, metric: str, variant: str | None,
             level: int | None) -> dict[str, object]:
    """The keyword options of ``metric`` for ``set_b`` against ``set_a``, as the command line
    passes them: the reading options, and what the metric's ``read_order`` hook reads of the
    files' order (:func:`read_order`)."""
    return {"variant": variant, "level": level, "texts": ws.corpus.texts,
            "taxonomy": taxonomy_for(ws, set_a, set_b),
            **read_order(ws, set_a, set_b, metric, variant)[1]}


def read_order(ws: Workspace, set_a: str, set_b: str, metric: str, variant: str | None
               ) -> tuple[list[str], dict[str, object]]:
    """The warnings and the ``score`` options (``gold_order``, ``pred_order``) of ``metric``'s
    ``read_order`` hook for ``set_b`` against ``set_a``, from what the readers recorded of
    their files' order (:attr:`ui.state.Workspace.orders`), as ``python -m core score`` reads
    them (:func:`core.engines.inputs.check_pair`): on a MAFALDA gold whose labels are not sorted
    by start, ``metrics-py`` and ``repo-head`` read them in file order as the official evaluator
    does, with one warning per document where the readings differ (docs/mafalda.md). Nothing,
    and no work, when the metric has no hook or neither set's file recorded an order."""
    entry = registry.get(metric)
    if entry.read_order is None or (set_a not in ws.orders and set_b not in ws.orders):
        return [], {}
    return _read_order(ws.key, ws, set_a, set_b, metric,
                       str(entry.keywords(variant=variant).get("variant")))


def order_warnings(ws: Workspace, ref: str, systems: Sequence[str],
                   variants: Mapping[str, str | None]) -> list[str]:
    """Every span metric's :func:`read_order` warnings for ``systems`` against ``ref`` under
    ``variants``, each once, worded as ``python -m core score`` prints them (a MAFALDA gold's
    documents whose labels are not sorted by start); empty, at no cost, when no file recorded
    an order."""
    if not ws.orders:
        return []
    out: dict[str, None] = {}
    for m in registry.span_metrics():
        for system in systems:
            out.update(dict.fromkeys(read_order(ws, ref, system, m.name,
                                                variants.get(m.name))[0]))
    return list(out)


@st.cache_resource(max_entries=64, show_spinner=False)
def _read_order(ws_key: str, _ws: Workspace, set_a: str, set_b: str, metric: str,
                variant: str) -> tuple[list[str], dict[str, object]]:
    """:func:`read_order` with the variant resolved, once per workspace, pair and variant (its
    warnings walk every document). The hooks registered return the predictions unchanged;
    the dashboard scores its sets as they are and takes the warnings and options."""
    entry = registry.get(metric)
    assert entry.read_order is not None  # read_order checked it
    _pred, warnings, options = entry.read_order(
        variant=variant, gold_records=_ws.orders.get(set_a), pred_records=_ws.orders.get(set_b),
        gold=_ws.sets[set_a], pred=_as_system(_ws.sets[set_b]), texts=_ws.corpus.texts,
        labels=None)
    return [str(w) for w in warnings], options


MERGE_HINT = "pass merge_pred=True (-m) to merge overlapping predictions"
"""What :mod:`core.metrics.martino` tells a caller whose predictions overlap under the nlp4if2019
variant: an option of the Python API (``--merge-pred``, ``-m``, on the command line) that the
dashboard does not offer."""
MERGE_HINT_HERE = ("the command line merges them (python -m core score --variant nlp4if2019 "
                   "--merge-pred, or -m); here, choose the semeval2021 variant, which scores "
                   "overlapping predictions, or remove the overlap from the file")


LABELS_HINT_HERE = ("check the label names in both files; on the command line, python -m core "
                    "score --labels FILE checks them against a label list")
"""What to do here about predicted labels the gold never uses (:data:`DISJOINT_LABELS_HINT`,
a Python API option the dashboard does not offer)."""


def for_dashboard(message: str) -> str:
    """A metric's refusal or warning as a dashboard user can act on it: the merge of overlapping
    predictions and the label list are named for the command line, with what to do here.

    >>> for_dashboard("the official scorer refuses this, " + MERGE_HINT).endswith("the file")
    True
    >>> said = for_dashboard("nothing is matched (" + DISJOINT_LABELS_HINT + ")")
    >>> "labels=[" in said, "python -m core score --labels FILE" in said
    (False, True)
    """
    return message.replace(MERGE_HINT, MERGE_HINT_HERE).replace(DISJOINT_LABELS_HINT,
                                                                LABELS_HINT_HERE)


def score_pair(ws: Workspace, set_a: str, set_b: str, metric: str, variant: str | None,
               level: int | None, docs: tuple[str, ...] | None = None) -> PairScores:
    """Score ``set_b`` against ``set_a`` with the registered ``metric`` (uncached)."""
    entry = registry.get(metric)
    gold = _restrict(ws.sets[set_a], docs)
    pred = _as_system(_restrict(ws.sets[set_b], docs))
    try:
        result = entry.score_sets(gold, pred, **_options(ws, set_a, set_b, metric, variant, level))
    except SpanScopeError as exc:
        return PairScores({}, pd.DataFrame(columns=LABEL_COLUMNS),
                          pd.DataFrame(columns=["document", "F1"]), None,
                          error=for_dashboard(str(exc)))
    return tables(result)


def derive_source(ws_key: str, set_a: str, set_b: str, metric: str, variant: str | None,
                  level: int | None) -> PairScores | None:
    """The pair's computed result (:func:`scored_pair`, not refused) under the first variant
    the metric derives ``variant`` from (:meth:`~core.metrics.registry.Metric.derived_from`,
    the cheaper first); None when there is none yet (:func:`derive_pair` derives from it)."""
    for source_variant in registry.get(metric).derived_from(variant):
        source = scored_pair(ws_key, set_a, set_b, metric, source_variant, level)
        if source is not None and source.raw is not None:
            return source
    return None


def derive_pair(ws_key: str, ws: Workspace, set_a: str, set_b: str, metric: str,
                variant: str | None, level: int | None) -> PairScores | None:
    """:func:`score_pair` of the whole corpus derived from :func:`pair_result` under a variant
    the metric derives ``variant`` from (:meth:`~core.metrics.registry.Metric.derived_from`,
    the cheaper first), when that result is computed already (:func:`scored_pair`); None
    otherwise (then the pair is scored). The same numbers for less work: a first switch of
    MAFALDA's variant from paper to metrics-py on Scores scores 7,498 of 100,000 texts again
    instead of all of them (docs/performance.md, issue 29, fourteenth pass), to repo-head the
    same 7,498 (from metrics-py: none; fifteenth pass)."""
    entry = registry.get(metric)
    source = derive_source(ws_key, set_a, set_b, metric, variant, level)
    if source is None or source.raw is None:  # none computed, or refused (scored: same words)
        return None
    try:
        result = entry.derive_sets(source.raw, ws.sets[set_a], _as_system(ws.sets[set_b]),
                                   **_options(ws, set_a, set_b, metric, variant, level))
    except SpanScopeError as exc:
        return PairScores({}, pd.DataFrame(columns=LABEL_COLUMNS),
                          pd.DataFrame(columns=["document", "F1"]), None,
                          error=for_dashboard(str(exc)))
    return tables(result)


@st.cache_resource(max_entries=64, show_spinner="Scoring…")
def pair_result(ws_key: str, _ws: Workspace, set_a: str, set_b: str, metric: str,
                variant: str | None, level: int | None) -> PairScores:
    """Score ``set_b`` against ``set_a`` with ``metric``, cached per workspace: derived from
    another variant's result when the metric can and that result is here (:func:`derive_pair`),
    else scored."""
    result = derive_pair(ws_key, _ws, set_a, set_b, metric, variant, level)
    if result is None:
        result = score_pair(_ws, set_a, set_b, metric, variant, level)
    with _scored_lock:
        _scored[(ws_key, set_a, set_b, metric, variant, level)] = result
    return result


_scored: weakref.WeakValueDictionary[tuple[object, ...], PairScores] = (
    weakref.WeakValueDictionary())
""":func:`pair_result`'s results by its arguments, as long as its cache keeps them."""
_scored_lock = threading.Lock()


def scored_pair(ws_key: str, set_a: str, set_b: str, metric: str, variant: str | None,
                level: int | None) -> PairScores | None:
    """:func:`pair_result` for these arguments if it is computed already, else None, at once:
    never computes, never waits (the Metric differences page takes MAFALDA's result from here
    when the pair's scores computed ahead have it, :mod:`ui.differences`)."""
    with _scored_lock:
        return _scored.get((ws_key, set_a, set_b, metric, variant, level))


_coming: dict[tuple[object, ...], int] = {}
""":func:`pair_result`'s arguments that a thread of :func:`score_ahead` is still to compute (or
computing), each counted once per thread that will."""


def coming_pair(ws_key: str, set_a: str, set_b: str, metric: str, variant: str | None,
                level: int | None) -> bool:
    """Whether a thread of :func:`score_ahead` is still to compute :func:`pair_result` for these
    arguments (or is computing it): a page that needs it may then wait for :func:`scored_pair`
    to have it rather than compute it again elsewhere (the Metric differences page, which would
    otherwise ask the worker for MAFALDA's result a second time, :mod:`ui.differences`). At
    once, as :func:`scored_pair`; false again once the thread is past it, computed or not."""
    with _scored_lock:
        return (ws_key, set_a, set_b, metric, variant, level) in _coming


def _expect(keys: Iterable[tuple[object, ...]], more: int) -> None:
    """Count ``keys`` as coming (``more`` 1) or no longer (-1) in :data:`_coming`."""
    with _scored_lock:
        for key in keys:
            n = _coming.get(key, 0) + more
            if n > 0:
                _coming[key] = n
            else:
                _coming.pop(key, None)


@st.cache_resource(max_entries=256, show_spinner=False)
def document_result(ws_key: str, _ws: Workspace, set_a: str, set_b: str, doc: str, metric: str,
                    variant: str | None, level: int | None) -> PairScores:
    """``set_b`` against ``set_a`` on one document only (see :func:`_restrict`)."""
    return score_pair(_ws, set_a, set_b, metric, variant, level, (doc,))


def listed_f1(ws_key: str, ws: Workspace, set_a: str, set_b: str, docs: tuple[str, ...],
              metric: str, variant: str | None, level: int | None) -> dict[str, float]:
    """F1 of each of ``docs`` (the Documents page's list, at most a few hundred) under ``metric``,
    from scoring those documents alone (:func:`_restrict`, as :func:`document_result` scores the
    document shown): the list of a 100,000-document corpus no longer waits for the whole corpus
    to be scored and tabulated (1 s of a first load opened on Documents; docs/performance.md,
    issue 29). Per-document values depend on their document alone
    (``tests/app/test_document_result.py``). When the sets cover different documents, or the
    metric refuses the listed documents, they are the corpus run's rows (:func:`per_doc_f1`)."""
    ids_a, ids_b = ws.sets[set_a].doc_ids, ws.sets[set_b].doc_ids
    # the same ids in the same order (two files of one corpus) compare as lists, 20 times
    # faster than as sets of 100,000 ids
    if ids_a != ids_b and set(ids_a) != set(ids_b):
        return per_doc_f1(ws_key, ws, set_a, set_b, metric, variant, level)
    alone = score_pair(ws, set_a, set_b, metric, variant, level, docs)
    if not alone.error:
        return _f1_of(alone)
    corpus = per_doc_f1(ws_key, ws, set_a, set_b, metric, variant, level)
    if corpus:
        return corpus
    # The metric refuses the corpus (the nlp4if2019 variant a document with overlapping
    # predictions): each listed document scored alone, as its own scores tab scores it, so only
    # the refused documents go without an F1 (missing_f1 says why).
    out: dict[str, float] = {}
    for d in docs:
        out.update(_f1_of(document_result(ws_key, ws, set_a, set_b, d, metric, variant, level)))
    return out


def missing_f1(ws_key: str, ws: Workspace, set_a: str, set_b: str, docs: Sequence[str],
               scores: Mapping[str, float | None], metric: str, variant: str | None,
               level: int | None) -> str | None:
    """Why some of ``docs`` have no F1 in ``scores`` (:func:`listed_f1`): the metric's refusal of
    the first, scored alone as its scores tab scores it; None when every document has one."""
    missing = [d for d in docs if scores.get(d) is None or pd.isna(scores.get(d))]
    if not missing:
        return None
    entry = registry.get(metric)
    named = describe(entry, variant, level)
    shown = ", ".join(repr(d) for d in missing[:5]) + (
        f" and {len(missing) - 5:,} more" if len(missing) > 5 else "")
    first = document_result(ws_key, ws, set_a, set_b, missing[0], metric, variant, level)
    why = (first.error if first.error else
           pair_result(ws_key, ws, set_a, set_b, metric, variant, level).error)
    return (f"F1 “—”: {named} gives no F1 for {len(missing):,} listed document(s) ({shown})"
            + (f": {why}" if why else "."))


def _f1_of(scores: PairScores) -> dict[str, float]:
    """Document id -> F1 of one :class:`PairScores`."""
    df = scores.per_doc
    return dict(zip(df["document"], df["F1"], strict=True))


def per_doc_f1(ws_key: str, ws: Workspace, set_a: str, set_b: str, metric: str,
               variant: str | None, level: int | None) -> dict[str, float]:
    """Per-document F1 of ``set_b`` against ``set_a`` under ``metric`` ({} if unavailable)."""
    return _f1_of(pair_result(ws_key, ws, set_a, set_b, metric, variant, level))


@st.cache_resource(max_entries=32, show_spinner="Sorting…")
def sorted_per_doc(ws_key: str, _ws: Workspace, ref: str, system: str, metric: str,
                   variant: str | None, level: int | None, order: str, ascending: bool
                   ) -> pd.DataFrame:
    """:func:`pair_result`'s per-document table sorted by ``order`` (ties by document id, numbers
    as numbers), cached: the natural-order key of 100,000 ids costs a second on every rerun.
    Shared, so callers must not modify it."""
    per_doc = pair_result(ws_key, _ws, ref, system, metric, variant, level).per_doc
    return per_doc.sort_values([order, "document"] if order != "document" else "document",
                               ascending=ascending, kind="stable", key=document_sort_key)


def document_sort_key(column: pd.Series) -> pd.Series:
    """``key`` for ``DataFrame.sort_values``: the ``document`` column sorts numbers as numbers
    (1, 16, 113 rather than 1, 113, 16); other columns sort as they are."""
    if column.name != "document":
        return column
    import re

    return column.map(lambda d: tuple((0, int(p)) if p.isdigit() else (1, p)
                                      for p in re.split(r"(\d+)", str(d)) if p))


def overall_caption(result: PairScores) -> str:
    """One line with the overall scores and the sums they come from."""
    o = result.overall
    parts = [f"P {o['P']:.3f} · R {o['R']:.3f} · F1 {o['F1']:.3f}"]
    if "P numerator" in o:
        parts.append(f"P = {o['P numerator']:,.3f} / {o['predicted spans']:,.0f} predicted "
                     f"spans, R = {o['R numerator']:,.3f} / {o['gold spans']:,.0f} gold spans")
    return " — ".join(parts)


# ---- explanations -------------------------------------------------------------------------------


class _SpanIds:
    """Span -> ids as the Documents page numbers them (:func:`core.render.highlight.span_items`):
    a span its set gives more than once has one id per copy (``P1``, ``P2``...), in text order."""

    def __init__(self, aset: AnnotationSet, doc: str, prefix: str) -> None:
        self.exact: dict[tuple[int, int, str], list[str]] = {}
        self.interval: dict[tuple[int, int], list[str]] = {}
        self.labels: dict[str, tuple[str, ...]] = {}
        for item in span_items(aset, doc, prefix):
            self.interval.setdefault(item.interval, []).append(item.id)
            self.labels[item.id] = item.labels
            for label in item.labels:
                self.exact.setdefault((item.start, item.end, label), []).append(item.id)

    def copies(self, names: Sequence[str]) -> bool:
        """Whether ``names`` (:meth:`all` of one span) are copies of one span: more than one,
        all with the same labels. An interval (MAFALDA's name for a span) also holds the spans
        of other labels on it, which are spans of their own (review20)."""
        return len(names) > 1 and len({self.labels.get(n) for n in names}) == 1

    def all(self, ref: SpanRef | None) -> list[str]:
        """Every id of ``ref`` (one per copy), or the one name of a span the page has no id
        for; [""] for no span."""
        if ref is None:
            return [""]
        if isinstance(ref, Span):
            # A span the metric merged (nlp4if2019 unions overlapping same-label gold) has no id.
            return self.exact.get((ref.start, ref.end, ref.label),
                                  [f"merged [{ref.start}, {ref.end})"])
        return self.interval.get(ref, [f"[{ref[0]}, {ref[1]})"])

    def __call__(self, ref: SpanRef | None) -> str:
        return self.all(ref)[0]


def _copy_ids(refs: Sequence[tuple[SpanRef | None, object]], ids: _SpanIds) -> list[str]:
    """The id of each row's span, from ``(span, partner)`` per row: a span given more than once
    has its rows shared among its copies, each copy taking at most one row per partner (the
    rows of the same pair repeat once per copy), then the copy with the fewest rows (a copy
    matched one-to-one and its unmatched twin). The copies were all named after the first, so
    the second had no id of its own (review19)."""
    out: list[str] = []
    taken: dict[object, list[set[object]]] = {}
    for ref, partner in refs:
        names = ids.all(ref)
        if len(names) == 1:
            out.append(names[0])
            continue
        partners = taken.setdefault(ref, [set() for _ in names])
        free = [k for k in range(len(names)) if partner not in partners[k]] or range(len(names))
        k = min(free, key=lambda i: (len(partners[i]), i))
        partners[k].add((partner, len(partners[k])) if partner in partners[k] else partner)
        out.append(names[k])
    return out


def explain_document(ws_key: str, ws: Workspace, set_a: str, set_b: str, doc: str, metric: str,
                     variant: str | None, level: int | None) -> Explained:
    """The metric's explanation rows for one document, with span ids (one per copy of a span
    its set gives more than once)."""
    entry = registry.get(metric)
    gold = _restrict(ws.sets[set_a], (doc,))
    pred = _as_system(_restrict(ws.sets[set_b], (doc,)))
    try:
        explanation = entry.explain_document(gold, pred, doc,
                                             **_options(ws, set_a, set_b, metric, variant, level))
    except SpanScopeError as exc:
        return Explained(pd.DataFrame(columns=["gold", "pred"]), {}, error=str(exc))
    if explanation is None:
        return Explained(pd.DataFrame(columns=["gold", "pred"]), {},
                         error=f"{entry.title} has no per-span explanation")
    gid, pid = _SpanIds(ws.sets[set_a], doc, "G"), _SpanIds(ws.sets[set_b], doc, "P")
    rows = explanation.rows()
    # the gold copies first, told apart by their partner span; then the predicted copies, by
    # their partner's copy
    gold_ids = _copy_ids([(r.gold, r.pred) for r in rows], gid)
    pred_ids = _copy_ids([(r.pred, g) for r, g in zip(rows, gold_ids, strict=True)], pid)
    columns = ["gold", "pred", *dict.fromkeys(k for r in rows for k in r.values)]
    table = pd.DataFrame([{"gold": g, "pred": p, **r.values}
                          for r, g, p in zip(rows, gold_ids, pred_ids, strict=True)],
                         columns=columns)
    return Explained(table, _notes_by_id(explanation.notes(), gid, pid))


def _notes_by_id(notes: Sequence[SpanNote], gid: _SpanIds, pid: _SpanIds) -> dict[str, str]:
    """Each span id's note. A span given more than once: every copy has the note, which says
    so. An interval that holds gold spans of several labels (MAFALDA's one span with
    alternatives): its one note goes to each of their ids. A prediction is named by its span,
    label included (MAFALDA's too), so predictions of several labels on one interval each take
    their own note. Named by their interval, they were all called copies of one span and given
    the last note (review20), then given the notes in the file's order, which need not be the
    page's."""
    best: dict[str, str] = {}
    for note in notes:
        own, other = (gid, pid) if note.side == "gold" else (pid, gid)
        text = note.render(other(note.partner) or "(none)")
        names = own.all(note.span)
        if own.copies(names):
            text += f" Its copies: {', '.join(names)}, each with rows of its own."
        for name in names:
            best.setdefault(name, text)
    return best


def rows_for_span(explained: Explained, span_id: str) -> pd.DataFrame:
    """The explanation rows in which span ``span_id`` (``G…`` or ``P…``) takes part."""
    df = explained.pairs
    column = "gold" if span_id.startswith("G") else "pred"
    return df[df[column] == span_id]


def partners_of(explained: Explained, span_id: str) -> tuple[str, ...]:
    """Ids of the spans that form a pair with ``span_id`` in the explanation (any overlap)."""
    if explained.error or not len(explained.pairs):
        return ()
    rows = rows_for_span(explained, span_id)
    other = "pred" if span_id.startswith("G") else "gold"
    return tuple(x for x in rows[other] if x)


def best_match_for_span(explained: Explained, span_id: str) -> str | None:
    return explained.best.get(span_id)


# ---- taxonomy -----------------------------------------------------------------------------------


def taxonomy_for(ws: Workspace, *set_names: str) -> Taxonomy:
    """The label taxonomy of these sets: MAFALDA's when it knows every label, else one class
    per label (:func:`core.model.taxonomy.resolve`, the rule of ``score --metric mafalda``); cached
    per workspace and sets."""
    return _taxonomy(ws.key, ws, tuple(set_names))


@st.cache_resource(max_entries=64, show_spinner=False)
def _taxonomy(ws_key: str, _ws: Workspace, set_names: tuple[str, ...]) -> Taxonomy:
    from core.model.taxonomy import resolve

    return resolve(lab for name in set_names for lab in _ws.sets[name].labels())


def taxonomy_note(ws: Workspace, ref: str, systems: Sequence[str]) -> str:
    """Which taxonomy the MAFALDA metric used against ``ref``
    (:func:`core.model.taxonomy.describe`),
    as ``score --metric mafalda`` says it in its ``taxonomy`` key; one line for all systems."""
    from core.model.taxonomy import describe, outside

    by_tax: dict[str, list[str]] = {}
    strays: set[str] = set()
    for system in systems:
        tax = taxonomy_for(ws, ref, system)
        by_tax.setdefault(describe(tax), []).append(system)
        strays.update(outside(tax, [*ws.sets[ref].labels(), *ws.sets[system].labels()]))
    if len(by_tax) == 1:
        note = f"Taxonomy (MAFALDA metric, levels): {md(next(iter(by_tax)))}."
    else:
        note = "Taxonomy (MAFALDA metric, levels): " + "; ".join(
            f"{md(', '.join(names))}: {md(text)}" for text, names in by_tax.items()) + "."
    if strays:
        note += (" Labels outside MAFALDA's taxonomy (" + md(", ".join(sorted(strays))) +
                 ") make it one class per label.")
    return note


def level_label_map(ws: Workspace, set_a: str, set_b: str, level: int) -> dict[str, str]:
    """Each label of the two sets -> its class at taxonomy ``level`` (``nothing`` for "no
    fallacy"); empty at level 2, where labels are compared as they are."""
    if level == 2:
        return {}
    tax = taxonomy_for(ws, set_a, set_b)
    out = {}
    for lab in {*ws.sets[set_a].labels(), *ws.sets[set_b].labels()}:
        code = tax.project(0 if lab == NOTHING else tax.code(lab), level)
        out[lab] = NOTHING if code == 0 else tax.label_name(code, level)
    return out


# ---- every metric, every system -----------------------------------------------------------------


def document_scores(ws_key: str, ws: Workspace, set_a: str, set_b: str, doc: str, *,
                    variants: Mapping[str, str | None], level: int) -> pd.DataFrame:
    """One row per span metric: the document's P, R and F1 under it (or why it has none).

    ``variants``: metric name -> variant (a metric missing from it takes its default)."""
    rows: list[dict[str, JSONValue]] = []
    for m in registry.span_metrics():
        var = variants.get(m.name, m.default_variant)
        lev = level if m.levels else None
        label = describe(m, var, lev)
        result = document_result(ws_key, ws, set_a, set_b, doc, m.name, var, lev)
        if result.error:
            rows.append({"metric": label, "note": result.error})
        for rec in result.per_doc.to_dict("records"):
            rows.append({"metric": label, **{k: rec[k] for k in ("P", "R", "F1") if k in rec}})
    return pd.DataFrame(rows, columns=["metric", "P", "R", "F1", *(
        ["note"] if any("note" in r for r in rows) else [])])


@dataclass(frozen=True)
class Overview:
    """The Scores page's table of every system: ``table`` (one row per system) and
    ``f1_columns`` (chart name -> F1 column)."""

    table: pd.DataFrame
    f1_columns: Mapping[str, str]


@st.cache_data(max_entries=32, show_spinner="Scoring every set…")
def systems_overview(ws_key: str, _ws: Workspace, ref: str, systems: tuple[str, ...],
                     variants: tuple[tuple[str, str | None], ...], level: int, n_boot: int,
                     seed: int) -> Overview:
    """Every system against ``ref``: P/R/F1 under every span metric and the text-level scores,
    with the F1's 95% bootstrap interval over documents when ``n_boot`` > 0.

    ``variants``: (metric name, variant) pairs (hashable for the cache). The text-level scores
    are micro P/R/F1 and EMR of each text's label set (``core.metrics.text_labels``), or, for a
    gold with alternatives, the label-only P/R/F1 a span metric reports for it."""
    chosen = dict(variants)
    rows: list[dict[str, JSONValue]] = [{"system": s, "role": _ws.sets[s].role} for s in systems]
    f1_columns: dict[str, str] = {}
    # A gold with alternatives: the text-level columns are the label-only P/R/F1 of the span
    # metric that reads alternatives (its summary), not a second metric.
    label_only: dict[str, Mapping[str, JSONValue]] = {}
    # A plugin's metric first (a stable sort keeps the registration order within each kind):
    # whoever installed it looks for it, and it was right of every built-in's five columns.
    for m in sorted(registry.span_metrics(), key=registry.builtin):
        var, lev = chosen.get(m.name, m.default_variant), (level if m.levels else None)
        short = abbreviation(m)
        f1_columns[f"{m.title} F1"] = f"{short} F1"
        for row in rows:
            system = str(row["system"])
            result = pair_result(ws_key, _ws, ref, system, m.name, var, lev)
            if m.gold_alternatives and system not in label_only:
                label_only[system] = {"error": result.error} if result.error else {
                    k: result.overall[f"label-only {k}"] for k in ("P", "R", "F1")
                    if f"label-only {k}" in result.overall}
            if result.error:
                row[f"{short} error"] = result.error
                continue
            for k in ("P", "R", "F1"):
                row[f"{short} {k}"] = result.overall.get(k)
            if n_boot > 0:
                ci = bootstrap_ci(ws_key, _ws, ref, system, m.name, var, lev, n_boot, seed)
                if ci is not None:
                    row[f"{short} F1 low"], row[f"{short} F1 high"] = ci
    f1_columns["text-level F1"] = "text F1"
    for row in rows:
        system = str(row["system"])
        scores: Mapping[str, JSONValue]
        if _ws.sets[ref].alternatives:
            scores = label_only.get(system) or {"error": "no span metric reads alternatives"}
        else:
            scores = text_scores(ws_key, _ws, ref, system)
        if "error" in scores:
            row["text error"] = scores["error"]
        else:
            for k in ("P", "R", "F1", "EMR"):
                if k in scores:
                    row[f"text {k}"] = scores[k]
    return Overview(pd.DataFrame(rows), f1_columns)


@st.cache_data(max_entries=64, show_spinner=False)
def text_scores(ws_key: str, _ws: Workspace, ref: str, system: str) -> dict[str, JSONValue]:
    """Text-level micro P/R/F1 and EMR of ``system`` against ``ref``
    (``core.metrics.text_labels``), or ``{"error": message}`` for inputs it refuses."""
    from core.metrics import text_labels

    gold, pred = _ws.sets[ref], _ws.sets[system]
    try:
        res = text_labels.score(gold, _as_system(pred))
    except SpanScopeError as exc:
        return {"error": str(exc)}
    micro = res.micro()
    return {"P": micro["precision"], "R": micro["recall"], "F1": micro["f1"], "EMR": res.emr}


AHEAD_DOCS = 10_000
"""From this many documents on, :func:`score_ahead` scores the pair in the background (below,
every page scores it in well under a second when it needs it)."""

_AHEAD_THREAD = "spanscope-score-ahead"
_ahead_started: set[tuple[object, ...]] = set()
_ahead_lock = threading.Lock()


class _AheadQuiet(logging.Filter):
    """Drops Streamlit's "missing ScriptRunContext" warning for the thread of
    :func:`score_ahead`: it has no page to draw into, on purpose (the caches' spinners are then
    not drawn)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.threadName != _AHEAD_THREAD


logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    _AheadQuiet())


def score_ahead(ws: Workspace, ref: str, systems: Sequence[str],
                variants: Mapping[str, str | None], level: int, *,
                level_applies: Callable[[], bool] | None = None,
                first: Sequence[str] = (),
                after_first: Callable[[], None] | None = None,
                then: Callable[[], None] | None = None) -> threading.Thread | None:
    """Score ``systems`` against ``ref`` under every span metric, and their text-level scores,
    in a background thread, into the caches the pages read (:func:`pair_result`,
    :func:`text_scores`); returns the thread, or None when there is nothing to do (a corpus
    under :data:`AHEAD_DOCS` documents, or these scores already started once in this process).
    ``level`` is the level chosen for metrics with levels; when ``level_applies`` (called in
    the thread: it reads every label) says the labels have no levels, they are scored at level
    2, as :func:`ui.levels.level_select` does. ``first``: the span metrics scored before the
    others for each system, in this order (those a page takes from here alone: Scores and
    Overview wait for every metric, so the order costs them nothing). ``then`` runs in the
    thread after the scores: work for other pages to hand to the background worker (Scores is
    the page most likely visited next, so its scores come first); an error it raises is the
    page's to meet when it computes the same work, not this thread's. ``after_first`` runs in
    the thread once the first result is computed (or has failed), as ``then`` does: work for
    the background worker that should not start while the browser draws the page just run
    (:func:`ui.ahead.start`; issue 29, twelfth pass).

    Called once a page is drawn (``app.py``), so that the first visit of Scores (or of any page
    that shows these scores) finds them computed instead of paying for the whole corpus: 1 to
    2 s at 100,000 documents (docs/performance.md, issue 29). The page being drawn never waits
    for it: everything but this check and the thread's start runs in the thread. A page that
    asks for a result still being computed waits for that computation (Streamlit's caches
    compute each key once), not for a second one; a page that need not wait may look whether
    a result is there (:func:`scored_pair`) or still to come (:func:`coming_pair`). Results are
    the ones the page would compute: the same functions with the same arguments."""
    if not systems or max((len(s.spans) for s in ws.sets.values()), default=0) < AHEAD_DOCS:
        return None
    key = (ws.key, ref, tuple(systems), tuple(sorted(variants.items())), level)
    with _ahead_lock:
        if key in _ahead_started:
            return None
        _ahead_started.add(key)

    rank = {name: i for i, name in enumerate(first)}
    metrics = sorted(registry.span_metrics(), key=lambda m: rank.get(m.name, len(rank)))

    def chosen(system: str, lev: int) -> list[tuple[str, str, str, str, str | None, int | None]]:
        """:func:`pair_result`'s arguments (but the workspace) for ``system`` at ``lev``."""
        return [(ws.key, ref, system, m.name, variants.get(m.name, m.default_variant),
                 lev if m.levels else None) for m in metrics]

    # Counted as coming before the thread starts, at both levels the thread may choose (it reads
    # the labels to choose), so that the page run after this one finds them counted.
    left = {key for s in systems for lev in {level, 2} for key in chosen(s, lev)}
    _expect(left, 1)

    def work() -> None:
        try:
            if not ws.has_spans:
                return
            lev = level if level_applies is None or level_applies() else 2
            keep = {key for s in systems for key in chosen(s, lev)}
            _expect(left - keep, -1)
            left.intersection_update(keep)
            pending = after_first
            for system in systems:
                for key in chosen(system, lev):
                    try:
                        pair_result(key[0], ws, *key[1:])
                    finally:
                        _expect([key], -1)
                        left.discard(key)
                        call, pending = pending, None
                        if call is not None:
                            with contextlib.suppress(Exception):  # as then's, the page's
                                call()
                if not ws.sets[ref].alternatives:
                    text_scores(ws.key, ws, ref, system)
        finally:
            _expect(left, -1)
        if then is not None:
            with contextlib.suppress(Exception):  # the page that shows it computes it again
                then()

    thread = threading.Thread(target=work, name=_AHEAD_THREAD, daemon=True)
    try:
        thread.start()
    except RuntimeError:  # no thread to be had (the system's limit): the pages compute them
        _expect(left, -1)  # or a page that waits for what is coming waited for ever
        with _ahead_lock:
            _ahead_started.discard(key)
        return None
    return thread


@st.cache_data(max_entries=64, show_spinner="Bootstrapping…")
def bootstrap_ci(ws_key: str, _ws: Workspace, ref: str, system: str, metric: str,
                 variant: str | None, level: int | None, n_boot: int,
                 seed: int) -> tuple[float, float] | None:
    """95% bootstrap interval of F1 over documents (``core.metrics.stats``) from the result's own
    :meth:`~core.metrics.result.SpanResult.bootstrap_table`; None when the metric refused the
    inputs or there is no document."""
    raw = pair_result(ws_key, _ws, ref, system, metric, variant, level).raw
    if raw is None:
        return None
    boot = raw.bootstrap_table()
    if not len(boot.documents):
        return None
    iv = stats.bootstrap(boot.table, boot.statistic, n_resamples=n_boot, seed=seed)
    return (iv.low, iv.high)


def document_table(ws: Workspace, ref: str, system: str, metric: str, variant: str | None,
                   level: int | None) -> DocumentTable:
    """``system``'s per-document statistics against ``ref`` under ``metric``: what
    :func:`core.analysis.table.system_row` computes for ``python -m core table`` (the same
    options as the page's paper table), so a paired test on them is ``table --compare``'s."""
    entry = registry.get(metric)
    pred = ws.sets[system]
    keywords = entry.keywords(**_options(ws, ref, system, metric, variant, level))
    totals = entry.statistics(entry.gold_view(ws.sets[ref]),
                              AnnotationSet(pred.name, pred.spans, "system", False),
                              per_document=True, **keywords)
    return entry.document_table(totals)


def _held_table(ws: Workspace, ref: str, system: str, metric: str, raw: SpanResult
                ) -> DocumentTable | None:
    """The per-document statistics the cached score ``raw`` of ``system`` holds
    (:meth:`core.metrics.registry.Metric.result_table`): the rows :func:`document_table`
    computes by scoring again; None when the metric cannot give them."""
    pred = ws.sets[system]
    return registry.get(metric).result_table(
        raw, ws.sets[ref], AnnotationSet(pred.name, pred.spans, "system", False))


PAIRED_COLUMNS = ("measure", "difference", "low", "high", "p randomization (two-sided)",
                  "p bootstrap (two-sided)")
"""The paired comparison's table: one row per measure (P, R, F1) of system 1 minus system 2."""


@st.cache_data(max_entries=64, show_spinner="Comparing…")
def paired_comparison(ws_key: str, _ws: Workspace, ref: str, sys1: str, sys2: str, metric: str,
                      variant: str | None, level: int | None, n_boot: int,
                      seed: int) -> dict[str, JSONValue] | None:
    """``sys1`` against ``sys2`` on P, R and F1: each difference, its 95% paired bootstrap
    interval and the two-sided p-values of approximate randomization and of the paired bootstrap
    over documents (:func:`core.analysis.significance.compare`, the numbers of ``python -m core
    table --compare`` with the same resamples and seed); ``F1 difference``, ``low`` and
    ``high`` repeat F1's. None when the metric refused either system's inputs."""
    from core.analysis.significance import compare

    r1 = pair_result(ws_key, _ws, ref, sys1, metric, variant, level).raw
    r2 = pair_result(ws_key, _ws, ref, sys2, metric, variant, level).raw
    if r1 is None or r2 is None:
        return None
    try:
        t1, t2 = (_held_table(_ws, ref, s, metric, raw) or
                  document_table(_ws, ref, s, metric, variant, level)
                  for s, raw in ((sys1, r1), (sys2, r2)))
    except SpanScopeError as exc:  # the statistics refuse what the score took: say why
        return {"error": str(exc)}
    if sorted(t1.documents) != sorted(t2.documents):
        return {"error": "the two systems were scored on different documents"}
    found = compare(sys1, t1, sys2, t2, n_resamples=n_boot, seed=seed)
    rows: list[JSONValue] = [dict(zip(PAIRED_COLUMNS, (c.measure, c.difference, c.low, c.high,
                                                        c.p_randomization, c.p_bootstrap),
                                      strict=True)) for c in found]
    f1 = next(c for c in found if c.measure == "F1")
    return {"F1 difference": f1.difference, "low": f1.low, "high": f1.high,
            "p randomization": f1.p_randomization, "p bootstrap": f1.p_bootstrap,
            "confidence": 0.95, "resamples": n_boot, "seed": seed, "rows": rows}


__all__ = ["Explained", "Overview", "PairScores", "abbreviation", "best_match_for_span",
           "bootstrap_ci", "chosen_variant", "derive_pair", "describe", "document_result",
           "document_scores", "document_table", "explain_document", "for_dashboard",
           "level_label_map", "listed_f1", "metric_help", "missing_f1", "overall_caption",
           "pair_result", "paired_comparison", "partners_of", "per_doc_f1", "rows_for_span",
           "score_ahead", "scored_pair", "span_metric_names", "systems_overview", "taxonomy_for",
           "text_scores"]
