"""Real browser: the sidebar's page links carry the data a page was opened on. A page opened
with ``?sample=mafalda`` links to the other pages with it, so a link copied from the sidebar,
or opened in a new tab, shows the same corpus (it opened the default one: the links were bare
``errors``, ``labels``; bugleft12 item 4)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

LINKS = '[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]'


def _sidebar_link(page: Any, title: str) -> Any:
    return page.locator(LINKS).filter(has_text=title).first


def test_a_sidebar_link_opened_as_a_shared_link_shows_the_same_sample(
        app_url: str, page: Any, browser: Any, st_ui: SimpleNamespace) -> None:
    st_ui.open_page(page, app_url, "scores?sample=mafalda")
    assert st_ui.value(page, "Sample corpus") == "mafalda"
    href = _sidebar_link(page, "Errors").get_attribute("href")
    assert href is not None and "sample=mafalda" in href
    # followed by a click: the page opened keeps the sample, and so do its own links
    st_ui.click(page, _sidebar_link(page, "Labels"),
                page.get_by_role("heading", name="Labels").first)
    st_ui.wait_idle(page)
    assert "sample=mafalda" in page.url
    assert st_ui.value(page, "Sample corpus") == "mafalda"
    href = _sidebar_link(page, "Errors").get_attribute("href")
    assert href is not None and "sample=mafalda" in href
    # opened as someone else would open it: a new tab, a fresh session
    with st_ui.session(browser, {"width": 1500, "height": 1900}) as other:
        st_ui.open_page(other, app_url, href)
        assert st_ui.value(other, "Sample corpus") == "mafalda"
        other.get_by_role("heading", name="Errors").first.wait_for(timeout=60_000)
    assert st_ui.app_errors(page) == []


def test_the_default_sample_keeps_its_links_bare(app_url: str, page: Any,
                                                 st_ui: SimpleNamespace) -> None:
    st_ui.open_page(page, app_url, "scores")
    assert _sidebar_link(page, "Errors").get_attribute("href") == "errors"
