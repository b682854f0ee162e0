"""``explain GOLD PRED --metric NAME --doc ID``: what each span of one document contributes,
from the metric's registered ``explain`` (built by the pass that scores)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.common import Subparsers, command_parser, emit
from core.cli.loading import add_set_options, load_span_inputs
from core.cli.render import renderer_for
from core.cli.score import add_input_options, metrics_epilog
from core.metrics import registry
from core.model.errors import UsageError
from core.model.sets import AnnotationSet

NAME = "explain"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "per-span contributions for one document",
                       "Show every scored span pair of one document.", epilog=metrics_epilog())
    add_input_options(p)
    add_set_options(p)
    p.add_argument("--doc", required=True, metavar="ID", help="document id")
    return p


def _fragment(text: str | None, start: Any, end: Any) -> str | None:
    if text is None or not isinstance(start, int) or not isinstance(end, int):
        return None
    return text[start:end]


def add_fragments(result: dict[str, Any], text: str | None) -> None:
    """Add each row's text fragment (``None`` when the document's text is unknown): the
    ``rows`` of a pair table get ``pred_text`` and ``gold_text``, the ``predictions`` and
    ``gold`` rows of a best-match explanation get ``text``. Keys are only added (the ``--json``
    contract)."""
    for row in result.get("rows") or []:
        if isinstance(row, dict):
            row["pred_text"] = _fragment(text, row.get("pred_start"), row.get("pred_end"))
            row["gold_text"] = _fragment(text, row.get("gold_start"), row.get("gold_end"))
    for key in ("predictions", "gold"):
        for row in result.get(key) or []:
            if isinstance(row, dict):
                row["text"] = _fragment(text, row.get("start"), row.get("end"))


def run(args: argparse.Namespace) -> int:
    metric = registry.get(args.metric)
    if metric.explain is None or metric.input != "spans":
        raise UsageError(f"the metric {args.metric!r} has no per-span explanation")
    metric.keywords(variant=args.variant, level=args.level)
    inputs = load_span_inputs(args, metric)
    gold, pred = inputs.gold, inputs.pred
    if gold.doc_ids != pred.doc_ids and args.doc in gold.spans and args.doc in pred.spans:
        # one document both files hold is explained whatever else either lacks (issue 29)
        gold, pred = (AnnotationSet(s.name, {args.doc: s.get(args.doc)}, s.role,
                                    s.alternatives) for s in (gold, pred))
    explanation = metric.explain(gold, pred, args.doc,
                                 **metric.keywords(**inputs.options(args)))
    result = explanation.to_dict()
    add_fragments(result, inputs.texts.get(args.doc))
    own = result.get("warnings") or []
    assert isinstance(own, list)
    result["warnings"] = []
    emit(result, args, renderer_for(args.metric), [*inputs.warnings, *map(str, own)])
    return 0
