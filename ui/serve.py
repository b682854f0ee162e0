"""``python -m ui.serve run app.py [ARGS]``: ``streamlit run`` that reads the ``--data`` files
while the server starts.

``spanscope app --data`` (:mod:`core.cli.launch`) runs this module instead of ``python -m
streamlit``: the same command line of Streamlit (its ``main``, in this process), plus

* a reader process forked first thing (:func:`fork_reader`; files of :data:`FORK_BYTES` or
  more), which reads the files named in ``SPANSCOPE_DATA`` on the machine's other core and
  sends their reports, pickled, through a pipe (smaller files the thread below reads itself);
* a thread (:func:`early`) that, once the server has started, hands those reports to the
  pages' cache (:func:`ui.cli_data.hand_over`, :func:`ui.cli_data.read_early`) and meanwhile
  imports the modules every page's run imports first (``app.py``'s own).

The browser's first request then finds the files read, or being received, instead of starting
the read: at 100,000 documents reading takes about 1.5 s of CPU and the first run's imports
0.4 s, which the server's process no longer spends; unpickling the reports takes 0.13 s
(docs/performance.md, issue 29, sixth pass). One read either way (Streamlit's caches compute a
key once; :func:`ui.cli_data.read_count`); a reader that fails leaves the read to the server,
as before.

Nothing of ``ui`` is imported before Streamlit's own command line but this module: the fork
needs a process of one thread, and ``ui``'s caches are declared once a runtime holds them.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import importlib
import json
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

DATA_ENV = "SPANSCOPE_DATA"  # ui.cli_data.DATA_ENV, not imported before the server starts
RUNTIME_WAIT_S = 30.0
"""How long the thread waits for Streamlit's server to start before reading anyway."""
EARLY_THREAD = "spanscope-serve-early"
FORK_BYTES = 64 * 2**20
"""From this many bytes of ``--data`` files on, a reader process reads them
(:func:`fork_reader`); below, the server's thread does: at 10,000 documents (25 MB) the
reader's start (its imports, 0.4 s of CPU) costs more than the read it takes off the server
(0.2 s; docs/performance.md, issue 29, sixth pass)."""


def data_bytes(environ: Mapping[str, str] | None = None) -> int:
    """The size of the files named in ``SPANSCOPE_DATA`` (a folder's files summed), 0 when it
    names none or cannot be read (the server then reports what is wrong)."""
    raw = (os.environ if environ is None else environ).get(DATA_ENV, "")
    total = 0
    try:
        for item in json.loads(raw) if raw else []:
            path = Path(str(item["path"]))
            files = path.rglob("*") if path.is_dir() else [path]
            total += sum(f.stat().st_size for f in files if f.is_file())
    except (OSError, ValueError, TypeError, KeyError):
        return 0
    return total


