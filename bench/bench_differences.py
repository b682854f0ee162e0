"""The Metric differences page's rule path on a large corpus: CPU time of
:func:`core.metrics.differences.metric_path` and of what a background job sends.

The pair is the one ``bench_app.py`` generates (``--corpus DIR`` keeps it between runs). Each
``--root`` (a tree to compare, e.g. ``/work/main`` before and ``.`` after) runs in its own fresh
process, the trees interleaved (A, B, A, B, ...) so that a change in the machine's load hits both
alike; each process reads the pair, then times ``metric_path`` at every ``--level`` (CPU and
wall), and hashes the steps' ``repr`` (every float of every text), which must be the same in every
tree. ``--pickle`` also times pickling the job's arguments and result (what the worker round trip
costs besides the scoring). ``--part martino`` times the part of the path the page's worker
scores when the pair's MAFALDA scores are computed already (issue 29, eighth pass); the hash is
then of that part joined with the MAFALDA part (scored untimed), the whole path's. The machine's
load average is printed with the results.

Run: ``python bench/bench_differences.py --docs 100000 --spans 1000000 --corpus DIR
[--root PATH ...] [--repeat 2] [--level 2 --level 1] [--variant paper] [--pickle]
[--part martino]``.

``--ahead`` times instead the pair's scores that :func:`ui.results.score_ahead` computes in the
server after the first load (the tree's own order): when each metric's result is there, the
thread's CPU and wall (issue 29, ninth pass: the Metric differences page opened first waits for
MAFALDA's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def measure(folder: Path, levels: list[int], variant: str, with_pickle: bool,
            part: str = "all") -> dict[str, Any]:
    """In this process (its ``core`` is the tree's): read the pair, time the path."""
    from core.formats import ReadOptions, load_path
    from core.metrics.differences import metric_path
    from core.model.taxonomy import resolve

    g = load_path(folder / "gold.json")
    p = load_path(folder / "system_a.json", options=ReadOptions(role="system"))
    tax = resolve([*g.set.labels(), *p.set.labels()])
    texts = dict(g.texts)
    out: dict[str, Any] = {}
    for level in levels:
        cpu, wall = time.process_time(), time.perf_counter()
        kw: dict[str, Any] = {"part": part} if part != "all" else {}
        steps = metric_path(g.set, p.set, level=level, mafalda_variant=variant, taxonomy=tax,
                            texts=texts, **kw)
        cpu_s, wall_s = time.process_time() - cpu, time.perf_counter() - wall
        if part != "all":
            from core.metrics.differences import joined

            other = "mafalda" if part == "martino" else "martino"
            rest = metric_path(g.set, p.set, level=level, mafalda_variant=variant, taxonomy=tax,
                               texts=texts, part=other)
            steps = joined(steps, rest) if part == "martino" else joined(rest, steps)
        out[f"level{level}"] = {
            "cpu_s": round(cpu_s, 3), "wall_s": round(wall_s, 3),
            "steps": hashlib.sha256(repr(steps).encode()).hexdigest()[:16]}
        if with_pickle:
            cpu = time.process_time()
            sent = pickle.dumps({"gold": g.set, "pred": p.set, "texts": texts},
                                protocol=pickle.HIGHEST_PROTOCOL)
            back = pickle.dumps(steps, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.loads(sent)
            pickle.loads(back)
            out[f"level{level}"].update(pickle_cpu_s=round(time.process_time() - cpu, 3),
                                        sent_mb=round(len(sent) / 1e6, 1),
                                        result_mb=round(len(back) / 1e6, 1))
    return out


def measure_ahead(folder: Path) -> dict[str, Any]:
    """In this process (its ``ui`` is the tree's): open the pair as ``spanscope app --data``
    does, start :func:`ui.results.score_ahead` as :func:`ui.ahead.start` would after the first
    load (the page's defaults), and time when each of the pair's results is there
    (:func:`ui.results.scored_pair`, looked at every 5 ms; wall, and the thread's CPU by then,
    ``*_cpu_there_s``, which the machine's load hardly changes) and when the thread ends: what the
    Metric differences page opened first waits for (its MAFALDA steps), beside the worker's
    Martino part (``--part martino``)."""
    import inspect
    import logging
    import threading

    logging.disable(logging.WARNING)  # Streamlit's "no runtime" warnings: no page here
    from core.metrics import registry
    from ui import cli_data, levels, results, state

    data = (cli_data.DataArg(None, str(folder / "gold.json"), "gold"),
            cli_data.DataArg(None, str(folder / "system_a.json"), "system_a"))
    ws = cli_data._load("bench", data)
    ref = state.default_pair(ws)[0]
    assert ref is not None
    systems = state.compared_sets(ws, ref)
    variants = {m.name: m.default_variant for m in registry.span_metrics()}
    level = int(state.DEFAULTS[state.K_LEVEL])
    # What the tree's ui.ahead asks for first, if its score_ahead takes an order.
    first: dict[str, Any] = ({"first": ("mafalda",)}
             if "first" in inspect.signature(results.score_ahead).parameters else {})
    wanted = {m.name: (variants[m.name], level if m.levels and levels.has_levels(ws) else
                       2 if m.levels else None) for m in registry.span_metrics()}
    seen: dict[str, float] = {}
    cpu, wall = time.process_time(), time.perf_counter()
    thread = results.score_ahead(ws, ref, systems, variants, level,
                                 level_applies=lambda: levels.has_levels(ws), **first)
    assert isinstance(thread, threading.Thread) and thread.ident is not None
    clock = time.pthread_getcpuclockid(thread.ident)  # the thread's CPU: the load's noise aside
    thread_cpu = 0.0
    while len(seen) < 2 * len(wanted) and thread.is_alive():
        thread_cpu = time.clock_gettime(clock)
        for name, (var, lev) in wanted.items():
            if name not in seen and results.scored_pair(ws.key, ref, systems[0], name, var,
                                                        lev) is not None:
                seen[name] = round(time.perf_counter() - wall, 3)
                seen[f"{name}_cpu"] = round(thread_cpu, 3)
        time.sleep(0.005)
    thread.join()
    return {"ahead": {"cpu_s": round(time.process_time() - cpu, 3),
                      "wall_s": round(time.perf_counter() - wall, 3),
                      **{f"{name}_there_s": t for name, t in seen.items()},
                      "steps": "-"}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--spans", type=int, default=1_000_000, help="spans per set")
    ap.add_argument("--corpus", type=Path, default=None,
                    help="where the generated pair is kept (made when missing)")
    ap.add_argument("--root", action="append", default=[], help="a tree to time (repeatable)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds over the trees")
    ap.add_argument("--level", action="append", type=int, default=[])
    ap.add_argument("--variant", default="paper")
    ap.add_argument("--pickle", action="store_true", help="time the job's pickling too")
    ap.add_argument("--part", action="append", default=[],
                    help="the part of the path to time in each --root, in order (all, martino, "
                    "mafalda; default all)")
    ap.add_argument("--ahead", action="store_true",
                    help="instead: time the pair's scores computed ahead (ui.results.score_ahead)"
                    " and when each is there")
    ap.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    levels = args.level or [2]
    if args.child is not None:
        print(json.dumps(measure_ahead(args.child) if args.ahead else
                         measure(args.child, levels, args.variant, args.pickle,
                                 (args.part or ["all"])[0])))
        return
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_app import make_corpus

    with tempfile.TemporaryDirectory() as tmp:
        folder = args.corpus or Path(tmp) / "pair"
        if not (folder / "gold.json").exists():
            make_corpus(folder, args.docs, args.spans)
        roots = [Path(r).resolve() for r in (args.root or [str(ROOT)])]
        runs: dict[str, list[dict[str, Any]]] = {str(r): [] for r in roots}
        parts = args.part + ["all"] * (len(roots) - len(args.part))
        for _ in range(args.repeat):
            for root, part in zip(roots, parts, strict=False):
                cmd = [sys.executable, str(ROOT / "bench" / "bench_differences.py"),
                       "--child", str(folder), "--variant", args.variant,
                       *[x for lv in levels for x in ("--level", str(lv))]]
                if part != "all":
                    cmd += ["--part", part]
                if args.pickle:
                    cmd.append("--pickle")
                if args.ahead:
                    cmd.append("--ahead")
                done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True,
                                      env={**os.environ, "PYTHONPATH": str(root)})
                runs[str(root)].append(json.loads(done.stdout.strip().splitlines()[-1]))
        summary = {root: {key: {**{k: [r[key][k] for r in rs] for k in rs[0][key]
                                   if k.endswith("_there_s")},
                                "cpu_s": [r[key]["cpu_s"] for r in rs],
                                "cpu_median_s": statistics.median(r[key]["cpu_s"] for r in rs),
                                "wall_s": [r[key]["wall_s"] for r in rs],
                                "steps": sorted({r[key]["steps"] for r in rs}),
                                **({k: rs[-1][key][k] for k in ("pickle_cpu_s", "sent_mb",
                                                               "result_mb")}
                                   if args.pickle else {})}
                          for key in rs[0]}
                   for root, rs in runs.items()}
        print(json.dumps({"docs": args.docs, "spans": args.spans, "variant": args.variant,
                          "load_average": os.getloadavg(), "trees": summary}, indent=1))


if __name__ == "__main__":
    main()
