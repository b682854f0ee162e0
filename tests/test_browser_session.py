"""``st_ui.session`` (``tests/e2e/conftest.py``), the page a browser test opens for a fresh
session, a colour scheme or a viewport, on a stand-in browser (no chromium): it has the
fixtures' waits; without options but a colour scheme it is a page of the worker's pool, handed
to the next test reset, with others a browser context of its own; a failed test's page is
closed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import ACTION_TIMEOUT_MS, HISTORY_ROOM, session
from tests.servers import RunWatch


class _Page:
    def __init__(self, context: _Context) -> None:
        self.context = context
        self.handlers: dict[str, list[Callable[[Any], None]]] = {}
        self.url = "about:blank"
        self.viewport: dict[str, int] | None = None
        self.media: dict[str, Any] = {}
        self.scripts: list[str] = []
        self.history = 1  # entries in the tab's history: a new tab's blank page

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.handlers.setdefault(event, []).append(handler)

    def remove_listener(self, event: str, handler: Callable[[Any], None]) -> None:
        self.handlers[event].remove(handler)

    def is_closed(self) -> bool:
        return self.context.closed

    def set_viewport_size(self, viewport: dict[str, int]) -> None:
        self.viewport = viewport

    def emulate_media(self, **media: Any) -> None:
        self.media.update(media)

    def goto(self, url: str) -> None:
        self.url = url
        self.history += 1

    def evaluate(self, script: str) -> int | None:
        if script == "history.length":
            return self.history
        self.scripts.append(script)
        return None

    def add_init_script(self, script: str) -> None:
        self.scripts.append(script)

    def route(self, url: str, handler: Callable[[Any], None]) -> None:
        self.handlers.setdefault("route", []).append(handler)


class _Context:
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.timeout: float | None = None
        self.closed = False
        self.cookies_cleared = 0

    def set_default_timeout(self, timeout: float) -> None:
        self.timeout = timeout

    def new_page(self) -> _Page:
        return _Page(self)

    def clear_cookies(self) -> None:
        self.cookies_cleared += 1

    def close(self) -> None:
        self.closed = True


class _Browser:
    def __init__(self) -> None:
        self.contexts: list[_Context] = []
        self.page_pool: list[tuple[Any, Any]] = []  # as the ``browser`` fixture sets it

    def new_context(self, **options: Any) -> _Context:
        self.contexts.append(_Context(options))
        return self.contexts[-1]


def test_a_session_page_waits_as_the_fixtures_pages_do() -> None:
    browser = _Browser()
    with session(browser, {"width": 800, "height": 900}, color_scheme="dark") as page:
        assert isinstance(page.run_watch, RunWatch)  # wait_idle follows its runs
        assert {"websocket", "console", "pageerror"} <= set(page.handlers)
        assert page.console_errors == []
        assert page.media == {"color_scheme": "dark"}  # emulated on the pool's page
    (context,) = browser.contexts
    assert context.options == {"viewport": {"width": 800, "height": 900},
                               "reduced_motion": "reduce"}
    assert context.timeout == ACTION_TIMEOUT_MS and not context.closed
    # with an option the page cannot emulate, a context of its own, the scheme its option
    with session(browser, {"width": 800, "height": 900}, color_scheme="dark", offline=True):
        pass
    assert browser.contexts[1].options == {"viewport": {"width": 800, "height": 900},
                                           "offline": True, "color_scheme": "dark",
                                           "reduced_motion": "reduce"}
    assert browser.contexts[1].closed


def test_a_session_prefers_reduced_motion_unless_told_otherwise() -> None:
    """Chromium's animations cost CPU time and no test looks at one (docs/performance.md): every
    page prefers reduced motion, and a test that wants motion asks for it."""
    browser = _Browser()
    with session(browser, reduced_motion="no-preference"):
        pass
    with session(browser):
        pass
    assert [c.options for c in browser.contexts] == [
        {"reduced_motion": "no-preference"},
        {"viewport": {"width": 1280, "height": 720}, "reduced_motion": "reduce"}]


def test_the_next_session_gets_the_pool_s_page_reset_and_a_second_one_at_once_a_new_page() -> None:
    browser = _Browser()
    with session(browser, {"width": 390, "height": 844}, color_scheme="dark") as page:
        page.goto("http://127.0.0.1:8620/scores")
        page.console_errors.append("an error of this test")
        page.run_watch._asked = 3
        page.on("dialog", print)
        with session(browser) as other:  # two sessions at once: two pages
            assert other is not page
    assert len(browser.contexts) == 2 and len(browser.page_pool) == 2
    assert page.url == "about:blank" and page.handlers["dialog"] == []  # the test's listener
    assert any("localStorage.clear()" in script for script in page.scripts)
    assert page.context.cookies_cleared == 1
    assert page.media == {"color_scheme": "light", "reduced_motion": "reduce"}
    with session(browser, {"width": 1440, "height": 900}) as again:
        assert again is page  # the first free page of the pool
        assert again.viewport == {"width": 1440, "height": 900}
        assert again.console_errors == [] and not again.run_watch.asked_since_idle
    assert len(browser.contexts) == 2


def test_a_page_given_an_init_script_is_not_handed_on() -> None:
    browser = _Browser()
    with session(browser) as page:
        page.add_init_script("window.recorded = []")
    assert page.context.closed and browser.page_pool == []
    with session(browser) as again:
        assert again is not page


def test_a_page_with_a_long_history_is_not_handed_on() -> None:
    """Chromium keeps 50 history entries a tab and ``history.length`` stops there: a pooled page
    that has made more than HISTORY_ROOM is closed, so a test counting entries has room (CI:
    test_history_browser read 50 before and after its link)."""
    browser = _Browser()
    with session(browser) as page:
        for n in range(HISTORY_ROOM - 2):
            page.goto(f"http://127.0.0.1:8620/scores?n={n}")
    assert page.history == HISTORY_ROOM  # with its first entry and the reset's about:blank
    assert not page.context.closed and browser.page_pool != []
    with session(browser) as again:
        assert again is page
        page.goto("http://127.0.0.1:8620/scores")
    assert page.history > HISTORY_ROOM
    assert page.context.closed and browser.page_pool == []


def test_a_session_keeps_playwrights_viewport_and_closes_when_the_test_fails() -> None:
    browser = _Browser()
    with pytest.raises(AssertionError), session(browser, forced_colors="active"):
        raise AssertionError("the test failed")
    (context,) = browser.contexts
    assert context.options == {"forced_colors": "active", "reduced_motion": "reduce"}
    assert context.closed
    with pytest.raises(AssertionError), session(browser) as page:  # the pool's page too
        raise AssertionError("the test failed")
    assert page.context.closed and browser.page_pool == []
