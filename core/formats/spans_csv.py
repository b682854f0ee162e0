"""Plain spans as CSV or JSON Lines: ``doc_id, start, end, label[, annotator]``.

The simplest exchange format: one span per row, with a header naming the columns (any order;
extra columns are reported once and ignored). An ``annotator`` column splits the rows into one
annotation set per annotator (role ``annotator``). A row with a ``doc_id`` and empty ``start``,
``end`` and ``label`` declares a document without spans, so that "found nothing" survives a round
trip. The file carries no texts.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any, NoReturn

import numpy as np

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import (
    SpanBuilder,
    add_group,
    offset_column,
    unexplained,
    whitespace_message,
)
from core.formats._common import (
    check_label,
    csv_problem,
    digit_offset,
    iter_jsonl,
    make_span,
    set_name_of,
    span_warnings,
)
from core.formats.csvsafe import cell, uncell
from core.model import AnnotationSet, Role, Span, bounds
from core.model.errors import Diagnostic, FormatError, Position

FORMAT = "spans-csv"
REQUIRED = ("doc_id", "start", "end", "label")
OPTIONAL = ("annotator",)


def sniff(filename: str, head: str) -> int:
    lower = filename.lower()
    first = head.lstrip().split("\n", 1)[0]
    if first.startswith("{"):
        if all(f'"{k}"' in first for k in REQUIRED):
            return 90
        return 0
    if len(first) > 4096:
        return 0  # not a header line (a one-line JSON file, say): splitting it costs time
    cols = [c.strip().strip('"').lower() for c in first.split(",")]
    if all(k in cols for k in REQUIRED):
        return 95 if lower.endswith(".csv") else 70
    if lower.endswith(".csv") and "doc_id" in cols:
        return 40  # probably ours with a column missing: let the reader say which
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one CSV or JSONL file; one set, or one per annotator when that column exists.

    One path produces the data: :func:`read_csv_fast` for a CSV, :func:`read_jsonl_fast` for
    JSON Lines (a file whose first character is ``{``). A file they refuse is invalid, and
    :func:`explain` raises the error naming file, line and field.
    """
    if len(files) != 1:
        raise FormatError(name, f"expected one CSV or JSONL file, got {len(files)} files")
    (data,) = files.values()
    jsonl = _is_jsonl(data)
    if jsonl is not None:
        reader = read_jsonl_fast if jsonl else read_csv_fast
        loaded = reader(data, name=name, options=options)
        if loaded is not None:
            return loaded
    explain(files, name=name, options=options)


def _is_jsonl(data: bytes) -> bool | None:
    """Whether the file is JSON Lines (its first character after whitespace is ``{``), as
    :func:`explain` decides on the decoded text; None when the text is not UTF-8."""
    raw = data[3:] if data.startswith(_BOM) else data
    first = raw.lstrip()[:1]
    if first == b"{":
        return True
    if first and (first >= b"\x80" or first < b" "):  # whitespace str.strip knows, maybe
        try:
            return decode("", data).lstrip().startswith("{")
        except FormatError:
            return None
    return False


