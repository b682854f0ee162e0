"""Benchmark: the Martino metric on a generated corpus, against a character-set implementation.

20,000 documents of news-like length (~3,000 characters) with 200,000 gold and 200,000 predicted
spans (10 per document per side, 5-120 characters, 20 labels). The reference implementation below
computes the same formula the way the official scorers do (``set(range(start, end))`` per span,
sum over all same-label pairs of a document); it exists only here, to check the numbers and to
measure the speed-up.

Run: ``python bench/bench_martino.py [--docs N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.metrics.martino import score
from core.model import AnnotationSet, Span

LABELS = [f"technique {i}" for i in range(20)]


def generate(n_docs: int, per_doc: int, seed: int) -> tuple[AnnotationSet, AnnotationSet]:
    rnd = random.Random(seed)
    gold: dict[str, tuple[Span, ...]] = {}
    pred: dict[str, tuple[Span, ...]] = {}
    for d in range(n_docs):
        g = []
        for _ in range(per_doc):
            start = rnd.randrange(0, 3000)
            g.append(Span(start, start + rnd.randint(5, 120), rnd.choice(LABELS)))
        p = []
        for t in g:  # predictions near the gold, some shifted, some with another label
            shift = rnd.randint(-30, 30)
            start = max(0, t.start + shift)
            label = t.label if rnd.random() < 0.7 else rnd.choice(LABELS)
            p.append(Span(start, start + max(1, t.length + rnd.randint(-20, 20)), label))
        gold[str(d)] = tuple(g)
        pred[str(d)] = tuple(p)
    return AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")


def charset_score_2021(gold: AnnotationSet, pred: AnnotationSet) -> tuple[float, float]:
    """As the SemEval-2021 scorer: every pair of a document, index sets built for each pair."""
    p_num = r_num = 0.0
    for doc, gspans in gold.spans.items():
        for s in pred.get(doc):
            for t in gspans:
                if s.label == t.label:
                    sset, tset = set(range(s.start, s.end)), set(range(t.start, t.end))
                    inter = len(sset & tset)
                    p_num += inter / len(sset)
                    r_num += inter / len(tset)
    return p_num, r_num


def charset_score(gold: AnnotationSet, pred: AnnotationSet) -> tuple[float, float]:
    """As the 2019/2020 scorers: index sets built once per span at load time."""
    p_num = r_num = 0.0
    for doc, gspans in gold.spans.items():
        gsets = [(t.label, set(range(t.start, t.end))) for t in gspans]
        for s in pred.get(doc):
            sset = set(range(s.start, s.end))
            for label, tset in gsets:
                if label == s.label:
                    inter = len(sset & tset)
                    p_num += inter / len(sset)
                    r_num += inter / len(tset)
    return p_num, r_num


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=20_000)
    ap.add_argument("--per-doc", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    gold, pred = generate(args.docs, args.per_doc, seed=7)
    print(f"corpus: {args.docs} documents, {gold.span_count()} gold and {pred.span_count()} "
          "predicted spans")
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = score(gold, pred)
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    score(gold, pred)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    ours = min(times)
    t0 = time.perf_counter()
    p_num, r_num = charset_score(gold, pred)
    ref = time.perf_counter() - t0
    t0 = time.perf_counter()
    p21, r21 = charset_score_2021(gold, pred)
    ref21 = time.perf_counter() - t0
    same = all(abs(a - b) < 1e-6 for a, b in ((p_num, result.p_num), (r_num, result.r_num),
                                                (p21, result.p_num), (r21, result.r_num)))
    print(f"interval arithmetic (core.metrics.martino.score): {ours:.3f} s (best of "
          f"{args.repeat}), peak traced memory {peak / 2**20:.1f} MiB")
    print(f"character sets built per pair (2021 scorer):     {ref21:.3f} s "
          f"({ref21 / ours:.1f}x slower)")
    print(f"character sets built once per span (2019/2020):  {ref:.3f} s "
          f"({ref / ours:.1f}x slower)")
    print(f"identical numerators: {same} "
          f"(P={result.precision:.6f} R={result.recall:.6f} F1={result.f1:.6f})")


if __name__ == "__main__":
    main()
