"""The public overlap join (core.metrics.overlap) against a double loop over spans, and the
Definition 6 gold view on columns against its per-span definition."""

from __future__ import annotations

import tracemalloc
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics import overlap
from core.metrics.martino import martino_gold_view, plain_gold_table
from core.metrics.overlap import _used_labels, overlapping_pairs, span_arrays
from core.model import NOTHING, AnnotationSet, Span, SpanTable

LABELS = ["A", "B", NOTHING, "é"]


@st.composite
def span_dicts(draw: st.DrawFn) -> dict[str, tuple[Span, ...]]:
    """``{doc: spans}`` with empty documents, repeated spans and unsorted input order."""
    ids = draw(st.lists(st.sampled_from(["d1", "d2", "d3", "d4"]), unique=True, max_size=4))
    out: dict[str, tuple[Span, ...]] = {}
    for doc in ids:
        items = draw(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 20),
                                        st.sampled_from(LABELS)), max_size=7))
        out[doc] = tuple(Span(s, s + n, lab) for s, n, lab in items)
    return out


def _loop_pairs(gold: dict, pred: dict, docs: list[str], ignore_labels: bool,
                by_label: bool) -> list[tuple]:
    """Every overlapping (pred, gold) pair, by a double loop over the spans of a document."""
    out = []
    for doc in docs:
        for s in pred.get(doc, ()):
            for t in gold.get(doc, ()):
                if by_label and not ignore_labels and s.label != t.label:
                    continue
                inter = s.overlap(t)
                if inter > 0:
                    match = ignore_labels or s.label == t.label
                    out.append((doc, s, t, inter, match, inter / s.length if match else 0.0,
                                inter / t.length if match else 0.0))
    return out


@settings(deadline=None, max_examples=150)
@given(span_dicts(), span_dicts(), st.booleans(), st.booleans())
def test_overlapping_pairs_are_the_double_loops_pairs(gold: dict, pred: dict,
                                                      ignore_labels: bool,
                                                      by_label: bool) -> None:
    docs = sorted(set(gold) | set(pred))
    doc_index = {d: i for i, d in enumerate(docs)}
    labels: dict[str, int] = {}
    ga = span_arrays(SpanTable.from_spans(gold), doc_index, labels)
    pa = span_arrays(SpanTable.from_spans(pred), doc_index, labels)
    pairs = overlapping_pairs(pa, ga, len(docs), ignore_labels=ignore_labels, by_label=by_label)
    p_spans, g_spans = pa.to_spans(), ga.to_spans()
    got = [(docs[int(pa.doc[i])], p_spans[i], g_spans[j], int(x), bool(m), cp, cg)
           for i, j, x, m, cp, cg in zip(pairs.pred.tolist(), pairs.gold.tolist(),
                                         pairs.inter.tolist(), pairs.match.tolist(),
                                         pairs.c_pred.tolist(), pairs.c_gold.tolist(),
                                         strict=True)]
    assert sorted(got, key=repr) == sorted(_loop_pairs(gold, pred, docs, ignore_labels,
                                                        by_label), key=repr)
    assert np.all(np.diff(pairs.pred) >= 0)  # prediction order


def test_span_arrays_leave_out_documents_not_asked_for() -> None:
    table = SpanTable.from_spans({"a": (Span(0, 4, "X"),), "b": (Span(1, 2, "Y"),)})
    labels: dict[str, int] = {}
    arrays = span_arrays(table, {"b": 0}, labels)
    assert arrays.to_spans() == [Span(1, 2, "Y")] and arrays.doc.tolist() == [0]
    assert labels == {"X": 0, "Y": 1} and arrays.names == ["X", "Y"]


@settings(deadline=None, max_examples=150)
@given(span_dicts())
def test_the_plain_gold_table_is_the_per_span_definition(spans: dict) -> None:
    expected = {doc: tuple(sorted({s for s in items if s.label != NOTHING}))
                for doc, items in spans.items()}
    table = plain_gold_table(SpanTable.from_spans(spans))
    assert table.to_dict() == expected and list(table.to_dict()) == list(spans)
    same = SpanTable.from_spans(expected)  # the table a dict of those spans gives
    assert table.labels == same.labels and table.offsets.tolist() == same.offsets.tolist()
    for col in ("doc", "start", "end", "label"):
        assert getattr(table, col).tolist() == getattr(same, col).tolist()
        assert getattr(table, col).dtype == getattr(same, col).dtype
    view = martino_gold_view(AnnotationSet("g", spans, alternatives=True))
    assert not view.alternatives and view.spans == expected


