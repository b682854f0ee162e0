"""The MAFALDA explanation adds up to the score it explains, in every variant: the counted
predictions' C(s,t,|s|) average to P and the counted gold rows' C(s,t,|t|) average to R."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics import mafalda
from core.model import AnnotationSet, Span

LABELS = ["ad hominem", "tu quoque", "appeal to fear", "nothing"]
TEXT = "x" * 60


@st.composite
def one_text(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    def spans(labels: list[str], n: int) -> tuple[Span, ...]:
        out = []
        for _ in range(draw(st.integers(0, n))):
            a = draw(st.integers(0, 45))
            out.append(Span(a, a + draw(st.integers(1, 15)), draw(st.sampled_from(labels))))
        return tuple(out)
    gold = AnnotationSet("g", {"d": spans(LABELS, 4)}, alternatives=True)
    pred = AnnotationSet("p", {"d": spans([*LABELS, "unknown"], 4)}, role="system")
    return gold, pred


@settings(deadline=None, max_examples=300)
@given(one_text(), st.sampled_from(mafalda.VARIANTS), st.sampled_from([0, 1, 2]))
def test_explanation_rows_add_up_to_precision_and_recall(
        corpus: tuple[AnnotationSet, AnnotationSet], variant: str, level: int) -> None:
    gold, pred = corpus
    out = mafalda.explain(gold, pred, "d", level=level, variant=variant, texts={"d": TEXT})
    if out.note:  # the gold allows no fallacy: P = R = 1 iff nothing but ⊥ is predicted
        assert out.score.precision == out.score.recall in (0.0, 1.0)
        return
    preds = [r for r in out.predictions if r.counted]
    golds = [r for r in out.gold if r.counted]
    if preds:
        assert sum(r.contribution_p for r in preds) / len(preds) == pytest.approx(
            out.score.precision)
    if golds:
        assert sum(r.contribution_r for r in golds) / len(golds) == pytest.approx(
            out.score.recall)
    assert all(r.contribution_r == 0 or r.counted for r in out.gold)


def test_an_optional_span_left_out_is_not_counted() -> None:
    gold = AnnotationSet("g", {"d": (Span(0, 10, "ad hominem"), Span(0, 10, "nothing"),
                                     Span(20, 30, "tu quoque"))}, alternatives=True)
    pred = AnnotationSet("p", {"d": (Span(20, 30, "tu quoque"), Span(0, 10, "nothing"))},
                         role="system")
    out = mafalda.explain(gold, pred, "d", texts={"d": TEXT})
    by_start = {r.start: r for r in out.gold}
    assert by_start[0].recall_label is None and not by_start[0].counted
    assert [r.counted for r in out.predictions] == [True, False]  # ⊥ prediction
    head = mafalda.explain(gold, pred, "d", texts={"d": TEXT}, variant="repo-head")
    assert all(r.counted for r in head.predictions)  # repo-head keeps ⊥ in |S|
    assert any(r.uncovered for r in head.gold)
