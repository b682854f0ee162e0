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
    ap.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    levels = args.level or [2]
    if args.child is not None:
        print(json.dumps(measure(args.child, levels, args.variant, args.pickle,
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
                done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True,
                                      env={**os.environ, "PYTHONPATH": str(root)})
                runs[str(root)].append(json.loads(done.stdout.strip().splitlines()[-1]))
        summary = {root: {key: {"cpu_s": [r[key]["cpu_s"] for r in rs],
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
