"""Reading uploaded or bundled files for the dashboard without ever showing a traceback.

:func:`guarded_load` wraps :func:`core.formats.load_files`: a ``SpanScopeError`` (bad input)
becomes its diagnostic, and any other exception, which is a bug in SpanScope since every reader
promises a ``FormatError`` for bad input, becomes an error saying so (:func:`bug_diagnostic`).
The Data page's file and folder uploads and the bundled samples all read through it.

:class:`InChild` computes a function in a forked copy of the process and hands its result back
pickled: the ``--data`` files read on the other core (:func:`ui.cli_data.read_reports`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import signal
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from core.formats import Loaded, ReadOptions, TableBudget, load_files
from core.model.errors import Diagnostic, SpanScopeError

T = TypeVar("T")

CHILD_LIMIT_S = 600
"""A forked copy of :class:`InChild` that has not sent its result after this many seconds is
ended by the system (``signal.alarm``): its caller then computes the result itself. A bound on
what should never happen (a lock held at the fork), not a clock of the work."""


def bug_diagnostic(filename: str, exc: BaseException) -> Diagnostic:
    """The error shown when reading raised something other than ``SpanScopeError``: a bug in
    SpanScope (the readers promise ``FormatError`` for every bad input), said as such.

    >>> str(bug_diagnostic("a.json", KeyError("x")))[:58]
    'a.json: SpanScope failed to read this file (KeyError); thi'
    """
    return Diagnostic(
        filename,
        f"SpanScope failed to read this file ({type(exc).__name__}); this is a bug in "
        "SpanScope, not necessarily in your file: please report it with the file",
        severity="error",
    )


def guarded_load(files: Mapping[str, bytes], *, name: str, fmt: str | None = None,
                 options: ReadOptions | None = None) -> tuple[Loaded | None, Diagnostic | None]:
    """``(loaded, None)``, or ``(None, the error)`` when the input cannot be read. Columnar
    tables are read under the server's budget (:meth:`core.formats.TableBudget.from_env`)."""
    try:
        budget = TableBudget.from_env(os.environ)
        options = dataclasses.replace(options or ReadOptions(), table_budget=budget)
        return load_files(files, fmt=fmt or None, name=name, options=options), None
    except SpanScopeError as exc:
        diag = getattr(exc, "diagnostic", None) or Diagnostic(name, str(exc), severity="error")
        return None, diag
    except Exception as exc:  # a reader bug must not become a traceback box for a visitor
        return None, bug_diagnostic(name, exc)


class InChild(Generic[T]):
    """``fn()`` computed in a forked copy of this process (``os.fork``), started at once; its
    result is pickled through a pipe (protocol 5) and read by :meth:`result`.

    The copy shares the process's memory as it was at the fork (copy on write): it needs no
    imports and no data sent, and it runs on the other core while this process goes on. Only
    the calling thread lives on in it, so ``fn`` must not need a lock another thread may hold:
    no import that another thread may be running (import what ``fn`` needs before the fork) and
    no Streamlit. The child ends with ``os._exit`` (no ``atexit`` handler of the server, no
    flush of its buffers); ``fn`` raising, or a result that does not pickle, ends it with
    status 1 and :meth:`result` returns None: the caller computes ``fn()`` itself, and meets
    the error where it would have."""

    def __init__(self, fn: Callable[[], T]) -> None:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, exit whatever happens
            code = 1
            try:
                os.close(read_end)
                # Ctrl+C in the terminal reaches the whole group: the server stops it
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(CHILD_LIMIT_S)
                data = pickle.dumps(fn(), protocol=5)
                with os.fdopen(write_end, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self.pid = pid
        self._read_end: int | None = read_end

    def result(self) -> T | None:
        """The child's result once it has sent it (this waits for it), or None when it failed
        (it raised, or was killed). Once only."""
        if self._read_end is None:
            raise RuntimeError("InChild.result() called twice")
        with os.fdopen(self._read_end, "rb") as pipe:
            self._read_end = None
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        if status != 0 or not data:
            return None
        return pickle.loads(data)

    def cancel(self) -> None:
        """Stop the child and reap it (the caller no longer wants its result)."""
        if self._read_end is None:
            return
        os.close(self._read_end)
        self._read_end = None
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
