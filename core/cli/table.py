"""``table GOLD PRED [PRED ...] --metric M --to latex|markdown|csv``: the paper-ready table of
every system's P, R and F1 with bootstrap intervals (:mod:`core.analysis.table`).

Each prediction file is read as ``score`` reads it for the metric (:func:`core.cli.loading.
load_span_inputs`: labels, taxonomy, ``--llm-parsing``, the spans-past-text policy), so each
row holds the numbers ``score`` prints for that file. The table goes to standard output, or to
``--output FILE``; warnings go to standard error. ``--compare [SYSTEM]`` tests every system
against one (:func:`core.analysis.table.with_comparisons`); ``--sort p|r|f1`` orders the rows by
a measure, highest first. See ``docs/report.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from pathlib import Path

from core.analysis.table import (
    FORMATS,
    TESTS,
    ScoreTable,
    SystemRow,
    few_documents_note,
    render,
    system_row,
    table_of,
    with_comparisons,
)
from core.cli.common import (
    Subparsers,
    Warning_,
    add_beyond_text,
    add_output,
    add_span_reading_options,
    command_parser,
    emit,
    flag_message,
)
from core.cli.loading import load_span_inputs
from core.formats import FORMATS as FILE_FORMATS
from core.formats.atomic import write_file
from core.metrics import registry
from core.model.errors import InputError, ParameterError, expand

NAME = "table"
SORTS = {"given": None, "p": "P", "r": "R", "f1": "F1"}
"""``--sort``'s choices: the order of the PREDs, or a measure (highest first)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(
        subparsers, NAME, "paper-ready table of P, R, F1 with bootstrap intervals",
        "Every system's P, R and F1 under one span metric, with percentile bootstrap "
        "intervals over documents, as booktabs LaTeX, Markdown or CSV: the best value of each "
        "column in bold, and a caption with the metric, variant, level, resamples and seed. "
        "See docs/report.md.")
    fmts = sorted(FILE_FORMATS)
    p.add_argument("gold", metavar="GOLD", help="reference file or folder")
    p.add_argument("preds", nargs="+", metavar="PRED", help="prediction files or folders")
    p.add_argument("--metric", required=True, choices=registry.SpanMetricNames(),
                   help="the span metric (martino, mafalda, or a plugin's)")
    p.add_argument("--variant", help="metric variant (default: the metric's first; see score "
                   "--help)")
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level (default 2; metrics without levels ignore it)")
    p.add_argument("--to", choices=FORMATS, default="latex",
                   help="latex (booktabs table float, default), markdown (pipe table) or csv")
    add_output(p, "--output", "-o", metavar="FILE",
               help="write the table to FILE (default: standard output)")
    p.add_argument("--samples", type=int, default=1000,
                   help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--digits", type=int, default=3, choices=range(7), metavar="{0..6}",
                   help="decimals printed (default 3); bold marks the best at this precision")
    p.add_argument("--compare", nargs="?", const="", default=None, metavar="SYSTEM",
                   help="test every other system against SYSTEM (a system's name as the table "
                   "prints it, or its PRED path; without SYSTEM the best F1) on P, R and F1: "
                   "approximate randomization and paired bootstrap over documents, --samples "
                   "rounds; a dagger marks each value that differs at p < --alpha")
    p.add_argument("--test", choices=TESTS, default=None,
                   help="the test whose p-value marks the table (default randomization; "
                   "--json and csv give both)")
    p.add_argument("--alpha", type=float, default=None,
                   help="significance level of the marks (default 0.05; with --compare)")
    p.add_argument("--sort", choices=list(SORTS), default="given",
                   help="the rows' order: given (the PREDs', default), or p, r or f1, highest "
                   "first (a tie keeps the PREDs' order)")
    add_span_reading_options(p, fmts)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (the values and intervals) instead of the table")
    add_beyond_text(p)
    return p


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this table, its settings spelled out (the LaTeX comment)."""
    argv = ["python", "-m", "core", "table", Path(args.gold).name,
            *(Path(p).name for p in args.preds), "--metric", args.metric]
    if args.variant:
        argv += ["--variant", args.variant]
    if registry.get(args.metric).levels:  # a metric without levels ignores --level
        argv += ["--level", str(args.level)]
    argv += ["--samples", str(args.samples), "--seed", str(args.seed)]
    compare = getattr(args, "compare", None)
    if compare is not None:  # a table without comparison keeps its command as it was
        argv += ["--compare", *([compare] if compare else []), "--test", args.test,
                 "--alpha", f"{args.alpha:g}"]
    if getattr(args, "sort", "given") != "given":
        argv += ["--sort", args.sort]
    return shlex.join(argv)


def sorted_by(table: ScoreTable, sort: str) -> ScoreTable:
    """``table`` with its rows (and their comparisons) ordered by ``--sort``: a measure's
    value, highest first, a tie in the given order; ``given`` keeps them as they are.

    >>> from core.analysis.table import SystemRow
    >>> rows = [SystemRow(n, {"P": p, "R": 0.5, "F1": f}, {})
    ...         for n, p, f in (("a", 0.2, 0.3), ("b", 0.9, 0.1), ("c", 0.4, 0.3))]
    >>> t = ScoreTable("martino", None, None, "gold", 2, 10, 0, 0.95, tuple(rows))
    >>> [r.system for r in sorted_by(t, "f1").rows], [r.system for r in sorted_by(t, "p").rows]
    (['a', 'c', 'b'], ['b', 'c', 'a'])
    """
    measure = SORTS[sort]
    if measure is None:
        return table
    rows = sorted(table.rows, key=lambda r: -r.values[measure])  # stable: ties keep their order
    where = {r.system: k for k, r in enumerate(rows)}
    return dataclasses.replace(table, rows=tuple(rows), comparisons=tuple(
        sorted(table.comparisons, key=lambda c: where[c.system])))


def _comparison_options(args: argparse.Namespace) -> list[Warning_]:
    """``--test`` and ``--alpha`` set the marks of ``--compare``: without it they change
    nothing, and a warning says so; their defaults filled in."""
    given = [flag for flag, value in (("--test", args.test), ("--alpha", args.alpha))
             if value is not None]
    if args.test is None:
        args.test = "randomization"
    if args.alpha is None:
        args.alpha = 0.05
    if args.compare is not None or not given:
        return []
    return [f"{' and '.join(given)} ignored: {'they mark' if len(given) > 1 else 'it marks'} "
            "the differences of --compare, which was not given"]


def run(args: argparse.Namespace) -> int:
    ignored = _comparison_options(args)
    if args.samples < 1:
        raise InputError(f"--samples must be positive, got {args.samples}")
    if not 0 < args.alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {args.alpha:g}")
    metric = registry.get(args.metric)
    if args.variant is not None and not metric.variants:
        raise InputError(f"the metric {metric.name!r} has no variants (got {args.variant!r})")
    metric.keywords(variant=args.variant, level=args.level)  # a bad --variant: before reading
    rows: list[SystemRow] = []
    warnings: list[Warning_] = list(ignored)
    names: list[str] = []
    gold = None
    options: dict[str, object] = {}
    for path in args.preds:
        one = argparse.Namespace(**{**vars(args), "pred": path})
        inputs = load_span_inputs(one, metric)
        warnings.extend(inputs.warnings)
        gold = inputs.gold
        options = inputs.options(one)
        row = system_row(inputs.gold, inputs.pred, metric=metric.name, options=options,
                         n_resamples=args.samples, seed=args.seed)
        warnings.extend(row.warnings)
        rows.append(row)
        names.append(inputs.pred.name)
    assert gold is not None  # argparse asks for one PRED at least
    if len(set(names)) < len(names):
        raise InputError(f"two prediction files give the same system name ({', '.join(names)}); "
                         "rename one")
    # The gold is read once per system: each of its warnings is said once, where one read
    # says it (first; the reversed pass put the gold's after the first system's)
    firsts: dict[str, Warning_] = {}
    for w in warnings:
        firsts.setdefault(str(w), w)
    warnings = list(firsts.values())
    table = table_of(rows, gold, metric=metric.name, options=options, n_resamples=args.samples,
                     seed=args.seed, command=command_line(args))
    if args.compare is not None:
        if len(rows) < 2:
            raise InputError(f"--compare needs two systems or more; got one: {names[0]}")
        # A PRED path as given names its system.
        against = dict(zip(args.preds, names, strict=True)).get(args.compare, args.compare)
        try:
            table = with_comparisons(table, against=against or None, test=args.test,
                                     alpha=args.alpha)
        except ParameterError as exc:
            raise InputError(f"--compare: {exc}") from exc
    table = sorted_by(table, args.sort)  # after the comparison: its default is the given order's
    if args.json:
        emit(table.to_dict(), args, lambda result: "", warnings)
        return 0
    text = render(table, args.to, digits=args.digits)
    flags = getattr(args, "flags", None) or {}
    # every warning, a reader's grouped ones one by one, in the command's flags as --json says
    for w in expand(warnings):
        print(f"warning: {flag_message(str(w), flags)}", file=sys.stderr)
    # On standard error, as the warnings: standard output is the table (CSV stays CSV).
    note = few_documents_note(table.documents)
    if note is not None:
        print(f"note: {note}", file=sys.stderr)
    if args.output:
        write_file(args.output, text)  # whole or not at all, as every output
        print(f"wrote {args.output} ({len(rows)} systems, {args.to})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
