"""Process side of the Annotators page's background jobs.

γ spends its time in many small numpy and scipy calls; run in a thread of the Streamlit server
it would take the interpreter lock from every other script run (a 0.3 s page computation took
4 s while γ ran). So :mod:`ui.annotators` runs γ in one worker process started with
:func:`init`, which receives a queue; :func:`run` executes one task there and puts ``(job id,
done, total)`` progress messages on that queue (``done = -1``: the task has started), which a
thread of the server reads. This module imports ``core`` only, never streamlit, so the worker
starts fast; it exits by itself when the server process that started it is gone.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

_QUEUE: Any = None
_GAMMA_CACHE: dict[str, Any] = {}
"""γ's chance alignments, kept in this worker process between tasks (γ-cat after γ reuses
them); :func:`core.metrics.agreement.gamma` keeps none itself."""

LONG_JOB = 20_000
"""Documents × chance samples beyond which γ runs on one core only (about a minute's work)."""


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


def run(job_id: int, task: str, kwargs: dict[str, Any]) -> Any:
    """Run ``task`` with ``kwargs``: ``"gamma"`` (corpus γ then γ-cat of ``study``, returns
    ``{"gamma": ManyResult, "gamma-cat": ManyResult}``) or ``"view"``
    (:func:`core.metrics.agreement.measure_view`)."""
    from core.metrics.agreement import gamma, measure_view

    if _QUEUE is not None:
        _QUEUE.put((job_id, -1, -1))
    report = _reporter(job_id)
    if task == "gamma":
        study, samples, seed = kwargs["study"], kwargs["samples"], kwargs["seed"]
        # A short job may use every core; a long one leaves a core to the server's page runs.
        workers = None if len(study.docs) * samples <= LONG_JOB else 1
        g = gamma(study, samples=samples, seed=seed, progress=report, workers=workers,
                  cache=_GAMMA_CACHE)
        # γ-cat reuses the chance alignments γ kept in this process's cache.
        cat = gamma(study, samples=samples, seed=seed, categorical=True, cache=_GAMMA_CACHE)
        return {"gamma": g, "gamma-cat": cat}
    if task == "view":
        return measure_view(**kwargs, progress=report, cache=_GAMMA_CACHE)
    raise ValueError(f"unknown background task {task!r}")
