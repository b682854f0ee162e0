"""The Labels heatmap on a phone and on MAFALDA data (tour 7 items 2 and 10): row names take
at most ``ROW_LABEL_PX`` (whole in the tooltip), rows with no span are hidden until a toggle
shows them, and a matrix wider than a phone says that it scrolls sideways."""

from __future__ import annotations

import json

from core.metrics import labels as core_labels
from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_workspace
from ui import labels as lab_ui
from ui import state


def _zero_row_ws() -> state.Workspace:
    """A confusion with a row of total 0: the taxonomy of MAFALDA lists labels no span has."""
    texts = {"d1": "one two three four five six seven"}
    gold = AnnotationSet("gold", {"d1": (Span(0, 3, "appeal to fear"),
                                         Span(4, 7, "ad hominem"))}, "gold")
    system = AnnotationSet("system", {"d1": (Span(0, 3, "appeal to fear"),
                                             Span(8, 13, "unknown"))}, "system")
    report = state.FileReport("both.json", "test", "gold", "both", texts, (gold, system))
    return state.build_workspace([report], key="test:zero-rows", title="zero rows",
                                 shareable=False)


def _specs(at) -> tuple[dict, dict]:
    """The heatmap's spec (the first chart) and its row names' (pinned beside it)."""
    heatmap, names = [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]
    assert "layer" in heatmap and "layer" not in names
    return heatmap, names


def _spec(at) -> dict:
    return _specs(at)[0]


def _rows(spec: dict) -> list[str]:
    return spec["layer"][0]["encoding"]["y"]["sort"]


def test_rows_without_spans_are_hidden_until_the_toggle_shows_them() -> None:
    ws = _zero_row_ws()
    m = core_labels.confusion(ws.sets["gold"], ws.sets["system"])
    empty = [r for r in m.rows if not m.row_totals.get(r, 0)]
    assert empty  # the matrix has such rows (missed/spurious buckets or labels)
    at = app_on_workspace(ws, "pages/labels.py")
    rows = _rows(_spec(at))
    assert all(not r.endswith("(0)") for r in rows), rows
    toggle = at.toggle(key=lab_ui.K_LAB_EMPTY_ROWS)
    assert toggle.value is False and f"({len(empty)})" in toggle.label
    toggle.set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(_rows(_spec(at))) == len(m.rows)


def test_row_names_are_limited_and_a_wide_matrix_says_it_scrolls() -> None:
    ws = state.build_workspace(state.sample_reports("mafalda"), key="sample:mafalda",
                               title="mafalda", shareable=True)
    at = app_on_workspace(ws, "pages/labels.py")
    spec, names = _specs(at)
    assert names["encoding"]["y"]["axis"]["labelLimit"] == lab_ui.ROW_LABEL_PX <= 200
    assert spec["width"] > lab_ui.WIDE_PX
    assert any("scrolls sideways" in c.value for c in at.caption)
    # Issue 29, thirteenth pass: one element says what a cell counts and that the matrix
    # scrolls, right under the heading (each element is mounted again on every visit).
    (said,) = [c.value for c in at.caption if "scrolls sideways" in c.value]
    assert said.startswith("Each overlapping (gold, predicted) span pair counts once")
    assert said.endswith(f"\n\n{lab_ui.WIDE_NOTE}")
    # Row names longer than the limit are whole in the tooltip.
    assert {"field": "row_display", "type": "nominal", "title": "gold label in gold"} in \
        spec["layer"][0]["encoding"]["tooltip"]


def test_a_narrow_matrix_says_nothing_of_scrolling() -> None:
    at = app_on_workspace(_zero_row_ws(), "pages/labels.py")
    assert _spec(at)["width"] <= lab_ui.WIDE_PX
    assert not any("scrolls sideways" in c.value for c in at.caption)
