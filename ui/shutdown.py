"""Stop the server promptly on Ctrl+C or SIGTERM, however large the corpus it has open.

Measured (issue 18; 20,000 documents, 200,000 spans per set, Annotators page open, γ queued):
after the signal Streamlit stops its event loop in about 0.2 s; what remained was the
interpreter's own finalisation: freeing the caches of the corpus (millions of objects, parsed
sets, scores, agreement tables) one by one and walking them in the final garbage collections,
3-6 s on a busy machine and more with several corpora in the caches. Nothing in that memory
needs to be saved, so once the atexit handlers have run the process ends without finalising.
Two other things could hold the process: the background γ worker process (killed by
:func:`ui.annotators._stop_at_exit`) and a script thread inside a long computation, which no
Streamlit checkpoint interrupts; the interpreter joins such non-daemon threads before exiting,
so a timer ends the process :data:`GRACE` seconds after shutdown starts if one is still busy.

:func:`install` is called by ``app.py`` on every run and registers the hooks once per process;
``tests/robustness/test_shutdown.py`` checks the time from SIGTERM to exit.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import logging
import os
import sys
import threading

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


def _force_exit_later() -> None:
    """Threading-atexit hook (before non-daemon threads are joined): bound the wait for them."""
    if not _busy_threads():
        return
    timer = threading.Timer(GRACE, _end_now)
    timer.daemon = True
    timer.start()


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
    register = getattr(threading, "_register_atexit", None)
    with contextlib.suppress(RuntimeError):  # the interpreter is already shutting down
        if register is not None:
            register(_force_exit_later)
        atexit.register(_skip_finalisation)
