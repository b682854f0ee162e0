"""Run the command line in-process: ``cli(*argv)`` -> exit status, standard output and error."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from core.cli import main


@dataclass
class Run:
    rc: int
    out: str
    err: str


def run_cli(*argv: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(argv))
        except SystemExit as exc:  # argparse: usage errors
            rc = int(exc.code or 0)
    return Run(rc, out.getvalue(), err.getvalue())


@pytest.fixture
def cli() -> Callable[..., Run]:
    return run_cli


def assert_clean_failure(run: Run) -> None:
    """Exit 1, exactly one line on standard error, no traceback, output encodable as UTF-8."""
    assert run.rc == 1, (run.rc, run.err)
    assert "Traceback" not in run.err
    assert run.err.endswith("\n") and run.err.count("\n") == 1, repr(run.err)
    run.out.encode("utf-8")
    run.err.encode("utf-8")


@pytest.fixture
def clean_failure() -> Callable[[Run], None]:
    return assert_clean_failure
