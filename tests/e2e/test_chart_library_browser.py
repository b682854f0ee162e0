"""Real browser: the charts' libraries (Streamlit's ``PlotlyChart`` chunk, plotly.js, and
Vega-Lite's ``embed``) are imported after the first page's run when that page draws no chart
(:mod:`ui.chart_library`), and the first charts drawn later take those same modules: each chunk
is fetched once, from one URL."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ui import chart_library

pytestmark = pytest.mark.e2e

CHUNKS = ("() => performance.getEntriesByType('resource').map(e => e.name)"
          ".filter(n => n.includes('/PlotlyChart.') || n.includes('/embed.'))")


def test_the_libraries_are_loaded_after_a_page_without_charts_and_reused_by_the_charts(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    names = [chart_library.chunk_name(stem=s) for s in ("PlotlyChart", "embed")]
    assert None not in names
    st_ui.open_page(page, app_url, "documents")
    page.wait_for_function("() => window.__spanscopeCharts === 'loaded'", timeout=30_000)
    assert page.locator(".js-plotly-plot, .vega-embed").count() == 0  # no chart asked for it
    fetched = page.evaluate(CHUNKS)
    assert sorted(f.rsplit("/", 1)[1] for f in fetched) == sorted(names)
    assert all("/static/js/" in f for f in fetched)
    # The waterfall (Vega-Lite) and the scatter (Plotly): neither fetches its library again.
    page.get_by_test_id("stSidebar").get_by_text("Metric differences", exact=True).click()
    page.locator(".st-key-diff_waterfall .vega-embed svg").first.wait_for(timeout=60_000)
    page.locator(".st-key-diff_scatter .js-plotly-plot").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert page.evaluate(CHUNKS) == fetched  # the charts' modules are the ones loaded ahead
    assert page.evaluate("() => window.__spanscopeCharts") == "loaded"  # imported once per tab
    assert st_ui.app_errors(page) == []


# The grid's script (its style sheet comes with the first grid drawn)
GRID = ("() => performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/static/js/DataFrame.'))")


def test_the_grid_is_loaded_on_a_page_without_one_and_reused_by_the_first_grid(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """The Errors page draws no data grid since its category table is HTML (issue 29,
    seventeenth pass): the grid's chunk is preloaded there, fetched ahead with plotly.js and
    evaluated before it (nineteenth pass: the Documents page's first screen needs the grid, no
    chart), and the Documents page's list that an Errors link opens takes that same module."""
    name = chart_library.chunk_name(stem="DataFrame")
    assert name is not None
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    page.locator(".st-key-err_table .ss-page-table").wait_for(timeout=60_000)
    page.wait_for_function("() => window.__spanscopeCharts === 'loaded'", timeout=30_000)
    assert page.locator("[data-testid='stDataFrame']").count() == 0  # no grid asked for it
    fetched = page.evaluate(GRID)
    assert [f.rsplit("/", 1)[1] for f in fetched] == [name]
    # Fetched ahead by the preload's module preload links (evaluated later, when quiet), once:
    # the module the import evaluates is the one the link fetched.
    linked = page.evaluate("() => [...document.querySelectorAll('link[rel=modulepreload]')]"
                           ".map((l) => l.href.split('/').pop())")
    assert {*chart_library.chunk_names(),  # among Vite's own links of Streamlit's chunks
            *chart_library.chunk_names(stems=chart_library.FIRST)} <= set(linked)
    page.locator("[class*='st-key-err_open_system_a_'] button").first.click()
    page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/documents" in page.url
    assert page.evaluate(GRID) == fetched  # the list's grid is the module loaded ahead
    assert st_ui.app_errors(page) == []


# The Documents page's element chunks and the grid's style sheet (issue 29, eighteenth pass)
AHEAD = ("(stems) => performance.getEntriesByType('resource').map(e => e.name)"
         ".filter(n => stems.some(s => n.includes('/static/js/' + s + '.')"
         " || n.includes('/static/css/' + s + '.')))")


def test_the_documents_elements_and_the_grids_style_sheet_come_ahead_and_are_reused(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """On the Errors page, which draws none of them, the preload fetches the Documents page's
    element chunks and links the grid's style sheet; the Documents page that a category's link
    opens draws its radio, search, list (a grid) and highlights with those same
    modules and that sheet: nothing fetched twice, the sheet linked once."""
    stems = [*chart_library.ELEMENTS, *chart_library.STYLES]
    names = sorted([*chart_library.chunk_names(stems=chart_library.ELEMENTS),
                    chart_library.chunk_name(stem="DataFrame"),
                    *chart_library.chunk_names(stems=chart_library.STYLES, ext="css")])
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    page.locator(".st-key-err_table .ss-page-table").wait_for(timeout=60_000)
    page.wait_for_function("() => window.__spanscopeCharts === 'loaded'", timeout=30_000)
    assert page.locator("[data-testid='stRadio'], [data-testid='stTextInput']").count() == 0
    fetched = page.evaluate(AHEAD, stems)
    assert sorted(f.rsplit("/", 1)[1] for f in fetched) == names
    page.locator("[class*='st-key-err_open_system_a_'] button").first.click()
    page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=60_000)
    page.locator("[data-testid='stRadio']").first.wait_for(timeout=60_000)
    page.locator("[data-testid='stTextInput']").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/documents" in page.url
    assert page.evaluate(AHEAD, stems) == fetched  # the page took the modules loaded ahead
    sheet = chart_library.chunk_names(stems=chart_library.STYLES, ext="css")[0]
    assert page.evaluate("(n) => [...document.querySelectorAll('link[rel=stylesheet]')]"
                         ".filter(l => l.href.endsWith('/' + n)).length", sheet) == 1
    assert st_ui.app_errors(page) == []


def test_the_preloads_order_follows_the_page_the_tab_opened_on(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """Issue 29, twentieth pass: on Errors (whose links open the Documents page's first
    screen, no chart) the first screen's modules come first, plotly.js after them; on Overview
    (no chart, chart pages one click away) and on Documents (its first screen drawn already)
    plotly.js first; Vega-Lite's chunks last, in order, on every page; each step once."""
    vega = ["embed", "vega-interpreter", "ArrowVegaLiteChart"]
    for path, order in (("errors?sample=propaganda", ["first screen", "PlotlyChart", *vega]),
                        ("", ["PlotlyChart", "first screen", *vega]),
                        ("documents?sample=propaganda", ["PlotlyChart", "first screen", *vega])):
        st_ui.open_page(page, app_url, path)
        page.wait_for_function("() => window.__spanscopeCharts === 'loaded'", timeout=30_000)
        assert page.evaluate("() => window.__spanscopeOrder") == order, path
        assert page.evaluate("() => window.__spanscopeDone") == order, path
        assert page.locator(".js-plotly-plot, .vega-embed").count() == 0  # nothing drawn
    assert st_ui.app_errors(page) == []
