"""What the columnar (fast) readers share: vectorised checks, lazy line numbers, warning groups.

A fast reader decodes a file with a C parser (``orjson``, ``pyarrow``), gathers its fields into
plain lists and NumPy arrays without building one :class:`~core.model.Span` per span, and checks
them in vectorised passes. Errors stay exactly those of the reader's precise path: on the first
sign of an invalid value the fast reader gives up (returns None) and the precise path runs and
raises its message (file, line, field). Warnings are recorded per kind as one grouped
:class:`~core.errors.Diagnostic` (``count``, the first occurrence, the rest on demand) whose
listing gives the messages, fields and order of the precise path (issue 15, target 1).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from core.errors import Diagnostic, Occurrences, Position
from core.formats import Loaded


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a parser builds many acyclic objects (a
    decoded file's dicts and lists): its passes over them find nothing and cost up to a
    third of the read."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_WS_ASCII = np.zeros(256, dtype=bool)
_WS_ASCII[[c for c in range(128) if chr(c).isspace()]] = True


def whitespace_edges(texts: Sequence[str | None], doc: np.ndarray, start: np.ndarray,
                     end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each span's first and last characters are whitespace (``str.isspace``).

    Spans of documents without text get False. ASCII texts are looked up in one byte buffer;
    spans of other texts are checked one by one.
    """
    n = len(doc)
    begins = np.zeros(n, dtype=bool)
    ends = np.zeros(n, dtype=bool)
    if not n:
        return begins, ends
    ascii_doc = np.array([t is not None and t.isascii() for t in texts], dtype=bool)
    lengths = np.array([0 if t is None else len(t) for t in texts], dtype=np.int64)
    # Spans past their text (kept under --beyond-text clip/official) are checked one by one,
    # on the clipped fragment, as the precise path slices it.
    fast = ascii_doc[doc] & (end <= lengths[doc])
    ascii_lengths = np.where(ascii_doc, lengths, 0)
    base = np.concatenate(([0], np.cumsum(ascii_lengths)))
    buffer = np.frombuffer("".join([t for t, a in zip(texts, ascii_doc.tolist(), strict=True)
                                    if a and t is not None]).encode("ascii"), dtype=np.uint8)
    rows = np.flatnonzero(fast)
    if len(rows):
        at = base[doc[rows]]
        begins[rows] = _WS_ASCII[buffer[at + start[rows]]]
        ends[rows] = _WS_ASCII[buffer[at + end[rows] - 1]]
    del buffer
    for k in np.flatnonzero(~fast).tolist():
        text = texts[int(doc[k])]
        if text is None:
            continue
        fragment = text[int(start[k]):int(end[k])]
        begins[k] = fragment[:1].isspace()
        ends[k] = fragment[-1:].isspace()
    return begins, ends


def whitespace_message(start: int, end: int, fragment: str) -> str:
    """The precise path's wording (:func:`core.formats._common.span_warnings`)."""
    first, last = fragment[:1].isspace(), fragment[-1:].isspace()
    edge = "begins and ends" if first and last else "begins" if first else "ends"
    return f"the span [{start}, {end}) {edge} in whitespace: {fragment!r}"


class LineFinder:
    """The line of a JSON path in a file, computed on first use (as ``lines_from`` does)."""

    def __init__(self, file: str, data: bytes) -> None:
        self.file = file
        # A file without a line break needs no index: every value is on line 1.
        self._data: bytes | None = data if b"\n" in data else None
        self._locator: object | None = None

    def __call__(self, path: str) -> int | None:
        if self._data is None:
            return 1
        from core.formats import decode
        from core.formats._common import JsonLocator

        if self._locator is None:
            self._locator = JsonLocator(decode(self.file, self._data))
        assert isinstance(self._locator, JsonLocator)
        return self._locator.line_of(path)


Produce = Callable[[], Iterator[tuple[Position, Diagnostic]]]


def add_group(loaded: Loaded, group: object, count: int, produce: Produce) -> None:
    """Record ``count`` warnings of one kind as one grouped diagnostic on ``loaded``.

    ``produce`` yields every occurrence with its position in the file; the groups of one
    ``group`` are listed interleaved by position (:func:`core.errors.expand`).
    """
    if not count:
        return
    first = next(produce())[1]
    loaded.diagnostics.append(Diagnostic(first.file, first.message, first.line, first.field,
                                         first.path, first.severity, first.kind, count,
                                         Occurrences(group, produce)))
