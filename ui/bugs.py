"""The error a page shows for a file that could not be read: the reader's ``FormatError``, or a
bug in SpanScope said as such (never a traceback box; issue 18)."""

from __future__ import annotations

from core.errors import Diagnostic, SpanScopeError


def error_of(filename: str, exc: BaseException) -> Diagnostic:
    """The ``FormatError``'s diagnostic, or, for any other exception, a message that says the
    readers broke their promise (every bad input is a ``FormatError``): a bug to report."""
    if isinstance(exc, SpanScopeError):
        diag = getattr(exc, "diagnostic", None)
        return diag if isinstance(diag, Diagnostic) else Diagnostic(filename, str(exc),
                                                                    severity="error")
    return Diagnostic(
        filename,
        f"SpanScope failed to read this file ({type(exc).__name__}); this is a bug in "
        "SpanScope, not necessarily in your file: please report it with the file",
        severity="error",
    )
