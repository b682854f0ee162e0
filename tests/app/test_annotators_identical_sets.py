"""Annotators page: a set compared with a copy of itself (the same file loaded twice, named
``gold`` and ``gold (2)``) says so above the values, where the matrix showed 1.000 between them
in the colour of the best agreement and nothing said why (bugleft24)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import pytest

from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_sets, corpus
from ui import annotators as ann

PAGE = "pages/annotators.py"


def _warnings(at) -> list[str]:
    return [w.value.replace("\\", "") for w in at.warning]


def test_a_gold_loaded_twice_is_named_as_one_set_compared_with_itself() -> None:
    texts, (gold, system_a, _) = corpus()
    at = app_on_sets([gold, AnnotationSet("gold", gold.spans, "gold"), system_a], texts, PAGE,
                     key=f"test:identical:{uuid.uuid4().hex}", role="gold")
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["gold", "gold (2)", "system_a"]
    assert at.selectbox(key=ann.K_ANN_GOLD).value == "gold"
    (said,) = _warnings(at)
    assert said.startswith("**gold** and **gold (2)** give the same spans in every document: "
                           "the same file loaded twice"), said
    assert "all sets together count it 2 times" in said
    assert "Against the gold **gold**, **gold (2)** scores 1: the gold against itself." in said
    # the matrix's 1.000 it explains
    body = next(h.proto.body for h in at.html if "every pair" in h.proto.body)
    assert 'title="gold · gold (2): 1.0000"' in body
    # one copy taken out: nothing compared twice, the gold's copy still scored against it
    at.multiselect(key=ann.K_ANN_SETS).set_value(["gold (2)", "system_a"]).run()
    (said,) = _warnings(at)
    assert "count it" not in said and "**gold (2)** scores 1: the gold against itself" in said
    at.selectbox(key=ann.K_ANN_GOLD).set_value(ann.ANN_NO_GOLD).run()
    assert not _warnings(at)


def test_sets_that_differ_in_one_span_or_its_label_are_not_identical() -> None:
    texts, (gold, _, _) = corpus()
    moved = AnnotationSet("ann_b", {**gold.spans, "doc2": (Span(0, 10, "Fear"),
                                                           Span(12, 44, "fear"))}, "annotator")
    same = AnnotationSet("ann_c", {**gold.spans, "doc3": ()}, "annotator")  # an empty document
    a = AnnotationSet("ann_a", gold.spans, "annotator")
    at = app_on_sets([a, moved, same], texts, PAGE, key=f"test:identical:{uuid.uuid4().hex}")
    assert not at.exception, [e.value for e in at.exception]
    (said,) = _warnings(at)
    assert said.startswith("**ann_a** and **ann_c** give the same spans"), said
    assert "gold" not in said



def test_sets_are_compared_document_by_document_up_to_the_first_difference(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The documents and their counts of spans come from the sets' columns; the spans are read
    document by document and no further than the first difference (hashing every span of both
    sets took 2.4 s a set at 100,000 documents on every first visit of the page; twentieth
    pass)."""
    read: list[str] = []

    def counting(spans: Iterable[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        read.append("doc")
        return sorted(spans)

    monkeypatch.setattr(ann, "sorted", counting, raising=False)
    rest = {f"doc{i}": (Span(i, i + 3, "X"),) for i in range(2, 50)}
    a = AnnotationSet("a", {"doc1": (Span(0, 4, "X"),), **rest}, "annotator")
    b = AnnotationSet("b", {"doc1": (Span(0, 5, "X"),), **rest}, "annotator")
    c = AnnotationSet("c", {"doc1": (Span(0, 4, "Y"),), **rest}, "annotator")
    assert not ann._same_spans(a, b) and not ann._same_spans(a, c)
    assert len(read) == 4  # doc1 of each pair, nothing after it
    read.clear()
    # a document only one set lists, or one more span in a document: no span read at all
    assert not ann._same_spans(a, AnnotationSet("d", {"doc0": (Span(0, 1, "X"),), **rest},
                                                "annotator"))
    assert not ann._same_spans(a, AnnotationSet("e", {"doc1": (Span(0, 4, "X"),) * 2, **rest},
                                                "annotator"))
    assert read == []
    # the same spans in another order, and documents without a span, are the same
    same = AnnotationSet("f", {"doc3": (), "doc1": (Span(2, 3, "X"), Span(0, 4, "X")),
                               "doc2": ()}, "annotator")
    assert ann._same_spans(AnnotationSet("g", {"doc1": (Span(0, 4, "X"), Span(2, 3, "X"))},
                                         "annotator"), same)
