"""What the readers share: one validating span builder, vectorised checks, lazy line numbers,
warning groups (``docs/formats.md``, "the reader contract").

Every reader feeds its spans to a :class:`SpanBuilder` (issue 25). A fast reader decodes a file
with a C parser (``msgspec``, ``orjson``, ``pyarrow``), hands whole columns to the builder
without building one :class:`~core.model.Span` per span, and checks them in vectorised passes
(:meth:`SpanBuilder.valid`, :meth:`SpanBuilder.repeats`). It is the one path that produces
data: on the first sign of an invalid value it gives up (returns None) and the format's
explaining pass runs and raises its message (file, line, field), never returning data itself
(:func:`unexplained` when it finds nothing).
Warnings are recorded per kind as one grouped :class:`~core.model.errors.Diagnostic` (``count``, the
first occurrence, the rest on demand) whose listing gives the messages, fields and order of the
explaining pass (issue 15, target 1).

The annotation-tool readers (brat, doccano, Label Studio, CoNLL, spaCy, WebAnno TSV, UIMA XMI)
validate span by span with their own messages and :meth:`SpanBuilder.add` four integers a
span, and go through large files a line or a record at a time (:func:`iter_lines`,
:class:`JsonLines`), so that their peak memory stays a small multiple of the file
(``docs/performance.md``, "Tool formats and Parquet: peak memory").
"""

from __future__ import annotations

import contextlib
import gc
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from core.formats import Loaded
from core.model import SpanTable, SpanView
from core.model.errors import Diagnostic, FormatError, KindedText, Occurrences, Position
from core.model.textsafe import MAX_OFFSET_DIGITS, fragment_repr


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
                     end: np.ndarray, *, chunk: int = 1 << 20) -> tuple[np.ndarray, np.ndarray]:
    """Whether each span's first and last characters are whitespace (``str.isspace``).

    Spans of documents without text get False. ASCII texts are looked up in a byte buffer of
    the texts of a few documents at a time (about ``chunk`` characters, so that a corpus's
    texts are never copied whole); spans of other texts are checked one by one. A MiB a
    buffer stays in the processor's cache and in memory already mapped: with 8 MiB, joining
    and encoding each buffer cost twice the rest (27 against 11 ms on 20,000 texts of 950
    characters; issue 29).
    """
    n = len(doc)
    begins = np.zeros(n, dtype=bool)
    ends = np.zeros(n, dtype=bool)
    if not n:
        return begins, ends
    ascii_doc = np.array([t is not None and t.isascii() for t in texts], dtype=bool)
    lengths = np.array([0 if t is None else len(t) for t in texts], dtype=np.int64)
    # Spans past their text (kept under --beyond-text clip/official) are checked one by one,
    # on the clipped fragment, as span_warnings slices it.
    fast = ascii_doc[doc] & (end <= lengths[doc])
    rows = np.flatnonzero(fast)
    if len(rows):
        rows = rows[np.argsort(doc[rows], kind="stable")]
        docs_of = doc[rows]
        ascii_lengths = np.where(ascii_doc, lengths, 0)
        total = np.cumsum(ascii_lengths)
        first = 0
        while first < len(texts):
            # Documents first..last-1 hold about `chunk` characters of ASCII text.
            before = int(total[first - 1]) if first else 0
            last = max(first + 1, int(np.searchsorted(total, before + chunk, side="right")))
            lo, hi = np.searchsorted(docs_of, [first, last])
            if hi > lo:
                base = np.concatenate(([0], np.cumsum(ascii_lengths[first:last])))
                buffer = np.frombuffer("".join([
                    t for t in texts[first:last] if t is not None and t.isascii()
                ]).encode("ascii"), dtype=np.uint8)
                part = rows[lo:hi]
                at = base[doc[part] - first]
                begins[part] = _WS_ASCII[buffer[at + start[part]]]
                ends[part] = _WS_ASCII[buffer[at + end[part] - 1]]
                del buffer
            first = last
    for k in np.flatnonzero(~fast).tolist():
        text = texts[int(doc[k])]
        if text is None:
            continue
        fragment = text[int(start[k]):int(end[k])]
        begins[k] = fragment[:1].isspace()
        ends[k] = fragment[-1:].isspace()
    return begins, ends


