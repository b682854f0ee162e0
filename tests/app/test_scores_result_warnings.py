"""Scores page: the metric's own warnings on a pair (``score --json``'s ``warnings``, such as Da
San Martino's predicted labels that never occur in the gold) are shown with the overall result,
in one element, grouped by kind, every message escaped (bugleft19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_sets, app_on_workspace, plain_texts
from ui.escape import md

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
    # what to do said for this page and the command line, not in the Python API's words
    assert "labels=[" not in text and md("python -m core score --labels FILE") in text, text
    # what the caption above it says stays the overall result
    assert any(c.startswith("P 0.000") for c in plain_texts(at))  # drawn as plain HTML (ui.plain)


def test_the_tc_scorers_alignment_notes_are_the_command_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SemEval-2020 TC files whose rows the official scorer lines up across labels: the notes
    ``score --json`` gives, under the kind it counts them under."""
    from tests.app.test_scores_tc_order import _cli, _workspace
    from ui import state

    cli = _cli(tmp_path, "semeval2020-tc", capsys)
    assert cli["warnings"] and set(cli["warning_counts"]) == {"file-order"}
    at = app_on_workspace(_workspace(), "pages/scores.py")
    at.session_state[state.variant_key("martino")] = "semeval2020-tc"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = [w.value for w in at.warning if "The metric warns" in w.value]
    assert len(said) == 1, [w.value for w in at.warning]
    assert f"`file-order` ({len(cli['warnings'])})" in said[0]
    for message in cli["warnings"]:
        assert md(message) in said[0]
