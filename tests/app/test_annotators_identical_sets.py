"""Annotators page: a set compared with a copy of itself (the same file loaded twice, named
``gold`` and ``gold (2)``) says so above the values, where the matrix showed 1.000 between them
in the colour of the best agreement and nothing said why (bugleft24)."""

from __future__ import annotations

import uuid

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
