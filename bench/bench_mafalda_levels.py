"""Benchmark: MAFALDA at every level, one process against three, and the official evaluator.

Writes a MAFALDA gold (JSONL, ``{"text", "labels": [[start, end, label]]}``) and model outputs
(``{"text", "prediction": {sentence: answer}}``, read as ``mafalda-llm``) of ``--texts`` lines
(default 20,000) by repeating the lines of ``--gold`` and ``--pred`` (default: the repository's
sample, ``sample_data/mafalda``; the issue used the released gold, 200 texts, and the GPT-3.5
answers), then measures in fresh processes, interleaved, medians of ``--repeat`` (CPU time of the
whole process, user + system, and wall time):

- ``score G P --metric mafalda --variant metrics-py --level L --json`` for L = 2, 1, 0: three
  processes (summed);
- ``score G P --metric mafalda --variant metrics-py --level all --json``: one process, the files
  read once;
- with ``--official DIR`` (a checkout of MAFALDA's repository, ``src/evaluate.py``), its
  ``evaluate(gold, predictions)``, which computes the three levels in one run, and the F1 of
  each level from both, side by side.

Run: ``python bench/bench_mafalda_levels.py [--texts 20000] [--repeat 3] [--gold G --pred P]
[--official DIR] [--out /tmp/bench_mafalda_levels]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_read import measure

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data" / "mafalda"

_OFFICIAL = """
import json, sys
sys.path.insert(0, sys.argv[1])
from src.evaluate import evaluate
values = evaluate(sys.argv[2], sys.argv[3])
print(json.dumps(values))
"""
"""The official evaluator in one process: its 18 numbers (P, R, F1 at levels 0, 1, 2, then the
label-only ones) as JSON."""


def repeat_lines(source: Path, target: Path, n: int) -> None:
    """``n`` lines: the non-empty lines of ``source`` over and over."""
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    with target.open("w", encoding="utf-8") as fh:
        for k in range(n):
            fh.write(lines[k % len(lines)] + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--gold", type=Path, default=SAMPLE / "gold.jsonl")
    ap.add_argument("--pred", type=Path, default=SAMPLE / "system_llm.jsonl")
    ap.add_argument("--official", type=Path, default=None,
                    help="a checkout of MAFALDA's repository (src/evaluate.py)")
    ap.add_argument("--variant", default="metrics-py",
                    help="our variant (default metrics-py: the official evaluator at 1bed246; "
                    "repo-head with --llm-parsing repo-head for 0df4344, docs/mafalda.md)")
    ap.add_argument("--llm-parsing", default="paper-2023")
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench_mafalda_levels"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    gold = args.out / "gold.jsonl"
    # The evaluator picks a model's instruction tags from the file name: keep the source's.
    pred = args.out / args.pred.name
    repeat_lines(args.gold, gold, args.texts)
    repeat_lines(args.pred, pred, args.texts)
    py = [sys.executable, "-m", "core", "score", str(gold), str(pred), "--metric", "mafalda",
          "--variant", args.variant, "--llm-parsing", args.llm_parsing, "--json"]
    runs: dict[str, list[list[str]]] = {
        "ours, 3 processes (--level 2, 1, 0)": [[*py, "--level", str(lv)] for lv in (2, 1, 0)],
        "ours, one process (--level all)": [[*py, "--level", "all"]],
    }
    if args.official is not None:
        runs["official evaluate() (3 levels)"] = [[sys.executable, "-c", _OFFICIAL,
                                                  str(args.official), str(gold), str(pred)]]
    for argvs in runs.values():  # warm-up: bytecode, page cache
        for argv in argvs:
            measure(argv, 1)
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    wall: dict[str, list[float]] = {k: [] for k in runs}
    outputs: dict[str, list[str]] = {}
    for _ in range(args.repeat):  # interleaved: each round runs every command once
        for name, argvs in runs.items():
            results = [measure(argv, 1) for argv in argvs]
            wall[name].append(sum(r[0] for r in results))
            cpu[name].append(sum(r[2] for r in results))
            outputs[name] = [r[3] for r in results]
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"MAFALDA, {args.texts} texts ({args.gold.name} and {args.pred.name} repeated); "
          f"medians of {args.repeat} interleaved rounds; load average {load}")
    for name in runs:
        print(f"  {name:<38} {statistics.median(cpu[name]):7.2f} s CPU "
              f"{statistics.median(wall[name]):7.2f} s wall")
    several = json.loads(outputs["ours, one process (--level all)"][0])["levels"]
    f1 = {lv: several[str(lv)]["f1"] for lv in (2, 1, 0)}
    print("  F1 (ours, --level all): " + ", ".join(f"level {lv} {v:.6f}" for lv, v in f1.items()))
    for lv, out in zip((2, 1, 0), outputs["ours, 3 processes (--level 2, 1, 0)"], strict=True):
        alone = json.loads(out)
        alone.pop("warnings"), alone.pop("warning_counts")
        assert alone == several[str(lv)], f"level {lv}: --level all differs from --level {lv}"
    if args.official is not None:
        values = json.loads(outputs["official evaluate() (3 levels)"][0].splitlines()[-1])
        official = {0: values[2], 1: values[5], 2: values[8]}
        print("  F1 (official):          " + ", ".join(f"level {lv} {official[lv]:.6f}"
                                                      for lv in (2, 1, 0)))


if __name__ == "__main__":
    main()
