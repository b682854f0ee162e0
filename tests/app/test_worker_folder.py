"""The background worker's temporary folder (``ui.jobs.Worker``: its socket and the hold's
deadline file ``hold``) goes when the worker stops, and when a dead worker is replaced.

Found by the review of issue 29's sixteenth pass: ``Worker.stop`` killed the worker (SIGKILL,
so its ``Listener`` never unlinks the socket) and removed nothing, so every server start, and
every test that starts a worker, left a ``spanscope-worker-*`` folder in the temporary
directory: 2,160 of them after a day of test runs on the development machine."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from ui import jobs


def test_a_stopped_worker_leaves_no_folder_behind() -> None:
    worker = jobs.Worker()
    folder = Path(worker.address).parent
    try:
        assert (folder / "hold").is_file()  # the deadline file the worker maps
    finally:
        worker.stop()
    worker.process.wait(timeout=30)
    assert not folder.exists(), sorted(p.name for p in folder.iterdir())
    worker.stop()  # twice (atexit after an explicit stop) is harmless


def test_a_dead_worker_replaced_by_submit_leaves_no_folder_behind() -> None:
    jobs._worker.clear()
    first = jobs._worker()
    folder = Path(first.address).parent
    try:
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=30)
        job = jobs.submit(jobs.Job("imports", "hold", {"imports": ["json"]}))
        assert job.future is not None and job.future.result(timeout=60) is None
        assert jobs._worker() is not first
        assert not folder.exists(), sorted(p.name for p in folder.iterdir())
    finally:
        jobs._worker().stop()
        jobs._worker.clear()


def test_a_worker_that_fails_to_start_leaves_no_folder_and_no_file_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process that exits before it listens (``WorkerDied`` from ``Worker()``, which
    :func:`ui.jobs.submit` shows as a stopped job) left its folder and its mapped deadline file
    behind: ``stop`` is registered only once the worker has connected (review18)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(jobs.sys, "executable", "/bin/false")  # exits at once, status 1
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(jobs.WorkerDied, match="exited at start"):
        jobs.Worker()
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert len(os.listdir("/proc/self/fd")) == before


def _silent_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    prefix: str) -> tuple[Path, list[subprocess.Popen[bytes]]]:
    """Workers that start a process which never listens (``sleep 60``), in a short folder of
    their own (a socket's path has at most 107 bytes; xdist's tmp_path can be longer), and the
    list of the processes started, for the test to check they were killed and reaped."""
    script = tmp_path / "silent.sh"
    script.write_text("#!/bin/sh\nexec sleep 60\n")
    script.chmod(0o755)
    folders = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def keep(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(tempfile, "tempdir", str(folders))
    monkeypatch.setattr(jobs.sys, "executable", str(script))
    monkeypatch.setattr(jobs.subprocess, "Popen", keep)
    return folders, started


def test_a_worker_that_never_listens_is_reaped_and_leaves_no_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that does not listen within ``START_TIMEOUT`` is killed; it was left unreaped
    (a zombie until the server exits), with its folder (review18)."""
    folders, started = _silent_workers(tmp_path, monkeypatch, "ss-r18-")
    monkeypatch.setattr(jobs, "START_TIMEOUT", 0.3)
    try:
        with pytest.raises(jobs.WorkerDied, match="did not start in time"):
            jobs.Worker()
        assert started and started[0].returncode is not None  # killed and waited for
        assert sorted(p.name for p in folders.iterdir()) == []
    finally:
        shutil.rmtree(folders, ignore_errors=True)


