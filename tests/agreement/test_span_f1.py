"""Pairwise span F1 through the metric modules (never a second implementation here)."""

from __future__ import annotations

import pytest

from core.metrics.agreement import Study, span_f1
from core.model import AnnotationSet, Span


def _study() -> Study:
    a = AnnotationSet("A", {"d": (Span(0, 40, "Doubt"),), "e": (Span(3, 9, "Slogans"),)},
                      role="annotator")
    b = AnnotationSet("B", {"d": (Span(0, 10, "Doubt"),), "e": ()}, role="annotator")
    c = AnnotationSet("C", {"d": (Span(5, 30, "Doubt"), Span(31, 39, "Slogans"))},
                      role="annotator")
    return Study.from_sets([a, b, c])


def test_span_f1_is_martinos_score_in_both_directions() -> None:
    from core.metrics import martino

    study = _study()
    r = span_f1(study, "martino")
    for (ref, other), pv in r.pairs.items():
        docs = study.common_docs([ref, other])
        want = martino.score(
            AnnotationSet(ref, {d: study.spans[ref][d] for d in docs}),
            AnnotationSet(other, {d: study.spans[other][d] for d in docs}, role="system"))
        assert pv.overall.value == pytest.approx(want.f1)
        assert pv.extra["precision"].value == pytest.approx(want.precision)
        # P with A as reference is R with B as reference (docs/agreement.md)
        assert pv.extra["precision"].value == pytest.approx(
            r.pairs[(other, ref)].extra["recall"].value)
    assert r.matrix("precision")["A"]["B"] == pytest.approx(1.0)  # B's span lies inside A's
    assert r.matrix("recall")["A"]["B"] == pytest.approx(0.5 * 10 / 40)  # d: 10/40, e: 0
    assert set(r.pairs[("A", "C")].per_document) == {"d"}  # C did not annotate e


def test_mafalda_f1_gives_a_value_for_every_ordered_pair() -> None:
    r = span_f1(_study(), "mafalda")
    assert set(r.pairs) == {(a, b) for a in "ABC" for b in "ABC" if a != b}
    assert all(pv.overall.value is None or 0 <= pv.overall.value <= 1
               for pv in r.pairs.values())


def test_mafalda_f1_scores_labels_outside_its_taxonomy_as_one_class_each() -> None:
    # A as gold, B as prediction. Text d: B's [0,10) Doubt lies inside A's [0,40) Doubt, so
    # P = 1 and R = 10/40. Text e: A has a span and B none, so P = R = 0 (§5.2.2). Averaged.
    r = span_f1(_study(), "mafalda")
    ab = r.pairs[("A", "B")]
    assert ab.extra["recall"].value == pytest.approx((10 / 40 + 0) / 2)
    assert ab.extra["precision"].value == pytest.approx((1 + 0) / 2)
