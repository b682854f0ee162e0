"""``errors GOLD PRED [--level L]``: every span's error category (:mod:`core.analysis.errors`),
counted overall and per label; ``--spans`` lists the spans too. See ``docs/errors.md``."""

from __future__ import annotations

import argparse

from core.analysis.errors import categorise
from core.cli.common import Subparsers, add_output_options, command_parser, emit, read_options
from core.cli.loading import add_system_arguments, load_systems
from core.cli.render import render_errors
from core.model import bounds
from core.model.errors import Diagnostic, format_ids
from core.model.sets import AnnotationSet
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


def absent_documents(gold: AnnotationSet, pred: AnnotationSet, gold_source: str,
                     pred_source: str) -> list[Diagnostic]:
    """A warning when ``pred`` covers only some of the gold's documents. ``errors`` and
    ``report`` then take the absent documents as unpredicted, their reference spans missed,
    as NLP4IF-2019 FLC and SemEval-2020 SI count articles missing from a submission
    (``docs/errors.md``; ``score`` refuses with SemEval-2021's identical-documents rule)."""
    if len(pred.table.doc_ids) == len(gold.table.doc_ids):  # a document too many is refused
        return []
    absent = set(gold.table.doc_ids) - set(pred.table.doc_ids)
    if not absent:
        return []
    n = len(gold.table.doc_ids)
    return [Diagnostic(pred_source, f"covers {n - len(absent)} of the {n} documents of "
                       f"{gold_source}; the {len(absent)} absent ({format_ids(absent)}) count "
                       "as unpredicted: their reference spans are missed",
                       kind="absent-documents")]


def run(args: argparse.Namespace) -> int:
    taxonomy = load_taxonomy(args.taxonomy) if args.taxonomy else None
    inputs = load_systems(args.gold, [args.pred], gold_format=args.gold_format,
                          pred_format=args.pred_format,
                          options=read_options(args, beyond_text=bounds.from_args(args)),
                          gold_set=args.gold_set, pred_set=args.pred_set)
    table = categorise(inputs.gold, inputs.systems[0], level=args.level, taxonomy=taxonomy)
    absent = absent_documents(inputs.gold, inputs.systems[0], args.gold, args.pred)
    emit(table.to_dict(spans=args.spans), args, render_errors, [*inputs.warnings, *absent])
    return 0
