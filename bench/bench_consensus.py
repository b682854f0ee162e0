"""Benchmark of the consensus (``core.analysis.consensus``): 3 annotators, every matching rule.

Uses the synthetic corpus of ``bench/bench_agreement.py`` (documents of 600–1,500 characters,
about five jittered spans per annotator, 10 labels).

    python bench/bench_consensus.py [--docs 2000] [--annotators 3] [--repeat 3]

Prints, for each ``match``, the best time of ``--repeat`` runs and the counts of the result.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_agreement import synthetic

from core.analysis.consensus import MATCHES, consensus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--annotators", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sets, texts = synthetic(args.docs, args.annotators)
    spans = sum(s.span_count() for s in sets)
    print(f"{args.docs} documents, {args.annotators} annotators, {spans} spans")
    k = args.annotators // 2 + 1
    for match in MATCHES:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = consensus(sets, texts, min_agree=k, match=match)
            best = min(best, time.perf_counter() - t0)
        c = r.counts()
        print(f"{match:8} {best:7.3f} s  kept {c['kept']:6}  dropped {c['dropped']:6}  "
              f"disputed {c['disputed']:6}  ties {c['ties']:5}  conflicts {c['conflicts']:5}")


if __name__ == "__main__":
    main()
