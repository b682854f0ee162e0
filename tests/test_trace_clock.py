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

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bench_scripts import bench_module

PID, MAIN, OTHER = 10, 1, 2
T0 = 1_000_000  # µs on the trace's clock: the step's input


@pytest.fixture(scope="module")
def bench() -> Iterator[tuple[Any, Any]]:
    yield bench_module("trace_clock"), bench_module("bench_app")


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


# --gc-trace and --heap-sampling (issue 29, nineteenth pass): the collections counted in each
# revisit's span, put on the trace's clock by the sync mark; the heap profile summed by file.

SYNC_NOW_MS = 500.0  # the page's performance.now() at the sync mark, whose ts is T0


def _gc(name: str, at_ms: float, dur_ms: float, tid: int = MAIN) -> dict[str, Any]:
    """A V8 collection event at ``at_ms`` of the page's performance.now()."""
    return {"ph": "X", "name": name, "cat": "devtools.timeline,disabled-by-default-v8.gc",
            "pid": PID, "tid": tid, "ts": T0 + (at_ms - SYNC_NOW_MS) * 1000,
            "dur": dur_ms * 1000}


def _gc_trace() -> list[dict[str, Any]]:
    return [
        {"ph": "I", "name": "ss-gc-sync", "cat": "blink.user_timing", "pid": PID, "tid": MAIN,
         "ts": T0, "args": {"data": {"startTime": SYNC_NOW_MS}}},
        _gc("V8.GC_SCAVENGER", 400, 5),  # before the first revisit: not counted
        _gc("V8.GC_SCAVENGER", 1_010, 4),  # revisit 1 (1,000-1,300 ms)
        _gc("V8.GC_MC_INCREMENTAL", 1_100, 20),
        _gc("V8.GC_MC_INCREMENTAL", 1_150, 30),
        _gc("V8.GC_MARK_COMPACTOR", 1_200, 45),
        _gc("V8.GC_MARK_COMPACTOR", 1_250, 9, tid=OTHER),  # another thread's: not the page's
        _gc("V8.GC_MARK_COMPACTOR", 1_600, 40),  # between the revisits
        _gc("V8.GC_SCAVENGER", 2_050, 3),  # revisit 2 (2,000-2,200 ms)
        {"ph": "B", "name": "V8.GC_MARK_COMPACTOR", "pid": PID, "tid": MAIN,
         "ts": T0 + 1_550_000},  # not a complete event: not counted
    ]


def test_the_collections_are_counted_in_the_revisit_they_start_in(bench: tuple[Any, Any]
                                                                    ) -> None:
    trace_clock, bench_app = bench
    assert bench_app.GC_TRACE_CATEGORIES == ["disabled-by-default-v8.gc", "blink.user_timing"]
    found = trace_clock.gc_in_spans(_gc_trace(), [(1_000.0, 1_300.0), (2_000.0, 2_200.0)])
    assert found["spans"] == [
        {"major_n": 1, "major_ms": 45.0, "marking_ms": 50.0, "scavenge_n": 1,
         "scavenge_ms": 4.0},
        {"major_n": 0, "major_ms": 0.0, "marking_ms": 0.0, "scavenge_n": 1,
         "scavenge_ms": 3.0}]
    assert found["outside"] == {"major_n": 1, "major_ms": 40.0, "marking_ms": 0.0,
                                "scavenge_n": 0, "scavenge_ms": 0.0}


def test_a_trace_without_the_sync_mark_is_refused(bench: tuple[Any, Any]) -> None:
    trace_clock, _ = bench
    with pytest.raises(SystemExit, match="ss-gc-sync"):
        trace_clock.gc_in_spans(_gc_trace()[1:], [(1_000.0, 1_300.0)])


def test_the_revisits_summary_names_the_pages_with_a_major_collection(
        bench: tuple[Any, Any], tmp_path: Path) -> None:
    _, bench_app = bench
    path = tmp_path / "gc.json"
    path.write_text(json.dumps({"traceEvents": _gc_trace()}), encoding="utf-8")
    heaps: list[dict[str, Any]] = [{"page": "Scores", "span_ms": (1_000.0, 1_300.0)},
                                   {"page": "Data", "span_ms": (2_000.0, 2_200.0)}]
    bench_app._gc_per_revisit(path, heaps)
    assert heaps[0]["gc"]["major_n"] == 1 and heaps[1]["gc"]["major_n"] == 0
    assert bench_app._gc_summary(heaps) == {
        "revisits": 2, "revisits_with_major_gc": 1, "major_gc_pages_ms": [("Scores", 45.0)],
        "major_gcs_between_revisits": 1, "scavenges_inside": 2}


def test_a_heap_profile_is_summed_by_the_file_of_the_nearest_frame_with_a_url(
        bench: tuple[Any, Any]) -> None:
    trace_clock, bench_app = bench
    mib = 2**20
    head = {"id": 1, "callFrame": {"url": ""}, "children": [
        {"id": 2, "callFrame": {"url": "http://x/static/js/react-dom.Dzbslgj4.js"}, "children": [
            {"id": 3, "callFrame": {"url": "http://x/static/js/StreamlitMarkdown.a1b2.js"},
             "children": [{"id": 4, "callFrame": {"url": ""}}]}]}]}  # a built-in
    profile = {"head": head, "samples": [
        {"nodeId": 4, "size": 3 * mib}, {"nodeId": 3, "size": mib}, {"nodeId": 2, "size": mib},
        {"nodeId": 1, "size": mib // 2}]}
    assert bench_app.allocated_by_file(profile, trace_clock._file_of) == {
        "allocated_mib": 5.5,
        "by_file_mib": {"StreamlitMarkdown": 4.0, "react-dom": 1.0, "(no script)": 0.5}}
