"""CSV cells a spreadsheet cannot run: OWASP's rule against CSV (formula) injection.

A spreadsheet program treats a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return as a formula: an id or label such as ``=HYPERLINK("http://…","x")`` read from
someone's annotation file would become a live link in the reader's spreadsheet. Every CSV that
SpanScope writes passes its text cells through :func:`cell`, which puts a single quote before
such a cell (the quote is shown by spreadsheets as a text marker, not as part of the value);
every reader of SpanScope's own CSVs passes them back through :func:`uncell`.

To keep the round trip exact, a cell that already starts with quotes followed by one of those
characters gets one more quote, and :func:`uncell` removes exactly one: for every string ``s``,
``uncell(cell(s)) == s``. Writers offer ``--csv-raw`` for those who need the bytes as read.

Source: OWASP, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection.
"""

from __future__ import annotations

import re
from typing import Any

TRIGGERS = "=+-@\t\r"
"""First characters that make a spreadsheet evaluate a cell."""

_RISKY = re.compile(r"'*[=+\-@\t\r]")
_QUOTED = re.compile(r"'+[=+\-@\t\r]")


def cell(value: Any) -> Any:
    """``value`` made inert when it is a string a spreadsheet would evaluate; anything else
    unchanged.

    >>> cell("=1+1"), cell("-x"), cell("'=a"), cell("plain"), cell(-1)
    ("'=1+1", "'-x", "''=a", 'plain', -1)
    """
    if isinstance(value, str) and _RISKY.match(value):
        return "'" + value
    return value


def uncell(value: Any) -> Any:
    """The inverse of :func:`cell` for a cell read back from one of our CSVs.

    >>> uncell("'=1+1"), uncell("''=a"), uncell("'plain"), uncell("plain")
    ('=1+1', "'=a", "'plain", 'plain')
    """
    if isinstance(value, str) and _QUOTED.match(value):
        return value[1:]
    return value
