"""The Scores page's systems grid and Learn's scores table are wider than the page at 1,440 px:
their first columns are pinned (a row's system, a run's metric and variant stay in sight while
the rest scrolls), and Learn's sums and notes are as wide as their longest text, never cut with
an ellipsis (bugleft21; the browser test is ``tests/e2e/test_wide_tables_browser.py``)."""

from __future__ import annotations

import json

import pandas as pd

from ui import grid_columns as grid_ui
from ui import sidebar
from ui import small_table as small


def _grid(at, first: list[str]):
    """The one data grid whose first columns are ``first`` (a grid without a selection has
    no id) and its column configuration."""
    (grid,) = [d for d in at.dataframe if list(d.value.columns[:len(first)]) == first]
    return grid, json.loads(grid.proto.columns)


def test_the_systems_grid_pins_its_system_column(make_app) -> None:
    at = make_app("pages/scores.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    grid, config = _grid(at, ["system", "role"])
    assert len(grid.value.columns) > small.NOWRAP_COLUMNS  # the intervals: a grid
    assert [k for k, v in config.items() if v.get("pinned")] == ["system"]


def test_learns_scores_pin_the_run_and_show_every_note_whole(make_app) -> None:
    at = make_app("pages/learn.py", data="sample")
    assert not at.exception, [e.value for e in at.exception]
    grid, config = _grid(at, ["metric", "variant", "labels"])
    df = grid.value
    assert [k for k, v in config.items() if v.get("pinned")] == ["metric", "variant"]
    for column in ("P = Σ C(s,t,|s|) / |S|", "R = Σ C(s,t,|t|) / |T|", "note"):
        longest = max(len(str(v)) for v in [column, *df[column].dropna()])
        assert config[column]["width"] >= grid_ui.CHAR_PX * longest, column


def test_pinned_and_text_width() -> None:
    df = pd.DataFrame({"a": [1], "b": ["xy"], "c": [None]})
    assert list(grid_ui.pinned(df, 2)) == ["a", "b"]
    assert grid_ui.text_width(df["b"], "b") == 24 + 14  # two characters of 6.6 px, rounded up
    assert grid_ui.text_width(df["c"], "header") == 24 + 40


def test_a_data_grids_scrollbar_is_drawn_without_a_hover() -> None:
    assert ("[data-testid='stDataFrame'] .dvn-scroller{scrollbar-color:rgba(128,128,128,.7) "
            "rgba(128,128,128,.15)}") in sidebar.TABLE_CSS
