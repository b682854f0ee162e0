"""What ``bench/trace_errors_click.py --profile`` sums from V8's CPU profile of a click
(docs/performance.md, issue 29, twenty-first pass): each sample's interval to its node's file and
function, V8's own nodes under their names, only the samples inside the click's window, counted
back from the profile's end. No clock is asserted: only where each sample went."""

from __future__ import annotations

from typing import Any

from tests.bench_scripts import bench_module


def _module() -> Any:
    return bench_module("trace_errors_click")


def _profile() -> dict[str, Any]:
    def node(i: int, url: str, fn: str, line: int = 0) -> dict[str, Any]:
        return {"id": i, "callFrame": {"url": url, "functionName": fn, "lineNumber": line}}

    nodes = [node(1, "", "(root)"), node(2, "", "(garbage collector)"),
             node(3, "http://h/static/js/DataFrame.abc.js", "draw", 72),
             node(4, "http://h/static/js/react-dom.x.js", "", 5), node(5, "", "(program)")]
    # samples at 1, 2, ..., 10 ms after the start (µs deltas); the profile ends at 10 ms
    samples = [5, 3, 3, 4, 2, 3, 4, 4, 2, 3]
    return {"nodes": nodes, "startTime": 0, "endTime": 10_000, "samples": samples,
            "timeDeltas": [1000] * 10}


def test_self_time_by_file_and_function() -> None:
    out = _module().profile_summary(_profile())
    assert out["by_file"] == {"DataFrame.abc.js": 4.0, "react-dom.x.js": 3.0,
                              "(garbage collector)": 2.0, "(program)": 1.0}
    assert out["by_function"]["DataFrame.abc.js:draw:73"] == 4.0
    assert out["by_function"]["react-dom.x.js:(anonymous):6"] == 3.0
    assert out["total_ms"] == 10.0 and out["samples"] == 10 and out["span_ms"] == 10


def test_the_window_counts_back_from_the_profiles_end() -> None:
    # from 7.5 to 2.5 ms before the end: the samples at 3 to 7 ms after the start
    out = _module().profile_summary(_profile(), window=(7.5, 2.5))
    assert out["total_ms"] == 5.0
    assert out["by_file"] == {"DataFrame.abc.js": 2.0, "react-dom.x.js": 2.0,
                              "(garbage collector)": 1.0}


def test_only_the_largest_are_kept() -> None:
    out = _module().profile_summary(_profile(), top=2)
    assert list(out["by_file"]) == ["DataFrame.abc.js", "react-dom.x.js"]
