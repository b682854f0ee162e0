"""Documents page: a selected span's pairs come with a sentence saying what Da San Martino takes
from it and why (tour 18: a missed technique's span showed one pair row with C = 0, and the
reason, another label, was left to the reader of the table's columns)."""

from __future__ import annotations

from core.metrics import martino
from ui import documents, state


def _said(at) -> list[str]:
    return [m.value.replace("\\", "") for m in at.markdown if "takes from it" in m.value]


def test_a_span_paired_only_with_another_label_says_it_adds_nothing(make_app, handmade) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc1", "b": "system_a",
                                                 documents.K_DOC_TAB: documents.DOC_TABS[1]})
    at.selectbox(key=state.K_SPAN).select("G2").run()  # [10, 15) Doubt under P1 [4, 15) Loaded
    assert not at.exception, [e.value for e in at.exception]
    _, sets = handmade
    (note,) = [n for n in martino.explain(sets[0], sets[1], "doc1").notes()
               if n.side == "gold" and (n.span.start, n.span.end) == (10, 15)]
    assert _said(at) == [f"Da San Martino takes from it: {note.render('P1')}"]
    assert "nothing (0 toward recall): P1 overlaps 5 of its 5 characters" in _said(at)[0]
    assert "another label (Loaded)" in _said(at)[0]


def test_a_prediction_in_two_gold_spans_gives_the_sum_and_the_other_label(make_app) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc1", "b": "system_a",
                                                 documents.K_DOC_TAB: documents.DOC_TABS[1]})
    at.selectbox(key=state.K_SPAN).select("P1").run()  # [4, 15) Loaded: in G1 Loaded, G2 Doubt
    assert _said(at) == ["Da San Martino takes from it: precision takes 1.000 from it: the sum "
                         "of C(s,t,|s|) over its 2 overlapping gold spans (the rows above); 1 of "
                         "them has another label and count 0."]
