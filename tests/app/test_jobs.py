"""The background worker (ui.jobs): results, progress, cancellation, and a worker that dies."""

from __future__ import annotations

import types
import uuid
from typing import Any

import pytest

from core.metrics.agreement import Study, gamma
from ui import gamma_worker, jobs


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


def test_a_dead_worker_replaced_by_submit_takes_its_pool_with_it(
        handmade, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker died under a γ (killed alone, as the system's out-of-memory killer does) and
    a page submitted a job before the jobs thread had read the end of its connection:
    ``submit``'s ``poll()`` reaped it, ``stop`` then no longer killed its process group (its
    pid could have been another process's), and γ's pool processes lived on until their
    watch on their parent noticed, about 2 s (review20). The server now looks at the worker
    without reaping it, so ``stop`` kills the group: no pool process outlives the replacement.
    The jobs thread is held before it reads, so the page's submit comes first every time."""
    import os
    import signal
    import threading
    import time

    s = _study(handmade)
    gate = threading.Event()
    received = jobs._received

    def held(conn: Any) -> tuple[Any, ...]:
        gate.wait(120)
        return received(conn)

    monkeypatch.setattr(jobs, "_received", held)
    jobs._worker.clear()
    worker = jobs._worker()
    try:
        job = worker.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 5000, "seed": 4}))
        pgid = worker.process.pid
        deadline = time.monotonic() + 60
        while len(_group(pgid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_group(pgid)) >= 2, "the γ pool did not start"
        os.kill(pgid, signal.SIGKILL)  # the worker alone
        while jobs.exit_status(worker.process) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert jobs.exit_status(worker.process) == -signal.SIGKILL
        assert worker.process.returncode is None and worker.alive  # looked at, not reaped
        after = jobs.submit(jobs.Job("imports", "hold", {"imports": ["json"]}))
        assert jobs._worker() is not worker and worker.process.returncode == -signal.SIGKILL
        assert _group(pgid) == []  # at once: no wait for the pool's parent-watch
        gate.set()
        assert after.future is not None and after.future.result(timeout=60) is None
        with pytest.raises(jobs.WorkerDied):
            assert job.future is not None
            job.future.result(timeout=60)
    finally:
        gate.set()
        worker.stop()
        jobs._worker().stop()
        jobs._worker.clear()


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


def test_a_resident_value_crosses_to_the_worker_once_and_later_jobs_name_it(handmade) -> None:
    s = _study(handmade)
    key = f"test-resident-{uuid.uuid4().hex}"
    first = jobs.submit(jobs.Job("many", "many", {"study": jobs.Resident(key, s)}))
    expected = first.future.result(timeout=120)
    worker = jobs._worker()
    assert key in worker.held
    # The second job's study is sent as its key (the worker has it): same values.
    packed, drop = worker._pack({"study": jobs.Resident(key, s), "n": 3})
    assert packed == {"study": gamma_worker.Held(key), "n": 3} and drop == []
    second = jobs.submit(jobs.Job("many", "many", {"study": jobs.Resident(key, s)}))
    got = second.future.result(timeout=120)
    assert {k: v.overall.value for k, v in got.items()} == {
        k: v.overall.value for k, v in expected.items()}


def test_the_worker_forgets_the_least_recently_used_values_beyond_its_bound() -> None:
    fake = types.SimpleNamespace(held={})
    pack = jobs.Worker._pack
    for k in range(jobs.RESIDENT_MAX):
        pack(fake, {"v": jobs.Resident(f"k{k}", k)})
    pack(fake, {"v": jobs.Resident("k0", 0)})  # k0 used again: k1 is now the oldest
    packed, drop = pack(fake, {"v": [jobs.Resident("new", 1), jobs.Resident("k2", 2)]})
    assert packed == {"v": [jobs.Resident("new", 1), gamma_worker.Held("k2")]}
    assert drop == ["k1"] and "k1" not in fake.held and len(fake.held) == jobs.RESIDENT_MAX


def test_worker_side_resolve_keeps_and_looks_up_and_forgets() -> None:
    gamma_worker._RESIDENT.clear()
    assert gamma_worker.resolve({"s": gamma_worker.Resident("a", [1]), "x": 2}) == {
        "s": [1], "x": 2}
    assert gamma_worker.resolve({"s": (gamma_worker.Held("a"),)}) == {"s": ([1],)}
    gamma_worker.resolve({}, ["a"])
    assert "a" not in gamma_worker._RESIDENT


def test_ahead_puts_pending_later_jobs_first_in_the_given_order() -> None:
    import itertools
    import queue
    from concurrent.futures import Future

    fake = types.SimpleNamespace(tasks=queue.PriorityQueue(), ids=itertools.count(1),
                                 front=itertools.count(-1, -1))
    made = []
    for name, later in (("ordinary", False), ("a", True), ("b", True), ("c", True)):
        job = jobs.Job(name, later=later)
        job.future = Future()
        fake.tasks.put((int(later), next(fake.ids), job))
        made.append(job)
    done = jobs.Job("done", later=True)
    done.future = Future()
    done.future.set_result(None)
    jobs.Worker.ahead(fake, [made[3], done, made[2]])  # c, then b; a finished job is left
    order = []
    while not fake.tasks.empty():
        order.append(fake.tasks.get()[2].title)
    assert order == ["ordinary", "c", "b", "a", "b", "c"]  # the stale entries come last


def test_a_job_asked_for_while_the_worker_is_busy_can_run_in_the_page(handmade) -> None:
    # Issue 29, target 5: a switch to a measure queued behind the prefetch must not wait for the
    # job in flight; the page runs it (run_here) and the worker skips it when it comes up.
    import time

    from core.model.errors import InputError

    s = _study(handmade)
    jobs.submit(jobs.Job("many", "many", {"study": s})).future.result(timeout=120)  # worker up
    ahead = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 300, "seed": 4}),
                        later=True)
    asked = jobs.submit(jobs.Job("many", "many", {"study": s}), later=True)
    failing = jobs.submit(jobs.Job("many", "many", {"study": s}), later=True)
    deadline = time.monotonic() + 60
    while ahead.started is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ahead.started is not None and not ahead.done()
    assert jobs.busy_elsewhere(asked) and not jobs.busy_elsewhere(ahead)
    assert jobs.run_here(asked, lambda: {"here": True})
    assert asked.done() and asked.result() == {"here": True} and asked.error() is None
    assert not jobs.busy_elsewhere(asked)  # done: nothing to run
    assert not jobs.run_here(asked, lambda: {"again": True})  # run once
    assert not jobs.run_here(ahead, lambda: {})  # the worker has it

    def bad() -> dict[str, object]:
        raise InputError("no such label")

    assert jobs.run_here(failing, bad) and failing.error() == "no such label"
    interrupted = jobs.submit(jobs.Job("many", "many", {"study": s}), later=True)

    def stopped() -> dict[str, object]:
        raise KeyboardInterrupt  # as a script stopped under it: not an Exception

    with pytest.raises(KeyboardInterrupt):
        jobs.run_here(interrupted, stopped)
    assert not interrupted.done()  # queued on the worker again, not failed
    # The worker comes to both queued entries after the γ in flight and skips them.
    sentinel = jobs.submit(jobs.Job("many", "many", {"study": s}), later=True)
    sentinel.future.result(timeout=180)
    assert asked.result() == {"here": True} and failing.error() == "no such label"
    assert interrupted.future.result(timeout=180)["fleiss-kappa"].overall.value is not None
    assert ahead.error() is None
    # An ordinary job in flight (another page's γ) keeps a queued one waiting as well.
    blocker = jobs.submit(jobs.Job("γ", "gamma", {"study": s, "samples": 300, "seed": 5}))
    queued = jobs.submit(jobs.Job("many", "many", {"study": s}))
    deadline = time.monotonic() + 60
    while blocker.started is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert jobs.busy_elsewhere(queued) and not jobs.busy_elsewhere(blocker)
    queued.future.result(timeout=180)
    assert not jobs.busy_elsewhere(queued)


