"""What a slice's buckets hold (:class:`core.analysis.slices.BucketScore`), dimension by
dimension: the memory its list of buckets keeps (tracemalloc), the part of it that is the
buckets' per-document tables (``table``: what ``slices --compare`` pairs), and how many span
tuples ``spans`` keeps (what the Errors page lists). Synthetic corpus: N documents, three gold
spans and two predictions each, 14 labels.

    python bench/bench_bucket_memory.py [--documents 100000] [--resamples 50]
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.analysis.slices import DIMENSIONS, slice_scores
from core.model import AnnotationSet, Span


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--documents", type=int, default=100_000)
    ap.add_argument("--resamples", type=int, default=50)
    args = ap.parse_args()
    n = args.documents
    rng = np.random.default_rng(0)
    labels = [f"L{i}" for i in range(14)]
    gold = {str(i): tuple(sorted(Span(s, s + 10, labels[rng.integers(14)]) for s in (0, 30, 60)))
            for i in range(n)}
    pred = {str(i): tuple(sorted(Span(s + int(rng.integers(0, 5)), s + 12,
                                      labels[rng.integers(14)]) for s in (0, 30)))
            for i in range(n)}
    g, p = AnnotationSet("gold", gold), AnnotationSet("pred", pred, role="system")
    with open("/proc/loadavg") as fh:
        print(f"{n:,} documents; load average", " ".join(fh.read().split()[:3]))
    tracemalloc.start()
    kept = {}
    for dim in DIMENSIONS:
        before = tracemalloc.get_traced_memory()[0]
        kept[dim] = slice_scores(g, p, dimension=dim, n_resamples=args.resamples)
        held = tracemalloc.get_traced_memory()[0] - before
        tables = sum(b.table.table.nbytes + b.table.references.nbytes
                     + b.table.predictions.nbytes + 8 * len(b.table.documents)
                     for b in kept[dim] if b.table is not None)
        spans = sum(len(b.spans) for b in kept[dim])
        print(f"  {dim:16} {len(kept[dim]):3} buckets hold {held / 1e6:7.1f} MB, of which "
              f"tables {tables / 1e6:6.1f} MB; {spans:,} span tuples")


if __name__ == "__main__":
    main()
