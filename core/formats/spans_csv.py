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
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from core import bounds
from core.errors import FormatError
from core.formats import Loaded, ReadOptions, decode
from core.formats._common import (
    check_label,
    duplicate_span_warnings,
    iter_jsonl,
    make_span,
    set_name_of,
    sorted_spans,
    span_warnings,
)
from core.model import AnnotationSet, Role, Span

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
    cols = [c.strip().strip('"').lower() for c in first.split(",")]
    if all(k in cols for k in REQUIRED):
        return 95 if lower.endswith(".csv") else 70
    if lower.endswith(".csv") and "doc_id" in cols:
        return 40  # probably ours with a column missing: let the reader say which
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one CSV or JSONL file; one set, or one per annotator when that column exists."""
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
    per_set: dict[str, dict[str, list[Span]]] = {}
    with_annotator = False
    default = set_name_of(name)
    for line, row in rows:
        doc = row.get("doc_id")
        if doc is None or (isinstance(doc, str) and not doc.strip()):
            raise FormatError(file, "missing (every row needs a document id)", line=line,
                              field="doc_id")
        if isinstance(doc, bool) or not isinstance(doc, (str, int)):
            raise FormatError(file, f"expected a string document id, got {doc!r}", line=line,
                              field="doc_id")
        doc_id = str(doc)
        annotator = row.get("annotator")
        if annotator not in (None, ""):
            with_annotator = True
        set_name = str(annotator) if annotator not in (None, "") else default
        doc_spans = per_set.setdefault(set_name, {}).setdefault(doc_id, [])
        start, end, label = row.get("start"), row.get("end"), row.get("label")
        if all(v in (None, "") for v in (start, end, label)):
            continue  # declares the document; it may have no span
        span = make_span(start, end, label, file, line=line, text=None)
        check_label(span.label, options.labels, file, field="label", line=line)
        text = options.gold_texts.get(doc_id) if options.gold_texts is not None else None
        if text is not None:
            if span.end > len(text) and bounds.policy() == "refuse":
                raise FormatError(file, f"expected an offset within the text (length "
                                  f"{len(text)}), got {span.end}", line=line, field="end")
            for message, fld in span_warnings(span, text):
                loaded.warn(message, line=line, field=fld)
        doc_spans.append(span)
    if with_annotator and default in per_set:
        lines = [str(line) for line, row in rows if row.get("annotator") in (None, "")][:5]
        raise FormatError(file, "rows without an annotator in a file with an annotator column "
                          f"(lines {', '.join(lines)})", field="annotator")
    role: Role = "annotator" if with_annotator else options.role
    if not per_set:
        per_set[default] = {}  # a header and no row: a valid set with no document
    for set_name, spans in per_set.items():
        for doc_id, items in spans.items():
            for d in duplicate_span_warnings(items):
                loaded.warn(f"{set_name}: document {doc_id!r} has the span [{d.start}, {d.end}) "
                            f"{d.label!r} more than once; kept")
        loaded.sets.append(AnnotationSet(set_name, sorted_spans(spans), role))
        for doc_id in spans:
            loaded.texts.setdefault(
                doc_id, options.gold_texts.get(doc_id) if options.gold_texts else None
            )
    return loaded


def _csv_rows(file: str, content: str, loaded: Loaded) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.reader(io.StringIO(content, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise FormatError(file, "empty file: expected a header doc_id,start,end,label") from None
    except csv.Error as exc:
        raise FormatError(file, f"malformed CSV: {exc}", line=1) from None
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
            rows.append((line, dict(zip(names, cells, strict=True))))
    except csv.Error as exc:
        raise FormatError(file, f"malformed CSV: {exc}", line=reader.line_num) from None
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


def _records(sets: Sequence[AnnotationSet]) -> tuple[bool, list[dict[str, Any]]]:
    if not sets:
        raise FormatError("<output>", "no annotation set to write")
    with_annotator = len(sets) > 1 or sets[0].role == "annotator"
    records: list[dict[str, Any]] = []
    for aset in sets:
        for doc_id, spans in aset:
            base: dict[str, Any] = {"doc_id": doc_id}
            extra = {"annotator": aset.name} if with_annotator else {}
            if not spans:
                records.append({**base, "start": "", "end": "", "label": "", **extra})
            for s in spans:
                records.append({**base, "start": s.start, "end": s.end, "label": s.label,
                                **extra})
    return with_annotator, records


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """CSV with header; an ``annotator`` column (the set names) when there are several sets or
    the set is an annotator's."""
    with_annotator, records = _records(sets)
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
