"""Overlap segmentation, lanes, merged view (core.render.segments) and their HTML
(core.render.highlight)."""

from __future__ import annotations

import html
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from core.model import NOTHING, AltSpan
from core.render import highlight
from core.render.segments import assign_lanes, char_status, disagreement, segments

intervals = st.lists(
    st.tuples(st.integers(0, 40), st.integers(1, 20)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=12,
)


@settings(deadline=None, max_examples=150)
@given(intervals)
def test_segments_tile_the_text_and_list_exactly_the_covering_spans(ivs) -> None:
    length = 60
    segs = segments(ivs, length)
    assert segs[0].start == 0 and segs[-1].end == length
    assert all(a.end == b.start for a, b in itertools.pairwise(segs))
    for seg in segs:
        for pos in (seg.start, seg.end - 1):
            covering = tuple(i for i, (s, e) in enumerate(ivs) if s <= pos < e)
            assert seg.covering == covering


@settings(deadline=None, max_examples=150)
@given(intervals)
def test_lanes_never_share_between_overlapping_spans_and_are_minimal(ivs) -> None:
    lanes = assign_lanes(ivs)
    for i, (s1, e1) in enumerate(ivs):
        for j, (s2, e2) in enumerate(ivs):
            if i < j and s1 < e2 and s2 < e1:
                assert lanes[i] != lanes[j]
    depth = max((len(seg.covering) for seg in segments(ivs, 60)), default=0)
    assert max(lanes, default=-1) + 1 == depth


def test_nested_spans_get_two_lanes_and_touching_spans_share_one() -> None:
    assert assign_lanes([(0, 20), (5, 10)]) == [0, 1]
    assert assign_lanes([(0, 5), (5, 10)]) == [0, 0]


def test_merged_view_marks_mismatch_missed_and_optional_gold() -> None:
    gold = [AltSpan(0, 4, ("A",)), AltSpan(10, 14, ("B",)), AltSpan(20, 24, ("C", NOTHING))]
    pred = [AltSpan(0, 4, ("Z",))]
    runs = [(r.start, r.end, r.status) for r in char_status(gold, pred, 30) if r.status != "none"]
    assert runs == [(0, 4, "mismatch"), (10, 14, "missed"), (20, 24, "optional")]


def test_an_alternative_label_matches() -> None:
    gold = [AltSpan(0, 4, ("A", "B"))]
    assert char_status(gold, [AltSpan(0, 4, ("B",))], 4)[0].status == "matched"


def test_disagreement_is_zero_for_identical_sets_and_one_for_disjoint() -> None:
    spans = [AltSpan(2, 8, ("A",))]
    assert disagreement(spans, spans, 10) == 0.0
    assert disagreement(spans, [AltSpan(8, 10, ("A",))], 10) == 1.0
    assert disagreement([], [], 10) == 0.0


XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>'


def test_text_and_labels_are_escaped_in_every_rendering() -> None:
    items = [highlight.SpanItem("G1", 0, 25, ('<b onmouseover="x">L</b>',))]
    colours = highlight.label_colours(items[0].labels)
    for markup in (highlight.render_lanes(XSS, items, colours),
                   highlight.render_merged(XSS, items, []),
                   highlight.legend(colours)):
        assert "<script" not in markup and "<img" not in markup and "<b " not in markup
    assert html.escape("<script>alert(1)</script>") in highlight.render_lanes(XSS, items, colours)


def test_every_span_gets_a_tag_and_its_own_lane_stripe() -> None:
    items = [highlight.SpanItem("G1", 0, 10, ("A",)), highlight.SpanItem("G2", 2, 5, ("B",))]
    colours = highlight.label_colours(["A", "B"])
    markup = highlight.render_lanes("x" * 12, items, colours)
    assert 'data-span="G1"' in markup and 'data-span="G2"' in markup
    # The piece [2, 5) carries both spans: the lane-1 stripe sits 6 px above the lane-0 one.
    assert f"linear-gradient({colours['B']},{colours['B']})" in markup
    assert "calc(100% - 6px)" in markup


def test_alternatives_are_one_item_with_both_labels() -> None:
    from core.model import AnnotationSet, Span

    gold = AnnotationSet("g", {"d": (Span(0, 4, "A"), Span(0, 4, NOTHING))}, alternatives=True)
    (item,) = highlight.span_items(gold, "d", "G")
    assert item.labels == ("A", NOTHING) and item.label_text == "A | ⊥"


def test_a_missed_gold_span_under_a_matched_one_keeps_its_missed_underline() -> None:
    # G1 (A) is matched by P1; G2 (B) overlaps it and nothing predicts B: its characters inside
    # G1 are "matched" (one status per character) but must still show that G2 is missed.
    gold = [highlight.SpanItem("G1", 0, 10, ("A",)), highlight.SpanItem("G2", 5, 15, ("B",))]
    pred = [highlight.SpanItem("P1", 0, 10, ("A",))]
    markup = highlight.render_merged("x" * 20, gold, pred)
    assert markup.count("ss-hidden-missed") == 1
    hidden = markup.split('class="ss-matched ss-hidden-missed"')[1].split("</span>")[0]
    assert "border-bottom:2px solid" in hidden and hidden.endswith(">xxxxx")
    assert "also inside a missed gold span" in markup
    assert highlight.missed_intervals(gold, pred) == [(5, 15)]
