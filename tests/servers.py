"""Start the dashboard in a process of its own for a test, and stop it afterwards; wait for
the script run a browser's action started.

One place for what the browser tests, the ``--data`` launcher test, the package test and
``scripts/docs_screenshots.py`` each did by hand: a free port, the headless flags, waiting for
``/_stcore/health``, a teardown that stops the server even when the test failed, and
:func:`wait_idle`.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Client, Connection
from pathlib import Path
from typing import Any, NoReturn

import pytest

SERVER_FLAGS = ("--server.headless=true", "--server.address=127.0.0.1",
                "--browser.gatherUsageStats=false", "--server.fileWatcherType=none")
"""What every test server runs with, besides its port."""


def free_port() -> int:
    """A TCP port nobody listens on (yet) on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    """A running test server: its process (the launcher exec's streamlit, so this PID is the
    server itself), port and URL."""

    process: subprocess.Popen[bytes]
    port: int
    url: str


@contextlib.contextmanager
def running(command: Sequence[str], *, cwd: Path, env: Mapping[str, str],
            timeout: float = 90, port: int | None = None,
            fail: Callable[[str], NoReturn] = pytest.fail) -> Iterator[Server]:
    """Run ``command`` (``python -m streamlit run app.py``, ``python -m core app ...``,
    ``spanscope app``) with :data:`SERVER_FLAGS` on ``port`` (a free one by default); yield it
    once healthy.

    A server that exits or stays unhealthy for ``timeout`` seconds is given to ``fail`` (the
    test fails; ``scripts/docs_screenshots.py`` exits) with its stderr (kept in a file: a pipe
    nobody reads would block a chatty server).
    """
    port = free_port() if port is None else port
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen([*command, *SERVER_FLAGS, f"--server.port={port}"], cwd=cwd,
                                env=dict(env), stdout=subprocess.DEVNULL, stderr=stderr)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + timeout
            while time.time() < deadline and proc.poll() is None:
                try:
                    if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                        break
                except OSError:
                    time.sleep(0.2)
            else:
                stderr.seek(0)
                why = "exited" if proc.poll() is not None else f"not healthy within {timeout:.0f} s"
                fail(f"{' '.join(command[:4])}: {why}\n"
                     f"{stderr.read().decode(errors='replace')[-2000:]}")
            yield Server(proc, port, url)
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)


HANDED_OVER = """() => !document.querySelector('.ss-stale')
    && (!document.querySelector('#left-doc') || !!document.querySelector('.ss-switch #left-doc'))"""
"""The Documents page's highlights handed to the swapping component (``ui/doc_switch.py``): on a
session's first visit the page draws them twice (``st.html`` and the component), the component
reports that its script runs, and the run that follows removes the ``st.html`` copy. Until then
an element found by its id (``#merged``) may be the copy that run detaches. True at once on a
page without highlights."""


_RUN_EDGES = {4, 6}
"""ForwardMsg's fields ``new_session`` and ``script_finished`` (Streamlit's ForwardMsg.proto)."""


