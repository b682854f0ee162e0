"""Benchmark: reading and writing the issue-19 formats on a generated corpus.

2,000 documents of 20 sentences x 12 tokens (about 2.4 M characters), 8 spans per sentence
boundary-aligned: written as WebAnno TSV (an export of three annotators, 42 MB: issue 29's
"WebAnno TSV 42 MB < 3 s"), CoNLL, spaCy JSONL and read back; reading's wall and CPU time.

``--label-studio``: Label Studio's three exports of one generated project instead (issue 29,
seventh pass): 10,000 tasks of about 600 characters, 100,000 span labels in all, one to three
annotators per task (a few annotations cancelled, some with a choice beside the spans) and a
model's predictions on a tenth of the tasks, written as the full JSON export (with the
metadata Label Studio 1.x writes), the JSON-MIN export and the CSV export (the shapes of
``tests/data/formats/label-studio/converter_*``). Each file is read by
``core.formats.load_path`` in a fresh process of each checkout given (``--root``, repeatable,
rounds interleaved, the order alternating), beside the floor of the same file in its own
process: ``json.load`` (for the CSV, ``csv.reader`` and ``json.loads`` of its cells of span
values). Printed: medians of the whole process's CPU (user + system) and peak RSS, the read's
own CPU inside the process (after the imports) against ``json.load``'s, and a digest of the
texts, sets and warnings read, the same for every checkout when the results are.

Run: ``python bench/bench_tool_formats.py [--label-studio [--tasks 10000] [--spans 100000]
[--repeat 5] [--root DIR ...] [--out /tmp/bench_ls]]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.formats import ReadOptions, load_files, write_files
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parent.parent
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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label-studio", action="store_true",
                    help="Label Studio's JSON, JSON-MIN and CSV exports against json.load")
    ap.add_argument("--tasks", type=int, default=10_000)
    ap.add_argument("--spans", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--root", action="append", type=Path,
                    help="a checkout to read with (repeatable; default this one)")
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench_ls"))
    args = ap.parse_args()
    if args.label_studio:
        label_studio_bench(args)
        return
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


LS_LABELS = ["Loaded Language", "Name Calling", "Exaggeration", "Doubt", "Flag-Waving",
             "Slogans", "Repetition", "Whataboutism"]
LS_WORDS = ["the", "council", "promised", "cheaper", "ferries", "islanders", "call", "it", "a",
            "fairy", "tale", "tickets", "doubled", "again", "and", "nobody", "at", "harbour",
            "office", "will", "say", "why", "disgrace", "every", "family", "knows"]


def label_studio_tasks(n_tasks: int, n_spans: int, seed: int = 29) -> list[dict[str, Any]]:
    """A Label Studio project as its full JSON export: ``n_tasks`` tasks, ``n_spans`` span
    labels over all annotations and predictions (some with two labels), one annotator for most
    tasks and two or three for one in four (one in fifty annotations cancelled), a choice beside
    the spans in one annotation in five, predictions of one model on one task in ten."""
    rnd = random.Random(seed)
    people = [{"id": k, "email": f"annotator{k}@example.org", "first_name": "", "last_name": ""}
              for k in range(1, 6)]
    plan: list[list[str]] = []  # per task, who annotated ("" for the model)
    for _ in range(n_tasks):
        who = rnd.sample(range(1, 6), rnd.choice((1, 1, 1, 2, 3)))
        plan.append([str(w) for w in who] + ([""] if rnd.random() < 0.1 else []))
    slots = sum(map(len, plan))
    per, extra = divmod(n_spans, slots)
    tasks: list[dict[str, Any]] = []
    ann_id, res_id, k = 0, 0, 0
    for t, owners in enumerate(plan):
        words: list[str] = []
        size = 0
        while size < 600:
            words.append(rnd.choice(LS_WORDS))
            size += len(words[-1]) + 1
        text = " ".join(words).capitalize() + "."
        starts = [0]
        for w in words[:-1]:
            starts.append(starts[-1] + len(w) + 1)
        annotations, predictions = [], []
        for owner in owners:
            count = per + (1 if k < extra else 0)
            k += 1
            result: list[dict[str, Any]] = []
            made = 0
            while made < count:
                i = rnd.randrange(len(words) - 3)
                j = i + rnd.randrange(1, 4)
                start, end = starts[i], starts[j] + len(words[j])
                labels = rnd.sample(LS_LABELS, 1 if rnd.random() < 0.9 or made + 2 > count
                                    else 2)
                made += len(labels)
                res_id += 1
                result.append({"value": {"start": start, "end": end, "text": text[start:end],
                                         "labels": labels},
                               "id": f"r{res_id:07x}", "from_name": "label", "to_name": "text",
                               "type": "labels", "origin": "manual"})
            ann_id += 1
            stamp = f"2026-0{1 + ann_id % 9}-{1 + ann_id % 28:02d}T10:{ann_id % 60:02d}:00.000000Z"
            if owner == "":
                predictions.append({"id": ann_id, "model_version": "crf-2026-11",
                                    "created_ago": "3 days", "score": round(rnd.random(), 4),
                                    "cluster": None, "neighbors": None, "mislabeling": 0.0,
                                    "created_at": stamp, "updated_at": stamp, "model": None,
                                    "model_run": None, "task": t + 1, "project": 3,
                                    "result": result})
                continue
            if rnd.random() < 0.2:
                result.append({"value": {"choices": [rnd.choice(("angry", "calm"))]},
                               "id": f"c{ann_id:07x}", "from_name": "tone",
                               "to_name": "text", "type": "choices", "origin": "manual"})
            annotations.append({
                "id": ann_id, "completed_by": people[int(owner) - 1],
                "result": result, "was_cancelled": rnd.random() < 0.02,
                "ground_truth": False, "created_at": stamp, "updated_at": stamp,
                "draft_created_at": None, "lead_time": round(rnd.uniform(5, 300), 3),
                "prediction": {}, "result_count": 0, "unique_id": f"u{ann_id:031x}",
                "import_id": None, "last_action": None, "task": t + 1, "project": 3,
                "updated_by": int(owner), "parent_prediction": None,
                "parent_annotation": None, "last_created_by": None})
        tasks.append({
            "id": t + 1, "annotations": annotations, "file_upload": "a1b2c3-tasks.json",
            "drafts": [], "predictions": predictions,
            "data": {"text": text, "source": f"radio transcript {t % 97}"},
            "meta": {}, "created_at": "2026-01-05T09:00:00.000000Z",
            "updated_at": "2026-11-20T17:00:00.000000Z", "inner_id": t + 1,
            "total_annotations": len(annotations), "cancelled_annotations": 0,
            "total_predictions": len(predictions), "comment_count": 0,
            "unresolved_comment_count": 0, "last_comment_updated_at": None, "project": 3,
            "updated_by": 1, "comment_authors": []})
    return tasks


def label_studio_exports(tasks: list[dict[str, Any]], folder: Path) -> dict[str, Path]:
    """The full JSON, JSON-MIN and CSV exports of ``tasks`` (as Label Studio's converter writes
    them: JSON-MIN a record per annotation with the task's data fields at the top, cancelled
    annotations and predictions left out; the CSV the same records, sorted column names,
    strings quoted, numbers not, control tags' values as compact JSON)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"json": folder / "ls_export.json", "json-min": folder / "ls_export_min.json",
             "csv": folder / "ls_export.csv"}
    paths["json"].write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    records: list[dict[str, Any]] = []
    for task in tasks:
        for ann in task["annotations"]:
            if ann["was_cancelled"]:
                continue
            record: dict[str, Any] = dict(task["data"])
            record["id"] = task["id"]
            for res in ann["result"]:
                if res["type"] == "labels":
                    record.setdefault("label", []).append(res["value"])
                else:
                    record[res["from_name"]] = {"choices": res["value"]["choices"]}
            record.update(annotator=ann["completed_by"]["email"], annotation_id=ann["id"],
                          created_at=ann["created_at"], updated_at=ann["updated_at"],
                          lead_time=ann["lead_time"])
            records.append(record)
    paths["json-min"].write_text(json.dumps(records, indent=2), encoding="utf-8")
    header = sorted({key for record in records for key in record})
    with paths["csv"].open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC)
        out.writerow(header)
        for record in records:
            out.writerow(
                ["" if key not in record else json.dumps(record[key], separators=(",", ":"))
                 if isinstance(record[key], (list, dict)) else record[key] for key in header])
    return paths


