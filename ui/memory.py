"""How the server and its background worker get their memory: numpy's large arrays without
transparent huge pages, the C allocator keeping what it frees for the next arrays, and the
cycle collector kept off the objects that stay.

Reading a corpus and scoring it make many fresh arrays of megabytes; with huge pages asked for
(numpy's default) each of them costs the kernel a compaction and a 2 MiB clearing at its first
touch, and handed back to the system at once, the next one costs the same. At 100,000 documents
that was a third of the first MAFALDA score's CPU, in system time (docs/performance.md, issue
29, eleventh pass). :mod:`ui.serve` calls :func:`lean_memory` before Streamlit's command line;
:mod:`ui.jobs` starts the worker with :func:`memory_env`. A module of its own, imported by both,
so that the worker's start does not import the server's entry module (and its imports).

The cycle collector (:mod:`gc`) starts a full pass over every tracked object each time the
long-lived ones have grown by a quarter. A block that builds many objects meant to stay (a
worker's job: a study's spans per document, a measure's rows; the server unpickling the
result) set it off again and again, each pass longer than the last: at 100,000 documents the
worker's unitizing job spent some 2.7 s of CPU in 16 full passes (0.03 to 0.56 s each), and the
server 0.04 to 0.08 s per pass as a result arrived, during the warm revisits of other pages
(docs/performance.md, issue 29, twelfth pass). :func:`long_lived` runs such a block without the
collector, then collects once and freezes what is alive (:func:`settle`), so that later passes
walk only what is new: :mod:`ui.gamma_worker` runs each job so, and :mod:`ui.jobs` unpickles
the worker's messages :func:`paused` and settles after each result.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import sys
import threading
from collections.abc import Iterator, Mapping

HUGEPAGE_ENV = "NUMPY_MADVISE_HUGEPAGE"
"""numpy's switch for asking the kernel for transparent huge pages for its large arrays (read
as numpy is imported; "0": no)."""
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(256 << 20),
              "MALLOC_TOP_PAD_": str(16 << 20), "MALLOC_ARENA_MAX": "2"}
"""The C allocator's settings of :func:`lean_memory` as glibc reads them from the environment
of a process that starts (the background worker, :mod:`ui.jobs`): blocks up to 32 MiB from the
heap rather than each from its own mapping (glibc's limit for this setting), up to 256 MiB of
freed memory kept for the next blocks, the heap grown 16 MiB at a time, and two arenas at most.
glibc gives each thread that allocates an arena of its own, up to eight per core, and what one
arena frees serves only the threads on it: the server's threads that run at once (the files
read, the scores ahead, the lists ahead, the page runs, the jobs thread) each kept their own
freed blocks. With two, the server's peak after Metric differences at 100,000 documents was
868-1,061 MiB against 1,055-1,171 MiB, its CPU no higher (docs/performance.md, issue 29,
twentieth pass); the threads hold the GIL as they allocate, so they seldom wait for an arena."""
_MALLOPT = {"MALLOC_MMAP_THRESHOLD_": -3, "MALLOC_TRIM_THRESHOLD_": -1, "MALLOC_TOP_PAD_": -2,
            "MALLOC_ARENA_MAX": -8}
"""``mallopt``'s parameter numbers (``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``, ``M_TOP_PAD``,
``M_ARENA_MAX``, glibc's ``malloc.h``) of the settings of :data:`MALLOC_ENV`."""


def memory_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment variables of :func:`lean_memory`'s settings that ``environ`` does not
    set already (whoever starts the app may choose otherwise)."""
    wanted = {HUGEPAGE_ENV: "0", **MALLOC_ENV}
    return {k: v for k, v in wanted.items() if k not in environ}


def lean_memory() -> bool:
    """Large arrays without transparent huge pages, and freed memory kept for the next arrays,
    in this process and the processes it starts (the environment): the settings of
    :func:`memory_env`, those the environment gives its own value left as they are. numpy
    reads its switch as it is imported (and is told again here if it already is); the C
    allocator is told with ``mallopt`` (glibc only: elsewhere its settings are left). Returns
    whether ``mallopt`` took them."""
    added = memory_env(os.environ)
    os.environ.update(added)
    if HUGEPAGE_ENV in added and "numpy" in sys.modules:
        from numpy._core import multiarray

        multiarray._set_madvise_hugepage(False)  # type: ignore[attr-defined]
    try:  # the symbols of the running process, the C library's among them
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    took = True
    for key, param in _MALLOPT.items():
        if key in added:
            took = bool(mallopt(param, int(added[key]))) and took
    return took


_settles = {"count": 0, "frozen": 0}
"""What :func:`settle` did in this process: how many times it ran, and the objects frozen at its
last run (:func:`settled`)."""
_paused = threading.local()
"""How deep this thread is in :func:`paused` blocks (an inner block leaves the collector to the
outer one)."""


def settled() -> dict[str, int]:
    """How many times :func:`settle` ran in this process and how many objects were frozen at its
    last run (counts, not clocks, for the tests and the bench's probes)."""
    return dict(_settles)


def settle() -> int:
    """Collect the garbage once (a full pass, over what is not frozen yet), then move every
    object alive out of the collector's later passes (:func:`gc.freeze`): what a job built and
    keeps is not walked again. Returns the objects frozen now in all.

    Frozen objects are still freed when their last reference goes (reference counting); only
    a cycle among them outlives its last outside reference, which is why the garbage is
    collected first."""
    gc.collect()
    gc.freeze()
    _settles["count"] += 1
    _settles["frozen"] = gc.get_freeze_count()
    return _settles["frozen"]


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Run the block without the cycle collector's passes (reference counting still frees what
    the block drops). The collector is one per interpreter, so it is off for the whole process
    and back on as the block ends, if it was on; a block inside another, in the same thread,
    leaves it to the outer one."""
    depth = getattr(_paused, "depth", 0)
    enabled = gc.isenabled()
    _paused.depth = depth + 1
    if depth == 0:
        gc.disable()
    try:
        yield
    finally:
        _paused.depth = depth
        if depth == 0 and enabled:
            gc.enable()


@contextlib.contextmanager
def long_lived() -> Iterator[None]:
    """A block that builds many objects meant to stay (a worker's job and its result): run
    :func:`paused`, then :func:`settle` (inside another such block, the outer one settles)."""
    outermost = getattr(_paused, "depth", 0) == 0
    with paused():
        yield
    if outermost:
        settle()
