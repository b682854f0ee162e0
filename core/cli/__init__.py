"""The command line, ``python -m core``: a contract that other tools script against.

Commands: ``score``, ``explain``, ``convert``, ``validate``, ``agree``, ``errors``, ``slices``,
``report``, ``table``, ``adjudicate``, ``app``, one module each. Exit status 0 on success, 1 on
invalid input (one message on stderr, never a traceback), 2 on a usage error. With ``--json``
standard output is exactly one JSON object.

Adding a command is one module with ``NAME``, ``add_parser(subparsers)`` and ``run(args) -> int``
and one entry in :data:`COMMAND_NAMES`. A command's module is imported only when it runs (or for
``--help``), so that ``score`` does not pay for the imports of ``report`` or ``adjudicate``.
Metrics come from :mod:`core.metrics.registry`; files are read by :mod:`core.cli.loading` and
reports drawn by :mod:`core.cli.render`, never by a metric. Library errors name parameters
(``merge_pred=True``); :func:`main` shows them as flags (``--merge-pred``), and a
:class:`~core.model.errors.ParameterError` exits with status 2.
"""

from __future__ import annotations

import os

# The commands do no large matrix algebra, and starting OpenBLAS's thread pool when NumPy is
# imported costs about 0.05 s of a command's start-up on a 2-core machine
# (docs/performance.md); a value the user sets wins, and a NumPy imported before has its pool.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import cast

from core.cli.common import (
    Command,
    Parser,
    Subparsers,
    add_tool_options,
    check_outputs,
    flag_message,
    parser_flags,
    with_hint,
)
from core.formats.tools import read_label_list
from core.model.errors import ParameterError, SpanScopeError, UsageError
from core.model.textsafe import one_line

COMMAND_NAMES: tuple[str, ...] = ("score", "explain", "convert", "validate", "agree", "errors",
                                   "slices", "report", "table", "adjudicate", "app")
"""The commands, in ``--help`` order; each is the module ``core.cli.<name>``."""
APP = "app"

PROG = "python -m core"

__all__ = ["COMMANDS", "COMMAND_NAMES", "build_parser", "command", "labels_from_file", "main"]

labels_from_file = read_label_list
"""Read a label list (one per line); kept under its old name for scripts that import it."""


def command(name: str) -> Command:
    """The module of the command ``name`` (one of :data:`COMMAND_NAMES`), imported on first use."""
    module: Command = importlib.import_module(f"core.cli.{name}")
    return module


def __getattr__(name: str) -> tuple[Command, ...]:
    """``COMMANDS``, the command modules in ``--help`` order, imported when first asked for."""
    if name == "COMMANDS":
        return tuple(map(command, COMMAND_NAMES))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_parser(prog: str = PROG, *, only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``only`` the parser of that one command (what
    :func:`main` builds when the command is named: the others' modules stay unimported)."""
    from core.plugins import load_formats

    load_formats()  # formats of installed plugins join --from/--format (core.plugins)
    parser = Parser(  # a typo among an option's choices gets "did you mean X?"
        prog=prog,
        description="SpanScope: score, explain, convert and validate span annotations.",
    )
    # the commands' parsers are Parsers too (argparse makes them of the parent's class)
    sub = cast(Subparsers, parser.add_subparsers(dest="command", required=True,
                                                 metavar="COMMAND"))
    for name in COMMAND_NAMES if only is None else (only,):
        command_parser = command(name).add_parser(sub)
        add_tool_options(command_parser)  # --layer, --feature, --span-group, --scheme, ...
        command_parser.set_defaults(run=command(name).run)
    return parser


PIPE_CLOSED = 128 + getattr(signal, "SIGPIPE", 13)
"""The exit status when the reader of standard output went away (``| head``): what a shell
reports for a Unix tool the closed pipe ended (SIGPIPE is 13 on Linux and macOS; Windows has no
``signal.SIGPIPE``, and the status stays 141 there)."""


def _pipe_closed() -> int:
    """Stop quietly after the reader of standard output went away, as Unix tools do: no message,
    and standard output pointed at /dev/null so that the interpreter's last flush of what is
    still buffered does not fail again (the Python documentation's recipe, ``signal``: "Note
    on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return PIPE_CLOSED


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    named = argv[0] if argv and argv[0] in COMMAND_NAMES else None
    parser = build_parser(prog, only=named)
    if named == APP:
        # Everything after `app` but --data (core.cli.launch) belongs to streamlit, --help included.
        from core.cli.launch import run_app

        try:
            return run_app(argv[1:])
        except UsageError as exc:
            print(f"{prog} app: error: {one_line(str(exc))}", file=sys.stderr)
            return 2
        except SpanScopeError as exc:
            print(f"error: {one_line(str(exc))}", file=sys.stderr)
            return 1
    args = parser.parse_args(argv)
    flags = parser_flags(parser)
    args.flags = flags
    try:
        check_outputs(args)  # before any input is read: a bad path fails fast, for every command
        with _terminate_as_interrupt():
            status: int = args.run(args)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return status
    except BrokenPipeError:
        return _pipe_closed()
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM: outputs are renamed into place only when complete
        # (core.formats.atomic), so none is half written.
        print("error: interrupted; no output was left half written", file=sys.stderr)
        return 130
    except UsageError as exc:
        param = exc.param if isinstance(exc, ParameterError) else None
        shown = _command_parser(parser, named)  # the command's usage, as argparse shows it
        shown.print_usage(sys.stderr)
        print(f"{shown.prog}: error: {one_line(flag_message(with_hint(exc), flags, param))}",
              file=sys.stderr)
        return 2
    except SpanScopeError as exc:
        print(f"error: {one_line(flag_message(str(exc), flags))}", file=sys.stderr)
        return 1
    except OSError as exc:
        name = getattr(exc, "filename", None)
        where = f"{name}: " if name else ""
        print(one_line(f"error: {where}{exc.strerror or exc}"), file=sys.stderr)
        return 1


def _command_parser(parser: argparse.ArgumentParser, name: str | None
                    ) -> argparse.ArgumentParser:
    """The parser of sub-command ``name``, or ``parser`` when there is none."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            sub: argparse.ArgumentParser = action.choices[name]
            return sub
    return parser


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises :class:`KeyboardInterrupt` while a command runs, so that it ends as Ctrl-C
    does: temporaries removed, one line, exit 130. Only in the main thread (where Python
    delivers signals); the previous handler is restored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def entry() -> int:
    """The ``spanscope`` console script: :func:`main` under its own name."""
    return main(prog="spanscope")
