"""``validate FILE``: read a file and report its errors and warnings (:func:`core.tools.validate`).
Exit 1 when the file cannot be read, with the reason on stderr."""

from __future__ import annotations

import argparse
import sys

from core.cli.common import (
    Subparsers,
    add_beyond_text,
    add_output_options,
    command_parser,
    emit,
    render_generic,
)
from core.formats import FORMATS
from core.textsafe import one_line
from core.tools import validate

NAME = "validate"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "check a file and list its problems",
                       "Read FILE and report its errors and warnings.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    p.add_argument("--labels", metavar="FILE", help="allowed labels, one per line")
    p.add_argument("--role", choices=("gold", "system", "annotator"), default="gold",
                   help="what the file holds (default gold): predictions may use labels "
                   "a gold may not, such as MAFALDA's 'unknown'")
    add_beyond_text(p)
    add_output_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    result = validate(args.file, fmt=args.format, labels_file=args.labels, role=args.role,
                      beyond_text=args.beyond_text)
    warnings = result.get("warnings") or []
    result["warnings"] = []
    emit(result, args, render_generic, [str(w) for w in warnings])
    if not result["valid"]:
        # The report went to stdout; the one-line reason also goes to stderr, exit 1.
        print(f"error: {one_line(str(result['errors'][0]))}", file=sys.stderr)
        return 1
    return 0
