"""How the server and its background worker get their memory (ui.memory.lean_memory): numpy's
large arrays without transparent huge pages, and the C allocator keeping what it frees; a value
the environment gives is kept (docs/performance.md, issue 29, eleventh pass)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui import jobs, memory

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, os, sys
from ui import memory
took = memory.lean_memory()
import numpy
from numpy._core import multiarray
print(json.dumps({"took": took, "huge": bool(multiarray._get_madvise_hugepage()),
                  "env": {k: os.environ.get(k) for k in memory.memory_env({})},
                  "again": memory.memory_env(os.environ)}))
"""


def _probe(env: dict[str, str], code: str = PROBE) -> dict[str, object]:
    """What ``code`` prints in a fresh interpreter run with ``env`` (the settings cleared)."""
    clean = {k: v for k, v in os.environ.items() if k not in memory.memory_env({})}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                         capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_memory_env_names_each_setting_the_environment_does_not_give() -> None:
    every = memory.memory_env({})
    assert every == {"NUMPY_MADVISE_HUGEPAGE": "0", **memory.MALLOC_ENV}
    assert set(memory.MALLOC_ENV) == set(memory._MALLOPT)
    given = {"NUMPY_MADVISE_HUGEPAGE": "1", "MALLOC_TOP_PAD_": "0"}
    assert memory.memory_env(given) == {k: v for k, v in every.items() if k not in given}


def test_lean_memory_turns_numpys_huge_pages_off_and_tells_the_allocator() -> None:
    seen = _probe({})
    assert seen["huge"] is False
    assert seen["took"] is True  # glibc's mallopt (Linux)
    assert seen["env"] == memory.memory_env({})  # what the processes it starts inherit
    assert seen["again"] == {}  # a second call has nothing left to set


def test_lean_memory_after_numpy_is_imported_still_turns_huge_pages_off() -> None:
    code = "import numpy\n" + PROBE
    assert _probe({}, code)["huge"] is False


def test_a_value_the_environment_gives_is_kept() -> None:
    seen = _probe({"NUMPY_MADVISE_HUGEPAGE": "1", "MALLOC_TRIM_THRESHOLD_": "1234"})
    assert seen["huge"] is True
    env = seen["env"]
    assert isinstance(env, dict)
    assert env["NUMPY_MADVISE_HUGEPAGE"] == "1" and env["MALLOC_TRIM_THRESHOLD_"] == "1234"
    assert env["MALLOC_MMAP_THRESHOLD_"] == memory.MALLOC_ENV["MALLOC_MMAP_THRESHOLD_"]


def test_the_worker_starts_with_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in memory.memory_env({}):
        monkeypatch.delenv(key, raising=False)
    worker = jobs.Worker()
    try:
        raw = Path(f"/proc/{worker.process.pid}/environ").read_bytes()
    finally:
        worker.stop()
    env = dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)
    assert {k: env.get(k) for k in memory.memory_env({})} == memory.memory_env({})


ARENAS = """
import ctypes, json, os, sys, tempfile, threading
from ui import memory
if sys.argv[-1] == "lean":
    memory.lean_memory()
wait = threading.Barrier(6)
def work():  # each thread's first block from the C allocator (1 MiB: not Python's own)
    wait.wait()
    block = bytearray(1 << 20)
    wait.wait()
threads = [threading.Thread(target=work) for _ in range(6)]
[t.start() for t in threads]
[t.join() for t in threads]
libc = ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
fd, path = tempfile.mkstemp()
os.close(fd)
out = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(out))
libc.fclose(ctypes.c_void_p(out))
with open(path) as f:
    print(json.dumps({"arenas": f.read().count("<heap nr=")}))
os.unlink(path)
"""


def test_lean_memory_bounds_the_allocators_arenas() -> None:
    """Six threads that allocate at once get an arena each from glibc (up to eight per core),
    and what one arena frees serves only its own threads: the server's threads ahead (the
    read, the scores, the lists, the page runs) each kept their own. lean_memory allows two
    (``MALLOC_ARENA_MAX``; twentieth pass: the peak after Metric differences 868-1,061 MiB
    against 1,055-1,171 at 100,000 documents, the server's CPU no higher)."""
    def arenas(*argv: str) -> int:
        clean = {k: v for k, v in os.environ.items() if k not in memory.memory_env({})}
        out = subprocess.run([sys.executable, "-c", ARENAS, *argv], cwd=ROOT, env=clean,
                             capture_output=True, text=True, check=True, timeout=120)
        return int(json.loads(out.stdout.strip().splitlines()[-1])["arenas"])

    assert arenas("plain") > 2  # glibc's own bound: the six threads' arenas and the main one
    assert arenas("lean") <= 2
    assert memory.memory_env({})["MALLOC_ARENA_MAX"] == "2"  # and the worker's, inherited
