"""The command line, ``python -m core``: a contract that other tools script against.

Subcommands: ``score``, ``explain``, ``convert``, ``validate``, ``agree``. Exit status 0 on
success, 1 on invalid input (one message on stderr, never a traceback), 2 on a usage error.
With ``--json`` standard output is exactly one JSON object.

Each metric lives in its own module that provides ``cli_score(args) -> dict`` (the JSON object)
and, optionally, ``cli_explain(args) -> dict`` and ``render_text(result) -> str``; this module
only parses options and dispatches.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.errors import SpanScopeError, UsageError
from core.formats import FORMATS, WRITABLE
from core.textsafe import one_line

METRICS: dict[str, str] = {
    "martino": "core.metrics.martino",
    "mafalda": "core.metrics.mafalda",
    "hateval-a": "core.metrics.hateval",
    "hateval-b": "core.metrics.hateval",
    "text-labels": "core.metrics.text_labels",
}
"""Metric name -> module with ``cli_score`` (imported on first use)."""

AGREEMENT_MODULE = "core.metrics.agreement"


def _add_input_options(p: argparse.ArgumentParser) -> None:
    fmts = sorted(FORMATS)
    p.add_argument("gold", metavar="GOLD", help="gold file or folder")
    p.add_argument("pred", metavar="PRED", help="prediction file or folder")
    p.add_argument(
        "--metric", required=True, choices=sorted(METRICS), help="which metric to compute"
    )
    p.add_argument(
        "--variant",
        help="metric variant (martino: semeval2021 [default], nlp4if2019, semeval2020-si, "
        "semeval2020-tc, semeval2020-tc-by-article; mafalda: paper [default], metrics-py, "
        "repo-head)",
    )
    p.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="MAFALDA taxonomy level (default 2)")
    p.add_argument("--gold-format", choices=fmts, help="override format detection for GOLD")
    p.add_argument("--pred-format", choices=fmts, help="override format detection for PRED")
    p.add_argument("--labels", metavar="FILE",
                   help="label list, one per line (replaces the task's technique list)")
    p.add_argument("--taxonomy", metavar="FILE",
                   help="MAFALDA-style grouping of labels into levels (JSON)")
    p.add_argument("--merge-pred", action="store_true",
                   help="merge overlapping predictions (the official -m flag)")
    p.add_argument("--fragments-only", action="store_true",
                   help="ignore labels (the official -f flag)")
    p.add_argument("--llm-parsing", choices=("paper-2023", "repo-head"), default="paper-2023",
                   help="how MAFALDA model answers become spans (default paper-2023)")
    p.add_argument("--hateval-header", choices=("auto", "official"), default="auto",
                   help="HatEval header rule: auto (a first line whose labels are not integers) "
                   "or official (a first line whose id is not a number; drops such a data row)")
    p.add_argument("--per-document", action="store_true", help="add per-document scores")
    _add_beyond_text(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _add_beyond_text(p: argparse.ArgumentParser) -> None:
    """``--beyond-text`` and its shorthand ``--clip-spans`` (core.bounds: one policy)."""
    p.add_argument("--beyond-text", choices=("refuse", "clip", "official"), default="refuse",
                   help="spans that end past their document's text: refuse (default), clip them "
                   "to the text, or keep them as the official scorers do (official also keeps "
                   "MAFALDA's zero-length spans); a warning per span")
    p.add_argument("--clip-spans", dest="beyond_text", action="store_const", const="clip",
                   help="same as --beyond-text clip")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m core",
        description="SpanScope: score, explain, convert and validate span annotations.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    score = sub.add_parser("score", help="score predictions against gold",
                           description="Score PRED against GOLD with one metric.")
    _add_input_options(score)

    explain = sub.add_parser("explain", help="per-span contributions for one document",
                             description="Show every scored span pair of one document.")
    _add_input_options(explain)
    explain.add_argument("--doc", required=True, metavar="ID", help="document id")

    convert = sub.add_parser("convert", help="convert between formats",
                             description="Read INPUT in any format and write OUTPUT in another.")
    convert.add_argument("input", metavar="INPUT")
    convert.add_argument("output", metavar="OUTPUT", help="file (or folder for brat / ptc folders)")
    convert.add_argument("--to", required=True, choices=WRITABLE, metavar="FORMAT",
                         help="output format: " + ", ".join(WRITABLE))
    convert.add_argument("--from", dest="from_format", choices=sorted(FORMATS),
                         metavar="FORMAT", help="override format detection for INPUT")
    convert.add_argument("--set", dest="set_name", help="which annotation set to write, "
                         "when INPUT holds several (default: all)")

    validate = sub.add_parser("validate", help="check a file and list its problems",
                              description="Read FILE and report its errors and warnings.")
    validate.add_argument("file", metavar="FILE")
    validate.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    validate.add_argument("--labels", metavar="FILE", help="allowed labels, one per line")
    validate.add_argument("--role", choices=("gold", "system", "annotator"), default="gold",
                          help="what the file holds (default gold): predictions may use labels "
                          "a gold may not, such as MAFALDA's 'unknown'")
    _add_beyond_text(validate)
    validate.add_argument("--json", action="store_true", help="print one JSON object")

    agree = sub.add_parser("agree", help="inter-annotator agreement",
                           description="Agreement between annotation sets over the same texts.")
    agree.add_argument("files", nargs="+", metavar="FILE")
    agree.add_argument("--measure", action="append", required=True, metavar="NAME",
                       help="span-f1, mafalda-f1, char-kappa, char-jaccard, text-kappa, "
                       "fleiss-kappa, krippendorff-alpha, unitizing-alpha, gamma, gamma-cat "
                       "(repeatable)")
    agree.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    agree.add_argument("--label", help="restrict to one label")
    agree.add_argument("--seed", type=int, default=0, help="random seed for chance estimates")
    agree.add_argument("--samples", type=int, default=30,
                       help="chance samples for gamma (default 30)")
    agree.add_argument("--per-document", action="store_true", help="add per-document values")
    _add_beyond_text(agree)
    agree.add_argument("--unit-set", action="store_true",
                       help="read each annotator's units as a set: an exact duplicate span "
                       "counts once (pygamma-agreement's reading; default: kept, with a warning)")
    agree.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _jsonable(value: Any) -> Any:
    """Make floats JSON-safe: NaN and infinities become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _fmt_scalar(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6f}"
    return one_line(str(value))


