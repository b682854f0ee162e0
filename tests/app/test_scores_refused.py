"""A metric that refuses one system (the nlp4if2019 variant on the sample's system_a, which
predicts one span twice in document 2, as the official FLC scorer refuses) leaves the rest of
the Scores and Documents pages working, and every missing number says why."""

from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from tests.app.conftest import tables
from ui import documents, results, scores, state

PARAMS = {"a": "gold", "b": "system_a", "metric": "martino", state.K_VARIANT: "nlp4if2019"}


def test_a_refused_system_keeps_the_paired_comparison_and_says_what_to_do_here(
        make_app: Callable[..., AppTest]) -> None:
    at = make_app("pages/scores.py", data="sample", params=PARAMS)
    assert not at.exception
    refusal = next(e.value for e in at.error if "cannot score system" in e.value)
    assert "merge" in refusal and "semeval2021 variant" in refusal
    assert "merge\\_pred=True" not in refusal and "merge_pred=True" not in refusal
    assert "Paired comparison" in [h.value for h in at.header]
    assert any("cannot score both systems" in i.value for i in at.info)
    at.selectbox(key=state.K_SET_B).select("system_b").run()  # the other system, in full
    assert not at.exception
    assert not any("cannot score system" in e.value for e in at.error)
    assert "Paired comparison" in [h.value for h in at.header]


def test_the_f1_chart_says_why_a_bar_is_missing(make_app: Callable[..., AppTest]) -> None:
    at = make_app("pages/scores.py", data="sample",
                  params={**PARAMS, scores.K_SYSTEMS_TAB: scores.TAB_F1_CHART})
    at.session_state[scores.K_SYSTEMS_TAB] = scores.TAB_F1_CHART
    at.run()
    assert not at.exception
    assert any(c.value.startswith("No Da San Martino F1 bar for system\\_a: the metric refuses")
               for c in at.caption), [c.value for c in at.caption]


def test_documents_list_scores_each_document_as_its_own_tab_does(
        make_app: Callable[..., AppTest]) -> None:
    at = make_app("pages/documents.py", data="sample", params={**PARAMS, "doc": "1"})
    assert not at.exception
    at.session_state[documents.K_DOC_LIST] = True  # the list's lazy expander, opened
    at.session_state[f"{documents.K_DOC_LIST}_kept"] = True
    at.run()
    listed = next(df.value for df in at.dataframe
                  if {"document", "F1", "disagreement"} <= set(df.value.columns))
    f1 = dict(zip(listed["document"], listed["F1"], strict=True))
    assert f1["1"] == 0.8  # P 1, R 0.667, as the document's own scores tab says
    missing = [d for d, v in f1.items() if v is None or v != v]
    assert missing == ["2"]
    why = next(c.value for c in at.caption if c.value.startswith("F1 “—”"))
    assert "1 listed document(s) ('2')" in why.replace("\\", "") and "overlaps" in why
    at.session_state[documents.K_DOC_TAB] = documents.DOC_TABS[2]
    at.run()
    own = next(df.value for df in at.dataframe if "metric" in df.value.columns)
    assert own.loc[own["metric"].str.contains("nlp4if2019"), "F1"].item() == f1["1"]


def test_the_dashboard_message_names_both_ways_to_merge() -> None:
    out = results.for_dashboard("x: the official scorer refuses this, " + results.MERGE_HINT)
    assert "--merge-pred" in out and "semeval2021 variant" in out and "merge_pred=" not in out


def _panel_app() -> AppTest:
    """Three annotators who each labelled part of a corpus of four texts (as a doccano project
    exported per annotator): d1 and d2 are in every file."""
    from pathlib import Path

    from core.model import AnnotationSet, Span

    texts: dict[str, str | None] = {f"d{i}": "They will take everything you own, act now."
                                    for i in range(1, 5)}
    span = (Span(0, 20, "Fear"),)
    sets = (AnnotationSet("ann1", {"d1": span, "d2": span, "d3": span}, "annotator"),
            AnnotationSet("ann2", {"d1": span, "d2": (Span(5, 20, "Fear"),), "d4": span},
                          "annotator"),
            AnnotationSet("ann3", {"d1": span, "d2": span}, "annotator"))
    report = state.FileReport("panel.json", "test", "annotator", "panel", texts, sets)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"),
                           default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key="test:panel", title="panel", shareable=False)
    at.run()
    return at


def test_annotators_on_different_documents_get_a_reference_a_reason_and_the_shared_ones() -> None:
    at = _panel_app()
    at.switch_page("pages/curation.py").run()  # the automatic consensus joins as "curated"
    at.switch_page("pages/scores.py").run()
    assert not at.exception
    assert at.selectbox(key=state.K_SET_A).value == "ann1"  # not the consensus nobody curated
    warning = next(w.value for w in at.warning if "cover different documents" in w.value)
    assert "ann1 1 ('d3'); ann2 1 ('d4')" in warning.replace("\\", "")
    assert "2 document(s) they share" in warning
    at.toggle(key=scores.K_SHARED).set_value(True).run()
    assert not at.exception
    assert not any("must cover the same documents" in e.value for e in at.error)
    table = next(df for df in tables(at) if "DSM F1" in df.columns)
    f1 = dict(zip(table["system"], table["DSM F1"], strict=True))
    assert f1["ann3"] == 1.0 and 0 < f1["ann2"] < 1
    assert "Paired comparison" in [h.value for h in at.header]
