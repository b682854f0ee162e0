"""doccano exports of sequence-labelling projects, every layout doccano has written.

One document per JSON Lines record (doccano's own source, ``doccano/doccano``: the export code
of each release, and its documentation, "Export dataset"):

* ``{id, text, label: [[start, end, label]]}``: doccano 1.7 and later (``all.jsonl`` or one
  ``<user>.jsonl`` per member in the export zip; also a ``Comments`` list), and doccano's
  import layout;
* ``{id, data, label: [[start, end, label]], <meta keys>}``: doccano 1.3 to 1.6 (2021): the
  text is under ``data``; files per user, ``all.jsonl`` for collaborative projects, and
  ``unknown.jsonl`` for the documents no one annotated;
* ``{id, text, labels: [[start, end, label]], meta, annotation_approver}``: doccano 1.0 to 1.2,
  "JSONL (text label)";
* ``{id, text, annotations: [{label, start_offset, end_offset, user}], meta}``: doccano 1.0 to
  1.2 "JSONL" (and 0.x from 2019): ``label`` is the numeric id of a project label, ``user``
  the numeric id of the annotator;
* ``{id, text, entities: [{id, label, start_offset, end_offset}], relations: [...]}``: doccano
  1.6 and later, projects with relations (``relations`` are not spans: skipped, one warning);
* ``{text, entities: [[start, end, label]], cats: [...]}``: doccano 1.6 and later, intent
  detection and slot filling (``cats`` are document categories: skipped, one warning);
* ``{doc_id, text, entities: [[start, end, label]], username, metadata}``: doccano's first JSON
  export (December 2018), one object per line.

A file may also be a JSON list of such records, or records pretty-printed over several lines
(as in doccano's own documentation); a folder or zip of such files (doccano's export zip) is
read file by file.

Sets: one set per file (named after the input when there is one file, after each file's name,
role ``annotator``, when there are several); in the ``annotations`` layout, one set per
``user`` when a file names several (``user 1``, ``user 2``, role ``annotator``). Every set of a
file covers every document of the file: a document without a user's spans is that user's
document without spans. doccano 1.3 to 1.6 put the documents no one annotated in
``unknown.jsonl``: read beside other files, they are added without spans to every set, with a
warning.

Labels: numeric label ids (``annotations``) become names through a doccano label config (the
JSON list of ``{id, text, ...}`` that doccano's label page exports; ``--labels FILE``,
:attr:`ReadOptions.label_ids`); without one the ids are kept as labels, with one warning per
file.

``id`` (``doc_id`` in 2018) is read as a string; a record without it gets its line number, with
a warning. The text is ``text`` or ``data``; when a record has neither but other keys hold
strings, a warning says so (the text is not guessed). Offsets must lie in the text when it is
known.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import JsonLines, SpanColumns, duplicates
from core.formats._common import (
    DuplicateIds,
    JsonLocator,
    _decode_json,
    check_label,
    json_path,
    lines_from,
    load_json,
    make_span,
    member_name,
    set_name_of,
    single_set,
    span_warnings,
)
from core.formats._sniff import is_span_objects, is_triples, json_head
from core.model import AnnotationSet, Role, Span
from core.model.errors import FormatError
from core.model.textsafe import one_line

FORMAT = "doccano"

SPAN_KEYS = ("label", "labels", "entities", "annotations")
"""The keys that hold a record's spans, in the layouts listed in the module docstring."""

TEXT_KEYS = ("text", "data")

KNOWN_KEYS = frozenset({
    "id", "doc_id", *TEXT_KEYS, *SPAN_KEYS, "relations", "cats", "meta", "metadata",
    "annotation_approver", "comments", "Comments", "comment_count", "username", "user",
})
"""Keys doccano writes besides the project's own metadata keys."""

DOCCANO_MARKS = frozenset({"meta", "annotation_approver", "comment_count", "Comments", "data",
                           "relations", "cats", "username"})
"""Keys that only doccano writes among the JSON Lines span formats."""

_SUFFIXES = (".jsonl", ".json")
_UNKNOWN_FILE = "unknown"


def sniff(filename: str, head: str) -> int:
    """Decided on the keys of the first records (:func:`~core.formats._sniff.json_head`)."""
    found = json_head(head)
    return max((_record_score(rec, found.kind == "array") for rec in found.records), default=0)


