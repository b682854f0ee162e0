"""One Errors -> Documents click traced end to end: browser, websocket, server (issue 29, target 5).

``bench_errors_page.py`` times a click as a whole, in the page. This script splits it, on the
same generated pair (``--corpus``: a folder whose ``bench/`` holds ``gold.json`` and
``system_a.json``), into what happens between the ``click`` event and the filtered Documents
list:

* **send**: the first websocket frame the browser sends after the click (the selection or the
  button's trigger: a data frame's selection leaves 150 ms after the click, Streamlit's debounce);
* the **script runs** the server makes for it (a ``sitecustomize`` in the server's process wraps
  ``exec_func_with_error_handling`` of Streamlit's script runner: start and end of every run,
  its page, its thread CPU, how it ended, the number of messages it queued);
* **first** and **last** frame received by the browser, and the **list** drawn (the document
  table and the "Document (N of M)" selector, as ``bench_errors_page.py`` checks) and the run
  **over**.

Every time is in milliseconds from the click event (the page's and the server's clocks are the
same machine's ``Date.now()`` / ``time.time()``). ``--tree`` checkouts alternate click by click
in fresh servers per round.

    python bench/trace_errors_click.py --corpus /tmp/lead10k --tree /tmp/base,. --rounds 4 \\
        --categories missed,spurious

Since the nineteenth pass it also records, per click, how long the click waited behind a task
before the page saw it (its event's time stamp to its listener), the state of the chart preload
(:mod:`ui.chart_library`) at the click, the time from the Errors page drawn to the first click,
and Chromium's long animation frames (over 50 ms) from the click to the run over with the
scripts that ran in them, and when plotly.js's chunk was evaluated (before the click: negative).

Writes ``bench/results/trace_errors_click.json`` (``--out``). ``--profile`` adds V8's sampled CPU
profile of each click, self time by script file and function (twenty-first pass).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

SITECUSTOMIZE = r'''
import os, sys, threading, time, json

def _patch():
    for _ in range(6000):
        mod = sys.modules.get("streamlit.runtime.scriptrunner.script_runner")
        if mod is not None and hasattr(mod, "ScriptRunner"):  # the module fully imported
            break
        time.sleep(0.01)
    else:
        return
    out = open(os.environ["SPANSCOPE_TRACE_FILE"], "a", buffering=1)
    inner = mod.exec_func_with_error_handling
    runner = mod.ScriptRunner
    enqueue = runner._enqueue_forward_msg
    counts = {}

    def counted(self, msg):
        k = threading.get_ident()
        counts[k] = counts.get(k, 0) + 1
        return enqueue(self, msg)

    def traced(func, ctx):
        k = threading.get_ident()
        counts[k] = 0
        t0, c0 = time.time(), time.thread_time()
        result = inner(func, ctx)
        t1, c1 = time.time(), time.thread_time()
        out.write(json.dumps({"start": t0 * 1000, "end": t1 * 1000, "cpu_ms": (c1 - c0) * 1000,
                              "page": getattr(ctx, "page_script_hash", ""),
                              "rerun": bool(result[2]), "messages": counts.get(k, 0)}) + "\n")
        return result

    runner._enqueue_forward_msg = counted
    mod.exec_func_with_error_handling = traced

threading.Thread(target=_patch, daemon=True).start()
'''

SOCKET = """() => {
  // Epoch ms of every websocket frame the page sends and receives, and of the last click.
  if (window.__trWatch) return;
  window.__trWatch = true;
  window.__tr = {click: null, sent: [], received: []};
  // delay: from the input's own time stamp to its listener, i.e. how long the click waited
  // behind a task of the main thread before the page saw it (the page's clocks start after it).
  document.addEventListener('click', (e) => {
    window.__tr = {click: Date.now(), delay: performance.now() - e.timeStamp, sent: [],
                   received: []};
  }, true);
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', () => window.__tr.received.push(Date.now()));
    const send = ws.send.bind(ws);
    ws.send = (data) => { window.__tr.sent.push(Date.now()); return send(data); };
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
}"""


LOAF = """() => {
  // Chromium's long animation frames (over 50 ms of the main thread) with their scripts, in
  // epoch ms, and the chart preload's state (ui.chart_library) at each click: which script ran
  // in a long task between the click and the filtered list, and whether plotly.js's
  // evaluation began before the click or after it.
  if (window.__loafWatch) return;
  window.__loafWatch = true;
  window.__loaf = [];
  window.__clickState = null;
  const t0 = performance.timeOrigin;
  document.addEventListener('click', () => {
    // the preload's state, and since the twentieth pass the steps it had evaluated
    const done = window.__spanscopeDone;
    window.__clickState = (window.__spanscopeCharts || null)
      + (done ? ' [' + done.join(', ') + ']' : '');
  }, true);
  if (!PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) return;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__loaf.push({start: t0 + e.startTime, duration: e.duration,
                          blocking: e.blockingDuration,
                          scripts: e.scripts.map((s) => ({
                            start: t0 + s.startTime, duration: s.duration,
                            compile_ms: s.executionStart ? s.executionStart - s.startTime : 0,
                            layout_ms: s.forcedStyleAndLayoutDuration,
                            invoker: s.invoker, type: s.invokerType,
                            source: (s.sourceURL || '').split('/').pop(),
                            fn: s.sourceFunctionName}))});
    }
  }).observe({type: 'long-animation-frame', buffered: true});
}"""


def long_frames(loaf: list[dict[str, Any]], t0: float, t1: float) -> list[dict[str, Any]]:
    """The long animation frames of ``loaf`` (:data:`LOAF`'s) that overlap ``t0``-``t1``
    (epoch ms), their times from ``t0`` and their scripts of 5 ms or more."""
    out = []
    for f in loaf:
        if f["start"] + f["duration"] < t0 or f["start"] > t1:
            continue
        out.append({"start": round(f["start"] - t0), "duration": round(f["duration"]),
                    "scripts": [{"start": round(s["start"] - t0), "duration": round(s["duration"]),
                                 "compile_ms": round(s["compile_ms"]), "type": s["type"],
                                 "source": s["source"], "invoker": s["invoker"][:80]}
                                for s in f["scripts"] if s["duration"] >= 5]})
    return out


def plotly_frames(loaf: list[dict[str, Any]], t0: float) -> list[dict[str, Any]]:
    """The long frames whose scripts evaluated plotly.js's chunk (``PlotlyChart.*.js``), timed
    from ``t0`` (epoch ms): before the click (negative) or after it."""
    return [{"start": round(s["start"] - t0), "duration": round(s["duration"]),
             "compile_ms": round(s["compile_ms"])}
            for f in loaf for s in f["scripts"] if s["source"].startswith("PlotlyChart.")]


CHROMIUM_METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
"""Chromium's main-thread counters (``Performance.getMetrics``, seconds), read before the click
and 300 ms after the click's run is over: what the browser's main thread did for the click."""


def profile_summary(prof: dict[str, Any], window: tuple[float, float] | None = None,
                    top: int = 12) -> dict[str, Any]:
    """Self time (ms) of a V8 CPU profile (CDP ``Profiler.stop``'s ``profile``) by script file
    and by function (file:function:line), the largest ``top`` of each; V8's own nodes are kept
    as they are named: ``(garbage collector)``, ``(program)`` (the engine outside JavaScript:
    parsing, compiling, the page's layout and painting from the profiler's view), ``(idle)``.
    ``window``: only the samples in it, (from, to) in ms before the profile's end (the click's
    window: the profile's first delta may span the sampler's start, so its end is the anchor)."""
    nodes = {n["id"]: n["callFrame"] for n in prof["nodes"]}
    by_file: dict[str, float] = {}
    by_fn: dict[str, float] = {}
    at = prof["startTime"] / 1000
    for node, dt in zip(prof.get("samples", []), prof.get("timeDeltas", []), strict=False):
        at += dt / 1000
        before_end = prof["endTime"] / 1000 - at
        if window is not None and not window[1] <= before_end <= window[0]:
            continue
        frame = nodes[node]
        url = (frame.get("url") or "").split("/").pop() or frame["functionName"] or "(anonymous)"
        fn = f"{url}:{frame['functionName'] or '(anonymous)'}:{frame.get('lineNumber', -1) + 1}"
        by_file[url] = by_file.get(url, 0.0) + dt / 1000
        by_fn[fn] = by_fn.get(fn, 0.0) + dt / 1000

    def best(d: dict[str, float]) -> dict[str, float]:
        return {k: round(v, 1) for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]}

    return {"total_ms": round(sum(by_file.values()), 1),
            "samples": len(prof.get("samples", [])),
            "span_ms": round((prof["endTime"] - prof["startTime"]) / 1000),
            "by_file": best(by_file),
            "by_function": best(by_fn)}


def _server(tree: Path, corpus: Path, trace: Path, site: Path) -> tuple[subprocess.Popen[bytes],
                                                                           str]:
    from bench_app import _free_port, healthy

    port = _free_port()
    cmd = [sys.executable, "-m", "core", "app", "--data", f"gold={corpus / 'gold.json'}",
           "--data", f"pred={corpus / 'system_a.json'}", "--server.headless=true",
           "--server.address=127.0.0.1", f"--server.port={port}",
           "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]
    env = dict(os.environ, SPANSCOPE_TRACE_FILE=str(trace),
               PYTHONPATH=os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=env)
    return proc, healthy(proc, port, 120)


def _runs(trace: Path, since: float) -> list[dict[str, Any]]:
    if not trace.exists():
        return []
    rows = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["start"] >= since - 5]


def trace_round(tree: Path, corpus: Path, hows: list[str], categories: list[str],
                timeout: float = 120_000, delay: float = 0,
                profile: bool = False) -> list[dict[str, Any]]:
    """Fresh server in ``tree``; each click of ``hows`` x ``categories``, traced; the first
    click ``delay`` ms later than the others (after the link's scroll and 300 ms). ``profile``:
    V8's sampled CPU profile of the page from just before each click to its run over
    (:func:`profile_summary`), and the heap's size before the click."""
    from bench_app import _nav, _settled, chromium
    from bench_errors_page import CATEGORY_ORDER, ERRORS_DRAWN, LINKS, WATCH, server_cpu_s
    from playwright.sync_api import sync_playwright

    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        trace = site / "trace.jsonl"
        proc, url = _server(tree, corpus, trace, site)
        try:
            with sync_playwright() as p:
                browser = chromium(p)
                page = browser.new_page(viewport={"width": 1500, "height": 1600})
                page.add_init_script(f"({WATCH})()")
                page.add_init_script(f"({SOCKET})()")
                page.add_init_script(f"({LOAF})()")
                cdp = page.context.new_cdp_session(page)
                cdp.send("Performance.enable")
                if profile:
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": 200})

                def metrics() -> dict[str, float]:
                    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")[
                        "metrics"] if m["name"] in CHROMIUM_METRICS}

                page.goto(f"{url}/errors")
                _settled(page, ERRORS_DRAWN, timeout)
                drawn = page.evaluate("Date.now()")
                source = (tree / "ui" / "errors.py").read_text()
                has_buttons = "ButtonColumn" in source
                has_grid = 'selection_mode="single-row"' in source  # until the 17th pass
                for how in hows:
                    if (how == "button" and not has_buttons) or (how == "row" and not has_grid):
                        continue
                    for category in categories:
                        if how in ("row", "button"):
                            grid = page.locator(".st-key-err_table")
                            grid.scroll_into_view_if_needed()
                            page.wait_for_timeout(300)
                            box = grid.bounding_box()
                            assert box is not None
                            row = CATEGORY_ORDER.index(category)
                            c, m0 = server_cpu_s(proc.pid), metrics()
                            page.mouse.click(box["x"] + (18 if how == "row" else 70),
                                             box["y"] + 35 + 35 * row + 17)
                        else:
                            import re
                            link = page.locator(LINKS).filter(
                                has_text=re.compile(f"^{re.escape(category)} \\("))
                            link = link.first.locator("button").first
                            link.scroll_into_view_if_needed()
                            page.wait_for_timeout(300 + (delay if not out else 0))
                            c, m0 = server_cpu_s(proc.pid), metrics()
                            if profile:
                                # a mouse click at the button, no actionability wait: the
                                # profile starts a CDP round trip before the click, not
                                # before Playwright's waits for a stable frame
                                box = link.bounding_box()
                                assert box is not None
                                heap0 = cdp.send("Runtime.getHeapUsage")
                                cdp.send("Profiler.start")
                                page.mouse.click(box["x"] + box["width"] / 2,
                                                 box["y"] + box["height"] / 2)
                            else:
                                link.click()
                        page.wait_for_function(
                            "() => window.__ssSeen && window.__ssSeen.done !== undefined",
                            timeout=timeout)
                        page.wait_for_timeout(300)  # late frames
                        m1 = metrics()
                        seen = page.evaluate("() => window.__ssSeen")
                        prof = None
                        if profile:
                            stop = page.evaluate("Date.now()")
                            click = page.evaluate("() => window.__tr.click")
                            prof = profile_summary(cdp.send("Profiler.stop")["profile"],
                                                   window=(stop - click,
                                                           stop - click - seen["done"]))
                        tr = page.evaluate("() => window.__tr")
                        t0 = tr["click"]
                        loaf = page.evaluate("() => window.__loaf")
                        runs = [{**r, "start": r["start"] - t0, "end": r["end"] - t0}
                                for r in _runs(trace, t0)]
                        step = {"tree": str(tree), "how": how, "category": category,
                                "send": tr["sent"][0] - t0 if tr["sent"] else None,
                                "first_in": tr["received"][0] - t0 if tr["received"] else None,
                                "last_in": tr["received"][-1] - t0 if tr["received"] else None,
                                "frames_in": len(tr["received"]),
                                "input_delay": tr.get("delay"),
                                "list": seen["list"], "done": seen["done"], "runs": runs,
                                "chromium_ms": {k: round((m1[k] - m0[k]) * 1000)
                                                for k in CHROMIUM_METRICS if k in m0},
                                "server_cpu_ms": (server_cpu_s(proc.pid) - c) * 1000,
                                "load": os.getloadavg()[0],
                                "preload_at_click": page.evaluate("() => window.__clickState"),
                                "drawn_to_click": t0 - drawn if not out else None,
                                "long_frames": long_frames(loaf, t0, t0 + seen["done"]),
                                "plotly": plotly_frames(loaf, t0)}
                        if prof is not None:
                            step["profile"] = prof
                            step["heap_before_mib"] = round(heap0["usedSize"] / 2**20, 1)
                        out.append(step)
                        print(_line(step), file=sys.stderr, flush=True)
                        _nav(page, "Errors", ERRORS_DRAWN, timeout)
                browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    return out


