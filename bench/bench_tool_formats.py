"""Benchmark: reading and writing the issue-19 formats on a generated corpus.

2,000 documents of 20 sentences x 12 tokens (about 2.4 M characters), 8 spans per sentence
boundary-aligned: written as WebAnno TSV (an export of three annotators, 42 MB: issue 29's
"WebAnno TSV 42 MB < 3 s"), CoNLL, spaCy JSONL and read back; reading's wall and CPU time.

Run: ``python bench/bench_tool_formats.py``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.formats import ReadOptions, load_files, write_files
from core.model import AnnotationSet, Span

WORDS = ["harbour", "board", "always", "lies", "and", "everyone", "knows", "it", "Okafor", "."]


def corpus(n_docs: int, seed: int) -> tuple[dict[str, str | None], AnnotationSet]:
    rng = random.Random(seed)
    texts: dict[str, str | None] = {}
    spans: dict[str, tuple[Span, ...]] = {}
    for d in range(n_docs):
        lines, out, pos = [], [], 0
        for _ in range(20):
            words = [rng.choice(WORDS) for _ in range(12)]
            starts = []
            for w in words:
                starts.append(pos)
                pos += len(w) + 1
            i = rng.randrange(0, 10)
            out.append(Span(starts[i], starts[i + 1] + len(words[i + 1]), rng.choice("ABC")))
            lines.append(" ".join(words))
        texts[str(d)] = "\n".join(lines)
        spans[str(d)] = tuple(sorted(out))
    return texts, AnnotationSet("runs", spans, "system")


def main() -> None:
    texts, aset = corpus(2000, 0)
    sets = [AnnotationSet(name, aset.spans, "annotator") for name in ("alice", "bob", "chloe")]
    for fmt, chosen, options in (("webanno-tsv", sets, ReadOptions()),
                                 ("conll", [aset], ReadOptions()),
                                 ("conll", [aset], ReadOptions(scheme="IOB2")),
                                 ("spacy", [aset], ReadOptions())):
        t0 = time.perf_counter()
        files = write_files(fmt, texts, chosen)
        t1 = time.perf_counter()
        data = {k: v.encode() for k, v in files.items()}
        size = sum(len(v) for v in data.values())
        t1, c1 = time.perf_counter(), time.process_time()
        loaded = load_files(data, fmt=fmt, name="bench", options=options)
        t2, c2 = time.perf_counter(), time.process_time()
        spans = sum(s.span_count() for s in loaded.sets)
        print(f"{fmt:12} scheme={options.scheme or '-':5} {len(files):5} files {size / 1e6:6.1f} MB"
              f"  write {t1 - t0:6.2f} s  read {t2 - t1:6.2f} s (CPU {c2 - c1:5.2f} s)  "
              f"({spans} spans)")


if __name__ == "__main__":
    main()
