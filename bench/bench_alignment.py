"""Benchmark of matching annotators' documents by their text (``core/model/alignment.py``).

What ``agree`` and ``adjudicate`` now pay before reading any span: three annotators over the same
documents (synthetic text of about 5,400 characters a document, copies of the strings so that
equality compares characters), in two cases, interleaved ``--repeat`` times, CPU time:

* ids that agree (every file numbers the documents alike): the price every existing input pays;
  it must stay far below the reading of the files (reading 16 MB of JSON takes seconds);
* ids that differ (each annotator numbers its documents in its own order, as doccano does): the
  text keys of every document are computed and matched.

    python bench/bench_alignment.py [--docs 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.model.alignment import align


def corpus(n_docs: int, seed: int = 0) -> dict[str, str]:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "the", "a", "of"]
    return {f"d{i}": " ".join(rng.choice(words) for _ in range(1000)) for i in range(n_docs)}


def copy(texts: dict[str, str]) -> dict[str, str]:
    return {d: "".join(list(t)) for d, t in texts.items()}


def renumbered(texts: dict[str, str], seed: int) -> dict[str, str]:
    values = list(texts.values())
    random.Random(seed).shuffle(values)
    return {str(i): t for i, t in enumerate(values)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--docs", type=int, default=3000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    base = corpus(args.docs)
    cases = {"ids agree": [base, copy(base), copy(base)],
             "ids differ": [renumbered(base, 1), renumbered(copy(base), 2),
                            renumbered(copy(base), 3)]}
    size = sum(len(t) for t in base.values()) / 1e6
    print(f"{args.docs:,} documents, {size:.1f} MB of text per annotator, 3 annotators")
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeat):
        for name, inputs in cases.items():  # interleaved
            start = time.process_time()
            result = align(inputs, ["a", "b", "c"])
            times[name].append(time.process_time() - start)
            assert result.changed == (name == "ids differ")
    for name, ts in times.items():
        print(f"  {name:<11} best {min(ts) * 1000:8.1f} ms CPU   median "
              f"{sorted(ts)[len(ts) // 2] * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
