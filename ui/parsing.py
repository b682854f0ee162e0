"""Reading uploaded or bundled files for the dashboard without ever showing a traceback.

:func:`guarded_load` wraps :func:`core.formats.load_files`: a ``SpanScopeError`` (bad input)
becomes its diagnostic, and any other exception, which is a bug in SpanScope since every reader
promises a ``FormatError`` for bad input, becomes an error saying so (:func:`bug_diagnostic`).
The Data page's file and folder uploads and the bundled samples all read through it.

:class:`InChild` computes a function in a forked copy of the process and hands its result back
pickled, through a file in memory: the ``--data`` files read on the other core
(:func:`ui.cli_data.read_reports`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import mmap
import os
import pickle
import select
import signal
import tempfile
import time
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from core.formats import Loaded, ReadOptions, TableBudget, load_files
from core.model.errors import Diagnostic, SpanScopeError

T = TypeVar("T")

CHILD_LIMIT_S = 600
"""A forked copy of :class:`InChild` that has not sent its result after this many seconds is
ended by the system (``signal.alarm``): its caller then computes the result itself. The last
bound, for a copy that works on and on; a copy blocked for good is ended long before by its
caller (:data:`STALL_S`)."""
STALL_S = 0.5
"""Seconds a forked copy may wait on a lock without using any CPU while its caller waits for it
(:meth:`InChild.result`): then it is blocked for good, on a lock another thread of the process
held at the fork (only the forking thread lives on in the copy, and nothing releases it), and
the caller kills it and computes the result itself. A copy at work is running, waiting for a
core (state ``R``) or for the disk (``D``), and uses CPU in any tenth of a second it is given
a core; asleep (``S``) with its CPU time still, it waits for something, and the kernel says
what (``/proc/PID/wchan``): ``futex_...`` is a lock (a copy has one thread: none of its own
can release it), anything else the outside world (a pipe given as a file, a file on a FUSE file
system whose read sleeps in ``S``, a timer), which the copy is given :data:`ASLEEP_S` for. A
copy stopped (``T``) is taken for blocked as well, and so is one asleep where the system does
not say on what. Half a second is five looks (:data:`POLL_S`) at a process that should never
sleep, and what the first load pays for a copy that does, on top of reading the copy's files
itself."""
ASLEEP_S = 30.0
"""Seconds a forked copy may sleep on something other than a lock (a pipe, a file system that
answers slowly, a timer: :data:`STALL_S`) without using any CPU before its caller kills it and
computes the result itself: what comes late still comes, and is waited for, up to this."""
POLL_S = 0.1
"""Seconds between two looks at a copy's state while its caller waits (:data:`STALL_S`); its
exit wakes the caller at once (a pipe the copy holds open closes when it exits). A look reads
``/proc/PID/stat``: a wait cost its caller 3 ms of CPU with a look every 0.1 s, 5 ms every
0.05 s, against 1 ms for ``waitpid`` alone (docs/performance.md, issue 29, eighteenth pass)."""


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
    result is pickled (protocol 5) into a file in memory and read by :meth:`result`.

    The copy shares the process's memory as it was at the fork (copy on write): it needs no
    imports and no data sent, and it runs on the other core while this process goes on. Only
    the calling thread lives on in it, so ``fn`` must not need a lock another thread may hold:
    no import that another thread may be running (import what ``fn`` needs before the fork) and
    no Streamlit. The child ends with ``os._exit`` (no ``atexit`` handler of the server, no
    flush of its buffers); ``fn`` raising, or a result that does not pickle, ends it with
    status 1 and :meth:`result` returns None: the caller computes ``fn()`` itself, and meets
    the error where it would have. A fork (or the pipe below) the system refuses raises its
    ``OSError`` from here, the result file closed.

    The result travels through a file in memory (:func:`_result_file`: ``memfd_create`` on
    Linux, a deleted temporary file elsewhere) that the child writes and this process maps
    (``mmap``) and unpickles in place, instead of a pipe whose bytes this process copied out
    first: at 100,000 documents, 89 MB read from a pipe took 0.05 s of the server's CPU on the
    first load's path (docs/performance.md, issue 29, seventeenth pass). :attr:`transport` says
    which file was used.

    A copy blocked for good (a lock held at the fork after all) does not keep its caller
    waiting: once the caller waits (:meth:`result`), a copy asleep on a lock (or stopped)
    without using CPU for :data:`STALL_S` is killed and reaped (asleep on anything else, after
    :data:`ASLEEP_S`), and :meth:`result` returns None, as for a copy that
    failed (docs/robustness.md, "Waits that end"). The caller learns of the
    copy's exit from a pipe the copy holds open, at once, not from a clock."""

    def __init__(self, fn: Callable[[], T]) -> None:
        fd, self.transport = _result_file()
        # the copy holds the write end open until it exits, however it exits: the read end
        # wakes the caller then (EOF), where a wait on the pid alone has no timeout
        try:
            exited, alive = os.pipe()
        except BaseException:  # no descriptors left (EMFILE): nor the result file (review19)
            os.close(fd)
            raise
        try:
            pid = os.fork()
        except BaseException:  # no fork (EAGAIN, ENOMEM): nothing may stay open; the caller
            # reads the files itself
            for one in (fd, exited, alive):
                os.close(one)
            raise
        if pid == 0:  # the child: compute, write, exit whatever happens
            code = 1
            try:
                os.close(exited)
                # Ctrl+C in the terminal reaches the whole group: the server stops it
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(CHILD_LIMIT_S)
                value = fn()
                with open(fd, "wb", buffering=1 << 20) as out:
                    pickle.dump(value, out, protocol=5)
                code = 0
            finally:
                os._exit(code)
        os.close(alive)
        self.pid = pid
        self._fd: int | None = fd
        self._exited: int | None = exited
        self.stalled = False
        """Whether :meth:`result` found the copy blocked and killed it (:data:`STALL_S`)."""
        self.stalled_in: str | None = None
        """Where the copy slept when it was killed as blocked: its state and the kernel function
        it waited in (``S futex_wait_queue``: a lock; ``/proc/PID/wchan``), for the warning
        that says so (:func:`ui.cli_data.read_reports`)."""
        self.waited_s = 0.0
        """Seconds :meth:`result` waited for the copy (its exit, or its kill)."""

    def result(self) -> T | None:
        """The child's result once it has written it and exited (this waits for it), or None
        when it failed (it raised, or was killed). A child blocked for good (asleep on a lock,
        or stopped, using no CPU, for :data:`STALL_S` while this waits; asleep on anything else
        for :data:`ASLEEP_S`) is killed and reaped, and this returns None (:attr:`stalled`).
        Once only."""
        if self._fd is None:
            raise RuntimeError("InChild.result() called twice")
        fd, self._fd = self._fd, None
        try:
            began = time.monotonic()
            try:
                status = self._wait()
            except BaseException:  # the server stopped meanwhile: no copy left behind
                self._kill()
                raise
            finally:
                self.waited_s = time.monotonic() - began
            if status is None:
                self.stalled = True
                return None
            size = os.fstat(fd).st_size
            if status != 0 or size == 0:
                return None
            # the pages are the child's, already written: mapped at once (MAP_POPULATE) and
            # read in place; the unpickled objects own copies of what they hold, so the map is
            # closed after
            view = mmap.mmap(fd, size, flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0),
                             prot=mmap.PROT_READ)
            try:
                return pickle.loads(view)
            finally:
                view.close()
        finally:
            os.close(fd)

    def cancel(self) -> None:
        """Stop the child and reap it (the caller no longer wants its result)."""
        if self._fd is None:
            return
        os.close(self._fd)
        self._fd = None
        self._kill()

    def _wait(self) -> int | None:
        """The child's exit status once it has exited, or None once it is blocked for good
        (:meth:`_blocked`: then it is killed and reaped, :meth:`_kill`). Where the
        system says nothing of a process's state (no ``/proc``), this waits for the exit, which
        :data:`CHILD_LIMIT_S` bounds."""
        assert self._exited is not None
        exited = select.poll()  # not select.select: a server may hold descriptors past 1024
        exited.register(self._exited, select.POLLIN)
        quiet_since: float | None = None
        last = _activity(self.pid)
        while True:
            timeout = int(POLL_S * 1000) if last is not None else None
            if exited.poll(timeout):
                return self._reap()
            now = time.monotonic()
            seen = _activity(self.pid)
            if seen is None or last is None:
                last = seen
                continue
            state, used = seen
            if state == "Z":  # exited, and another copy forked meanwhile holds the pipe open
                return self._reap()
            if state in "RD" or used != last[1]:
                quiet_since = None  # running, waiting for a core or the disk, or it used CPU
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since >= STALL_S and self._blocked(state, used, now - quiet_since):
                self._kill()
                return None
            last = seen

    def _blocked(self, state: str, used: int, quiet_s: float) -> bool:
        """Whether the copy, quiet (no CPU, no page fault) for ``quiet_s`` >= :data:`STALL_S`
        seconds in ``state``, is blocked for good: stopped, or asleep on a lock (``futex``), or
        asleep where the system does not say on what (its state and activity looked at again, so
        that a copy that woke up between two looks is not taken for one); asleep on anything
        else, once it has been so for :data:`ASLEEP_S`. Sets :attr:`stalled_in` when it is."""
        wchan = _wchan(self.pid)
        if not wchan:  # running at that instant, or a system that hides it
            again = _activity(self.pid)
            if again is None or again[0] in "RDZ" or again[1] != used:
                return False
        if state in "Tt" or "futex" in wchan or not wchan or quiet_s >= ASLEEP_S:
            self.stalled_in = f"{state} {wchan}".rstrip()
            return True
        return False

    def _reap(self) -> int:
        """The exited child's status, reaped."""
        _, status = os.waitpid(self.pid, 0)
        self._close_exited()
        return status

    def _kill(self) -> None:
        """Kill the child and reap it (no zombie), once."""
        if self._exited is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        self._close_exited()

    def _close_exited(self) -> None:
        if self._exited is not None:
            os.close(self._exited)
            self._exited = None


