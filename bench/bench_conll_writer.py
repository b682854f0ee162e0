"""Benchmark: the CoNLL writer on one long document (``convert --to conll``).

One generated document of ``--tokens`` words in lines of 3 to 12, a span over one to three
words of about one word in five (the shape of an INCEpTION CoNLL export of a whole book, such as
the classical Arabic isnad and NER files of New-Languages-for-NLP/classical-arabic: 118,000
tokens, 15,000 spans in one document). Each checkout given (``--root``, repeatable; default
this one) writes it in a fresh process, rounds interleaved; printed: the median CPU time
(user + system) of the write inside the process, and a digest of the output, the same for
every checkout when the results are.

Run: ``python bench/bench_conll_writer.py [--tokens 60000] [--repeat 3] [--root DIR ...]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import hashlib, random, sys, time
sys.path.insert(0, sys.argv[1])
from core.formats import write_files
from core.model import AnnotationSet, Span
rnd = random.Random(19)
words = ["qala", "haddathana", "ibn", "malik", "an", "abi", "hurayra", "rasul", "allah"]
lines, spans, pos, n = [], [], 0, 0
while n < int(sys.argv[2]):
    row = [rnd.choice(words) for _ in range(rnd.randint(3, 12))]
    offsets = []
    for w in row:
        offsets.append((pos, pos + len(w)))
        pos += len(w) + 1
    k = 0
    while k < len(row):
        width = rnd.randint(1, 3)
        if rnd.random() < 0.2 and k + width <= len(row):
            spans.append(Span(offsets[k][0], offsets[k + width - 1][1], "SND"))
        k += width
    n += len(row)
    lines.append(" ".join(row))
aset = AnnotationSet("g", {"d": tuple(spans)}, "gold")
c0 = time.process_time()
out = write_files("conll", {"d": "\n".join(lines)}, [aset])
c1 = time.process_time()
print(c1 - c0, len(spans), hashlib.sha256("".join(out.values()).encode()).hexdigest()[:12])
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=60_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--root", action="append", type=Path)
    args = ap.parse_args()
    roots = args.root or [Path(__file__).resolve().parent.parent]
    times: dict[Path, list[float]] = {r: [] for r in roots}
    digest: dict[Path, str] = {}
    for _ in range(args.repeat):
        for root in roots:
            out = subprocess.run([sys.executable, "-c", CHILD, str(root), str(args.tokens)],
                                 capture_output=True, text=True, check=True).stdout.split()
            times[root].append(float(out[0]))
            digest[root] = f"{out[1]} spans, output {out[2]}"
    for root in roots:
        print(f"{root!s:40} write CPU median {statistics.median(times[root]):7.2f} s  "
              f"({digest[root]})")


if __name__ == "__main__":
    main()
