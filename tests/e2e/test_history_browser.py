"""Real browser: a link from the Errors page to the Documents page writes the URL once, Back
returns to the Errors page and Forward to the filtered document list (tour finding 7: one click
from Errors made six history entries, and Back stepped through in-between URLs)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.e2e.test_errors_browser import category_link

pytestmark = pytest.mark.e2e


def test_an_errors_link_to_documents_writes_the_url_once_and_back_returns(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    table = page.locator(".st-key-err_table .ss-page-table")
    table.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    before = page.evaluate("history.length")
    category_link(page, "missed").click()  # system_a's link under the category table
    page.locator("#left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    page.wait_for_timeout(1_000)  # any late URL write would land here
    assert "/documents" in page.url
    assert st_ui.value(page, "Error category") == "missed"
    assert "ecat=missed" in page.url and "elabel" not in page.url and "doc=" not in page.url
    # Streamlit pushes the query string, then the page: two entries, no more.
    assert page.evaluate("history.length") == before + 2
    page.go_back()
    table.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/errors" in page.url
    assert page.get_by_role("heading", name="Errors").count() == 1
    page.go_forward()  # and Forward opens the document again, with its filter
    page.locator("#left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert st_ui.value(page, "Error category") == "missed"
    st_ui.shot(page, "history_back_to_errors")
    assert st_ui.app_errors(page) == []


def _query(url: str) -> dict[str, list[str]]:
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(url).query)


def test_back_from_a_sidebar_page_restores_the_documents_view_it_left(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    # Tour finding: Streamlit pushes the bare /documents before the next page, and Back to it
    # showed the defaults (ui.state.restore_view_on_back).
    st_ui.open_page(page, app_url, "documents?sample=propaganda&b=system_b&doc_sort=most+spans"
                    "+first&ecat=missed&metric=mafalda&doc=8")
    page.locator("#left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    page.get_by_role("button", name="Next ▶").click()  # a change made after the link
    # the URL the step's run writes (not a guess of how long that run takes on a busy machine)
    page.wait_for_url(lambda url: _query(url).get("doc", ["8"]) != ["8"], timeout=60_000)
    st_ui.wait_idle(page)
    left = _query(page.url)
    assert left["doc"] != ["8"] and left["ecat"] == ["missed"]
    st_ui.click(page, page.get_by_test_id("stSidebar").get_by_text("Errors", exact=True),
                page.get_by_role("heading", name="Errors"))
    st_ui.wait_idle(page)
    entries = page.evaluate("history.length")
    page.go_back()
    page.locator("#left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    page.wait_for_timeout(1_000)
    assert "/documents" in page.url
    assert _query(page.url) == left
    assert st_ui.value(page, "Error category") == "missed"
    assert st_ui.value(page, "Right (compared)") == "system_b"
    assert page.evaluate("history.length") == entries  # restored in place: Forward still works
    st_ui.shot(page, "history_back_restores_documents")
    page.go_forward()
    page.get_by_role("heading", name="Errors").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/errors" in page.url
    assert st_ui.app_errors(page) == []


def test_back_from_a_sidebar_page_restores_the_errors_tab_it_left(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    # app.py restores every page's view on Back to its bare URL, not only Documents and Labels.
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    page.get_by_role("heading", name="Errors").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    st_ui.wait_idle(page)
    page.get_by_role("tab", name="🏷️ Per label").click()
    # the URL the tab's run writes, however late a busy server runs it
    page.wait_for_url(lambda url: "etab" in _query(url), timeout=60_000)
    st_ui.wait_idle(page)
    left = _query(page.url)
    assert "etab" in left
    st_ui.click(page, page.get_by_test_id("stSidebar").get_by_text("Scores", exact=True),
                page.get_by_role("heading", name="Scores"))
    st_ui.wait_idle(page)
    page.go_back()
    page.get_by_role("heading", name="Errors").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    page.wait_for_timeout(1_000)
    assert "/errors" in page.url
    assert _query(page.url) == left
    assert page.get_by_role("tab", name="🏷️ Per label").get_attribute("aria-selected") == "true"
    st_ui.shot(page, "history_back_restores_errors_tab")
    assert st_ui.app_errors(page) == []