def _record_score(rec: Mapping[str, Any], in_list: bool) -> int:
    if "sentences_with_labels" in rec or "prediction" in rec:
        return 0  # MAFALDA gold and model outputs
    marked = bool(DOCCANO_MARKS & rec.keys())
    annotations = rec.get("annotations")
    if isinstance(annotations, list) and annotations and isinstance(annotations[0], dict):
        return 95 if "start_offset" in annotations[0] else 0  # else Label Studio's tasks
    listed = _span_list_score(rec)
    if listed is not None:
        return listed
    labels = rec.get("labels")
    if in_list and not marked:
        return 0  # a JSON list with "labels": SemEval-2021's layout
    if is_triples(labels) and ("text" in rec or "id" in rec):
        # MAFALDA lists spans the same way; it scores 70 when the labels are its own names.
        return 90 if marked else 50
    if isinstance(annotations, list) and ("text" in rec or "data" in rec) and marked:
        return 80  # doccano 1.0's "annotations" layout with no span in this record
    entities = rec.get("entities")
    if isinstance(entities, list) and "text" in rec and ("relations" in rec or "cats" in rec):
        return 80
    return 0


def _span_list_score(rec: Mapping[str, Any]) -> int | None:
    """The score of a record by its ``entities`` objects or ``label`` triples (None: it has
    neither, or the ``entities`` are neither objects with offsets nor triples)."""
    entities = rec.get("entities")
    if isinstance(entities, list) and entities:
        first = entities[0]
        if isinstance(first, dict) and "start_offset" in first:
            return 95
        if is_triples(entities):
            return 85
    label = rec.get("label")
    if isinstance(label, list) and ("text" in rec or "data" in rec or "id" in rec):
        return 85 if is_triples(label) else 40  # a list of category names: not spans
    if isinstance(label, str) and isinstance(rec.get("text"), str) and not (
            "_input_hash" in rec or "answer" in rec):
        # doccano's text classification export with one label a text (weatherman85/contracts'
        # signature_block.jsonl): read so that the reader says it has no spans; a Prodigy
        # textcat task (its hashes, its answer) is the spacy reader's
        return 40
    return None


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read a doccano export: one file, or a folder (zip) of per-user files."""
    loaded = Loaded(FORMAT, name)
    paths = sorted(files)
    if len(files) == 1:
        (path,) = paths
        return _finish(loaded, [_read_file(name, files[path], options, loaded)], single=name,
                       options=options)
    readable = []
    for path in paths:
        if path.lower().endswith(_SUFFIXES):
            readable.append(path)
        else:
            loaded.warn(f"{path}: not a doccano .jsonl or .json file; ignored", kind="ignored")
    if not readable:
        raise FormatError(name, "expected doccano .jsonl or .json files, found none")
    read_files = [_read_file(member_name(name, p), files[p], options, loaded, path=p)
                  for p in readable]
    if len(read_files) == 1:
        return _finish(loaded, read_files, single=name, options=options)
    return _finish(loaded, read_files, single=None, options=options)


@dataclass
class _File:
    """What one file held: documents in order, spans by owner (None: the file's own set)."""

    file: str
    path: str
    docs: list[str] = field(default_factory=list)
    lines: dict[str, int | None] = field(default_factory=dict)
    columns: dict[object, SpanColumns] = field(default_factory=dict)
    texts: dict[str, str | None] = field(default_factory=dict)
    skipped: dict[str, list[Any]] = field(default_factory=dict)  # key -> [count, line, path]
    label_ids: dict[str, tuple[int | None, str]] = field(default_factory=dict)  # id -> where
    cats: Counter[str] = field(default_factory=Counter)  # the skipped document categories
    no_text_warned: bool = False
    any_span: bool = False

    def owner(self, key: object) -> SpanColumns:
        cols = self.columns.get(key)
        if cols is None:
            cols = self.columns[key] = SpanColumns()
            for doc in self.docs:
                cols.document(doc)
        return cols

    def skip(self, key: str, n: int, line: int | None, path: str | None) -> None:
        self.skipped.setdefault(key, [0, line, path])[0] += n


def _read_file(file: str, data: bytes, options: ReadOptions, loaded: Loaded,
               path: str = "") -> _File:
    content = decode(file, data)
    out = _File(file, path or file)
    dup = DuplicateIds(file)
    body = content.lstrip(" \t\r\n")
    if body.startswith("["):
        loc = JsonLocator(content)
        value = load_json(file, content)
        if not isinstance(value, list):  # pragma: no cover - a "[" starts a list
            raise FormatError(file, "expected a JSON list of records", line=1)
        with lines_from(loc, loaded):
            for i, obj in enumerate(value):
                _record(out, None, (i,), obj, options, loaded, dup)
    elif body.split("\n", 1)[0].strip() == "{":
        for line, obj in _object_stream(file, content):
            _record(out, line, (), obj, options, loaded, dup)
    else:
        rows = JsonLines(file, content)
        with rows.in_file_order():
            for line, obj in rows:
                _record(out, line, (), obj, options, loaded, dup)
    _file_warnings(out, loaded)
    return out


def _object_stream(file: str, content: str) -> Iterator[tuple[int, Any]]:
    """JSON objects written one after another over several lines (pretty-printed JSON Lines,
    as in doccano's documentation), each with the line it starts on."""
    decoder = json.JSONDecoder()
    i, n = 0, len(content)
    line = 1
    while True:
        j = i
        while j < n and content[j] in " \t\r\n":
            j += 1
        line += content.count("\n", i, j)
        if j >= n:
            return
        try:
            _, end = decoder.raw_decode(content, j)
        except json.JSONDecodeError as exc:
            raise FormatError(file, f"malformed JSON at column {exc.colno}: {exc.msg}",
                              line=exc.lineno) from None
        except (ValueError, RecursionError):
            raise FormatError(file, "malformed JSON: nested too deeply", line=line) from None
        yield line, _decode_json(file, content[j:end], line)
        line += content.count("\n", j, end)
        i = end


def _where(line: int | None, prefix: tuple[str | int, ...]) -> str:
    return f"line {line}" if line is not None else json_path(*prefix)


def _record(out: _File, line: int | None, prefix: tuple[str | int, ...], obj: object,
            options: ReadOptions, loaded: Loaded, dup: DuplicateIds) -> None:
    """Read one record's document and spans into ``out``."""
    file = out.file
    if not isinstance(obj, dict):
        raise FormatError(file, "expected one JSON object per line", line=line,
                          path=json_path(*prefix) or None)
    doc_id, id_key = _record_id(out, line, prefix, obj, loaded)
    dup.add(doc_id, _where(line, prefix), line=line, path=_path(prefix, id_key or "id"))
    text = _text(out, line, prefix, obj, loaded)
    if text is None and options.gold_texts is not None:
        text = options.gold_texts.get(doc_id)
    if not any(key in obj for key in SPAN_KEYS):
        raise FormatError(
            file, "missing (expected 'label' triples or 'entities' objects)", line=line,
            field="label", path=_path(prefix, "label"),
        )
    if "sentences_with_labels" in obj:
        raise FormatError(file, "a MAFALDA record (it has 'sentences_with_labels'), not a "
                          "doccano one; read the file as mafalda", line=line,
                          field="sentences_with_labels",
                          path=_path(prefix, "sentences_with_labels"))
    spans = _record_spans(out, line, prefix, obj, text, options)
    _skipped_keys(out, line, prefix, obj)
    _add_spans(out, line, prefix, doc_id, spans, text, loaded)
    out.docs.append(doc_id)
    out.lines[doc_id] = line
    for cols in out.columns.values():
        cols.document(doc_id)
    out.texts[doc_id] = text


def _path(prefix: tuple[str | int, ...], *parts: str | int) -> str | None:
    """The JSON path of a record's key in a JSON list (None in JSON Lines: lines say where)."""
    return json_path(*prefix, *parts) if prefix else None


def _record_id(out: _File, line: int | None, prefix: tuple[str | int, ...],
               obj: Mapping[str, Any], loaded: Loaded) -> tuple[str, str | None]:
    """The record's document id and the key it came from (``id``, ``doc_id``); without
    either, its line number (JSON Lines) or position (a JSON list), with a warning."""
    id_key = "id" if "id" in obj else "doc_id" if "doc_id" in obj else None
    if id_key is not None:
        raw_id = obj[id_key]
        if isinstance(raw_id, bool) or not isinstance(raw_id, (int, str)) or raw_id == "":
            raise FormatError(out.file, f"expected a number or string id, got {raw_id!r}",
                              line=line, field=id_key, path=_path(prefix, id_key))
        return str(raw_id), id_key
    doc_id = str(line) if line is not None else str(prefix[0])
    what = f"the line number {line}" if line is not None else f"its position {doc_id}"
    loaded.warn(f"no 'id'; {what} is used as the document id", line=line, field="id",
                path=_path(prefix, "id"), file=out.file, kind="document-ids")
    return doc_id, None


def _record_spans(out: _File, line: int | None, prefix: tuple[str | int, ...],
                  obj: Mapping[str, Any], text: str | None, options: ReadOptions
                  ) -> dict[object, list[Span]]:
    """The record's spans by owner: None for its own (``label``, ``labels``, ``entities``),
    a user for each of doccano 1.0's ``annotations``."""
    file = out.file
    spans: dict[object, list[Span]] = {}
    own = spans.setdefault(None, []) if any(k in obj for k in SPAN_KEYS[:3]) else None
    for key in ("label", "labels"):
        if key in obj:
            assert own is not None
            own.extend(_triples(file, line, prefix, key, obj[key], text, options))
    if "entities" in obj:
        assert own is not None
        own.extend(_entities(file, line, prefix, obj["entities"], text, options))
    if "annotations" in obj:
        for user, span in _annotations(out, line, prefix, obj["annotations"], text, options):
            spans.setdefault(user, []).append(span)
    return spans


def _add_spans(out: _File, line: int | None, prefix: tuple[str | int, ...], doc_id: str,
               spans: Mapping[object, list[Span]], text: str | None, loaded: Loaded) -> None:
    """Each owner's spans of the record into ``out``, with their warnings (whitespace,
    duplicates)."""
    file = out.file
    at = json_path(*prefix) or None
    for owner, doc_spans in spans.items():
        for span in doc_spans:
            for message, fld in span_warnings(span, text):
                loaded.warn(message, line=line, field=fld, path=at, file=file)
        triples = [(s.start, s.end, s.label) for s in doc_spans]
        for s, e, lab in duplicates(triples):
            who = "" if owner is None else f" by {_owner_name(owner)}"
            loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once{who}; kept",
                        line=line, path=at, file=file, kind="duplicate-span")
        cols = out.owner(owner)
        doc = cols.document(doc_id)
        for s, e, lab in triples:
            cols.add(doc, s, e, lab)
        out.any_span = out.any_span or bool(triples)


