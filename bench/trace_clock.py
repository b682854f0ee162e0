"""Split a step's in-page span by a DevTools trace of it (docs/performance.md, issue 29,
fourteenth pass).

``bench_app.py --trace PAGE FILE`` records the last warm revisit of PAGE in a Chromium trace
(:data:`bench_app.TRACE_CATEGORIES`); its in-page clock leaves user timing marks in it
(``ss-armed``, ``ss-input-click``, ``ss-msg`` for each message of the server, ``ss-drawn`` for
the second frame after a DOM change). :func:`analyse` reads the trace of the page's renderer
main thread and says:

* whether the clock covers the whole step: the input as the browser process received it and as
  the renderer dispatched it, against the clock's start; the renderer's last paint and the
  compositor's last frame drawn, against the clock's end (and the app's script or paints after
  it);
* where the span goes: the main thread's work by kind (script, style and layout, paint and
  commit, garbage collection, other), its idle time, and the idle gaps over 10 ms with what
  ended each (a message of the server, a timer the page set, a frame);
* the server's messages (their times from the input).

Run on a saved trace: ``python bench/trace_clock.py TRACE.json`` (the clock's span is then the
marks' own: from ``ss-input-click`` or ``ss-input-keydown`` to the last ``ss-drawn``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

KINDS = {
    "script": ("FunctionCall", "EvaluateScript", "TimerFire", "EventDispatch", "FireAnimationFrame",
               "RunMicrotasks", "v8.compile", "v8.run", "V8.Execute", "XHRReadyStateChange",
               "FireIdleCallback", "v8.evaluateModule", "CompileScript", "ParseHTML"),
    "style and layout": ("UpdateLayoutTree", "Layout", "RecalculateStyles", "HitTest",
                         "ScheduleStyleRecalculation", "InvalidateLayout"),
    "paint and commit": ("PrePaint", "Paint", "Layerize", "Commit", "UpdateLayer",
                         "UpdateLayerTree", "CompositeLayers", "PaintImage", "Decode Image",
                         "RasterTask"),
    "garbage collection": ("MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCFinalizeMC",
                           "BlinkGC.AtomicPhase", "ThreadState::performIdleLazySweep",
                           "V8.GC_MC_BACKGROUND_MARKING", "GCEvent"),
}
"""Trace event names by the kind of work they are (the names DevTools' performance panel
reads); a task's time that no event of these names covers is "other"."""


def _kind(name: str) -> str | None:
    for kind, names in KINDS.items():
        if name in names:
            return kind
    return None


