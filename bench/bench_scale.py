"""Benchmark: the metrics at scale, 1,000,000 spans per side (issue 15, target 3).

Writes a SemEval-2021 JSON pair of ``--docs`` documents (default 100,000) × ``--per-doc`` spans
per side (default 10) with ``bench_read.py``'s generator (texts of ~950 characters, 20 labels,
predictions near the gold spans), then times each command in a fresh subprocess (median of
``--repeat``): wall time, CPU time (user + system) and peak RSS (``ru_maxrss`` of the child,
read with ``resource.getrusage(RUSAGE_CHILDREN)`` in a tiny parent per run):

- ``python -m core score G P --metric martino --json``
- ``python -m core score G P --metric mafalda --json`` (on a copy of the pair whose labels are
  MAFALDA level-2 fallacy names: the metric checks them against its taxonomy)
- the same with a gold whose spans offer alternatives (every third span a second label on the
  same interval) and ⊥ (every tenth), ``mafalda-alt``
- ``python -m core errors G P --json``
- ``python -m core agree G P --measure char-kappa --json``

The issue's target: each < 10 s and < 2 GB on one machine. Run:
``python bench/bench_scale.py [--docs 100000] [--repeat 1] [--out /tmp/bench_scale]
[--only martino,mafalda,mafalda-alt,errors,char-kappa]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_read import LABELS, generate, measure, write_semeval

from core.model import NOTHING
from core.model.taxonomy import mafalda


def commands(folder: Path) -> dict[str, list[str]]:
    """The command line of every measured run."""
    py = [sys.executable, "-m", "core"]
    g, p = str(folder / "gold.json"), str(folder / "pred.json")
    mg, mp = str(folder / "gold_mafalda.json"), str(folder / "pred_mafalda.json")
    return {
        "martino": [*py, "score", g, p, "--metric", "martino", "--json"],
        "mafalda": [*py, "score", mg, mp, "--metric", "mafalda", "--json"],
        "mafalda-alt": [*py, "score", str(folder / "gold_mafalda_alt.json"), mp, "--metric",
                        "mafalda", "--json"],
        "errors": [*py, "errors", g, p, "--json"],
        "char-kappa": [*py, "agree", g, p, "--measure", "char-kappa", "--json"],
    }


def write_corpus(folder: Path, n_docs: int, per_doc: int) -> None:
    """The SemEval-2021 JSON files the commands read: ``gold.json``/``pred.json`` and their
    copies with MAFALDA labels (``tests/formats/test_fast_path_guard.py`` reads a small one)."""
    texts, gold, pred = generate(n_docs, per_doc)
    write_semeval(folder / "gold.json", texts, gold)
    write_semeval(folder / "pred.json", texts, pred)
    # the same spans with MAFALDA level-2 fallacy names, for --metric mafalda
    names = dict(zip(LABELS, mafalda().names()[1:1 + len(LABELS)], strict=True))
    for path, spans in ((folder / "gold_mafalda.json", gold),
                        (folder / "pred_mafalda.json", pred)):
        write_semeval(path, texts, [[(s, e, names[lab]) for s, e, lab in items]
                                    for items in spans])
    # MAFALDA gold with alternatives and ⊥ (Definition 6: spans sharing an interval are one
    # span offering their labels): every third span also offers the next label, every
    # tenth is optional (⊥ among its labels)
    alt = []
    for items in gold:
        out = []
        for k, (s, e, lab) in enumerate(items):
            out.append((s, e, names[lab]))
            if k % 3 == 0:
                out.append((s, e, names[LABELS[(LABELS.index(lab) + 1) % len(LABELS)]]))
            if k % 10 == 0:
                out.append((s, e, NOTHING))
        alt.append(out)
    write_semeval(folder / "gold_mafalda_alt.json", texts, alt)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--per-doc", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench_scale"))
    ap.add_argument("--only", default="", help="comma-separated subset of the commands")
    ap.add_argument("--keep", action="store_true",
                    help="reuse gold.json/pred.json in --out when they exist")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    gold_path, pred_path = args.out / "gold.json", args.out / "pred.json"
    if not (args.keep and (args.out / "pred_mafalda.json").exists()):
        write_corpus(args.out, args.docs, args.per_doc)
    size = (gold_path.stat().st_size + pred_path.stat().st_size) / 1e6
    print(f"corpus: {args.docs} documents × {args.per_doc} spans per side, {size:.1f} MB "
          f"in {args.out}")
    wanted = [w for w in args.only.split(",") if w]
    for name, argv in commands(args.out).items():
        if wanted and name not in wanted:
            continue
        wall, rss, cpu, out = measure(argv, args.repeat)
        print(f"{name:>11}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, {rss:7.0f} MiB peak RSS "
              f"(median of {args.repeat}; output {len(out)} characters)", flush=True)


if __name__ == "__main__":
    main()
