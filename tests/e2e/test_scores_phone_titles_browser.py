"""Real browser at 1440 and 390 px: the Scores page's charts keep their title inside the chart,
apart from the legend and the toolbar, and the per-label chart draws every label whole beside
its bars, which lie on their side (bugleft27; bugleft24: at 390 px the per-label title ran past
the chart's edge and "Misrepresentation of Someone's Position (Straw Man)" was cut at its
foot). Screenshots: ``test-artifacts/screenshots/scores_titles_*``."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote_plus

import pytest

from tests.e2e.conftest import VIEWPORTS
from ui.scores import K_DETAIL_TAB, K_SYSTEMS_TAB, TAB_F1_CHART, TAB_LABEL_CHART

pytestmark = pytest.mark.e2e


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def _inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] >= b["x"] - 1 and a["y"] >= b["y"] - 1
            and a["x"] + a["width"] <= b["x"] + b["width"] + 1
            and a["y"] + a["height"] <= b["y"] + b["height"] + 1)


@pytest.mark.parametrize("chart", ["systems_chart", "per_label_chart"])
def test_titles_and_labels_are_whole_and_apart(app_url: str, vpage: Any, st_ui: SimpleNamespace,
                                               chart: str) -> None:
    st_ui.open_page(vpage, app_url, f"scores?b=system_a&{K_SYSTEMS_TAB}="
                    f"{quote_plus(TAB_F1_CHART)}&{K_DETAIL_TAB}={quote_plus(TAB_LABEL_CHART)}")
    root = f".st-key-{chart}"
    plot = vpage.locator(f"{root} .js-plotly-plot")
    plot.wait_for(timeout=60_000)
    st_ui.wait_idle(vpage)
    plot.scroll_into_view_if_needed()
    plot.hover()  # shows plotly's modebar
    vpage.wait_for_timeout(400)
    svg = vpage.locator(f"{root} .main-svg").first.bounding_box()
    title = vpage.locator(f"{root} .gtitle").first.bounding_box()
    legend = vpage.locator(f"{root} .legend").first.bounding_box()
    modebar = vpage.locator(f"{root} .modebar").first.bounding_box()
    assert svg and title and legend and modebar
    assert _inside(title, svg), (title, svg)
    assert not _overlap(title, legend) and not _overlap(title, modebar)
    assert svg["x"] + svg["width"] <= VIEWPORTS[vpage.viewport_name]["width"]
    if chart == "per_label_chart":
        # bugleft27: the bars lie on their side, each label beside its group, so a phone gives
        # every group the chart's height it needs (not ~120 px of width, its name upright)
        ticks = vpage.locator(f"{root} .ytick text")
        assert ticks.count() >= 10
        names = [ticks.nth(i).text_content() or "" for i in range(ticks.count())]
        assert any("Straw Man" in n for n in names), names
        boxes = []
        for i in range(ticks.count()):
            box = ticks.nth(i).bounding_box()
            assert box and _inside(box, svg), (names[i], box, svg)
            assert box["width"] < 0.5 * svg["width"], (names[i], box)  # room for the bars
            boxes.append(box)
        boxes.sort(key=lambda b: b["y"])
        assert all(not _overlap(a, b) for a, b in itertools.pairwise(boxes))
        bars = vpage.locator(f"{root} g.point path")
        heights = [b["height"] for b in (bars.nth(i).bounding_box() for i in range(bars.count()))
                   if b and b["width"] > 0]
        assert heights and min(heights) >= 8, heights  # each bar a readable row
    st_ui.shot(vpage, f"scores_titles_{chart}_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
