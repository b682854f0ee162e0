"""What ``bench/trace_clock.py`` reads in a DevTools trace, and ``bench/bench_app.py``'s
``--trace all DIR`` (docs/performance.md, issue 29, eighteenth pass).

On a small trace written here, as Chromium writes one: the renderer's main thread with the
clock's marks, and V8's sampled CPU profile (``Profile`` and ``ProfileChunk`` events). The split
of the script's time by the file it ran in counts each sample's interval inside the step's span
alone, gives a built-in's sample to its nearest caller's file, keeps V8's own names for the
samples outside script (``(garbage collector)``, ``(program)``), names a chunk of Streamlit's
without its hash, and reads the main thread's profile only (a worker's is another isolate's).
No clock is asserted: only which file each sample went to.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PID, MAIN, OTHER = 10, 1, 2
T0 = 1_000_000  # µs on the trace's clock: the step's input


@pytest.fixture(scope="module")
def bench() -> Iterator[tuple[Any, Any]]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        yield importlib.import_module("trace_clock"), importlib.import_module("bench_app")
    finally:
        sys.path.remove(str(ROOT / "bench"))


def _node(id_: int, name: str, url: str = "", parent: int | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"id": id_, "callFrame": {"functionName": name, "url": url}}
    if parent is not None:
        node["parent"] = parent
    return node


NODES = [
    _node(1, "(root)"),
    _node(2, "render", "http://x/static/js/react-dom.Dzbslgj4.js", 1),
    _node(3, "parse", "http://x/static/js/StreamlitMarkdown.a1b2c3.js", 2),
    _node(4, "JSON.parse", "", 3),  # a built-in: its caller's file
    _node(5, "(garbage collector)", "", 1),
    _node(6, "(program)", "", 1),
]


def _trace(profile_tid: int = MAIN) -> list[dict[str, Any]]:
    """A trace of one step: the input at T0, the span's end 20 ms later; samples every 2 ms
    from 4 ms before the input to 24 ms after it."""
    samples = [2, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 2, 2, 2]  # 14 samples
    return [
        {"ph": "M", "name": "thread_name", "pid": PID, "tid": MAIN,
         "args": {"name": "CrRendererMain"}},
        {"ph": "R", "name": "ss-armed", "cat": "blink.user_timing", "pid": PID, "tid": MAIN,
         "ts": T0 - 10_000},
        {"ph": "R", "name": "ss-input-click", "cat": "blink.user_timing", "pid": PID,
         "tid": MAIN, "ts": T0},
        {"ph": "R", "name": "ss-drawn", "cat": "blink.user_timing", "pid": PID, "tid": MAIN,
         "ts": T0 + 20_000},
        {"ph": "P", "name": "Profile", "id": "0x1", "pid": PID, "tid": profile_tid,
         "ts": T0 - 4_000, "args": {"data": {"startTime": T0 - 6_000}}},
        # the nodes in two chunks, as Chromium sends them
        {"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": PID, "tid": 99, "ts": T0,
         "args": {"data": {"cpuProfile": {"nodes": NODES[:3], "samples": samples[:7]},
                           "timeDeltas": [2_000] * 7}}},
        {"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": PID, "tid": 99, "ts": T0 + 9_000,
         "args": {"data": {"cpuProfile": {"nodes": NODES[3:], "samples": samples[7:]},
                           "timeDeltas": [2_000] * 7}}},
    ]


def test_the_script_is_split_by_the_file_each_sample_ran_in(bench: tuple[Any, Any]) -> None:
    trace_clock, _ = bench
    # samples at T0-4, -2, 0, 2, 4, 6, ... 22 ms; each counts until the next, clipped to the
    # span [T0, T0+20 ms]: react-dom's at 0 (2 ms); StreamlitMarkdown's parse at 2, 4 and
    # JSON.parse (a built-in) at 6, 8, 10 (10 ms); the collector at 12, program at 14, 16;
    # react-dom at 18 (2 ms; the one at 20 and 22 are after the span)
    split = trace_clock.scripts_by_file(_trace(), PID, MAIN, T0, T0 + 20_000)
    assert split == {"StreamlitMarkdown": 10.0, "react-dom": 4.0, "(program)": 4.0,
                     "(garbage collector)": 2.0}
    assert list(split) == ["StreamlitMarkdown", "react-dom", "(program)",
                           "(garbage collector)"]  # the largest first


def test_another_threads_profile_is_not_the_pages(bench: tuple[Any, Any]) -> None:
    trace_clock, _ = bench
    assert trace_clock.scripts_by_file(_trace(profile_tid=OTHER), PID, MAIN, T0,
                                       T0 + 20_000) == {}
    no_profile = [e for e in _trace() if e["name"] not in ("Profile", "ProfileChunk")]
    assert trace_clock.scripts_by_file(no_profile, PID, MAIN, T0, T0 + 20_000) == {}


def test_the_analysis_of_a_saved_trace_carries_the_split(bench: tuple[Any, Any],
                                                         tmp_path: Path) -> None:
    trace_clock, _ = bench
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"traceEvents": _trace()}), encoding="utf-8")
    analysis = trace_clock.analyse(path)
    assert analysis["span_ms"] == 20.0  # the input to the last ss-drawn
    assert analysis["script_by_file_ms"]["StreamlitMarkdown"] == 10.0


def test_trace_all_names_a_folder_made_for_every_revisit(bench: tuple[Any, Any],
                                                         tmp_path: Path) -> None:
    _, bench_app = bench
    assert bench_app._trace_arg(None) is None
    page, where = bench_app._trace_arg(["Scores", str(tmp_path / "s.json")])
    assert (page, where) == ("Scores", tmp_path / "s.json") and not where.exists()
    page, where = bench_app._trace_arg([bench_app.TRACE_ALL, str(tmp_path / "traces")])
    assert page == "all" and where.is_dir()
    # the V8 profile is recorded, which the split reads
    assert "disabled-by-default-v8.cpu_profiler" in bench_app.TRACE_CATEGORIES