def _text(out: _File, line: int | None, prefix: tuple[str | int, ...],
          obj: Mapping[str, Any], loaded: Loaded) -> str | None:
    """The record's text: ``text``, else ``data`` (doccano 1.3 to 1.6)."""
    present = [k for k in TEXT_KEYS if obj.get(k) is not None]
    for key in present:
        if not isinstance(obj[key], str):
            raise FormatError(out.file, "expected the text as a string", line=line, field=key,
                              path=json_path(*prefix, key) if prefix else None)
    if len(present) == 2 and obj["text"] != obj["data"]:
        loaded.warn("both 'text' and 'data' hold a string; 'text' is read as the text",
                    line=line, field="data", path=json_path(*prefix, "data") if prefix else None,
                    file=out.file, kind="text-field")
    if present:
        return str(obj[present[0]])
    strings = [k for k, v in obj.items() if k not in KNOWN_KEYS and isinstance(v, str)]
    if strings and not out.no_text_warned:
        out.no_text_warned = True
        names = ", ".join(repr(k) for k in strings[:5])
        loaded.warn(f"no 'text' (or 'data'): the document has no text; {names} "
                    f"{'holds a string' if len(strings) == 1 else 'hold strings'} not read as "
                    "the text (said once per file)", line=line, field=strings[0],
                    path=json_path(*prefix, strings[0]) if prefix else None, file=out.file,
                    kind="missing-texts")
    return None