def whitespace_message(start: int, end: int, fragment: str) -> str:
    """The wording of span_warnings (:func:`core.formats._common.span_warnings`)."""
    first, last = fragment[:1].isspace(), fragment[-1:].isspace()
    edge = "begins and ends" if first and last else "begins" if first else "ends"
    # The kind named: the fragment quoted may hold another kind's phrase ("appears twice").
    return KindedText(f"the span [{start}, {end}) {edge} in whitespace: "
                      f"{fragment_repr(fragment)}", "whitespace")


def offset_column(cells: Any) -> np.ndarray | None:
    """Arrow string cells as int64 offsets: decimal digits (one vectorised pass), else each
    cell as :func:`~core.formats._common.digit_offset` reads it (``+5``, `` 7``, ``007``);
    None when one is not an offset."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from core.formats._common import digit_offset

    digits = f"^[0-9]{{1,{MAX_OFFSET_DIGITS}}}$"
    if pc.all(pc.match_substring_regex(cells, digits), min_count=0).as_py():
        pool = pa.system_memory_pool()  # gives freed buffers back (peak memory)
        return pc.cast(cells, pa.int64(), memory_pool=pool).to_numpy(zero_copy_only=False)
    values = [digit_offset(c) for c in cells.to_pylist()]
    if None in values:
        return None
    return np.array(values, dtype=np.int64)


def unexplained(file: str, fmt: str) -> FormatError:
    """The error of an explaining pass that found nothing wrong in a file its columnar reader
    refused: a bug, which no reader answers with data read another way."""
    return FormatError(file, f"SpanScope could not read this {fmt} file: its reader refused it "
                       "but found no invalid value to name; please report this as a bug, with "
                       "the file if you can")


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
    ``group`` are listed interleaved by position (:func:`core.model.errors.expand`).
    """
    if not count:
        return
    first = next(produce())[1]
    loaded.diagnostics.append(Diagnostic(first.file, first.message, first.line, first.field,
                                         first.path, first.severity, first.kind, count,
                                         Occurrences(group, produce)))


