"""Scores above 1 (the 2021 scorer counts duplicate predictions) are marked and explained, with a
link to the Learn scenario that shows it, on Overview, Scores, Documents and Annotators."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from ui import above_one, documents
from ui import annotators as ann

APP = Path(__file__).resolve().parents[2] / "app.py"
TEXT = "They will take everything you own unless you act now, believe me."


def _app(page: str) -> AppTest:
    """Gold with one span; a system predicting it twice; two annotators, one with a duplicate."""
    from ui import state

    gold = AnnotationSet("gold", {"d1": (Span(0, 30, "Fear"),), "d2": (Span(0, 10, "Fear"),)},
                         "gold")
    dup = AnnotationSet("system_dup", {"d1": (Span(0, 30, "Fear"), Span(0, 30, "Fear")),
                                       "d2": (Span(0, 10, "Fear"),)}, "system")
    ann1 = AnnotationSet("annotator_1", {"d1": (Span(0, 30, "Fear"),),
                                         "d2": (Span(0, 10, "Fear"),)}, "annotator")
    ann2 = AnnotationSet("annotator_2", {"d1": (Span(0, 30, "Fear"), Span(0, 30, "Fear")),
                                         "d2": (Span(0, 10, "Fear"),)}, "annotator")
    report = state.FileReport("dup.json", "test", "gold", "dup", {"d1": TEXT, "d2": TEXT},
                              (gold, dup, ann1, ann2))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key="test:dup", title="duplicates", shareable=False)
    at.run()
    if page != "app.py":
        at.switch_page(page).run()
    return at


def _links(at: AppTest) -> list[str]:
    return [str(el.proto) for el in at.get("page_link")]


@pytest.mark.parametrize("page", ["app.py", "pages/scores.py", "pages/documents.py",
                                  "pages/annotators.py"])
def test_every_value_above_one_is_marked_with_a_note_linking_to_learn(page: str) -> None:
    at = _app(page)
    if page == "pages/annotators.py":
        at.selectbox(key=ann.K_ANN_MEASURE).select("span-f1").run()
        at.session_state[ann.K_ANN_TAB] = ann.TABS[1]  # the table against the gold (lazy tabs)
        at.run()
    if page == "pages/documents.py":
        at.session_state[documents.K_DOC_TAB] = documents.DOC_TABS[2]  # the scores (lazy tabs)
        at.run()
    assert not at.exception
    marked = [df.value for df in at.dataframe if "above 1" in df.value.columns]
    assert marked, "no table marks its values above 1"
    for df in marked:
        cols = above_one.score_columns(df.drop(columns="above 1"))
        for _, row in df.iterrows():
            over = [c for c in cols if pd.notna(row[c]) and row[c] > 1]
            assert (row["above 1"] == f"↑ {', '.join(over)}") if over else row["above 1"] == ""
    assert any("2021 scorer" in c.value for c in at.caption)
    assert any("scenario=duplicates" in link for link in _links(at))


def test_no_mark_and_no_note_when_every_score_is_at_most_one() -> None:
    df = pd.DataFrame({"label": ["a"], "P": [1.0], "R": [0.5], "F1": [0.6667], "spans": [4]})
    assert above_one.mark(df) is df
    assert above_one.above_one(df).tolist() == [""]


def test_the_learn_link_opens_the_duplicates_scenario() -> None:
    from core.teaching import scenarios
    assert above_one.LEARN_SCENARIO in scenarios.SCENARIOS
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["scenario"] = above_one.LEARN_SCENARIO
    at.run()
    at.switch_page("pages/learn.py").run()
    assert not at.exception
    assert any("above 1" in m.value for m in at.markdown) or any(
        "above 1" in t.value for t in at.title + at.header + at.subheader)