def _whole_text_labels(items: object) -> list[str] | None:
    """The labels of a text classification record (``"label": ["POS"]`` or ``"label": "POS"``,
    doccano's text classification export), else None."""
    if isinstance(items, str):
        return [items]
    if isinstance(items, list) and items and all(isinstance(i, str) for i in items):
        return [str(i) for i in items]
    return None


def _triples(file: str, line: int | None, prefix: tuple[str | int, ...], key: str,
             items: object, text: str | None, options: ReadOptions) -> list[Span]:
    labels = _whole_text_labels(items)
    if labels is not None:
        shown = ", ".join(repr(one_line(lab)[:40]) for lab in labels[:3])
        raise FormatError(file, f"the record labels the whole text ({shown}), as doccano's text "
                          "classification export does: no spans (character offsets) to read; "
                          "export a sequence labeling project", line=line, field=key,
                          path=json_path(*prefix, key) if prefix else None)
    if not isinstance(items, list):
        raise FormatError(file, "expected a list of [start, end, label] triples",
                          line=line, field=key, path=json_path(*prefix, key) if prefix else None)
    out = []
    for j, item in enumerate(items):
        if not isinstance(item, list) or len(item) != 3:
            raise FormatError(
                file, f"expected a [start, end, label] triple, got {json.dumps(item)}",
                line=line, path=json_path(*prefix, key, j), field=key,
            )
        try:
            span = make_span(item[0], item[1], item[2], file, line=line, text=text,
                             beyond_text=options.beyond_text)
        except FormatError:
            # The field names go into the message only: built for the refusal, not per span.
            where = json_path(*prefix, key, j)
            make_span(item[0], item[1], item[2], file, line=line, text=text,
                      fields=(f"{where}[0]", f"{where}[1]", f"{where}[2]"),
                      beyond_text=options.beyond_text)
            raise
        if options.labels is not None:
            check_label(span.label, options.labels, file,
                        field=f"{json_path(*prefix, key, j)}[2]", line=line)
        out.append(span)
    return out