class SpanBuilder:
    """The spans of one annotation set gathered as columns, checked in vectorised passes.

    Every reader feeds one of these (issue 25, "one validating builder"). The tool-format
    readers validate each span as they meet it (``make_span``, ``check_label``: their messages)
    and :meth:`add` four integers instead of keeping a :class:`~core.model.Span` and a list per
    document (issue 15, target 1); the fast readers of SemEval-2021 JSON, spans CSV/JSONL and
    PTC TSV hand over whole columns (:meth:`add_columns`) and ask :meth:`valid` whether every
    value is valid, and :meth:`repeats` which rows repeat a span
    of their document, without building spans. :meth:`table` sorts the rows as
    :func:`~core.formats._common.sorted_spans` sorts; :meth:`spans` gives the mapping an
    :class:`~core.model.AnnotationSet` holds.

    >>> cols = SpanBuilder()
    >>> d = cols.document("a")
    >>> cols.add(d, 5, 9, "B"); cols.add(d, 0, 4, "A"); _ = cols.document("b")
    >>> dict(cols.spans())
    {'a': (Span(start=0, end=4, label='A'), Span(start=5, end=9, label='B')), 'b': ()}
    """

    def __init__(self) -> None:
        self.doc_ids: list[str] = []
        self._index: dict[str, int] | None = {}  # None: to be made from doc_ids when asked
        self._doc = array("i")
        self._start = array("q")
        self._end = array("q")
        self._label = array("i")
        self._labels: dict[str, int] = {}
        self._chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self._table: SpanTable | None = None

    def __len__(self) -> int:
        return len(self._doc) + sum(len(c[0]) for c in self._chunks)

    def document(self, doc_id: str) -> int:
        """The index of ``doc_id``, added (after the documents seen so far) when new."""
        index = self._documents_index()
        i = index.get(doc_id)
        if i is None:
            i = index[doc_id] = len(self.doc_ids)
            self.doc_ids.append(doc_id)
        return i

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._documents_index()

    def _documents_index(self) -> dict[str, int]:
        if self._index is None:
            self._index = dict(zip(self.doc_ids, range(len(self.doc_ids)), strict=True))
        return self._index

    @property
    def labels(self) -> list[str]:
        """The label names, numbered in order of first appearance."""
        return list(self._labels)

    def label_codes(self, labels: Sequence[str]) -> list[int]:
        """The codes of ``labels``, a label not seen before numbered after the others."""
        index = self._labels
        try:
            return list(map(index.__getitem__, labels))
        except KeyError:
            for label in labels:
                index.setdefault(label, len(index))
            return list(map(index.__getitem__, labels))

    def add(self, doc: int, start: int, end: int, label: str) -> None:
        """One span of document index ``doc`` (values already validated)."""
        code = self._labels.get(label)
        if code is None:
            code = self._labels[label] = len(self._labels)
        self._doc.append(doc)
        self._start.append(start)
        self._end.append(end)
        self._label.append(code)

    def add_columns(self, doc: np.ndarray, start: np.ndarray, end: np.ndarray,
                    label: np.ndarray, *, labels: Sequence[str] | None = None,
                    doc_ids: Sequence[str] | None = None) -> None:
        """Whole columns of spans, after those added so far (the arrays are kept, not copied).

        ``label`` indexes ``labels`` and ``doc`` indexes ``doc_ids`` (distinct ids) when they
        are given (a parser's own dictionary), else the builder's labels and documents.
        """
        if labels is not None:
            codes = np.asarray(self.label_codes(labels), dtype=np.int32)
            if not np.array_equal(codes, np.arange(len(codes))):
                label = codes[label]
        if doc_ids is not None:
            doc = self._documents(doc_ids, doc)
        self._flush()
        self._chunks.append((np.asarray(doc, dtype=np.int32), np.asarray(start, dtype=np.int64),
                             np.asarray(end, dtype=np.int64), np.asarray(label, dtype=np.int32)))

    def _documents(self, doc_ids: Sequence[str], doc: np.ndarray) -> np.ndarray:
        """``doc`` (indices into ``doc_ids``) as indices of the builder's documents."""
        if not self.doc_ids:  # the common case: no index made until one is asked for
            self._index, self.doc_ids = None, list(doc_ids)
            return doc
        codes = np.asarray([self.document(d) for d in doc_ids], dtype=np.int32)
        return codes[doc] if not np.array_equal(codes, np.arange(len(codes))) else doc

    def _flush(self) -> None:
        """Move the spans added one by one into a chunk (file order is kept)."""
        if self._doc:
            self._chunks.append((np.frombuffer(self._doc, dtype=np.int32),
                                 np.frombuffer(self._start, dtype=np.int64),
                                 np.frombuffer(self._end, dtype=np.int64),
                                 np.frombuffer(self._label, dtype=np.int32)))
            self._doc, self._start = array("i"), array("q")
            self._end, self._label = array("q"), array("i")

    def clear(self, doc: int) -> None:
        """Forget the spans added so far to document index ``doc`` (a later file replaces an
        earlier one, as assigning to a dict key does); the document keeps its place."""
        for k, d in enumerate(self._doc):
            if d == doc:
                self._doc[k] = -1
        for chunk in self._chunks:
            chunk[0][chunk[0] == doc] = -1

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``doc, start, end, label`` of every span in the order added (file order)."""
        self._flush()
        if not self._chunks:
            empty = np.zeros(0, dtype=np.int64)
            return (empty.astype(np.int32), empty, empty.copy(), empty.astype(np.int32))
        if len(self._chunks) > 1:
            doc, start, end, label = (np.concatenate(c) for c in zip(*self._chunks, strict=True))
            self._chunks = [(doc, start, end, label)]
        doc, start, end, label = self._chunks[0]
        if len(doc) and doc.min() < 0:
            keep = doc >= 0
            return doc[keep], start[keep], end[keep], label[keep]
        return doc, start, end, label

    def valid(self, *, allowed: Sequence[str] | None = None,
              lengths: np.ndarray | None = None) -> bool:
        """Whether every span is valid, checked on the columns:
        offsets of at most :data:`~core.model.textsafe.MAX_OFFSET_DIGITS` digits, ``end > start``,
        a non-blank label from ``allowed`` (when given), and with ``lengths`` (one per
        document, -1 when its text is unknown) an ``end`` within the text."""
        if any(not x.strip() for x in self._labels):
            return False
        if allowed is not None and not set(self._labels) <= set(allowed):
            return False
        doc, start, end, _ = self.columns()
        if not len(start):
            return True
        limit = 10**MAX_OFFSET_DIGITS
        if start.min() < 0 or end.max() >= limit or np.any(end <= start):
            return False
        if lengths is not None:
            doc_len = lengths[doc]
            return not np.any((doc_len >= 0) & (end > doc_len))
        return True

    def table(self) -> SpanTable:
        """The spans as a sorted table (built once)."""
        if self._table is None:
            doc, start, end, label = self.columns()
            self._table = SpanTable.from_columns(self.doc_ids, doc, start, end, label,
                                                 list(self._labels))
        return self._table

    def spans(self) -> SpanView:
        """``{document id: (Span, ...)}`` over the columns (documents in first-seen order)."""
        return SpanView(self.table())

    def repeats(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows (file order) that repeat an earlier span of their document, and for each
        the row of its first copy: the duplicate-span warnings
        (:func:`~core.formats._common.duplicate_span_warnings`), found on the columns."""
        none = np.zeros(0, dtype=np.int64)
        table = self.table()
        if len(table) < 2:
            return none, none
        d, s, e, lab = table.doc, table.start, table.end, table.label
        same = (d[1:] == d[:-1]) & (s[1:] == s[:-1]) & (e[1:] == e[:-1]) & (lab[1:] == lab[:-1])
        if not np.any(same):  # the table is sorted: copies are neighbours
            return none, none
        doc, start, end, label = self.columns()
        with_copies = np.zeros(len(self.doc_ids), dtype=bool)
        with_copies[d[1:][same]] = True
        rows = np.flatnonzero(with_copies[doc])
        order = rows[np.lexsort((rows, label[rows], end[rows], start[rows], doc[rows]))]
        again = ((doc[order[1:]] == doc[order[:-1]]) & (start[order[1:]] == start[order[:-1]])
                 & (end[order[1:]] == end[order[:-1]]) & (label[order[1:]] == label[order[:-1]]))
        head = np.maximum.accumulate(np.where(np.concatenate(([False], again)), 0,
                                              np.arange(len(order))))
        repeat = order[1:][again]
        first = order[head[1:][again]]
        by_row = np.argsort(repeat, kind="stable")
        return repeat[by_row], first[by_row]


