"""The columnar error categorisation equals the per-document loop it replaced (issue 15, target
2), kept here as the reference: same rows, same counts, same JSON."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis import errors
from core.analysis.errors import (
    SpanCategory,
    _categorise_document,
    _units,
    categorise,
)
from core.metrics.labels import level_namer
from core.metrics.overlap import SpanArrays, overlapping_pairs, span_arrays
from core.model import AnnotationSet, Span, SpanTable, SpanView
from core.model.taxonomy import for_labels, mafalda

MAFALDA = mafalda().names()[:4]  # ⊥ and three fallacies
PLAIN = ["A", "B", "b", "nothing"]


def reference(gold: AnnotationSet, pred: AnnotationSet, level: int) -> tuple[SpanCategory, ...]:
    tax = for_labels([*gold.labels(), *pred.labels()])
    name = level_namer(tax, level)
    spans: list[SpanCategory] = []
    for doc in gold.doc_ids:
        units = _units(gold, doc, name)
        preds = sorted(Span(s.start, s.end, name(s.label)) for s in pred.get(doc))
        spans.extend(_categorise_document(doc, units, preds))
    return tuple(spans)


def _set(name: str, docs: dict[str, list[tuple[int, int, str]]], lazy: bool,
         role: str) -> AnnotationSet:
    spans = {d: tuple(Span(s, s + n, lab) for s, n, lab in items) for d, items in docs.items()}
    if lazy:
        table = SpanTable.from_spans(spans)
        table = SpanTable.from_columns(table.doc_ids, table.doc, table.start, table.end,
                                       table.label, table.labels)
        return AnnotationSet(name, SpanView(table), role=role)  # type: ignore[arg-type]
    return AnnotationSet(name, spans, role=role)  # type: ignore[arg-type]


@st.composite
def pair(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet, int]:
    labels = draw(st.sampled_from([MAFALDA, PLAIN]))
    span = st.tuples(st.integers(0, 25), st.integers(1, 10), st.sampled_from(labels))
    gold_docs = draw(st.dictionaries(st.sampled_from(["d1", "d2", "d3"]),
                                     st.lists(span, max_size=6), min_size=1))
    pred_docs = draw(st.dictionaries(st.sampled_from(sorted(gold_docs)),
                                     st.lists(span, max_size=6)))
    gold = _set("gold", gold_docs, draw(st.booleans()), "gold")
    pred = _set("sys", pred_docs, draw(st.booleans()), "system")
    level = draw(st.sampled_from([2, 1, 0])) if labels is MAFALDA else 2
    return gold, pred, level


@settings(max_examples=300, deadline=None)
@given(pair())
def test_columnar_categories_equal_the_per_document_reference(case: tuple) -> None:
    gold, pred, level = case
    table = categorise(gold, pred, level=level)
    ref = reference(gold, pred, level)
    assert table.spans == ref
    for side in ("reference", "prediction"):
        for lab in {s.label for s in ref} | {"absent"}:
            want = {c: 0 for c in table.counts(side)}
            for s in ref:
                if s.side == side and s.label == lab:
                    want[s.category] += 1
            assert table.counts(side, label=lab) == want
            assert table.counts(side, label=lab, documents=["d1", "d3"]) == {
                c: sum(1 for s in ref if s.side == side and s.label == lab
                       and s.document in ("d1", "d3") and s.category == c) for c in want}
    assert table.labels() == sorted({s.label for s in ref},
                                    key=lambda x: (x == "nothing", x.lower(), x))
    for cat in ("missed", "correct", "spurious"):
        assert table.documents_with(category=cat) == [
            d for d in gold.doc_ids if any(s.document == d and s.category == cat for s in ref)]
    assert table.duplicates == {side: sum(1 for s in ref if s.side == side and s.duplicate)
                                for side in ("reference", "prediction")}


def _sorted(arrays: SpanArrays) -> SpanArrays:
    """Rows by document, then start, end and label: the order ``_pairs`` is given."""
    order = np.lexsort((arrays.label, arrays.end, arrays.start, arrays.doc))
    return SpanArrays(arrays.doc[order], arrays.start[order], arrays.end[order],
                      arrays.label[order], arrays.names)


@settings(max_examples=200, deadline=None)
@given(pair(), st.sampled_from([1, 3, 10, 40]))
def test_pairs_enumerated_in_runs_of_predictions_are_the_whole_corpus_pairs(
        case: tuple, budget: int) -> None:
    """``_pairs`` enumerates each prediction's window of reference spans (those that can reach
    it), a run of predictions at a time (at most ``PAIR_CANDIDATES`` candidates, a larger
    prediction alone), and ``_pairs_by_documents`` every pair of a run of documents: the
    same pairs in the same order as one ``overlapping_pairs`` over the corpus, so the same
    categories."""
    gold, pred, level = case
    docs = {d: i for i, d in enumerate(gold.doc_ids)}
    names: dict[str, int] = {}
    ga, pa = span_arrays(gold.table, docs, names), span_arrays(pred.table, docs, names)
    ga, pa = _sorted(ga), _sorted(pa)
    whole = overlapping_pairs(pa, ga, len(docs))
    with patch.object(errors, "PAIR_CANDIDATES", budget):
        runs = errors._pairs(pa, ga, len(docs))
        by_documents = errors._pairs_by_documents(pa, ga, len(docs))
        assert categorise(gold, pred, level=level).spans == reference(gold, pred, level)
    for got, again, want in zip(runs, by_documents,
                                (whole.pred, whole.gold, whole.inter, whole.match), strict=True):
        assert got.tolist() == want.tolist()
        assert again.tolist() == want.tolist()


@st.composite
def wide_pair(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    """Many documents, spans from 1 to 400 characters: a document's longest reference span
    sets its predictions' windows, so short and long ones must meet in one document. Both
    sets hold the same documents (either may be the reference), in the same order or not."""
    length = st.one_of(st.integers(1, 8), st.integers(50, 400))
    span = st.tuples(st.integers(0, 600), length, st.sampled_from(PLAIN))
    ids = [f"d{i}" for i in range(12)]
    gold_docs = draw(st.dictionaries(st.sampled_from(ids), st.lists(span, max_size=10),
                                     min_size=1))
    keys = list(gold_docs)[::draw(st.sampled_from([1, -1]))]  # same documents, either order
    pred_docs = {d: draw(st.lists(span, max_size=10)) for d in keys}
    return (_set("gold", gold_docs, draw(st.booleans()), "gold"),
            _set("sys", pred_docs, draw(st.booleans()), "system"))


@settings(max_examples=200, deadline=None)
@given(wide_pair())
def test_windows_of_long_and_short_spans_give_the_reference_categories(case: tuple) -> None:
    gold, pred = case
    assert categorise(gold, pred).spans == reference(gold, pred, 2)
    assert categorise(pred, gold).spans == reference(pred, gold, 2)
