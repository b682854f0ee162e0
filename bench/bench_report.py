"""The HTML report (``python -m core report``) in two revisions side by side: CPU and wall time
of whole processes, interleaved, and whether both wrote the same report (issue 29).

Each round runs the report once in the base checkout and once in the tree (the order
alternating between rounds), after one warm-up run on each side; CPU time is user + system of
the child (:func:`compare.run`). Both sides write the same file name, so the command the report
states is the same; the reports are compared byte for byte after blanking their time stamp
(``generated (UTC)``), the one thing that may differ.

    python bench/bench_report.py main --corpus /tmp/lead10k/bench [--repeat 2]
    python bench/bench_report.py main --corpus /tmp/lead100k/bench --repeat 2

``--corpus`` is a folder with ``gold.json`` and ``system_a.json`` (``bench_app.py``'s corpora);
``--samples`` passes the report's ``--samples``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import base_tree, run

STAMP = re.compile(rb"(generated \(UTC\)</td><td>)[^<]*")


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the git revision to compare against (e.g. main)")
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="the changed checkout (default: this one)")
    ap.add_argument("--corpus", type=Path, required=True,
                    help="folder with gold.json and system_a.json")
    ap.add_argument("--repeat", type=int, default=2, help="rounds (medians of this many)")
    ap.add_argument("--samples", type=int, default=None, help="the report's --samples")
    ap.add_argument("--no-warmup", action="store_true", help="skip the warm-up runs")
    args = ap.parse_args()
    tree = args.tree.resolve()
    sides = {"base": base_tree(args.rev, tree), "tree": tree}
    out = Path(tempfile.mkdtemp(prefix="bench-report-")) / "report.html"
    argv = ["report", str(args.corpus / "gold.json"), str(args.corpus / "system_a.json"),
            "-o", str(out), *(["--samples", str(args.samples)] if args.samples else [])]
    print(f"base {args.rev} ({sides['base'].name}), tree {tree}; {args.corpus}; "
          f"{args.repeat} interleaved rounds; load average {_load()}", flush=True)
    reports: dict[str, bytes] = {}
    samples: dict[str, list[tuple[float, float, float]]] = {"base": [], "tree": []}
    for k in range(-1 if not args.no_warmup else 0, args.repeat):
        order = ("base", "tree") if k % 2 == 0 else ("tree", "base")
        for side in order:
            cpu, wall, rss, _ = run(sides[side], argv)
            reports[side] = STAMP.sub(rb"\1-", out.read_bytes())
            if k >= 0:
                samples[side].append((cpu, wall, rss))
                print(f"  round {k + 1} {side}: {cpu:.2f} s CPU, {wall:.2f} s wall, "
                      f"{rss:.0f} MiB (load {_load()})", flush=True)
    med = {side: [statistics.median(x[i] for x in samples[side]) for i in range(3)]
           for side in samples}
    same = "the same report" if reports["base"] == reports["tree"] else "DIFFERENT reports"
    print(f"median CPU {med['base'][0]:.2f} -> {med['tree'][0]:.2f} s "
          f"({med['tree'][0] / med['base'][0]:.2f}x), wall {med['base'][1]:.2f} -> "
          f"{med['tree'][1]:.2f} s, peak RSS {med['base'][2]:.0f} -> {med['tree'][2]:.0f} MiB; "
          f"{same} (time stamp blanked); load average {_load()}")


if __name__ == "__main__":
    main()
