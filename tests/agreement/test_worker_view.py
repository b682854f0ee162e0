"""What the background worker sends back for a measure's view (``ui.gamma_worker.for_the_page``):
every value the Annotators page shows, without the per-document values behind them."""

from __future__ import annotations

import pytest

from core.metrics.agreement import MEASURES, measure_view
from core.model import AnnotationSet, Span
from ui.annotators import against_table, matrix_table, ranking_table
from ui.gamma_worker import for_the_page


def _sets() -> tuple[list[AnnotationSet], dict[str, str | None], AnnotationSet]:
    texts: dict[str, str | None] = {"d1": "a" * 30, "d2": "b" * 30, "d3": "c" * 30}
    a = AnnotationSet("A", {"d1": (Span(0, 10, "x"), Span(15, 25, "y")),
                            "d2": (Span(0, 8, "x"),), "d3": ()}, role="annotator")
    b = AnnotationSet("B", {"d1": (Span(2, 10, "x"), Span(15, 22, "y")),
                            "d2": (Span(20, 28, "y"),), "d3": (Span(1, 4, "x"),)},
                      role="annotator")
    c = AnnotationSet("C", {"d1": (Span(0, 12, "x"),), "d2": (Span(0, 6, "x"),),
                            "d3": (Span(1, 5, "x"),)}, role="annotator")
    gold = AnnotationSet("gold", {"d1": (Span(0, 10, "x"),), "d2": (Span(0, 7, "x"),),
                                  "d3": (Span(1, 4, "x"),)})
    return [a, b, c], texts, gold


@pytest.mark.parametrize("measure", [m for m in MEASURES if m not in ("gamma", "gamma-cat")])
def test_the_page_shows_the_same_from_the_lean_view(measure: str) -> None:
    sets, texts, gold = _sets()
    view = measure_view(sets, texts, measure=measure, gold=gold)
    lean = for_the_page(view)
    assert lean.ranking == view.ranking and lean.measure == view.measure
    assert lean.pairwise.matrix() == view.pairwise.matrix()
    assert matrix_table(lean.pairwise).equals(matrix_table(view.pairwise))
    assert against_table(lean).equals(against_table(view))
    assert ranking_table(lean.ranking, measure).equals(ranking_table(view.ranking, measure))
    for key, pv in view.pairwise.pairs.items():
        got = lean.pairwise.pairs[key]
        assert (got.overall, got.per_label, got.extra) == (pv.overall, pv.per_label, pv.extra)
        assert got.per_document == {}
    if view.many is not None:
        assert lean.many is not None and lean.many.per_document == {}
        assert (lean.many.overall, lean.many.per_label) == (view.many.overall,
                                                            view.many.per_label)
    assert view.pairwise.pairs[next(iter(view.pairwise.pairs))].per_document  # it had them
