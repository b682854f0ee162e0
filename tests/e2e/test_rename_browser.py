"""Real browser: a set renamed on the Data page carries its new name to the Annotators page
(issue 26, §5), in the matrix and in the set picker; no console errors. Screenshots go to
``test-artifacts/screenshots/rename_*.png``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def _pick(page: Any, box: Any, option: str) -> None:
    """Pick ``option`` in ``box``. The chart above that finishes drawing late moves the page,
    which closes an open dropdown: open it again if the option did not show."""
    for attempt in range(4):
        box.scroll_into_view_if_needed()
        box.click()
        target = page.get_by_role("option").get_by_text(option, exact=True).first
        try:
            target.wait_for(timeout=5_000)
            target.click()
            return
        except Exception:
            if attempt == 3:
                raise
            page.keyboard.press("Escape")


def test_a_set_renamed_on_the_data_page_shows_its_new_name_on_the_annotators_page(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "data")
    page.get_by_role("heading", name="📂 Data").wait_for(timeout=60_000)
    page.get_by_text("✏️ Rename a set").click()
    picker = page.get_by_test_id("stSelectbox").filter(
        has=page.get_by_text("Set", exact=True)).first
    _pick(page, picker, "annotator_1")
    st_ui.wait_idle(page)
    box = page.get_by_label("New name")
    box.fill("Aparna D.")
    box.press("Enter")  # the text box keeps its value once committed
    st_ui.wait_idle(page)
    page.get_by_role("button", name="Rename", exact=True).click()
    st_ui.wait_idle(page)
    page.get_by_text("Renamed: annotator_1 → Aparna D.").wait_for(timeout=30_000)
    st_ui.shot(page, "rename_data_page")
    # the sidebar keeps the session (a new URL would start another one)
    page.get_by_test_id("stSidebar").get_by_text("Annotators").click()
    page.get_by_role("heading", name="👥 Annotators").wait_for(timeout=60_000)
    # The pairwise matrix is an HTML table (issue 29, tenth pass), the chart in an expander.
    page.locator(".st-key-ann_matrix table").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    picker = page.get_by_test_id("stMultiSelect").first
    assert "Aparna D." in picker.inner_text()
    matrix = str(page.locator(".st-key-ann_matrix table").first.inner_text())
    assert matrix.count("Aparna D.") >= 2 and "annotator_1" not in matrix
    st_ui.shot(page, "rename_annotators_page")
    assert page.get_by_test_id("stException").count() == 0
    assert st_ui.app_errors(page) == []
