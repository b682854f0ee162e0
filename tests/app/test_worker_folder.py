"""The background worker's temporary folder (``ui.jobs.Worker``: its socket and, since issue
29's sixteenth pass, the hold's deadline file ``hold``) goes when the worker stops.

Found by the review of that pass (review17): ``Worker.stop`` kills the worker (SIGKILL, so its
``Listener`` never unlinks the socket) and removes nothing, so every server start, and every
test that starts a worker, leaves a ``spanscope-worker-*`` folder in the temporary directory,
now with its 8-byte ``hold`` file: 2,160 such folders were in /tmp on the development machine
after a day of test runs. ``ui/jobs.py`` is another task's file, so the test is committed
``xfail(strict=True)`` for its owner: the fix removes the folder in ``Worker.stop``
(``shutil.rmtree(..., ignore_errors=True)`` after the deadline map is closed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ui import jobs


@pytest.mark.xfail(strict=True, reason="ui.jobs.Worker.stop leaves its temporary folder, socket "
                   "and hold file behind (review17); ui/jobs.py is switch17's to fix")
def test_a_stopped_worker_leaves_no_folder_behind() -> None:
    worker = jobs.Worker()
    folder = Path(worker.address).parent
    try:
        assert (folder / "hold").is_file()  # the deadline file the worker maps
    finally:
        worker.stop()
    worker.process.wait(timeout=30)
    assert not folder.exists(), sorted(p.name for p in folder.iterdir())