@settings(deadline=None, max_examples=150)
@given(span_dicts(), st.booleans(), st.booleans())
def test_span_arrays_number_documents_and_labels_as_a_lookup_of_each_does(
        spans: dict, own_order: bool, shuffled_labels: bool) -> None:
    # The fast paths (numbers taken in order when the table is in the numbering's order; used
    # labels from counts) give what a lookup per document and a sort of every row give.
    table = SpanTable.from_spans(spans)
    if shuffled_labels and len(table.labels) > 1:  # a label no span uses, listed first
        table = SpanTable.from_columns(table.doc_ids, table.doc, table.start, table.end,
                                       table.label + 1, ("unused", *table.labels), sort=False)
    docs = list(table.doc_ids) if own_order else sorted(table.doc_ids, reverse=True)
    doc_index = {d: i for i, d in enumerate(docs)}
    labels: dict[str, int] = {}
    arrays = span_arrays(table, doc_index, labels)
    assert _used_labels(table) == table.used_labels()
    assert list(labels) == table.used_labels()
    expected = sorted(((doc_index[table.doc_ids[int(d)]], int(s), int(e),
                        table.labels[int(k)]) for d, s, e, k in zip(
        table.doc, table.start, table.end, table.label, strict=True)), key=lambda r: r[0])
    got = [(int(d), int(s), int(e), arrays.names[int(k)]) for d, s, e, k in zip(
        arrays.doc, arrays.start, arrays.end, arrays.label, strict=True)]
    assert got == expected  # stable by document: the table's order within a document


@settings(deadline=None, max_examples=150)
@given(span_dicts(), span_dicts(), st.booleans(), st.booleans())
def test_the_sweep_gives_the_joins_pairs_in_its_order(gold: dict, pred: dict,
                                                      ignore_labels: bool,
                                                      by_label: bool) -> None:
    """Above BLOCK_CANDIDATES the join sweeps (only the reference spans that can reach a
    prediction); forced here on small inputs, it gives the same arrays, in the same order."""
    docs = sorted(set(gold) | set(pred))
    doc_index = {d: i for i, d in enumerate(docs)}
    labels: dict[str, int] = {}
    ga = span_arrays(SpanTable.from_spans(gold), doc_index, labels)
    pa = span_arrays(SpanTable.from_spans(pred), doc_index, labels)
    kwargs = {"ignore_labels": ignore_labels, "by_label": by_label}
    whole = overlapping_pairs(pa, ga, len(docs), **kwargs)
    with patch.object(overlap, "BLOCK_CANDIDATES", -1):
        swept = overlapping_pairs(pa, ga, len(docs), **kwargs)
    for field in ("pred", "gold", "inter", "match", "c_pred", "c_gold"):
        assert getattr(swept, field).tolist() == getattr(whole, field).tolist(), field


def test_one_long_document_is_joined_in_little_memory() -> None:
    """A 1.4M-character text with 15,375 spans per side (a real doccano export) made the join
    allocate every prediction with every reference span: 236M candidates, over 12 GB. The sweep
    enumerates the spans that can reach each prediction only."""
    n = 15_000
    starts = np.arange(n, dtype=np.int64) * 90
    spans = {"d": tuple(Span(int(s), int(s) + 20 + int(s) % 37, "AB"[int(s) % 2])
                        for s in starts)}
    shifted = {"d": tuple(Span(s.start + 5, s.end + 5, s.label) for s in spans["d"])}
    labels: dict[str, int] = {}
    ga = span_arrays(SpanTable.from_spans(spans), {"d": 0}, labels)
    pa = span_arrays(SpanTable.from_spans(shifted), {"d": 0}, labels)
    tracemalloc.start()
    try:
        pairs = overlapping_pairs(pa, ga, 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert pairs.pred.tolist() == list(range(n)) and pairs.gold.tolist() == list(range(n))
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"
