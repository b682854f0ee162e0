"""Real browser: the Errors page draws its charts, one tab at a time, and clicking a category's
bar segment or its link under the category table (or Enter on the link) opens the Documents page
filtered to the documents behind it, with the spans' categories marked."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote_plus

import pytest

from core.analysis.errors import CATEGORIES, categorise
from core.formats import ReadOptions, load_path
from ui.errors import K_ERR_TAB, TABS

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"


def test_clicking_a_category_opens_documents_filtered_to_it(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    page.locator(".st-key-err_table .ss-page-table").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    st_ui.shot(page, "page_errors")
    chart = page.locator(".st-key-err_chart .js-plotly-plot")
    assert not chart.count()  # the category chart has its own tab
    # Lazy tabs: each draws its own chart when opened; the categories' tab is the first.
    for tab, drawn in ((TABS[2], "err_label_chart"), (TABS[4], "err_slice_chart")):
        st_ui.click(page, page.get_by_role("tab", name=tab),
                    page.locator(f".st-key-{drawn} .js-plotly-plot"), timeout=60_000)
        st_ui.wait_idle(page)
        assert not chart.count()
    st_ui.shot(page, "page_errors_slices")
    st_ui.click(page, page.get_by_role("tab", name=TABS[1]), chart, timeout=60_000)
    st_ui.wait_idle(page)
    assert st_ui.app_errors(page) == []
    # The traces are the categories in order; the first bar of "missed" is system_a's reference.
    trace = chart.locator(".barlayer .trace").nth(CATEGORIES.index("missed"))
    bar = trace.locator(".point path").first
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.locator("#left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/documents" in page.url and "ecat=missed" in page.url
    assert st_ui.value(page, "Error category") == "missed"
    gold = load_path(SAMPLE / "gold.json").set
    pred = load_path(SAMPLE / "system_a.json", options=ReadOptions(role="system")).set
    expected = categorise(gold, pred).documents_with(category="missed")
    assert st_ui.value(page, "Document") in expected
    # The missed spans are marked on the reference text.
    assert page.locator('#left-doc .ss-cat[data-category="missed"]').count() >= 1
    st_ui.shot(page, "page_documents_filtered_missed")
    assert st_ui.app_errors(page) == []


def category_link(page: Any, category: str, system: str = "system_a") -> Any:
    """The link button under the category table that opens ``system``'s documents holding
    ``category`` (its label: the category, then how many documents in brackets)."""
    import re

    return page.locator(f"[class*='st-key-err_open_{system}_']").filter(
        has_text=re.compile(f"^{re.escape(category)} \\(")).locator("button").first


@pytest.mark.parametrize("how", ["mouse", "keyboard"])
def test_a_categorys_link_under_the_table_opens_documents_filtered_to_it(
    app_url: str, page: Any, st_ui: SimpleNamespace, how: str
) -> None:
    # Issue 29, seventeenth pass: the category table is plain HTML (no grid, no row
    # selection); its rows' categories open from the links under it, clicked or reached with
    # Tab from the table and pressed with Enter. The callback switches pages before the run
    # draws anything of the Errors page.
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    table = page.locator(".st-key-err_table .ss-page-table")
    table.wait_for(timeout=60_000)
    assert not page.locator(".st-key-err_table [data-testid='stDataFrame']").count()
    rows = table.locator("tbody tr")
    assert rows.count() == 2 * len(CATEGORIES)  # system_a's rows, then system_b's
    assert rows.nth(CATEGORIES.index("boundary+label")).locator("td").nth(1).inner_text() \
        == "boundary+label"
    link = category_link(page, "boundary+label")
    if how == "mouse":
        link.click()
    else:
        table.focus()
        for _ in range(40):  # the table, its downloads, then the links in page order
            page.keyboard.press("Tab")
            if link.evaluate("b => b === document.activeElement"):
                break
        else:
            raise AssertionError("Tab never reached the link")
        page.keyboard.press("Enter")
    page.locator("#left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/documents" in page.url and "ecat=boundary%2Blabel" in page.url
    assert st_ui.value(page, "Error category") == "boundary+label"
    gold = load_path(SAMPLE / "gold.json").set
    pred = load_path(SAMPLE / "system_a.json", options=ReadOptions(role="system")).set
    expected = categorise(gold, pred).documents_with(category="boundary+label")
    assert expected and st_ui.value(page, "Document") in expected
    st_ui.shot(page, f"errors_{how}_opened_documents")
    assert st_ui.app_errors(page) == []


def test_the_chart_camera_downloads_png_or_svg_drawn_by_the_browser(
    app_url: str, page: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    # Issue 29: the image is Plotly's own export in the browser (no Kaleido on the server);
    # the control above the chart picks PNG or SVG for the modebar's camera.
    st_ui.open_page(page, app_url, f"errors?sample=propaganda&{K_ERR_TAB}={quote_plus(TABS[1])}")
    holder = page.locator(".st-key-err_chart")
    holder.locator(".js-plotly-plot").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    files = {}
    for fmt in ("PNG", "SVG"):
        page.locator(".st-key-dl_err_chart").get_by_role("radio", name=fmt).click()
        st_ui.wait_idle(page)
        holder.hover()
        camera = holder.locator(".modebar-btn[data-title^='Download plot']")
        with page.expect_download(timeout=30_000) as info:
            camera.click()
        target = tmp_path / info.value.suggested_filename
        info.value.save_as(target)
        files[fmt] = target
    assert files["PNG"].name == "error_categories.png"
    assert files["PNG"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert files["SVG"].name == "error_categories.svg"
    svg_text = files["SVG"].read_text(encoding="utf-8")
    assert svg_text.startswith("<svg") and "missed" in svg_text
    st_ui.shot(page, "errors_chart_image")
    assert st_ui.app_errors(page) == []


INK_STROKES = """els => els.filter(e => /stroke: rgb\\((47, 45, 43|237, 235, 232)\\)/
    .test(e.getAttribute('style') || '')).map(e => getComputedStyle(e).stroke)"""
"""The computed stroke of the slice chart's marks drawn in the theme's ink (its whiskers and
its bars' outlines; ``ui.theme.LIGHT_INK`` or ``DARK_INK`` as the figure says)."""


def test_the_slice_charts_whiskers_follow_the_browser_theme(
    app_url: str, browser: Any, st_ui: SimpleNamespace
) -> None:
    """The slice chart draws its whiskers in :func:`ui.theme.theme_ink`, the ink of the theme
    the server knows: a browser that turned dark after the chart was drawn (no rerun follows)
    kept them near-black on the dark background; :data:`ui.theme.CHART_INK_CSS` draws them in
    the ink of the theme shown."""
    with st_ui.session(browser, {"width": 1440, "height": 900}, color_scheme="light") as page:
        st_ui.open_page(page, app_url,
                        f"errors?sample=propaganda&{K_ERR_TAB}={quote_plus(TABS[4])}")
        chart = ".st-key-err_slice_chart .js-plotly-plot"
        page.locator(chart + " g.errorbar path").first.wait_for(timeout=60_000)
        light = page.eval_on_selector_all(chart + " path", INK_STROKES)
        assert light and set(light) == {"rgb(47, 45, 43)"}, light  # LIGHT_INK
        page.emulate_media(color_scheme="dark")
        page.wait_for_function(
            "() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]'))"
            ".colorScheme.includes('dark')", timeout=15_000)
        dark = page.eval_on_selector_all(chart + " path", INK_STROKES)
        assert dark and set(dark) == {"rgb(237, 235, 232)"}, dark  # DARK_INK
        page.locator(chart).scroll_into_view_if_needed()
        st_ui.shot(page, "errors_slices_dark_after_switch")


_CUT = "e => [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)"


@pytest.mark.parametrize("path", ["errors?edim=label", "scores"])
def test_the_bootstrap_inputs_read_bootstrap_resamples_and_seed_whole_and_level(
        browser: Any, app_url: str, st_ui: Any, path: str) -> None:
    # bugleft21: "Seed" (both pages) and "Resamples" (Errors) did not say they were the
    # bootstrap's; on Errors the longer label must not wrap and push its input down
    with st_ui.session(browser, {"width": 1440, "height": 900}) as page:
        st_ui.open_page(page, app_url, path)
        seed = page.get_by_test_id("stNumberInput").filter(has_text="Bootstrap seed").first
        seed.wait_for(timeout=60_000)
        seed.scroll_into_view_if_needed()
        resamples = page.get_by_test_id("stNumberInput").filter(
            has_text="Bootstrap resamples").first
        for box in (seed, resamples):
            label = box.get_by_test_id("stWidgetLabel")
            assert not label.evaluate(_CUT), label.inner_text()
        tops = [b.locator("input").bounding_box()["y"] for b in (resamples, seed)]
        assert abs(tops[0] - tops[1]) <= 1, tops  # side by side, level
        assert page.get_by_test_id("stNumberInput").filter(
            has_text=re.compile(r"^(Seed|Resamples)\b")).count() == 0
        st_ui.shot(page, f"bootstrap_inputs_{path.split('?')[0]}")
        assert st_ui.app_errors(page) == []
