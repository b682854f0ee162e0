"""A long fuzzing campaign over every format: the checks of ``tests/fuzz`` on many more inputs.

For each sample file of ``tests/fuzz/test_cli_fuzz.py`` (every format; spans CSV both as CSV
and as JSON Lines; zips, nested zips and an INCEpTION project export; a Parquet table),
``--inputs`` mutated copies (default 2,000) are run through ``validate`` (text and ``--json``),
``score``, ``convert`` and ``agree`` in-process, with the format named on every other input and
detected otherwise. Each option file (``--labels``, ``--taxonomy``, ``--meta``) is mutated and
given to its command, and the Curation page's decisions CSV to its reader. A run that exits
other than 0 or 1, raises, prints a traceback, prints more or less than one line on standard
error with exit 1, or writes output that does not encode as UTF-8 is a failure; the first few
are printed with their input saved under ``bench/results/fuzz/``.

Run: ``python bench/fuzz.py [--inputs N] [--seed S] [--only NAME ...]`` (a sample, an option
file such as ``meta`` for ``--meta``, or ``decisions``). Writes
``bench/results/fuzz.json``; ``docs/robustness.md`` records the last campaign.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_spec = importlib.util.spec_from_file_location(
    "cli_fuzz", ROOT / "tests" / "fuzz" / "test_cli_fuzz.py")
assert _spec is not None and _spec.loader is not None
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["cli_fuzz"] = fuzz  # dataclasses look their module up
_spec.loader.exec_module(fuzz)

RESULTS = ROOT / "bench" / "results"


def _target(name: str) -> tuple[str, Path, bytes, int, Callable[[bytes, bool], list[str]]]:
    """What a campaign mutates: its format (as reported), sample, bytes, command runs per
    input, and the check of one mutated input."""
    if name in fuzz.CASES:
        case = fuzz.CASES[name]
        return (case.fmt, case.path, case.path.read_bytes(), 5,
                lambda data, explicit: fuzz.check_one(case, data, explicit=explicit))
    option = f"--{name}"
    if option in fuzz.OPTION_FILES:
        source = fuzz.OPTION_FILES[option][0]
        return (option, source, source.read_bytes(), 1,
                lambda data, explicit: fuzz.check_option(option, data))
    assert name == "decisions"
    return ("decisions CSV", Path("decisions.csv"), fuzz.decisions_sample()[1], 1,
            lambda data, explicit: fuzz.check_decisions(data))


NAMES = [*sorted(fuzz.CASES), *sorted(o.lstrip("-") for o in fuzz.OPTION_FILES), "decisions"]


def campaign(name: str, n: int, seed: int) -> dict[str, object]:
    fmt, sample, original, per_input, check = _target(name)
    rng = random.Random(f"{seed}:{name}")
    failures: list[str] = []
    exits: Counter[str] = Counter()
    started = time.perf_counter()
    runs = 0
    for i in range(n):
        data = fuzz.mutate(original, fuzz.Picker(rng=rng))
        found = check(data, i % 2 == 0)
        runs += per_input
        exits["inputs with a broken promise" if found else "inputs kept the contract"] += 1
        if found:
            failures.extend(found)
            if len(failures) <= 20:
                out = RESULTS / "fuzz" / f"{name}-{i}{sample.suffix}"
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(data)
                print(f"  {name} #{i}: {found[0]} (input saved as {out})", flush=True)
    shown = str(sample.relative_to(ROOT)) if sample.is_absolute() else "(built by adjudicate)"
    return {"format": fmt, "sample": shown, "inputs": n,
            "command_runs": runs, "failures": len(failures),
            "failure_kinds": dict(Counter(f.split(":", 2)[1].strip()[:60] for f in failures)),
            "seconds": round(time.perf_counter() - started, 1), **dict(exits)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=2000, help="mutated inputs per sample")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", choices=NAMES, metavar="NAME",
                        help="samples, option files (meta for --meta ...) or decisions to run")
    args = parser.parse_args()
    rows = []
    for name in args.only or NAMES:
        row = campaign(name, args.inputs, args.seed)
        rows.append(row)
        print(f"{name:<16} {row['inputs']:>6} inputs {row['command_runs']:>7} runs "
              f"{row['failures']:>4} failures {row['seconds']:>7.1f} s", flush=True)
    total = {"inputs": sum(int(r["inputs"]) for r in rows),  # type: ignore[call-overload]
             "command_runs": sum(int(r["command_runs"]) for r in rows),  # type: ignore[call-overload]
             "failures": sum(int(r["failures"]) for r in rows)}  # type: ignore[call-overload]
    print(f"total: {total}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "fuzz.json").write_text(json.dumps(
        {"seed": args.seed, "python": sys.version.split()[0], "rows": rows, "total": total},
        indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
