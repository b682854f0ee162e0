"""Stop the server promptly on Ctrl+C or SIGTERM, however large the corpus it has open.

Measured (issue 18; 20,000 documents, 200,000 spans per set, Annotators page open, γ queued):
after the signal Streamlit stops its event loop in about 0.2 s; what remained was the
interpreter's own finalisation: freeing the caches of the corpus (millions of objects, parsed
sets, scores, agreement tables) one by one and walking them in the final garbage collections,
3-6 s on a busy machine and more with several corpora in the caches. Nothing in that memory
needs to be saved, so once the atexit handlers have run the process ends without finalising.
Two other things could hold the process: the background γ worker process (stopped by
:meth:`ui.jobs.Worker.stop`, an :mod:`atexit` hook) and a script thread inside a long
computation, which no Streamlit checkpoint interrupts; the interpreter joins such non-daemon
threads before exiting, so a watchdog ends the process :data:`GRACE` seconds after shutdown
starts if one is still busy. The watchdog is a daemon thread joined on the main thread: the
interpreter marks the main thread finished when its shutdown starts, before it joins the other
threads, so no private hook of :mod:`threading` is needed.

:func:`install` is called by ``app.py`` on every run and registers the hooks once per process;
``tests/e2e/test_shutdown_browser.py`` checks the time from SIGTERM to exit.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import logging
import os
import sys
import threading
import time

GRACE = 2.0
"""Seconds the script threads get to finish after the server has stopped."""

_installed = False


def _busy_threads() -> list[threading.Thread]:
    main = threading.main_thread()
    return [t for t in threading.enumerate()
            if t is not main and not t.daemon and t.is_alive()]


def _end_now() -> None:
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def _watchdog() -> None:
    """Wait for the interpreter's shutdown, then bound the wait for busy script threads (a
    daemon thread: when nothing is busy the process ends first and takes it along)."""
    threading.main_thread().join()
    if not _busy_threads():
        return
    time.sleep(GRACE)
    if _busy_threads():
        _end_now()


def _skip_finalisation() -> None:
    """atexit hook: the server has stopped; end the process without freeing its caches."""
    gc.freeze()
    _end_now()


def install() -> None:
    """Register the shutdown hooks once per process (cheap to call on every script run)."""
    global _installed
    if _installed:
        return
    _installed = True
    with contextlib.suppress(RuntimeError):  # the interpreter is already shutting down
        threading.Thread(target=_watchdog, daemon=True, name="spanscope-shutdown").start()
        atexit.register(_skip_finalisation)
