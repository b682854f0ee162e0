"""The command line, ``python -m core``: a contract that other tools script against.

Commands: ``score``, ``explain``, ``convert``, ``validate``, ``agree``, ``errors``, ``slices``,
``report``, ``adjudicate``, ``app``, one module each. Exit status 0 on success, 1 on invalid
input (one message on stderr, never a traceback), 2 on a usage error. With ``--json`` standard
output is exactly one JSON object.

Adding a command is one module with ``NAME``, ``add_parser(subparsers)`` and ``run(args) -> int``
and one entry in :data:`COMMANDS`. Metrics come from :mod:`core.metrics.registry`; files are
read by :mod:`core.cli.loading` and reports drawn by :mod:`core.cli.render`, never by a metric.
Library errors name parameters (``merge_pred=True``); :func:`main` shows them as flags
(``--merge-pred``), and a :class:`~core.errors.ParameterError` exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from core.cli import (
    adjudicate,
    agree,
    app,
    convert,
    errors,
    explain,
    report,
    score,
    slices,
    validate,
)
from core.cli.common import Command, flag_message, parser_flags
from core.errors import ParameterError, SpanScopeError, UsageError
from core.formats.tool_options import add_tool_options, set_tool_defaults
from core.textsafe import one_line
from core.tools import read_label_list

COMMANDS: tuple[Command, ...] = (score, explain, convert, validate, agree, errors, slices,
                                  report, adjudicate, app)
"""The command modules, in ``--help`` order."""

PROG = "python -m core"

__all__ = ["COMMANDS", "build_parser", "labels_from_file", "main"]

labels_from_file = read_label_list
"""Read a label list (one per line); kept under its old name for scripts that import it."""


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="SpanScope: score, explain, convert and validate span annotations.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command_parser = command.add_parser(sub)
        add_tool_options(command_parser)  # --layer, --feature, --span-group, --scheme, ...
        command_parser.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(prog)
    if argv[:1] == [app.NAME]:
        # Everything after `app` but --data (core.launch) belongs to streamlit, --help included.
        from core.launch import run_app

        try:
            return run_app(argv[1:])
        except UsageError as exc:
            print(f"{prog} app: error: {one_line(str(exc))}", file=sys.stderr)
            return 2
        except SpanScopeError as exc:
            print(f"error: {one_line(str(exc))}", file=sys.stderr)
            return 1
    args = parser.parse_args(argv)
    set_tool_defaults(args)
    flags = parser_flags(parser)
    args.flags = flags
    try:
        status: int = args.run(args)
        return status
    except UsageError as exc:
        param = exc.param if isinstance(exc, ParameterError) else None
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: {one_line(flag_message(str(exc), flags, param))}",
              file=sys.stderr)
        return 2
    except SpanScopeError as exc:
        print(f"error: {one_line(flag_message(str(exc), flags))}", file=sys.stderr)
        return 1
    except OSError as exc:
        name = getattr(exc, "filename", None) or ""
        print(one_line(f"error: {name}: {exc.strerror or exc}"), file=sys.stderr)
        return 1


def entry() -> int:
    """The ``spanscope`` console script: :func:`main` under its own name."""
    return main(prog="spanscope")
