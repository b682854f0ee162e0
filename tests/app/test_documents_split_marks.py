"""Documents page: a gold span several predictions of its label cover (a prediction split in
pieces, or several over one span) is marked ``÷N``, each piece ``÷``, and a caption names them
and says how the metric on view reads them: the Da San Martino metric sums the pieces'
contributions to the span's recall, MAFALDA takes the best one (bugleft27: the split tag, the
``split-prediction`` reason of Metric differences, was on no page of one document)."""

from __future__ import annotations

import html
import re

import pytest

from core.render import highlight
from tests.app.conftest import app_on_sets
from ui import sidebar

SPLIT = re.compile(r'<span class="ss-split" dir="ltr" data-span="([^"]+)" title="([^"]*)">'
                   r"([^<]*)</span>")


def _html(at) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def _marks(at) -> dict[str, tuple[str, str]]:
    return {html.unescape(i): (html.unescape(m), html.unescape(t))
            for i, t, m in SPLIT.findall(_html(at))}


@pytest.mark.parametrize(("metric", "rule"), [
    ("martino", "the Da San Martino metric sums their contributions to the span's recall"),
    ("mafalda", "MAFALDA takes only the best-covering one for the span's recall")])
def test_a_gold_span_covered_by_two_predictions_is_marked_split(make_app, metric, rule) -> None:
    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "3", "metric": metric})
    assert not at.exception, [e.value for e in at.exception]
    marks = _marks(at)
    assert set(marks) == {"G1", "P1", "P2"}
    assert marks["G1"][0] == "÷2" and marks["P1"][0] == marks["P2"][0] == "÷"
    assert marks["G1"][1] == f"G1 is covered by 2 predictions of its label (P1, P2): {rule}."
    assert rule in marks["P2"][1] and "P2 is one of 2 predictions covering G1" in marks["P2"][1]
    body = _html(at)
    assert "Split predictions (÷N on a gold span" in body and "G1 by P1, P2" in body


def test_a_document_without_pieces_has_no_split_mark(make_app) -> None:
    at = make_app("pages/documents.py", data="sample",
                  params={"sample": "mafalda", "doc": "0", "metric": "martino"})
    assert _marks(at) == {} and "Split predictions" not in _html(at)


def test_pieces_of_another_label_and_bottom_are_no_split() -> None:
    g = [highlight.SpanItem("G1", 0, 20, ("a", "⊥")), highlight.SpanItem("G2", 30, 40, ("b",))]
    p = [highlight.SpanItem("P1", 0, 5, ("a",)), highlight.SpanItem("P2", 5, 9, ("c",)),
         highlight.SpanItem("P3", 30, 35, ("⊥",)), highlight.SpanItem("P4", 35, 40, ("b",)),
         highlight.SpanItem("P5", 12, 25, ("a",))]
    assert highlight.split_pieces(g, p) == {"G1": ("P1", "P5")}


def test_split_marks_escape_what_a_file_names() -> None:
    from core.model import AnnotationSet, Span

    label = "<i>x</i>"
    texts = {"d<1>": "one two three four five six seven"}
    gold = AnnotationSet("gold", {"d<1>": (Span(0, 20, label),)}, "gold")
    pred = AnnotationSet("sys<b>", {"d<1>": (Span(0, 7, label), Span(8, 13, label))}, "system")
    at = app_on_sets([gold, pred], texts, "pages/documents.py", key="test:split-escape",
                     role="gold")
    body = _html(at)
    assert "<i>x</i>" not in body and "sys<b>" not in body
    assert _marks(at)["G1"][0] == "÷2"
