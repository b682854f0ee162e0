"""Scores, one system in detail: a caption above the per-label table names the labels of lowest
F1 with their counts (tour 18: a researcher looking for the system's worst technique read 14
rows in label order, the worst one, F1 0, below the fold); a data grid's caption says how to sort
it."""

from __future__ import annotations

import pandas as pd

from core.metrics import martino
from ui import scores


def _said(at) -> list[str]:
    return [c.value for c in at.caption if c.value.startswith("Lowest F1: ")]


def test_the_lowest_f1_labels_are_named_with_their_counts(make_app, handmade) -> None:
    at = make_app("pages/scores.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    _, sets = handmade
    per_label = {lab: v for lab, v in martino.score(sets[0], sets[1]).per_label().items()
                 if v.f1 is not None}
    low = sorted(per_label.items(), key=lambda kv: (kv[1].f1, kv[0]))[:scores.WEAKEST]
    (said,) = _said(at)
    plain = said.replace("\\", "")
    at_ = [plain.index(f"**{lab}** {v.f1:.3f} ({v.recall_denominator} gold "
                       f"span{'' if v.recall_denominator == 1 else 's'}, "
                       f"{v.precision_denominator} predicted)") for lab, v in low]
    assert at_ == sorted(at_)  # lowest first
    assert "Click a column's header" not in said  # a Markdown table up to 12 labels


def test_a_grid_of_many_labels_says_how_to_sort_it() -> None:
    table = pd.DataFrame({"label": [f"T{i:02d}" for i in range(14)],
                          "F1": [i / 14 for i in range(14)], "gold spans": [2] * 14,
                          "predicted spans": [1] * 14})
    said = scores.weakest_note(table, grid=True)
    assert said is not None
    assert said.startswith("Lowest F1: **T00** 0.000 (2 gold spans, 1 predicted), **T01**")
    assert said.count(" gold spans, 1 predicted") == scores.WEAKEST
    assert said.endswith("Click a column's header to sort the table by it.")


def test_fewer_than_two_scored_labels_get_no_caption() -> None:
    table = pd.DataFrame({"label": ["A", "B"], "F1": [0.5, None], "gold spans": [1, 0],
                          "predicted spans": [1, 1]})
    assert scores.weakest_note(table, grid=False) is None