def _entities(file: str, line: int | None, prefix: tuple[str | int, ...], items: object,
              text: str | None, options: ReadOptions) -> list[Span]:
    if not isinstance(items, list):
        raise FormatError(file, "expected a list of entity objects", line=line,
                          field="entities", path=json_path(*prefix, "entities") if prefix else None)
    if items and all(isinstance(item, list) for item in items):
        # [start, end, label] triples: doccano 2018 and the intent-and-slot export
        return _triples(file, line, prefix, "entities", items, text, options)
    out = []
    for j, item in enumerate(items):
        where = json_path(*prefix, "entities", j)
        _offset_object(file, line, where, item, "entity")
        out.append(_offset_span(file, line, where, item, item["label"], text, options))
    return out


def _offset_object(file: str, line: int | None, where: str, item: object, what: str) -> None:
    """Refuse an ``entities``/``annotations`` item that is not an object with
    ``start_offset``, ``end_offset`` and ``label``."""
    if not isinstance(item, dict):
        raise FormatError(file, f"expected an {what} object", line=line, path=where)
    for key in ("start_offset", "end_offset", "label"):
        if key not in item:
            spacy_style = key != "label" and "start" in item and "end" in item
            raise FormatError(file, "missing" + (
                " (this object has 'start' and 'end': the spaCy-style layout, read it with "
                "the format spacy)" if spacy_style else ""), line=line, path=where, field=key)


def _offset_span(file: str, line: int | None, where: str, item: Mapping[str, Any],
                 label: object, text: str | None, options: ReadOptions) -> Span:
    """The span of a checked ``{start_offset, end_offset, ...}`` object, labelled ``label``."""
    span = make_span(item["start_offset"], item["end_offset"], label, file,
                     line=line, text=text, path=where,
                     fields=("start_offset", "end_offset", "label"),
                     beyond_text=options.beyond_text)
    check_label(span.label, options.labels, file, field="label", line=line, path=where)
    return span


def _annotations(out: _File, line: int | None, prefix: tuple[str | int, ...], items: object,
                 text: str | None, options: ReadOptions) -> Iterator[tuple[object, Span]]:
    """doccano 1.0's ``annotations``: ``{label: id, start_offset, end_offset, user}``."""
    file = out.file
    if not isinstance(items, list):
        raise FormatError(file, "expected a list of annotation objects", line=line,
                          field="annotations",
                          path=json_path(*prefix, "annotations") if prefix else None)
    for j, item in enumerate(items):
        where = json_path(*prefix, "annotations", j)
        _offset_object(file, line, where, item, "annotation")
        assert isinstance(item, dict)
        label = _label_name(out, line, where, item["label"], options)
        span = _offset_span(file, line, where, item, label, text, options)
        user = item.get("user")
        if isinstance(user, (dict, list, bool)):
            raise FormatError(file, f"expected a user id or name, got {json.dumps(user)}",
                              line=line, path=where, field="user")
        yield ("user", user), span


