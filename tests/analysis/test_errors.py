"""Error categories: hand-worked hard cases and the partition properties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.errors import (
    BOUNDARY,
    BOUNDARY_LABEL,
    CORRECT,
    LABEL,
    MISSED,
    OPTIONAL,
    PREDICTION_CATEGORIES,
    REFERENCE_CATEGORIES,
    SPURIOUS,
    categorise,
)
from core.model import AnnotationSet, Span


def _gold(*spans: Span, alternatives: bool = False, doc: str = "d") -> AnnotationSet:
    return AnnotationSet("gold", {doc: spans}, alternatives=alternatives)


def _pred(*spans: Span, doc: str = "d") -> AnnotationSet:
    return AnnotationSet("sys", {doc: spans}, role="system")


def _cats(table, side: str) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.category) for s in table.spans if s.side == side]


def test_the_four_pair_kinds_on_one_document() -> None:
    gold = _gold(Span(0, 10, "A"), Span(20, 30, "A"), Span(40, 50, "A"), Span(60, 70, "A"))
    pred = _pred(Span(0, 10, "A"), Span(20, 30, "B"), Span(42, 50, "A"), Span(55, 65, "B"))
    t = categorise(gold, pred)
    assert _cats(t, "reference") == [(0, 10, CORRECT), (20, 30, LABEL), (40, 50, BOUNDARY),
                                     (60, 70, BOUNDARY_LABEL)]
    assert _cats(t, "prediction") == [(0, 10, CORRECT), (20, 30, LABEL), (42, 50, BOUNDARY),
                                      (55, 65, BOUNDARY_LABEL)]


def test_missed_and_spurious_and_touching_spans_share_nothing() -> None:
    t = categorise(_gold(Span(0, 10, "A")), _pred(Span(10, 20, "A")))
    assert _cats(t, "reference") == [(0, 10, MISSED)]
    assert _cats(t, "prediction") == [(10, 20, SPURIOUS)]


def test_prediction_overlapping_two_gold_spans_counts_once_and_each_gold_span_once() -> None:
    # One long prediction across two gold spans of its label, and a third gold span of another.
    gold = _gold(Span(0, 10, "A"), Span(12, 20, "A"), Span(15, 25, "B"))
    pred = _pred(Span(0, 22, "A"))
    t = categorise(gold, pred)
    assert _cats(t, "prediction") == [(0, 22, BOUNDARY)]  # best pair: same label, 10 chars
    (p,) = [s for s in t.spans if s.side == "prediction"]
    assert p.partner == (0, 10) and p.overlap == 10
    assert _cats(t, "reference") == [(0, 10, BOUNDARY), (12, 20, BOUNDARY),
                                     (15, 25, BOUNDARY_LABEL)]
    assert sum(t.counts("prediction").values()) == 1


def test_two_predictions_on_one_gold_span_the_exact_one_makes_it_correct() -> None:
    gold = _gold(Span(0, 10, "A"))
    pred = _pred(Span(0, 10, "A"), Span(5, 15, "A"))
    t = categorise(gold, pred)
    assert _cats(t, "reference") == [(0, 10, CORRECT)]
    assert _cats(t, "prediction") == [(0, 10, CORRECT), (5, 15, BOUNDARY)]


def test_same_label_pair_beats_same_boundaries_with_another_label() -> None:
    gold = _gold(Span(0, 10, "B"), Span(2, 12, "A"))
    t = categorise(gold, _pred(Span(0, 10, "A")))
    (p,) = [s for s in t.spans if s.side == "prediction"]
    assert (p.category, p.partner) == (BOUNDARY, (2, 12))


def test_duplicates_are_categorised_alone_and_flagged() -> None:
    gold = _gold(Span(0, 10, "A"), Span(0, 10, "A"))
    pred = _pred(Span(0, 10, "A"), Span(0, 10, "A"), Span(0, 10, "A"))
    t = categorise(gold, pred)
    assert t.counts("reference")[CORRECT] == 2
    assert t.counts("prediction")[CORRECT] == 3
    assert t.duplicates == {"reference": 1, "prediction": 2}
    assert [s.duplicate for s in t.spans if s.side == "prediction"] == [False, True, True]


def test_alternatives_a_label_error_only_when_no_alternative_matches() -> None:
    gold = _gold(Span(0, 10, "ad hominem"), Span(0, 10, "appeal to fear"),
                 Span(20, 30, "ad hominem"), Span(20, 30, "nothing"), alternatives=True)
    hit = categorise(gold, _pred(Span(0, 10, "Appeal to Fear"), Span(20, 30, "strawman")))
    ref = [s for s in hit.spans if s.side == "reference"]
    assert [(s.category, s.label) for s in ref] == [
        (CORRECT, "appeal to fear"), (LABEL, "ad hominem | nothing")]
    assert len(ref) == 2  # four rows read, two reference spans


def test_unpredicted_optional_span_is_not_missed() -> None:
    gold = _gold(Span(0, 10, "ad hominem"), Span(0, 10, "nothing"), Span(20, 30, "strawman"),
                 alternatives=True)
    t = categorise(gold, _pred())
    assert t.counts("reference")[OPTIONAL] == 1 and t.counts("reference")[MISSED] == 1
    # A nothing prediction matches the ⊥ alternative.
    t2 = categorise(gold, _pred(Span(0, 10, "nothing")))
    assert _cats(t2, "reference")[0] == (0, 10, CORRECT)


def test_levels_project_labels_before_categorising() -> None:
    # Ad hominem and tu quoque are both credibility (MAFALDA level 1): a label error at level 2,
    # correct at level 1; appeal to fear is emotion: still a label error at level 1, correct at 0.
    gold = _gold(Span(0, 10, "ad hominem"), Span(20, 30, "ad hominem"), alternatives=True)
    pred = _pred(Span(0, 10, "tu quoque"), Span(20, 30, "appeal to fear"))
    assert _cats(categorise(gold, pred, level=2), "reference") == [(0, 10, LABEL),
                                                                  (20, 30, LABEL)]
    l1 = categorise(gold, pred, level=1)
    assert _cats(l1, "reference") == [(0, 10, CORRECT), (20, 30, LABEL)]
    assert {s.label for s in l1.spans} == {"credibility", "emotion"}
    assert _cats(categorise(gold, pred, level=0), "reference") == [(0, 10, CORRECT),
                                                                  (20, 30, CORRECT)]


def test_unknown_prediction_is_no_fallacy_at_level_0() -> None:
    gold = _gold(Span(0, 10, "ad hominem"), Span(0, 10, "nothing"), alternatives=True)
    t = categorise(gold, _pred(Span(0, 10, "unknown")), level=0)
    assert _cats(t, "prediction") == [(0, 10, CORRECT)]  # ⊥ matches the ⊥ alternative


def test_documents_filter_by_category_and_label() -> None:
    gold = AnnotationSet("gold", {"a": (Span(0, 5, "A"),), "b": (Span(0, 5, "B"),)})
    pred = AnnotationSet("sys", {"a": (Span(0, 5, "A"),), "b": ()}, role="system")
    t = categorise(gold, pred)
    assert t.documents_with(category=MISSED) == ["b"]
    assert t.documents_with(label="A") == ["a"]
    assert t.to_dict()["overall"]["reference"]["total"] == 2


# ---- properties ----------------------------------------------------------------------------

LABELS = ("A", "B", "nothing")


@st.composite
def span(draw: st.DrawFn) -> Span:
    start = draw(st.integers(0, 40))
    return Span(start, start + draw(st.integers(1, 15)), draw(st.sampled_from(LABELS)))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[AnnotationSet, AnnotationSet]:
    docs = [f"d{i}" for i in range(draw(st.integers(1, 3)))]
    gold = {d: tuple(draw(st.lists(span(), max_size=6))) for d in docs}
    pred = {d: tuple(draw(st.lists(span(), max_size=6))) for d in docs}
    alts = draw(st.booleans())
    return (AnnotationSet("gold", gold, alternatives=alts),
            AnnotationSet("sys", pred, role="system"))


@settings(max_examples=300, deadline=None)
@given(pairs(), st.sampled_from((0, 1, 2)))
def test_categories_partition_the_spans_and_counts_add_up(
        data: tuple[AnnotationSet, AnnotationSet], level: int) -> None:
    gold, pred = data
    t = categorise(gold, pred, level=level)
    n_gold = sum(len(gold.alt_spans(d)) for d in gold.doc_ids)
    n_pred = pred.span_count()
    ref = [s for s in t.spans if s.side == "reference"]
    prd = [s for s in t.spans if s.side == "prediction"]
    assert len(ref) == n_gold and len(prd) == n_pred
    assert all(s.category in REFERENCE_CATEGORIES for s in ref)
    assert all(s.category in PREDICTION_CATEGORIES for s in prd)
    assert sum(t.counts("reference").values()) == n_gold
    assert sum(t.counts("prediction").values()) == n_pred
    # Per label the counts add up to the same totals.
    for side, n in (("reference", n_gold), ("prediction", n_pred)):
        assert sum(sum(t.counts(side, label=lab).values()) for lab in t.labels()) == n  # type: ignore[arg-type]
    # Missed / spurious exactly when the span overlaps nothing on the other side.
    for s in ref:
        others = [p for p in pred.get(s.document)]
        overlaps = any(min(s.end, p.end) > max(s.start, p.start) for p in others)
        assert (s.category in (MISSED, OPTIONAL)) == (not overlaps)
    for s in prd:
        others = [g for g in gold.get(s.document)]
        overlaps = any(min(s.end, g.end) > max(s.start, g.start) for g in others)
        assert (s.category == SPURIOUS) == (not overlaps)


@settings(max_examples=100, deadline=None)
@given(pairs())
def test_a_system_equal_to_the_plain_reference_is_all_correct(
        data: tuple[AnnotationSet, AnnotationSet]) -> None:
    gold, _ = data
    plain = AnnotationSet("gold", gold.spans)
    t = categorise(plain, AnnotationSet("sys", gold.spans, role="system"))
    assert set(t.counts("reference")) >= {CORRECT}
    assert t.counts("reference")[CORRECT] == plain.span_count()
    assert t.counts("prediction")[CORRECT] == plain.span_count()
