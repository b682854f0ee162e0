"""A metric that refuses one system (the nlp4if2019 variant on the sample's system_a, which
predicts one span twice in document 2, as the official FLC scorer refuses) leaves the rest of
the Scores and Documents pages working, and every missing number says why."""

from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from ui import documents, results, scores, state

PARAMS = {"a": "gold", "b": "system_a", "metric": "martino", state.K_VARIANT: "nlp4if2019"}


def test_a_refused_system_keeps_the_paired_comparison_and_says_what_to_do_here(
        make_app: Callable[..., AppTest]) -> None:
    at = make_app("pages/scores.py", data="sample", params=PARAMS)
    assert not at.exception
    refusal = next(e.value for e in at.error if "cannot score system" in e.value)
    assert "merge" in refusal and "semeval2021 variant" in refusal
    assert "merge\\_pred=True" not in refusal and "merge_pred=True" not in refusal
    assert "Paired comparison" in [h.value for h in at.subheader]
    assert any("cannot score both systems" in i.value for i in at.info)
    at.selectbox(key=state.K_SET_B).select("system_b").run()  # the other system, in full
    assert not at.exception
    assert not any("cannot score system" in e.value for e in at.error)
    assert "Paired comparison" in [h.value for h in at.subheader]


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
    listed = next(df.value for df in at.dataframe
                  if {"document", "F1", "disagreement"} <= set(df.value.columns))
    f1 = dict(zip(listed["document"], listed["F1"], strict=True))
    assert f1["1"] == 0.8  # P 1, R 0.667, as the document's own scores tab says
    missing = [d for d, v in f1.items() if v is None or v != v]
    assert missing == ["2"]
    why = next(c.value for c in at.caption if c.value.startswith("F1 “—”"))
    assert "document\\(s\\) \\(2\\)" in why and "overlaps" in why
    at.session_state[documents.K_DOC_TAB] = documents.DOC_TABS[2]
    at.run()
    own = next(df.value for df in at.dataframe if "metric" in df.value.columns)
    assert own.loc[own["metric"].str.contains("nlp4if2019"), "F1"].item() == f1["1"]


def test_the_dashboard_message_names_both_ways_to_merge() -> None:
    out = results.for_dashboard("x: the official scorer refuses this, " + results.MERGE_HINT)
    assert "--merge-pred" in out and "semeval2021 variant" in out and "merge_pred=" not in out
