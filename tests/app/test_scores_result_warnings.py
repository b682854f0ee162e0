"""Scores page: the metric's own warnings on a pair (``score --json``'s ``warnings``, such as Da
San Martino's predicted labels that never occur in the gold) are shown with the overall result,
in one element, grouped by kind, every message escaped (bugleft19)."""

from __future__ import annotations

from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_sets

XSS = "<b>Fear</b>"


def test_disjoint_labels_are_warned_under_the_overall_result() -> None:
    texts: dict[str, str | None] = {"d1": "alpha beta gamma delta", "d2": "one two three"}
    gold = AnnotationSet("gold", {"d1": (Span(0, 5, "Doubt"),), "d2": (Span(0, 3, "Doubt"),)},
                         "gold")
    pred = AnnotationSet("system_a", {"d1": (Span(0, 5, XSS),), "d2": (Span(0, 3, XSS),)},
                         "system")
    at = app_on_sets([gold, pred], texts, "pages/scores.py", key="test:disjoint-scores",
                     role="gold")
    said = [w.value for w in at.warning if "no predicted label occurs in" in w.value]
    assert len(said) == 1, [w.value for w in at.warning]  # one element
    text = said[0]
    assert "`disjoint-labels` (1)" in text  # its kind, with how many
    assert XSS not in text and "Fear" in text  # the label quoted, escaped
    assert text.count("no predicted label occurs in") == 1
    # what the caption above it says stays the overall result
    assert any(c.value.startswith("P 0.000") for c in at.caption)
