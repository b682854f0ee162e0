"""Real browser, Annotators page: the matrix and the many-annotator values render, the measure
can be changed (and the URL follows), a document is drawn with one lane per annotator, γ finishes
in the background and shows its seed and sample count, a ranking row leads to the Documents
page; no console errors. Screenshots go to ``test-artifacts/screenshots/annotators_*.png``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ui.annotators import TABS

pytestmark = pytest.mark.e2e


def _settle(page: Any, timeout: float = 120_000) -> None:
    """Wait until the script is not running (``stApp``'s ``data-test-script-state``): sturdier
    than the status widget, which the minimal toolbar does not always show."""
    page.wait_for_function(
        "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
        " return a && a.dataset.testScriptState !== 'running'; }", timeout=timeout)


def _choose(page: Any, st_ui: SimpleNamespace, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox ``label``. Charts below that finish drawing late move
    the page, which closes an open dropdown: open it again if the option did not show."""
    _settle(page)
    box = st_ui.selectbox(page, label)
    for attempt in range(4):
        box.click()
        target = page.get_by_role("option").get_by_text(option, exact=True).first
        try:
            target.wait_for(timeout=5_000)
            target.click()
            break
        except Exception:
            if attempt == 3:
                raise
            page.keyboard.press("Escape")
    st_ui.wait_idle(page)
    _settle(page)


def _open(page: Any, app_url: str, st_ui: SimpleNamespace, query: str = "",
          *, settle: bool = True) -> None:
    """Open the page; with ``settle``, wait until the background γ is shown too (its end reruns
    the page, which would close a dropdown opened meanwhile)."""
    st_ui.open_page(page, app_url, f"annotators{query}")
    page.get_by_role("heading", name="👥 Annotators").wait_for(timeout=60_000)
    page.locator(".st-key-ann_matrix table").first.wait_for(timeout=60_000)
    if settle:
        page.get_by_text("samples · seed").first.wait_for(timeout=180_000)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stProgress\"]')", timeout=180_000)
    st_ui.wait_idle(page)
    _settle(page)


def _tab(page: Any, st_ui: SimpleNamespace, name: str) -> None:
    """Open the tab whose label contains ``name`` (lazy tabs: it is drawn once open). A click
    that lands while the page reruns (a background job ending) can be undone by that run:
    click again until the tab stays selected."""
    tab = page.get_by_role("tab").filter(has_text=name).first
    for _ in range(4):
        tab.click()
        st_ui.wait_idle(page)
        _settle(page)
        if tab.get_attribute("aria-selected") == "true":
            return
    raise AssertionError(f"the tab {name!r} did not open")


def _text_of(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.inner_text())


def test_matrix_and_many_annotator_values_render(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui)
    assert page.get_by_test_id("stException").count() == 0
    # The matrix is a table (tenth pass): its caption, every annotator as a row and a column
    # header, a value or a mark in every cell.
    matrix = page.locator(".st-key-ann_matrix table").first
    assert "char-kappa, every pair" in matrix.locator("caption").inner_text()
    names = ["annotator_1", "annotator_2", "annotator_3"]
    # the empty corner is a data cell, not a header (axe-core: no empty header)
    assert [h.strip() for h in matrix.locator("th[scope=col]").all_inner_texts()] == names
    assert matrix.locator("thead tr > :first-child").evaluate("e => e.tagName") == "TD"
    assert [h.strip() for h in matrix.locator("th[scope=row]").all_inner_texts()] == names
    assert all(t.strip() for t in matrix.locator("tbody td").all_inner_texts())
    tiles = page.locator(".ann-tile")
    assert tiles.count() == 5
    assert "Fleiss' κ" in tiles.first.inner_text()
    # A tile's help opens in place, from the keyboard too.
    tiles.first.locator("summary").focus()
    page.keyboard.press("Enter")
    assert "Fleiss' κ (1971)" in tiles.first.locator("details").inner_text()
    # Lazy tabs: the first answers who agrees with whom; the others are drawn when opened;
    # the matrix's chart waits in its closed expander.
    assert [t.strip() for t in page.get_by_role("tab").all_inner_texts()] == list(TABS)
    assert page.locator(".js-plotly-plot").count() == 0
    st_ui.shot(page, "annotators_overview")
    page.get_by_text("The matrix as a chart").click()
    page.locator(".st-key-ann_matrix_chart .js-plotly-plot").wait_for(timeout=60_000)
    assert "char-kappa, every pair" in _text_of(page, ".st-key-ann_matrix_chart .js-plotly-plot")
    _tab(page, st_ui, "Against the gold")
    page.get_by_text("char-kappa of each annotator").wait_for(timeout=30_000)
    assert page.locator(".ann-tile").count() == 0
    st_ui.shot(page, "annotators_against")
    assert st_ui.app_errors(page) == []


def test_changing_the_measure_redraws_the_matrix_and_updates_the_url(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui)
    _choose(page, st_ui, "Measure", "span-f1")
    page.get_by_text("span-f1 (F1), every pair").wait_for(timeout=60_000)
    assert "ann_measure=span-f1" in page.url
    assert page.get_by_text("Row = reference").count() == 1
    # Show recall: the cells change and the URL carries it.
    page.get_by_test_id("stRadio").filter(has_text="Cells show").get_by_text(
        "recall", exact=True).click()
    _settle(page)
    page.get_by_text("span-f1 (recall), every pair").wait_for(timeout=60_000)
    assert "ann_cell=recall" in page.url
    st_ui.shot(page, "annotators_span_f1_recall")
    assert st_ui.app_errors(page) == []


