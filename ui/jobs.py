"""Background jobs of the dashboard: work that takes seconds (γ) runs in one worker process.

A job is queued with :func:`submit` and returns at once; the page polls it (:func:`progress`)
and reruns when it is done. The worker is a separate Python process started with
``python -m ui.gamma_worker ADDRESS`` (:mod:`subprocess`), so it never imports the page script
that Streamlit runs as ``__main__``; it talks to the server over a
:mod:`multiprocessing.connection` socket (authenticated with a random key). One thread of the
server sends the queued jobs one at a time and reads the worker's progress messages and results,
resolving each job's :class:`~concurrent.futures.Future`: a job cancelled before the worker
takes it is skipped. The worker is killed when the server exits (:mod:`atexit`) and exits by
itself when the server is gone; a worker that dies (killed, out of memory) fails its job and the
next job starts a new one. The page says so (:data:`STOPPED`) and the next page run submits the
job again: the pages cache job objects (``st.cache_resource``), and a failure is never kept.

A job submitted ``later`` (:func:`submit`) is work a page expects to be asked for next (the
Annotators page's other measures): it runs only when no job of the ordinary kind waits, and a page
run that shows it (:func:`shown`) moves it ahead of the other later jobs, to run next. A page
whose user asks for a queued job while the worker computes another (:func:`busy_elsewhere`)
may run the job itself (:func:`run_here`) when it is cheap, rather than wait for the job in
flight and whatever is queued before it.

A person's page run comes first: while a page run of any session is under way, and for
:data:`HOLD_AFTER_RUN` seconds after it (the browser drawing what it sent), a later job in the
worker's hands is held (:meth:`Worker._hold_loop`, :func:`ui.gamma_worker._hold`), at most
:data:`HOLD_STRETCH` seconds in a row; the work of a page's first visit computed before it
(``holdable`` off: the Annotators page's default view) is not held, or that visit would pay;
``app.py`` marks each run (:func:`page_run_started`, :func:`page_run_ended`), a fragment a person's
action reruns alone marks its own (:func:`person_fragment`: a fragment's run does not pass through
``app.py``), and a page that
shows or waits for a later job makes it an ordinary one (:func:`shown`, :func:`wanted`), which is
never held. At 100,000 documents the Annotators page's
measures computed ahead took a core beside the warm revisits of every other page
(docs/performance.md, issue 29, fifteenth pass).

The large arguments of a task (annotation sets, texts, a study) are sent as
:class:`~ui.gamma_worker.Resident` values: the worker keeps them, and later tasks refer to them by
key, so each corpus crosses the socket once rather than with every job (:meth:`Worker._pack`).
It may cross ahead of its first job (:func:`hold`), which then starts at once: the Metric
differences path's sets are sent as the ``--data`` files are read (:func:`ui.ahead.early`).

Why a process and not a thread: γ spends its time in many small numpy and scipy calls, which
would take the interpreter lock from every page run of the server (a 0.3 s page took 4 s while γ
ran in a thread). One worker, not one per job: two cores are shared by everyone, so jobs queue.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import functools
import itertools
import mmap
import os
import queue
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, MutableMapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Client, Connection
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import streamlit as st
from streamlit.runtime.state import SessionStateProxy

from core.model.errors import SpanScopeError
from ui import memory
from ui.escape import md
from ui.gamma_worker import HOLD_SIGNAL, Held, Resident, deadline_path

ROOT = Path(__file__).resolve().parent.parent
KEY_ENV = "SPANSCOPE_WORKER_KEY"
"""Environment variable that hands the worker its connection key (hex)."""
START_TIMEOUT = 60.0
"""Seconds the server waits for a new worker to accept its connection."""
RESIDENT_MAX = 12
"""Values a worker keeps for later tasks (:class:`~ui.gamma_worker.Resident`: the annotation
sets and texts of the corpora open; the studies built from them are kept apart, the last
:data:`ui.gamma_worker.STUDIES_KEPT`); the least recently used is forgotten beyond this, which
bounds the worker's memory (a set of 1M spans is about 25 MB of columns, the texts of 100,000
documents about 100 MB)."""


HOLD_AFTER_RUN = 1.0
"""Seconds after a page run ends during which a later job stays held: the browser draws what
the run sent after the run has ended (0.1 to 0.5 s of its main thread per page at 100,000
documents; 0.05 to 1.44 s after the run's last message at load 33 to 41, 2 warm revisits of 27
past the second). A fixed second rather than until the page says it is drawn: the page has no
way to say so that starts no run (docs/robustness.md, "Waits that end")."""
HOLD_MAX = 5.0
"""Seconds a page run holds later jobs at most, however long it lasts (one that was interrupted
marks no end; the next run of its session replaces its mark)."""
HOLD_STRETCH = 30.0
"""Seconds a later job is held in a row at most, however many runs follow each other: work
ahead must end some time, and a page that needs it asks for it (:func:`shown`, :func:`wanted`)."""
_runs: dict[str, float] = {}
"""The page runs under way: each run's start (``time.monotonic``), under a key of its own (its
session's, or thread's, and a count: :func:`page_run_started`)."""
_run_ids = itertools.count(1)
_local = threading.local()
"""This thread's page runs under way (their keys in :data:`_runs`, the innermost last)."""
_last_end = [float("-inf")]
"""When the last page run ended."""
_DEADLINE = struct.Struct("d")
"""The deadline file's value (``ui.gamma_worker``'s reading of it)."""
_changed = threading.Condition(threading.RLock())
"""Notified when a page run starts or ends, or the job in flight changes or is wanted; held by
the hold loop's look (:meth:`Worker._hold_loop`), which :func:`holding` takes again."""


