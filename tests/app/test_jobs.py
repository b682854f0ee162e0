"""The background worker (ui.jobs): results, progress, cancellation, and a worker that dies."""

from __future__ import annotations

import pytest

from core.metrics.agreement import Study, gamma
from ui import jobs


def _study(handmade) -> Study:
    texts, sets = handmade
    return Study.from_sets(sets, texts)


def test_a_job_returns_cores_value_and_reports_progress(handmade) -> None:
    s = _study(handmade)
    job = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 3, "seed": 5}))
    result = job.future.result(timeout=120)
    assert result["gamma"].overall.value == pytest.approx(
        gamma(s, samples=3, seed=5).overall.value)
    assert job.started is not None and job.finished is not None and job.fraction == 1.0


def test_an_input_error_in_the_worker_is_the_jobs_error_message(handmade) -> None:
    s = _study(handmade)
    job = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 0, "seed": 1}))
    with pytest.raises(Exception, match="at least one chance sample"):
        job.future.result(timeout=120)
    assert "at least one chance sample" in (job.error() or "")


def test_a_worker_that_dies_fails_its_job_and_the_next_job_starts_a_new_one(handmade) -> None:
    import time

    s = _study(handmade)
    jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 2, "seed": 2})).future.result(
        timeout=120)  # the worker is up
    worker = jobs._worker()
    doomed = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 5000, "seed": 3}))
    deadline = time.monotonic() + 60
    while doomed.started is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert doomed.started is not None and not doomed.done()
    worker.process.kill()
    with pytest.raises(jobs.WorkerDied):
        doomed.future.result(timeout=120)
    # Issue 28: the page says so (no traceback box), and the job is never kept failed: the
    # next page run that shows it submits it again (the pages cache job objects).
    assert doomed.error() == jobs.STOPPED and "retry" in jobs.STOPPED
    doomed.kwargs["samples"] = 3  # the retry, shorter
    jobs.shown([doomed], memory={}, key="k")
    assert doomed.future.result(timeout=120)["gamma"].overall.value == pytest.approx(
        gamma(s, samples=3, seed=3).overall.value)
    assert doomed.error() is None and not doomed.stopped()
    again = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 3, "seed": 3}))
    assert again.future.result(timeout=120)["gamma"].overall.value == pytest.approx(
        gamma(s, samples=3, seed=3).overall.value)
    assert jobs._worker() is not worker


def _group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (zombies excluded)."""
    import os
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def test_stopping_the_worker_leaves_no_pool_process_behind(handmade) -> None:
    # A long γ runs in a process pool inside the worker; killing only the worker orphaned the
    # pool's processes (found alive after a test session). The worker leads its own process
    # group and stop() kills the group.
    import time

    s = _study(handmade)
    worker = jobs.Worker()
    try:
        job = worker.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 5000, "seed": 4}))
        pgid = worker.process.pid
        deadline = time.monotonic() + 60
        while len(_group(pgid)) < 2 and time.monotonic() < deadline and not job.done():
            time.sleep(0.05)
        assert len(_group(pgid)) >= 2, "the γ pool did not start"
    finally:
        worker.stop()
    deadline = time.monotonic() + 10
    while _group(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group(pgid) == []


def test_later_jobs_wait_for_ordinary_ones_and_a_hurried_one_runs_first(handmade) -> None:
    # The Annotators page queues the measures not chosen yet as later jobs (issue 29, target 5):
    # they must never delay a job a page shows, and the one a switch asks for runs next.
    s = _study(handmade)
    worker = jobs.Worker()
    try:
        blocker = worker.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 300, "seed": 1}))
        first = worker.submit(jobs.Job("many", "many", {"study": s}), later=True)
        second = worker.submit(jobs.Job("many", "many", {"study": s}), later=True)
        ordinary = worker.submit(jobs.Job("many", "many", {"study": s}))
        assert first.later and second.later and not ordinary.later
        worker.hurry(second)
        results = [j.future.result(timeout=120) for j in (blocker, first, second, ordinary)]
        assert blocker.finished is not None and blocker.finished < ordinary.started
        started = [j.started for j in (ordinary, second, first)]
        assert None not in started and started == sorted(started)
        assert results[1] == results[2] == results[3]  # the hurried job ran once, not twice
        assert not second.later
    finally:
        worker.stop()
