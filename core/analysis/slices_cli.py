"""``python -m core slices GOLD PRED [PRED ...] --dimension D``: scores per bucket with intervals.

Registered by the command line's dispatcher through :func:`add_parser` and :func:`run`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from core.analysis.slices import (
    DIMENSIONS,
    META_PREFIX,
    METRICS,
    dimensions,
    read_meta_csv,
    record_metadata,
    slice_scores,
)
from core.errors import InputError
from core.formats import FORMATS, ReadOptions, load_path


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    fmts = sorted(FORMATS)
    p: argparse.ArgumentParser = subparsers.add_parser(
        "slices", help="scores per bucket (span length, label, document length, metadata...)",
        description="Score each system per bucket of one dimension, with bootstrap intervals "
        "over documents. See docs/errors.md.")
    p.add_argument("gold", metavar="GOLD", help="reference file or folder")
    p.add_argument("preds", nargs="+", metavar="PRED", help="prediction files or folders")
    p.add_argument("--dimension", required=True, metavar="NAME",
                   help=f"one of {', '.join(DIMENSIONS)}, or meta:FIELD for a metadata field")
    p.add_argument("--metric", choices=METRICS, default="martino",
                   help="span metric (default martino)")
    p.add_argument("--variant", help="metric variant (default semeval2021 / paper)")
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level (default 2)")
    p.add_argument("--meta", metavar="FILE",
                   help="CSV of document metadata: an id column and any fields")
    p.add_argument("--buckets", type=int, default=4,
                   help="quantile buckets of the length dimensions (default 4)")
    p.add_argument("--samples", type=int, default=1000,
                   help="bootstrap resamples (default 1000; 0: no intervals)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--gold-format", choices=fmts, help="override format detection for GOLD")
    p.add_argument("--pred-format", choices=fmts, help="override format detection for PRED")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def load_metadata(gold_path: str, meta_path: str | None) -> dict[str, dict[str, str]]:
    """Fields of the reference's own records, overridden by a ``--meta`` CSV."""
    meta = {d: dict(v) for d, v in record_metadata(gold_path).items()}
    if meta_path:
        for doc, fields in read_meta_csv(meta_path).items():
            meta.setdefault(doc, {}).update(fields)
    return meta


def _clean(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def compute(args: argparse.Namespace) -> dict[str, Any]:
    gold_l = load_path(args.gold, fmt=args.gold_format, options=ReadOptions(role="gold"))
    meta = load_metadata(args.gold, args.meta)
    if args.dimension not in dimensions(meta):
        fields = ", ".join(META_PREFIX + f for f in dimensions(meta) if f not in DIMENSIONS)
        raise InputError(f"unknown dimension {args.dimension!r}: expected one of "
                         f"{', '.join(DIMENSIONS)}" + (f" or {fields}" if fields else ""))
    rows: list[dict[str, Any]] = []
    warnings = [str(d) for d in gold_l.diagnostics]
    for path in args.preds:
        pred_l = load_path(path, fmt=args.pred_format,
                           options=ReadOptions(role="system", gold_doc_ids=gold_l.set.doc_ids))
        warnings.extend(str(d) for d in pred_l.diagnostics)
        for b in slice_scores(gold_l.set, pred_l.set, dimension=args.dimension,
                              metric=args.metric, variant=args.variant, level=args.level,
                              texts=gold_l.texts, metadata=meta, n_buckets=args.buckets,
                              n_resamples=args.samples, seed=args.seed):
            rows.append({"system": pred_l.set.name,
                         **{k: _clean(v) for k, v in b.as_row().items()}})
    return {"command": "slices", "dimension": args.dimension, "metric": args.metric,
            "variant": args.variant, "level": args.level, "samples": args.samples,
            "seed": args.seed, "buckets": rows, "warnings": warnings}


def render_text(result: dict[str, Any]) -> str:
    lines = [f"Scores per {result['dimension']} bucket ({result['metric']}); [low, high]: 95% "
             f"bootstrap interval of F1 ({result['samples']} resamples, seed {result['seed']})"]
    lines.append(f"  {'system':<16}{'bucket':<22}{'docs':>6}{'#ref':>6}{'#pred':>6}{'P':>8}"
                 f"{'R':>8}{'F1':>8}  interval")
    for r in result["buckets"]:
        iv = (f"[{r['F1 low']:.3f}, {r['F1 high']:.3f}]" if r.get("F1 low") is not None
              else "")
        lines.append(f"  {r['system'][:15]:<16}{r['bucket'][:21]:<22}{r['documents']:>6}"
                     f"{r['reference spans']:>6}{r['predicted spans']:>6}{r['P']:>8.3f}"
                     f"{r['R']:>8.3f}{r['F1']:>8.3f}  {iv}")
    for w in result.get("warnings") or []:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    result = compute(args)
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_text(result))
    return 0