def _run_key() -> str:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else f"thread-{threading.get_ident()}"


def _mine() -> list[str]:
    """The keys of this thread's page runs under way, the innermost last."""
    runs: list[str] | None = getattr(_local, "runs", None)
    if runs is None:
        runs = _local.runs = []
    return runs


def page_run_started() -> None:
    """A page run starts (the top of ``app.py``, a :func:`person_fragment`'s body): later jobs
    are held while it runs, until :func:`page_run_ended` in the same thread.

    Each run has a mark of its own, not one per session: with Streamlit's fast reruns
    (``runner.fastReruns``, on by default) a rerun asked for during a run starts at once in a
    new script thread, and the run it stops ends at its next Streamlit call, after the new one
    has begun; one mark per session let that late end take the new run's mark away. A mark
    older than :data:`HOLD_MAX` holds nothing any more (:func:`hold_until`) and is dropped here:
    a run whose thread never came back leaves nothing behind for the life of the server."""
    key = f"{_run_key()}#{next(_run_ids)}"
    with _changed:
        now = time.monotonic()
        for old in [k for k, start in _runs.items() if start + HOLD_MAX <= now]:
            del _runs[old]
        _runs[key] = now
        _changed.notify_all()
    _mine().append(key)


def page_run_ended() -> None:
    """This thread's innermost page run has ended (``app.py``, however it ended): later jobs
    stay held for :data:`HOLD_AFTER_RUN` seconds more, and the other runs under way (another
    session's, the run that replaced this one) hold on."""
    mine = _mine()
    key = mine.pop() if mine else None
    with _changed:
        if key is not None:
            _runs.pop(key, None)
        _last_end[0] = time.monotonic()
        _changed.notify_all()


F = TypeVar("F", bound=Callable[..., Any])

FRAGMENT_RUNS: collections.Counter[str] = collections.Counter()
"""Runs :func:`person_fragment` marked as a person's page run, by function: tests read it
(:func:`fragment_runs`). Each session's runs are threads of their own: it is updated under
:data:`_fragment_lock` (``+=`` on a Counter reads, then writes: two runs in between each other
lose one)."""
_fragment_lock = threading.Lock()


def fragment_runs() -> dict[str, int]:
    """:data:`FRAGMENT_RUNS` as it is now (a copy, taken under its lock)."""
    with _fragment_lock:
        return dict(FRAGMENT_RUNS)


