"""Run ``python -m core`` for a test: in a process of its own, or ``core.cli.main`` in this one.

A command-line test's assertions are on the exit status and the two streams, which both give
as a :class:`subprocess.CompletedProcess`. A process of its own costs an interpreter start and
the imports of the command (about half a second of CPU a run): each test file keeps it for the
runs that show the contract of a real process (exit statuses, one JSON object on standard
output) and runs the others in process.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def python_m_core(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m core ARGS`` in a process of its own, from the checkout."""
    return subprocess.run([sys.executable, "-m", "core", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def core_main(*args: str) -> subprocess.CompletedProcess[str]:
    """``core.cli.main(ARGS)`` in this process (what ``python -m core`` runs), as a finished
    process: exit status (argparse's usage errors included), standard output and error."""
    from core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as exc:  # argparse: usage errors, --help
            rc = int(exc.code or 0)
    return subprocess.CompletedProcess(["python", "-m", "core", *args], rc, out.getvalue(),
                                       err.getvalue())
