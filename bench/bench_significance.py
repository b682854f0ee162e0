"""``significance.compare`` (``table --compare``, ``slices --compare``, the report's
comparison): CPU time and peak memory of one comparison of two systems on P, R and F1 at 10,000
and 50,000 documents, in two checkouts side by side, interleaved.

Each run is a fresh process that builds two synthetic pooled tables (Da San Martino's
per-document sums; the same tables in both checkouts) and calls ``compare`` once with
``--samples`` resamples and rounds; it reports the CPU time of that call (``time.process_time``)
and the process's peak resident memory.

    python bench/bench_significance.py --tree /path/to/base --tree . [--repeat 3]

``--randomization N`` measures ``randomization_p`` alone instead (F1 of two random pooled
tables of N documents, 512 rounds): its swap matrices are most of its memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from core.analysis.significance import compare
from core.metrics.additive import DocumentTable
n, samples = int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(n)
den = rng.integers(0, 6, size=(2, n, 2)).astype(float)
num = den * rng.random((2, n, 2))
t = np.stack([num[..., 0], den[..., 0], num[..., 1], den[..., 1]], axis=-1)
docs = [f"d{i}" for i in range(n)]
z = np.zeros(n, dtype=np.int64)
a, b = (DocumentTable(docs, t[k], z, z, True) for k in range(2))
start = time.process_time()
out = compare("a", a, "b", b, n_resamples=samples, seed=0)
cpu = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cpu": cpu, "peak_mb": peak,
                  "p": [(c.p_randomization, c.low, c.high) for c in out]}))
"""

SWAPS = r"""
import json, resource, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from core.analysis.significance import randomization_p
from core.metrics.stats import martino_f1
n = int(sys.argv[2])
rng = np.random.default_rng(1)
a, b = rng.random((n, 4)), rng.random((n, 4))
start = time.process_time()
p = randomization_p(a, b, {"F1": martino_f1}, n_rounds=512, seed=0)
cpu = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cpu": cpu, "peak_mb": peak, "p": p}))
"""


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, action="append", required=True,
                    help="a checkout (give two: base, then tree)")
    ap.add_argument("--documents", type=int, nargs="+", default=[10_000, 50_000])
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--randomization", type=int, metavar="N",
                    help="measure randomization_p alone at N documents")
    args = ap.parse_args()
    child = CHILD if args.randomization is None else SWAPS
    for n in args.documents if args.randomization is None else [args.randomization]:
        cpu: dict[Path, list[float]] = {t: [] for t in args.tree}
        peak: dict[Path, list[float]] = {t: [] for t in args.tree}
        numbers: dict[Path, object] = {}
        what = (f"{args.samples} resamples" if args.randomization is None
                else "randomization_p alone, 512 rounds")
        print(f"{n:,} documents, {what}; load {_load()}")
        for k in range(args.repeat):
            order = args.tree if k % 2 == 0 else args.tree[::-1]
            for tree in order:
                out = subprocess.run([sys.executable, "-c", child, str(tree), str(n),
                                      str(args.samples)], capture_output=True, text=True,
                                     check=True)
                got = json.loads(out.stdout)
                cpu[tree].append(got["cpu"])
                peak[tree].append(got["peak_mb"])
                numbers[tree] = got["p"]
        for tree in args.tree:
            print(f"  {tree}: CPU median {statistics.median(cpu[tree]):.2f} s "
                  f"(runs {', '.join(f'{c:.2f}' for c in cpu[tree])}); peak RSS "
                  f"{max(peak[tree]):.0f} MB")
        same = len({json.dumps(v) for v in numbers.values()}) == 1
        print(f"  randomization p and intervals identical across trees: {same}; "
              f"load {_load()}")


if __name__ == "__main__":
    main()
