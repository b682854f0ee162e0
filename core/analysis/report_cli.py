"""``python -m core report GOLD PRED [PRED ...] -o report.html``: the self-contained report.

Registered by the command line's dispatcher through :func:`add_parser` and :func:`run`. The
report is built in :mod:`core.analysis.report` (inline SVG, no plotly, no script).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from core.analysis.report import ReportInputs, build_report
from core.analysis.slices_cli import load_metadata
from core.errors import InputError
from core.formats import FORMATS, ReadOptions, load_path


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    fmts = sorted(FORMATS)
    p: argparse.ArgumentParser = subparsers.add_parser(
        "report", help="write a self-contained HTML error-analysis report",
        description="Scores with intervals, error categories, slices, label confusion and the "
        "worst documents of every system, in one HTML file that needs no network.")
    p.add_argument("gold", metavar="GOLD", help="reference file or folder")
    p.add_argument("preds", nargs="+", metavar="PRED", help="prediction files or folders")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file")
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level (default 2)")
    p.add_argument("--meta", metavar="FILE", help="CSV of document metadata (an id column)")
    p.add_argument("--samples", type=int, default=1000,
                   help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--title", default="SpanScope error report", help="the report's title")
    p.add_argument("--gold-format", choices=fmts, help="override format detection for GOLD")
    p.add_argument("--pred-format", choices=fmts, help="override format detection for PRED")
    return p


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this report, every option spelled out."""
    argv = ["python", "-m", "core", "report", args.gold, *args.preds, "-o", args.output,
            "--level", str(args.level), "--samples", str(args.samples), "--seed",
            str(args.seed)]
    if args.meta:
        argv += ["--meta", args.meta]
    if args.title != "SpanScope error report":
        argv += ["--title", args.title]
    for flag, value in (("--gold-format", args.gold_format), ("--pred-format", args.pred_format)):
        if value:
            argv += [flag, value]
    return shlex.join(argv)


def run(args: argparse.Namespace) -> int:
    if args.samples < 1:
        raise InputError(f"--samples must be positive, got {args.samples}")
    gold_l = load_path(args.gold, fmt=args.gold_format, options=ReadOptions(role="gold"))
    systems = []
    for path in args.preds:
        pred_l = load_path(path, fmt=args.pred_format,
                           options=ReadOptions(role="system", gold_doc_ids=gold_l.set.doc_ids))
        for d in pred_l.diagnostics:
            print(f"warning: {d}", file=sys.stderr)
        systems.append(pred_l.set)
    names = [s.name for s in systems]
    if len(set(names)) < len(names):
        raise InputError(f"two prediction files give the same system name ({', '.join(names)}); "
                         "rename one")
    html = build_report(ReportInputs(gold_l.set, systems, gold_l.texts, args.level,
                                     load_metadata(args.gold, args.meta), None, args.samples,
                                     args.seed), command=command_line(args), title=args.title)
    out = Path(args.output)
    out.write_text(html, encoding="utf-8")
    print(f"wrote {out} ({len(html.encode('utf-8')) / 1024:.0f} KiB)", file=sys.stderr)
    return 0
