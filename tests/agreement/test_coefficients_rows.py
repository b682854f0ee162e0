"""The per-document coefficients computed for all documents at once are the same floats as one
document at a time (``fleiss_kappa_rows``, ``krippendorff_alpha_rows``), and the document × label
presence built from the span columns is the per-document label sets."""

from __future__ import annotations

import numpy as np
import pytest

from core.metrics.agreement import Study
from core.metrics.agreement.coefficients import (
    fleiss_kappa,
    fleiss_kappa_rows,
    krippendorff_alpha_from_counts,
    krippendorff_alpha_rows,
)
from core.metrics.agreement.study import doc_label_matrix, doc_label_presence
from core.model import AnnotationSet, Span


def _tables(rng: np.random.Generator, docs: int, labels: int, coders: int,
            missing: bool) -> np.ndarray:
    """``counts[d, l] = (absent, present)`` for ``coders`` coders (some missing per document
    with ``missing``), as the agreement measures build them."""
    out = np.zeros((docs, labels, 2))
    for d in range(docs):
        m = int(rng.integers(0, coders + 1)) if missing else coders
        present = rng.binomial(m, rng.uniform(0, 1, labels))
        out[d, :, 1] = present
        out[d, :, 0] = m - present
    return out


@pytest.mark.parametrize("coders", [2, 3, 4, 5, 7])
@pytest.mark.parametrize("labels", [1, 2, 7, 8, 9, 17, 130])
def test_fleiss_rows_are_the_per_table_floats(coders: int, labels: int) -> None:
    rng = np.random.default_rng(coders * 1000 + labels)
    counts = _tables(rng, 300, labels, coders, missing=False)
    counts[0] = 0
    counts[0, :, 0] = coders  # a label nobody used: κ_j undefined, P_e = 1
    got = fleiss_kappa_rows(counts, ["absent", "present"])
    want = [fleiss_kappa(t, ["absent", "present"]) for t in counts]
    assert got == want
    assert [repr(a) for a in got] == [repr(a) for a in want]  # the same types too


def test_fleiss_rows_send_irregular_tables_to_the_per_table_function() -> None:
    counts = np.array([[[2.0, 0.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])  # one rater
    assert fleiss_kappa_rows(counts, ["a", "b"]) == [fleiss_kappa(t, ["a", "b"])
                                                     for t in counts]
    with pytest.raises(ValueError, match="same number of ratings"):
        fleiss_kappa_rows(np.array([[[2.0, 0.0], [1.0, 0.0]]]), ["a", "b"])


@pytest.mark.parametrize("coders", [2, 3, 4, 5, 6, 9])
@pytest.mark.parametrize("labels", [1, 3, 10, 40])
def test_krippendorff_rows_are_the_per_table_floats(coders: int, labels: int) -> None:
    rng = np.random.default_rng(coders * 100 + labels)
    counts = _tables(rng, 300, labels, coders, missing=True)
    got = krippendorff_alpha_rows(counts, ["absent", "present"])
    want = [krippendorff_alpha_from_counts(t, ["absent", "present"]) for t in counts]
    assert got == want
    assert [repr(a) for a in got] == [repr(a) for a in want]
    assert any(a.value is None for a in got) and any(a.value is not None for a in got)


def test_presence_is_the_label_sets_of_each_document() -> None:
    a = AnnotationSet("A", {"d": (Span(0, 2, "x"), Span(1, 3, "x")), "e": (), "f": (
        Span(0, 1, "y"),)}, role="annotator")
    b = AnnotationSet("B", {"e": (Span(0, 2, "y"), Span(0, 2, "z")), "g": ()},
                      role="annotator")
    for label in (None, "y"):
        s = Study.from_sets([a, b], label=label)
        matrix = doc_label_matrix(s)
        covered, present = doc_label_presence(s)
        for k, who in enumerate(s.annotators):
            for i, doc in enumerate(s.docs):
                labels = matrix[who][doc]
                assert covered[k, i] == (labels is not None)
                assert {lab for j, lab in enumerate(s.labels) if present[k, i, j]} == (
                    labels or set())
        sub = ["g", "d"]
        c2, p2 = doc_label_presence(s, sub)
        rows = [s.docs.index(d) for d in sub]
        assert (c2 == covered[:, rows]).all() and (p2 == present[:, rows]).all()


def test_document_kappas_and_jaccards_are_the_one_document_values() -> None:
    from core.metrics.agreement.measures import (
        _document_jaccards,
        _document_kappas,
        _jaccard,
        _kappa,
    )

    rng = np.random.default_rng(3)
    counts = [tuple(int(x) for x in rng.integers(0, 50, 4)) for _ in range(500)]
    counts += [(0, 0, 0, 0), (0, 0, 0, 9), (5, 0, 0, 0), (0, 3, 0, 0), (2, 0, 0, 2)]
    docs = [f"d{i}" for i in range(len(counts))]
    got = _document_kappas(docs, counts)
    want = [_kappa(c, f"document {d!r}") for d, c in zip(docs, counts, strict=True)]
    assert [repr(a) for a in got] == [repr(a) for a in want]
    assert {a.reason for a in got} > {None}  # the undefined ones are there too
    got = _document_jaccards(docs, counts)
    want = [_jaccard(c, f"document {d!r}") for d, c in zip(docs, counts, strict=True)]
    assert [repr(a) for a in got] == [repr(a) for a in want]


def test_a_span_f1_side_from_the_columns_is_the_set_built_span_by_span() -> None:
    from core.metrics.agreement.measures import _side

    a = AnnotationSet("A", {"d": (Span(0, 2, "z"), Span(1, 3, "x")), "e": (),
                            "f": (Span(0, 1, "y"), Span(2, 4, "z"))}, role="annotator")
    # a table whose label numbering is not the order of first appearance
    t = a.table
    order = [t.labels.index(lab) for lab in ("y", "x", "z")]
    renumber = np.zeros(len(order), dtype=np.int32)
    renumber[order] = np.arange(len(order), dtype=np.int32)
    shuffled = type(t)(t.doc_ids, ("y", "x", "z"), t.doc, t.start, t.end, renumber[t.label],
                       t.offsets)
    b = AnnotationSet("A", shuffled, role="annotator")
    s = Study.from_sets([b, AnnotationSet("B", {"d": ()}, role="annotator")])
    fast = _side(s, "A", ["d", "e", "f"], "gold")
    slow = AnnotationSet("A", {d: s.spans["A"][d] for d in ["d", "e", "f"]}, role="gold")
    assert fast.table.labels == slow.table.labels == ("z", "x", "y")
    for col in ("doc", "start", "end", "label", "offsets"):
        assert getattr(fast.table, col).tolist() == getattr(slow.table, col).tolist()
        assert getattr(fast.table, col).dtype == getattr(slow.table, col).dtype
    assert fast.table.doc_ids == slow.table.doc_ids and fast.role == "gold"
    assert dict(_side(s, "A", ["f", "d"], "gold").spans) == {
        "f": s.spans["A"]["f"], "d": s.spans["A"]["d"]}  # a subset: built from the spans
