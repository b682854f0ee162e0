"""``convert INPUT OUTPUT --to FORMAT``: read any format, write another
(:func:`core.formats.tools.convert`). Messages (the reader's warnings, what the target format loses,
a summary) go to stderr."""

from __future__ import annotations

import argparse
import sys

from core.cli.common import (
    SHOWN_WARNINGS,
    Subparsers,
    add_output,
    command_parser,
    kinded_line,
    tool_options,
)
from core.formats import BINARY_WRITABLE, FORMATS, WRITABLE
from core.formats.tools import convert, output_is_folder
from core.model.errors import KindedText, warning_kind

NAME = "convert"


def _is_folder(args: argparse.Namespace, output: str) -> bool:
    """OUTPUT is a folder for shards and for the formats written one file per document."""
    return args.shards is not None or output_is_folder(args.to, output)


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "convert between formats",
                       "Read INPUT in any format and write OUTPUT in another.")
    p.add_argument("input", metavar="INPUT")
    add_output(p, "output", metavar="OUTPUT", folder=_is_folder,
               help="file (or folder for brat / ptc folders)")
    p.add_argument("--to", required=True, choices=WRITABLE + BINARY_WRITABLE, metavar="FORMAT",
                   help="output format: " + ", ".join(WRITABLE + BINARY_WRITABLE))
    p.add_argument("--from", dest="from_format", choices=sorted(FORMATS),
                   metavar="FORMAT", help="override format detection for INPUT")
    p.add_argument("--set", dest="set_name", help="which annotation set to write, "
                   "when INPUT holds several (default: all)")
    p.add_argument("--labels", metavar="FILE",
                   help="label list (one per line) or doccano label config (the JSON of "
                   "doccano's label page): labels outside it are refused, and doccano's "
                   "numeric label ids become their names")
    p.add_argument("--shards", type=int, metavar="N",
                   help="write OUTPUT as a folder of N shards of consecutive documents "
                   "(part-00000.parquet ...), for --engine dask (docs/scale.md)")
    p.add_argument("--csv-raw", action="store_true",
                   help="write CSV cells as they are: by default a cell that starts with =, +, "
                   "-, @, a tab or a carriage return gets a leading ' so that a spreadsheet shows "
                   "it instead of running it as a formula (read back as it was; "
                   "docs/robustness.md)")
    p.add_argument("--all-warnings", action="store_true",
                   help=f"list every warning (default: the first {SHOWN_WARNINGS})")
    return p


def run(args: argparse.Namespace) -> int:
    if args.shards is not None:
        from core.engines.sharded import convert_to_shards

        messages = convert_to_shards(args.input, args.output, to=args.to,
                                     from_format=args.from_format, set_name=args.set_name,
                                     shards=args.shards, labels_file=args.labels,
                                     options=tool_options(args), csv_raw=args.csv_raw)
    else:
        messages = convert(args.input, args.output, to=args.to, from_format=args.from_format,
                           set_name=args.set_name, labels_file=args.labels,
                           options=tool_options(args), csv_raw=args.csv_raw)
    # each warning with its kind (KindedText from the reader, else read off its words)
    warnings = [kinded_line(KindedText(m.removeprefix("warning: "), warning_kind(m)))
                for m in messages if m.startswith("warning: ")]
    others = [m for m in messages if not m.startswith("warning: ")]
    shown = warnings if args.all_warnings else warnings[:SHOWN_WARNINGS]
    for line in shown:
        print(line, file=sys.stderr)
    if len(shown) < len(warnings):
        print(f"{len(warnings) - len(shown)} more warnings; pass --all-warnings to list them all",
              file=sys.stderr)
    for line in others:
        print(line, file=sys.stderr)
    return 0
