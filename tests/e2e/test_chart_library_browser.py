"""Real browser: the charts' library (Streamlit's ``PlotlyChart`` chunk, plotly.js) is imported
after the first page's run when that page draws no chart (:mod:`ui.chart_library`), and the
first chart drawn later takes that same module: the chunk is fetched once, from one URL."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ui import chart_library

pytestmark = pytest.mark.e2e

CHUNKS = ("() => performance.getEntriesByType('resource').map(e => e.name)"
          ".filter(n => n.includes('/PlotlyChart.'))")


def test_plotly_is_loaded_after_a_page_without_charts_and_reused_by_the_first_chart(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    name = chart_library.chunk_name()
    assert name is not None
    st_ui.open_page(page, app_url, "documents")
    page.wait_for_function("() => window.__spanscopeCharts === 'loaded'", timeout=30_000)
    assert page.locator(".js-plotly-plot").count() == 0  # no chart asked for it
    fetched = page.evaluate(CHUNKS)
    assert len(fetched) == 1 and fetched[0].endswith(f"/static/js/{name}")
    page.get_by_test_id("stSidebar").get_by_text("Metric differences", exact=True).click()
    page.locator(".st-key-diff_waterfall .js-plotly-plot .bars .point").first.wait_for(
        timeout=60_000)
    st_ui.wait_idle(page)
    assert page.evaluate(CHUNKS) == fetched  # the chart's module is the one loaded ahead
    assert page.evaluate("() => window.__spanscopeCharts") == "loaded"  # imported once per tab
    assert st_ui.app_errors(page) == []
