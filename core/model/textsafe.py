"""Strings from files made safe to print, encode and parse: one line, valid Unicode, bounded
numbers.

Input files are untrusted: a label, a document id or an annotator name can hold a newline, a
control character or (through a JSON ``\\udfff`` escape) a lone surrogate that no UTF-8 stream can
encode; a number can have more digits than Python converts (``sys.get_int_max_str_digits()``,
4,300 by default). The helpers here are the one place that decides how such values are shown
and refused, so that every message stays on one line (the command line's contract: exit 1 with
ONE line on standard error) and every output encodes as UTF-8.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

MAX_DIGITS = 1000
"""Longest run of digits a JSON number may have before it is kept as text (:class:`HugeNumber`);
Python refuses to convert more than 4,300 (``sys.get_int_max_str_digits``)."""

MAX_OFFSET_DIGITS = 12
"""Longest character offset or integer label accepted, in digits: 10^12 characters is far beyond
any text, and sums of such offsets stay within numpy's 64-bit integers."""

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def one_line(text: str) -> str:
    r"""``text`` with control characters, line separators and lone surrogates escaped.

    The result holds no line break and encodes as UTF-8, so a message that quotes a value from a
    file stays one line.

    >>> one_line("ann\nX")
    'ann\\nX'
    >>> one_line("Do\udfffubt")
    'Do\\udfffubt'
    >>> one_line("plain é")
    'plain é'
    """
    return _CONTROL.sub(_escape, text)


def _invisible(ch: str, marks: bool) -> bool:
    cat = unicodedata.category(ch)
    return (cat == "Cf" or (cat == "Zs" and ch != " ") or cat in ("Zl", "Zp")
            or (marks and cat in ("Mn", "Me")))


def _escaped(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}"


def visible(text: str, *, marks: bool = False) -> str:
    r"""``text`` on one line (:func:`one_line`) with the characters that print as nothing or
    as a plain space escaped: format characters (a byte order mark U+FEFF, a zero-width space
    U+200B, a zero-width joiner), spaces other than U+0020 (a no-break space U+00A0), and,
    with ``marks``, combining marks (``é``: the decomposed é of Unicode's NFD), which a
    message shows when two texts differ in their normalization; without it Hindi or Arabic
    text keeps its vowel signs. Two strings that differ in such a character then look
    different in a message.

    >>> visible("﻿a b​c")
    '\\ufeffa\\u00a0b\\u200bc'
    >>> visible("café", marks=True), visible("café") == "café"
    ('cafe\\u0301', True)
    """
    text = one_line(text)
    if text.isascii():
        return text
    return "".join(_escaped(ch) if _invisible(ch, marks) else ch for ch in text)


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a surrogate code point (only a JSON escape can put one there)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogates(value: Any, path: tuple[str | int, ...] = ()
                    ) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """``(path, string)`` for every string (key or value) of a parsed JSON value that holds a lone
    surrogate, depth first."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                yield where, item
        elif isinstance(item, dict):
            for key, sub in reversed(list(item.items())):
                if isinstance(key, str) and has_lone_surrogate(key):
                    yield (*where, key), key
                stack.append(((*where, key), sub))
        elif isinstance(item, list):
            stack.extend(((*where, i), sub) for i, sub in reversed(list(enumerate(item))))


class HugeNumber:
    """A JSON number with more than :data:`MAX_DIGITS` digits, kept as its text.

    Readers that expect an ``int`` refuse it like any other wrong type; its ``repr`` says how
    long it is instead of printing thousands of digits.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return describe_digits(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HugeNumber) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def describe_digits(text: str) -> str:
    """How a too-long number is named in a message: ``a 5000-digit number 99999…``."""
    digits = sum(c.isdigit() for c in text)
    return f"a {digits}-digit number {text[:12]}…"


def parse_json_int(text: str) -> int | HugeNumber:
    """``parse_int`` for :func:`json.loads`: an int, or a :class:`HugeNumber` when too long."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        return HugeNumber(text)
    return int(text)


def parse_json_float(text: str) -> float | HugeNumber:
    """``parse_float`` for :func:`json.loads`; a float written with absurdly many digits is
    kept as text (``float()`` accepts it, but nothing in a span file needs it)."""
    if len(text) > 4 * MAX_DIGITS:
        return HugeNumber(text)
    return float(text)


def folded(text: str) -> str:
    """``text`` as a search compares it: composed (Unicode NFC, so ``é`` typed as one character
    finds the ``e`` and combining accent of an NFD text) and case-folded (``casefold``: ``ß``
    finds ``SS``, ``Σ`` finds ``ς``).

    >>> folded("Cafe\\u0301") == folded("CAFÉ"), folded("Straße") == folded("STRASSE")
    (True, True)
    """
    return unicodedata.normalize("NFC", text).casefold()


def search_match(query: str, *texts: str | None) -> bool:
    """Whether ``query`` occurs in any of ``texts`` (None: no text), both :func:`folded`.

    >>> search_match("café", "doc 1", "Le cafe\\u0301 de Zoe\\u0308"), search_match("x", None)
    (True, False)
    """
    q = folded(query)
    return any(t is not None and q in folded(t) for t in texts)


FRAGMENT_SHOWN = 80
"""Longest fragment a warning quotes whole; a longer one shows its two ends and its length."""


def fragment_repr(fragment: str, limit: int = FRAGMENT_SHOWN) -> str:
    r"""``repr(fragment)``, or for a fragment longer than ``limit`` its first and last
    ``limit // 2`` characters with its length, so a warning about a span that covers a whole
    document (a UIMA ``Text`` or TEI ``body`` annotation, thousands of characters) stays one
    readable line that still shows the edge it is about.

    >>> fragment_repr("ab ")
    "'ab '"
    >>> fragment_repr(" " + "x" * 100 + "\n", limit=10)
    "' xxxx' … 'xxxx\\n' (102 characters)"
    """
    if len(fragment) <= limit:
        return repr(fragment)
    half = limit // 2
    return f"{fragment[:half]!r} … {fragment[-half:]!r} ({len(fragment)} characters)"
