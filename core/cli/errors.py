"""``errors GOLD PRED [--level L]``: every span's error category (:mod:`core.analysis.errors`),
counted overall and per label; ``--spans`` lists the spans too. See ``docs/errors.md``."""

from __future__ import annotations

import argparse

from core.analysis.errors import categorise
from core.cli.common import Subparsers, add_output_options, command_parser, emit, read_options
from core.cli.loading import add_system_arguments, load_systems
from core.cli.render import render_errors
from core.model import bounds
from core.model.taxonomy import load as load_taxonomy

NAME = "errors"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(
        subparsers, NAME, "error categories of every span (correct, label, boundary, ...)",
        "Categorise every reference and predicted span: correct, label, boundary, "
        "boundary+label, missed, spurious (and optional: an unpredicted gold span offering ⊥). "
        "See docs/errors.md.")
    add_system_arguments(p, many=False)
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level the labels are compared at (default 2)")
    p.add_argument("--taxonomy", metavar="FILE",
                   help="MAFALDA-style grouping of labels into levels (JSON)")
    p.add_argument("--spans", action="store_true",
                   help="also list every span with its category (JSON: key 'spans')")
    add_output_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    taxonomy = load_taxonomy(args.taxonomy) if args.taxonomy else None
    inputs = load_systems(args.gold, [args.pred], gold_format=args.gold_format,
                          pred_format=args.pred_format,
                          options=read_options(args, beyond_text=bounds.from_args(args)),
                          gold_set=args.gold_set, pred_set=args.pred_set)
    table = categorise(inputs.gold, inputs.systems[0], level=args.level, taxonomy=taxonomy)
    emit(table.to_dict(spans=args.spans), args, render_errors, inputs.warnings)
    return 0