_LS_READ = """
import hashlib, json, sys, time
from core.formats import load_path
from core.model.errors import expand_diagnostics
c0 = time.process_time()
loaded = load_path(sys.argv[1], fmt="label-studio")
cpu = time.process_time() - c0
if len(sys.argv) < 3:  # a measured run: the digest only in the warm-up run
    print(cpu, sum(s.span_count() for s in loaded.sets))
    sys.exit()
warnings = [(w.message, w.line, w.field, w.path) for w in expand_diagnostics(loaded.diagnostics)]
digest = hashlib.sha256(repr((sorted(loaded.texts.items()), [(s.name, s.role, sorted(
    (d, tuple(v)) for d, v in s.spans.items())) for s in loaded.sets], warnings)).encode())
print(cpu, sum(s.span_count() for s in loaded.sets), len(loaded.sets), len(warnings),
      digest.hexdigest()[:12])
"""
"""Read one export in a fresh process: the read's CPU and spans; with a second argument (the
warm-up run) its sets, warnings and a digest of what it read too, which is not timed."""

_LS_FLOOR = """
import csv, io, json, sys, time
c0 = time.process_time()
with open(sys.argv[1], encoding="utf-8") as fh:
    if sys.argv[1].endswith(".csv"):
        for row in csv.reader(io.StringIO(fh.read(), newline="")):
            for cell in row:
                if cell.startswith(("[{", "{")):
                    json.loads(cell)
    else:
        json.load(fh)
print(time.process_time() - c0)
"""
"""The floor of one export: ``json.load`` (a CSV: its rows and its cells of JSON)."""


