"""Real browser: after a whole run of the Documents page (a change of metric or of a filter) or
a run of its fragment (a span selected), a click on "Next ▶" moves the URL with the document:
``?doc=`` names the document the text, the selector and the stepper's caption show, within the
run the click starts, and a copy of that URL opens that document.

The selector (``bind="query-params"``, inside the page's ``st.fragment``) gets its new value
from the stepper's callback, not from the browser, so it is Streamlit's server that writes the
URL (a ``page_info_changed`` message sent when the value differs from the server's copy of the
query string); this is the sequence a report said left ``doc=2`` in the URL while document 3
was shown."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

STEPPER = "[data-testid='stCaptionContainer'], .ss-caption"
"""The Documents stepper's "Document N of M in this order": a caption drawn as plain HTML
(``ui.plain``, class ``ss-caption``) since the twentieth pass, an ``st.caption`` before."""

pytestmark = pytest.mark.e2e

HEAD = "Both annotations of document {}, side by side"


def _params(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def _shown(page: Any, st_ui: SimpleNamespace) -> str:
    """The document the selector shows; the text's heading names the same one."""
    doc = st_ui.value(page, "Document")
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format(doc)
    return str(doc)


def _url_names(page: Any, st_ui: SimpleNamespace, doc: str, position: int) -> None:
    """The stepper's caption says ``position``, the selector and text ``doc``; the URL names
    ``doc`` no later than 5 s after the run ended (the report: more than 10 s, until the
    next step)."""
    page.locator(STEPPER).filter(
        has_text=f"Document {position} of").first.wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert _shown(page, st_ui) == doc
    page.wait_for_function("d => new URLSearchParams(location.search).get('doc') === d",
                           arg=doc, timeout=5_000)
    assert _params(page.url)["doc"] == [doc]


def _link_opens(browser_page: Any, st_ui: SimpleNamespace, url: str, doc: str) -> None:
    """A copy of ``url`` opened in a fresh session shows ``doc``."""
    st_ui.open_page(browser_page, url)
    browser_page.locator(".ss-switch .ss-head, #left-doc").first.wait_for(timeout=30_000)
    assert st_ui.value(browser_page, "Document") == doc


def _start(page: Any, st_ui: SimpleNamespace, app_url: str) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=2")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert _shown(page, st_ui) == "2"


def _next(page: Any) -> None:
    page.get_by_role("button", name="Next ▶").click()


@pytest.fixture
def other(browser: Any, st_ui: SimpleNamespace) -> Iterator[Any]:
    """A second, fresh browser context: the person the link is sent to."""
    with st_ui.session(browser, {"width": 1500, "height": 1900}) as page:
        yield page


def test_next_after_a_change_of_metric_moves_the_url(
    app_url: str, page: Any, other: Any, st_ui: SimpleNamespace
) -> None:
    _start(page, st_ui, app_url)
    page.get_by_test_id("stRadio").filter(has_text="Metric").get_by_text(
        "mafalda", exact=True).click()
    st_ui.wait_idle(page)
    assert _params(page.url)["metric"] == ["mafalda"]
    assert _params(page.url)["doc"] == ["2"]
    _next(page)
    _url_names(page, st_ui, "3", 3)
    assert _params(page.url)["metric"] == ["mafalda"]  # the metric stays in the link
    _link_opens(other, st_ui, page.url, "3")
    # and the step after it too
    _next(page)
    _url_names(page, st_ui, "4", 4)
    assert st_ui.app_errors(page) == []


def test_next_after_a_span_selection_moves_the_url(
    app_url: str, page: Any, other: Any, st_ui: SimpleNamespace
) -> None:
    _start(page, st_ui, app_url)
    st_ui.selectbox(page, "Select a span").click()
    page.get_by_role("option").nth(1).click()  # the first span (0 is "— none —")
    st_ui.wait_idle(page)
    assert st_ui.value(page, "Select a span") != "— none —"
    assert _params(page.url)["doc"] == ["2"]
    _next(page)
    _url_names(page, st_ui, "3", 3)
    _link_opens(other, st_ui, page.url, "3")
    assert st_ui.app_errors(page) == []


def test_next_after_a_filter_change_moves_the_url(
    app_url: str, page: Any, other: Any, st_ui: SimpleNamespace
) -> None:
    _start(page, st_ui, app_url)
    st_ui.choose(page, "Error category", "missed")
    assert _params(page.url)["ecat"] == ["missed"]
    # A new list starts at its first document; the URL names it or, when it is the
    # selector's first option (Streamlit leaves a default out of the URL), a copy opens it.
    first = _shown(page, st_ui)
    assert _params(page.url).get("doc", [first]) == [first]
    _link_opens(other, st_ui, page.url, first)
    _next(page)
    second = _shown_after_step(page, st_ui, first)
    _url_names(page, st_ui, second, 2)
    assert _params(page.url)["ecat"] == ["missed"]
    _link_opens(other, st_ui, page.url, second)
    assert st_ui.app_errors(page) == []


def _shown_after_step(page: Any, st_ui: SimpleNamespace, before: str) -> str:
    """The document a step from ``before`` opened (the filtered list skips some ids)."""
    page.locator(STEPPER).filter(
        has_text="Document 2 of").first.wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    doc = _shown(page, st_ui)
    assert doc != before
    return doc
