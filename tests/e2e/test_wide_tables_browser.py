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
