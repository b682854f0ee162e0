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
        with pytest.raises(RuntimeError, match="changed size"):
            bad.future.result(timeout=60)
        after = worker.submit(jobs.Job("hold", "hold", {"imports": ["json"]}))
        assert after.future is not None and after.future.result(timeout=60) is None
        assert worker.alive and worker.current is None
    finally:
        _ChangesWhilePickled.fails = 0
        worker.stop()


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
