"""Benchmark: error categories, the SemEval-2013 schemas, slices and the report on a generated
corpus (the Errors page and ``python -m core errors / slices / report`` compute these).

N documents of ~3,000 characters with 10 gold and ~10 predicted spans each (5-120 characters,
20 labels; predictions near the gold, some shifted or relabelled, some spurious).

Run: ``python bench/bench_errors.py [--docs N] [--samples N]``; ``--pair GOLD PRED`` times the
categorisation alone on two files instead (CPU time, ``--repeat`` runs: the dashboard's Errors
page computes it for every compared system), e.g. the 100,000-document pair of
``bench_app.py --docs 100000 --spans 1000000``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.analysis.errors import categorise
from core.analysis.report import ReportInputs, build_report
from core.analysis.slices import slice_scores
from core.formats import load_path
from core.metrics import nervaluate
from core.model import AnnotationSet, Span

LABELS = [f"technique {i}" for i in range(20)]


def generate(n_docs: int, seed: int = 0) -> tuple[AnnotationSet, AnnotationSet]:
    rnd = random.Random(seed)
    gold: dict[str, tuple[Span, ...]] = {}
    pred: dict[str, tuple[Span, ...]] = {}
    for d in range(n_docs):
        g = []
        for _ in range(10):
            start = rnd.randrange(0, 3000)
            g.append(Span(start, start + rnd.randint(5, 120), rnd.choice(LABELS)))
        p = []
        for t in g:
            r = rnd.random()
            if r < 0.2:
                continue
            shift = 0 if r < 0.5 else rnd.randint(-20, 20)
            label = t.label if rnd.random() < 0.8 else rnd.choice(LABELS)
            p.append(Span(max(0, t.start + shift), t.end + shift + 1, label))
        if rnd.random() < 0.5:
            start = rnd.randrange(0, 3000)
            p.append(Span(start, start + 30, rnd.choice(LABELS)))
        gold[f"d{d}"] = tuple(g)
        pred[f"d{d}"] = tuple(p)
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


def timed(name: str, fn) -> object:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    print(f"{name:<44}{time.perf_counter() - t:8.2f} s")
    return out


def pair(gold_path: Path, pred_path: Path, repeat: int) -> None:
    """CPU and wall time of :func:`categorise` on two files (read once, not timed)."""
    gold, pred = (load_path(p).sets[0] for p in (gold_path, pred_path))
    print(f"{len(gold.doc_ids)} documents, {gold.span_count()} gold and "
          f"{pred.span_count()} predicted spans")
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        categorise(gold, pred)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    print(f"categorise: CPU {', '.join(f'{t:.2f}' for t in cpu)} s (median "
          f"{statistics.median(cpu):.2f}); wall median {statistics.median(wall):.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--pair", type=Path, nargs=2, metavar=("GOLD", "PRED"),
                    help="time the categorisation alone on these two files")
    ap.add_argument("--repeat", type=int, default=3, help="runs with --pair")
    args = ap.parse_args()
    if args.pair:
        pair(args.pair[0], args.pair[1], args.repeat)
        return
    gold, pred = generate(args.docs)
    print(f"{args.docs} documents, {gold.span_count()} gold and {pred.span_count()} predicted "
          "spans")
    timed("categorise (errors)", lambda: categorise(gold, pred))
    timed("nervaluate.score (4 schemas, per label)", lambda: nervaluate.score(gold, pred))
    for dim in ("span_length", "label", "doc_length"):
        timed(f"slices martino {dim} ({args.samples} resamples)",
              lambda dim=dim: slice_scores(gold, pred, dimension=dim,
                                           n_resamples=args.samples))
    timed("slices mafalda label (level 2)",
          lambda: slice_scores(gold, pred, dimension="label", metric="mafalda",
                               n_resamples=args.samples))
    html = timed("report (1 system)", lambda: build_report(
        ReportInputs(gold, [pred], {}, n_resamples=args.samples), command="bench"))
    print(f"report size: {len(str(html).encode()) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
