"""ui.burst: a run's messages held while it runs, at most HOLD_S, then sent together.

No clock is timed: the instants are passed in, and the window's timer is read from the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

from ui import burst


class Session:
    """What :func:`ui.burst.held_flush` reads of Streamlit's session: its enqueued callback."""

    def __init__(self) -> None:
        self.queue: list[str] = []
        self.woken = 0

    def _message_enqueued_callback(self) -> None:
        self.woken += 1

    def flush(self) -> list[str]:
        out, self.queue = self.queue, []
        return out


def _loop_run(main: Any) -> Any:
    """``asyncio.run(main())`` on a thread of its own: a browser test's Playwright (its sync
    API) may have left an event loop running on this worker's main thread, where
    ``asyncio.run`` refuses to start another."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()


def _run(steps: Any) -> Any:
    async def main() -> Any:
        return steps()

    return _loop_run(main)


def test_a_short_run_is_sent_whole_at_its_end() -> None:
    def steps() -> tuple[list[str], list[str], list[str]]:
        s = Session()
        s.queue += ["new session", "sidebar"]
        first = burst.held_flush(s, s.flush, running=True, now=10.0)
        s.queue += ["title", "table"]
        second = burst.held_flush(s, s.flush, running=True, now=10.1)
        s.queue += ["script finished"]
        last = burst.held_flush(s, s.flush, running=False, now=10.15)
        return first, second, last

    first, second, last = _run(steps)
    assert first == [] and second == []
    assert last == ["new session", "sidebar", "title", "table", "script finished"]


def test_a_long_run_sends_what_it_has_at_the_windows_end_then_as_before() -> None:
    def steps() -> tuple[list[str], list[str], list[str]]:
        s = Session()
        s.queue += ["new session", "spinner"]
        held = burst.held_flush(s, s.flush, running=True, now=5.0)
        at_end = burst.held_flush(s, s.flush, running=True, now=5.0 + burst.HOLD_S)
        s.queue += ["progress"]
        later = burst.held_flush(s, s.flush, running=True, now=5.0 + burst.HOLD_S + 1)
        return held, at_end, later

    held, at_end, later = _run(steps)
    assert held == []
    assert at_end == ["new session", "spinner"]
    assert later == ["progress"]


def test_the_windows_end_flushes_without_another_message() -> None:
    async def main() -> tuple[int, int]:
        s = Session()
        s.queue += ["spinner"]
        import time

        assert burst.held_flush(s, s.flush, running=True, now=time.monotonic()) == []
        before = s.woken
        await asyncio.sleep(burst.HOLD_S + 0.2)  # the timer's callback, not a measurement
        return before, s.woken

    before, after = _loop_run(main)
    assert before == 0
    assert after == 1  # the runtime is asked to flush again: the spinner does not wait


def test_each_run_has_its_own_window_and_one_timer() -> None:
    def steps() -> tuple[list[str], list[str], int, bool]:
        s = Session()
        s.queue += ["a"]
        burst.held_flush(s, s.flush, running=True, now=1.0)
        burst.held_flush(s, s.flush, running=True, now=1.05)
        timers = 1 if getattr(s, burst._TIMER) is not None else 0
        first = burst.held_flush(s, s.flush, running=False, now=1.1)
        cancelled = getattr(s, burst._TIMER) is None
        s.queue += ["b"]
        # a run an hour later: a new window from its first flush, not the old run's
        second = burst.held_flush(s, s.flush, running=True, now=3601.0)
        return first, second, timers, cancelled

    first, second, timers, cancelled = _run(steps)
    assert first == ["a"]
    assert second == []
    assert timers == 1 and cancelled


def test_install_patches_streamlits_session_once() -> None:
    from streamlit.runtime import app_session

    burst.install()
    patched = app_session.AppSession.flush_browser_queue
    burst._installed = False
    burst.install()  # again, as app.py's every run does: not wrapped twice
    assert app_session.AppSession.flush_browser_queue is patched
    assert getattr(patched, "_spanscope_held", False)