def test_the_worker_builds_one_study_per_choice_for_views_values_and_gamma(
        handmade, monkeypatch) -> None:
    # Tenth pass: the many-annotator values and γ were sent the server's study, pickled, while
    # the views built their own in the worker (and again once Shared had dropped it); now every
    # task of one choice of sets reads the one study_of builds and keeps.
    from core.metrics.agreement import (
        Study,
        fleiss_text,
        gamma,
        krippendorff_text,
        measure_view,
        unitizing,
    )
    from core.metrics.agreement.panel import lean_view

    texts, sets = handmade
    built: list[tuple[int, ...]] = []  # the sets of each study built, by identity
    from_sets = Study.from_sets

    def counted(chosen: list[Any], *a: Any, **k: Any) -> Study:
        built.append(tuple(map(id, chosen)))
        return from_sets(chosen, *a, **k)

    monkeypatch.setattr(gamma_worker, "_STUDIES", {})
    monkeypatch.setattr(gamma_worker, "_SHARED", None)
    monkeypatch.setattr(Study, "from_sets", staticmethod(counted))
    choice = {"sets": list(sets), "texts": dict(texts), "label": None}
    views = [gamma_worker.run(1, "view", {**choice, "measure": m, "gold": None,
                                          "leave_one_out": False})
             for m in ("char-kappa", "span-f1", "text-kappa", "krippendorff-alpha",
                       "mafalda-f1", "char-jaccard", "fleiss-kappa", "unitizing-alpha")]
    many = gamma_worker.run(2, "many", choice)
    g = gamma_worker.run(3, "gamma", {**choice, "samples": 2, "seed": 1})
    assert built.count(tuple(map(id, sets))) == 1  # every task read the one study
    assert len(gamma_worker._STUDIES) == 1
    monkeypatch.setattr(Study, "from_sets", staticmethod(from_sets))
    # The same values as each computed from a study of its own.
    s = Study.from_sets(list(sets), dict(texts))
    assert repr(many) == repr({"fleiss-kappa": fleiss_text(s, per_document=False),
                               "krippendorff-alpha": krippendorff_text(s, per_document=False),
                               "unitizing-alpha": unitizing(s, per_document=False)})
    assert g["gamma"].overall.value == gamma(s, samples=2, seed=1).overall.value
    assert repr(views[1]) == repr(lean_view(measure_view(list(sets), dict(texts),
                                                         measure="span-f1")))
