"""``tests.servers.RunWatch``, the browser tests' view of the script runs a page asked for, on
Streamlit's own messages built here (no browser): a request is answered by the end of a run that
covers it, not by a run stopped for a rerun, not by a fragment's run for a whole-page request,
and a fragment's timer asks for nothing a test waits for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.servers import RunWatch, _forward_type


class _Socket:
    """What Playwright hands a ``websocket`` listener: a URL and ``on(event, handler)``."""

    url = "ws://127.0.0.1:8501/_stcore/stream"

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Any], None]] = {}

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.handlers[event] = handler


class _Page:
    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Any], None]] = {}

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.handlers[event] = handler


def _watched() -> tuple[RunWatch, _Socket]:
    page, ws = _Page(), _Socket()
    watch = RunWatch.attach(page)
    page.handlers["websocket"](ws)
    return watch, ws


def _ask(ws: _Socket, fragment: str = "", auto: bool = False) -> None:
    msg = BackMsg()
    msg.rerun_script.query_string = "doc=2"
    msg.rerun_script.fragment_id = fragment
    msg.rerun_script.is_auto_rerun = auto
    ws.handlers["framesent"](msg.SerializeToString())


def _started(ws: _Socket, run: str, fragments: tuple[str, ...] = ()) -> None:
    msg = ForwardMsg()
    msg.hash = "h"
    msg.metadata.run.script_run_id = run
    msg.metadata.run.fragment_ids.extend(fragments)
    msg.new_session.name = "app"
    ws.handlers["framereceived"](msg.SerializeToString())


def _finished(ws: _Socket, run: str, status: int = ForwardMsg.FINISHED_SUCCESSFULLY) -> None:
    msg = ForwardMsg()
    msg.metadata.run.script_run_id = run
    msg.script_finished = status  # type: ignore[assignment]
    ws.handlers["framereceived"](msg.SerializeToString())


def _delta(ws: _Socket) -> None:
    msg = ForwardMsg()
    msg.hash = "d"
    msg.metadata.delta_path.extend([0, 1])
    msg.delta.new_element.markdown.body = "x" * 100_000
    ws.handlers["framereceived"](msg.SerializeToString())


def test_the_type_of_a_message_is_read_off_its_first_field_past_hash_and_metadata() -> None:
    finished = ForwardMsg()
    finished.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY  # 0: still written, in a oneof
    assert _forward_type(finished.SerializeToString()) == 6
    started = ForwardMsg()
    started.hash = "h"
    started.metadata.run.script_run_id = "r"
    started.new_session.name = "app"
    assert _forward_type(started.SerializeToString()) == 4
    delta = ForwardMsg()
    delta.hash = "d" * 300  # a length over one byte's varint
    delta.delta.new_element.markdown.body = "x"
    assert _forward_type(delta.SerializeToString()) == 5


def test_a_request_is_answered_by_the_end_of_the_run_that_started_after_it() -> None:
    watch, ws = _watched()
    _started(ws, "before")  # a run already under way when the click is made
    _ask(ws)
    assert watch.pending
    _finished(ws, "before")  # its end answers nothing asked after it started
    assert watch.pending
    _started(ws, "click")
    _delta(ws)
    assert watch.pending
    _finished(ws, "click")
    assert not watch.pending


def test_a_run_stopped_for_a_rerun_answers_nothing_and_the_rerun_does() -> None:
    watch, ws = _watched()
    _ask(ws)
    _started(ws, "first")
    _ask(ws)
    _finished(ws, "first", ForwardMsg.FINISHED_EARLY_FOR_RERUN)
    assert watch.pending
    _started(ws, "second")
    _finished(ws, "second")
    assert not watch.pending


def test_a_fragment_run_answers_its_fragments_requests_only() -> None:
    watch, ws = _watched()
    _ask(ws, fragment="stepper")
    _ask(ws)  # a whole-page request too
    _started(ws, "fragment", ("stepper",))
    _finished(ws, "fragment", ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
    assert watch.pending  # the page's own run is still to come
    _started(ws, "page")
    _finished(ws, "page")
    assert not watch.pending


def test_a_fragments_timer_and_a_closed_socket_leave_nothing_to_wait_for() -> None:
    watch, ws = _watched()
    _ask(ws, fragment="live", auto=True)  # run_every: not an action's
    assert not watch.pending
    _ask(ws)
    ws.handlers["close"](ws)  # the page left: its requests with it
    assert not watch.pending


def test_the_watch_knows_whether_a_run_was_asked_for_since_the_page_was_last_idle() -> None:
    watch, ws = _watched()
    assert not watch.asked_since_idle  # a page just opened asked for nothing yet
    _ask(ws, fragment="live", auto=True)  # a fragment's timer is not an action's request
    assert not watch.asked_since_idle
    _ask(ws)
    assert watch.asked_since_idle and watch.pending
    _started(ws, "click")
    _finished(ws, "click")
    assert watch.asked_since_idle and not watch.pending  # answered, but asked since idle
    watch.mark_idle()
    assert not watch.asked_since_idle
    _ask(ws)
    assert watch.asked_since_idle


class _IdlePage(_Page):
    """A page on which no script runs: the front end's state stays "notRunning", so a wait for
    a run to start always times out, after the time it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[tuple[str, float]] = []  # (expression, timeout) of each wait

    def wait_for_selector(self, selector: str, timeout: float) -> None:
        pass

    def wait_for_function(self, expression: str, timeout: float) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.waits.append((expression, timeout))
        if "!== 'notRunning'" in expression:
            raise PlaywrightTimeout(f"{timeout} ms")

    def evaluate(self, expression: str) -> bool:
        self.waits.append((expression, 0))
        return "=== 'notRunning'" in expression  # the idle state, read at once

    def wait_for_timeout(self, ms: float) -> None:
        pass


def _waited_for_a_run_to_start(page: _IdlePage) -> bool:
    return any("!== 'notRunning'" in e and t == 600 for e, t in page.waits)


def test_wait_idle_gives_an_action_0_6_s_to_start_a_run_unless_its_request_was_seen() -> None:
    from tests.servers import wait_idle

    page = _IdlePage()
    watch = RunWatch.attach(page)
    ws = _Socket()
    page.handlers["websocket"](ws)
    wait_idle(page)  # nothing asked for yet: the action's run may still be on its way
    assert _waited_for_a_run_to_start(page)
    assert page.waits[-1][0].startswith("() => document") and "=== 'notRunning'" in \
        page.waits[-1][0]  # then the idle state, as before
    page.waits.clear()
    _ask(ws)
    _started(ws, "click")
    _finished(ws, "click")  # a fast run: over before wait_idle was called
    wait_idle(page)
    assert not _waited_for_a_run_to_start(page)  # its request was seen: no 0.6 s
    assert any("=== 'notRunning'" in e for e, _ in page.waits)  # the idle state still read
    assert not watch.asked_since_idle

