"""``st_ui.session`` (``tests/e2e/conftest.py``), the page of a browser context of its own that
a browser test opens for a fresh session, a colour scheme or a viewport, on a stand-in browser
(no chromium): it has the fixtures' waits and is closed when the test fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import ACTION_TIMEOUT_MS, session
from tests.servers import RunWatch


class _Page:
    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Any], None]] = {}

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.handlers[event] = handler


class _Context:
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.timeout: float | None = None
        self.closed = False

    def set_default_timeout(self, timeout: float) -> None:
        self.timeout = timeout

    def new_page(self) -> _Page:
        return _Page()

    def close(self) -> None:
        self.closed = True


class _Browser:
    def __init__(self) -> None:
        self.contexts: list[_Context] = []

    def new_context(self, **options: Any) -> _Context:
        self.contexts.append(_Context(options))
        return self.contexts[-1]


def test_a_session_page_waits_as_the_fixtures_pages_do() -> None:
    browser = _Browser()
    with session(browser, {"width": 800, "height": 900}, color_scheme="dark") as page:
        assert isinstance(page.run_watch, RunWatch)  # wait_idle follows its runs
        assert {"websocket", "console", "pageerror"} <= set(page.handlers)
        assert page.console_errors == []
    (context,) = browser.contexts
    assert context.options == {"viewport": {"width": 800, "height": 900},
                               "color_scheme": "dark", "reduced_motion": "reduce"}
    assert context.timeout == ACTION_TIMEOUT_MS and context.closed


def test_a_session_prefers_reduced_motion_unless_told_otherwise() -> None:
    """Chromium's animations cost CPU time and no test looks at one (docs/performance.md): every
    page prefers reduced motion, and a test that wants motion asks for it."""
    browser = _Browser()
    with session(browser, reduced_motion="no-preference"):
        pass
    with session(browser):
        pass
    assert [c.options for c in browser.contexts] == [{"reduced_motion": "no-preference"},
                                                     {"reduced_motion": "reduce"}]


def test_a_session_keeps_playwrights_viewport_and_closes_when_the_test_fails() -> None:
    browser = _Browser()
    with pytest.raises(AssertionError), session(browser, forced_colors="active"):
        raise AssertionError("the test failed")
    (context,) = browser.contexts
    assert context.options == {"forced_colors": "active", "reduced_motion": "reduce"}
    assert context.closed