SpanColumns = SpanBuilder
"""The name the tool-format readers know the builder by."""


def duplicates(spans: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``(start, end, label)`` triples that occur more than once, each repeat listed, in the
    order :func:`~core.formats._common.duplicate_span_warnings` lists them."""
    seen: set[tuple[int, int, str]] = set()
    dups: list[tuple[int, int, str]] = []
    for span in spans:
        if span in seen:
            dups.append(span)
        seen.add(span)
    return dups


def iter_lines(text: str, chunk: int = 1 << 20) -> Iterator[str]:
    """``text.split("\\n")``, one line at a time: the list of every line of a large file is
    never held at once (it costs about 50 bytes a line on top of the text).

    >>> list(iter_lines("a\\nbb\\n\\nc\\n", chunk=2)) == "a\\nbb\\n\\nc\\n".split("\\n")
    True
    """
    start = 0
    n = len(text)
    while True:
        cut = text.find("\n", start + chunk) if start + chunk < n else -1
        if cut < 0:
            yield from text[start:].split("\n")
            return
        yield from text[start:cut].split("\n")
        start = cut + 1


class JsonLines:
    """JSON Lines decoded one line at a time, with the errors of decoding every line first.

    :func:`~core.formats._common.iter_jsonl` decodes the whole file before a reader looks at
    a record, so a malformed line is reported before any invalid record. Iterating this object
    decodes a line when it is reached (the file's objects are never all held at once), and a
    :class:`FormatError` raised inside :meth:`in_file_order` gives way to the first malformed
    line after the current one, which is what the file-at-once reading would have reported.
    """

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self.line = 0

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        from core.formats._common import _decode_json

        for number, raw in enumerate(iter_lines(self.text), start=1):
            if not raw.strip():
                continue
            value = _decode_json(self.file, raw, number)
            self.line = number  # after decoding: a malformed line is found again below
            yield number, value

    @contextlib.contextmanager
    def in_file_order(self) -> Iterator[None]:
        try:
            yield
        except FormatError:
            from core.formats._common import _decode_json

            for number, raw in enumerate(iter_lines(self.text), start=1):
                if number > self.line and raw.strip():
                    _decode_json(self.file, raw, number)
            raise
