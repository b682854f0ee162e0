"""How the server and its background worker get their memory: numpy's large arrays without
transparent huge pages, and the C allocator keeping what it frees for the next arrays.

Reading a corpus and scoring it make many fresh arrays of megabytes; with huge pages asked for
(numpy's default) each of them costs the kernel a compaction and a 2 MiB clearing at its first
touch, and handed back to the system at once, the next one costs the same. At 100,000 documents
that was a third of the first MAFALDA score's CPU, in system time (docs/performance.md, issue
29, eleventh pass). :mod:`ui.serve` calls :func:`lean_memory` before Streamlit's command line;
:mod:`ui.jobs` starts the worker with :func:`memory_env`. A module of its own, imported by both,
so that the worker's start does not import the server's entry module (and its imports).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping

HUGEPAGE_ENV = "NUMPY_MADVISE_HUGEPAGE"
"""numpy's switch for asking the kernel for transparent huge pages for its large arrays (read
as numpy is imported; "0": no)."""
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(256 << 20),
              "MALLOC_TOP_PAD_": str(16 << 20)}
"""The C allocator's settings of :func:`lean_memory` as glibc reads them from the environment
of a process that starts (the background worker, :mod:`ui.jobs`): blocks up to 32 MiB from the
heap rather than each from its own mapping (glibc's limit for this setting), up to 256 MiB of
freed memory kept for the next blocks, the heap grown 16 MiB at a time."""
_MALLOPT = {"MALLOC_MMAP_THRESHOLD_": -3, "MALLOC_TRIM_THRESHOLD_": -1, "MALLOC_TOP_PAD_": -2}
"""``mallopt``'s parameter numbers (``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``, ``M_TOP_PAD``,
glibc's ``malloc.h``) of the settings of :data:`MALLOC_ENV`."""


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
