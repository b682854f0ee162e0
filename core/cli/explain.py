"""``explain GOLD PRED --metric NAME --doc ID``: what each span of one document contributes,
from the metric's registered ``explain`` (built by the pass that scores)."""

from __future__ import annotations

import argparse

from core.cli.common import Subparsers, command_parser, emit
from core.cli.loading import load_span_inputs
from core.cli.render import renderer_for
from core.cli.score import add_input_options, metrics_epilog
from core.errors import UsageError
from core.metrics import registry

NAME = "explain"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "per-span contributions for one document",
                       "Show every scored span pair of one document.", epilog=metrics_epilog())
    add_input_options(p)
    p.add_argument("--doc", required=True, metavar="ID", help="document id")
    return p


def run(args: argparse.Namespace) -> int:
    metric = registry.get(args.metric)
    if metric.explain is None or metric.input != "spans":
        raise UsageError(f"the metric {args.metric!r} has no per-span explanation")
    metric.keywords(variant=args.variant, level=args.level)
    inputs = load_span_inputs(args, metric)
    explanation = metric.explain(inputs.gold, inputs.pred, args.doc,
                                 **metric.keywords(**inputs.options(args)))
    result = explanation.to_dict()
    own = result.get("warnings") or []
    assert isinstance(own, list)
    result["warnings"] = []
    emit(result, args, renderer_for(args.metric), [*inputs.warnings, *map(str, own)])
    return 0
