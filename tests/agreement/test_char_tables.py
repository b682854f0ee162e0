"""Character 2×2 tables: interval arithmetic equals counting the characters of coverage masks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.agreement.study import POSITION, Study, char_tables
from core.model import AnnotationSet, Span

LENGTH = 40


def coverage(spans: tuple[Span, ...], label: str) -> np.ndarray:
    """Yes/no per character: covered by a span with ``label`` (any span for POSITION)."""
    mask = np.zeros(LENGTH, dtype=bool)
    for sp in spans:
        if label == POSITION or sp.label == label:
            mask[sp.start:sp.end] = True
    return mask


def binary_counts(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int, int]:
    n11 = int((a & b).sum())
    n10, n01 = int(a.sum()) - n11, int(b.sum()) - n11
    return n11, n10, n01, LENGTH - n11 - n10 - n01


def _spans(draw_list: list[tuple[int, int, str]]) -> tuple[Span, ...]:
    return tuple(Span(s, min(LENGTH, s + n), lab) for s, n, lab in draw_list)


span = st.tuples(st.integers(0, LENGTH - 1), st.integers(1, 15), st.sampled_from("ABC"))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(span, max_size=7), st.lists(span, max_size=7))
def test_char_tables_equal_the_mask_counts(a: list, b: list) -> None:
    texts: dict[str, str | None] = {"d": "x" * LENGTH}
    sets = [AnnotationSet("a", {"d": _spans(a)}, "annotator"),
            AnnotationSet("b", {"d": _spans(b)}, "annotator")]
    study = Study.from_sets(sets, texts)
    table = char_tables(study, "a", "b")["d"]
    assert list(table) == [*study.labels, POSITION]
    for label, counts in table.items():
        masks = [coverage(study.get(who, "d"), label) for who in ("a", "b")]
        assert counts == binary_counts(*masks), label
