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
import importlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from core.cli.common import Command, flag_message, parser_flags
from core.errors import ParameterError, SpanScopeError, UsageError
from core.formats.tool_options import add_tool_options, set_tool_defaults
from core.textsafe import one_line
from core.tools import read_label_list

if TYPE_CHECKING:
    COMMANDS: tuple[Command, ...]

NAMES: tuple[str, ...] = ("score", "explain", "convert", "validate", "agree", "errors", "slices",
                          "report", "adjudicate", "app")
"""The command names, in ``--help`` order; each is the module ``core.cli.<name>``, imported
only when its command runs (or when ``--help`` lists them all), so that ``score`` does not pay
for the imports of ``report`` or ``adjudicate``."""

PROG = "python -m core"

__all__ = ["COMMANDS", "NAMES", "build_parser", "labels_from_file", "main"]

labels_from_file = read_label_list
"""Read a label list (one per line); kept under its old name for scripts that import it."""


def _command(name: str) -> Command:
    module: ModuleType = importlib.import_module(f"core.cli.{name}")
    return module


def __getattr__(name: str) -> object:
    """``COMMANDS``, the command modules in ``--help`` order, imported on first use."""
    if name == "COMMANDS":
        commands = tuple(_command(n) for n in NAMES)
        globals()["COMMANDS"] = commands
        return commands
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Flags(Mapping[str, str]):
    """Parameter name -> flag: the running command's own options first, then (built only when a
    message names a parameter the command lacks) those of every command, as
    :func:`parser_flags` of the whole parser gives them. No command's long flag differs from
    another's for the same parameter, so the lookup equals the whole parser's."""

    def __init__(self, own: dict[str, str], prog: str) -> None:
        self._own = own
        self._prog = prog
        self._all: dict[str, str] | None = None

    def _every(self) -> dict[str, str]:
        if self._all is None:
            self._all = parser_flags(build_parser(self._prog))
        return self._all

    def __getitem__(self, key: str) -> str:
        if key in self._own:
            return self._own[key]
        return self._every()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())

    def __bool__(self) -> bool:  # never empty (``--help`` at least); ``flags or {}`` stays lazy
        return True


def build_parser(prog: str = PROG, only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line's parser; with ``only`` a command's name, the same parser holding
    that command alone (what :func:`main` parses a command's arguments with: the command's own
    help, usage and errors are the same, its siblings are never imported)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="SpanScope: score, explain, convert and validate span annotations.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in NAMES if only is None else (only,):
        command = _command(name)
        command_parser = command.add_parser(sub)
        add_tool_options(command_parser)  # --layer, --feature, --span-group, --scheme, ...
        command_parser.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["app"]:
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
    only = argv[0] if argv[:1] and argv[0] in NAMES else None
    parser = build_parser(prog, only)
    args = parser.parse_args(argv)
    set_tool_defaults(args)
    flags: Mapping[str, str] = parser_flags(parser) if only is None else _Flags(
        parser_flags(parser), prog)
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