def person_fragment(fn: F) -> F:
    """``fn``, the body of an ``st.fragment`` a person's action reruns alone (a document
    switch, a step, the search's documents, a curation decision), marking each run that is not
    part of a page run already marked (``app.py``'s, or an enclosing fragment's) as a page run:
    later jobs are held while it runs and :data:`HOLD_AFTER_RUN` after it, as for a whole run.
    A fragment's rerun starts no run of ``app.py``, so none of these marked itself, and the
    Annotators page's
    measures computed ahead ran through every document switch and step a second after the last
    whole run (docs/performance.md, issue 29, seventeenth pass: 0.08-0.17 s of the worker's CPU
    in every switch of 0.14-0.45 s). A fragment on a timer (``run_every``: a progress poll) is
    no person's action and is not marked. Put it under ``@st.fragment``, which keeps ``fn``'s
    name (``functools.wraps``) for the fragment's id."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        if _mine():  # inside a run of this thread marked already (fragments run inline)
            return fn(*args, **kwargs)
        with _fragment_lock:
            FRAGMENT_RUNS[fn.__qualname__] += 1
        page_run_started()
        try:
            return fn(*args, **kwargs)
        finally:
            page_run_ended()

    return cast("F", run)


def holding(now: float | None = None) -> bool:
    """Whether a person's page run is under way (begun less than :data:`HOLD_MAX` ago), or
    ended less than :data:`HOLD_AFTER_RUN` ago."""
    now = time.monotonic() if now is None else now
    return hold_until() > now


def wait_while_running(at_most: float = HOLD_STRETCH) -> None:
    """Block the calling thread while a person's page run is under way (any session's, begun
    less than :data:`HOLD_MAX` ago), at most ``at_most`` seconds: work computed ahead in the
    server's own process (:func:`ui.documents.lists_ahead`) pauses there, so a page run does
    not share the interpreter with it. Unlike the worker's hold it does not wait
    :data:`HOLD_AFTER_RUN` after a run: a thread of this process takes the server's core, not
    the one the browser draws on."""
    end = time.monotonic() + at_most
    with _changed:
        while True:
            now = time.monotonic()
            under_way = [t + HOLD_MAX for t in _runs.values() if t + HOLD_MAX > now]
            if not under_way or now >= end:
                return
            _changed.wait(min(end, *under_way) - now)


def hold_until() -> float:
    """Until when (``time.monotonic``) the page runs under way and the last one ended hold later
    jobs, unless a run starts or ends meanwhile: :data:`HOLD_MAX` after the start of each run
    under way, :data:`HOLD_AFTER_RUN` after the last end."""
    with _changed:
        return max([t + HOLD_MAX for t in _runs.values()] + [_last_end[0] + HOLD_AFTER_RUN])


def _received(conn: Connection) -> tuple[Any, ...]:
    """The worker's next message, unpickled without the cycle collector's passes over the many
    objects a result may be (:func:`ui.memory.paused`). Nothing is frozen here: the server
    holds every session's page runs, whose cycles a freeze would keep until the process ends
    (a server that runs for days would grow with every result); the worker, which holds no
    session, freezes after each job (:func:`ui.memory.long_lived`)."""
    data = conn.recv_bytes()
    with memory.paused():
        message: tuple[Any, ...] = ForkingPickler.loads(data)
    return message


class WorkerDied(RuntimeError):
    """The worker process ended while it held a job (killed, out of memory)."""


SOCKET_PATH_MAX = 108 if sys.platform.startswith("linux") else 104
"""The longest path of a Unix socket, in bytes (``sun_path``: 108 on Linux, 104 on macOS and the
BSDs); the worker's lies in the temporary folder (:func:`tempfile.gettempdir`, ``TMPDIR``)."""


class SocketPathTooLong(SpanScopeError):
    """The worker cannot listen: the temporary folder's path is too long for a Unix socket.
    Its message is the page's (:meth:`Job.error`), so it names TMPDIR, not the server's path;
    the server's standard error says the path too (:class:`Worker`)."""


class NotSent(SpanScopeError):
    """A job's arguments could not be pickled for the worker (:meth:`Worker._message`): the job
    fails alone, with a message naming the job and the argument, and its page shows it; the
    next page run that shows the job sends it again (:func:`shown`), since a value another
    thread was still filling pickles once it is whole."""


STOPPED = ("the computation stopped: its background process ended (stopped by the server, or "
           "out of memory). Reload the page or change any choice to retry.")
"""What a page shows for a job whose worker died; the job runs again on the next page run."""


T = TypeVar("T")


@dataclass
class Job(Generic[T]):
    """Work for the background worker: its progress, and the future of its result (a ``T``).

    ``task`` and ``kwargs`` are what :func:`ui.gamma_worker.run` receives."""

    title: str
    task: str = ""
    kwargs: dict[str, object] = field(default_factory=dict, repr=False)
    future: Future[T] | None = None
    done_steps: int = 0
    total_steps: int = 0
    started: float | None = None
    finished: float | None = None
    stop_shown: bool = False  # STOPPED was returned by error(): the next shown() retries
    later: bool = False  # queued behind every ordinary job (submit(later=True)) until shown
    holdable: bool = True  # a later job held while a person's page runs (Worker._hold_once)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def report(self, done: int, total: int) -> None:
        """A progress message from the worker (``done < 0``: the work has started)."""
        with self._lock:
            if done < 0:
                self.started = time.perf_counter()
            else:
                self.done_steps, self.total_steps = done, total

    @property
    def fraction(self) -> float:
        with self._lock:
            return min(1.0, self.done_steps / self.total_steps) if self.total_steps else 0.0

    def done(self) -> bool:
        """Finished (a cancelled job is not: :func:`shown` submits it again when asked for)."""
        return self.future is not None and self.future.done() and not self.future.cancelled()

    def error(self) -> str | None:
        """The message of the input error that stopped the work (or of :class:`NotSent`: its
        arguments could not be sent), or :data:`STOPPED` when the worker process ended under
        it (other errors are raised: bugs)."""
        if not self.done():
            return None
        assert self.future is not None
        exc = self.future.exception()
        if exc is None:
            return None
        if isinstance(exc, NotSent):
            self.stop_shown = True  # retried by the next page run that shows it
            return str(exc)
        if isinstance(exc, SpanScopeError):
            return str(exc)
        if isinstance(exc, WorkerDied):
            self.stop_shown = True
            return STOPPED
        raise exc

    def stopped(self) -> bool:
        """Whether the worker process ended under this job, or its arguments could not be sent
        (:class:`NotSent`): a failure never kept (the pages cache the job object, and
        :func:`shown` submits it again)."""
        return (self.done() and self.future is not None
                and isinstance(self.future.exception(), (WorkerDied, NotSent)))

    def result(self) -> T:
        assert self.future is not None
        return self.future.result()

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.finished or time.perf_counter()) - self.started