def _main_thread(events: list[dict[str, Any]]) -> tuple[int, int]:
    """(pid, tid) of the renderer main thread that holds the clock's marks."""
    for e in events:
        if e.get("name") == "ss-armed" and e.get("cat", "").find("user_timing") >= 0:
            return e["pid"], e["tid"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    for key, name in names.items():
        if name == "CrRendererMain":
            return key
    raise SystemExit("no renderer main thread in the trace")


def _file_of(url: str) -> str:
    """The script file a sample ran in, named as Streamlit's chunks are without their hash
    (``PlotlyChart.3fa2c1.js`` → ``PlotlyChart``), or what V8 calls a sample outside script."""
    name = url.rsplit("/", 1)[-1].split("?", 1)[0]
    return name.split(".", 1)[0] or url


def scripts_by_file(events: list[dict[str, Any]], pid: int, tid: int, t0: float,
                    t1: float) -> dict[str, float]:
    """The main thread's sampled time in [t0, t1] (µs on the trace's clock) by the script file
    each sample's function came from (a built-in's, by its nearest caller's file), from V8's
    CPU profile in the trace (category ``disabled-by-default-v8.cpu_profiler``); ``(garbage
    collector)``, ``(program)`` (the browser's own work: style, layout, paint) and ``(idle)``
    as V8 names them. Empty when the trace has no profile. Milliseconds."""
    profiles: dict[str, dict[str, Any]] = {}
    for e in events:
        if e.get("pid") != pid or e.get("name") not in ("Profile", "ProfileChunk"):
            continue
        prof = profiles.setdefault(str(e.get("id")), {"tid": None, "start": None, "nodes": {},
                                                       "samples": [], "deltas": []})
        data = e.get("args", {}).get("data", {})
        if e["name"] == "Profile":
            prof["tid"], prof["start"] = e.get("tid"), data.get("startTime")
            continue
        cpu = data.get("cpuProfile", {})
        for node in cpu.get("nodes", []) or []:
            prof["nodes"][node["id"]] = node
        prof["samples"].extend(cpu.get("samples", []) or [])
        prof["deltas"].extend(data.get("timeDeltas", []) or [])
    best: dict[str, float] = {}
    for prof in profiles.values():
        if prof["start"] is None or (prof["tid"] is not None and prof["tid"] != tid):
            continue
        nodes = prof["nodes"]

        def file_of(node_id: int, nodes: dict[int, Any] = nodes) -> str:
            seen = 0
            while node_id in nodes and seen < 500:
                frame = nodes[node_id].get("callFrame", {})
                if frame.get("url"):
                    return _file_of(frame["url"])
                if frame.get("functionName", "").startswith("("):
                    return str(frame["functionName"])
                node_id, seen = nodes[node_id].get("parent", -1), seen + 1
            return "(native)"

        parents = {c: n["id"] for n in nodes.values() for c in n.get("children", []) or []}
        for n in nodes.values():
            n.setdefault("parent", parents.get(n["id"], -1))
        times, ts = [], float(prof["start"])
        for d in prof["deltas"]:
            ts += d
            times.append(ts)
        out: dict[str, float] = {}
        for i, (node_id, at) in enumerate(zip(prof["samples"], times, strict=False)):
            nxt = times[i + 1] if i + 1 < len(times) else at
            a, b = max(at, t0), min(nxt, t1)
            if b > a:
                key = file_of(node_id)
                out[key] = out.get(key, 0.0) + (b - a)
        if sum(out.values()) > sum(best.values()):
            best = out
    return {k: round(v / 1000, 1) for k, v in sorted(best.items(), key=lambda kv: -kv[1])}


def analyse(path: Path, clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The split of the traced step (module docstring); ``clock``, what the bench's in-page
    clock said of the step (:func:`bench_app._clock`), sets the span's end, else the last
    ``ss-drawn`` mark does."""
    data = json.loads(path.read_text(encoding="utf-8"))
    events: list[dict[str, Any]] = data["traceEvents"] if isinstance(data, dict) else data
    pid, tid = _main_thread(events)
    marks = sorted((e["ts"], e["name"]) for e in events
                   if e.get("pid") == pid and "user_timing" in e.get("cat", "")
                   and e.get("name", "").startswith("ss-") and e.get("ph") in ("R", "I", "n",
                                                                               "b", "i"))
    inputs = [ts for ts, name in marks if name.startswith("ss-input-")]
    if not inputs:
        raise SystemExit("no ss-input mark in the trace: was the step armed?")
    t0 = inputs[-1]
    drawn = [ts for ts, name in marks if name == "ss-drawn" and ts > t0]
    t1 = (t0 + (clock["t1_ms"] - clock["t0_ms"]) * 1000 if clock and clock.get("t1_ms")
          else (drawn[-1] if drawn else t0))
    msgs = [round((ts - t0) / 1000, 1) for ts, name in marks if name == "ss-msg" and ts >= t0]

    def after(ts: float) -> float:
        return round((ts - t0) / 1000, 1)

    # The input as the renderer dispatched it and as the browser process received it.
    dispatched = [e["ts"] for e in events if e.get("pid") == pid and e.get("name") ==
                  "EventDispatch" and e.get("args", {}).get("data", {}).get("type") in
                  ("mousedown", "click", "keydown") and t0 - 500_000 <= e["ts"] <= t0 + 1000]
    received = [e["ts"] for e in events if e.get("name", "").startswith("InputLatency::")
                and e.get("ph") in ("b", "S", "X") and t0 - 500_000 <= e["ts"] <= t0 + 1000]
    # What was drawn: the renderer's paints (main thread) and the compositor's frames drawn
    # after the input (an empty commit, or a frame begun and not drawn, as the harness's polling
    # by animation frames makes, is not).
    commits = [e["ts"] + e.get("dur", 0) for e in events if e.get("pid") == pid
               and e.get("tid") == tid and e.get("name") == "Paint"
               and t0 <= e["ts"] <= t1 + 200_000]
    frames = [e["ts"] for e in events if e.get("name") == "DrawFrame"
              and e.get("pid") == pid and t0 <= e["ts"] <= t1 + 200_000]

    # The main thread's complete events inside the span, self time by kind.
    main = sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid
                   and e.get("ph") == "X" and e.get("dur") is not None
                   and e["ts"] + e["dur"] > t0 and e["ts"] < t1),
                  key=lambda e: (e["ts"], -e["dur"]))
    tops = [e for e in main if e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask")]
    busy_spans: list[tuple[float, float, str]] = []
    for e in tops:
        a, b = max(e["ts"], t0), min(e["ts"] + e["dur"], t1)
        if busy_spans and a < busy_spans[-1][1]:  # nested tasks: the outer one counts
            continue
        first = next((c.get("name", "") for c in main if c is not e and e["ts"] <= c["ts"]
                      < e["ts"] + e["dur"] and _kind(c.get("name", "")) is not None
                      and c.get("name") != "RunMicrotasks"), "")
        if first == "TimerFire":
            tid_ = next((c["args"]["data"].get("timerId") for c in main if c.get("name") ==
                         "TimerFire" and e["ts"] <= c["ts"] < e["ts"] + e["dur"]), None)
            first = f"TimerFire {tid_}"
        busy_spans.append((a, b, first))
    # Self time of each event (its span less its children's), given to its own kind or to its
    # nearest enclosing event's; a task's time under no named event is "other".
    kinds: list[str | None] = []
    selfs: list[float] = []
    stack: list[int] = []
    for i, e in enumerate(main):
        start, end = max(e["ts"], t0), min(e["ts"] + e["dur"], t1)
        while stack and main[stack[-1]]["ts"] + main[stack[-1]]["dur"] <= e["ts"]:
            stack.pop()
        kinds.append(_kind(e.get("name", "")) or (kinds[stack[-1]] if stack else None))
        selfs.append(end - start)
        if stack:
            selfs[stack[-1]] -= end - start
        stack.append(i)
    by_kind: dict[str, float] = {}
    for kind, own in zip(kinds, selfs, strict=True):
        by_kind[kind or "other"] = by_kind.get(kind or "other", 0.0) + own
    busy = sum(b - a for a, b, _ in busy_spans)
    gaps = []
    prev = t0
    for a, b, first in busy_spans:
        if a - prev > 10_000:
            ended_by = first or "a task"
            if any(prev <= ts <= a + 1000 for ts, name in marks if name == "ss-msg"):
                ended_by = f"{ended_by} (a message of the server arrived)"
            gaps.append({"from_ms": after(prev), "ms": round((a - prev) / 1000, 1),
                         "ended_by": ended_by})
        prev = max(prev, b)
    if t1 - prev > 10_000:
        gaps.append({"from_ms": after(prev), "ms": round((t1 - prev) / 1000, 1),
                     "ended_by": "the span's end (waiting for a frame)"})
    timers = {}
    for e in events:
        if e.get("pid") == pid and e.get("name") == "TimerInstall" and t0 <= e["ts"] <= t1:
            d = e.get("args", {}).get("data", {})
            timers[d.get("timerId")] = {"at_ms": after(e["ts"]), "timeout_ms": d.get("timeout"),
                                        "single_shot": d.get("singleShot")}
    fired = [s[2] for s in busy_spans if s[2].startswith("TimerFire")]
    # After the span: the app's own script (not the harness's polling) and the frames it made.
    late = sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid
                   and e.get("ph") == "X" and e["ts"] >= t1 and e.get("dur", 0) >= 500
                   and (e.get("name") == "Paint" or (e.get("name") == "FunctionCall" and
                        "/static/" in e.get("args", {}).get("data", {}).get("url", "")))),
                  key=lambda e: e["ts"])
    return {
        "span_ms": round((t1 - t0) / 1000, 1),
        "after_span": [{"at_ms": after(e["ts"]), "ms": round(e["dur"] / 1000, 1),
                        "what": e["name"] if e["name"] == "Paint" else
                        "script " + (e["args"]["data"].get("functionName") or "?") + " of "
                        + e["args"]["data"].get("url", "").rsplit("/", 1)[-1]}
                       for e in late],
        "input_dispatched_ms": after(min(dispatched)) if dispatched else None,
        "input_received_by_browser_ms": after(min(received)) if received else None,
        "last_paint_ms": after(max(commits)) if commits else None,
        "last_frame_ms": after(max(frames)) if frames else None,
        "server_messages_ms": msgs,
        "main_thread_busy_ms": round(busy / 1000, 1),
        "main_thread_idle_ms": round((t1 - t0 - busy) / 1000, 1),
        "main_thread_by_kind_ms": {k: round(v / 1000, 1) for k, v in
                                   sorted(by_kind.items(), key=lambda kv: -kv[1])},
        "idle_gaps_over_10ms": gaps,
        "script_by_file_ms": scripts_by_file(events, pid, tid, t0, t1),
        "timers_set_in_span": {str(k): v for k, v in timers.items()
                               if any(f.endswith(f" {k}") for f in fired)
                               or (v["timeout_ms"] or 0) >= 16},
    }


GC_SYNC_MARK = "ss-gc-sync"
"""The user timing mark ``bench_app.py --gc-trace`` leaves as its trace starts: its ``startTime``
(the page's ``performance.now()``) and its ``ts`` (the trace's clock) put the in-page clocks'
spans on the trace's clock."""

GC_EVENTS = {"major": "V8.GC_MARK_COMPACTOR", "marking": "V8.GC_MC_INCREMENTAL",
             "scavenge": "V8.GC_SCAVENGER"}
"""V8's complete events (``disabled-by-default-v8.gc``) of its collections on the thread that
runs script: a major collection's atomic pause (mark-compact), a step of its incremental
marking, a scavenge of the young generation."""


def gc_in_spans(events: list[dict[str, Any]], spans: list[tuple[float, float]]
                ) -> dict[str, Any]:
    """V8's collections on the page's main thread, inside each span (``(t0_ms, t1_ms)`` of the
    page's ``performance.now()``, the in-page clocks of ``bench_app.py``) and between them.

    Each span gets the count and milliseconds of major collections' atomic pauses
    (``major_n``, ``major_ms``), of incremental marking steps (``marking_ms``) and of scavenges
    (``scavenge_n``, ``scavenge_ms``); an event counts in the span its start falls in.
    ``outside``: the same counts for the events in no span, after the first span's start (the
    idle time between the steps, where a collection costs a person nothing)."""
    sync = next((e for e in events if e.get("name") == GC_SYNC_MARK), None)
    if sync is None:
        raise SystemExit(f"no {GC_SYNC_MARK} mark in the trace")
    pid, tid = sync["pid"], sync["tid"]
    offset = float(sync["ts"]) - float(sync["args"]["data"]["startTime"]) * 1000

    def empty() -> dict[str, Any]:
        return {"major_n": 0, "major_ms": 0.0, "marking_ms": 0.0, "scavenge_n": 0,
                "scavenge_ms": 0.0}

    inside = [empty() for _ in spans]
    outside = empty()
    us = [(t0 * 1000 + offset, t1 * 1000 + offset) for t0, t1 in spans]
    start = min((a for a, _ in us), default=float("inf"))
    kinds = {name: kind for kind, name in GC_EVENTS.items()}
    for e in events:
        kind = kinds.get(e.get("name", ""))
        if kind is None or e.get("ph") != "X" or (e.get("pid"), e.get("tid")) != (pid, tid):
            continue
        ts, ms = float(e["ts"]), float(e.get("dur", 0)) / 1000
        where = next((inside[i] for i, (a, b) in enumerate(us) if a <= ts <= b), None)
        if where is None:
            if ts < start:
                continue
            where = outside
        if kind == "marking":
            where["marking_ms"] += ms
        else:
            where[f"{kind}_n"] += 1
            where[f"{kind}_ms"] += ms
    rounded = [{k: round(v, 1) if isinstance(v, float) else v for k, v in d.items()}
               for d in (*inside, outside)]
    return {"spans": rounded[:-1], "outside": rounded[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", type=Path)
    print(json.dumps(analyse(ap.parse_args().trace), indent=1))


if __name__ == "__main__":
    main()