def _activity(pid: int) -> tuple[str, int] | None:
    """The process ``pid``'s state (one letter: ``R`` running or waiting for a core, ``D``
    waiting for the disk, ``S`` asleep, ``T`` stopped, ``Z`` exited) and the CPU it has used with
    its page faults (``/proc/PID/stat``: fields 3, 10, 12, 14 and 15, in clock ticks and
    counts: any change is work), or None where the system has no ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the command's closing parenthesis: state, ppid, ..., minflt (7), majflt (9),
    # utime (11), stime (12)
    return fields[0].decode(), int(fields[7]) + int(fields[9]) + int(fields[11]) + int(fields[12])


def _wchan(pid: int) -> str:
    """The kernel function in which the process ``pid`` sleeps (``/proc/PID/wchan``:
    ``futex_wait_queue`` for a lock, ``pipe_read``, ``do_epoll_wait``...), or "" where the
    system does not say (no ``/proc``, or ``0``: running, or hidden)."""
    try:
        with open(f"/proc/{pid}/wchan", "rb") as f:
            name = f.read().decode("ascii", "replace").strip()
    except OSError:
        return ""
    return "" if name == "0" else name


def _result_file() -> tuple[int, str]:
    """A file descriptor for :class:`InChild`'s result, empty, and what it is: ``"memfd"``, a
    file in memory that no name reaches (Linux, ``os.memfd_create``), else ``"tempfile"``, a
    temporary file deleted at once (the system's page cache holds it while it is small).
    Neither is inherited by a program the process runs (close on exec)."""
    if hasattr(os, "memfd_create"):
        with contextlib.suppress(OSError):  # a kernel without memfd (before Linux 3.17)
            return os.memfd_create("spanscope-in-child", os.MFD_CLOEXEC), "memfd"
    fd, path = tempfile.mkstemp(prefix="spanscope-in-child-")
    os.unlink(path)
    return fd, "tempfile"
