"""``validate FILE``: read a file and report its errors and warnings
(:func:`core.formats.tools.validate`).
Exit 1 when the file cannot be read, with the reason on stderr, once.

Without ``--role`` the role is guessed from the file name by :func:`core.model.roles.guess_role`,
the rule the Data page presets its role box with, so a file passes here exactly when it loads there;
a folder or ``.zip`` whose name gives no role has its format detected first (``--format`` when
given), as the Data page does: PTC articles with their ``.labels`` are a gold.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.cli.common import (
    Subparsers,
    add_beyond_text,
    add_output_options,
    command_parser,
    emit,
    render_generic,
    tool_options,
)
from core.formats import FORMATS, detect, read_file_with_companions, read_folder
from core.formats.tools import validate
from core.model import Role, bounds
from core.model.errors import SpanScopeError
from core.model.roles import format_decides, guess_role
from core.model.textsafe import one_line

NAME = "validate"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    p = command_parser(subparsers, NAME, "check a file and list its problems",
                       "Read FILE and report its errors and warnings.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=sorted(FORMATS), help="override format detection")
    p.add_argument("--labels", metavar="FILE",
                   help="allowed labels, one per line, or a doccano label config (the JSON of "
                   "doccano's label page: its numeric label ids become names)")
    p.add_argument("--role", choices=("gold", "system", "annotator"), default=None,
                   help="what the file holds (default: guessed from the file name as the Data "
                   "page does: 'gold' or 'annotator'/'ann_' in the name, a folder or .zip "
                   "annotator (gold when it holds PTC articles), else system); predictions "
                   "may use labels a gold may not, such as MAFALDA's 'unknown', and are "
                   "checked against score's label list")
    add_beyond_text(p)
    add_output_options(p)
    return p


def guessed_role(file: str, fmt: str | None) -> Role:
    """The role of ``file`` given without ``--role``: :func:`guess_role` with the format
    ``fmt``, else the detected one when the guess depends on it (:func:`format_decides`);
    a file that cannot be read or detected is guessed from its name, and :func:`validate`
    reports why it cannot be read."""
    path = Path(file)
    folder = path.is_dir()
    if fmt is None and format_decides(path.name, folder=folder):
        try:
            files = read_folder(path) if folder else read_file_with_companions(path)
            fmt = detect(files, source=file) if files else None
        except (OSError, SpanScopeError):
            fmt = None
    return guess_role(path.name, folder=folder, fmt=fmt)


def _text(warning: object) -> str:
    """A warning of :func:`validate` as text, its kind kept (already text, a
    :class:`~core.model.errors.KindedText`, as :class:`~core.model.errors.Diagnostic` prints)."""
    return warning if isinstance(warning, str) else str(warning)


def run(args: argparse.Namespace) -> int:
    role = args.role or guessed_role(args.file, args.format)
    result = validate(args.file, fmt=args.format, labels_file=args.labels, role=role,
                      beyond_text=bounds.from_args(args), options=tool_options(args))
    result["role"] = role
    warnings = result.get("warnings") or []
    result["warnings"] = []
    errors = list(result.get("errors") or [])
    if args.json:
        emit(result, args, render_generic, list(map(_text, warnings)))
    else:
        # Each error is printed once: on stderr (below), not also in the report on stdout.
        text = {k: v for k, v in result.items() if k != "errors"}
        emit(text | {"errors": len(errors)}, args, render_generic, list(map(_text, warnings)))
    if not result["valid"]:
        print(f"error: {one_line(str(errors[0]))}", file=sys.stderr)
        return 1
    return 0
