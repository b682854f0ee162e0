"""``python -m core errors GOLD PRED [--level L] [--json]``: the error-category table.

Kept apart from ``core/cli.py`` so that the command line's dispatcher only registers it
(:func:`add_parser`) and calls :func:`run`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.analysis.errors import PREDICTION_CATEGORIES, REFERENCE_CATEGORIES, categorise
from core.formats import FORMATS, ReadOptions, load_path


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``errors`` subcommand on ``subparsers`` (an argparse subparsers action)."""
    fmts = sorted(FORMATS)
    p: argparse.ArgumentParser = subparsers.add_parser(
        "errors", help="error categories of every span (correct, label, boundary, ...)",
        description="Categorise every reference and predicted span: correct, label, boundary, "
        "boundary+label, missed, spurious (and optional: an unpredicted gold span offering ⊥). "
        "See docs/errors.md.")
    p.add_argument("gold", metavar="GOLD", help="reference file or folder")
    p.add_argument("pred", metavar="PRED", help="prediction file or folder")
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level the labels are compared at (default 2)")
    p.add_argument("--gold-format", choices=fmts, help="override format detection for GOLD")
    p.add_argument("--pred-format", choices=fmts, help="override format detection for PRED")
    p.add_argument("--taxonomy", metavar="FILE",
                   help="MAFALDA-style grouping of labels into levels (JSON)")
    p.add_argument("--spans", action="store_true",
                   help="also list every span with its category (JSON: key 'spans')")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def compute(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON object of the command (reads both files; raises SpanScopeError on bad input)."""
    from core.taxonomy import load as load_taxonomy

    tax = load_taxonomy(args.taxonomy) if args.taxonomy else None
    gold_l = load_path(args.gold, fmt=args.gold_format, options=ReadOptions(role="gold"))
    pred_l = load_path(args.pred, fmt=args.pred_format,
                       options=ReadOptions(role="system", gold_doc_ids=gold_l.set.doc_ids))
    table = categorise(gold_l.set, pred_l.set, level=args.level, taxonomy=tax)
    out = table.to_dict(spans=args.spans)
    out["warnings"] = [str(d) for d in gold_l.diagnostics + pred_l.diagnostics]
    return out


def render_text(result: dict[str, Any]) -> str:
    """The overall table (reference and prediction columns), then one row per label."""
    ref, pred = result["overall"]["reference"], result["overall"]["prediction"]
    lines = [f"Error categories of {result['system']} against {result['reference']} "
             f"(level {result['level']}, {result['documents']} documents)",
             f"  {'category':<16}{'reference':>10}{'prediction':>12}"]
    for cat in result["categories"]:
        r = ref.get(cat, "-")
        p = pred.get(cat, "-")
        lines.append(f"  {cat:<16}{r!s:>10}{p!s:>12}")
    lines.append(f"  {'total':<16}{ref['total']:>10}{pred['total']:>12}")
    dup = result["duplicates"]
    if dup["reference"] or dup["prediction"]:
        lines.append(f"  duplicates (counted above too): reference {dup['reference']}, "
                     f"prediction {dup['prediction']}")
    if result["per_label"]:
        cats = list(result["categories"])
        width = max(12, *(len(lab) for lab in result["per_label"])) + 2
        lines.append("")
        lines.append("per label (reference/prediction):")
        lines.append("  " + f"{'label':<{width}}" + "".join(f"{c:>16}" for c in cats))
        for lab, v in result["per_label"].items():
            cells = []
            for c in cats:
                r = v["reference"].get(c) if c in REFERENCE_CATEGORIES else None
                p = v["prediction"].get(c) if c in PREDICTION_CATEGORIES else None
                cells.append(f"{'-' if r is None else r}/{'-' if p is None else p}")
            lines.append("  " + f"{lab[:width - 1]:<{width}}" + "".join(f"{x:>16}" for x in cells))
    for w in result.get("warnings") or []:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``errors``; SpanScopeError propagates to the dispatcher (exit 1, one line)."""
    result = compute(args)
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_text(result))
    return 0
