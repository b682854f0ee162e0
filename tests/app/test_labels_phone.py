"""The Labels heatmap on a phone and on MAFALDA data (tour 7 items 2 and 10): row names take
at most ``ROW_LABEL_PX`` (whole in the tooltip), rows with no span are hidden until a toggle
shows them, and a matrix wider than a phone says that it scrolls sideways."""

from __future__ import annotations

import html
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


def _specs(at) -> tuple[dict, str]:
    """The heatmap's spec (the page's one chart) and its row names' HTML (pinned beside it)."""
    (heatmap,) = [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]
    (names,) = [h.proto.body for h in at.html if 'class="lab-names"' in h.proto.body]
    assert "layer" in heatmap
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
    # A name longer than ROW_LABEL_PX ends in "…" (the CSS) and is whole in its title.
    assert f".lab-name{{max-width:{lab_ui.ROW_LABEL_PX}px;" in lab_ui.SCROLL_CSS
    assert "text-overflow:ellipsis" in lab_ui.SCROLL_CSS and lab_ui.ROW_LABEL_PX <= 200
    longest = max(_rows(spec), key=len)  # MAFALDA's joined alternatives
    assert f'title="{html.escape(longest)}"' in names
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


def test_the_pinned_row_names_are_the_heatmap_s_rows_at_its_row_height() -> None:
    """Issue 29, fourteenth pass: the row names are the page's HTML, not a second Vega-Lite view;
    they name the heatmap's rows in its order (each with its row total), one line per row as
    high as the heatmap's rows, below a corner as high as the room above its first row (the
    row title in it), so that each name is level with its cells (measured in the browser by
    tests/e2e/test_labels_browser.py); the outcome rows keep their bold orange."""
    import re

    ws = state.build_workspace(state.sample_reports("mafalda"), key="sample:mafalda",
                               title="mafalda", shareable=True)
    at = app_on_workspace(ws, "pages/labels.py")
    spec, names = _specs(at)
    rows = _rows(spec)
    shown = re.findall(r'role="listitem" title="[^"]*" style="height:(\d+)px;line-height:\1px">'
                       r'([^<]*)</div>', names)
    assert [html.unescape(name) for _, name in shown] == rows
    assert {int(h) for h, _ in shown} == {spec["height"] // len(rows)}
    corner = re.search(r'class="lab-names-title" style="height:(\d+)px">([^<]*)<', names)
    assert corner is not None and corner.group(2) == "gold label in gold"
    columns = spec["layer"][0]["encoding"]["x"]["sort"]  # as shown
    assert int(corner.group(1)) == lab_ui._top_extent(columns) + lab_ui.NAMES_TOP_PX
    outcome = re.findall(r'class="lab-name lab-name-outcome"[^>]*>([^<]*)<', names)
    assert outcome and all(n.startswith(("missed", "spurious")) for n in outcome)
