"""The HTML report's two slice bootstraps side by side in one checkout: ``report --bootstrap
per-slice`` (the default: each bucket resamples its own documents) against ``--bootstrap shared``
(the corpus's documents drawn once for every bucket), CPU and wall time of whole processes,
interleaved (issue 29).

Each round runs the report once each way (the order alternating between rounds), after one
warm-up run of each; CPU time is user + system of the child (:func:`compare.run`).

    python bench/bench_report_bootstrap.py --corpus /tmp/lead10k/bench [--repeat 3]

``--corpus`` is a folder with ``gold.json`` and ``system_a.json`` (``bench_app.py``'s corpora);
``--samples`` passes the report's ``--samples``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import run

WAYS = ("per-slice", "shared")


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="the checkout (default: this one)")
    ap.add_argument("--corpus", type=Path, required=True,
                    help="folder with gold.json and system_a.json")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (medians of this many)")
    ap.add_argument("--samples", type=int, default=None, help="the report's --samples")
    ap.add_argument("--no-warmup", action="store_true", help="skip the warm-up runs")
    args = ap.parse_args()
    tree = args.tree.resolve()
    out = Path(tempfile.mkdtemp(prefix="bench-report-bootstrap-")) / "report.html"
    base = ["report", str(args.corpus / "gold.json"), str(args.corpus / "system_a.json"),
            "-o", str(out), *(["--samples", str(args.samples)] if args.samples else [])]
    print(f"tree {tree}; {args.corpus}; {args.repeat} interleaved rounds; load average "
          f"{_load()}", flush=True)
    samples: dict[str, list[tuple[float, float, float]]] = {w: [] for w in WAYS}
    for k in range(-1 if not args.no_warmup else 0, args.repeat):
        for way in (WAYS if k % 2 == 0 else WAYS[::-1]):
            cpu, wall, rss, _ = run(tree, [*base, "--bootstrap", way])
            if k >= 0:
                samples[way].append((cpu, wall, rss))
                print(f"  round {k + 1} {way}: {cpu:.2f} s CPU, {wall:.2f} s wall, "
                      f"{rss:.0f} MiB (load {_load()})", flush=True)
    med = {w: [statistics.median(x[i] for x in samples[w]) for i in range(3)] for w in WAYS}
    a, b = med["per-slice"], med["shared"]
    print(f"median CPU per-slice {a[0]:.2f} s, shared {b[0]:.2f} s ({b[0] / a[0]:.2f}x); wall "
          f"{a[1]:.2f} -> {b[1]:.2f} s; peak RSS {a[2]:.0f} -> {b[2]:.0f} MiB; load average "
          f"{_load()}")


if __name__ == "__main__":
    main()
