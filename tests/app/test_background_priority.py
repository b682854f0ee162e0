"""Work ahead yields the cores: the background worker runs a job queued ``later`` (no page waits
for it yet) in a thread of the lowest CPU priority, and a job a page waits for at the process's
own (docs/performance.md, issue 29, fifteenth pass)."""

from __future__ import annotations

import itertools
import os
import queue
import sys
import tempfile
import threading
from multiprocessing import Pipe
from multiprocessing.connection import Client, Connection
from pathlib import Path
from typing import Any

import pytest

from ui import gamma_worker, jobs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="a priority per thread is Linux's")


def _niceness() -> int:
    """The calling thread's niceness (Linux: per thread)."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _connect(address: str, key: bytes) -> Connection:
    """A client of the worker's listener once it listens (its socket file appears at bind(), a
    moment before listen())."""
    for _ in range(400):
        try:
            return Client(address, family="AF_UNIX", authkey=key)
        except (FileNotFoundError, ConnectionRefusedError):
            threading.Event().wait(0.05)
    return Client(address, family="AF_UNIX", authkey=key)


def _answer(conn: Connection) -> tuple[Any, ...]:
    """A job's answer, after its progress messages."""
    while (message := conn.recv())[0] == "progress":
        pass
    return message


def test_a_later_job_runs_at_the_lowest_priority_and_an_ordinary_one_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamma_worker, "_QUEUE", None)  # serve() sets it; given back after

    def where(job_id: int, task: str, kwargs: dict[str, Any]) -> tuple[int, str]:
        if task == "fail":
            raise ValueError("a later job's error")
        return _niceness(), threading.current_thread().name

    monkeypatch.setattr(gamma_worker, "run", where)
    key = b"p" * 32
    with tempfile.TemporaryDirectory() as tmp:
        address = str(Path(tmp) / "socket")
        server = threading.Thread(target=gamma_worker.serve, args=(address, key), daemon=True,
                                  name="worker-main")
        server.start()
        own = _niceness()  # the thread that starts serve(): its thread inherits this
        assert own < gamma_worker.LATER_NICE
        before = gamma_worker.lowered()
        with _connect(address, key) as conn:
            conn.send((1, "view", {}, [], True))  # later: the lowest priority, its own thread
            assert _answer(conn) == ("done", 1, (gamma_worker.LATER_NICE, "spanscope-later-job"))
            conn.send((2, "view", {}, [], False))  # a page waits for it: as the process
            assert _answer(conn) == ("done", 2, (own, "worker-main"))
            conn.send((3, "view", {}, []))  # a message without the flag: an ordinary job
            assert _answer(conn) == ("done", 3, (own, "worker-main"))
            conn.send((4, "fail", {}, [], True))  # a later job's error is still its answer
            kind, job, exc = _answer(conn)
            assert (kind, job) == ("error", 4) and "a later job's error" in str(exc)
        server.join(timeout=30)
        assert not server.is_alive()  # the connection closed: serve() returned
    assert gamma_worker.lowered() == before + 2  # the two later jobs, not the others


def test_lowering_a_thread_leaves_the_others_as_they_were() -> None:
    seen: list[tuple[bool, int]] = []

    def work() -> None:
        seen.append((gamma_worker.lower_this_thread(), _niceness()))

    own = _niceness()
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == [(True, gamma_worker.LATER_NICE)]
    assert _niceness() == own


def _fake_worker(conn: Connection) -> jobs.Worker:
    """A :class:`ui.jobs.Worker` on one end of a pipe, without a process (its loop only)."""
    worker = object.__new__(jobs.Worker)
    worker.conn = conn
    worker.tasks = queue.PriorityQueue()
    worker.ids = itertools.count(1)
    worker.front = itertools.count(-1, -1)
    worker.held = {}
    worker.claim = threading.Lock()
    worker.current = None
    worker.alive = True
    return worker


def test_the_server_tells_the_worker_which_jobs_are_later() -> None:
    here, there = Pipe()
    worker = _fake_worker(here)
    ahead: jobs.Job[str] = worker.submit(jobs.Job("ahead", "many"), later=True)
    hurried: jobs.Job[str] = worker.submit(jobs.Job("hurried", "many"), later=True)
    worker.hurry(hurried)  # a page showed it before it started: no longer work ahead
    asked: jobs.Job[str] = worker.submit(jobs.Job("asked", "view"))
    threading.Thread(target=worker._loop, daemon=True).start()
    sent = []
    for _ in range(3):
        job_id, task, _kwargs, _drop, later = there.recv()
        sent.append((task, later))
        there.send(("done", job_id, task))
    # the hurried job first (queued again before the asked one), the job ahead last and later
    assert sent == [("many", False), ("view", False), ("many", True)]
    assert [j.future.result(timeout=10) for j in (hurried, asked, ahead)
            if j.future is not None] == ["many", "view", "many"]