def _forward_type(payload: bytes) -> int | None:
    """The field number of a serialised ForwardMsg's ``type``: its first top-level field but
    ``hash`` (1) and ``metadata`` (2), which protobuf writes before it (fields go out in the
    order of their numbers; every other field of ForwardMsg is one of ``type``)."""

    def varint(at: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = payload[at]
            value |= (byte & 0x7F) << shift
            at += 1
            if byte < 0x80:
                return value, at
            shift += 7

    at = 0
    while at < len(payload):
        key, at = varint(at)
        if key >> 3 not in (1, 2):
            return key >> 3
        if key & 7 != 2:  # hash and metadata are both length-delimited
            return None
        length, at = varint(at)
        at += length
    return None


class RunWatch:
    """The script runs a page asked for and whether each has ended, read off the page's
    websocket as Playwright sees it go by: Streamlit's own messages, a ``rerun_script`` BackMsg
    for each run the browser asks for (a click, a key, a component's value, a page's load; a
    fragment's alone when it names one; a fragment's timer's is not an action's), a
    ``new_session`` ForwardMsg when a run starts and a ``script_finished`` when it ends, both
    naming the run (``metadata.run``).

    A request is answered when a run that started after it was sent and covers it (a whole run
    covers every request, a fragment's run those of its fragments) has finished other than
    stopped for a rerun (the run that replaces it answers it then). :func:`wait_idle` waits for
    that, however late a busy server starts the run; :meth:`attach` it before the page opens
    the app."""

    def __init__(self) -> None:
        self._open: list[dict[str, Any]] = []  # unanswered requests: socket, fragment, run
        self._asked = 0  # requests seen so far
        self._asked_when_idle = 0  # ... when :func:`wait_idle` last returned

    def reset(self) -> None:
        """Forget every request seen: a page handed to the next test (the e2e fixtures' shared
        page, ``tests/e2e/conftest.py``) starts as a new page's watch does."""
        self.__init__()  # type: ignore[misc]

    @property
    def asked_since_idle(self) -> bool:
        """Whether the page has asked for a run since :func:`wait_idle` last returned (or
        since it was attached), answered or not."""
        return self._asked > self._asked_when_idle

    def mark_idle(self) -> None:
        """What :func:`wait_idle` calls when it returns: the runs asked for so far are over."""
        self._asked_when_idle = self._asked

    @classmethod
    def attach(cls, page: Any) -> RunWatch:
        """Watch ``page``'s websockets from now on; kept as ``page.run_watch``."""
        watch = cls()
        page.on("websocket", watch._socket)
        page.run_watch = watch
        return watch

    @property
    def pending(self) -> bool:
        """Whether a run the page asked for has not ended yet."""
        return bool(self._open)

    def _socket(self, ws: Any) -> None:
        if "_stcore/stream" not in ws.url:
            return
        ws.on("framesent", lambda payload: self._sent(ws, payload))
        ws.on("framereceived", self._received)
        # a page that leaves (a reload, another URL) takes its requests with it
        ws.on("close", lambda _ws: self._forget(ws))

    def _forget(self, ws: Any) -> None:
        self._open = [r for r in self._open if r["socket"] is not ws]

    def _sent(self, ws: Any, payload: str | bytes) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if isinstance(payload, bytes):
            msg = BackMsg.FromString(payload)
            # a fragment's timer (``run_every``) asks on its own, not for a person's action,
            # and a server drops it when the fragment has gone meanwhile: not waited for
            if msg.WhichOneof("type") == "rerun_script" and not msg.rerun_script.is_auto_rerun:
                self._open.append({"socket": ws, "fragment": msg.rerun_script.fragment_id,
                                   "run": None})
                self._asked += 1

    def _received(self, payload: str | bytes) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if not isinstance(payload, bytes) or _forward_type(payload) not in _RUN_EDGES:
            return  # the page's content (deltas: tables, charts) is not parsed
        msg = ForwardMsg.FromString(payload)
        kind = msg.WhichOneof("type")
        run = msg.metadata.run.script_run_id
        if kind == "new_session":
            fragments = set(msg.metadata.run.fragment_ids)
            for request in self._open:
                if not fragments or request["fragment"] in fragments:
                    request["run"] = run
        elif kind == "script_finished":
            if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                for request in self._open:  # the run that replaces this one answers them
                    if request["run"] == run:
                        request["run"] = None
            else:
                self._open = [r for r in self._open if r["run"] != run]


_STATE = "document.querySelector('[data-testid=\"stApp\"]')?.getAttribute('data-test-script-state')"
_IDLE = (f"() => {_STATE} === 'notRunning'"
         " && !document.querySelector('[data-testid=\"stStatusWidget\"]')")
TICKING_MS = 5_000
"""How long :func:`wait_idle` still waits for the idle state once every run the page asked for
has ended: a page whose fragment reruns on a timer may never show it."""
_TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def wait_idle(page: Any, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished the script run that the last action started.

    The front end keeps the run state on ``stApp`` (``data-test-script-state``), but a click's
    rerun reaches the server a moment after the click, so a check right after it can still see
    the previous run's "notRunning". A page with a :class:`RunWatch` (``page.run_watch``: the
    e2e fixtures' pages) knows from its websocket that the browser asked for a run: give the
    browser up to 0.6 s to send the action's request (or the run to start), then wait until
    every run asked for has ended, however late the server starts it, and the front end has
    drawn what it sent (two animation frames, then the idle state, which a fragment's timer
    may keep away: up to :data:`TICKING_MS`). When the browser asked for no run within the
    0.6 s, or on a page without a watch: give the run up to 0.6 s to start, then wait for it
    to end (and for the status widget to go). Each wait may take up to ``timeout`` ms.

    The 0.6 s are not waited when the watch has already seen the browser ask for a run since
    the last ``wait_idle`` returned (:attr:`RunWatch.asked_since_idle`): the action's request
    went out. A run that fast had often ended before the front end's state was first read, and
    the 0.6 s ran out in full (0.6-0.9 s each: docs/dashboard.md, "Tests"). Where no run was
    asked for (before a click, after the Documents page's hand-over) they are still waited: a
    component's own request may be on its way.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout / 1000
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    watch: RunWatch | None = getattr(page, "run_watch", None)
    if watch is None or not (watch.pending or watch.asked_since_idle):
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"() => {_STATE} !== 'notRunning'", timeout=600)
    _wait_runs(page, watch, timeout, deadline)
    if watch is not None:
        watch.mark_idle()


def _wait_runs(page: Any, watch: RunWatch | None, timeout: float, deadline: float) -> None:
    """:func:`wait_idle` once the action's run has had its time to start: every run asked for
    has ended and is drawn, or (none asked for) the front end shows the idle state."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    if watch is not None and (watch.pending or watch.asked_since_idle):
        # a run's output may ask for another (a component reporting it is mounted): until none
        # (a run asked for and already over: drawn and idle, the same checks)
        while True:
            while watch.pending:  # Playwright hands over the frames while it waits
                if time.monotonic() > deadline:
                    raise PlaywrightTimeout(f"wait_idle: {len(watch._open)} run(s) asked for "
                                            f"did not end within {timeout:.0f} ms: {watch._open}")
                page.wait_for_timeout(50)
            with contextlib.suppress(PlaywrightError):  # a run that loaded another document
                page.evaluate(_TWO_FRAMES)
            # The runs asked for have ended and are drawn. A fragment's timer (``run_every``:
            # a live class's counts) may keep the page running by itself, run after run on a
            # loaded machine: that is not the action's, so it is not waited out.
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(_IDLE, timeout=TICKING_MS)
            if not watch.pending:
                return
    page.wait_for_function(_IDLE, timeout=timeout)


def wait_handed_over(page: Any, timeout: float = 15_000, idle_timeout: float = 60_000) -> None:
    """On the Documents page, wait until the highlights are the swapping component's
    (:data:`HANDED_OVER`), then until the run that handed them over has ended (up to
    ``idle_timeout``: a busy machine's browser may still be drawing a heavy page's first run);
    at once on another page. A page whose component never takes them (a test of the fallback)
    is left as it is after ``timeout``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(HANDED_OVER, timeout=timeout)
    except PlaywrightTimeout:
        return
    wait_idle(page, idle_timeout)


def worker_client(address: str, key: bytes) -> Connection:
    """A client of a background worker's listener (:func:`ui.gamma_worker.serve`) once it
    listens: its socket file appears at bind(), a moment before listen(), and a connection in
    between is refused."""
    for _ in range(400):
        try:
            return Client(address, family="AF_UNIX", authkey=key)
        except (FileNotFoundError, ConnectionRefusedError):
            threading.Event().wait(0.05)
    return Client(address, family="AF_UNIX", authkey=key)
