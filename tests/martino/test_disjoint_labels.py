"""Predictions none of whose labels the gold uses score 0 whatever their offsets: scored from
Python without a technique list, the result says why (the command line's technique list refuses
such a label instead); a shared label, or labels ignored, gives no such warning."""

from __future__ import annotations

from core.metrics import martino
from core.model import AnnotationSet, Span

GOLD = AnnotationSet("gold", {"d1": (Span(0, 4, "Doubt"),), "d2": (Span(2, 9, "Slogans"),)})


def _pred(*labels: str) -> AnnotationSet:
    return AnnotationSet("mine", {"d1": (Span(0, 4, labels[0]),),
                                  "d2": tuple(Span(2, 9, x) for x in labels[1:])}, "system")


def test_disjoint_labels_are_named_in_a_warning() -> None:
    for variant in ("semeval2021", "nlp4if2019"):
        r = martino.score(GOLD, _pred("Banana", "Apple"), variant=variant)
        assert r.f1 == 0.0
        assert r.warnings == [
            "mine: no predicted label occurs in gold (mine: 'Apple', 'Banana'; gold: 'Doubt', "
            "'Slogans'); only spans of the same label match, so nothing is matched (check the "
            "label names, or pass labels=[...] to have them checked)"]


def test_a_shared_label_or_labels_ignored_give_no_warning() -> None:
    assert martino.score(GOLD, _pred("Banana", "Slogans")).warnings == []
    assert martino.score(GOLD, _pred("Banana"), variant="semeval2020-si").warnings == []
    assert martino.score(GOLD, _pred("Banana"), variant="nlp4if2019",
                         fragments_only=True).warnings == []
    empty = AnnotationSet("none", {"d1": (), "d2": ()}, "system")
    assert martino.score(GOLD, empty).warnings == []
