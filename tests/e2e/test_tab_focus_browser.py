"""Tabs from the keyboard, in a real browser: a tab chosen with an arrow key keeps the focus,
so the next arrow key moves on (bugleft21).

The page's tabs rerun the page when one is chosen (``st.tabs`` with ``on_change``), and
Streamlit disables every tab (``aria-disabled``, no ``tabindex``) until the run it asked for has
started: the browser then dropped the focus of the tab just chosen to the page's body, and the
next arrow key did nothing (seen on a loaded server, one arrow key in a few). The listener of
:mod:`ui.sidebar` gives the focus back to the selected tab once it is enabled again.

At a phone's width (390 px) the tab list is wider than the page and scrolls sideways, and
Chromium dropped the focus to the tab list itself (a scrolling box it makes focusable), not to
the page's body: the listener took that for a focus the person had put elsewhere and left it
there (bugleft22; under two CPU hogs the arrow-key test failed 2 runs of 2 at 390 px before the
fix, 0 of 3 after)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ui.annotators import TABS

pytestmark = pytest.mark.e2e
ACTIVE = ("() => { const a = document.activeElement; return [a.getAttribute('role') || "
          "a.tagName, (a.textContent || '').trim()]; }")


def _selected(page: Any) -> list[str]:
    return [str(t.get_attribute("aria-selected")) for t in page.get_by_role("tab").all()]


def _open(page: Any, app_url: str, st_ui: SimpleNamespace) -> None:
    st_ui.open_page(page, app_url, "annotators")
    page.locator(".st-key-ann_matrix table").first.wait_for(timeout=90_000)
    st_ui.wait_idle(page)


def test_a_tab_the_browser_drops_to_its_scrolling_list_gets_the_focus_back(
        browser: Any, app_url: str, st_ui: SimpleNamespace) -> None:
    """At 390 px the tab list scrolls, and the focus of a tab Streamlit disables went to the
    list: done here by hand (the list made focusable for the moment, as Chromium makes a
    scrolling box), so that it happens every time."""
    with st_ui.session(browser, {"width": 390, "height": 844}) as page:
        _open(page, app_url, st_ui)
        tablist = page.get_by_role("tablist").first
        assert tablist.evaluate("t => t.scrollWidth > t.clientWidth")  # it scrolls sideways
        tab = page.get_by_role("tab").first
        tab.focus()
        tabindex = tab.get_attribute("tabindex")
        tab.evaluate("t => { t.setAttribute('aria-disabled', 'true'); "
                     "t.removeAttribute('tabindex'); const list = t.closest('[role=tablist]'); "
                     "list.tabIndex = -1; list.focus(); }")
        assert page.evaluate(ACTIVE)[0] == "tablist"
        tab.evaluate(f"t => {{ t.removeAttribute('aria-disabled'); "
                     f"t.setAttribute('tabindex', '{tabindex}'); "
                     "t.closest('[role=tablist]').removeAttribute('tabindex'); }")
        page.wait_for_function("() => document.activeElement.getAttribute('role') === 'tab'",
                               timeout=5_000)
        assert page.evaluate(ACTIVE) == ["tab", TABS[0]]
        assert st_ui.app_errors(page) == []


def test_a_tab_the_browser_blurs_while_it_is_disabled_gets_the_focus_back(
        browser: Any, app_url: str, st_ui: SimpleNamespace) -> None:
    # What Streamlit does to the tab while the run waits, done here by hand so that the loss
    # happens every time: the tab loses its tabindex (the browser blurs it), then gets it back.
    with st_ui.session(browser, {"width": 1440, "height": 900}) as page:
        _open(page, app_url, st_ui)
        tab = page.get_by_role("tab").first
        tab.focus()
        tabindex = tab.get_attribute("tabindex")
        tab.evaluate("t => { t.setAttribute('aria-disabled', 'true'); "
                     "t.removeAttribute('tabindex'); }")
        page.wait_for_function("() => document.activeElement === document.body")
        tab.evaluate(f"t => {{ t.removeAttribute('aria-disabled'); "
                     f"t.setAttribute('tabindex', '{tabindex}'); }}")
        page.wait_for_function("() => document.activeElement.getAttribute('role') === 'tab'",
                               timeout=5_000)
        assert page.evaluate(ACTIVE) == ["tab", TABS[0]]
        # a click elsewhere while the tab was disabled: the focus stays where the person put it
        tab.evaluate("t => { t.setAttribute('aria-disabled', 'true'); "
                     "t.removeAttribute('tabindex'); }")
        page.wait_for_function("() => document.activeElement === document.body")
        page.get_by_role("heading", name="👥 Annotators").click()
        tab.evaluate(f"t => {{ t.removeAttribute('aria-disabled'); "
                     f"t.setAttribute('tabindex', '{tabindex}'); }}")
        page.wait_for_timeout(500)
        assert page.evaluate(ACTIVE)[0] != "tab"
        assert st_ui.app_errors(page) == []


@pytest.mark.parametrize("width", [1440, 390])
def test_arrow_keys_go_round_the_annotators_tabs_and_keep_the_focus(
        browser: Any, app_url: str, st_ui: SimpleNamespace, width: int) -> None:
    with st_ui.session(browser, {"width": width, "height": 900}) as page:
        _open(page, app_url, st_ui)
        # reached with the Tab key, as a keyboard user does, from the page's title
        page.get_by_role("heading", name="👥 Annotators").click()
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate(ACTIVE)[0] == "tab":
                break
        assert page.evaluate(ACTIVE) == ["tab", TABS[0]]
        for step in range(1, 2 * len(TABS) + 1):  # twice round
            page.keyboard.press("ArrowRight")
            st_ui.wait_idle(page)
            want = step % len(TABS)
            page.wait_for_function(
                "() => document.activeElement.getAttribute('role') === 'tab'", timeout=10_000)
            assert page.evaluate(ACTIVE) == ["tab", TABS[want]], f"arrow key {step}"
            assert _selected(page) == ["true" if i == want else "false"
                                       for i in range(len(TABS))]
        page.keyboard.press("ArrowLeft")
        st_ui.wait_idle(page)
        assert page.evaluate(ACTIVE) == ["tab", TABS[-1]]
        page.locator("[data-testid='stTabPanel']:not([inert])").first.wait_for()
        st_ui.shot(page, f"annotators_tabs_keyboard_{width}px")
        assert st_ui.app_errors(page) == []
