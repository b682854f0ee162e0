"""Process side of the dashboard's background jobs (:mod:`ui.jobs`).

``python -m ui.gamma_worker ADDRESS`` listens on the socket ``ADDRESS`` for the server (the key
is in ``SPANSCOPE_WORKER_KEY``) and runs one task at a time with :func:`run`, sending
``("progress", job id, done, total)`` messages (``done = -1``: the task has started) and then
``("done", job id, result)`` or ``("error", job id, exception)``. A task's arguments may be
:class:`Resident` values, which the worker keeps for later tasks that name them by key
(:class:`Held`). While it runs a job the server queued ``later`` (work ahead, which no page waits
for yet), the server may hold it with :data:`HOLD_SIGNAL` until the deadline it writes in a
file beside the socket (:func:`_hold`, :func:`deadline_path`): a person's page run and the
browser drawing it take the cores first. This module imports ``core``
only, never streamlit, so the worker starts fast; it exits by itself when the server process that
started it is gone.
"""

from __future__ import annotations

import importlib
import mmap
import os
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, Listener
from typing import TYPE_CHECKING, Any

from ui import memory

if TYPE_CHECKING:
    from core.metrics.agreement import MeasureView

_QUEUE: Any = None
_RESIDENT: dict[str, Any] = {}
"""Values the server sent once and refers to by key (:class:`Resident`, :class:`Held`)."""
_SHARED: Any = None
"""What :func:`core.metrics.agreement.measure_view` keeps between the views of one corpus
(:class:`core.metrics.agreement.panel.Shared`: its studies, majority and character runs), made
with the first view."""
_GAMMA_CACHE: dict[str, Any] = {}
"""γ's chance alignments, kept in this worker process between tasks (γ-cat after γ reuses
them); :func:`core.metrics.agreement.gamma` keeps none itself."""

HOLD_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR1", None)
"""The signal by which the server holds a later job (:func:`_hold`; None where the system has
no such signal: no holds there)."""
HOLD_SLICE = 0.05
"""Seconds a held job sleeps between two looks at its deadline (:func:`_hold`): the server
shortens or clears the deadline (a run ended, a page waits for the job), and the job goes on
at most this long after. Without a deadline file (a worker started by hand), one signal holds
the job this long."""
HOLD_LONGEST = 35.0
"""Seconds one hold lasts at most, whatever the deadline read says (the server's bound is
30 s in a row, ``ui.jobs.HOLD_STRETCH``, plus one run's 5 s): a deadline read wrong never stops
the work ahead for good."""
_DEADLINE = struct.Struct("d")
"""The deadline file's one value: until when (``time.monotonic``, the system's monotonic clock,
the same in both processes) the server holds the later job in hand; 0 or a time passed: no
hold."""
_LATER_NOW = [False]
"""Whether the job in hand is a later one (only those are held)."""
_HELD = [0]
"""Holds this process has made (:func:`held`: which path ran)."""
_HOLDING = [False]
"""Whether :func:`_hold` is holding (a signal that comes meanwhile adds nothing)."""
_UNTIL: list[Any] = [None]
"""The deadline file, mapped (:func:`watch_deadline`); None: one :data:`HOLD_SLICE` per
signal."""


def deadline_path(address: str) -> str:
    """The file beside the socket ``address`` in which the server writes the hold's deadline."""
    return os.path.join(os.path.dirname(address), "hold")