def _label_name(out: _File, line: int | None, where: str, raw: object,
                options: ReadOptions) -> object:
    """A label of the ``annotations`` layout: a name, or a numeric label id mapped through the
    label config (kept as its digits, and remembered for the file's warning, without one)."""
    if isinstance(raw, bool) or not isinstance(raw, int):
        return raw
    if options.label_ids is None:
        out.label_ids.setdefault(str(raw), (line, where))
        return str(raw)
    name = options.label_ids.get(raw)
    if name is None:
        known = ", ".join(str(k) for k in sorted(options.label_ids)[:20])
        raise FormatError(out.file, f"expected a label id of the label config ({known}), got "
                          f"{raw}", line=line, path=where, field="label")
    return name


_SKIPPED = {
    "relations": ("relations", "they link spans; only the spans are read"),
    "cats": ("document categories ('cats')", "they label whole documents, not spans"),
    "Comments": ("comments", "comments are not annotations"),
    "comments": ("comments", "comments are not annotations"),
}
"""Record keys that hold something other than spans: skipped, one warning per file and key."""


def _skipped_keys(out: _File, line: int | None, prefix: tuple[str | int, ...],
                  obj: Mapping[str, Any]) -> None:
    for key in _SKIPPED:
        value = obj.get(key)
        if isinstance(value, list) and value:
            out.skip(key, len(value), line, json_path(*prefix, key) if prefix else None)
            if key == "cats":
                out.cats.update(str(c) for c in value if isinstance(c, (str, int)))
    for key, value in obj.items():
        # Span objects under a key doccano does not write (a "spans" list added by a script):
        # not read, and said, never dropped silently.
        if key not in KNOWN_KEYS and is_span_objects(value):
            out.skip(key, len(value), line, json_path(*prefix, key) if prefix else None)


def _most_common(counts: Counter[str], shown: int = 8) -> str:
    """``report_issue 3, other 2`` (most frequent first, then in order of first use), with
    ``and N more`` past the first ``shown``."""
    ranked = counts.most_common()
    text = ", ".join(f"{name} {n}" for name, n in ranked[:shown])
    return text + (f" and {len(ranked) - shown} more" if len(ranked) > shown else "")