def _server_started(timeout: float) -> bool:
    """Whether Streamlit's runtime has started (the server is about to take requests) within
    ``timeout`` seconds, polled every 10 ms: what :func:`early` does in this process waits
    for it, so that the server answers, and the browser loads the page, first."""
    from streamlit import runtime
    from streamlit.runtime.runtime import Runtime, RuntimeState

    deadline = time.monotonic() + timeout
    while not runtime.exists() or Runtime.instance().state == RuntimeState.INITIAL:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def ui_modules(script: Path) -> list[str]:
    """The ``ui`` modules that ``script`` (``app.py``, which every page's run runs first)
    imports, in the order found, each once; none when it cannot be read (its own run reports
    it). The pages' own modules are left to the page asked for: beyond what ``app.py``
    imports (pandas, plotly and the modules of the pages computed ahead, ``ui.ahead``) they
    cost little, and the first page needs one of them.

    >>> "ui.ahead" in ui_modules(Path(__file__).resolve().parent.parent / "app.py")
    True
    """
    try:
        tree = ast.parse(script.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    found: dict[str, None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "ui":
            found.update(dict.fromkeys(f"ui.{a.name}" for a in node.names))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ui."):
            found[str(node.module)] = None
        elif isinstance(node, ast.Import):
            found.update(dict.fromkeys(a.name for a in node.names if a.name.startswith("ui.")))
    return list(found)


class Forked:
    """A reader process forked as the server starts (:func:`fork_reader`): it reads the
    ``--data`` files, then sends their reports, pickled, through a pipe."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd
        self._done = False

    def receiver(self, key: str) -> Callable[[], list[Any] | None]:
        """What :func:`ui.cli_data.hand_over` calls: the reports, or None when the reader
        failed or read other files than those of fingerprint ``key``."""

        def receive() -> list[Any] | None:
            if self._done:  # discarded: its pipe is closed, its number maybe reused
                return None
            got: object = None
            # Unpickling allocates the corpus's objects: the cycle collector waits, as it does
            # while the files are read (ui.cli_data).
            enabled = gc.isenabled()
            gc.disable()
            try:
                with os.fdopen(self.fd, "rb") as pipe:
                    got = pickle.load(pipe)
            except Exception:  # the reader died or failed: the files are read here instead
                got = None
            finally:
                if enabled:
                    gc.enable()
                self._reap()
            if isinstance(got, tuple) and len(got) == 2 and got[0] == key:
                return list(got[1])
            return None

        return receive

    def discard(self) -> None:
        """Stop the reader when its reports were not needed (a page read the files first)."""
        if self._done:
            return
        with contextlib.suppress(OSError):
            os.close(self.fd)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGTERM)
        self._reap()

    def _reap(self) -> None:
        if not self._done:
            self._done = True
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)


def _read_in_child(fd: int) -> None:
    """The reader process: read the ``--data`` files and write ``(fingerprint, reports)``."""
    import streamlit.logger

    # This process serves nothing: Streamlit's notes on caches declared without a runtime are
    # not for the user.
    streamlit.logger.set_log_level("error")
    from ui import cli_data

    gc.disable()  # it exits once the reports are sent
    args = cli_data.data_args()
    key = cli_data.fingerprint(args)
    reports = cli_data.read_reports(args)
    with os.fdopen(fd, "wb") as pipe:
        pickle.dump((key, reports), pipe, protocol=pickle.HIGHEST_PROTOCOL)


def fork_reader() -> Forked | None:
    """Fork a process that reads the ``--data`` files (None where ``os.fork`` does not exist).

    Called first thing, while this process has one thread (forking is safe), so that the
    files are read on the machine's other core while this one starts the server; the server's
    thread then only unpickles their reports (0.13 s against 1.5 s of reading at 100,000
    documents, docs/performance.md, issue 29, sixth pass), and holds the interpreter's lock
    meanwhile for that alone. The child exits without running this process's exit handlers
    (``os._exit``), 0 once the reports are sent, 1 on any error (the server then reads the
    files itself and meets the error as it would have)."""
    if not hasattr(os, "fork"):
        return None
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(read_end)
            _read_in_child(write_end)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return Forked(pid, read_end)


def early(script: Path | None, forked: Forked | None = None,
          timeout: float = RUNTIME_WAIT_S) -> None:
    """Once the server has started, read the ``--data`` files into the pages' cache (their
    reports taken from ``forked`` when given) and import the ``ui`` modules of ``script``
    (:func:`ui_modules`: about 0.4 s of CPU, pandas and plotly among them, that the first
    page's run would otherwise spend), the imports while the reader process reads."""
    _server_started(timeout)
    from ui import cli_data

    if forked is not None:
        key = cli_data.fingerprint(cli_data.data_args())
        cli_data.hand_over(key, forked.receiver(key))
    reader = cli_data.read_early()
    if reader is None:
        if forked is not None:
            forked.discard()
        return
    for name in ui_modules(script) if script is not None else []:
        try:
            importlib.import_module(name)
        except Exception:  # the page that imports it reports it
            break
    reader.join()
    if forked is not None:
        forked.discard()


def main() -> None:
    """Streamlit's command line (``sys.argv``: ``run app.py ...``), with :func:`early` in a
    thread when the app was started with ``--data``, the files read by a process forked
    first (:func:`fork_reader`) when they hold at least :data:`FORK_BYTES`."""
    if not os.environ.get(DATA_ENV):
        from streamlit.web import cli

        cli.main(prog_name="streamlit")
        return
    forked = fork_reader() if data_bytes() >= FORK_BYTES else None
    from streamlit.web import cli

    argv = sys.argv[1:]
    script = Path(argv[1]) if len(argv) > 1 and argv[0] == "run" else None
    threading.Thread(target=early, args=(script, forked), name=EARLY_THREAD,
                     daemon=True).start()
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
