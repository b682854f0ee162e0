"""Benchmark: reading UIMA XMI against dkpro-cassis alone (issue 29, target 6).

Writes ``--docs`` XMI files (default 500) of ~950 characters with their sentences, tokens and 20
custom spans each (10,000 spans; ``bench_format_memory.py``'s writer and type system), then, in
this process, alternately ``--repeat`` times: dkpro-cassis alone (``load_typesystem`` once,
``load_cas_from_xmi`` per file) and ``core.formats.load_path(folder, fmt="uima-xmi")``, which
loads the type system with cassis and reads the files with lxml, its one path (it prints how
many files that path refused: each would be an error, explained by cassis). CPU time
(``process_time``).

Run: ``python bench/bench_xmi.py [--docs 500] [--repeat 3] [--out /tmp/bench_xmi]``.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_format_memory import TS_XML, _xmi
from bench_read import make_texts


def write(out: Path, n_docs: int) -> None:
    rnd = random.Random(3)
    for i, text in enumerate(make_texts(n_docs, rnd)):
        tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        spans = []
        for _ in range(20):
            a = rnd.randrange(len(tokens) - 5)
            spans.append((tokens[a][0], tokens[a + rnd.randint(0, 4)][1], f"T{rnd.randrange(5)}"))
        (out / f"{i}.xmi").write_text(_xmi(text, spans, tokens), encoding="utf-8")
    (out / "TypeSystem.xml").write_text(TS_XML, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench_xmi"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out, args.docs)
    import cassis

    from core.formats import load_path

    files = sorted(args.out.glob("*.xmi"))

    def with_cassis() -> None:
        ts = cassis.load_typesystem((args.out / "TypeSystem.xml").read_text(encoding="utf-8"))
        for f in files:
            cassis.load_cas_from_xmi(f.read_text(encoding="utf-8"), typesystem=ts)

    def ours() -> None:
        loaded = load_path(str(args.out), fmt="uima-xmi")
        assert sum(s.span_count() for s in loaded.sets) == 20 * args.docs

    ours()  # warm-up: imports
    cpu: dict[str, list[float]] = {"dkpro-cassis alone": [], "core.formats (uima-xmi)": []}
    for _ in range(args.repeat):
        for name, fn in zip(cpu, (with_cassis, ours), strict=True):
            c0 = time.process_time()
            fn()
            cpu[name].append(time.process_time() - c0)
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"UIMA XMI, {args.docs} files, {20 * args.docs} spans; medians of {args.repeat} "
          f"alternated runs; load average {load}")
    for name, values in cpu.items():
        print(f"  {name:<26} {statistics.median(values):6.3f} s CPU")
    ratio = statistics.median(cpu["core.formats (uima-xmi)"]) / statistics.median(
        cpu["dkpro-cassis alone"])
    print(f"  ours / cassis: {ratio:.2f}x")
    from core.formats import xmi

    print(f"  files refused (errors, explained by cassis): {sum(xmi.FALLBACKS.values())}")


if __name__ == "__main__":
    main()
