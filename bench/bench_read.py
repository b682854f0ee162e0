"""Benchmark: reading and scoring end to end, and peak memory of the readers made columnar.

Writes a SemEval-2021 JSON pair (20,000 documents of ~950 characters, texts in both files,
10 spans per document and side, 20 labels; about 58 MB together) like ``bench_martino.py``'s
generator, then measures, each in a fresh subprocess (median of ``--repeat``):

- ``python -m core score --metric martino --variant semeval2021 --json`` on the pair: wall time
  and peak RSS (``ru_maxrss`` of the child);
- the floor the issue measures against (issue 29, target 1: at most 1.2x): a process that only
  ``json.load``s both files, measured as the command is (whole process: interpreter start-up,
  imports and reading; CPU time user + system of the child), its runs alternating with the
  command's; its in-process time of ``json.load`` alone is printed too, the number the floor was
  once stated as (it leaves out the ~0.02 s interpreter start-up both processes pay);
- start-up, in the same alternation: the command on a two-document pair, and a process that
  only imports NumPy and msgspec (what the reader and the metric cannot do without);
- the in-repo character-set reference (``bench_martino.charset_score_2021``) on the same spans,
  and, with ``--official DIR``, the official SemEval-2021 scorer (the organisers'
  ``scorer/task2/scorer-subtask-2.py`` or a vendored ``task-2-semeval21_scorer.py``, fetched
  into DIR, never into the repository) side by side, with both results printed;
- peak RSS of ``python -m core validate`` on the same corpus written in every format with a
  fast reader (SemEval-2021 JSON, spans CSV, spans JSONL, PTC TSV), against the file's size.

Run: ``python bench/bench_read.py [--docs N] [--repeat 3] [--out /tmp/bench_read]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELS = [f"technique {i}" for i in range(20)]
WORDS = ["the", "mayor", "reckless", "plan", "will", "bankrupt", "every", "family", "city",
         "critics", "say", "so-called", "reform", "nothing", "disaster", "waiting", "happen",
         "migrants", "flood", "our", "streets", "tonight"]


def make_texts(n_docs: int, rnd: random.Random, length: int = 950) -> list[str]:
    out = []
    for _ in range(n_docs):
        words: list[str] = []
        size = 0
        while size < length:
            w = rnd.choice(WORDS)
            words.append(w)
            size += len(w) + 1
        out.append(" ".join(words))
    return out


def generate(n_docs: int, per_doc: int, seed: int = 7
             ) -> tuple[list[str], list[list[tuple[int, int, str]]],
                        list[list[tuple[int, int, str]]]]:
    """Texts, gold and predicted spans (offsets anywhere in the text, as bench_martino)."""
    rnd = random.Random(seed)
    texts = make_texts(n_docs, rnd)
    gold, pred = [], []
    for text in texts:
        g, p = [], []
        n = len(text)
        for _ in range(per_doc):
            start = rnd.randrange(0, n - 130)
            t = (start, start + rnd.randint(5, 120), rnd.choice(LABELS))
            g.append(t)
            s = max(0, t[0] + rnd.randint(-30, 30))
            length = max(1, t[1] - t[0] + rnd.randint(-20, 20))
            label = t[2] if rnd.random() < 0.7 else rnd.choice(LABELS)
            p.append((s, min(n, s + length), label))
        gold.append(g)
        pred.append(p)
    return texts, gold, pred


def write_semeval(path: Path, texts: list[str], spans: list[list[tuple[int, int, str]]]) -> None:
    out = [{"id": str(i), "text": text,
            "labels": [{"start": s, "end": e, "technique": lab} for s, e, lab in items]}
           for i, (text, items) in enumerate(zip(texts, spans, strict=True))]
    path.write_text(json.dumps(out), encoding="utf-8")


def write_other_formats(folder: Path, spans: list[list[tuple[int, int, str]]], scale: int
                        ) -> dict[str, Path]:
    """The gold spans as a spans CSV, spans JSONL and PTC TSV, repeated over ``scale`` times the
    documents (ids ``k * n + d``): files of the size the issue measured."""
    n = len(spans)
    rows = [(str(k * n + d), s, e, lab) for k in range(scale) for d, items in enumerate(spans)
            for s, e, lab in items]
    csv_path = folder / "gold_spans.csv"
    with csv_path.open("w", encoding="utf-8") as fh:
        fh.write("doc_id,start,end,label\n")
        fh.writelines(f"{d},{s},{e},{lab}\n" for d, s, e, lab in rows)
    jsonl_path = folder / "gold_spans.jsonl"
    with jsonl_path.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps({"doc_id": d, "start": s, "end": e, "label": lab}) + "\n"
                      for d, s, e, lab in rows)
    tsv_path = folder / "gold_ptc.tsv"
    with tsv_path.open("w", encoding="utf-8") as fh:
        fh.writelines(f"{d}\t{lab}\t{s}\t{e}\n" for d, s, e, lab in rows)
    return {"spans-csv": csv_path, "spans-jsonl": jsonl_path, "ptc": tsv_path}


_LOAD = """
import sys, time
t0 = time.perf_counter()
from core.formats import load_path
loaded = load_path(sys.argv[1], fmt=sys.argv[2])
wall = time.perf_counter() - t0
spans = sum(s.span_count() for s in loaded.sets)
print(wall, spans)
"""
"""Read one file with :func:`core.formats.load_path`: wall time and spans."""


CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
CHILD_ENV["PYTHONPYCACHEPREFIX"] = "/tmp/bench_read_pycache"
"""Children keep compiled bytecode (outside the repository) as an installed package does; a
machine that sets PYTHONDONTWRITEBYTECODE would otherwise compile every module on each run."""


def run_child(argv: list[str]) -> str:
    """The stdout of one subprocess (its stderr shown when it fails)."""
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, env=CHILD_ENV)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode()[-2000:]}")
    return proc.stdout.decode()


def measure(argv: list[str], repeat: int) -> tuple[float, float, float, str]:
    """Median wall time, peak RSS and CPU time (user + system) of ``repeat`` runs, and the last
    run's stdout. CPU time is the steadier number on a shared machine."""
    walls, rss, cpu = [], [], []
    out = ""
    for _ in range(repeat):
        wrapped = [sys.executable, "-c", _CHILD, *argv]
        text = run_child(wrapped)
        info = json.loads(text.splitlines()[-1])
        walls.append(info["wall"])
        rss.append(info["maxrss_mib"])
        cpu.append(info["cpu"])
        out = "\n".join(text.splitlines()[:-1])
    return statistics.median(walls), statistics.median(rss), statistics.median(cpu), out


