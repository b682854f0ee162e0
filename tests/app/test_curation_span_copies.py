"""Curation page on an annotator who gives one span twice (two identical copies): each copy is a
lane item of its own (A1, A2, as the Documents page's P1, P2), both are marked as the decision's
member, and the lane says that one is a copy the consensus counts as one vote (bugleft24)."""

from __future__ import annotations

from core.analysis.consensus import consensus
from core.model import AnnotationSet, Span
from ui import curation


def _sets() -> list[AnnotationSet]:
    return [AnnotationSet("ann_a", {"d1": (Span(0, 4, "Fear"), Span(0, 4, "Fear"))}, "annotator"),
            AnnotationSet("ann_b", {"d1": (Span(0, 4, "Fear"),)}, "annotator")]


def test_an_annotators_copies_are_one_vote_and_two_marked_items() -> None:
    sets = _sets()
    result = consensus(sets, {"d1": "Fear sells papers."}, match="exact")
    (d,) = result.decisions
    assert (d.votes, d.n) == (2, 2)  # ann_a's copies vote once
    assert d.members == (("ann_a", Span(0, 4, "Fear")), ("ann_b", Span(0, 4, "Fear")))
    items, marked = curation.items_for(sets[0], "d1", "A", d.members)
    assert [it.id for it in items] == ["A1", "A2"] and marked == ["A1", "A2"]
    assert curation.lane_note(items) == "2 span(s) · 1 is a copy of another (one vote)"
    items_b, marked_b = curation.items_for(sets[1], "d1", "B", d.members)
    assert marked_b == ["B1"] and curation.lane_note(items_b) == "1 span(s)"


def test_the_lane_note_counts_several_copies_in_words_that_agree_with_the_number() -> None:
    """Two copies, of one span or of two, are "2 are copies of others", each span one vote with
    its copies: the note said "2 a copy of another (one vote)" (review21)."""
    thrice = AnnotationSet("ann_a", {"d1": (Span(0, 4, "Fear"),) * 3}, "annotator")
    items, _ = curation.items_for(thrice, "d1", "A", ())
    assert [it.id for it in items] == ["A1", "A2", "A3"]
    assert curation.lane_note(items) == (
        "3 span(s) · 2 are copies of others (each span and its copies: one vote)")
    twice_each = AnnotationSet("ann_b", {"d1": (Span(0, 4, "Fear"), Span(0, 4, "Fear"),
                                                Span(5, 10, "Doubt"), Span(5, 10, "Doubt"))},
                               "annotator")
    items, _ = curation.items_for(twice_each, "d1", "B", ())
    assert curation.lane_note(items) == (
        "4 span(s) · 2 are copies of others (each span and its copies: one vote)")
