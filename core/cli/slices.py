"""``slices GOLD PRED [PRED ...] --dimension D``: each system's scores per bucket of one
dimension (span length, label, document length, metadata field), with bootstrap intervals over
documents (:mod:`core.analysis.slices`). See ``docs/errors.md``."""

from __future__ import annotations

import argparse

from core.analysis.slices import (
    DIMENSIONS,
    META_PREFIX,
    META_RULE,
    METRICS,
    check_dimension,
    meta_plan,
    skipped_note,
    slice_scores,
)
from core.cli.common import (
    Result,
    Subparsers,
    add_output_options,
    command_parser,
    emit,
    read_options,
)
from core.cli.loading import add_system_arguments, load_metadata, load_systems
from core.cli.render import render_slices
from core.model import bounds

NAME = "slices"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(
        subparsers, NAME, "scores per bucket (span length, label, document length, metadata...)",
        "Score each system per bucket of one dimension, with bootstrap intervals over "
        "documents. See docs/errors.md.")
    add_system_arguments(p, many=True)
    p.add_argument("--dimension", required=True, metavar="NAME",
                   help=f"one of {', '.join(DIMENSIONS)}, or meta:FIELD for a metadata field "
                   f"({META_RULE})")
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
    add_output_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    inputs = load_systems(args.gold, args.preds, gold_format=args.gold_format,
                          pred_format=args.pred_format,
                          options=read_options(args, beyond_text=bounds.from_args(args)))
    meta = load_metadata(args.gold, args.meta)
    check_dimension(args.dimension, meta, inputs.gold.doc_ids, source=args.meta or args.gold)
    if args.dimension.startswith(META_PREFIX):
        # The other fields a user may have meant: which were left out, and why.
        inputs.warnings.extend(skipped_note(f) for f in meta_plan(meta, inputs.gold.doc_ids)
                               if f.kind == "skipped")
    rows: list[object] = []
    for pred in inputs.systems:
        for b in slice_scores(inputs.gold, pred, dimension=args.dimension, metric=args.metric,
                              variant=args.variant, level=args.level, texts=inputs.texts,
                              metadata=meta, n_buckets=args.buckets, n_resamples=args.samples,
                              seed=args.seed):
            rows.append({"system": pred.name, **b.as_row(one_document_bounds=False)})
    result: Result = {"command": NAME, "dimension": args.dimension, "metric": args.metric,
                      "variant": args.variant, "level": args.level, "samples": args.samples,
                      "seed": args.seed, "buckets": rows}
    emit(result, args, render_slices, inputs.warnings)
    return 0
