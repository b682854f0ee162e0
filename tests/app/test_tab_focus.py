"""The pages whose tabs rerun the page when one is chosen (``st.tabs`` with ``on_change``) carry
the listener that gives a tab chosen with an arrow key its focus back (bugleft21; the browser
test is ``tests/e2e/test_tab_focus_browser.py``)."""

from __future__ import annotations

import pytest

from ui import sidebar


@pytest.mark.parametrize("page", ["pages/annotators.py", "pages/errors.py",
                                  "pages/documents.py"])
def test_a_page_with_rerunning_tabs_carries_the_tab_focus_keeper(make_app, page: str) -> None:
    at = make_app(page)
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.tabs) >= 3  # the page's lazy tabs
    listeners = [h for h in at.html if h.proto.body == sidebar.SCRIPT]
    assert len(listeners) == 1
    js = sidebar.SCRIPT
    # the focus is only taken back from a tab Streamlit disabled, and never from a person's
    # choice of somewhere else
    assert 'tab.getAttribute("aria-disabled") === "true" || !tab.hasAttribute("tabindex")' in js
    assert "!active.contains(lost)" in js  # the body or the list around the tab (bugleft22)
    assert '[role="tab"][aria-selected="true"][tabindex]' in js
    assert 'attributeFilter: ["aria-disabled", "tabindex"]' in js
