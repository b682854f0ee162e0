"""A person's run comes first: the background worker's work ahead (a job queued ``later``, no
page waits for it yet) is held while a page runs and for a moment after it, and never a job a
page waits for (docs/performance.md, issue 29, fifteenth pass). Which path ran is read from
counters and flags, never from a clock."""

from __future__ import annotations

import collections
import itertools
import os
import queue
import tempfile
import threading
import time
import types
from multiprocessing import Pipe
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from tests.servers import worker_client
from ui import gamma_worker, jobs

pytestmark = pytest.mark.skipif(gamma_worker.HOLD_SIGNAL is None,
                                reason="holds need a user signal (POSIX)")


@pytest.fixture(autouse=True)
def _no_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """No page run under way or just ended, here or from another test."""
    monkeypatch.setattr(jobs, "_runs", {})
    monkeypatch.setattr(jobs, "_last_end", [float("-inf")])
    monkeypatch.setattr(jobs, "_local", threading.local())  # no thread's run left from another


def _fake_worker(conn: Connection | None = None) -> jobs.Worker:
    """A :class:`ui.jobs.Worker` without a process: its loops only (a pid nobody has)."""
    worker = object.__new__(jobs.Worker)
    worker.conn = conn  # type: ignore[assignment]
    worker.process = types.SimpleNamespace(pid=-1)  # type: ignore[assignment]
    worker.tasks = queue.PriorityQueue()
    worker.ids = itertools.count(1)
    worker.front = itertools.count(-1, -1)
    worker.held = {}
    worker.claim = threading.Lock()
    worker.current = None
    worker.alive = True
    worker.holds = 0
    worker.deadline = None  # no file: the deadline written is read from worker.until
    worker.until = 0.0
    return worker


def test_a_page_run_holds_until_a_moment_after_it_ends() -> None:
    assert not jobs.holding()
    jobs.page_run_started()
    start = jobs._runs[next(iter(jobs._runs))]
    assert jobs.holding(start + 1.0)
    assert not jobs.holding(start + jobs.HOLD_MAX)  # a run that never marked its end
    jobs.page_run_ended()
    end = jobs._last_end[0]
    assert jobs._runs == {}
    assert jobs.holding(end + jobs.HOLD_AFTER_RUN / 2)  # the browser draws what it sent
    assert not jobs.holding(end + jobs.HOLD_AFTER_RUN)