def test_a_worker_that_never_listens_is_killed_with_its_group_and_waited_for_within_a_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_connect``'s timeout killed the worker alone and waited for it with no bound (a process
    killed in an uninterruptible wait ends only when that wait does: the server's start of the
    worker hung with it), and a process the worker had started lived on in its group
    (review20). The worker here ignores SIGTERM and has a child in its group: both are killed
    (SIGKILL), and every wait on the worker has a timeout."""
    script = tmp_path / "deaf.sh"
    script.write_text("#!/bin/sh\ntrap '' TERM\nsleep 60 &\nexec sleep 60\n")
    script.chmod(0o755)
    folders = Path(tempfile.mkdtemp(prefix="ss-r20-", dir="/tmp"))
    started: list[subprocess.Popen[bytes]] = []
    waits: list[float | None] = []
    popen = subprocess.Popen

    def keep(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process = popen(*args, **kwargs)
        wait = process.wait

        def timed(timeout: float | None = None) -> int:
            waits.append(timeout)
            return wait(timeout=timeout)

        process.wait = timed  # type: ignore[method-assign]
        started.append(process)
        return process

    monkeypatch.setattr(tempfile, "tempdir", str(folders))
    monkeypatch.setattr(jobs.sys, "executable", str(script))
    monkeypatch.setattr(jobs.subprocess, "Popen", keep)
    monkeypatch.setattr(jobs, "START_TIMEOUT", 1.0)
    try:
        with pytest.raises(jobs.WorkerDied, match="did not start in time"):
            jobs.Worker()
        (process,) = started
        assert process.returncode == -signal.SIGKILL
        assert waits and all(t is not None for t in waits), waits
        assert _live_in_group(process.pid) == []  # the child went with the worker
        assert sorted(p.name for p in folders.iterdir()) == []
    finally:
        for process in started:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(folders, ignore_errors=True)


def _live_in_group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` that are not zombies."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                found.append(int(entry.name))
    return found


def test_a_worker_whose_connection_fails_otherwise_is_killed_and_reaped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection raised something other than "not listening yet" (the server stopped
    by Ctrl+C or SIGTERM while it waits, the handshake cut): the folder went, and the worker
    process was left running in its own session, where a Ctrl+C in the terminal does not
    reach it, listening on a socket whose folder was gone, for the life of the machine
    (review19)."""
    folders, started = _silent_workers(tmp_path, monkeypatch, "ss-r19-")

    def interrupted(self: jobs.Worker, key: bytes) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(jobs.Worker, "_connect", interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            jobs.Worker()
        assert started and started[0].returncode is not None  # killed and waited for
        assert sorted(p.name for p in folders.iterdir()) == []
    finally:
        for process in started:
            with contextlib.suppress(OSError):
                process.kill()
                process.wait(timeout=30)
        shutil.rmtree(folders, ignore_errors=True)


def test_two_sessions_that_find_the_worker_dead_start_one_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sessions' runs that submit while the worker is dead each stopped it and cleared the
    cache: the second cleared the worker the first had just started, which ran on unstopped
    (its process, pool and folder until the server exits) while later jobs went to a third
    (review18). The two stops are made to overlap; one worker replaces the dead one."""
    import threading

    jobs._worker.clear()
    first = jobs._worker()
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait(timeout=30)
    both_in_stop = threading.Barrier(2, timeout=3)
    stop, init = jobs.Worker.stop, jobs.Worker.__init__
    started: list[jobs.Worker] = []

    def overlapping_stop(self: jobs.Worker) -> None:
        if self is first:
            with contextlib.suppress(threading.BrokenBarrierError):
                both_in_stop.wait()  # both sessions at once, when nothing keeps them apart
        stop(self)

    def counted_init(self: jobs.Worker) -> None:
        init(self)
        started.append(self)

    monkeypatch.setattr(jobs.Worker, "stop", overlapping_stop)
    monkeypatch.setattr(jobs.Worker, "__init__", counted_init)
    done: list[jobs.Job[None]] = []
    threads = [threading.Thread(target=lambda: done.append(jobs.submit(jobs.Job(
        "imports", "hold", {"imports": ["json"]})))) for _ in range(2)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert len(done) == 2 and all(j.future is not None and j.future.result(timeout=60)
                                      is None for j in done)
        assert len(started) == 1, f"{len(started)} workers replaced one"
        assert jobs._worker() is started[0]
    finally:
        for w in started:
            stop(w)
        jobs._worker.clear()


def _state(pid: int) -> str | None:
    """The state letter of process ``pid`` (``Z``: a zombie), None when there is none."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def test_a_stopped_worker_is_reaped_not_left_a_zombie() -> None:
    """``stop`` killed the worker and never waited for it: the server kept a zombie ``<defunct>``
    child for the rest of its life (review19)."""
    worker = jobs.Worker()
    pid = worker.process.pid
    worker.stop()
    assert worker.process.returncode == -signal.SIGKILL  # waited for by stop itself
    assert _state(pid) is None


def test_a_worker_reaped_already_is_sent_no_signal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the worker has been waited for, its pid may be another process's: ``stop`` (again,
    or after the worker died and was reaped) signals neither that pid nor its group."""
    worker = jobs.Worker()
    pid = worker.process.pid
    os.killpg(pid, signal.SIGKILL)
    worker.process.wait(timeout=30)
    sent: list[tuple[str, int]] = []
    kill, killpg = os.kill, os.killpg

    # ``jobs.os`` is the os module: the patch is seen by every thread of this process, and
    # another worker of this process (a page test's) may be signalled meanwhile: only this
    # worker's pid counts (CI run 69 recorded two kills of a pid while this test ran)
    def record(name: str, send: Any) -> Any:
        def call(p: int, sig: int) -> None:
            if p == pid:
                sent.append((name, p))
            else:
                send(p, sig)
        return call

    monkeypatch.setattr(jobs.os, "killpg", record("killpg", killpg))
    monkeypatch.setattr(jobs.os, "kill", record("kill", kill))
    worker.stop()
    worker.stop()
    assert sent == []
    assert not Path(worker.address).parent.exists()


class _ChangesWhilePickled:
    """An argument another thread is still filling: pickling it fails ``fails`` times with the
    error a dict that grows gives, then it pickles as the module name ``json``."""

    fails = 0

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        if type(self).fails > 0:
            type(self).fails -= 1
            raise RuntimeError("dictionary changed size during iteration")
        return str, ("json",)


def test_a_job_whose_arguments_change_while_pickled_fails_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The jobs thread pickled a job's arguments as it sent them; a dict another thread of the
    server was filling raised ``RuntimeError: dictionary changed size during iteration`` (a
    bench run at 100,000 documents), which killed the thread: every later job, the Metric
    differences page's among them, showed "waiting for the worker" for ever. The pickling is
    tried again; a job whose arguments never pickle fails alone, and the next job runs."""
    worker = jobs.Worker()
    try:
        _ChangesWhilePickled.fails = 2  # changed twice, then still: the job runs
        job = worker.submit(jobs.Job("hold", "hold", {"imports": [_ChangesWhilePickled()]}))
        assert job.future is not None and job.future.result(timeout=60) is None
        _ChangesWhilePickled.fails = jobs.PICKLE_TRIES  # never still: the job fails alone
        bad = worker.submit(jobs.Job("hold", "hold", {"imports": [_ChangesWhilePickled()]}))
        assert bad.future is not None
        with pytest.raises(jobs.NotSent, match="changed size"):
            bad.future.result(timeout=60)
        after = worker.submit(jobs.Job("hold", "hold", {"imports": ["json"]}))
        assert after.future is not None and after.future.result(timeout=60) is None
        assert worker.alive and worker.current is None
    finally:
        _ChangesWhilePickled.fails = 0
        worker.stop()


