"""Real browser: the Documents page's list and the Data page's tables of warnings and spans per
label wait in closed expanders (a visit draws less: docs/performance.md, issue 29, seventh
pass); one click opens each, and an opened one stays open when the reader comes back."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def _nav(page: Any, st_ui: SimpleNamespace, title: str, until: Any) -> None:
    st_ui.click(page, page.get_by_test_id("stSidebar").get_by_text(title, exact=True), until)
    st_ui.wait_idle(page)


def test_the_list_opens_on_a_click_and_stays_open_on_a_return(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents")
    page.locator("#left-doc .ss-seg").first.wait_for(timeout=30_000)
    table = page.locator(".st-key-doc_table [data-testid='stDataFrame']")
    assert table.count() == 0  # closed: not drawn
    header = page.get_by_test_id("stExpander").filter(has_text="Documents in this order")
    st_ui.click(page, header.locator("summary"), table)
    st_ui.wait_idle(page)
    st_ui.shot(page, "documents_list_opened")
    _nav(page, st_ui, "Overview", page.get_by_role("heading", name="SpanScope"))
    _nav(page, st_ui, "Documents", page.locator("#left-doc .ss-seg").first)
    table.wait_for(timeout=30_000)  # kept open
    assert st_ui.app_errors(page) == []


def test_the_data_pages_spans_per_label_open_on_a_click(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "data")
    page.locator(".st-key-sets_table table").first.wait_for(timeout=30_000)
    header = page.get_by_test_id("stExpander").filter(has_text="Spans per label and set")
    labels = header.get_by_test_id("stDataFrame")
    assert labels.count() == 0
    st_ui.click(page, header.locator("summary"), labels)
    st_ui.wait_idle(page)
    st_ui.shot(page, "data_spans_per_label_opened")
    assert st_ui.app_errors(page) == []