def test_only_a_later_job_in_flight_is_held_and_not_beyond_the_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(jobs.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    worker = _fake_worker()
    ahead: jobs.Job[object] = jobs.Job("ahead", "many", later=True)
    now = 100.0
    jobs._runs["s"] = now  # a page run under way
    assert worker._hold_once(now, None) == (None, None)  # no job in flight
    worker.current = jobs.Job("asked", "view")  # a page waits for it
    assert worker._hold_once(now, None) == (None, None) and sent == [] and worker.until == 0
    worker.current = ahead
    wait, since = worker._hold_once(now, None)
    # held until the run's bound (it may end sooner: its end is a look of its own)
    assert since == now and worker.until == now + jobs.HOLD_MAX
    assert wait == pytest.approx(jobs.HOLD_MAX)
    assert sent == [(-1, gamma_worker.HOLD_SIGNAL)] and worker.holds == 1
    jobs._runs["s"] = now + 1  # the session's next run
    worker._hold_once(now + 1, since)
    assert worker.holds == 2 and worker.until == now + 1 + jobs.HOLD_MAX
    del jobs._runs["s"]
    jobs._last_end[0] = now + 2  # it has ended: the browser draws what it sent
    assert worker._hold_once(now + 2, since)[0] == pytest.approx(jobs.HOLD_AFTER_RUN)
    assert worker.until == now + 2 + jobs.HOLD_AFTER_RUN and worker.holds == 3
    # held HOLD_STRETCH in a row (runs following each other): the deadline ends there ...
    jobs._runs["s"] = since + jobs.HOLD_STRETCH - 1
    worker._hold_once(since + jobs.HOLD_STRETCH - 1, since)
    assert worker.until == since + jobs.HOLD_STRETCH and worker.holds == 4
    # ... and no more signals while that lasts: the deadline cleared, a look when it lapses
    wait, kept = worker._hold_once(since + jobs.HOLD_STRETCH, since)
    assert kept == since and worker.until == 0 and worker.holds == 4
    assert wait == pytest.approx(jobs.HOLD_MAX - 1)
    jobs._runs["s"] = now
    jobs._last_end[0] = float("-inf")
    first_visit: jobs.Job[object] = jobs.Job("default view", "view", later=True)
    first_visit.holdable = False  # computed ahead of a first visit (ui.annotators.default_view)
    worker.current = first_visit
    assert worker._hold_once(now, None) == (None, None) and worker.holds == 4
    worker.current = ahead
    assert worker._hold_once(now, None)[1] == now and worker.until > now
    jobs.wanted(ahead)  # the page now waits for it (ui.annotators.wait_in_flight)
    assert not ahead.later and worker._hold_once(now + 1, None) == (None, None)
    assert worker.holds == 5 and worker.until == 0  # the hold ended: the deadline cleared
    worker.current = jobs.Job("ahead", "many", later=True)
    del jobs._runs["s"]  # no run under way, none ended lately
    assert worker._hold_once(now + 2, None) == (None, None) and worker.holds == 5


def test_the_deadline_file_is_what_the_worker_reads(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """The server's deadline reaches the worker's handler through the file beside the socket
    (:func:`ui.gamma_worker.deadline_path`), as a real worker maps it."""
    import mmap

    monkeypatch.setattr(jobs.os, "kill", lambda pid, sig: None)
    monkeypatch.setattr(gamma_worker, "_UNTIL", [None])
    path = gamma_worker.deadline_path(str(tmp_path / "socket"))
    tmp_path.joinpath("hold").write_bytes(bytes(8))
    worker = _fake_worker()
    with open(path, "r+b") as f:
        worker.deadline = mmap.mmap(f.fileno(), 8)
    assert gamma_worker.watch_deadline(path)
    worker.current = jobs.Job("ahead", "many", later=True)
    jobs._runs["s"] = 100.0
    worker._hold_once(100.0, None)
    assert gamma_worker._deadline() == 100.0 + jobs.HOLD_MAX
    worker.current = None
    worker._hold_once(101.0, None)
    assert gamma_worker._deadline() == 0.0
    worker.deadline.close()
    assert not gamma_worker.watch_deadline(str(tmp_path / "none"))


def test_a_page_that_shows_a_later_job_makes_it_ordinary() -> None:
    worker = _fake_worker()
    job: jobs.Job[object] = worker.submit(jobs.Job("ahead", "many"), later=True)
    original = jobs._worker
    jobs._worker = lambda: worker  # type: ignore[assignment]
    try:
        jobs.shown([job], memory={}, key="k")
    finally:
        jobs._worker = original
    assert not job.later


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


def _answer(conn: Connection) -> tuple[Any, ...]:
    while (message := conn.recv())[0] == "progress":
        pass
    return message


def test_the_worker_holds_only_a_later_job(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamma_worker, "_QUEUE", None)  # serve() sets it; given back after
    monkeypatch.setattr(gamma_worker, "HOLD_SLICE", 0.0)

    def hold_now(job_id: int, task: str, kwargs: dict[str, Any]) -> int:
        before = gamma_worker.held()
        assert gamma_worker.HOLD_SIGNAL is not None
        gamma_worker._hold(gamma_worker.HOLD_SIGNAL, None)  # as the signal would, in the job
        return gamma_worker.held() - before

    monkeypatch.setattr(gamma_worker, "run", hold_now)
    key = b"h" * 32
    with tempfile.TemporaryDirectory() as tmp:
        address = str(Path(tmp) / "socket")
        server = threading.Thread(target=gamma_worker.serve, args=(address, key), daemon=True)
        server.start()
        with worker_client(address, key) as conn:
            conn.send((1, "many", {}, [], True))  # later: held
            assert _answer(conn) == ("done", 1, 1)
            conn.send((2, "view", {}, [], False))  # a page waits for it: never held
            assert _answer(conn) == ("done", 2, 0)
            conn.send((3, "view", {}, []))  # a message without the flag: an ordinary job
            assert _answer(conn) == ("done", 3, 0)
        server.join(timeout=30)
    before = gamma_worker.held()
    assert gamma_worker.HOLD_SIGNAL is not None
    gamma_worker._hold(gamma_worker.HOLD_SIGNAL, None)  # between jobs: nothing to hold
    assert gamma_worker.held() == before


def test_a_hold_signal_leaves_the_worker_process_working(handmade: object) -> None:
    # the worker installs the handler before it listens: the signal's default would end it
    worker = jobs.Worker()
    try:
        assert gamma_worker.HOLD_SIGNAL is not None
        for _ in range(3):
            os.kill(worker.process.pid, gamma_worker.HOLD_SIGNAL)
        job: jobs.Job[None] = worker.submit(jobs.Job("hold", "hold", {"imports": ["json"]}))
        assert job.future is not None and job.future.result(timeout=60) is None
        assert worker.process.poll() is None
    finally:
        worker.stop()


def test_a_change_between_the_hold_loops_look_and_its_wait_wakes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page run started, with a later job now in flight, by another thread right after the
    hold loop has looked (no job: it is about to wait until notified): the loop takes that look
    under ``_changed``, so the other thread's notification waits for the lock until the loop
    waits, wakes it, and the next look holds the job. Looked at outside the lock, the
    notification came before the wait and was lost: no hold until the next run started or
    ended. The interleaving is driven by events: the other thread says whether it got the lock
    at once (the old loop) or had to wait for it (the loop waiting), then the look returns."""
    sent = threading.Event()
    monkeypatch.setattr(jobs.os, "kill", lambda pid, sig: sent.set())
    worker = _fake_worker()
    ahead: jobs.Job[object] = jobs.Job("ahead", "many", later=True)
    looks: list[tuple[float | None, float | None]] = []
    contended: list[bool] = []
    went = threading.Event()  # the other thread has the lock, or waits for it
    real_look = worker._hold_once

    def change() -> None:
        got = jobs._changed.acquire(blocking=False)
        contended.append(not got)
        went.set()
        if not got:
            jobs._changed.acquire()  # released by the loop's wait
        try:
            worker.current = ahead  # the jobs thread's new job in flight
            jobs.page_run_started()  # notifies (the lock is reentrant)
        finally:
            jobs._changed.release()

    def look(now: float, since: float | None) -> tuple[float | None, float | None]:
        answer = real_look(now, since)
        looks.append(answer)
        if len(looks) == 1:
            assert answer == (None, None)  # nothing in flight: wait until notified
            threading.Thread(target=change, daemon=True).start()
            assert went.wait(timeout=30)
        return answer

    monkeypatch.setattr(worker, "_hold_once", look)
    loop = threading.Thread(target=worker._hold_loop, daemon=True)
    loop.start()
    try:
        assert sent.wait(timeout=30), "the change notified between look and wait was lost"
        assert contended == [True]  # the look held the lock: the change waited for the wait
        assert worker.holds >= 1 and worker.until > 0 and looks[1][0] is not None
    finally:
        worker.alive = False
        jobs._runs.clear()
        with jobs._changed:
            jobs._changed.notify_all()
        loop.join(timeout=30)
    assert not loop.is_alive()


def test_one_signal_holds_the_job_until_the_deadline_the_server_moves(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The handler holds a later job until the deadline, reading it again after each slice: the
    server extends it (a run follows) and the hold goes on without another signal; it clears it
    (a page waits for the job) and the hold ends at the next look; a signal that comes during
    the hold adds nothing; a deadline passed holds nothing; a deadline read wrong holds
    :data:`~ui.gamma_worker.HOLD_LONGEST` at most. A fake clock: no time passes."""
    import mmap

    path = tmp_path / "hold"
    path.write_bytes(bytes(8))
    with open(path, "r+b") as f:
        server_side = mmap.mmap(f.fileno(), 8)
    monkeypatch.setattr(gamma_worker, "_UNTIL", [None])
    assert gamma_worker.watch_deadline(str(path))
    clock = [1000.0]
    slept: list[float] = []
    script: dict[int, Any] = {}

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock[0] += seconds
        script.get(len(slept), lambda: None)()

    monkeypatch.setattr(gamma_worker, "time", types.SimpleNamespace(
        monotonic=lambda: clock[0], sleep=sleep))
    monkeypatch.setattr(gamma_worker, "_LATER_NOW", [True])
    write = jobs._DEADLINE.pack_into
    signal_number = gamma_worker.HOLD_SIGNAL
    assert signal_number is not None

    write(server_side, 0, 1000.0 + 0.12)  # held for a run's remaining 0.12 s
    script[2] = lambda: write(server_side, 0, 1000.0 + 1.0)  # the next run: held on
    script[3] = lambda: gamma_worker._hold(signal_number, None)  # a signal meanwhile
    script[5] = lambda: write(server_side, 0, 0.0)  # a page waits for the job: no hold
    before = gamma_worker.held()
    gamma_worker._hold(signal_number, None)
    assert len(slept) == 5 and gamma_worker.held() == before + 1  # one hold, five looks
    assert slept[0] == pytest.approx(gamma_worker.HOLD_SLICE)

    slept.clear()
    script.clear()
    gamma_worker._hold(signal_number, None)  # the deadline cleared: nothing to hold
    assert slept == [] and gamma_worker.held() == before + 1

    write(server_side, 0, 1e300)  # a deadline read wrong
    gamma_worker._hold(signal_number, None)
    assert sum(slept) == pytest.approx(gamma_worker.HOLD_LONGEST)
    monkeypatch.setattr(gamma_worker, "_LATER_NOW", [False])  # an ordinary job
    slept.clear()
    gamma_worker._hold(signal_number, None)
    assert slept == []
    monkeypatch.setattr(gamma_worker, "_UNTIL", [None])
    server_side.close()


def test_a_fragment_a_person_reruns_holds_later_jobs_as_a_page_run_does() -> None:
    """A fragment's rerun starts no run of ``app.py``: :func:`ui.jobs.person_fragment` marks it
    (seventeenth pass: the document switches and steps let the Annotators page's measures run
    a second after the last whole run); inside a run marked already it marks nothing more."""
    seen: list[bool] = []

    @jobs.person_fragment
    def switch() -> str:
        seen.append(jobs.holding())
        return "drawn"

    before = dict(jobs.FRAGMENT_RUNS)
    assert not jobs.holding()
    assert switch() == "drawn"
    assert seen == [True]  # held while it runs
    assert jobs._runs == {}
    end = jobs._last_end[0]
    assert jobs.holding(end + jobs.HOLD_AFTER_RUN / 2)  # and after it, as a page run
    assert jobs.FRAGMENT_RUNS[switch.__qualname__] == before.get(switch.__qualname__, 0) + 1

    # inside a page run (app.py's, or an enclosing fragment's): that run's mark stands
    jobs.page_run_started()
    started = dict(jobs._runs)
    assert switch() == "drawn"
    assert jobs._runs == started  # not ended by the fragment's body
    assert jobs.FRAGMENT_RUNS[switch.__qualname__] == before.get(switch.__qualname__, 0) + 1
    jobs.page_run_ended()

    # an exception in the body still ends the mark
    @jobs.person_fragment
    def broken() -> None:
        raise ValueError("bad")

    with pytest.raises(ValueError):
        broken()
    assert jobs._runs == {}


def test_fragment_runs_of_many_sessions_at_once_are_all_counted(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each session's fragment runs in a thread of its own: FRAGMENT_RUNS counts every run of
    many at once. ``+=`` on a Counter reads, then writes; a Counter whose read yields the
    interpreter to another thread (as the interpreter may at any bytecode) lost most of the
    runs without the lock (the lock went in with this test)."""

    class Yielding(collections.Counter[str]):
        def __getitem__(self, key: str) -> int:
            value = super().__getitem__(key)
            time.sleep(0.001)  # another run's thread gets the interpreter here
            return value

    monkeypatch.setattr(jobs, "FRAGMENT_RUNS", Yielding())

    @jobs.person_fragment
    def switch() -> None:
        return None

    def session() -> None:
        for _ in range(20):
            switch()

    threads = [threading.Thread(target=session) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert jobs.fragment_runs() == {switch.__qualname__: 160}
    assert jobs._runs == {}


def test_the_documents_fragments_are_marked_and_a_whole_runs_mark_stands(make_app) -> None:
    """The fragment a document switch, a step and the search's documents rerun alone (the
    document's) calls its body through :func:`ui.jobs.person_fragment`; in a whole run of the
    page (``app.py`` marks it) it marks nothing more, and the page's mark ends with the run."""
    from ui import documents

    marked = jobs.person_fragment(lambda: None).__code__  # every mark's wrapper's code
    for fragment in (documents.document,):
        inner = [c.cell_contents for c in fragment.__closure__ or ()]
        assert any(getattr(f, "__code__", None) is marked for f in inner), fragment
    before = dict(jobs.FRAGMENT_RUNS)
    at = make_app("pages/documents.py", params={"doc": "doc2"})
    assert not at.exception
    assert dict(jobs.FRAGMENT_RUNS) == before
    assert jobs._runs == {} and jobs._last_end[0] > float("-inf")


def test_every_fragment_a_person_reruns_is_marked() -> None:
    """Curation's decisions, agreement and downloads rerun alone when the lead decides, and the
    Errors page's spans of a category when its system, category or page changes, as the
    Documents page's fragments do on a switch: each calls its body through
    :func:`ui.jobs.person_fragment`, so the work ahead is held while it runs."""
    from ui import curation, errors

    marked = jobs.person_fragment(lambda: None).__code__
    for fragment in (curation.workbench, curation.agreement, curation.downloads,
                     errors.spans_of_category):
        inner = [c.cell_contents for c in fragment.__closure__ or ()]
        assert any(getattr(f, "__code__", None) is marked for f in inner), fragment


def _session(monkeypatch: pytest.MonkeyPatch, session_id: str = "s") -> None:
    """Every thread's script run belongs to one session (``ui.jobs._run_key`` reads it)."""
    from streamlit.runtime import scriptrunner

    monkeypatch.setattr(scriptrunner, "get_script_run_ctx",
                        lambda suppress_warning=False: types.SimpleNamespace(
                            session_id=session_id))


def _in_thread(body: Any) -> tuple[threading.Thread, list[object]]:
    """``body`` run in a thread of its own (a script runner's), its outcome kept."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(body())
        except BaseException as exc:  # the outcome, read by the test
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def test_a_run_stopped_late_leaves_the_mark_of_its_sessions_next_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit's fast reruns (``runner.fastReruns``, on by default): a rerun asked for
    while a run is under way stops that run and starts the next one at once in a new script
    thread, and the stopped run ends at its next Streamlit call, after the next one has begun.
    Its end must end its own mark only: the session's next run, still under way, holds on.
    Marked by session, the stopped run's end took the next run's mark away (and the worker's
    work ahead ran beside the run a person waits for)."""
    _session(monkeypatch)
    a_started, b_started, a_may_end = threading.Event(), threading.Event(), threading.Event()

    def run_a() -> None:
        jobs.page_run_started()
        a_started.set()
        a_may_end.wait()
        jobs.page_run_ended()  # app.py's finally, when the stop reaches the old run

    def run_b() -> None:
        jobs.page_run_started()
        b_started.set()

    a, _ = _in_thread(run_a)
    assert a_started.wait(timeout=30)
    b, _ = _in_thread(run_b)
    assert b_started.wait(timeout=30)
    b.join(timeout=30)
    assert len(jobs._runs) == 2
    b_start = max(jobs._runs.values())
    a_may_end.set()
    a.join(timeout=30)
    assert not a.is_alive()
    assert list(jobs._runs.values()) == [b_start]  # the next run's mark stands
    assert jobs.hold_until() == b_start + jobs.HOLD_MAX


def test_a_fragment_stopped_for_a_rerun_leaves_the_rerun_held(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A document switch's fragment run (:func:`ui.jobs.person_fragment`) stopped because the
    person asked for a whole run: the whole run starts in a new thread, the fragment's body
    raises at its next Streamlit call (``StopException``) and its mark ends; the whole run's
    mark stands."""
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    _session(monkeypatch)
    in_body, rerun_started = threading.Event(), threading.Event()

    @jobs.person_fragment
    def switch() -> None:
        in_body.set()
        rerun_started.wait()
        raise StopException()

    before = jobs.FRAGMENT_RUNS[switch.__qualname__]
    fragment, outcome = _in_thread(switch)
    assert in_body.wait(timeout=30)
    whole, _ = _in_thread(jobs.page_run_started)
    whole.join(timeout=30)
    rerun_start = max(jobs._runs.values())
    rerun_started.set()
    fragment.join(timeout=30)
    assert len(outcome) == 1 and isinstance(outcome[0], StopException)
    assert jobs.FRAGMENT_RUNS[switch.__qualname__] == before + 1
    assert list(jobs._runs.values()) == [rerun_start]
    assert jobs.holding(rerun_start + jobs.HOLD_AFTER_RUN + 1)  # under way: held past the end


def test_a_mark_left_by_a_run_that_never_ended_is_dropped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose thread never comes back (blocked for good) holds ``HOLD_MAX`` at most, and
    its mark is dropped by the next run that starts, so marks of closed sessions do not pile
    up for the life of the server."""
    jobs._runs["gone#1"] = 0.0  # began long ago, never ended
    jobs.page_run_started()
    assert "gone#1" not in jobs._runs and len(jobs._runs) == 1
    jobs.page_run_ended()
    assert jobs._runs == {}


@pytest.mark.parametrize("raised", ["error", "stop"])
def test_a_run_that_raises_before_its_page_still_ends_its_mark(
        make_app: Any, monkeypatch: pytest.MonkeyPatch, raised: str) -> None:
    """``app.py`` draws the sidebar before the page: a run that raises there (a bug), or is
    stopped there (its session closed, or a rerun asked for: ``StopException`` at the next
    Streamlit call), still ends its mark, and the browser's draw is held after it. The mark
    ended only around the page's own run, and such a run left it."""
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    from ui import sidebar

    def close_on_phone() -> None:
        if raised == "stop":
            raise StopException()
        raise RuntimeError("a bug in the sidebar")

    monkeypatch.setattr(sidebar, "close_on_phone", close_on_phone)
    at = make_app("pages/home.py")
    assert bool(at.exception) == (raised == "error")
    assert jobs._runs == {}
    assert jobs._last_end[0] > float("-inf")


def test_a_worker_that_dies_during_a_hold_ends_the_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker process ends (killed, out of memory) while its later job is held: its job
    fails (:class:`ui.jobs.WorkerDied`), the hold loop wakes at once, clears the deadline and
    ends, and sends no signal to a process that is gone (whose pid the system may give to
    another)."""
    sent: list[int] = []
    monkeypatch.setattr(jobs.os, "kill", lambda pid, sig: sent.append(pid))
    monkeypatch.setattr(jobs, "HOLD_MAX", 3600.0)  # the run's bound: far off
    monkeypatch.setattr(jobs, "HOLD_STRETCH", 7200.0)
    here, there = Pipe()
    worker = _fake_worker(here)
    ahead: jobs.Job[object] = worker.submit(jobs.Job("ahead", "many"), later=True)
    jobs.page_run_started()  # a person's run under way: the job is held
    jobs_thread = threading.Thread(target=worker._loop, daemon=True)
    jobs_thread.start()
    there.recv()  # the job is in the worker's hands
    hold_loop = threading.Thread(target=worker._hold_loop, daemon=True)
    hold_loop.start()
    with jobs._changed:
        assert jobs._changed.wait_for(lambda: worker.holds >= 1, timeout=30)
    assert worker.until > 0
    there.close()  # the worker process is gone
    jobs_thread.join(timeout=30)
    assert ahead.future is not None
    assert isinstance(ahead.future.exception(timeout=30), jobs.WorkerDied)
    hold_loop.join(timeout=30)
    assert not hold_loop.is_alive()  # woken at once, not at the run's bound
    assert worker.until == 0
    holds = worker.holds
    assert worker._hold_once(jobs.time.monotonic(), None) == (None, None)
    assert worker.holds == holds and len(sent) == holds
    jobs.page_run_ended()


def test_a_temporary_folder_too_long_for_the_workers_socket_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A long TMPDIR made the worker's socket path longer than a Unix socket's (108 bytes on
    Linux): the worker exited at its start and the page said only that the computation had
    stopped. Now no worker is started, the folder made for it is removed, the page's message
    names TMPDIR and what to do, and the server's standard error gives the path."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(deep))
    with pytest.raises(jobs.SocketPathTooLong) as raised:
        jobs.Worker()
    assert "TMPDIR" in str(raised.value) and "TMPDIR=/tmp spanscope app" in str(raised.value)
    assert str(deep) not in str(raised.value)  # visitors never see the server's paths
    assert list(deep.iterdir()) == []  # the worker's folder removed, no process started
    said = capsys.readouterr().err
    assert f"TMPDIR={deep}" in said and "longer than the" in said

    # through submit, as a page asks: the job fails with that message, not STOPPED
    monkeypatch.setattr(jobs, "_worker", _Uncached(jobs.Worker))
    job = jobs.submit(jobs.Job("Agreement", "hold", {"values": [], "imports": []}))
    assert job.done() and job.error() == str(raised.value)
    assert job.error() != jobs.STOPPED and list(deep.iterdir()) == []


class _Uncached:
    """Stands for ``st.cache_resource``'s wrapper of :func:`ui.jobs._worker`: calls ``make``
    each time (no worker cached from another test), ``clear`` does nothing."""

    def __init__(self, make: Any) -> None:
        self.make = make

    def __call__(self) -> Any:
        return self.make()

    def clear(self) -> None:
        pass


def test_the_socket_path_message_has_no_markdown_the_page_would_draw(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The pages show a job's error through :func:`ui.escape.md` (``st.error(md(error))``),
    which escapes Markdown: the message's backticks around ``TMPDIR=/tmp spanscope app ...``
    were drawn as backticks (review20)."""
    from ui.escape import md

    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(deep))
    with pytest.raises(jobs.SocketPathTooLong) as raised:
        jobs.Worker()
    assert "\\`" not in md(str(raised.value))
