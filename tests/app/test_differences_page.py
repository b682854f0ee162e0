"""Metric differences page: the waterfall's end points are the Scores page's numbers, the
per-text table is core's, and picking a text opens it on the Documents page."""

from __future__ import annotations

import pytest

from core.metrics import differences
from ui import state


def _steps(frame, at, measure: str = "F1"):  # -> DataFrame indexed by step
    return frame(at, "step", "official metric", measure, "rules").set_index("step")


@pytest.mark.parametrize("data", ["handmade", "sample", "empty"])
def test_the_page_runs_on_every_start(make_app, data: str, has_sample: bool) -> None:
    if data == "sample" and not has_sample:
        pytest.skip("no bundled sample corpus")
    at = make_app("pages/differences.py", data=data)
    assert not at.exception, [e.value for e in at.exception]
    if data == "empty":
        assert at.info and "at least two sets" in at.info[0].value


@pytest.mark.parametrize("level", ["2", "0"])
def test_waterfall_end_points_equal_the_scores_page(make_app, frame, level: str) -> None:
    params = {"b": "system_a", "level": level}
    scores = make_app("pages/scores.py", params=params)
    assert not scores.exception, [e.value for e in scores.exception]
    shown = frame(scores, "system", "DSM F1", "MAFALDA F1").set_index("system")
    diff = make_app("pages/differences.py", params=params)
    assert not diff.exception, [e.value for e in diff.exception]
    steps = _steps(frame, diff)
    assert steps.loc["Martino, SemEval-2021", "F1"] == pytest.approx(
        shown.loc["system_a", "DSM F1"])
    assert steps.loc[f"MAFALDA, level {level}", "F1"] == pytest.approx(
        shown.loc["system_a", "MAFALDA F1"])
    assert steps["official metric"].sum() == 3


def test_every_step_is_core_rule_score(make_app, frame, handmade) -> None:
    _, sets = handmade
    gold, system = sets[0], sets[1]
    at = make_app("pages/differences.py", params={"b": "system_a", "measure": "R"})
    steps = _steps(frame, at, "R")
    for key, title, _, rules, _ in differences.path_rules(2, "paper"):
        want = differences.rule_score(gold, system, rules).recall
        assert steps.loc[title, "R"] == pytest.approx(want), key


def test_per_text_table_is_core_document_differences(make_app, frame, handmade) -> None:
    _, sets = handmade
    at = make_app("pages/differences.py", params={"b": "system_a"})
    table = frame(at, "document", "Martino F1", "MAFALDA F1", "reasons")
    rows = differences.document_differences(sets[0], sets[1])
    assert list(table["document"]) == [r.document for r in rows]
    assert list(table["MAFALDA F1"]) == pytest.approx([r.mafalda[2] for r in rows])
    assert list(table["reasons"]) == [", ".join(r.reasons) for r in rows]


def test_picking_a_row_opens_the_text_on_the_documents_page(make_app, frame) -> None:
    at = make_app("pages/differences.py", params={"b": "system_a"})
    first = frame(at, "document", "reasons").iloc[0]["document"]
    at.session_state[state.K_DIFF_TABLE] = {"selection": {"rows": [0], "columns": [],
                                                          "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.K_DOC] == first
    assert any(t.value.startswith("📄 Documents") for t in at.title)