def render_generic(result: dict[str, Any]) -> str:
    """A readable rendering of any result: scalars first, then one table per nested mapping."""
    lines: list[str] = []
    width = max((len(k) for k in result), default=0)
    for key, value in result.items():
        if not isinstance(value, (dict, list)):
            lines.append(f"{key:<{width}}  {_fmt_scalar(value)}")
    for key, value in result.items():
        if isinstance(value, dict) and value:
            lines.append("")
            lines.append(f"{key}:")
            rows = list(value.items())
            if all(isinstance(v, dict) for _, v in rows):
                cols: list[str] = []
                for _, v in rows:
                    cols.extend(
                        c for c in v if c not in cols and not isinstance(v[c], (dict, list))
                    )
                kw = max(len(str(k)) for k, _ in rows)
                lines.append("  " + " " * kw + "".join(f"  {c:>12}" for c in cols))
                for k, v in rows:
                    cells = "".join(f"  {_fmt_scalar(v.get(c, '')):>12}" for c in cols)
                    lines.append(f"  {one_line(str(k)):<{kw}}{cells}")
            else:
                kw = max(len(str(k)) for k, _ in rows)
                for k, v in rows:
                    lines.append(f"  {one_line(str(k)):<{kw}}  {_fmt_scalar(v)}")
        elif isinstance(value, list) and value and key != "warnings":
            lines.append("")
            lines.append(f"{key}: {len(value)} rows")
            for row in value:
                lines.append("  " + (", ".join(f"{k}={_fmt_scalar(v)}" for k, v in row.items())
                                     if isinstance(row, dict) else str(row)))
    warnings = result.get("warnings") or []
    if warnings:
        lines.append("")
        lines.append(f"warnings ({len(warnings)}):")
        lines.extend(f"  {one_line(str(w))}" for w in warnings)
    return "\n".join(lines)


def _emit(result: dict[str, Any], as_json: bool, renderer: Any = None) -> None:
    if as_json:
        json.dump(_jsonable(result), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print((renderer or render_generic)(result))


def _metric_module(name: str) -> Any:
    return importlib.import_module(METRICS[name])


def _run(args: argparse.Namespace) -> int:
    if args.command in ("score", "explain"):
        mod = _metric_module(args.metric)
        if args.command == "score":
            result = mod.cli_score(args)
        else:
            if not hasattr(mod, "cli_explain"):
                raise UsageError(f"the metric {args.metric!r} has no per-span explanation")
            result = mod.cli_explain(args)
        _emit(result, args.json, getattr(mod, "render_text", None))
        return 0
    if args.command == "agree":
        mod = importlib.import_module(AGREEMENT_MODULE)
        result = mod.cli_agree(args)
        _emit(result, args.json, getattr(mod, "render_text", None))
        return 0
    if args.command == "convert":
        from core.tools import convert

        for line in convert(args.input, args.output, to=args.to, from_format=args.from_format,
                            set_name=args.set_name):
            print(line, file=sys.stderr)
        return 0
    if args.command == "validate":
        from core.tools import validate

        result = validate(args.file, fmt=args.format, labels_file=args.labels, role=args.role,
                          beyond_text=args.beyond_text)
        _emit(result, args.json)
        if not result["valid"]:
            # The report went to stdout; the one-line reason also goes to stderr, exit 1.
            print(f"error: {one_line(str(result['errors'][0]))}", file=sys.stderr)
            return 1
        return 0
    raise UsageError(f"unknown command {args.command!r}")  # pragma: no cover


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        print(f"python -m core: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except SpanScopeError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        name = getattr(exc, "filename", None) or ""
        print(one_line(f"error: {name}: {exc.strerror or exc}"), file=sys.stderr)
        return 1


def labels_from_file(path: str | None) -> list[str] | None:
    """Read a label list (one per line, blank lines ignored)."""
    if path is None:
        return None
    from core.errors import FormatError
    from core.formats import decode

    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise FormatError(str(p), f"cannot read the label list: {exc.strerror}") from None
    text = decode(str(p), raw)  # undecodable UTF-8 is a FormatError naming the byte
    return [line.strip() for line in text.splitlines() if line.strip()]
