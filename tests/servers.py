"""Start the dashboard in a process of its own for a test, and stop it afterwards.

One place for what the browser tests, the ``--data`` launcher test and the package test each
did by hand: a free port, the headless flags, waiting for ``/_stcore/health``, and a teardown
that stops the server even when the test failed.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

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
            timeout: float = 90) -> Iterator[Server]:
    """Run ``command`` (``python -m streamlit run app.py``, ``python -m core app ...``,
    ``spanscope app``) with :data:`SERVER_FLAGS` on a free port; yield it once healthy.

    A server that exits or stays unhealthy for ``timeout`` seconds fails the test with its
    stderr (kept in a file: a pipe nobody reads would block a chatty server).
    """
    port = free_port()
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
                pytest.fail(f"{' '.join(command[:4])}: {why}\n"
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