def label_studio_bench(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_read import _CHILD, CHILD_ENV

    tasks = label_studio_tasks(args.tasks, args.spans)
    paths = label_studio_exports(tasks, args.out)
    annotations = sum(len(t["annotations"]) for t in tasks)
    print(f"corpus: {args.tasks} tasks, {annotations} annotations, {args.spans} span labels "
          f"(annotations and predictions) in {args.out}; "
          + ", ".join(f"{fmt} {p.stat().st_size / 2**20:.1f} MiB" for fmt, p in paths.items()))
    roots = [r.resolve() for r in (args.root or [ROOT])]

    def run(root: Path | None, code: str, path: Path, *extra: str
            ) -> tuple[float, float, float, str]:
        """Whole-process CPU, peak RSS (MiB), in-process CPU and the rest of its line."""
        env = dict(CHILD_ENV, PYTHONPATH=str(root or ROOT))
        proc = subprocess.run([sys.executable, "-c", _CHILD, sys.executable, "-c", code,
                               str(path), *extra], cwd=root or ROOT, capture_output=True,
                              env=env)
        if proc.returncode:
            raise SystemExit(f"{root} {path} failed: {proc.stderr.decode()[-2000:]}")
        line, usage = proc.stdout.decode().splitlines()[-2:]
        info = json.loads(usage)
        inner, *rest = line.split()
        return info["cpu"], info["maxrss_mib"], float(inner), " ".join(rest)

    sides: list[Path | None] = [None, *roots]  # None: the floor
    samples: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    results: dict[tuple[str, Path], str] = {}
    for fmt, path in paths.items():  # warm-up: bytecode written, files in the page cache
        run(None, _LS_FLOOR, path)
        for root in roots:
            results[(fmt, root)] = run(root, _LS_READ, path, "digest")[3]
    for r in range(args.repeat):
        order = sides if r % 2 == 0 else sides[::-1]
        for fmt, path in paths.items():
            for side in order:
                samples.setdefault((fmt, str(side or "floor")), []).append(
                    run(side, _LS_FLOOR if side is None else _LS_READ, path)[:3])
    print(f"medians of {args.repeat} interleaved rounds; CPU: user + system of the whole "
          "process; read: CPU inside the process after its imports; x: against the floor's\n")
    print(f"{'export':<9} {'reader':<28} {'CPU s':>6} {'x':>5} {'read s':>7} {'x':>5} "
          f"{'RSS MiB':>8}  result")
    for fmt in paths:
        floor = samples[(fmt, "floor")]
        f_cpu, f_rss, f_in = (statistics.median(x[k] for x in floor) for k in range(3))
        print(f"{fmt:<9} {'floor (json.load)' if fmt != 'csv' else 'floor (csv + json.loads)':<28}"
              f" {f_cpu:6.3f} {1:5.2f} {f_in:7.3f} {1:5.2f} {f_rss:8.0f}")
        for root in roots:
            got = samples[(fmt, str(root))]
            cpu, rss, inner = (statistics.median(x[k] for x in got) for k in range(3))
            name = str(root) if len(str(root)) <= 28 else "…" + str(root)[-27:]
            print(f"{'':<9} {name:<28} {cpu:6.3f} {cpu / f_cpu:5.2f} {inner:7.3f} "
                  f"{inner / f_in:5.2f} {rss:8.0f}  {results[(fmt, root)]}")
    print("\n(result: spans, sets, warnings, digest of texts, spans and warnings)")


if __name__ == "__main__":
    main()
