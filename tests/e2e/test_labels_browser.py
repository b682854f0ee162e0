"""Real browser, Labels page: click a heatmap cell and see its span pairs, pick a pair and land on
the Documents page, reach a cell from the keyboard selector, deep links choose the view; the
bundled MAFALDA-layout sample shows alternatives and ⊥. Screenshots go to
``test-artifacts/screenshots/labels_*.png``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from core.formats import load_path
from core.metrics import labels as core_labels
from core.model.taxonomy import for_labels
from ui.labels import cell_option, shown

pytestmark = pytest.mark.e2e

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def _confusion(sample: str, gold: str, pred: str, level: int = 2) -> core_labels.LabelMatrix:
    g = load_path(f"{SAMPLES}/{sample}/{gold}").set
    p = load_path(f"{SAMPLES}/{sample}/{pred}").set
    return core_labels.confusion(g, p, level=level,
                                 taxonomy=for_labels([*g.labels(), *p.labels()]))


def _chart(page: Any) -> Any:
    chart = page.get_by_test_id("stVegaLiteChart").first
    chart.locator("path[aria-label]").first.wait_for(timeout=30_000)
    return chart


def _cell(page: Any, column_title: str, column: str, row_title: str, row: str) -> Any:
    """The rect of cell (row, column): Vega labels each mark with its tooltip fields."""
    label = f"{column_title}: {shown(column)}; {row_title}: {shown(row)} ("
    return _chart(page).locator(f'path[aria-label^="{label}"]').first


def _shot(page: Any, st_ui: SimpleNamespace, name: str) -> None:
    page.mouse.move(5, 5)  # no tooltip over the page
    page.wait_for_timeout(300)
    st_ui.shot(page, name)


def _pairs_caption(page: Any, count: int, total: int, listed: int) -> Any:
    return page.get_by_text(f"{count} of {total}").filter(
        has_text=f"{listed} span pair(s) listed").first


def test_click_a_heatmap_cell_and_see_its_span_pairs(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "labels")
    m = _confusion("propaganda", "gold.json", "system_a.json")
    cell = ("Loaded Language", "Name calling/Labeling")
    _cell(page, "predicted label in system_a", cell[1], "gold label in gold", cell[0]).click()
    st_ui.wait_idle(page)
    _pairs_caption(page, m.count(*cell), m.row_totals[cell[0]],
                   len(m.evidence[cell])).wait_for(timeout=30_000)
    assert st_ui.value(page, "Cell (or click") == cell_option(m, cell)
    table = page.get_by_test_id("stDataFrame").last
    table.wait_for(timeout=30_000)
    # The selected cell is framed in the redrawn chart.
    _chart(page)
    _shot(page, st_ui, "labels_cell_clicked")
    assert st_ui.app_errors(page) == []


def test_pick_a_pair_and_land_on_its_document(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "labels?b=system_a")
    m = _confusion("propaganda", "gold.json", "system_a.json")
    cell = ("Loaded Language", "Name calling/Labeling")
    _cell(page, "predicted label in system_a", cell[1], "gold label in gold", cell[0]).click()
    st_ui.wait_idle(page)
    # The second pair: its document is not the Documents page's default (the first one).
    pick = m.evidence[cell][1]
    assert pick.document != m.evidence[cell][0].document
    table = page.get_by_test_id("stDataFrame").last
    table.wait_for(timeout=30_000)
    box = table.bounding_box()
    # The row-selection checkbox of the second row: left column, rows 35 px under the header.
    page.mouse.click(box["x"] + 18, box["y"] + 35 + 35 + 17)
    page.wait_for_url("**/documents**", timeout=30_000)
    page.locator("#left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert f"doc={pick.document}" in page.url
    assert st_ui.value(page, "Document (") == pick.document
    assert st_ui.value(page, "Right (compared)") == "system_a"
    start, end = pick.row[0].interval
    selected = st_ui.value(page, "Select a span")
    assert selected.endswith(f"[{start}, {end}) {pick.row[0].label}"), selected
    # The gold span is drawn selected (bold tag) in the left pane.
    span_id = selected.split(" ")[0]
    # Computed: the Documents page styles its tags by class (highlight.compact_css).
    weight = page.locator(f"#left-doc .ss-tag[data-span='{span_id}']").evaluate(
        "e => getComputedStyle(e).fontWeight")
    assert weight == "800"
    _shot(page, st_ui, "labels_pair_opened_documents")
    # Back returns to the cell chosen, not to "Choose a cell above…" (tour finding).
    page.go_back()
    _pairs_caption(page, m.count(*cell), m.row_totals[cell[0]],
                   len(m.evidence[cell])).wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert "/labels" in page.url and "lcell=" in page.url
    assert st_ui.value(page, "Cell (or click") == cell_option(m, cell)
    assert page.get_by_text("Choose a cell above").count() == 0
    _shot(page, st_ui, "labels_back_keeps_the_cell")
    assert st_ui.app_errors(page) == []


def test_back_after_two_cell_choices_leaves_the_page(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    # A cell choice replaces the page's URL state, as the view's widgets do: Back goes to the
    # page before, not through the cells chosen (each choice used to add a history entry).
    st_ui.open_page(page, app_url, "")
    page.get_by_test_id("stSidebar").get_by_text("Labels", exact=True).click()
    page.wait_for_url("**/labels**", timeout=30_000)
    _chart(page)
    st_ui.wait_idle(page)
    m = _confusion("propaganda", "gold.json", "system_a.json")
    first, second = sorted(m.counts, key=lambda c: (-m.counts[c], c))[:2]
    for cell in (first, second):
        st_ui.choose(page, "Cell (or click", cell_option(m, cell))
        _pairs_caption(page, m.count(*cell), m.row_totals[cell[0]],
                       len(m.evidence[cell])).wait_for(timeout=30_000)
        st_ui.wait_idle(page)
    assert "lcell=" in page.url
    _shot(page, st_ui, "labels_two_cells_chosen")
    page.go_back()
    page.wait_for_url(lambda url: "/labels" not in url, timeout=30_000)
    st_ui.wait_idle(page)
    assert page.get_by_test_id("stVegaLiteChart").count() == 0 or "/labels" not in page.url
    # Forward returns to the page with the last cell chosen.
    page.go_forward()
    page.wait_for_url("**/labels**", timeout=30_000)
    _pairs_caption(page, m.count(*second), m.row_totals[second[0]],
                   len(m.evidence[second])).wait_for(timeout=30_000)
    assert st_ui.value(page, "Cell (or click") == cell_option(m, second)
    assert st_ui.app_errors(page) == []


def test_keyboard_selector_and_deep_linked_cooccurrence_view(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url,
                    "labels?lview=within+reference&lscope=overlap&lvalues=row-normalised")
    _chart(page)
    checked = page.get_by_test_id("stRadio").filter(has_text="Together means").locator(
        "input:checked").first
    assert checked.evaluate("e => e.closest('label').innerText").strip() == "overlap"
    g = load_path(f"{SAMPLES}/propaganda/gold.json").set
    m = core_labels.cooccurrence(g, scope="overlap")
    best = max(m.counts, key=lambda c: (m.counts[c], c))
    st_ui.choose(page, "Cell (or click", cell_option(m, best))
    _pairs_caption(page, m.count(*best), m.row_totals[best[0]],
                   len(m.evidence[best])).wait_for(timeout=30_000)
    # Row-normalised values are printed as percentages in the cells.
    share = round(100 * m.count(*best) / m.row_totals[best[0]])
    assert _chart(page).locator("text", has_text=f"{share}%").count() >= 1
    _shot(page, st_ui, "labels_cooccurrence_overlap")
    # A view change rewrites the URL (bound widgets).
    page.get_by_test_id("stRadio").filter(has_text="Values").get_by_text("counts").click()
    st_ui.wait_idle(page)
    assert "lvalues" not in page.url and "lscope=overlap" in page.url
    assert st_ui.app_errors(page) == []


def test_mafalda_sample_confusion_shows_optional_and_level_groups(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    assert (SAMPLES / "mafalda").is_dir(), "sample_data/mafalda is part of the repository"
    st_ui.open_page(page, app_url, "labels?sample=mafalda")
    _chart(page)
    m = _confusion("mafalda", "gold.jsonl", "system_a.jsonl")
    optional = [c for c in sorted(m.counts) if c[1] == core_labels.OPTIONAL]
    assert optional
    cell = optional[0]
    _cell(page, "predicted label in system_a", cell[1], "gold label in gold", cell[0]).click()
    st_ui.wait_idle(page)
    _pairs_caption(page, m.count(*cell), m.row_totals[cell[0]],
                   len(m.evidence[cell])).wait_for(timeout=30_000)
    _shot(page, st_ui, "labels_mafalda_optional")
    st_ui.choose(page, "Level", "1")
    _chart(page)
    m1 = _confusion("mafalda", "gold.jsonl", "system_a.jsonl", level=1)
    assert "level=1" in page.url
    for row in ("credibility", "emotion", "logic"):
        assert _chart(page).locator(
            f'path[aria-label*="gold label in gold: {row} ({m1.row_totals[row]})"]').count()
    _shot(page, st_ui, "labels_mafalda_level1")
    # Alternatives of one gold span co-occur in the span scope (MAFALDA's Figure 2).
    st_ui.open_page(page, app_url, "labels?sample=mafalda&lview=within+reference")
    _chart(page)
    g = load_path(SAMPLES / "mafalda" / "gold.jsonl").set
    co = core_labels.cooccurrence(g, scope="span")
    best = max(co.counts, key=lambda c: (co.counts[c], c))
    _cell(page, "occurring with", best[1], "label in gold", best[0]).click()
    st_ui.wait_idle(page)
    _pairs_caption(page, co.count(*best), co.row_totals[best[0]],
                   len(co.evidence[best])).wait_for(timeout=30_000)
    _shot(page, st_ui, "labels_mafalda_alternatives")
    assert st_ui.app_errors(page) == []


def test_uploaded_markup_in_labels_stays_text_in_chart_tooltip_and_table(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    st_ui.open_page(page, app_url, "data")
    data = Path(__file__).resolve().parents[1] / "app" / "data"
    page.locator("input[type=file]").set_input_files([str(data / "gold.json"),
                                                      str(data / "system_a.json")])
    page.get_by_text("the uploaded files").first.wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.get_by_test_id("stSidebar").get_by_text("Labels", exact=True).click()
    _chart(page)
    st_ui.wait_idle(page)
    label = "<b>bold</b>"
    cell = _cell(page, "predicted label in system_a", label, "gold label in gold", label)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    tooltip = page.locator("#vg-tooltip-element")
    for _ in range(3):  # Vega shows its tooltip on pointer movement: move off, then onto the cell
        page.mouse.move(5, 5)
        cell.hover()
        try:
            tooltip.wait_for(timeout=10_000)
            break
        except PlaywrightTimeout:
            continue
    assert label in tooltip.inner_text() and tooltip.locator("b").count() == 0
    cell.click()
    st_ui.wait_idle(page)
    page.get_by_test_id("stDataFrame").last.wait_for(timeout=30_000)
    assert st_ui.value(page, "Cell (or click") == f"{label} → {label}"  # the count below it
    assert page.locator("b", has_text="bold").count() == 0
    _shot(page, st_ui, "labels_uploaded_markup")
    assert dialogs == []
    assert st_ui.app_errors(page) == []


def test_the_row_names_stay_in_view_when_a_wide_matrix_scrolls_sideways(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    # On a 390 px phone the matrix is wider than the page and scrolls sideways: the row names
    # are the page's HTML (a chart of their own before the fourteenth pass of issue 29) pinned
    # at the left, so a cell's row stays named; each name stays level with its cells, and the
    # scrolling moves only the cells.
    st_ui.open_page(vpage, app_url, "labels")
    chart = _chart(vpage)
    row = "Loaded Language"
    name = vpage.locator(".st-key-lab_rows .lab-name").filter(has_text=f"{row} (")
    name.first.wait_for(timeout=30_000)
    heat = vpage.locator(".st-key-lab_heat")
    width, room = heat.evaluate("e => [e.scrollWidth, e.clientWidth]")
    if vpage.viewport_name == "phone":
        assert width > room  # the phone is the case that scrolls
    heat.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    vpage.wait_for_timeout(300)
    box, frame = name.first.bounding_box(), heat.bounding_box()
    assert box is not None and frame is not None
    assert frame["x"] - 1 <= box["x"] and box["x"] + box["width"] <= frame["x"] + room + 1
    # the row's right-most cell, scrolled into view, is level with the row's name
    cells = chart.locator(f'path[aria-label*="gold label in gold: {row} ("]')
    boxes = [b for b in (cells.nth(k).bounding_box() for k in range(cells.count())) if b]
    cell_box = max(boxes, key=lambda b: b["x"])
    assert cell_box["x"] >= box["x"] + box["width"]  # right of the names, not under them
    centre = cell_box["y"] + cell_box["height"] / 2
    assert abs(centre - (box["y"] + box["height"] / 2)) < 4
    _shot(vpage, st_ui, f"labels_pinned_rows_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


INK_FILLS = """els => els.filter(e => e.textContent.trim()
    && ['#2f2d2b', '#edebe8'].includes((e.getAttribute('fill') || '').toLowerCase()))
    .map(e => getComputedStyle(e).fill)"""
"""The computed fill of the heatmap's text drawn in the theme's ink (the column names that are
no outcome; ``ui.theme.LIGHT_INK`` or ``DARK_INK`` as the spec says)."""


def test_the_heatmap_names_follow_the_browser_theme_whatever_the_spec_says(
    app_url: str, browser: Any, st_ui: SimpleNamespace
) -> None:
    """The spec takes the ink of the theme the server knows (:func:`ui.theme.theme_ink`): a
    browser that turns dark after the page is drawn (the system's theme, or Streamlit's
    settings menu; no rerun follows) kept the column names near-black on the dark background,
    as a first frame drawn before the server knows the theme would. The theme's own style
    (:data:`ui.theme.CHART_INK_CSS`) draws the ink in the theme shown."""
    with st_ui.session(browser, {"width": 1440, "height": 900}, color_scheme="light") as page:
        st_ui.open_page(page, app_url, "labels")
        texts = ".st-key-lab_chart .vega-embed svg text"
        page.locator(texts).first.wait_for(timeout=60_000)
        light = page.eval_on_selector_all(texts, INK_FILLS)
        assert light and set(light) == {"rgb(47, 45, 43)"}, light  # LIGHT_INK
        page.emulate_media(color_scheme="dark")
        page.wait_for_function(
            "() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]'))"
            ".colorScheme.includes('dark')", timeout=15_000)
        dark = page.eval_on_selector_all(texts, INK_FILLS)
        assert dark and set(dark) == {"rgb(237, 235, 232)"}, dark  # DARK_INK, #edebe8
        # the outcome column's name keeps its orange, the cells' numbers their own colours
        kept = page.eval_on_selector_all(
            texts, "els => els.filter(e => e.textContent.trim() === 'missed')"
            ".map(e => getComputedStyle(e).fill)")
        assert kept == ["rgb(213, 94, 0)"], kept
        page.locator(".st-key-lab_chart").scroll_into_view_if_needed()
        _shot(page, st_ui, "labels_dark_after_switch")
