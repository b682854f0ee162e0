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
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
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


def wait_idle(page: Any, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished the script run that the last action started.

    The front end keeps the run state on ``stApp`` (``data-test-script-state``), but a click's
    rerun reaches the server a moment after the click, so a check right after it can still
    see the previous run's "notRunning". Give a run up to 0.6 s to start, then wait for it to
    end (and for the status widget to go).
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    state = ("document.querySelector('[data-testid=\"stApp\"]')"
             "?.getAttribute('data-test-script-state')")
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => {state} !== 'notRunning'", timeout=600)
    page.wait_for_function(
        f"() => {state} === 'notRunning'"
        " && !document.querySelector('[data-testid=\"stStatusWidget\"]')",
        timeout=timeout,
    )


def wait_handed_over(page: Any, timeout: float = 15_000) -> None:
    """On the Documents page, wait until the highlights are the swapping component's
    (:data:`HANDED_OVER`), then until the run that handed them over has ended; at once on
    another page. A page whose component never takes them (a test of the fallback) is left as
    it is after ``timeout``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(HANDED_OVER, timeout=timeout)
    except PlaywrightTimeout:
        return
    wait_idle(page, timeout)
