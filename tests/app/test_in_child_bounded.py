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

import json
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
    # the kernel said where it slept: a lock (a system that hides it says nothing)
    assert child.stalled_in in ("S", "S futex_wait_queue", "S futex_wait_queue_me",
                                "S futex_do_wait") or "futex" in str(child.stalled_in)


def test_a_copy_waiting_on_a_pipe_longer_than_the_stall_bound_is_waited_for() -> None:
    # A file whose bytes come late (a pipe given as --data, a FUSE file system whose read
    # sleeps in state S): the copy sleeps without CPU longer than STALL_S, but not on a lock.
    # Taken for blocked before (asleep without CPU was enough), killed, and its files read
    # twice; now waited for.
    r, w = os.pipe()
    try:
        def late() -> bytes:
            os.close(w)
            return os.read(r, 5)

        child = InChild(late)
        os.close(r)
        r = -1

        def write_late() -> None:
            time.sleep(4 * parsing.STALL_S)
            os.write(w, b"bytes")

        writer = threading.Thread(target=write_late)
        writer.start()
        assert child.result() == b"bytes"
        writer.join()
    finally:
        for fd in (r, w):
            if fd >= 0:
                os.close(fd)
    assert not child.stalled and child.stalled_in is None and _reaped(child.pid)


def test_a_copy_asleep_in_a_slow_file_system_is_waited_for(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # what the kernel says of a read on a FUSE file system that answers late, in state S
    monkeypatch.setattr(parsing, "_wchan", lambda pid: "request_wait_answer")
    child = InChild(lambda: time.sleep(4 * parsing.STALL_S) or 11)
    assert child.result() == 11 and not child.stalled and _reaped(child.pid)


def test_a_copy_that_works_on_a_machine_whose_cores_are_taken_is_waited_for() -> None:
    # Another process holds the copy's core (both pinned to one, the copy at the lowest
    # priority, nice 19): the copy waits for the core in state R and goes without
    # CPU for stretches; it is at work, not blocked, however long the wait. It works for
    # 3 STALL_S of the clock, not of CPU, so that the test ends on a busy machine.
    core = {min(os.sched_getaffinity(0))}
    hog = os.fork()
    if hog == 0:  # pragma: no cover - killed below
        os.sched_setaffinity(0, core)
        while True:
            pass
    try:
        def busy() -> int:
            os.sched_setaffinity(0, core)
            os.nice(19)
            end = time.monotonic() + 3 * parsing.STALL_S
            while time.monotonic() < end:
                pass
            return 5

        child = InChild(busy)
        assert child.result() == 5 and not child.stalled and _reaped(child.pid)
    finally:
        os.kill(hog, signal.SIGKILL)
        os.waitpid(hog, 0)


def test_a_copy_asleep_for_good_is_killed_and_one_that_works_is_waited_for(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # asleep on a timer, not a lock: given ASLEEP_S (shortened here), then killed
    monkeypatch.setattr(parsing, "ASLEEP_S", 2 * parsing.STALL_S)
    asleep = InChild(lambda: time.sleep(3600))
    assert asleep.result() is None and asleep.stalled and _reaped(asleep.pid)
    assert asleep.stalled_in is not None and asleep.stalled_in.startswith("S")
    assert "futex" not in asleep.stalled_in

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
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
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
    stats = tmp_path / "stats.jsonl"
    monkeypatch.setenv(cli_data.STATS_ENV, str(stats))
    before_forks, before_fds = cli_data.fork_count(), _open_fds()
    before = cli_data.copy_counts()
    with held:
        shared = cli_data.read_reports(tuple(args))
    assert len(copies) == 1 and copies[0].stalled and _reaped(copies[0].pid)
    assert cli_data.fork_count() == before_forks  # the server read the copy's files
    # counted, said on the server's standard error, and written where the bench reads it
    after = cli_data.copy_counts()
    assert after.get("forked", 0) == before.get("forked", 0) + 1
    assert after.get("stalled", 0) == before.get("stalled", 0) + 1
    assert after.get("taken", 0) == before.get("taken", 0)
    warned = capsys.readouterr().err
    assert f"(pid {copies[0].pid}) was asleep ({copies[0].stalled_in})" in warned
    assert "taken for blocked: killed, and its files read by the server" in warned
    line = json.loads(stats.read_text(encoding="utf-8"))
    assert line["outcome"] == "stalled" and line["stalled_in"] == copies[0].stalled_in
    assert line["counts"] == after and line["fallback_s"] > 0
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


def test_a_copy_that_delivers_is_counted_taken_and_says_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = []
    for name in ("gold.json", "system_a.json"):
        shutil.copy(DATA / name, tmp_path / name)
        args.append(cli_data.DataArg("gold" if name.startswith("gold") else "system",
                                     str(tmp_path / name)))
    monkeypatch.setattr(cli_data, "FORK_MIN_BYTES", 1)
    stats = tmp_path / "stats.jsonl"
    monkeypatch.setenv(cli_data.STATS_ENV, str(stats))
    before, forks = cli_data.copy_counts(), cli_data.fork_count()
    reports = cli_data.read_reports(tuple(args))
    assert [r.ok for r in reports] == [True, True] and cli_data.fork_count() == forks + 1
    after = cli_data.copy_counts()
    assert after.get("taken", 0) == before.get("taken", 0) + 1
    assert after.get("stalled", 0) == before.get("stalled", 0)
    assert "spanscope:" not in capsys.readouterr().err  # nothing to warn of
    line = json.loads(stats.read_text(encoding="utf-8"))
    assert line["outcome"] == "taken" and line["stalled_in"] is None
    assert line["fallback_s"] == 0.0
