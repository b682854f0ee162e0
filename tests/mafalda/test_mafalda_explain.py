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


@settings(deadline=None, max_examples=300)
@given(one_text(), st.sampled_from(mafalda.VARIANTS), st.sampled_from([0, 1, 2]))
def test_each_row_names_the_prediction_it_takes_not_only_its_interval(
        corpus: tuple[AnnotationSet, AnnotationSet], variant: str, level: int) -> None:
    """A prediction row carries the prediction as its set gives it, and a recall row the index
    of the prediction it takes: on its interval, of the label recall chose (``repo-head``: of
    one of the span's labels), so a prediction of another label on that interval is never the
    one named (review20)."""
    gold, pred = corpus
    out = mafalda.explain(gold, pred, "d", level=level, variant=variant, texts={"d": TEXT})
    assert tuple(r.span for r in out.predictions) == pred.get("d")
    for g in out.gold:
        if g.best_prediction is None:
            assert g.best_index is None
            continue
        assert g.best_index is not None
        best = out.predictions[g.best_index]
        assert (best.start, best.end) == g.best_prediction
        if variant == "repo-head":
            continue
        assert best.label == g.recall_label, (g, best)
        # the first of the predictions of that interval and class: copies give one value
        assert not any((r.start, r.end, r.label) == (best.start, best.end, best.label)
                       for r in out.predictions[:g.best_index])


def test_the_recall_row_takes_the_prediction_of_its_label_on_a_shared_interval() -> None:
    """Two predictions on [0, 10), ad hominem then appeal to anger; the gold is appeal to
    anger: recall takes the second, which the row names as a span (label included)."""
    gold = AnnotationSet("g", {"d": (Span(0, 10, "appeal to anger"),)}, alternatives=True)
    pred = AnnotationSet("p", {"d": (Span(0, 10, "ad hominem"), Span(0, 10, "appeal to anger"))},
                         role="system")
    out = mafalda.explain(gold, pred, "d", texts={"d": TEXT})
    (g,) = out.gold
    assert g.best_index == 1 and out.best_span(g) == Span(0, 10, "appeal to anger")
    recall = [r for r in out.rows() if str(r.values["side"]).startswith("recall")]
    assert [r.pred for r in recall] == [Span(0, 10, "appeal to anger")]
    (note,) = [n for n in out.notes() if n.side == "gold"]
    assert note.partner == Span(0, 10, "appeal to anger")
    assert [r.pred for r in out.rows()[:2]] == list(pred.get("d"))


def test_the_command_lines_json_keeps_its_keys() -> None:
    """The prediction's span and the recall row's index stay out of ``explain``'s JSON, whose
    keys are the command line's contract (docs/mafalda.md)."""
    gold = AnnotationSet("g", {"d": (Span(0, 10, "appeal to anger"),)}, alternatives=True)
    pred = AnnotationSet("p", {"d": (Span(0, 10, "appeal to anger"),)}, role="system")
    out = mafalda.explain(gold, pred, "d", texts={"d": TEXT}).to_dict()
    assert list(out["predictions"][0]) == ["start", "end", "label", "matched_gold",
                                           "matched_label", "contribution_p", "counted"]
    assert list(out["gold"][0]) == ["start", "end", "alternatives", "optional", "recall_label",
                                    "best_prediction", "contribution_r", "counted", "uncovered"]
    assert out["gold"][0]["best_prediction"] == [0, 10]