def test_a_job_that_does_not_pickle_leaves_its_residents_unsent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A job whose arguments cannot be pickled at all (a lambda, a lock: ``PicklingError``,
    ``TypeError``, ``AttributeError``, not the ``RuntimeError`` of a dict that grows) failed
    alone, but its :class:`~ui.gamma_worker.Resident` values stayed marked as sent: the next
    job that needed one sent only its key, which the worker never got, and failed with
    ``KeyError`` (so did every later one, for the life of the worker; review20)."""
    worker = jobs.Worker()
    try:
        data = jobs.Resident("review20-corpus", {"d": [1, 2, 3]})
        bad = worker.submit(jobs.Job("hold", "hold", {"imports": [], "data": data,
                                                       "unpicklable": lambda: None}))
        assert bad.future is not None
        with pytest.raises(jobs.NotSent, match="pickle"):
            bad.future.result(timeout=60)
        after = worker.submit(jobs.Job("hold", "hold", {"imports": [], "data": data}))
        assert after.future is not None
        assert after.future.result(timeout=60) is None  # KeyError('review20-corpus') before
        assert "review20-corpus" in worker.held
    finally:
        worker.stop()


def test_a_job_that_does_not_pickle_shows_its_page_an_error_naming_the_argument(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A job whose arguments did not pickle after ``PICKLE_TRIES`` failed with the pickling
    error itself, which :meth:`~ui.jobs.Job.error` re-raised (not an input error): the page
    that asked for it showed a traceback (review20). Its error is now a message naming the
    job and the argument; another job on the same worker runs, and the next page run that
    shows the failed job sends it again (:func:`ui.jobs.shown`)."""
    worker = jobs.Worker()
    monkeypatch.setattr(jobs, "_worker", _Fixed(worker))  # shown() submits to this worker
    try:
        bad = worker.submit(jobs.Job("Scores", "hold", {"imports": [],
                                                        "weights": lambda: None}))
        other = worker.submit(jobs.Job("Agreement", "hold", {"imports": ["json"]}))
        assert bad.future is not None and other.future is not None
        assert other.future.result(timeout=60) is None  # the other job is unaffected
        bad.future.exception(timeout=60)
        message = bad.error()  # raised the PicklingError before
        assert message is not None
        assert message.startswith("Scores: the computation could not be sent")
        assert "its argument 'weights' could not be pickled" in message
        assert other.error() is None and worker.alive
        bad.kwargs["weights"] = [1.0]  # the page's next run: the job is sent again
        memory: dict[str, object] = {}
        jobs.shown([bad], memory=memory, key="review20")
        assert bad.future.result(timeout=60) is None and bad.error() is None
    finally:
        worker.stop()


