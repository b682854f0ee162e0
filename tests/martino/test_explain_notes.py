"""Da San Martino's explanation says in words what each span adds to the numerators (tour 18:
a researcher who picked a missed technique's span saw one pair row with C = 0 and no reason).
Each note's number is the sum of that span's rows, so the notes of one side add up to the
document's numerator; a span that overlaps nothing has no note (its row says so)."""

from __future__ import annotations

import re

import pytest

from core.metrics.martino import explain
from core.metrics.result import PARTNER
from core.model import AnnotationSet, Span


def _sets(gold: list[Span], pred: list[Span]) -> tuple[AnnotationSet, AnnotationSet]:
    return (AnnotationSet("gold", {"d": tuple(gold)}),
            AnnotationSet("pred", {"d": tuple(pred)}, role="system"))


def _notes(gold: list[Span], pred: list[Span]) -> dict[tuple[str, Span], str]:
    e = explain(*_sets(gold, pred), "d")
    return {(n.side, n.span): n.text for n in e.notes()}


def test_a_gold_span_overlapped_by_another_label_says_it_adds_nothing_and_why() -> None:
    g, p = Span(0, 51, "Whataboutism"), Span(6, 46, "Doubt")
    notes = _notes([g], [p])
    assert notes[("gold", g)] == (
        f"nothing (0 toward recall): {PARTNER} overlaps 40 of its 51 characters but has another "
        "label (Doubt), and only a pair of the same label counts.")
    assert notes[("pred", p)].startswith("nothing (0 toward precision)")
    e = explain(*_sets([g], [p]), "d")
    assert e.notes()[0].partner in (g, p)


def test_one_same_label_overlap_gives_its_contribution_and_the_character_counts() -> None:
    g, p = Span(0, 51, "Doubt"), Span(6, 46, "Doubt")
    notes = _notes([g], [p])
    assert notes[("gold", g)] == (f"recall takes C(s,t,|t|) = {40 / 51:.3f} from its overlap "
                                  f"with {PARTNER}: 40 of its 51 characters.")
    assert notes[("pred", p)] == (f"precision takes C(s,t,|s|) = 1.000 from its overlap with "
                                  f"{PARTNER}: 40 of its 40 characters.")


def test_several_pairs_are_summed_and_those_of_another_label_counted() -> None:
    g = Span(0, 40, "Doubt")
    preds = [Span(0, 10, "Doubt"), Span(5, 30, "Doubt"), Span(20, 40, "Slogans")]
    notes = _notes([g], preds)
    assert notes[("gold", g)] == (
        f"recall takes {10 / 40 + 25 / 40:.3f} from it: the sum of C(s,t,|t|) over its 3 "
        "overlapping predictions (the rows above); 1 of them has another label and count 0.")


def test_a_sum_above_one_says_why() -> None:
    g = Span(0, 10, "Doubt")
    notes = _notes([g], [Span(0, 10, "Doubt"), Span(0, 10, "Doubt")])
    assert notes[("gold", g)].startswith("recall takes 2.000 from it")
    assert "more than 1, because every overlapping pair counts" in notes[("gold", g)]


def test_a_span_that_overlaps_nothing_has_no_note() -> None:
    g, p = Span(0, 5, "Doubt"), Span(20, 30, "Doubt")
    assert _notes([g], [p]) == {}


@pytest.mark.parametrize("variant", ["semeval2021", "nlp4if2019"])
def test_the_numbers_of_one_side_add_up_to_the_documents_numerator(variant: str) -> None:
    gold = [Span(0, 40, "Doubt"), Span(10, 20, "Slogans"), Span(50, 70, "Doubt"),
            Span(90, 95, "Doubt")]
    pred = [Span(0, 12, "Doubt"), Span(8, 30, "Slogans"), Span(45, 60, "Doubt"),
            Span(55, 75, "Doubt"), Span(80, 85, "Doubt")]
    e = explain(*_sets(gold, pred), "d", variant=variant, merge_pred=variant == "nlp4if2019")

    def total(side: str) -> float:
        found = [re.search(r"(?:= |takes )(\d+\.\d{3})", n.text) for n in e.notes()
                 if n.side == side]
        return sum(float(m.group(1)) if m else 0.0 for m in found)

    assert total("pred") == pytest.approx(e.score.precision_numerator, abs=5e-3)
    assert total("gold") == pytest.approx(e.score.recall_numerator, abs=5e-3)


def test_a_span_given_twice_is_explained_per_copy_not_as_the_sum_of_both() -> None:
    """A prediction given twice (duplicate predictions, which push recall above 1) overlaps one
    gold span: each copy takes C(s,t,|s|) = 1 toward precision. The note grouped the rows by the
    span's value, so the two copies' rows read as one span's: "precision takes 2.000 from it:
    the sum of C(s,t,|s|) over its 2 overlapping gold spans", of a prediction inside one gold
    span (review19). The gold span's note is the sum over both predictions, as the official
    scorer sums."""
    g = AnnotationSet("gold", {"d": (Span(0, 51, "Doubt"),)})
    p = AnnotationSet("pred", {"d": (Span(6, 46, "Doubt"), Span(6, 46, "Doubt"))},
                      role="system")
    notes = {n.side: n for n in explain(g, p, "d").notes()}
    assert notes["pred"].text.startswith(
        "precision takes C(s,t,|s|) = 1.000 from its overlap with {partner}: 40 of its 40 "
        "characters.")
    assert "each of its 2 identical copies" in notes["pred"].text
    assert notes["gold"].text.startswith(
        "recall takes 1.569 from it: the sum of C(s,t,|t|) over its 2 overlapping predictions")
    # and the other way round: a gold span given twice, one prediction
    g2 = AnnotationSet("gold", {"d": (Span(0, 51, "Doubt"), Span(0, 51, "Doubt"))})
    p2 = AnnotationSet("pred", {"d": (Span(6, 46, "Doubt"),)}, role="system")
    notes = {n.side: n for n in explain(g2, p2, "d").notes()}
    assert notes["gold"].text.startswith(
        "recall takes C(s,t,|t|) = 0.784 from its overlap with {partner}: 40 of its 51 "
        "characters.")
    assert "each of its 2 identical copies" in notes["gold"].text
    assert notes["pred"].text.startswith("precision takes 2.000 from it: the sum of C(s,t,|s|) "
                                         "over its 2 overlapping gold spans")