def _line(s: dict[str, Any]) -> str:
    runs = "; ".join(f"run {r['start']:.0f}-{r['end']:.0f} ({r['cpu_ms']:.0f} ms CPU, "
                     f"{r['messages']} msgs{', rerun' if r['rerun'] else ''})" for r in s["runs"])
    return (f"  {Path(s['tree']).name} {s['how']} {s['category']}: send {s['send']:.0f}, "
            f"{runs}; first in {s['first_in']:.0f}, last in {s['last_in']:.0f} "
            f"({s['frames_in']} frames), list {s['list']:.0f}, done {s['done']:.0f} ms "
            f"(load {s['load']:.1f}); the click waited {s['input_delay']:.0f} ms; "
            f"Chromium {s['chromium_ms']}; preload at the click "
            f"{s['preload_at_click']}, page drawn to click {s['drawn_to_click']} ms; long frames "
            + "; ".join(f"{f['start']}+{f['duration']} ms ["
                        + ", ".join(f"{x['source'] or x['type']} {x['duration']}"
                                    for x in f['scripts']) + "]" for f in s["long_frames"])
            + "; plotly.js " + ", ".join(f"{p['start']}+{p['duration']} ms "
                                         f"(compile {p['compile_ms']})" for p in s["plotly"])
            + (f"; profile {s['profile']['total_ms']} ms, heap before "
               f"{s['heap_before_mib']} MiB, by file {s['profile']['by_file']}"
               if "profile" in s else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--tree", default=str(ROOT), help="checkouts, comma-separated")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--how", default="link",
                    help="'link' (the Errors page's only way since the seventeenth pass), 'row' "
                    "or 'button' (a revision before it; skipped where the checkout lacks it)")
    ap.add_argument("--categories", default="missed,spurious,label,missed,spurious,label")
    ap.add_argument("--delay", type=float, default=0,
                    help="ms waited before a server's first click beyond the scroll's 300")
    ap.add_argument("--profile", action="store_true",
                    help="V8's sampled CPU profile of each click (self time by file, function)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" /
                    "trace_errors_click.json")
    args = ap.parse_args()
    trees = [Path(t).resolve() for t in args.tree.split(",")]
    steps: list[dict[str, Any]] = []
    for r in range(args.rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            print(f"{tree}: round {r + 1}, load {os.getloadavg()[0]:.1f}", file=sys.stderr,
                  flush=True)
            steps += trace_round(tree, args.corpus / "bench", args.how.split(","),
                                 args.categories.split(","), delay=args.delay,
                                  profile=args.profile)
    for tree in trees:
        for how in args.how.split(","):
            mine = [s for s in steps if s["tree"] == str(tree) and s["how"] == how]
            if not mine:
                continue

            def med(key: str, group: list[dict[str, Any]] = mine) -> str:
                vals = [s[key] for s in group if s[key] is not None]
                return f"{statistics.median(vals):.0f}" if vals else "-"

            cpu = [sum(r["cpu_ms"] for r in s["runs"]) for s in mine]
            wall = [sum(r["end"] - r["start"] for r in s["runs"]) for s in mine]
            under = sum(s["list"] < 300 for s in mine)
            print(f"{tree.name} {how} ({len(mine)} clicks): send {med('send')}, first in "
                  f"{med('first_in')}, last in {med('last_in')}, list {med('list')} "
                  f"({under} of {len(mine)} < 300), done {med('done')} ms; script runs "
                  f"{statistics.median(wall):.0f} ms wall, {statistics.median(cpu):.0f} ms CPU "
                  f"(medians)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(steps, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