def explain(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> NoReturn:
    """The explaining pass over a file the columnar readers refused: a dict per row, in file
    order, so that the first invalid value raises its :class:`FormatError` (line and field).
    It never returns data: a file in which it finds nothing wrong is a bug of the columnar
    path, reported as such."""
    if len(files) != 1:
        raise FormatError(name, f"expected one CSV or JSONL file, got {len(files)} files")
    (data,) = files.values()
    file = name
    content = decode(file, data)
    loaded = Loaded(FORMAT, file)  # the warnings met on the way, discarded
    if content.lstrip().startswith("{"):
        rows = _jsonl_rows(file, content)
    else:
        rows = _csv_rows(file, content, loaded)
    with_annotator = False
    for line, row in rows:
        _row_doc_id(row, file, line)
        annotator = row.get("annotator")
        if annotator not in (None, ""):
            with_annotator = True
        start, end, label = row.get("start"), row.get("end"), row.get("label")
        if all(v in (None, "") for v in (start, end, label)):
            continue  # declares the document; it may have no span
        _row_span(row, file, line, options, loaded)
    without = [str(line) for line, row in rows if row.get("annotator") in (None, "")]
    if with_annotator and without:
        lines = without[:5]
        raise FormatError(file, "rows without an annotator in a file with an annotator column "
                          f"(lines {', '.join(lines)})", field="annotator")
    raise unexplained(file, FORMAT)


def _row_doc_id(row: Mapping[str, Any], file: str, line: int) -> str:
    doc = row.get("doc_id")
    if doc is None or (isinstance(doc, str) and not doc.strip()):
        raise FormatError(file, "missing (every row needs a document id)", line=line,
                          field="doc_id")
    if isinstance(doc, bool) or not isinstance(doc, (str, int)):
        raise FormatError(file, f"expected a string document id, got {doc!r}", line=line,
                          field="doc_id")
    return str(doc)


def _row_span(row: Mapping[str, Any], file: str, line: int, options: ReadOptions,
              loaded: Loaded) -> Span:
    """The span of a row, checked against the label list and the gold text; its warnings
    given."""
    span = make_span(row.get("start"), row.get("end"), row.get("label"), file, line=line,
                     text=None, beyond_text=options.beyond_text)
    check_label(span.label, options.labels, file, field="label", line=line)
    doc_id = str(row.get("doc_id"))
    text = options.gold_texts.get(doc_id) if options.gold_texts is not None else None
    if text is not None:
        if span.end > len(text) and options.beyond_text == "refuse":
            raise FormatError(file, bounds.past_text(len(text), span.end), line=line,
                              field="end")
        for message, fld in span_warnings(span, text):
            loaded.warn(message, line=line, field=fld)
    return span


def _repeated(spans: SpanBuilder) -> Iterator[tuple[int, str, int, int, str]]:
    """``(document index, document id, start, end, label)`` of every span that repeats an
    earlier one of its document: documents in order, file order within each
    (:func:`~core.formats._common.duplicate_span_warnings`, found on the columns)."""
    repeat, _ = spans.repeats()
    if not len(repeat):
        return
    doc, start, end, label = spans.columns()
    repeat = repeat[np.lexsort((repeat, doc[repeat]))]
    names, doc_ids = spans.labels, spans.doc_ids
    for r in repeat.tolist():
        yield int(doc[r]), doc_ids[doc[r]], int(start[r]), int(end[r]), names[label[r]]


_BOM = b"\xef\xbb\xbf"
_UNUSUAL = re.compile(rb'["\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x85\xa0]|\xe1\x9a\x80'
                      rb"|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80")
"""Bytes that send a CSV to the ``csv`` module's tokeniser: quotes (its quoting rules),
control characters, and whitespace that ``str.strip`` and Arrow's trim may treat differently."""
_QUOTED_CELL = re.compile(rb"(?m)(?:^|,)'+[=+\-@\t\r]")
"""A cell that our writer quoted (:func:`core.formats.csvsafe.cell`)."""


_BLANK = r"^\s*$"  # after _UNUSUAL, the only whitespace is ASCII: str.strip() gives ""

RETOKENISED: Counter[str] = Counter()
"""CSV files :func:`read_csv_fast` tokenised with the ``csv`` module rather than
``pyarrow.csv`` (``csv``), and JSON Lines files :func:`read_jsonl_fast` tokenised with the
standard library's ``json`` rather than ``orjson`` (``jsonl``), in this process: their values
go to the same columns and checks. The bench corpora add nothing here
(``tests/formats/test_fast_path_guard.py``)."""

FALLBACKS: Counter[str] = Counter()
"""Files the columnar readers refused in this process (``csv``, ``jsonl``): invalid files,
which :func:`explain` names."""

Columns = dict[str, Any]
"""A CSV's cells as Arrow string columns, by lower-cased header name."""


def read_csv_fast(data: bytes, *, name: str, options: ReadOptions) -> Loaded | None:
    """The columnar CSV reader, the one path that reads spans CSV: the cells tokenised into
    string columns, fed to one :class:`SpanBuilder` per set, checked in vectorised passes,
    duplicate-span warnings grouped; None when a value is invalid, so that :func:`explain`
    names it.

    ``pyarrow.csv`` tokenises a plain file; a file with quotes, control characters or unusual
    whitespace, a lone CR, a cell our writer quoted (:mod:`core.formats.csvsafe`), a header
    naming a column twice, a field longer than the ``csv`` module's limit, or texts to check
    the spans against (``gold_texts``, whose warnings name lines) is tokenised by the ``csv``
    module into the same columns (:data:`RETOKENISED`).
    """
    raw = data[3:] if data.startswith(_BOM) else data
    found = _arrow_tokens(raw) if _plain(raw, options) else None
    if found is None:
        RETOKENISED["csv"] += 1
        found = _csv_tokens(name, data)
    if found is None:
        return _fallback("csv")
    cols, names, lines = found
    found_sets = _csv_sets(cols, set_name_of(name), options)
    if found_sets is None:
        return _fallback("csv")
    sets, with_annotator = found_sets
    loaded = Loaded(FORMAT, name)
    extra = [h for h in names if h not in REQUIRED + OPTIONAL]
    if extra:
        loaded.warn(f"extra columns ignored: {', '.join(extra)}", line=1, kind="ignored")
    if options.gold_texts is not None:
        import pyarrow.compute as pc

        spans_at = pc.invert(_declares(cols))
        starts, ends = (offset_column(pc.filter(cols[k], spans_at)) for k in ("start", "end"))
        assert starts is not None and ends is not None  # checked by _csv_sets
        if not _gold_text_warnings(loaded, pc.filter(cols["doc_id"], spans_at).to_pylist(),
                                   starts.tolist(), ends.tolist(),
                                   lines[spans_at.to_numpy(zero_copy_only=False)].tolist(),
                                   options):
            return _fallback("csv")
    return _finish(loaded, sets, with_annotator, options)


def _fallback(kind: str) -> Loaded | None:
    """A columnar reader's refusal (None), counted in :data:`FALLBACKS`."""
    FALLBACKS[kind] += 1
    return None


def _plain(raw: bytes, options: ReadOptions) -> bool:
    """Whether ``pyarrow.csv`` reads the file's cells as the ``csv`` module does."""
    if (options.gold_texts is not None or not raw.strip() or raw.lstrip()[:1] == b"{"
            or raw.startswith(_BOM)):  # a second BOM: Arrow would drop it from the header
        return False
    if _UNUSUAL.search(raw) or raw.count(b"\r") != raw.count(b"\r\n"):
        return False  # control characters, odd whitespace, a lone CR
    return not _QUOTED_CELL.search(raw)  # a cell our writer quoted: uncell() reads it


def _arrow_tokens(raw: bytes) -> tuple[Columns, list[str], np.ndarray] | None:
    """A plain file's columns, header names and (unknown: empty) row lines by ``pyarrow``."""
    header = _csv_header(raw)
    if header is None:
        return None
    cols = _arrow_columns(raw, header)
    if cols is None:
        return None
    return cols, list(cols), np.zeros(0, dtype=np.int64)


def _csv_tokens(file: str, data: bytes) -> tuple[Columns, list[str], np.ndarray] | None:
    """The file's columns as the ``csv`` module reads them (:func:`explain`'s reading: blank
    rows skipped, each cell through :func:`~core.formats.csvsafe.uncell`, the last of two
    columns of one name kept), the header names and the line of each row; None when the
    file does not tokenise (an error :func:`explain` names)."""
    import pyarrow as pa

    try:
        content = decode(file, data)
    except FormatError:
        return None
    reader = csv.reader(io.StringIO(content, newline=""))
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        return None
    names = [h.strip().lower() for h in header]
    if any(k not in names for k in REQUIRED):
        return None
    index = {n: i for i, n in enumerate(names)}
    wanted = {n: index[n] for n in (*REQUIRED, *OPTIONAL) if n in index}
    values: dict[str, list[str]] = {n: [] for n in wanted}
    lines: list[int] = []
    width = len(names)
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != width:
                return None
            for n, at in wanted.items():
                values[n].append(uncell(cells[at]))
            lines.append(reader.line_num)
    except csv.Error:
        return None
    if any(not d.strip() for d in values["doc_id"]):
        return None
    cols = {n: pa.chunked_array([pa.array(v, type=pa.string())]) for n, v in values.items()}
    return cols, names, np.array(lines, dtype=np.int64)


def _csv_header(raw: bytes) -> list[str] | None:
    """The header cells of a CSV ``pyarrow`` can tokenise (the csv module's reading), or
    None."""
    cut = raw.find(b"\n")
    try:
        first = (raw if cut < 0 else raw[:cut]).decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in first.rstrip("\r"):
        return None  # a lone CR ends a row for the csv module
    try:
        header = next(csv.reader([first]))
    except (csv.Error, StopIteration):
        return None
    names = [h.strip().lower() for h in header]
    if len(set(names)) != len(names) or len(set(header)) != len(header) or any(
            k not in names for k in REQUIRED):
        return None
    return header


def _arrow_columns(raw: bytes, header: list[str]) -> Columns | None:
    """The file's string columns by lower-cased name, rows of blank cells only dropped; None
    when Arrow or the csv module would read the file otherwise."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyarrow import csv as pa_csv
    except ImportError:  # pragma: no cover - pyarrow is a pinned dependency
        return None
    try:
        table = pa_csv.read_csv(
            pa.py_buffer(raw if raw.endswith((b"\n", b"\r")) else raw + b"\n"),
            read_options=pa_csv.ReadOptions(use_threads=False),
            parse_options=pa_csv.ParseOptions(quote_char=False),
            convert_options=pa_csv.ConvertOptions(
                column_types={h: pa.string() for h in header}, strings_can_be_null=False,
                quoted_strings_can_be_null=False),
            memory_pool=_pool(pa))
    except (pa.ArrowInvalid, pa.ArrowKeyError):
        return None  # a row with another number of cells, bytes that are not UTF-8
    if table.column_names != header:
        return None
    limit = csv.field_size_limit()
    if len(raw) > limit and any(
            (pc.max(pc.utf8_length(table.column(h))).as_py() or 0) > limit for h in header):
        return None  # the csv module refuses a field this long: explain() says so
    cols = {h.strip().lower(): table.column(h) for h in header}
    del table
    blank = None
    for col in cols.values():
        empty = pc.match_substring_regex(col, _BLANK)  # a bitmap, no trimmed copy
        blank = empty if blank is None else pc.and_(blank, empty)
    if blank is not None and pc.any(blank).as_py():
        keep = pc.invert(blank)
        cols = {n: pc.filter(c, keep) for n, c in cols.items()}
    return cols


def _declares(cols: Columns) -> Any:
    """Which rows declare a document (empty ``start``, ``end`` and ``label``)."""
    import pyarrow.compute as pc

    start, end, label = cols["start"], cols["end"], cols["label"]
    return pc.and_(pc.and_(pc.equal(start, ""), pc.equal(end, "")), pc.equal(label, ""))


def _csv_sets(cols: Columns, default: str, options: ReadOptions
              ) -> tuple[dict[str, SpanBuilder], bool] | None:
    """The rows' spans, one builder per set (annotator, else the file) and whether the sets
    are named by annotators, or None when a value is invalid. An annotator may bear the
    file's name: every row names its set then."""
    import pyarrow as pa
    import pyarrow.compute as pc

    doc = cols["doc_id"]
    if pc.any(pc.match_substring_regex(doc, _BLANK)).as_py():
        return None
    label = cols["label"]
    declares = _declares(cols)
    annotator = cols.get("annotator")
    with_annotator = annotator is not None and pc.any(pc.not_equal(annotator, "")).as_py()
    if with_annotator and pc.any(pc.equal(annotator, "")).as_py():
        return None  # rows without an annotator: explain() lists their lines
    spans_at = pc.invert(declares)
    s_arr = offset_column(pc.filter(cols["start"], spans_at))
    e_arr = offset_column(pc.filter(cols["end"], spans_at))
    if s_arr is None or e_arr is None:
        return None
    lab_codes = pc.dictionary_encode(pc.filter(label, spans_at)).combine_chunks()
    label_names = lab_codes.dictionary.to_pylist()
    lab_arr = lab_codes.indices.to_numpy(zero_copy_only=False)
    span_mask = spans_at.to_numpy(zero_copy_only=False)
    if not with_annotator:
        builder = _set_spans(doc, span_mask, s_arr, e_arr, lab_arr, label_names)
        return ({default: builder}, False) if builder.valid(allowed=options.labels) else None
    assert annotator is not None
    set_codes = pc.dictionary_encode(annotator).combine_chunks()
    set_names = [str(x) for x in set_codes.dictionary.to_pylist()]
    set_of_row = set_codes.indices.to_numpy(zero_copy_only=False)
    span_index = np.cumsum(span_mask) - 1  # row -> index among the span rows
    sets: dict[str, SpanBuilder] = {}
    for k, set_name in enumerate(set_names):
        rows = np.flatnonzero(set_of_row == k)
        span_rows = span_index[rows[span_mask[rows]]]
        sets[set_name] = builder = _set_spans(
            pc.take(doc, pa.array(rows)), span_mask[rows], s_arr[span_rows], e_arr[span_rows],
            lab_arr[span_rows], label_names)
        if not builder.valid(allowed=options.labels):
            return None
    return sets, True


def _set_spans(doc: Any, span_mask: np.ndarray, start: np.ndarray, end: np.ndarray,
               label: np.ndarray, label_names: list[str]) -> SpanBuilder:
    """The builder of one set's rows: ``doc`` holds every row's id (a row declaring a
    document included), ``span_mask`` says which rows hold the spans ``start``, ``end``,
    ``label``."""
    import pyarrow.compute as pc

    doc_codes = pc.dictionary_encode(doc).combine_chunks()
    doc_of_row = doc_codes.indices.to_numpy(zero_copy_only=False)
    doc_of_span = doc_of_row[span_mask] if len(start) < len(doc_of_row) else doc_of_row
    builder = SpanBuilder()
    builder.add_columns(doc_of_span, start, end, label, labels=label_names,
                        doc_ids=doc_codes.dictionary.to_pylist())
    return builder


def _gold_text_warnings(loaded: Loaded, docs: Sequence[str], starts: Sequence[int],
                        ends: Sequence[int], lines: Sequence[int], options: ReadOptions
                        ) -> bool:
    """The spans (rows in file order, all sets) checked against ``options.gold_texts``: False
    when one passes its text and the policy refuses that, else the warnings about spans at
    whitespace given one by one, with their lines."""
    gold_texts = options.gold_texts
    assert gold_texts is not None
    found: list[tuple[str, int]] = []
    for doc_id, s, e, line in zip(docs, starts, ends, lines, strict=True):
        text = gold_texts.get(doc_id)
        if text is None:
            continue
        if e > len(text) and options.beyond_text == "refuse":
            return False
        fragment = text[s:e]
        if fragment[:1].isspace() or fragment[-1:].isspace():
            found.append((whitespace_message(s, e, fragment), line))
    for message, line in found:
        loaded.warn(message, line=line)
    return True


def _finish(loaded: Loaded, sets: dict[str, SpanBuilder], with_annotator: bool,
            options: ReadOptions) -> Loaded:
    """The sets of a valid file on ``loaded``, with their duplicate-span warnings grouped;
    a document's text is the one ``options.gold_texts`` gives, else None."""
    role: Role = "annotator" if with_annotator else options.role
    group = object()
    gold_texts = options.gold_texts or {}
    for k, (set_name, builder) in enumerate(sets.items()):
        loaded.sets.append(AnnotationSet(set_name, builder.spans(), role))
        if with_annotator:
            loaded.named_sets.add(set_name)
        for doc_id in builder.doc_ids:
            loaded.texts.setdefault(doc_id, gold_texts.get(doc_id))
        _duplicate_group(loaded, group, k, set_name, builder)
    return loaded


def _pool(pa: Any) -> Any:
    """The system allocator: it gives large buffers back when they are freed, where Arrow's
    default pool keeps them (peak memory of a large file)."""
    return pa.system_memory_pool()


class _SetColumns:
    """The rows of one annotation set gathered by :func:`read_jsonl_fast`."""

    def __init__(self) -> None:
        self.doc_index: dict[str, int] = {}
        self.doc: list[int] = []
        self.start: list[int] = []
        self.end: list[int] = []
        self.label: list[int] = []

    def builder(self, labels: list[str]) -> SpanBuilder:
        """The rows in a :class:`SpanBuilder` (``labels``: the file's label names)."""
        builder = SpanBuilder()
        builder.add_columns(np.array(self.doc, dtype=np.int32),
                            np.array(self.start, dtype=np.int64),
                            np.array(self.end, dtype=np.int64),
                            np.array(self.label, dtype=np.int32), labels=labels,
                            doc_ids=list(self.doc_index))
        return builder


class _Rows:
    """The span rows of a JSON Lines file in file order, all sets (for ``gold_texts``)."""

    def __init__(self) -> None:
        self.docs: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.lines: list[int] = []


def read_jsonl_fast(data: bytes, *, name: str, options: ReadOptions) -> Loaded | None:
    """The columnar JSON Lines reader, the one path that reads spans JSONL: one ``orjson``
    decode per line into per-set columns fed to one :class:`SpanBuilder` each; None when a
    value is invalid, so that :func:`explain` names it. A file ``orjson`` does not take (a
    line of Unicode whitespace, ``NaN``, a number beyond 64 bits, a lone surrogate escape) is
    tokenised by the standard library's ``json`` with the hooks of
    :func:`~core.formats._common.iter_jsonl` into the same columns (:data:`RETOKENISED`).
    A value is read as :func:`explain` reads it: a numeric ``doc_id`` as a string, an offset
    given as a string of digits, an annotator of any type by its ``str``."""
    raw = data[3:] if data.startswith(_BOM) else data
    default = set_name_of(name)
    rows = _Rows() if options.gold_texts is not None else None
    label_index: dict[str, int] = {}
    try:
        import orjson

        found = _jsonl_columns(_orjson_lines(raw, orjson.loads), default, label_index, rows,
                               orjson=True)
    except (ImportError, ValueError):  # orjson.JSONDecodeError is a ValueError
        RETOKENISED["jsonl"] += 1
        try:
            lines = iter_jsonl(name, decode(name, data))
        except FormatError:
            return _fallback("jsonl")
        rows = _Rows() if options.gold_texts is not None else None
        label_index = {}
        found = _jsonl_columns(iter(lines), default, label_index, rows)
    if found is None:
        return _fallback("jsonl")
    columns, with_annotator, without = found
    if with_annotator and without:
        return _fallback("jsonl")  # rows without an annotator: explain() lists their lines
    if not columns:
        columns[default] = _SetColumns()
    names = list(label_index)
    try:
        sets = {set_name: cols.builder(names) for set_name, cols in columns.items()}
    except OverflowError:  # an offset beyond 64 bits
        return _fallback("jsonl")
    if not all(b.valid(allowed=options.labels) for b in sets.values()):
        return _fallback("jsonl")
    loaded = Loaded(FORMAT, name)
    if rows is not None and not _gold_text_warnings(loaded, rows.docs, rows.starts, rows.ends,
                                                    rows.lines, options):
        return _fallback("jsonl")
    return _finish(loaded, sets, with_annotator, options)


def _orjson_lines(raw: bytes, loads: Any) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each line that is not blank (ASCII whitespace)."""
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if line.strip():
            yield number, loads(line)


def _jsonl_offset(value: object) -> int | None:
    """An offset as :func:`~core.formats._common.parse_offset` reads it, else None (its range
    is :meth:`SpanBuilder.valid`'s to check)."""
    if type(value) is int:
        return value
    if type(value) is str:
        return digit_offset(value)
    return None


def _jsonl_columns(lines: Iterator[tuple[int, Any]], default: str, label_index: dict[str, int],
                   rows: _Rows | None, *, orjson: bool = False
                   ) -> tuple[dict[str, _SetColumns], bool, bool] | None:
    """The lines' rows as per-set columns (labels numbered in ``label_index``; span rows in
    ``rows`` when given), whether an annotator is named and whether a row names none, or None
    when a value is invalid.
    The tokeniser's errors propagate; with ``orjson``, which reads an integer beyond 64 bits
    as a float, a float where an integer may stand raises ``ValueError`` too."""
    sets: dict[str, _SetColumns] = {}
    with_annotator = without = False
    for number, row in lines:
        if type(row) is not dict:
            return None
        doc = row.get("doc_id")
        if type(doc) is not str:
            if orjson and type(doc) is float:
                raise ValueError("an integer beyond 64 bits, maybe")
            if type(doc) is not int:
                return None
            doc = str(doc)
        elif not doc.strip():
            return None
        annotator = row.get("annotator")
        if annotator is None or (type(annotator) is str and annotator == ""):
            key, without = default, True
        else:
            if orjson and type(annotator) is float:
                raise ValueError("an integer beyond 64 bits, maybe")
            key, with_annotator = str(annotator), True
        cols = sets.get(key)
        if cols is None:
            cols = sets[key] = _SetColumns()
        d = cols.doc_index.setdefault(doc, len(cols.doc_index))
        start, end, label = row.get("start"), row.get("end"), row.get("label")
        if type(start) is not int or type(end) is not int:
            if start in (None, "") and end in (None, "") and label in (None, ""):
                continue
            if orjson and (type(start) is float or type(end) is float):
                raise ValueError("an integer beyond 64 bits, maybe")
            start, end = _jsonl_offset(start), _jsonl_offset(end)
            if start is None or end is None:
                return None
        if type(label) is not str:
            return None
        cols.doc.append(d)
        cols.start.append(start)
        cols.end.append(end)
        cols.label.append(label_index.setdefault(label, len(label_index)))
        if rows is not None:
            rows.docs.append(doc)
            rows.starts.append(start)
            rows.ends.append(end)
            rows.lines.append(number)
    return sets, with_annotator, without


def _duplicate_group(loaded: Loaded, group: object, k: int, set_name: str,
                     builder: SpanBuilder) -> None:
    """The duplicate-span warnings of one set, grouped (as one row at a time listed them)."""
    found = list(_repeated(builder))
    file = loaded.source

    def produce() -> Iterator[tuple[Position, Diagnostic]]:
        m, previous = 0, -1
        for i, doc_id, s, e, lab in found:
            m = m + 1 if i == previous else 0
            previous = i
            message = (f"{set_name}: document {doc_id!r} has the span [{s}, {e}) {lab!r} more "
                       "than once; kept")
            yield (k, i, m), Diagnostic(file, message)

    add_group(loaded, group, len(found), produce)


def _csv_rows(file: str, content: str, loaded: Loaded) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.reader(io.StringIO(content, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise FormatError(file, "empty file: expected a header doc_id,start,end,label") from None
    except csv.Error as exc:
        raise FormatError(file, csv_problem(exc), line=1) from None
    names = [h.strip().lower() for h in header]
    missing = [k for k in REQUIRED if k not in names]
    if missing:
        raise FormatError(file, f"the header lacks {', '.join(missing)}; expected "
                          f"doc_id,start,end,label[,annotator], got {','.join(header)!r}", line=1)
    extra = [h for h in names if h not in REQUIRED + OPTIONAL]
    if extra:
        loaded.warn(f"extra columns ignored: {', '.join(extra)}", line=1, kind="ignored")
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(names):
                raise FormatError(file, f"expected {len(names)} columns like the header, got "
                                  f"{len(cells)}", line=line)
            # uncell: the quote our writer puts before a cell a spreadsheet would run
            rows.append((line, dict(zip(names, map(uncell, cells), strict=True))))
    except csv.Error as exc:
        raise FormatError(file, csv_problem(exc), line=reader.line_num) from None
    return rows


def _jsonl_rows(file: str, content: str) -> list[tuple[int, dict[str, Any]]]:
    rows: list[tuple[int, dict[str, Any]]] = []
    for line, obj in iter_jsonl(file, content):
        if not isinstance(obj, dict):
            raise FormatError(file, "expected one JSON object per line", line=line)
        for key in ("doc_id",):
            if key not in obj:
                raise FormatError(file, "missing", line=line, field=key)
        rows.append((line, obj))
    return rows


def _records(sets: Sequence[AnnotationSet], *, safe: bool = False
             ) -> tuple[bool, list[dict[str, Any]]]:
    """One record per span (or per document without spans); ``safe``: ids, labels and names
    through :func:`core.formats.csvsafe.cell`, each distinct value once."""
    if not sets:
        raise FormatError("<output>", "no annotation set to write")
    with_annotator = len(sets) > 1 or sets[0].role == "annotator"
    inert: dict[str, str] = {}

    def text(value: str) -> str:
        if not safe:
            return value
        out = inert.get(value)
        if out is None:
            out = inert[value] = cell(value)
        return out

    records: list[dict[str, Any]] = []
    for aset in sets:
        extra = {"annotator": text(aset.name)} if with_annotator else {}
        for doc_id, spans in aset:
            base: dict[str, Any] = {"doc_id": text(doc_id)}
            if not spans:
                records.append({**base, "start": "", "end": "", "label": "", **extra})
            for s in spans:
                records.append({**base, "start": s.start, "end": s.end, "label": text(s.label),
                                **extra})
    return with_annotator, records


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], *,
          raw: bool = False) -> dict[str, str]:
    """CSV with header; an ``annotator`` column (the set names) when there are several sets or
    the set is an annotator's. Ids, labels and names that a spreadsheet would run as formulas
    get a leading quote (:func:`core.formats.csvsafe.cell`, undone when read) unless ``raw``."""
    with_annotator, records = _records(sets, safe=not raw)
    buf = io.StringIO(newline="")
    fields = list(REQUIRED) + (["annotator"] if with_annotator else [])
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return {_name(sets) + ".csv": buf.getvalue()}


def write_jsonl(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]
                ) -> dict[str, str]:
    """The same records as :func:`write`, one JSON object per line."""
    _, records = _records(sets)
    lines = []
    for rec in records:
        if rec["start"] == "":
            rec = {k: v for k, v in rec.items() if k not in ("start", "end", "label")}
        lines.append(json.dumps(rec, ensure_ascii=False) + "\n")
    return {_name(sets) + ".jsonl": "".join(lines)}


def _name(sets: Sequence[AnnotationSet]) -> str:
    return PurePosixPath(sets[0].name.replace("/", "_")).name if len(sets) == 1 else "spans"
