"""Benchmark: ``score --engine dask`` on Parquet shards, up to 10,000,000 spans per side.

Generates a corpus of small documents (200 characters, 10 gold and 10 predicted spans each,
1-40 characters, the 20 SemEval-2021 techniques; predictions near the gold, some shifted, some
relabelled) as Parquet shards of ``--shard-spans`` spans per side (``gold/part-NNNNN.parquet``
with a texts table, ``pred/part-NNNNN.parquet``), written with pyarrow directly. Then, per size:

* ``python -m core score GOLD PRED --metric martino --json --engine dask --workers W`` (a
  ``distributed.LocalCluster`` of W processes, one thread each): wall time, the client's peak
  RSS, and each worker's peak RSS (the ``engine`` key of the output);
* the single-machine run on the same folders (the Parquet reader reads a folder of shards as one
  input) where it fits (``--single-max``): wall time and peak RSS; both runs must give the same
  P, R, F1 (to 1e-12), which the bench checks.

Texts hold no whitespace, so no warnings are produced (a real corpus's warnings are counted by
kind per shard and cost little). Run:
``python bench/bench_dask.py [--sizes 1000000,10000000] [--workers 2] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.metrics.martino import technique_list  # noqa: E402

TEXT_LENGTH = 200
PER_DOC = 10
RUNNER = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from core.cli import main
t0 = time.perf_counter()
code = main(sys.argv[1:])
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"code": code, "wall": wall, "peak_mib": peak}}), file=sys.stderr)
"""


def generate(folder: Path, spans: int, shard_spans: int, seed: int = 0) -> int:
    """Write ``spans`` gold and ``spans`` predicted spans as shards; the number of shards."""
    labels = np.array(technique_list("semeval2021"), dtype=object)
    rng = np.random.default_rng(seed)
    text = ("abcdefghij" * (TEXT_LENGTH // 10 + 1))[:TEXT_LENGTH]
    (folder / "gold").mkdir(parents=True, exist_ok=True)
    (folder / "pred").mkdir(parents=True, exist_ok=True)
    n_shards = math.ceil(spans / shard_spans)
    first_doc = 0
    for k in range(n_shards):
        n = min(shard_spans, spans - k * shard_spans)
        docs = n // PER_DOC
        ids = np.array([f"d{first_doc + i:09d}" for i in range(docs)], dtype=object)
        first_doc += docs
        doc_col = np.repeat(ids, PER_DOC)
        length = rng.integers(1, 41, size=docs * PER_DOC)
        start = rng.integers(0, TEXT_LENGTH - length + 1)
        lab = rng.integers(0, len(labels), size=docs * PER_DOC)
        shift = rng.integers(-10, 11, size=docs * PER_DOC)
        p_len = np.maximum(1, length + rng.integers(-5, 6, size=docs * PER_DOC))
        p_start = np.clip(start + shift, 0, TEXT_LENGTH - p_len)
        p_lab = np.where(rng.random(docs * PER_DOC) < 0.7, lab,
                         rng.integers(0, len(labels), size=docs * PER_DOC))
        name = f"part-{k:05d}"
        for side, s, e, lb in (("gold", start, start + length, lab),
                               ("pred", p_start, p_start + p_len, p_lab)):
            table = pa.table({"doc_id": pa.array(doc_col, pa.string()),
                              "start": pa.array(s, pa.int64()), "end": pa.array(e, pa.int64()),
                              "label": pa.array(labels[lb], pa.string())})
            pq.write_table(table, folder / side / f"{name}.parquet")
            texts = pa.table({"doc_id": pa.array(ids, pa.string()),
                              "text": pa.array([text if side == "gold" else None] * docs,
                                               pa.string())})
            pq.write_table(texts, folder / side / f"{name}.texts.parquet")
    return n_shards


def run(argv: list[str]) -> tuple[dict[str, object], dict[str, object]]:
    """Run the command line in a fresh process: its JSON output and its wall time and peak."""
    proc = subprocess.run([sys.executable, "-c", RUNNER.format(root=str(ROOT)), *argv],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    stats = json.loads(proc.stderr.strip().splitlines()[-1])
    if stats["code"] != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{proc.stderr}")
    return json.loads(proc.stdout), stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000000,10000000",
                    help="spans per side, comma-separated (default 1,000,000 and 10,000,000)")
    ap.add_argument("--shard-spans", type=int, default=250_000,
                    help="spans per side in one shard (default 250,000)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--single-max", type=int, default=2_000_000,
                    help="largest size also run on one machine (default 2,000,000)")
    ap.add_argument("--out", default="/tmp/spanscope-bench-dask")
    ap.add_argument("--keep", action="store_true", help="keep the generated shards")
    args = ap.parse_args()
    out = Path(args.out)
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        folder = out / f"spans-{size}"
        shutil.rmtree(folder, ignore_errors=True)
        t0 = time.perf_counter()
        shards = generate(folder, size, args.shard_spans)
        gen = time.perf_counter() - t0
        disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20
        common = ["score", str(folder / "gold"), str(folder / "pred"), "--metric", "martino",
                  "--json"]
        dask_out, dask_stats = run([*common, "--engine", "dask", "--workers",
                                    str(args.workers)])
        row: dict[str, object] = {
            "spans_per_side": size, "documents": size // PER_DOC, "shards": shards,
            "disk_mib": round(disk, 1), "generate_s": round(gen, 1),
            "dask_wall_s": round(float(str(dask_stats["wall"])), 1),
            "dask_client_peak_mib": round(float(str(dask_stats["peak_mib"]))),
            "dask_worker_peak_mib": dask_out["engine"]["worker_peak_rss_mib"],  # type: ignore
            "dask_seconds": dask_out["engine"]["seconds"],  # type: ignore[index]
            "f1": dask_out["f1"]}
        if size <= args.single_max:
            single_out, single_stats = run(common)
            for key in ("precision", "recall", "f1"):
                assert math.isclose(float(str(single_out[key])), float(str(dask_out[key])),
                                    rel_tol=1e-12, abs_tol=1e-12), key
            row["single_wall_s"] = round(float(str(single_stats["wall"])), 1)
            row["single_peak_mib"] = round(float(str(single_stats["peak_mib"])))
        rows.append(row)
        print(json.dumps(row), flush=True)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    print()
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; {time.strftime('%Y-%m-%d', time.gmtime())}")
    print("| spans per side | documents | shards | on disk | dask wall | client peak | "
          "worker peaks | one machine wall | one machine peak |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        peaks = ", ".join(f"{v:.0f}" for v in dict(r["dask_worker_peak_mib"]).values())  # type: ignore
        single = (f"{r['single_wall_s']} s | {r['single_peak_mib']} MiB" if "single_wall_s" in r
                  else "not run | not run")
        print(f"| {r['spans_per_side']:,} | {r['documents']:,} | {r['shards']} | "
              f"{r['disk_mib']} MiB | {r['dask_wall_s']} s | {r['dask_client_peak_mib']} MiB | "
              f"{peaks} MiB | {single} |")


if __name__ == "__main__":
    main()
