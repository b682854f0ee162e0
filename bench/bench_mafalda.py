"""Benchmark: the MAFALDA metric without enumerating alternatives.

1. One document with 40 gold spans of 3 alternative labels each (3^40 alternatives) and
   predictions that overlap one or two gold spans each, scored in every variant (target < 50 ms).
2. The full MAFALDA gold (200 texts) against the released GPT-3.5 outputs, every level and
   variant, reading included (target < 1 s); data in tests/data/mafalda.

Run: ``python bench/bench_mafalda.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.formats import ReadOptions, load_path
from core.metrics.mafalda import VARIANTS, score
from core.model import AnnotationSet, Span
from core.model.taxonomy import mafalda

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "mafalda"


def worst_case() -> tuple[AnnotationSet, AnnotationSet]:
    names = mafalda().names()[1:24]
    gold, pred = [], []
    for i in range(40):
        start = 30 * i
        for k in range(3):
            gold.append(Span(start, start + 25, names[(i + 5 * k) % 23]))
        # one prediction inside span i, one straddling spans i and i+1
        pred.append(Span(start + 2, start + 20, names[(i + 5 * (i % 3)) % 23]))
        pred.append(Span(start + 20, start + 40, names[(i + 1) % 23]))
    return (AnnotationSet("gold", {"d": tuple(sorted(gold))}, alternatives=True),
            AnnotationSet("pred", {"d": tuple(sorted(pred))}, role="system"))


def main() -> None:
    gold, pred = worst_case()
    print("1. one text, 40 gold spans x 3 alternatives (3^40), 80 predictions")
    for variant in VARIANTS:
        best = min(_timed(lambda v=variant: score(gold, pred, variant=v)) for _ in range(5))
        r = score(gold, pred, variant=variant)
        print(f"   {variant:<11} {best * 1000:7.1f} ms   P={r.precision:.4f} R={r.recall:.4f}")
    gold_file = DATA / "datasets" / "gold_standard_dataset.jsonl"
    t0 = time.perf_counter()
    g = load_path(gold_file)
    p = load_path(DATA / "results" / "gpt-3.5_level_2_results.jsonl", fmt="mafalda-llm",
                  options=ReadOptions(role="system", gold_doc_ids=g.set.doc_ids))
    t_read = time.perf_counter() - t0
    t0 = time.perf_counter()
    for variant in VARIANTS:
        for level in (0, 1, 2):
            score(g.set, p.set, level=level, variant=variant, texts=g.texts)
    t_score = time.perf_counter() - t0
    print(f"2. MAFALDA gold (200 texts) vs GPT-3.5, 3 variants x 3 levels: reading "
          f"{t_read * 1000:.0f} ms, scoring {t_score * 1000:.0f} ms, total "
          f"{(t_read + t_score) * 1000:.0f} ms")


def _timed(fn: object) -> float:
    t0 = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
