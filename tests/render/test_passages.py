"""A long document cut into passages (core.render.passages): the passages cover the text, one
after another, near the size asked, cut after a line break or space when one is near; the
spans of a passage are the spans that reach into it, clipped to its edges."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from core.render.highlight import SpanItem
from core.render.passages import clip, passage_of, passages


@settings(deadline=None, max_examples=200)
@given(st.text(alphabet="ab \n", max_size=400), st.integers(4, 60))
def test_passages_cover_the_text_one_after_another(text: str, size: int) -> None:
    cuts = passages(text, size)
    assert cuts[0][0] == 0 and cuts[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(cuts))
    assert all(end > start for start, end in cuts) or text == ""
    for start, end in cuts[:-1]:
        assert size - size // 10 <= end - start <= size
    assert cuts[-1][1] - cuts[-1][0] <= size * 3 // 2
    for k, (start, end) in enumerate(cuts):
        assert passage_of(cuts, start) == k and passage_of(cuts, end - 1) == k


def test_a_cut_falls_after_a_line_break_else_a_space() -> None:
    text = "x" * 95 + "\n" + "yy zz " * 30
    assert passages(text, 100)[0] == (0, 96)
    text = "x" * 93 + " yy" + "z" * 100
    assert passages(text, 100)[0] == (0, 94)
    assert passages("x" * 300, 100)[0] == (0, 100)  # no break near: cut inside the word
    assert passages("x" * 150, 100) == [(0, 150)]  # up to 1.5 sizes: one passage


def test_clip_keeps_the_spans_that_reach_in_cut_at_the_edges() -> None:
    items = [SpanItem("G1", 0, 10, ("A",)), SpanItem("G2", 8, 30, ("B",)),
             SpanItem("G3", 12, 18, ("A", "B")), SpanItem("G4", 25, 40, ("A",)),
             SpanItem("G5", 40, 50, ("A",))]
    got = clip(items, 10, 40)
    assert [(it.id, it.start, it.end, it.labels) for it in got] == [
        ("G2", 0, 20, ("B",)), ("G3", 2, 8, ("A", "B")), ("G4", 15, 30, ("A",))]
