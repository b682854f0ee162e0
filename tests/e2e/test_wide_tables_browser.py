"""Markdown tables wider than the page: every column is seen, or scrolled to under a scrollbar
one can see (bugleft20: the Overview's scores table ran past its column at 1440×900, its last
columns cut at the edge, and Streamlit draws every scrollbar of the page transparent)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

TABLE = ".st-key-home_overview table"

_MEASURE = """(s) => { const t = document.querySelector(s);
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const pad = parseFloat(getComputedStyle(main).paddingRight);
  return {scroll: t.scrollWidth, client: t.clientWidth, right: t.getBoundingClientRect().right,
          column: main.getBoundingClientRect().right - pad,
          colours: getComputedStyle(t).scrollbarColor}; }"""


def _alphas(colours: str) -> list[float]:
    """The opacity of each colour of a computed ``scrollbar-color`` (``auto``: none)."""
    found = re.findall(r"rgba?\(([^)]*)\)", colours)
    return [float(parts[3]) if len(parts) == 4 else 1.0
            for parts in (p.split(",") for p in found)]


def test_the_overview_scores_table_fits_at_1440_and_scrolls_visibly_when_narrower(
        app_url: str, browser: Any, st_ui: SimpleNamespace) -> None:
    with st_ui.session(browser, {"width": 1440, "height": 900}) as page:
        st_ui.open_page(page, app_url)
        page.locator(TABLE).wait_for()
        wide = page.evaluate(_MEASURE, TABLE)
        st_ui.shot(page, "overview-table-1440")
    assert wide["scroll"] <= wide["client"] + 1, wide  # every column in the table's box
    assert wide["right"] <= wide["column"] + 1, wide  # and the box in the page's column
    with st_ui.session(browser, {"width": 1000, "height": 900}) as page:
        st_ui.open_page(page, app_url)
        page.locator(TABLE).wait_for()
        narrow = page.evaluate(_MEASURE, TABLE)
    assert narrow["scroll"] > narrow["client"] + 1, narrow  # it scrolls here ...
    thumb, track = _alphas(narrow["colours"])
    assert thumb >= 0.5 and track > 0, narrow  # ... under a scrollbar drawn, not transparent


_GRID = """(d) => { const s = d.querySelector('.dvn-scroller');
  return {scroll: s.scrollWidth, client: s.clientWidth,
          colours: getComputedStyle(s).scrollbarColor}; }"""


def _grid_pins_its_first_columns(page: Any, grid: Any, pinned_px: int, name: str) -> dict:
    """Scroll ``grid`` to its right end: the leftmost ``pinned_px`` pixels (the pinned
    columns) are drawn the same, the rest not; the grid's measures."""
    grid.scroll_into_view_if_needed()
    page.mouse.move(1, 1)  # no hover: Streamlit draws a scrollbar while the pointer is over it
    got = grid.evaluate(_GRID)
    box = grid.bounding_box()
    left = {"x": box["x"] + 2, "y": box["y"] + 2, "width": pinned_px - 4, "height": 60}
    right = {"x": box["x"] + box["width"] - 150, "y": box["y"] + 2, "width": 140, "height": 60}
    before = page.screenshot(clip=left), page.screenshot(clip=right)
    grid.evaluate("d => { const s = d.querySelector('.dvn-scroller'); s.scrollLeft = "
                  "s.scrollWidth; }")
    page.wait_for_timeout(500)
    after = page.screenshot(clip=left), page.screenshot(clip=right)
    from tests.e2e.conftest import shot

    shot(page, name)
    got["pinned_same"], got["rest_same"] = before[0] == after[0], before[1] == after[1]
    return got


def test_the_scores_systems_grid_and_learns_scores_scroll_visibly_under_pinned_columns(
        app_url: str, browser: Any, st_ui: SimpleNamespace) -> None:
    # bugleft21: both grids ran past their column at 1440 px, their scrollbar transparent
    # until hovered, and scrolled their names out of sight
    with st_ui.session(browser, {"width": 1440, "height": 900}) as page:
        st_ui.open_page(page, app_url, "scores")
        grid = page.get_by_test_id("stDataFrame").first  # the systems, with intervals
        grid.wait_for()
        systems = _grid_pins_its_first_columns(page, grid, 70, "scores-systems-grid-1440")
        st_ui.open_page(page, app_url, "learn")
        page.get_by_role("heading", name="📏 Scores").wait_for()
        grid = page.get_by_test_id("stDataFrame").nth(1)  # after the scenario's spans
        grid.wait_for()
        learn = _grid_pins_its_first_columns(page, grid, 200, "learn-scores-grid-1440")
        assert st_ui.app_errors(page) == []
    for got in (systems, learn):
        assert got["scroll"] > got["client"] + 1, got  # wider than the page: it scrolls ...
        thumb, track = _alphas(got["colours"])
        assert thumb >= 0.5 and track > 0, got  # ... under a scrollbar drawn unhovered
        assert got["pinned_same"] and not got["rest_same"], got  # the names stay in sight