def test_a_document_is_drawn_with_one_lane_per_annotator(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui)
    _tab(page, st_ui, "Documents by disagreement")
    _choose(page, st_ui, "Document (", "4")
    assert "ann_doc=4" in page.url
    lanes = page.locator("[id^='lane-']")
    lanes.last.wait_for(timeout=30_000)
    ids = [lanes.nth(i).get_attribute("id") for i in range(lanes.count())]
    assert ids == ["lane-gold", "lane-0", "lane-1", "lane-2", "lane-majority"]
    for dom_id in ids:
        assert page.locator(f"#{dom_id} .ss-seg").count() >= 1, dom_id
    for name in ("annotator_1", "annotator_2", "annotator_3", "majority"):
        assert page.get_by_text(name, exact=True).count() >= 1
    page.locator("#lane-gold").scroll_into_view_if_needed()
    st_ui.shot(page, "annotators_lanes")
    page.get_by_text("γ alignment of document 4").evaluate(
        "e => e.scrollIntoView({block: 'start'})")
    st_ui.shot(page, "annotators_alignment")
    assert st_ui.app_errors(page) == []


def test_gamma_finishes_in_the_background_and_shows_seed_and_samples(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui, "?ann_measure=gamma&ann_seed=2&ann_samples=12", settle=False)
    assert st_ui.value(page, "Measure") == "gamma"
    # The page is usable while γ runs: its tabs open (the lanes are drawn).
    page.get_by_role("tab").filter(has_text="Documents by disagreement").first.click()
    page.locator("#lane-majority").wait_for(timeout=60_000)
    page.get_by_role("tab").filter(has_text="Who agrees with whom").first.click()
    page.get_by_text("12 samples · seed 2").first.wait_for(timeout=180_000)
    page.get_by_text("gamma (12 samples, seed 2), every pair").wait_for(timeout=180_000)
    st_ui.wait_idle(page)
    assert page.get_by_test_id("stProgress").count() == 0
    gamma = page.locator('.ann-tile:has(dt:text-is("γ"))').inner_text()
    assert "…" not in gamma
    page.get_by_role("heading", name="All 3 sets together").scroll_into_view_if_needed()
    st_ui.shot(page, "annotators_gamma")
    assert st_ui.app_errors(page) == []


def test_the_page_stays_usable_while_gamma_runs(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui)  # a warm server: the script itself takes well under a second
    _open(page, app_url, st_ui, "?ann_seed=5&ann_samples=1000", settle=False)
    progress = page.get_by_test_id("stProgress")
    progress.first.wait_for(timeout=60_000)
    assert "γ of 3 annotators, 1000 samples, seed 5" in progress.first.inner_text()
    # Everything else is there meanwhile, and answers: pick a document.
    assert page.locator(".ann-tile dt").filter(has_text="Fleiss").count() == 1
    _settle(page)
    page.get_by_role("heading", name="All 3 sets together").evaluate(
        "e => e.scrollIntoView({block: 'start'})")
    st_ui.shot(page, "annotators_gamma_progress")
    _tab(page, st_ui, "Documents by disagreement")
    _choose(page, st_ui, "Document (", "2")
    assert page.locator("#lane-majority").count() == 1
    _tab(page, st_ui, "Who agrees with whom")
    page.get_by_text("1000 samples · seed 5").first.wait_for(timeout=300_000)
    assert page.get_by_test_id("stProgress").count() == 0
    assert st_ui.app_errors(page) == []


def test_a_ranking_row_opens_the_document_on_the_documents_page(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui)
    _tab(page, st_ui, "Documents by disagreement")
    assert "ann_tab=" in page.url  # the URL carries the open tab
    table = page.get_by_test_id("stDataFrame").filter(has_text="least agreeing pair").first
    table.scroll_into_view_if_needed()
    table.wait_for(timeout=30_000)
    box = table.bounding_box()
    # The grid is a canvas: click the selection cell of the first row (header ≈ 35 px high).
    page.mouse.click(box["x"] + 14, box["y"] + 35 + 17)
    _settle(page)
    link = page.get_by_role("link", name="on the Documents page")
    link.wait_for(timeout=30_000)
    label = link.inner_text()
    doc = label.split("Open ", 1)[1].split(" on the Documents page")[0]
    assert st_ui.value(page, "Document (") == doc
    st_ui.shot(page, "annotators_ranking_row_picked")
    link.click()
    page.locator("#left-doc").wait_for(timeout=60_000)
    _settle(page)
    assert f"doc={doc}" in page.url
    assert st_ui.value(page, "Document (") == doc
    pair = label.split(": ", 1)[1].split(" vs ")
    assert st_ui.value(page, "Left (reference)") == pair[0].strip()
    assert st_ui.value(page, "Right (compared)") == pair[1].strip()
    st_ui.shot(page, "annotators_to_documents")
    assert st_ui.app_errors(page) == []


@pytest.mark.parametrize("size", [{"width": 853, "height": 480}, {"width": 1280, "height": 720}])
def test_no_label_of_the_menus_is_cut(app_url: str, page: Any, st_ui: SimpleNamespace,
                                      size: dict[str, int]) -> None:
    """Tour 17: in a 1280 × 720 window (and at 150 % zoom, 853 CSS px) the toggle in the fourth
    column of the menus showed "Leave-one-out majo…" (at 150 %: "Leave-…"): a lead projecting the
    page could not read what it switches. Every label of the page's menus shows whole."""
    page.set_viewport_size(size)
    st_ui.open_page(page, app_url, "annotators")
    page.get_by_role("switch", name="Leave-one-out majority").wait_for(timeout=60_000)
    _settle(page)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] label,'
                  + ' [data-testid="stMain"] [data-testid="stWidgetLabel"] *')]
              .filter(e => e.scrollWidth > e.clientWidth + 1)
              .map(e => e.innerText)""")
    assert cut == []
    assert st_ui.app_errors(page) == []
