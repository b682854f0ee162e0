"""A reading copy that never answers does not hang the first load (``ui.parsing.InChild``).

The first load forks a copy of the server to read the last ``--data`` files
(:func:`ui.cli_data.read_reports`). Only the forking thread lives on in the copy: a lock that
another thread held at the fork stays held there for good, and a copy that needs it blocks.
The server then waited for the copy's own alarm (``CHILD_LIMIT_S``, 600 s): ten minutes of a
page that never loads. Now, once the server has read its own files and waits, a copy that sits
asleep using no CPU for ``STALL_S`` is killed and reaped, and the server reads its files
itself: the same reports as a read in one process. Which path ran is read from the copy's
``stalled`` flag, the reaped pid and the open file descriptors, never from a clock
(docs/robustness.md, "Waits that end")."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ui import cli_data, parsing
from ui.parsing import InChild

DATA = Path(__file__).parent / "data"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the copy's activity is read from /proc (Linux)")


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True  # no such child left: reaped, no zombie
    return False


def test_a_copy_blocked_on_a_lock_held_at_the_fork_is_killed_and_reaped() -> None:
    held = threading.Lock()
    holder_has_it, release = threading.Event(), threading.Event()

    def hold() -> None:  # another thread of the process holds the lock across the fork
        with held:
            holder_has_it.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    holder_has_it.wait()
    before = _open_fds()
    try:
        def blocked() -> str:
            with held:  # the thread that holds it does not exist in the copy
                return "never"
        child = InChild(blocked)
        assert child.result() is None
    finally:
        release.set()
        holder.join()
    assert child.stalled
    assert _reaped(child.pid)
    assert _open_fds() == before  # the result's file closed


def test_a_copy_asleep_is_killed_and_one_that_works_is_waited_for() -> None:
    asleep = InChild(lambda: time.sleep(3600))
    assert asleep.result() is None and asleep.stalled and _reaped(asleep.pid)

    def busy() -> int:  # CPU for longer than STALL_S: working, not stalled
        end = time.process_time() + 2 * parsing.STALL_S
        n = 0
        while time.process_time() < end:
            n += 1
        return 7

    working = InChild(busy)
    assert working.result() == 7 and not working.stalled and _reaped(working.pid)


def test_a_copy_stopped_by_a_signal_counts_as_stalled(monkeypatch: pytest.MonkeyPatch) -> None:
    # a copy stopped (SIGSTOP: state T) uses no CPU either; the wait ends the same way
    def stop_self() -> int:
        os.kill(os.getpid(), signal.SIGSTOP)
        return 1
    child = InChild(stop_self)
    assert child.result() is None and child.stalled and _reaped(child.pid)


def test_the_first_load_reads_the_files_itself_when_its_copy_is_blocked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = []
    for name in ("gold.json", "system_a.json", "system_b.json"):
        shutil.copy(DATA / name, tmp_path / name)
        args.append(cli_data.DataArg("gold" if name.startswith("gold") else "system",
                                     str(tmp_path / name)))
    alone = cli_data.read_reports(tuple(args))

    held = threading.Lock()
    copies: list[InChild[Any]] = []

    class Blocked(InChild[Any]):
        """The copy takes a lock the server held at the fork (an import, a logging handler's
        lock in a real server): it never gets it."""

        def __init__(self, fn: Any) -> None:
            def blocked() -> Any:
                with held:
                    return fn()
            super().__init__(blocked)
            copies.append(self)

    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    monkeypatch.setattr(cli_data, "InChild", Blocked)
    before_forks, before_fds = cli_data.fork_count(), _open_fds()
    with held:
        shared = cli_data.read_reports(tuple(args))
    assert len(copies) == 1 and copies[0].stalled and _reaped(copies[0].pid)
    assert cli_data.fork_count() == before_forks  # the server read the copy's files
    assert _open_fds() == before_fds
    assert [(r.file, r.format, r.role, r.name, r.error, dict(r.texts),
             [(s.name, {d: tuple(v) for d, v in s.spans.items()}) for s in r.sets])
            for r in shared] == [
        (r.file, r.format, r.role, r.name, r.error, dict(r.texts),
         [(s.name, {d: tuple(v) for d, v in s.spans.items()}) for s in r.sets])
        for r in alone]
    assert [r.ok for r in shared] == [True, True, True]


def test_a_copy_whose_exit_is_not_heard_is_reaped_by_its_state(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # another copy forked meanwhile inherits the pipe's write end: the exit closes no pipe,
    # and the copy, exited (state Z), is reaped with its result, not taken for a blocked one
    kept: list[int] = []
    real_pipe = os.pipe

    def pipe() -> tuple[int, int]:
        r, w = real_pipe()
        kept.append(os.dup(w))  # the write end held elsewhere
        return r, w

    monkeypatch.setattr(parsing.os, "pipe", pipe)
    try:
        child = InChild(lambda: {"n": [1, 2, 3]})
        assert child.result() == {"n": [1, 2, 3]}
        assert not child.stalled and _reaped(child.pid)
    finally:
        for fd in kept:
            os.close(fd)


def test_a_server_stopped_while_it_waits_leaves_no_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    looks = [0]
    real_activity = parsing._activity

    def interrupted(pid: int) -> Any:
        looks[0] += 1
        if looks[0] == 3:
            raise KeyboardInterrupt  # Ctrl+C while the server waits for its copy
        return real_activity(pid)

    monkeypatch.setattr(parsing, "_activity", interrupted)
    before = _open_fds()
    child = InChild(lambda: threading.Event().wait())  # never returns
    with pytest.raises(KeyboardInterrupt):
        child.result()
    assert _reaped(child.pid) and _open_fds() == before


def test_a_pipe_the_system_refuses_leaves_no_result_file_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of descriptors (EMFILE), the pipe that hears the copy's exit is refused: the result
    file opened just before was left open, one more descriptor lost on each first load of a
    server already short of them (review19)."""
    def no_pipe() -> tuple[int, int]:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(parsing.os, "pipe", no_pipe)
    before = _open_fds()
    with pytest.raises(OSError):
        InChild(lambda: 1)
    assert _open_fds() == before
