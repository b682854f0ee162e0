"""Scores above 1 (the 2021 scorer counts duplicate predictions) are marked and explained, with a
link to the Learn scenario that shows it, on Overview, Scores, Documents and Annotators."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from tests.app.conftest import tables
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
    marked = [df for df in tables(at) if "above 1" in df.columns]
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


def test_sums_and_counts_are_not_scores() -> None:
    """The per-document table's ``P numerator`` is a sum of overlap credits (2.5 for three
    matched spans), not a ratio: it is never flagged."""
    df = pd.DataFrame({"document": ["d1"], "P": [0.8], "R": [0.9], "F1": [0.85],
                       "P numerator": [2.5], "R numerator": [3.0], "predicted spans": [3],
                       "gold spans": [3]})
    assert above_one.score_columns(df) == ["P", "R", "F1"]
    assert above_one.mark(df) is df


def _martino(gold: tuple[Span, ...], pred: tuple[Span, ...]) -> tuple[float, float]:
    from core.metrics import registry

    result = registry.get("martino").score_sets(
        AnnotationSet("gold", {"d": gold}, "gold"), AnnotationSet("sys", {"d": pred}, "system"),
        variant="semeval2021")
    return result.precision, result.recall


def test_the_note_names_the_overlaps_that_push_each_score_above_one() -> None:
    """Da San Martino et al. (2019): P sums C(s, t, |s|) over pairs, R sums C(s, t, |t|). Gold
    spans overlapping each other raise P (the sample's Causal Oversimplification: gold [0,75)
    and [44,75), one prediction, P = 1.41); predictions overlapping each other raise R."""
    p, r = _martino((Span(0, 75, "C"), Span(44, 75, "C")), (Span(0, 75, "C"),))
    assert p > 1 and r <= 1
    p, r = _martino((Span(0, 30, "C"),), (Span(0, 30, "C"), Span(0, 30, "C")))
    assert r > 1 and p <= 1
    assert "gold spans that overlap each other raise precision" in above_one.NOTE
    assert "predictions that overlap each other raise recall" in above_one.NOTE


def test_scores_systems_table_and_errors_slices_mark_values_above_one() -> None:
    """Sample data: DSM P of system_a is 1.0207 (Overview marks it); the Scores "All systems"
    table and the Errors slices table mark it too, and no table flags a sum."""
    from ui import errors

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception
    systems = next(df for df in tables(at) if "DSM P" in df.columns)
    assert "above 1" in systems.columns
    assert systems.loc[systems["system"] == "system_a", "above 1"].item().startswith("↑ DSM P")
    at.switch_page("pages/errors.py").run()
    at.session_state[errors.K_ERR_TAB] = errors.TABS[-1]  # the slices (lazy tabs)
    at.run()
    assert not at.exception
    slices = next(df.value for df in at.dataframe if "bucket" in df.value.columns)
    assert "above 1" in slices.columns
    assert any("2021 scorer" in c.value for c in at.caption)


def test_curation_marks_a_span_precision_above_one() -> None:
    """Two annotators mark overlapping spans of one label, which the consensus keeps; the third
    marks only the long one: against the curated set its span precision is 1.5, marked (and the
    others' recall, their spans overlapping each other)."""
    from ui import state

    text = "They will take everything you own unless you act now, believe me."
    both = {"d1": (Span(0, 20, "Fear"), Span(10, 20, "Fear"))}
    sets = (AnnotationSet("ann1", both, "annotator"), AnnotationSet("ann2", both, "annotator"),
            AnnotationSet("ann3", {"d1": (Span(0, 20, "Fear"),)}, "annotator"))
    report = state.FileReport("panel.json", "test", "annotator", "panel", {"d1": text}, sets)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key="test:overlap", title="overlap", shareable=False)
    at.run()
    at.switch_page("pages/curation.py").run()
    assert not at.exception
    agree = next(df.value for df in at.dataframe if "span precision" in df.value.columns)
    assert "above 1" in agree.columns
    assert agree.loc[agree["annotator"] == "ann3", "above 1"].item().startswith(
        "↑ span precision")
    assert any("2021 scorer" in c.value for c in at.caption)
