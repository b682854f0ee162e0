"""``report GOLD PRED [PRED ...] -o report.html``: the self-contained error-analysis report.

The report is built in :mod:`core.analysis.report` (inline SVG, no plotly, no script); this
command reads the files, writes the HTML and says where on standard error.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from core.analysis.report import ReportInputs, build_report, check_variants
from core.analysis.slices import BOOTSTRAPS, meta_plan, skipped_note
from core.cli.common import (
    Subparsers,
    add_label_options,
    add_llm_parsing,
    add_output,
    command_parser,
    kinded_line,
    read_options,
    with_hint,
)
from core.cli.errors import absent_documents
from core.cli.loading import (
    add_system_arguments,
    label_reading,
    load_metadata,
    load_systems,
    taxonomy_file,
)
from core.formats.atomic import write_file
from core.model import bounds
from core.model.errors import InputError, ParameterError, expand

NAME = "report"
DEFAULT_TITLE = "SpanScope error report"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(
        subparsers, NAME, "write a self-contained HTML error-analysis report",
        "Scores with intervals, error categories, slices, label confusion and the worst "
        "documents of every system, in one HTML file that needs no network.")
    add_system_arguments(p, many=True)
    add_output(p, "-o", "--output", required=True, metavar="FILE", help="the HTML file")
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level (default 2)")
    p.add_argument("--meta", metavar="FILE", help="CSV of document metadata (an id column)")
    p.add_argument("--samples", type=int, default=1000,
                   help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--bootstrap", choices=BOOTSTRAPS, default="per-slice",
                   help="the slices' intervals: per-slice (default) resamples each bucket's "
                   "documents; shared draws the corpus's documents once for every bucket "
                   "(fewer draws, different intervals; docs/report.md)")
    p.add_argument("--variant", action="append", default=[], metavar="METRIC=VARIANT",
                   help="score METRIC in VARIANT (repeatable, e.g. martino=semeval2020-tc "
                   "mafalda=metrics-py; default: each metric's first, see score --help); "
                   "martino's also drives the slices and the worst documents")
    p.add_argument("--title", default=DEFAULT_TITLE, help="the report's title")
    add_label_options(p)
    add_llm_parsing(p)
    return p


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this report, every option spelled out."""
    argv = ["python", "-m", "core", "report", args.gold, *args.preds, "-o", args.output,
            "--level", str(args.level), "--samples", str(args.samples), "--seed",
            str(args.seed)]
    if args.meta:
        argv += ["--meta", args.meta]
    if args.bootstrap != "per-slice":  # the default report's command stays as it was
        argv += ["--bootstrap", args.bootstrap]
    for value in args.variant:
        argv += ["--variant", value]
    if args.title != DEFAULT_TITLE:
        argv += ["--title", args.title]
    for flag, value in (("--gold-format", args.gold_format), ("--pred-format", args.pred_format),
                        ("--labels", args.labels), ("--taxonomy", args.taxonomy)):
        if value:
            argv += [flag, value]
    if args.llm_parsing != "paper-2023":  # the default report's command stays as it was
        argv += ["--llm-parsing", args.llm_parsing]
    return shlex.join(argv)


def variants(values: list[str]) -> dict[str, str]:
    """``--variant METRIC=VARIANT`` values as a mapping (the last of a metric wins), checked.

    >>> variants(["martino=nlp4if2019", "mafalda=paper"])
    {'martino': 'nlp4if2019', 'mafalda': 'paper'}
    """
    out: dict[str, str] = {}
    for value in values:
        metric, sep, variant = value.partition("=")
        if not sep:
            raise InputError(f"--variant expects METRIC=VARIANT (e.g. martino=nlp4if2019), "
                             f"got {value!r}")
        out[metric.strip()] = variant.strip()
    try:
        check_variants(out)
    except ParameterError as exc:
        raise InputError(f"{with_hint(exc)} (option --variant)") from exc
    return out


def run(args: argparse.Namespace) -> int:
    if args.samples < 1:
        raise InputError(f"--samples must be positive, got {args.samples}")
    chosen = variants(args.variant)  # a bad --variant: before reading
    metadata = load_metadata(args.gold, args.meta)  # a bad --meta: one line, before warnings
    taxonomy = taxonomy_file(args)  # a bad --taxonomy or --labels: before the inputs
    # --labels reads the reference too, as score --metric martino does (the report's slices
    # and worst documents are Martino's).
    inputs = load_systems(args.gold, args.preds, gold_format=args.gold_format,
                          pred_format=args.pred_format,
                          options=read_options(args, beyond_text=bounds.from_args(args),
                                               **label_reading(args)))
    absent = [d for path, pred in zip(args.preds, inputs.systems, strict=True)
              for d in absent_documents(inputs.gold, pred, args.gold, path)]
    for d in expand([*inputs.warnings, *absent]):  # a reader's grouped ones one by one
        print(kinded_line(d), file=sys.stderr)
    names = [s.name for s in inputs.systems]
    if len(set(names)) < len(names):
        raise InputError(f"two prediction files give the same system name ({', '.join(names)}); "
                         "rename one")
    for field in meta_plan(metadata, inputs.gold.doc_ids):
        if field.kind == "skipped":
            print(kinded_line(skipped_note(field)), file=sys.stderr)
    html = build_report(ReportInputs(inputs.gold, inputs.systems, inputs.texts, args.level,
                                     metadata, taxonomy, args.samples, args.seed,
                                     args.bootstrap, chosen),
                        command=command_line(args), title=args.title)
    out = Path(args.output)
    write_file(out, html)
    print(f"wrote {out} ({len(html.encode('utf-8')) / 1024:.0f} KiB)", file=sys.stderr)
    return 0