def test_values_held_ahead_are_sent_once_and_a_later_job_names_them(handmade) -> None:
    """``ui.jobs.hold`` (issue 29, tenth pass): the worker keeps the values and imports the
    modules it is given, computes nothing; a job queued later sends the values' keys only
    (``Worker._pack``) and gets the result it would have got with the values."""
    s = _study(handmade)
    worker = jobs.Worker()
    try:
        held = worker.submit(jobs.Job("hold", "hold", {"values": [jobs.Resident("k|study", s)],
                                                        "imports": ["core.metrics.differences"]}))
        assert held.future is not None and held.future.result(timeout=120) is None
        packed, _ = worker._pack({"study": jobs.Resident("k|study", s)})
        assert packed == {"study": gamma_worker.Held("k|study")}
        many = worker.submit(jobs.Job("many", "many", {"study": jobs.Resident("k|study", s)}))
        assert many.future is not None
        want = gamma_worker.run(0, "many", {"study": s})
        got = many.future.result(timeout=120)
        assert {k: v.overall.value for k, v in got.items()} == {
            k: v.overall.value for k, v in want.items()}
    finally:
        worker.stop()


def test_hold_imports_its_modules_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    imported: list[str] = []
    monkeypatch.setattr(gamma_worker.importlib, "import_module", imported.append)
    assert gamma_worker.run(0, "hold", {"values": [], "imports": ["core.metrics.differences"]}
                            ) is None
    assert imported == ["core.metrics.differences"]
