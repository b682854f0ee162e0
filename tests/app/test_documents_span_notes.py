"""Documents page: a selected span's pairs come with a sentence saying what Da San Martino takes
from it and why (tour 18: a missed technique's span showed one pair row with C = 0, and the
reason, another label, was left to the reader of the table's columns)."""

from __future__ import annotations

from core.metrics import martino
from core.model import AnnotationSet, Span
from ui import documents, state


def _pair_tables(at) -> list:
    """The selected span's pairs, then every pair of the document (both have a kind column)."""
    return [d.value for d in at.dataframe if "kind" in d.value.columns]


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
    said = ("Da San Martino takes from it: precision takes 1.000 from it: the sum of "
            "C(s,t,|s|) over its 2 overlapping gold spans (the rows above); 1 of them has "
            "another label and count 0. The set gives this span 2 times: each of its 2 "
            "identical copies takes as much. Its copies: P1, P2, each with rows of its own.")
    assert _said(at) == [said]
    # each copy has an id of its own: both were P1, in the pair tables too (review19)
    mine, pairs = _pair_tables(at)
    assert list(mine["pred"]) == ["P1", "P1"]
    pairs = pairs[pairs["kind"] == "pair"]
    assert sorted(zip(pairs["pred"], pairs["gold"], strict=True)) == [
        ("P1", "G1"), ("P1", "G2"), ("P2", "G1"), ("P2", "G2")]
    at.selectbox(key=state.K_SPAN).select("P2").run()
    assert not at.exception, [e.value for e in at.exception]
    assert _said(at) == [said]
    mine, _ = _pair_tables(at)
    assert sorted(mine["gold"]) == ["G1", "G2"]
    assert list(mine["pred"]) == ["P2", "P2"]


def test_copies_share_their_rows_one_per_partner_and_a_twin_left_unmatched_is_the_second() -> None:
    """The rule that names the copies' rows: the rows of one pair repeat once per copy (Da San
    Martino's sums), and under a one-to-one matching the copy that found no partner is the
    other copy, not the first again."""
    from ui.results import _copy_ids, _SpanIds

    s, t, u = Span(0, 5, "A"), Span(0, 9, "A"), Span(2, 5, "A")
    pred = AnnotationSet("pred", {"d": (s, s)}, "system")
    ids = _SpanIds(pred, "d", "P")
    assert _copy_ids([(s, t), (s, t), (s, u), (s, u)], ids) == ["P1", "P2", "P1", "P2"]
    assert _copy_ids([(s, t), (s, u), (s, t), (s, u)], ids) == ["P1", "P2", "P2", "P1"]
    assert _copy_ids([(s, t), (s, None)], ids) == ["P1", "P2"]
    assert _copy_ids([(None, t)], ids) == [""]