PICKLE_TRIES = 5
"""Times :meth:`Worker._message` pickles a job whose arguments changed while it pickled them."""

STOP_WAIT = 10.0
"""Seconds :meth:`Worker.stop` waits for the killed worker to be reaped (a process killed while
the kernel holds it in an uninterruptible wait ends only when that wait does)."""


class Worker:
    """One worker process, its connection, and the thread that feeds it jobs."""

    def __init__(self) -> None:
        key = os.urandom(32)
        folder = tempfile.mkdtemp(prefix="spanscope-worker-")
        self.address = os.path.join(folder, "socket")
        if len(os.fsencode(self.address)) > SOCKET_PATH_MAX:
            # the worker's Listener would fail with "AF_UNIX path too long" and exit at once,
            # which said only that the worker exited at start (status 1)
            shutil.rmtree(folder, ignore_errors=True)
            size = len(os.fsencode(self.address))
            print(f"spanscope: the background worker cannot start: its socket {self.address} "
                  f"({size} bytes) is longer than the {SOCKET_PATH_MAX} bytes a Unix socket's "
                  "path may have; it lies in the temporary folder (TMPDIR="
                  f"{tempfile.gettempdir()}): start the app with a shorter TMPDIR, e.g. "
                  "TMPDIR=/tmp spanscope app ...", file=sys.stderr, flush=True)
            raise SocketPathTooLong(
                "the background computation cannot start: the server's temporary folder "
                f"(TMPDIR) has a path too long for the worker's Unix socket ({size} bytes, at "
                f"most {SOCKET_PATH_MAX}); whoever starts the app can start it with a shorter "
                "TMPDIR, e.g. TMPDIR=/tmp spanscope app ...")  # no Markdown: pages escape it
        # The hold's deadline, which the worker reads (ui.gamma_worker.watch_deadline)
        with open(deadline_path(self.address), "wb") as f:
            f.write(_DEADLINE.pack(0.0))
        with open(deadline_path(self.address), "r+b") as f:
            self.deadline: mmap.mmap | None = mmap.mmap(f.fileno(), _DEADLINE.size)
        self.until = 0.0  # the deadline written last
        # numpy without huge pages and the allocator keeping what it frees, as the server
        # (ui.memory.lean_memory): the worker scores the same large arrays
        env = {**os.environ, **memory.memory_env(os.environ), KEY_ENV: key.hex(),
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ui.gamma_worker", self.address], cwd=ROOT, env=env,
                stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                self.conn = self._connect(key)
            except BaseException:
                # killed and reaped, however the connection failed: in its own session a
                # Ctrl+C does not reach it, and nothing else would stop it (review19)
                self._end()
                raise
        except BaseException:
            # stop() is registered below, once connected: a worker that did not start takes
            # its folder and the mapped deadline file with it (review18)
            self.deadline.close()
            self.deadline = None
            shutil.rmtree(folder, ignore_errors=True)
            raise
        # (0, id, job) for the jobs pages show, (1, id, job) for later ones: by kind, then age.
        self.tasks: queue.PriorityQueue[tuple[int, int, Job[object]]] = queue.PriorityQueue()
        self.ids = itertools.count(1)
        self.front = itertools.count(-1, -1)  # ids that queue ahead of every earlier one
        self.held: dict[str, None] = {}  # keys of the Resident values the worker keeps, by use
        self.claim = threading.Lock()  # whoever takes a queued job: this thread or run_here()
        self.current: Job[object] | None = None  # the job in flight
        self.alive = True
        self.holds = 0  # hold signals sent (which path ran)
        atexit.register(self.stop)
        threading.Thread(target=self._loop, daemon=True, name="spanscope-jobs").start()
        if HOLD_SIGNAL is not None:
            threading.Thread(target=self._hold_loop, daemon=True, name="spanscope-hold").start()

    def _hold_loop(self) -> None:
        """Hold the later job in flight while :func:`holding` says so (:meth:`_hold_once`),
        sleeping until a run starts or ends or the job in flight changes, or the hold's
        deadline passes.

        The look is taken under :data:`_changed` and the wait releases it: a change notified
        between the two (a run started, the job in flight changed) waits for the lock until this
        thread waits, and then wakes it. Looked at outside the lock, such a change was missed
        until the next run started or ended, and the hold started one run late (issue 29,
        sixteenth pass). ``_changed`` is reentrant, so :func:`holding` takes it again."""
        since: float | None = None
        while self.alive:
            with _changed:
                wait, since = self._hold_once(time.monotonic(), since)
                _changed.wait(wait)
        with _changed:  # the worker is gone (woken by _loop or stop): no hold is left due
            self._write_deadline(0.0)

    def _hold_once(self, now: float, since: float | None) -> tuple[float | None, float | None]:
        """One look: when the job in flight is a later one and :func:`holding`, write the hold's
        deadline (:func:`hold_until`, at most :data:`HOLD_STRETCH` after the hold began, at
        ``since``) for the worker and send it :data:`~ui.gamma_worker.HOLD_SIGNAL`: its handler
        holds the job until that deadline, reading it again as it goes, so the deadline moved
        or cleared (0: no hold) by a later look moves or ends the hold; no job of a first visit
        (``holdable`` off) is held. Returns how long to wait before the next look (until the
        deadline; None: until notified) and when the hold began."""
        job = self.current
        until = hold_until()
        # a worker gone is sent nothing: the system may have given its pid to another process
        hold = self.alive and job is not None and job.later and job.holdable and until > now
        if not hold:
            self._write_deadline(0.0)
            return None, None
        since = now if since is None else since
        until = min(until, since + HOLD_STRETCH)
        if until <= now:  # work ahead must end some time: free until the reason goes
            self._write_deadline(0.0)
            return hold_until() - now, since
        self._write_deadline(until)
        if HOLD_SIGNAL is not None:
            with contextlib.suppress(OSError):  # the worker gone: its job fails elsewhere
                os.kill(self.process.pid, HOLD_SIGNAL)
                self.holds += 1
        return until - now, since

    def _write_deadline(self, until: float) -> None:
        if until != self.until and self.deadline is not None:
            with contextlib.suppress(ValueError):  # closed: the worker stopped
                _DEADLINE.pack_into(self.deadline, 0, until)
        self.until = until

    def _connect(self, key: bytes) -> Connection:
        """The connection to the worker; :class:`WorkerDied` when it exits first or does not
        listen within :data:`START_TIMEOUT` (the caller then kills and reaps it,
        :meth:`_end`: its wait was unbounded here, review20)."""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            status = exit_status(self.process)
            if status is not None:
                raise WorkerDied(f"the worker process exited at start (status {status})")
            try:
                return Client(self.address, family="AF_UNIX", authkey=key)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise WorkerDied("the worker process did not start in time") from None
                time.sleep(0.05)

    def _end(self) -> None:
        """Kill the worker's process group, then the worker, and reap it, waiting at most
        :data:`STOP_WAIT`: a no-op once it has been reaped.

        The group's id is the worker's pid (``start_new_session``), and γ's pool processes are
        in it. Until the worker is reaped its pid, and so the group's id, is still its own,
        even after it has exited (a zombie): nothing else can have that pid, or lead a group
        of that id, so the signal reaches this group's processes only. Once reaped, an empty
        group's id may be any new process's pid, and a new group's: the group is then not
        signalled. So nothing of ours reaps the worker before this has run: the server
        looks whether it has exited with :func:`exit_status`, which leaves it unreaped
        (``submit``'s ``poll()`` reaped it, and ``stop`` then skipped the group: the pool
        lived on until its parent-watch noticed, about 2 s; review20)."""
        if self.process.returncode is not None:
            return  # reaped: its pid may be another process's
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.process.kill()
        # reaped, not left a zombie for the life of the server (review19), within a bound:
        # a process killed in an uninterruptible wait ends only when that wait does (review20)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=STOP_WAIT)

    def submit(self, job: Job[T], *, later: bool = False) -> Job[T]:
        job.future = Future()
        job.started, job.finished, job.done_steps, job.total_steps = None, None, 0, 0
        job.stop_shown, job.later = False, later
        self.tasks.put((int(later), next(self.ids), job))  # type: ignore[arg-type]
        return job

    def hurry(self, job: Job[T]) -> None:
        """Queue a later job again as an ordinary one (the entry left behind is skipped: the
        job has run by the time it comes up)."""
        job.later = False
        self.tasks.put((0, next(self.ids), job))  # type: ignore[arg-type]

    def ahead(self, jobs: Sequence[Job[T]]) -> None:
        """Queue later jobs that have not started ahead of the other later jobs, in the order
        of ``jobs`` (the entries left behind are skipped, as in :meth:`hurry`)."""
        for job in reversed(jobs):
            future = job.future
            if job.later and future is not None and not future.running() and not future.done():
                self.tasks.put((1, next(self.front), job))  # type: ignore[arg-type]

    def _loop(self) -> None:
        while True:
            _, job_id, job = self.tasks.get()
            future = job.future
            with self.claim:
                if future is None or future.running() or future.done():
                    continue  # a later job's first entry after hurry(), or run_here() ran it
                if not future.set_running_or_notify_cancel():
                    continue  # cancelled before the worker took it
                self.current = job
            with _changed:
                _changed.notify_all()  # the hold loop looks at the job in flight
            try:
                message = self._message(job_id, job)
            except Exception as failed:  # nothing was sent: the worker is as it was
                # A task's arguments that cannot be pickled fail their job, not this thread:
                # the thread died of it and every later job waited for ever ("waiting for the
                # worker"), the page's progress bar with it (docs/robustness.md)
                job.finished = time.perf_counter()
                self.current = None
                future.set_exception(failed)
                continue
            try:
                self.conn.send_bytes(message)
                while True:
                    kind, _, *rest = self._answer()
                    if kind == "progress":
                        job.report(int(rest[0]), int(rest[1]))
                        continue
                    job.finished = time.perf_counter()
                    if kind == "done":
                        future.set_result(rest[0])
                    else:
                        exc = rest[0]
                        future.set_exception(exc if isinstance(exc, BaseException)
                                             else RuntimeError(str(exc)))
                    break
                self.current = None
            except (EOFError, OSError) as exc:
                self.alive = False
                with _changed:
                    _changed.notify_all()  # the hold loop ends now, not at the hold's deadline
                future.set_exception(WorkerDied(f"the worker process ended: {exc!r}"))
                self._fail_queued()
                return

    def _answer(self) -> tuple[Any, ...]:
        """The worker's next message (:func:`_received`). One read whole that does not unpickle
        (an error whose class's ``__init__`` takes other arguments than it keeps: ``TypeError:
        FormatError.__init__() missing 1 required positional argument``) is the job's answer,
        an error saying so: the thread read only a closed connection, so that answer killed it
        and every later job waited for ever ("waiting for the worker"). The worker sends its
        progress as numbers, which always unpickle, so an answer that does not is the job's
        last, and the next message is the next job's."""
        try:
            return _received(self.conn)
        except (EOFError, OSError):
            raise
        except Exception as unread:
            return ("error", None, RuntimeError(
                "the background worker's answer could not be read: "
                f"{type(unread).__name__}: {unread}"))

    def _message(self, job_id: int, job: Job[Any]) -> memoryview:
        """The job as sent to the worker, pickled here: ``(id, task, kwargs, forget, later)``
        (later: no page waits for it yet, the server may hold it, :meth:`_hold_loop`).
        Pickling walks the arguments, which another thread of the server may still be filling
        (a dict that grows: ``RuntimeError: dictionary changed size during iteration``, seen
        once in 9 bench runs at 100,000 documents): tried :data:`PICKLE_TRIES` times. On
        any failure (that one every time, or an argument that never pickles: a lambda, a lock)
        the resident values are forgotten as sent, the keys to drop kept: the worker got
        neither (review20: only the ``RuntimeError`` did so, and after a ``PicklingError`` every
        later job sent the key of a value the worker never had, and failed with ``KeyError``)."""
        held = dict(self.held)
        packed = (job_id, job.task, *self._pack(job.kwargs), job.later)
        try:
            for _ in range(PICKLE_TRIES - 1):
                with contextlib.suppress(RuntimeError):
                    return ForkingPickler.dumps(packed)
                time.sleep(0.01)
            return ForkingPickler.dumps(packed)  # the last try: its error is the job's
        except BaseException as exc:
            self.held.clear()
            self.held.update(held)
            if isinstance(exc, Exception):
                raise _not_sent(job, exc) from exc
            raise

    def _pack(self, kwargs: dict[str, object]) -> tuple[dict[str, object], list[str]]:
        """A task's arguments as sent: a :class:`~ui.gamma_worker.Resident` the worker keeps
        already becomes a :class:`~ui.gamma_worker.Held` (its key); and the keys the worker
        should forget, the least recently used beyond :data:`RESIDENT_MAX`."""
        used: set[str] = set()

        def one(v: object) -> object:
            if isinstance(v, Resident):
                used.add(v.key)
                if v.key in self.held:
                    del self.held[v.key]  # re-inserted below: the most recently used
                    self.held[v.key] = None
                    return Held(v.key)
                self.held[v.key] = None
                return v
            if isinstance(v, (list, tuple)):
                return type(v)(one(x) for x in v)
            return v

        packed = {k: one(v) for k, v in kwargs.items()}
        drop = [k for k in self.held if k not in used][:max(0, len(self.held) - RESIDENT_MAX)]
        for k in drop:
            del self.held[k]
        return packed, drop

    def _fail_queued(self) -> None:
        while True:
            try:
                _, _, job = self.tasks.get_nowait()
            except queue.Empty:
                return
            future = job.future
            if future is None or future.running() or future.done():
                continue
            if future.set_running_or_notify_cancel():
                future.set_exception(WorkerDied("the worker process ended"))

    def stop(self) -> None:
        """Kill the worker (the server is exiting: a long γ must not delay it)."""
        self.alive = False
        # Signalled and reaped only while not reaped yet (:meth:`_end`): once waited for, its
        # pid may be another process's (a second stop, atexit after an explicit one). The
        # worker leads its own process group, which γ's process pool joins: killing the group
        # leaves no pool process behind (killing the worker alone orphaned them).
        self._end()
        with contextlib.suppress(OSError):
            self.conn.close()
        with _changed:  # the hold loop writes the deadline under this lock
            if self.deadline is not None:
                self.deadline.close()
                self.deadline = None
            _changed.notify_all()  # the hold loop sees the worker stopped, and ends
        # The killed worker never unlinks its socket: its folder (socket, deadline) goes here,
        # or every server start would leave one behind in the temporary directory.
        shutil.rmtree(os.path.dirname(self.address), ignore_errors=True)


def exit_status(process: subprocess.Popen[bytes]) -> int | None:
    """``process``'s exit status (negative: the signal that ended it) once it has exited, else
    None; unlike ``Popen.poll`` it leaves the process unreaped (``WNOWAIT``), so its pid and
    its process group's id stay its own until :meth:`Worker._end` has killed the group."""
    if process.returncode is not None:
        return process.returncode
    if not hasattr(os, "waitid"):  # macOS: reaped, and so the group is left to its watch
        return process.poll()
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # reaped by another waiter: Popen knows its status
        return process.poll()
    if info is None:
        return None
    return -info.si_status if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else info.si_status


def _not_sent(job: Job[Any], exc: Exception) -> NotSent:
    """The page's message for a job whose arguments did not pickle: the job's title and the
    first argument that does not pickle alone (none when each does: one was being changed)."""
    name = None
    for key, value in job.kwargs.items():
        try:
            ForkingPickler.dumps(value)
        except Exception:
            name = key
            break
    what = f"its argument '{name}'" if name is not None else "its arguments"
    return NotSent(f"{job.title}: the computation could not be sent to the background "
                   f"worker: {what} could not be pickled ({type(exc).__name__}: {exc}). "
                   "The other computations go on; reload the page or change any choice to "
                   "retry.")


_replacing = threading.Lock()
"""Held by :func:`submit` while it replaces a dead worker: one session replaces it."""


@st.cache_resource(show_spinner=False)
def _worker() -> Worker:
    """The server's one worker process (started at the first job)."""
    return Worker()


def submit(job: Job[T], *, later: bool = False) -> Job[T]:
    """Queue ``job`` on the worker (again, when it was cancelled before it started, or its
    worker died); ``later``: behind every ordinary job, until a page run shows it. A worker that
    cannot start fails the job with :class:`WorkerDied`, which the page shows as
    :data:`STOPPED`, or with :class:`SocketPathTooLong`, whose message the page shows."""
    try:
        worker = _worker()
        if not worker.alive or exit_status(worker.process) is not None:
            with _replacing:
                # Looked at again under the lock: another session may have replaced it (its
                # clear() would drop the new worker, left running with nothing to stop it).
                worker = _worker()
                if not worker.alive or exit_status(worker.process) is not None:
                    worker.stop()  # its pool's processes and its folder
                    _worker.clear()
                    worker = _worker()
    except (WorkerDied, SocketPathTooLong, OSError) as exc:
        _worker.clear()
        job.future = Future()
        job.stop_shown = False
        job.future.set_exception(exc if isinstance(exc, (WorkerDied, SocketPathTooLong))
                                 else WorkerDied(str(exc)))
        return job
    return worker.submit(job, later=later)


def hold(title: str, values: Sequence[Resident], imports: Sequence[str] = ()) -> Job[None]:
    """Send ``values`` to the worker now, for jobs queued later (which then send their keys
    only, :meth:`Worker._pack`), and have it import the modules ``imports`` those jobs need;
    the worker is started if it is not running. What a job's start costs (the worker's start,
    pickling and sending the corpus, the worker's imports) is then paid ahead of the job:
    :func:`ui.ahead.early` holds the Metric differences path's sets while the first page is
    drawn (issue 29, tenth pass)."""
    return submit(Job(title, "hold", {"values": list(values), "imports": list(imports)}))


def _hurry(job: Job[T]) -> None:
    """Run a later job next, unless it has started (or its worker is gone: the job has failed,
    and the page shows that)."""
    worker = _worker()
    future = job.future
    if (future is not None and not future.running() and not future.done()
            and worker.alive and any(job is j for *_, j in list(worker.tasks.queue))):
        worker.hurry(job)
    job.later = False
    with _changed:
        _changed.notify_all()  # no longer held


def wanted(job: Job[T]) -> None:
    """A page run waits for ``job`` (in flight, or queued): it is no longer work ahead, and is
    not held (:meth:`Worker._hold_loop`)."""
    job.later = False
    with _changed:
        _changed.notify_all()


def ahead(jobs: Sequence[Job[T]]) -> None:
    """Run these later jobs (those not started) before the other later jobs, in this order:
    a page that knows which of its prefetched results the user will likely want next says so
    (ordinary jobs still come first)."""
    worker = _worker()
    if worker.alive:
        worker.ahead(jobs)


def busy_elsewhere(job: Job[T]) -> bool:
    """Whether ``job`` waits while the worker computes another job (one computed ahead, or
    another page's, or the same page's slower one): the job in flight is not ``job``, and
    ``job`` has not started."""
    worker = _worker()
    current = worker.current
    future = job.future
    return (worker.alive and current is not None and current is not job
            and future is not None and not future.running() and not future.done())


def run_here(job: Job[T], compute: Callable[[], T]) -> bool:
    """Run a queued job in this thread (a page run) rather than after the worker's job in
    flight: its future is claimed first, so the worker skips it when it comes up; False (and
    nothing run) when the worker has taken it, or it is done or cancelled. An input error is
    the job's error, as from the worker; any other exception is raised after failing the job
    (a bug); a run interrupted (not an ``Exception``: the script stopped) queues the job on the
    worker again before the interruption goes on."""
    worker = _worker()
    future = job.future
    if future is None:
        return False
    with worker.claim:
        if future.running() or future.done() or not future.set_running_or_notify_cancel():
            return False
    job.report(-1, 0)
    try:
        value = compute()
    except SpanScopeError as exc:
        job.finished = time.perf_counter()
        future.set_exception(exc)
        return True
    except Exception as exc:
        job.finished = time.perf_counter()
        future.set_exception(exc)
        raise
    except BaseException:
        submit(job, later=job.later)  # a new future; nobody waits on the abandoned one
        raise
    job.finished = time.perf_counter()
    future.set_result(value)
    return True


Memory = MutableMapping[str, object] | SessionStateProxy
"""Where :func:`shown` keeps the jobs of the previous page run (the session state)."""


def shown(jobs: Sequence[object], *, memory: Memory, key: str) -> None:
    """Record the jobs this page run shows under ``memory[key]``; cancel those the previous run
    showed and this one does not, if they have not started (clicking γ's sample count up four
    times queues one γ, not four). A cancelled job that is asked for again is queued again, and
    so is a job whose worker died once a page run has shown that (:data:`STOPPED`); a later job
    that has not started runs next (:func:`submit`)."""
    current = [j for j in jobs if isinstance(j, Job)]
    for job in current:
        if job.future is not None and job.future.cancelled():
            submit(job)
        elif job.later:
            _hurry(job)
        elif job.stop_shown and job.stopped():
            submit(job)  # the page said it stopped; this run is the retry
    previous = memory.get(key)
    for job in previous if isinstance(previous, list) else ():
        if isinstance(job, Job) and all(job is not j for j in current) and job.future:
            job.future.cancel()  # a no-op once the worker has taken it
    memory[key] = current


def progress(job: Job[T], *, every: float = 0.5) -> None:
    """A progress bar that polls ``job`` every ``every`` seconds and reruns the page once it is
    done (an ``st.fragment``: only the bar reruns meanwhile, the page stays usable)."""

    @st.fragment(run_every=every)
    def _poll() -> None:
        if job.done():
            st.rerun()
        if job.started is None:
            text = f"{md(job.title)}: waiting for the worker (starting, or busy with another job)…"
        else:
            text = f"{md(job.title)}: {job.fraction:.0%} ({job.elapsed():.1f} s)"
        st.progress(job.fraction, text=text)

    _poll()


__all__ = ["Job", "NotSent", "Resident", "Worker", "WorkerDied", "ahead", "busy_elsewhere", "hold",
           "holding", "page_run_ended", "page_run_started", "person_fragment", "progress",
           "run_here", "shown",
           "submit", "wanted"]