def watch_deadline(path: str) -> bool:
    """Map the deadline file ``path`` that the server writes (``ui.jobs.Worker``), when it
    exists; whether it does."""
    try:
        with open(path, "rb") as f:
            _UNTIL[0] = mmap.mmap(f.fileno(), _DEADLINE.size, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        _UNTIL[0] = None
    return _UNTIL[0] is not None


def _deadline() -> float:
    until = _UNTIL[0]
    return float(_DEADLINE.unpack_from(until)[0]) if until is not None else 0.0


LONG_JOB = 20_000
"""Documents × chance samples beyond which γ runs on one core only (about a minute's work)."""


@dataclass(frozen=True)
class Resident:
    """A task argument the worker keeps between tasks under ``key`` (an annotation set, the
    texts of a corpus): :mod:`ui.jobs` sends the value with the first task that needs it and
    a :class:`Held` with the later ones, so a switch of measure does not pickle, send and
    unpickle the whole corpus again. ``key`` names the content (workspace key and name)."""

    key: str
    value: Any = field(repr=False)


@dataclass(frozen=True)
class Held:
    """A :class:`Resident` value the worker already keeps, by its key."""

    key: str


def resolve(kwargs: dict[str, Any], drop: Sequence[str] = ()) -> dict[str, Any]:
    """``kwargs`` with each :class:`Resident` kept and each :class:`Held` looked up (also in a
    list or tuple), after forgetting the keys ``drop`` (the server's bound on what is kept)."""
    for key in drop:
        _RESIDENT.pop(key, None)

    def one(v: Any) -> Any:
        if isinstance(v, Resident):
            _RESIDENT[v.key] = v.value
            return v.value
        if isinstance(v, Held):
            return _RESIDENT[v.key]
        if isinstance(v, (list, tuple)):
            return type(v)(one(x) for x in v)
        return v

    return {k: one(v) for k, v in kwargs.items()}


def init(queue: Any) -> None:
    """Worker initialiser: keep the progress queue; exit when the parent process goes away."""
    global _QUEUE
    _QUEUE = queue
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(2.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="spanscope-parent-watch").start()


def _reporter(job_id: int) -> Callable[[int, int], None] | None:
    """A progress callback that sends at most one message per half percent."""
    if _QUEUE is None:
        return None
    last = [-1.0]

    def report(done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        if fraction - last[0] >= 0.005 or done >= total:
            last[0] = fraction
            _QUEUE.put((job_id, done, total))

    return report


def for_the_page(view: MeasureView) -> MeasureView:
    """``view`` as the page shows it (:func:`core.metrics.agreement.panel.lean_view`): the
    matrix, the corpus values and the ranking of documents (:attr:`MeasureView.ranking`, which
    the worker computed from the per-document values), without those values. They would cross
    the socket pickled, an object per document and pair (at 100,000 documents and three pairs,
    3 s of the worker's and the server's CPU for 26 MB, against 0.3 s without them)."""
    from core.metrics.agreement.panel import lean_view

    return lean_view(view)


def shared() -> Any:  # -> core.metrics.agreement.panel.Shared
    """:data:`_SHARED`, made at its first use."""
    global _SHARED
    if _SHARED is None:
        from core.metrics.agreement.panel import Shared

        _SHARED = Shared()
    return _SHARED


STUDIES_KEPT = 2
"""Studies :func:`study_of` keeps (the last choices of sets: about 0.5 s of CPU to build at
100,000 documents)."""
_STUDIES: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}


def study_of(kwargs: dict[str, Any]) -> Any:  # -> core.metrics.agreement.Study
    """The study a "gamma", "many" or "view" task reads: ``kwargs["study"]`` when sent, else
    the study of ``kwargs["sets"]`` and ``kwargs["texts"]`` (only ``kwargs["label"]``), built
    once in this process and kept (:data:`STUDIES_KEPT`, under the identity of the resident
    sets and texts, which it holds), and put in :func:`shared` under the key
    :func:`core.metrics.agreement.measure_view` reads it by: one study per choice of sets for
    every job, where the views built their own (again whenever ``Shared``, which keeps its
    last eight entries, had dropped it) and the many-annotator values and γ were sent the
    server's, pickled (``ui.annotators._resident_study_args``)."""
    if "study" in kwargs:
        return kwargs["study"]
    from core.metrics.agreement import Study

    sets, texts, label = kwargs["sets"], kwargs["texts"], kwargs["label"]
    parts = ("study", *sets, texts, label)
    key = tuple(p if p is None or isinstance(p, str) else id(p) for p in parts)
    if key not in _STUDIES:
        _STUDIES[key] = (parts, Study.from_sets(sets, texts, label=label))
        while len(_STUDIES) > STUDIES_KEPT:
            del _STUDIES[next(iter(_STUDIES))]
    study = _STUDIES[key][1]
    return shared().get(parts, lambda: study)


def run(job_id: int, task: str, kwargs: dict[str, Any]) -> Any:
    """Run ``task`` with ``kwargs``: ``"gamma"`` (corpus γ then γ-cat of ``study``, returns
    ``{"gamma": ManyResult, "gamma-cat": ManyResult}``), ``"view"``
    (:func:`core.metrics.agreement.measure_view` as :func:`for_the_page`), ``"many"`` (Fleiss' κ,
    Krippendorff's α and α_U of ``study``, as :func:`ui.annotators.many_values`; either reads
    :func:`study_of`) or ``"path"`` (:func:`core.metrics.differences.metric_path`), or
    ``"hold"`` (:func:`ui.jobs.hold`: nothing but keep its :class:`Resident` values, which
    :func:`resolve` did, and import the modules ``imports`` that the jobs to come need; returns
    None)."""
    from core.metrics.agreement import (
        fleiss_text,
        gamma,
        krippendorff_text,
        measure_view,
        unitizing,
    )

    if _QUEUE is not None:
        _QUEUE.put((job_id, -1, -1))
    report = _reporter(job_id)
    if task == "hold":
        for name in kwargs.get("imports", ()):
            importlib.import_module(name)
        return None
    if task == "gamma":
        study, samples, seed = study_of(kwargs), kwargs["samples"], kwargs["seed"]
        # A short job may use every core; a long one leaves a core to the server's page runs.
        workers = None if len(study.docs) * samples <= LONG_JOB else 1
        g = gamma(study, samples=samples, seed=seed, progress=report, workers=workers,
                  cache=_GAMMA_CACHE)
        # γ-cat reuses the chance alignments γ kept in this process's cache.
        cat = gamma(study, samples=samples, seed=seed, categorical=True, cache=_GAMMA_CACHE)
        return {"gamma": g, "gamma-cat": cat}
    if task == "view":
        study_of(kwargs)  # the choice's study, kept for every job (and in shared())
        return for_the_page(measure_view(**kwargs, progress=report, cache=_GAMMA_CACHE,
                                         shared=shared()))
    if task == "path":  # the Metric differences page's ui.differences.path, on a large corpus
        from core.metrics.differences import metric_path

        return metric_path(**kwargs)
    if task == "many":  # the Annotators page's ui.annotators.many_values, on a large corpus
        study = study_of(kwargs)
        return {"fleiss-kappa": fleiss_text(study, per_document=False),
                "krippendorff-alpha": krippendorff_text(study, per_document=False),
                "unitizing-alpha": unitizing(study, per_document=False)}
    raise ValueError(f"unknown background task {task!r}")


class _Progress:
    """The progress "queue" of :func:`init`: messages go over the server connection."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def put(self, message: tuple[int, int, int]) -> None:
        job_id, done, total = message
        self.conn.send(("progress", job_id, done, total))


def _hold(signum: int, frame: object) -> None:
    """:data:`HOLD_SIGNAL`'s handler: while a later job is in hand, pause it until the deadline
    the server writes (:func:`watch_deadline`), looking at it again every :data:`HOLD_SLICE`
    (the server moves it as runs start and end, and clears it when a page waits for the job),
    :data:`HOLD_LONGEST` at most. The handler runs in the main thread, the job's, between two of
    its bytecodes (after the numpy call under way), so sleeping here pauses the job; between
    jobs, or in an ordinary job (one a page waits for), it does nothing. One signal holds for as
    long as the deadline says: a hold that lasted one slice per signal let the job run between
    two signals whenever the server's thread was late to send the next (issue 29, sixteenth
    pass). Without a deadline file, one signal holds one slice."""
    if not _LATER_NOW[0] or _HOLDING[0]:
        return
    _HOLDING[0] = True
    try:
        if _UNTIL[0] is None:
            _HELD[0] += 1
            time.sleep(HOLD_SLICE)
            return
        start = time.monotonic()
        now = start
        left = min(_deadline(), start + HOLD_LONGEST) - now
        if left > 0:
            _HELD[0] += 1
        while left > 0:
            time.sleep(min(left, HOLD_SLICE))
            now = time.monotonic()
            left = min(_deadline(), start + HOLD_LONGEST) - now
    finally:
        _HOLDING[0] = False


def held() -> int:
    """How many holds this process has made of a later job (:func:`_hold`)."""
    return _HELD[0]


def serve(address: str, key: bytes) -> None:
    """Accept the server's connection on ``address`` and run its tasks until it goes away:
    ``(job id, task, kwargs, keys to forget[, later])``; a later job may be held
    (:func:`_hold`, installed when this runs in the main thread)."""
    if HOLD_SIGNAL is not None and threading.current_thread() is threading.main_thread():
        watch_deadline(deadline_path(address))
        signal.signal(HOLD_SIGNAL, _hold)
    with Listener(address, family="AF_UNIX", authkey=key) as listener:
        conn = listener.accept()
    init(_Progress(conn))
    while True:
        try:
            job_id, task, kwargs, drop, *rest = conn.recv()
        except (EOFError, OSError):
            return
        _LATER_NOW[0] = bool(rest and rest[0])
        with memory.long_lived():  # a job builds what it keeps: no collector's passes over it
            try:
                result = run(job_id, task, resolve(kwargs, drop))
            except Exception as exc:  # sent back: the server raises it where the page asks
                try:
                    conn.send(("error", job_id, exc))
                except Exception:  # an exception that does not pickle: its text, as a bug
                    conn.send(("error", job_id, RuntimeError(f"{type(exc).__name__}: {exc}")))
            else:
                conn.send(("done", job_id, result))
            finally:
                _LATER_NOW[0] = False


if __name__ == "__main__":
    # Run as the imported module, not as __main__: the Resident and Held values the server
    # pickles name ui.gamma_worker's classes, which isinstance must recognise.
    from ui import gamma_worker

    gamma_worker.serve(sys.argv[1], bytes.fromhex(os.environ["SPANSCOPE_WORKER_KEY"]))
