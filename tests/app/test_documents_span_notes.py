"""Documents page: a selected span's pairs come with a sentence saying what Da San Martino takes
from it and why (tour 18: a missed technique's span showed one pair row with C = 0, and the
reason, another label, was left to the reader of the table's columns)."""

from __future__ import annotations

from core.metrics import martino
from core.model import AnnotationSet, Span
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


def test_a_prediction_given_twice_is_explained_per_copy(make_app) -> None:
    """A system that gives one prediction twice (the duplicates that push recall above 1): each
    copy of the selected prediction takes 1.000 toward precision from its 2 gold spans; the
    note read "precision takes 2.000 from it: the sum of C(s,t,|s|) over its 4 overlapping gold
    spans", the two copies' rows summed as one span's (review19)."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP, corpus

    texts, (gold, _, _) = corpus()
    twice = AnnotationSet("system_twice", {
        "doc1": (Span(4, 15, "Loaded"), Span(4, 15, "Loaded")), "doc2": (), "doc10": ()},
        "system")
    report = state.FileReport("twice.json", "test", "gold", "twice", texts, (gold, twice))
    ws = state.build_workspace([report], key="test:twice", title="a prediction twice",
                               shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in {"doc": "doc1", "b": "system_twice",
                       documents.K_DOC_TAB: documents.DOC_TABS[1]}.items():
        at.query_params[key] = value
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key=state.K_SPAN).select("P1").run()  # [4, 15) Loaded: in G1 Loaded, G2 Doubt
    assert not at.exception, [e.value for e in at.exception]
    # each copy as the single prediction of the test above: 1.000 over 2 gold spans, not
    # 2.000 over 4
    assert _said(at) == ["Da San Martino takes from it: precision takes 1.000 from it: the sum "
                         "of C(s,t,|s|) over its 2 overlapping gold spans (the rows above); 1 of "
                         "them has another label and count 0. The set gives this span 2 times: "
                         "each of its 2 identical copies takes as much (the rows above list "
                         "them all)."]