def _file_warnings(out: _File, loaded: Loaded) -> None:
    """The file's summary warnings: skipped keys, label ids kept as labels."""
    for key, (n, line, path) in out.skipped.items():
        what, why = _SKIPPED.get(key) or (
            f"spans ({{start, end, label}} objects) under {key!r}",
            "the doccano reader reads 'label', 'labels', 'entities' and 'annotations' only")
        first = f"line {line}" if line is not None else path
        if key == "cats" and out.cats:
            what = f"document categories ('cats': {_most_common(out.cats)})"
        loaded.warn(f"{n} {what} skipped (the first at {first}): {why}", line=line, field=key,
                    path=path, file=out.file, kind="skipped")
    if out.label_ids:
        ids = sorted(out.label_ids, key=lambda s: (len(s), s))
        shown = ", ".join(ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
        line, where = next(iter(out.label_ids.values()))
        loaded.warn(f"the labels are doccano label ids ({shown}), kept as labels; pass the "
                    "project's label config (the JSON doccano's label page exports) with "
                    "--labels FILE to read their names (said once per file)", line=line,
                    field="label", path=None if line is not None else where, file=out.file,
                    kind="label-ids")


def _owner_name(owner: object) -> str:
    if isinstance(owner, tuple):
        return "no user" if owner[1] is None else f"user {owner[1]}"
    return str(owner)


def _finish(loaded: Loaded, read_files: Sequence[_File], *, single: str | None,
            options: ReadOptions) -> Loaded:
    """Texts and sets of the files read (``single``: the input's name when it is one file)."""
    unknown = _unknown_file(read_files)
    first: dict[str, _File] = {}
    for f in read_files:
        for doc_id, text in f.texts.items():
            _text_agrees(loaded, first, f, doc_id, text)
    if single is None and unknown is None and _pieces(read_files):
        loaded.sets.append(_one_set(loaded, read_files, options))
        return loaded
    many = len([f for f in read_files if f is not unknown]) > 1
    sets: list[AnnotationSet] = []
    for f in read_files:
        if f is unknown:
            continue
        owners = list(f.columns) or [None]
        stem = set_name_of(single) if single is not None else _stem(f.path)
        for owner in owners:
            cols = f.owner(owner)
            for doc in unknown.docs if unknown is not None else ():
                cols.document(doc)
            if len(owners) == 1:
                set_name = stem
            else:
                set_name = f"{stem}: {_owner_name(owner)}" if many else _owner_name(owner)
            role: Role = "annotator" if many or len(owners) > 1 else options.role
            sets.append(AnnotationSet(set_name, cols.spans(), role))
            if many or len(owners) > 1:
                loaded.named_sets.add(set_name)  # a user's set, or a per-user file's
    if unknown is not None:
        loaded.warn(f"the {len(unknown.docs)} documents of {unknown.path}, which no one "
                    "annotated (doccano 1.3 to 1.6 write them there), are added without spans "
                    "to every set", file=unknown.file, kind="unannotated-documents")
    names = [s.name for s in sets]
    for s in sets:
        if names.count(s.name) > 1:  # pragma: no cover - file paths are unique
            raise FormatError(loaded.source, f"two files give the set name {s.name!r}")
    loaded.sets.extend(sets)
    return loaded


def _pieces(read_files: Sequence[_File]) -> bool:
    """Whether several files are pieces of one set: each holds one set of its own (no doccano
    1.0 ``user``) and no document is in two of them, as ``convert --to doccano --shards N``
    writes a corpus (docs/scale.md). A project's per-user files share their documents."""
    if any(list(f.columns) not in ([], [None]) for f in read_files):
        return False
    seen: set[str] = set()
    for f in read_files:
        if not seen.isdisjoint(f.docs):
            return False
        seen.update(f.docs)
    return True


def _one_set(loaded: Loaded, read_files: Sequence[_File], options: ReadOptions
             ) -> AnnotationSet:
    """The files' spans as one set named after the input, with the caller's role, as
    ``--engine dask`` reads the folder's shards."""
    merged = SpanColumns()
    for f in read_files:
        cols = f.owner(None)
        doc, start, end, label = cols.columns()
        merged.add_columns(doc, start, end, label, labels=cols.labels, doc_ids=cols.doc_ids)
    return AnnotationSet(set_name_of(loaded.source), merged.spans(), options.role)


def _unknown_file(read_files: Sequence[_File]) -> _File | None:
    """doccano 1.3 to 1.6's ``unknown.jsonl`` among other files, when it holds no span."""
    if len(read_files) < 2:
        return None
    for f in read_files:
        if PurePosixPath(_stem(f.path)).name == _UNKNOWN_FILE and not f.any_span:
            return f
    return None


def _stem(path: str) -> str:
    pure = PurePosixPath(path)
    return str(pure.with_suffix("")) if pure.suffix.lower() in _SUFFIXES else str(pure)


def _text_agrees(loaded: Loaded, first: dict[str, _File], f: _File, doc_id: str,
                 text: str | None) -> None:
    """Record a document's text; the files of one export must agree on it."""
    known = loaded.texts.get(doc_id)
    if doc_id not in loaded.texts or known is None:
        loaded.texts[doc_id] = text
        first[doc_id] = f
        return
    if text is not None and known != text:
        other = first[doc_id]
        line = other.lines.get(doc_id)
        where = other.file + (f" (line {line})" if line is not None else "")
        raise FormatError(f.file, f"document {doc_id!r} has a different text here than in "
                          f"{where}; the files of one export share their texts",
                          line=f.lines.get(doc_id), field="text")


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """doccano JSONL in the ``label`` triple layout (the one doccano imports)."""
    aset = single_set(sets, FORMAT)
    lines = []
    for doc_id in aset.spans:
        # doccano ids are numbers; keep strings that would not survive int() as strings.
        out_id: int | str = int(doc_id) if re.fullmatch(r"[1-9][0-9]{0,17}|0", doc_id) else doc_id
        obj: dict[str, object] = {"id": out_id}
        text = texts.get(doc_id)
        if text is not None:
            obj["text"] = text
        obj["label"] = [[s.start, s.end, s.label] for s in aset.get(doc_id)]
        lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
    return {f"{aset.name or 'annotations'}.jsonl": "".join(lines)}
