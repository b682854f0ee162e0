"""The background worker's temporary folder (``ui.jobs.Worker``: its socket and the hold's
deadline file ``hold``) goes when the worker stops, and when a dead worker is replaced.

Found by the review of issue 29's sixteenth pass: ``Worker.stop`` killed the worker (SIGKILL,
so its ``Listener`` never unlinks the socket) and removed nothing, so every server start, and
every test that starts a worker, left a ``spanscope-worker-*`` folder in the temporary
directory: 2,160 of them after a day of test runs on the development machine."""

from __future__ import annotations

import os
import signal
from pathlib import Path

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
