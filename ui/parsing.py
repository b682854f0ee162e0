"""Reading uploaded or bundled files for the dashboard without ever showing a traceback.

:func:`guarded_load` wraps :func:`core.formats.load_files`: a ``SpanScopeError`` (bad input)
becomes its diagnostic, and any other exception, which is a bug in SpanScope since every reader
promises a ``FormatError`` for bad input, becomes an error saying so (:func:`bug_diagnostic`).
The Data page's file and folder uploads and the bundled samples all read through it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping

from core.formats import Loaded, ReadOptions, TableBudget, load_files
from core.model.errors import Diagnostic, SpanScopeError


def bug_diagnostic(filename: str, exc: BaseException) -> Diagnostic:
    """The error shown when reading raised something other than ``SpanScopeError``: a bug in
    SpanScope (the readers promise ``FormatError`` for every bad input), said as such.

    >>> str(bug_diagnostic("a.json", KeyError("x")))[:58]
    'a.json: SpanScope failed to read this file (KeyError); thi'
    """
    return Diagnostic(
        filename,
        f"SpanScope failed to read this file ({type(exc).__name__}); this is a bug in "
        "SpanScope, not necessarily in your file: please report it with the file",
        severity="error",
    )


def guarded_load(files: Mapping[str, bytes], *, name: str, fmt: str | None = None,
                 options: ReadOptions | None = None) -> tuple[Loaded | None, Diagnostic | None]:
    """``(loaded, None)``, or ``(None, the error)`` when the input cannot be read. Columnar
    tables are read under the server's budget (:meth:`core.formats.TableBudget.from_env`)."""
    try:
        budget = TableBudget.from_env(os.environ)
        options = dataclasses.replace(options or ReadOptions(), table_budget=budget)
        return load_files(files, fmt=fmt or None, name=name, options=options), None
    except SpanScopeError as exc:
        diag = getattr(exc, "diagnostic", None) or Diagnostic(name, str(exc), severity="error")
        return None, diag
    except Exception as exc:  # a reader bug must not become a traceback box for a visitor
        return None, bug_diagnostic(name, exc)