class _Fixed:
    """Stands for the cached ``_worker`` of :mod:`ui.jobs`: always ``worker``."""

    def __init__(self, worker: jobs.Worker) -> None:
        self.worker = worker

    def __call__(self) -> jobs.Worker:
        return self.worker

    def clear(self) -> None:
        pass


class _UnreadAnswer:
    """``ForkingPickler`` as :mod:`ui.jobs` uses it, but the worker's answer to the second job
    (its ``done``) does not unpickle, as an error whose class takes other arguments than it
    keeps did not (``TypeError: FormatError.__init__() missing 1 required positional argument:
    'message'``)."""

    dumps = staticmethod(jobs.ForkingPickler.dumps)
    _loads = staticmethod(jobs.ForkingPickler.loads)
    answers = 0

    @staticmethod
    def loads(data: bytes) -> Any:
        message = _UnreadAnswer._loads(data)
        if message[0] == "done":
            _UnreadAnswer.answers += 1
            if _UnreadAnswer.answers == 2:
                raise TypeError("__init__() missing 1 required positional argument: 'message'")
        return message


def test_a_job_whose_answer_does_not_unpickle_fails_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The jobs thread read the worker's answers catching only a closed connection: an answer
    read whole that did not unpickle killed the thread, and every later job waited for ever
    ("waiting for the worker"). The job fails with why; the worker and the next job go on."""
    worker = jobs.Worker()
    try:
        _UnreadAnswer.answers = 0
        monkeypatch.setattr(jobs, "ForkingPickler", _UnreadAnswer)
        first = worker.submit(jobs.Job("hold", "hold", {"imports": ["json"]}))
        assert first.future is not None and first.future.result(timeout=60) is None
        bad = worker.submit(jobs.Job("hold", "hold", {"imports": ["json"]}))
        assert bad.future is not None
        with pytest.raises(RuntimeError, match=r"answer could not be read.*missing 1 required"):
            bad.future.result(timeout=60)
        after = worker.submit(jobs.Job("hold", "hold", {"imports": ["json"]}))
        assert after.future is not None and after.future.result(timeout=60) is None
        assert _UnreadAnswer.answers == 3  # each job's answer read, the second's unread
        assert worker.alive and worker.current is None
    finally:
        worker.stop()
