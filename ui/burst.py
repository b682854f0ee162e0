"""A run's messages to the browser in one burst: fewer React renders per page run.

Measured (docs/performance.md, issue 29, twenty-first pass; 100,000 documents, warm revisits):
Streamlit's front end applies each element's message with its own state update, and React
renders the page once per group of messages that arrived before its scheduled render. The
server sends each message as the script makes it, so one revisit of a page committed 5 to 55
times, and the browser's main thread took about 2 ms of CPU per commit more (Scores 203-266 ms
a revisit). Holding the session's messages while its run is under way, then sending them
together, drew the same pages in 5-16 commits and cut the main thread's CPU per revisit by
about a third (median 186 -> 132 ms over 27 revisits of the nine pages).

The hold is short and bounded: a run's messages wait at most :data:`HOLD_S` after the run's
first flush; a run that lasts longer sends what it has then and the rest as Streamlit does
(a spinner or a progress bar of a long computation shows at most :data:`HOLD_S` late). A timer
flushes at the window's end, so messages never wait for the next one. A run that ends inside
the window is sent at its end, whole.

:func:`install` is called by ``app.py`` on every run and patches Streamlit's
``AppSession.flush_browser_queue`` once per process (Streamlit has no setting for this).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

HOLD_S = 0.25
"""The longest a run's messages are held before they are sent (seconds)."""

_SINCE = "_spanscope_hold_since"  # attributes kept on Streamlit's session object
_TIMER = "_spanscope_hold_timer"


def held_flush(session: Any, flush: Any, running: bool, now: float | None = None) -> list[Any]:
    """What ``session``'s flush sends now: nothing while its run is under way and less than
    :data:`HOLD_S` has passed since the run's first flush (a timer then calls the session's
    enqueued callback at the window's end, so the runtime flushes again), else ``flush()``:
    every message queued so far. ``running``: the session's script is running."""
    now = time.monotonic() if now is None else now
    if running:
        since = getattr(session, _SINCE, None)
        if since is None:
            since = now
            setattr(session, _SINCE, since)
        left = since + HOLD_S - now
        if left > 0:
            if getattr(session, _TIMER, None) is None:
                callback = getattr(session, "_message_enqueued_callback", None)
                if callback is not None:
                    setattr(session, _TIMER, asyncio.get_running_loop().call_later(
                        left, _wake, session, callback))
            return []
    else:
        setattr(session, _SINCE, None)  # the next run's window starts at its first flush
    timer = getattr(session, _TIMER, None)
    if timer is not None:
        timer.cancel()
        setattr(session, _TIMER, None)
    return list(flush())


def _wake(session: Any, callback: Any) -> None:
    """The window's end: the runtime flushes the session again."""
    setattr(session, _TIMER, None)
    callback()


_installed = False


def install() -> None:
    """Patch Streamlit's ``AppSession.flush_browser_queue`` with :func:`held_flush` (once)."""
    global _installed
    if _installed:
        return
    from streamlit.runtime import app_session

    original = app_session.AppSession.flush_browser_queue
    if getattr(original, "_spanscope_held", False):
        _installed = True
        return

    def flush_browser_queue(self: Any) -> list[Any]:
        running = self._state == app_session.AppSessionState.APP_IS_RUNNING
        return held_flush(self, lambda: original(self), running)

    flush_browser_queue._spanscope_held = True  # type: ignore[attr-defined]
    app_session.AppSession.flush_browser_queue = flush_browser_queue  # type: ignore[method-assign]
    _installed = True