_CHILD = """
import json, os, resource, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.run(sys.argv[1:], capture_output=True)
wall = time.perf_counter() - t0
if proc.returncode:
    sys.stderr.write(proc.stderr.decode()); sys.exit(proc.returncode)
sys.stdout.write(proc.stdout.decode().rstrip("\\n") + "\\n")
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "maxrss_mib": usage.ru_maxrss / 1024,
                  "cpu": usage.ru_utime + usage.ru_stime}))
"""
"""A tiny parent per measurement, so that ``RUSAGE_CHILDREN`` holds one child's peak."""

_JSON_LOAD = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as fh:
        json.load(fh)
print(time.perf_counter() - t0, time.process_time() - c0)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=20_000)
    ap.add_argument("--per-doc", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench_read"))
    ap.add_argument("--official", type=Path, default=None,
                    help="folder holding the official SemEval-2021 task 6 scorer "
                    "(scorer/task2/scorer-subtask-2.py, or a vendored "
                    "task-2-semeval21_scorer.py); run side by side when given")
    ap.add_argument("--skip-formats", action="store_true", help="only the end-to-end run")
    ap.add_argument("--format-scale", type=int, default=5,
                    help="the other formats hold the gold spans over this many times the "
                    "documents (default 5: 1,000,000 rows)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    texts, gold, pred = generate(args.docs, args.per_doc)
    gold_path, pred_path = args.out / "gold.json", args.out / "pred.json"
    write_semeval(gold_path, texts, gold)
    write_semeval(pred_path, texts, pred)
    size = (gold_path.stat().st_size + pred_path.stat().st_size) / 1e6
    print(f"corpus: {args.docs} documents, {sum(map(len, gold))} gold and "
          f"{sum(map(len, pred))} predicted spans, {size:.1f} MB in {args.out}")

    cli = [sys.executable, "-m", "core", "score", str(gold_path), str(pred_path), "--metric",
           "martino", "--variant", "semeval2021", "--json"]
    floor = [sys.executable, "-c", _JSON_LOAD, str(gold_path), str(pred_path)]
    # Start-up alone: the same command on a two-document pair, and a process that only
    # imports what the reader and the metric need (NumPy, msgspec).
    tiny_path = args.out / "tiny.json"
    write_semeval(tiny_path, texts[:2], gold[:2])
    tiny = [*cli[:4], str(tiny_path), str(tiny_path), *cli[6:]]
    imports = [sys.executable, "-c", "import numpy, msgspec"]
    run_child(cli)  # warm-up: bytecode written, files in the page cache
    run_child(floor)
    runs = [(measure(cli, 1), measure(floor, 1), measure(tiny, 1), measure(imports, 1))
            for _ in range(args.repeat)]  # alternating

    def median(side: int, k: int) -> float:
        return statistics.median(float(r[side][k]) for r in runs)

    wall, rss, cpu = median(0, 0), median(0, 1), median(0, 2)
    f_wall, f_rss, f_cpu = median(1, 0), median(1, 1), median(1, 2)
    result = json.loads(runs[-1][0][3])
    inner = [r[1][3].split() for r in runs]
    in_wall = statistics.median(float(w) for w, _ in inner)
    in_cpu = statistics.median(float(c) for _, c in inner)
    print(f"score --metric martino --json: {wall:.3f} s wall, {cpu:.3f} s CPU (medians of "
          f"{args.repeat}), peak RSS {rss:.0f} MiB; F1={result['f1']:.6f}, "
          f"{sum(result['warning_counts'].values())} warnings")
    print(f"floor, a process that json.loads both files: {f_wall:.3f} s wall, {f_cpu:.3f} s CPU, "
          f"peak RSS {f_rss:.0f} MiB; ratio {wall / f_wall:.2f}x wall, {cpu / f_cpu:.2f}x CPU "
          "(target: 1.2x CPU)")
    print(f"  json.load alone inside that process: {in_wall:.3f} s wall, {in_cpu:.3f} s CPU "
          f"(score's CPU is {cpu / in_cpu:.2f}x this)")
    print(f"start-up: score on a two-document pair {median(2, 2):.3f} s CPU; a process that "
          f"imports numpy and msgspec {median(3, 2):.3f} s CPU")

    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT))
    from bench_martino import charset_score_2021

    from core.model import AnnotationSet, Span
    gset = AnnotationSet("gold", {str(i): tuple(sorted(Span(*t) for t in items))
                                  for i, items in enumerate(gold)})
    pset = AnnotationSet("pred", {str(i): tuple(sorted(Span(*t) for t in items))
                                  for i, items in enumerate(pred)}, role="system")
    t0 = time.perf_counter()
    p_num, r_num = charset_score_2021(gset, pset)
    ref = time.perf_counter() - t0
    same = (abs(p_num - result["precision_numerator"]) < 1e-6
            and abs(r_num - result["recall_numerator"]) < 1e-6)
    print(f"char-set reference (scoring alone, spans in memory): {ref:.3f} s, "
          f"{ref / wall:.1f}x our end-to-end time; identical numerators: {same}")
    if args.official is not None:
        # The organisers' repository (scorer/task2/scorer-subtask-2.py) or a vendored copy of
        # it such as DAMO-NLP-SG/PeerDA's SemEval/SemEval21/evaluation/task-2-semeval21_scorer.py.
        scorer = next((p for p in (args.official / "scorer" / "task2" / "scorer-subtask-2.py",
                                   args.official / "task-2-semeval21_scorer.py") if p.exists()),
                      None)
        if scorer is None:
            raise SystemExit(f"no SemEval-2021 task 6 scorer in {args.official}")
        techniques = args.out / "techniques.txt"
        techniques.write_text("".join(f"{lab}\n" for lab in LABELS), encoding="utf-8")
        cmd = [sys.executable, str(scorer), "-s", str(pred_path), "-r", str(gold_path), "-p",
               str(techniques), "-o"]
        run_child(cmd)  # warm-up
        o_wall, o_rss, o_cpu, o_out = measure(cmd, args.repeat)
        # -o prints "F1<TAB>P<TAB>R<TAB>" then the per-technique F1s, at 6 decimals.
        official = [float(x) for x in o_out.split()[:3]]
        ours = [result["f1"], result["precision"], result["recall"]]
        agree = all(abs(a - b) < 5e-7 for a, b in zip(official, ours, strict=True))
        print(f"official scorer: {o_wall:.3f} s wall, {o_cpu:.3f} s CPU, peak RSS {o_rss:.0f} "
              f"MiB ({o_wall / wall:.1f}x our wall time, {o_cpu / cpu:.1f}x our CPU time); "
              f"F1, P, R official {official}, ours {[round(x, 6) for x in ours]}: "
              f"{'the same' if agree else 'DIFFERENT'}")
    if args.skip_formats:
        return
    print("\nreading one file (core.formats.load_path in a fresh process): wall, peak RSS")
    rows = [("semeval2021", gold_path)]
    rows.extend(write_other_formats(args.out, gold, args.format_scale).items())
    for fmt, path in rows:
        mb = path.stat().st_size / 2**20
        # Through the measuring parent: a child forked from this (large) process would count
        # this process's pages in its own peak.
        _, l_rss, l_cpu, l_out = measure([sys.executable, "-c", _LOAD, str(path),
                                          "spans-csv" if fmt.startswith("spans") else fmt],
                                         args.repeat)
        l_wall, spans = l_out.split()
        print(f"  {fmt:<12} {mb:6.1f} MiB file, {int(spans):>9,} spans: {float(l_wall):6.2f} s "
              f"(CPU {l_cpu:.2f} s), peak RSS {l_rss:6.0f} MiB ({l_rss / mb:.1f}x the file)")


if __name__ == "__main__":
    main()
