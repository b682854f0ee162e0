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
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import SpanBuilder, add_group
from core.formats._common import (
    check_label,
    csv_problem,
    iter_jsonl,
    make_span,
    set_name_of,
    span_warnings,
)
from core.formats.csvsafe import cell, uncell
from core.model import AnnotationSet, Role, Span, bounds
from core.model.errors import Diagnostic, FormatError, Position
from core.model.textsafe import MAX_OFFSET_DIGITS

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

    A plain CSV is read by the columnar path (:func:`read_csv_fast`, ``pyarrow``); anything
    else, and any invalid value, by :func:`read_precise`, which names file, line and field.
    """
    if len(files) != 1:
        raise FormatError(name, f"expected one CSV or JSONL file, got {len(files)} files")
    (data,) = files.values()
    loaded = read_csv_fast(data, name=name, options=options)
    if loaded is None:
        loaded = read_jsonl_fast(data, name=name, options=options)
    if loaded is not None:
        return loaded
    return read_precise(files, name=name, options=options)


def read_precise(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """The explaining pass: a dict per row, in file order, so that the first invalid value
    raises its :class:`FormatError` (line and field); a file without one is read into one
    :class:`SpanBuilder` per set, each span validated by ``make_span``, its warnings given one
    by one."""
    if len(files) != 1:
        raise FormatError(name, f"expected one CSV or JSONL file, got {len(files)} files")
    (data,) = files.values()
    file = name
    content = decode(file, data)
    loaded = Loaded(FORMAT, file)
    if content.lstrip().startswith("{"):
        rows = _jsonl_rows(file, content)
    else:
        rows = _csv_rows(file, content, loaded)
    per_set: dict[str, SpanBuilder] = {}
    with_annotator = False
    default = set_name_of(name)
    for line, row in rows:
        doc_id = _row_doc_id(row, file, line)
        annotator = row.get("annotator")
        if annotator not in (None, ""):
            with_annotator = True
        set_name = str(annotator) if annotator not in (None, "") else default
        spans = per_set.setdefault(set_name, SpanBuilder())
        doc = spans.document(doc_id)
        start, end, label = row.get("start"), row.get("end"), row.get("label")
        if all(v in (None, "") for v in (start, end, label)):
            continue  # declares the document; it may have no span
        span = _row_span(row, doc_id, file, line, options, loaded)
        spans.add(doc, span.start, span.end, span.label)
    if with_annotator and default in per_set:
        lines = [str(line) for line, row in rows if row.get("annotator") in (None, "")][:5]
        raise FormatError(file, "rows without an annotator in a file with an annotator column "
                          f"(lines {', '.join(lines)})", field="annotator")
    if not per_set:
        per_set[default] = SpanBuilder()  # a header and no row: a valid set with no document
    role: Role = "annotator" if with_annotator else options.role
    for set_name, spans in per_set.items():
        for _, doc_id, s, e, lab in _repeated(spans):
            loaded.warn(f"{set_name}: document {doc_id!r} has the span [{s}, {e}) {lab!r} "
                        "more than once; kept")
        loaded.sets.append(AnnotationSet(set_name, spans.spans(), role))
        if with_annotator:
            loaded.named_sets.add(set_name)
        for doc_id in spans.doc_ids:
            loaded.texts.setdefault(
                doc_id, options.gold_texts.get(doc_id) if options.gold_texts else None
            )
    return loaded


def _row_doc_id(row: Mapping[str, Any], file: str, line: int) -> str:
    doc = row.get("doc_id")
    if doc is None or (isinstance(doc, str) and not doc.strip()):
        raise FormatError(file, "missing (every row needs a document id)", line=line,
                          field="doc_id")
    if isinstance(doc, bool) or not isinstance(doc, (str, int)):
        raise FormatError(file, f"expected a string document id, got {doc!r}", line=line,
                          field="doc_id")
    return str(doc)


def _row_span(row: Mapping[str, Any], doc_id: str, file: str, line: int,
              options: ReadOptions, loaded: Loaded) -> Span:
    """The span of a row, checked against the label list and the gold text; its warnings
    given."""
    span = make_span(row.get("start"), row.get("end"), row.get("label"), file, line=line,
                     text=None, beyond_text=options.beyond_text)
    check_label(span.label, options.labels, file, field="label", line=line)
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
"""Bytes the columnar path leaves to the precise one: quotes (the csv module's quoting rules),
control characters, and whitespace that ``str.strip`` and Arrow's trim may treat differently."""
_QUOTED_CELL = re.compile(rb"(?m)(?:^|,)'+[=+\-@\t\r]")
"""A cell that our writer quoted (:func:`core.formats.csvsafe.cell`)."""


_BLANK = r"^\s*$"  # after _UNUSUAL, the only whitespace is ASCII: str.strip() gives ""


def read_csv_fast(data: bytes, *, name: str, options: ReadOptions) -> Loaded | None:
    """The columnar CSV reader: parsed by ``pyarrow.csv`` into string columns, fed to one
    :class:`SpanBuilder` per set, checked in vectorised passes, duplicate-span warnings grouped;
    None (read by :func:`read_precise`) for JSON Lines, texts to check against
    (``gold_texts``), quoted cells or control characters, and any value the precise path would
    refuse or read otherwise (``+5``, ``007`` with more than 12 digits, spaces around an offset).
    """
    raw = data[3:] if data.startswith(_BOM) else data
    if (options.gold_texts is not None or not raw.strip() or raw.lstrip()[:1] == b"{"
            or raw.startswith(_BOM)):  # a second BOM: Arrow would drop it from the header
        return None
    if _UNUSUAL.search(raw) or raw.count(b"\r") != raw.count(b"\r\n"):
        return None  # control characters, odd whitespace, a lone CR
    if _QUOTED_CELL.search(raw):
        return None  # a cell our writer quoted (core.formats.csvsafe): the precise path unquotes
    header = _csv_header(raw)
    if header is None:
        return None
    cols = _arrow_columns(raw, header)
    if cols is None:
        return None
    sets = _csv_sets(cols, set_name_of(name), options)
    if sets is None:
        return None
    loaded = Loaded(FORMAT, name)
    extra = [h for h in cols if h not in REQUIRED + OPTIONAL]
    if extra:
        loaded.warn(f"extra columns ignored: {', '.join(extra)}", line=1)
    with_annotator = "annotator" in cols and set_name_of(name) not in sets
    return _finish(loaded, sets, with_annotator, options)


def _csv_header(raw: bytes) -> list[str] | None:
    """The header cells of a CSV the columnar path can read (the csv module's reading), or
    None."""
    cut = raw.find(b"\n")
    try:
        first = (raw if cut < 0 else raw[:cut]).decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in first.rstrip("\r"):
        return None  # a lone CR ends a row for the csv module: the precise path reads it
    try:
        header = next(csv.reader([first]))
    except (csv.Error, StopIteration):
        return None
    names = [h.strip().lower() for h in header]
    if len(set(names)) != len(names) or len(set(header)) != len(header) or any(
            k not in names for k in REQUIRED):
        return None
    return header


def _arrow_columns(raw: bytes, header: list[str]) -> dict[str, Any] | None:
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
        return None  # the csv module refuses a field this long: the precise path says so
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


def _csv_sets(cols: dict[str, Any], default: str, options: ReadOptions
              ) -> dict[str, SpanBuilder] | None:
    """The rows' spans, one builder per set (annotator, else the file), or None when a value
    is one :func:`read_precise` refuses or reads otherwise."""
    import pyarrow as pa
    import pyarrow.compute as pc

    doc = cols["doc_id"]
    if pc.any(pc.match_substring_regex(doc, _BLANK)).as_py():
        return None
    start, end, label = cols["start"], cols["end"], cols["label"]
    declares = pc.and_(pc.and_(pc.equal(start, ""), pc.equal(end, "")), pc.equal(label, ""))
    annotator = cols.get("annotator")
    with_annotator = annotator is not None and pc.any(pc.not_equal(annotator, "")).as_py()
    if with_annotator and pc.any(pc.equal(annotator, "")).as_py():
        return None  # rows without an annotator: the precise path lists their lines
    spans_at = pc.invert(declares)
    s_txt, e_txt = pc.filter(start, spans_at), pc.filter(end, spans_at)
    digits = f"^[0-9]{{1,{MAX_OFFSET_DIGITS}}}$"
    if not (pc.all(pc.match_substring_regex(s_txt, digits), min_count=0).as_py()
            and pc.all(pc.match_substring_regex(e_txt, digits), min_count=0).as_py()):
        return None
    pool = _pool(pa)
    s_arr = pc.cast(s_txt, pa.int64(), memory_pool=pool).to_numpy(zero_copy_only=False)
    e_arr = pc.cast(e_txt, pa.int64(), memory_pool=pool).to_numpy(zero_copy_only=False)
    del s_txt, e_txt
    lab_codes = pc.dictionary_encode(pc.filter(label, spans_at)).combine_chunks()
    label_names = lab_codes.dictionary.to_pylist()
    lab_arr = lab_codes.indices.to_numpy(zero_copy_only=False)
    span_mask = spans_at.to_numpy(zero_copy_only=False)
    if not with_annotator:
        builder = _set_spans(doc, span_mask, s_arr, e_arr, lab_arr, label_names)
        return {default: builder} if builder.valid(allowed=options.labels) else None
    assert annotator is not None
    set_codes = pc.dictionary_encode(annotator).combine_chunks()
    set_names = [str(x) for x in set_codes.dictionary.to_pylist()]
    if default in set_names:
        return None  # an annotator named as the file: the precise path's message
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
    return sets


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


def _finish(loaded: Loaded, sets: dict[str, SpanBuilder], with_annotator: bool,
            options: ReadOptions) -> Loaded:
    """The sets of a valid file on ``loaded``, with their duplicate-span warnings grouped."""
    role: Role = "annotator" if with_annotator else options.role
    group = object()
    for k, (set_name, builder) in enumerate(sets.items()):
        loaded.sets.append(AnnotationSet(set_name, builder.spans(), role))
        if with_annotator:
            loaded.named_sets.add(set_name)
        for doc_id in builder.doc_ids:
            loaded.texts.setdefault(doc_id, None)
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


def read_jsonl_fast(data: bytes, *, name: str, options: ReadOptions) -> Loaded | None:
    """Spans as JSON Lines, one ``orjson`` decode per line into per-set columns fed to one
    :class:`SpanBuilder` each; None (read by :func:`read_precise`) for texts to check against
    and for any value the precise path would refuse or read otherwise (an offset given as a
    string, a numeric id, a lone surrogate)."""
    raw = data[3:] if data.startswith(_BOM) else data
    if options.gold_texts is not None or raw.lstrip()[:1] != b"{":
        return None
    default = set_name_of(name)
    label_index: dict[str, int] = {}
    found = _jsonl_columns(raw, default, label_index)
    if found is None:
        return None
    columns, with_annotator = found
    if with_annotator and default in columns:
        return None  # rows without an annotator: the precise path lists their lines
    if not columns:
        columns[default] = _SetColumns()
    names = list(label_index)
    sets = {set_name: cols.builder(names) for set_name, cols in columns.items()}
    if not all(b.valid(allowed=options.labels) for b in sets.values()):
        return None
    return _finish(Loaded(FORMAT, name), sets, with_annotator, options)


def _jsonl_columns(raw: bytes, default: str, label_index: dict[str, int]
                   ) -> tuple[dict[str, _SetColumns], bool] | None:
    """The lines' rows as per-set columns (labels numbered in ``label_index``) and whether an
    annotator is named, or None when ``orjson`` or a type check refuses a line."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a pinned dependency
        return None
    sets: dict[str, _SetColumns] = {}
    loads = orjson.loads
    with_annotator = False
    limit = 10**MAX_OFFSET_DIGITS
    try:
        for line in raw.split(b"\n"):
            if not line.strip():
                continue
            row = loads(line)
            doc = row["doc_id"]
            annotator = row.get("annotator")
            if (type(doc) is not str or not doc.strip()
                    or (annotator is not None and type(annotator) is not str)):
                return None
            if annotator in (None, ""):
                key = default
            else:
                key, with_annotator = annotator, True
            cols = sets.get(key)
            if cols is None:
                cols = sets[key] = _SetColumns()
            d = cols.doc_index.setdefault(doc, len(cols.doc_index))
            start, end, label = row.get("start"), row.get("end"), row.get("label")
            if start in (None, "") and end in (None, "") and label in (None, ""):
                continue
            if (type(start) is not int or type(end) is not int or type(label) is not str
                    or not 0 <= start < end < limit):
                return None
            cols.doc.append(d)
            cols.start.append(start)
            cols.end.append(end)
            cols.label.append(label_index.setdefault(label, len(label_index)))
    except (orjson.JSONDecodeError, TypeError, KeyError, AttributeError):
        return None  # malformed JSON, a line that is not an object, no doc_id
    return sets, with_annotator


def _duplicate_group(loaded: Loaded, group: object, k: int, set_name: str,
                     builder: SpanBuilder) -> None:
    """The precise path's duplicate-span warnings of one set, grouped."""
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
        loaded.warn(f"extra columns ignored: {', '.join(extra)}", line=1)
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
