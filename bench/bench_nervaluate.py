"""Benchmark: ``--metric nervaluate`` against the nervaluate package it reproduces (issue 29).

On ``bench_read.py``'s corpus (``--docs`` documents, 10 spans per document and side: 200,000
per side by default), each in a fresh process, interleaved, medians of ``--repeat`` of CPU time
(user + system) and wall time:

- ``python -m core score G P --metric nervaluate --json``, reading included;
- :func:`core.metrics.nervaluate.score` alone on the spans in memory;
- the nervaluate package (1.2.1, requirements-dev.txt) alone on the same spans in memory
  (``Evaluator(..., loader="dict").evaluate()``, its offsets inclusive: ``end - 1``), whose
  counts are checked against ours (every schema, overall and per label).

Run: ``python bench/bench_nervaluate.py [--docs 20000] [--repeat 3] [--out /tmp/bench_nerv]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_read import generate, measure, write_semeval

_SPANS = """
import json, sys, time
sys.path.insert(0, sys.argv[2])
gold, pred = json.load(open(sys.argv[3]))
c0, t0 = time.process_time(), time.perf_counter()
"""

_OURS = _SPANS + """
from core.metrics.nervaluate import COUNTS, score
from core.model import AnnotationSet, Span
g = AnnotationSet("gold", {str(i): tuple(Span(*t) for t in items) for i, items in enumerate(gold)})
p = AnnotationSet("pred", {str(i): tuple(Span(*t) for t in items) for i, items in enumerate(pred)},
                  role="system")
c1, t1 = time.process_time(), time.perf_counter()
r = score(g, p)
out = {s: [getattr(r.overall[s], k) for k in COUNTS] for s in r.overall}
print(json.dumps({"cpu": time.process_time() - c1, "wall": time.perf_counter() - t1,
                  "counts": out}))
"""
"""Our scorer alone (the sets are built before the clock starts)."""

_PACKAGE = _SPANS + """
import nervaluate
labels = sorted({t[2] for side in (gold, pred) for items in side for t in items})
def docs(side):
    return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in sorted(map(tuple, items))]
            for items in side]
g, p = docs(gold), docs(pred)
c1, t1 = time.process_time(), time.perf_counter()
res = nervaluate.Evaluator(g, p, tags=labels, loader="dict").evaluate()
names = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
overall = res["overall"]
out = {s: [getattr(overall[n], k) for k in ("correct", "incorrect", "partial", "missed",
                                             "spurious")] for s, n in names.items()}
print(json.dumps({"cpu": time.process_time() - c1, "wall": time.perf_counter() - t1,
                  "counts": out}))
"""
"""The package alone (its input lists are built before the clock starts)."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench_nerv"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    texts, gold, pred = generate(args.docs, 10)
    g_path, p_path = args.out / "gold.json", args.out / "pred.json"
    write_semeval(g_path, texts, gold)
    write_semeval(p_path, texts, pred)
    spans = args.out / "spans.json"
    spans.write_text(json.dumps([gold, pred]))
    root = str(Path(__file__).resolve().parent.parent)
    runs = {
        "score --metric nervaluate (CLI)": [sys.executable, "-m", "core", "score", str(g_path),
                                            str(p_path), "--metric", "nervaluate", "--json"],
        "ours, scoring alone": [sys.executable, "-c", _OURS, "-", root, str(spans)],
        "nervaluate package alone": [sys.executable, "-c", _PACKAGE, "-", root, str(spans)],
    }
    for argv in runs.values():
        measure(argv, 1)  # warm-up
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    wall: dict[str, list[float]] = {k: [] for k in runs}
    last: dict[str, str] = {}
    for _ in range(args.repeat):
        for name, argv in runs.items():
            w, _, c, out = measure(argv, 1)
            if name == "score --metric nervaluate (CLI)":
                cpu[name].append(c)
                wall[name].append(w)
            else:  # the process's own clock around the scoring call
                info = json.loads(out.splitlines()[-1])
                cpu[name].append(info["cpu"])
                wall[name].append(info["wall"])
            last[name] = out
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    n = sum(map(len, gold)), sum(map(len, pred))
    print(f"nervaluate, {args.docs} documents, {n[0]} gold and {n[1]} predicted spans; medians "
          f"of {args.repeat} interleaved rounds; load average {load}")
    for name in runs:
        print(f"  {name:<34} {statistics.median(cpu[name]):7.3f} s CPU "
              f"{statistics.median(wall[name]):7.3f} s wall")
    package = statistics.median(cpu["nervaluate package alone"])
    alone = statistics.median(cpu["ours, scoring alone"])
    whole = statistics.median(cpu["score --metric nervaluate (CLI)"])
    print(f"  package / ours: {package / alone:.1f}x (scoring alone), {package / whole:.1f}x "
          "(our whole command, reading included)")
    ours = json.loads(last["ours, scoring alone"].splitlines()[-1])["counts"]
    theirs = json.loads(last["nervaluate package alone"].splitlines()[-1])["counts"]
    cli = json.loads(last["score --metric nervaluate (CLI)"])
    from_cli = {s: [cli[s][k] for k in ("correct", "incorrect", "partial", "missed", "spurious")]
                for s in ours}
    print(f"  counts: ours {'==' if ours == theirs else '!='} package, CLI "
          f"{'==' if from_cli == ours else '!='} ours: {ours['strict']} (strict)")


if __name__ == "__main__":
    main()
