"""SemEval-2021 Task 6 subtask 2 JSON: ``[{id, text, labels: [{technique, start, end, ...}]}]``.

The format of Dimitrov et al. (2021), read as the official scorer reads it
(``docs/formats.md``): ``id`` and ``labels`` are required, and
``technique``, ``start`` and ``end`` in every label; ``text`` and ``text_fragment`` are optional.
Stricter than the official scorer on purpose: a fractional offset is refused instead of being
truncated, a duplicate ``id`` is refused instead of replacing the earlier entry, and when
``text`` is present offsets must lie within it. A numeric id is read as a string with a warning.
"""

from __future__ import annotations

import codecs
import json
import re
from array import array
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any, NoReturn

import msgspec
import numpy as np

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import (
    LineFinder,
    SpanBuilder,
    add_group,
    no_gc,
    unexplained,
    whitespace_edges,
    whitespace_message,
)
from core.formats._common import (
    JsonLocator,
    check_doc_id,
    check_label,
    digit_offset,
    json_path,
    lines_from,
    load_json,
    make_span,
    set_name_of,
    single_set,
    span_warnings,
)
from core.formats._sniff import json_head
from core.model import AnnotationSet, Span
from core.model.bounds import Policy
from core.model.errors import Diagnostic, FormatError, Position
from core.model.textsafe import MAX_DIGITS, one_line

FORMAT = "semeval2021"


def sniff(filename: str, head: str) -> int:
    """Sure when a JSON list's objects carry ``labels`` with ``technique`` entries. Decided on
    the first records when the head holds them whole; on the head's text when a long first text
    pushes them past it. The ``.json`` suffix only adds to a score the content gave."""
    lower = filename.lower()
    body = head.lstrip()
    if not body.startswith("["):
        return 0
    score = 0
    records = json_head(head).records
    if records:
        first = records[0]
        labels = first.get("labels")
        if isinstance(labels, list):
            techniques = [x for x in labels if isinstance(x, dict) and "technique" in x]
            score = 85 if techniques else 40 if "id" in first else 0
    elif body[1:].strip() == "]":
        score = 1  # an empty list: a submission without documents
    elif json_head(head).broken:
        score = 1  # a short JSON list that does not parse: the reader names the error
    elif '"labels"' in body and '"technique"' in body:
        score = 85
    elif '"labels"' in body and '"id"' in body:
        score = 40
    elif '"id"' in body and len(head) >= 4000:
        score = 20  # a long first text may push "labels" past the head
    if score and lower.endswith(".json"):
        score += 10
    return score


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one SemEval-2021 JSON file into one annotation set (role from ``options``).

    One path produces the data: :func:`read_fast`. A file it refuses is invalid, and
    :func:`explain` raises the error naming file, line and field.
    """
    if len(files) != 1:
        raise FormatError(name, f"expected one JSON file, got a folder of {len(files)} files")
    (fname, data), = files.items()
    with no_gc():
        loaded = read_fast(data, name=name, fname=fname, options=options)
    if loaded is not None:
        return loaded
    explain(files, name=name, options=options)


def explain(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> NoReturn:
    """The explaining pass over a file :func:`read_fast` refused: one value at a time in file
    order, so that the first invalid value raises its :class:`FormatError` (file, line, JSON
    path, field). It never returns data: a file in which it finds nothing wrong is a bug of
    the columnar path, reported as such (``tests/formats/test_columnar_readers.py`` holds it
    to the golden inputs, the broken files, fuzzed files and the samples)."""
    if len(files) != 1:
        raise FormatError(name, f"expected one JSON file, got a folder of {len(files)} files")
    (data,) = files.values()
    file = name
    text = decode(file, data)
    value = load_json(file, text)
    loc = JsonLocator(text)
    loaded = Loaded(FORMAT, file)  # the warnings met on the way, discarded
    if not isinstance(value, list):
        raise FormatError(
            file, f"expected a JSON list of documents, got a JSON {_kind(value)}", line=1
        )
    first_seen: dict[str, int] = {}
    from core.model import units  # D1's second hunk (bugtour9): the unit, as read_fast finds it

    units.recount_records(value)
    with lines_from(loc, loaded):
        for i, entry in enumerate(value):
            doc_id = _document_id(entry, i, file, loaded)
            if doc_id in first_seen:
                k = first_seen[doc_id]
                raise FormatError(
                    file, f"duplicate document id {doc_id!r}: first at {json_path(k)} (line "
                    f"{loc.line(k)}), again at {json_path(i)} (line {loc.line(i)}); each document "
                    "must appear once", line=loc.line(i, "id"), path=json_path(i, "id"), field="id",
                )
            first_seen[doc_id] = i
            doc_text = _document_text(entry, i, doc_id, file, options)
            for j, lab in enumerate(_labels(entry, i, file)):
                _label(lab, (i, j), doc_text, file, options, loaded)
    raise unexplained(file, FORMAT)


def _document_id(entry: object, i: int, file: str, loaded: Loaded) -> str:
    """The id of document ``i``, a numeric one converted with a warning."""
    where = json_path(i)
    if not isinstance(entry, dict):
        raise FormatError(
            file, f"expected a document object, got a JSON {_kind(entry)}", path=where,
        )
    for key in ("id", "labels"):
        if key not in entry:
            raise FormatError(
                file, f"missing (every document needs 'id' and 'labels'; keys found: "
                f"{', '.join(map(repr, entry)) or 'none'})",
                path=where, field=key,
            )
    doc_id, warning = check_doc_id(entry["id"], file, path=json_path(i, "id"))
    if warning:
        loaded.warn(warning, path=json_path(i, "id"), field="id")
    return doc_id


def _document_text(entry: dict[str, object], i: int, doc_id: str, file: str,
                   options: ReadOptions) -> str | None:
    """The text of document ``i``: its own, else the gold text given for its id."""
    doc_text = entry.get("text")
    if doc_text is not None and not isinstance(doc_text, str):
        raise FormatError(
            file, f"expected the document text as a string, got a JSON {_kind(doc_text)}",
            path=json_path(i, "text"), field="text",
        )
    if doc_text is None and options.gold_texts is not None:
        doc_text = options.gold_texts.get(doc_id)
    return doc_text


def _labels(entry: dict[str, object], i: int, file: str) -> list[object]:
    labels = entry["labels"]
    if not isinstance(labels, list):
        raise FormatError(
            file, f"expected a list of labels, got a JSON {_kind(labels)}",
            path=json_path(i, "labels"), field="labels",
        )
    return labels


def _label(lab: object, at: tuple[int, int], doc_text: str | None, file: str,
           options: ReadOptions, loaded: Loaded) -> tuple[int, int, str]:
    """Label ``at`` = (document, label) checked, its warnings given: ``(start, end, label)``."""
    i, j = at
    lpath = json_path(i, "labels", j)
    if isinstance(lab, str):
        # SemEval-2021 Task 6 subtasks 1 and 3 list technique names per meme.
        raise FormatError(
            file, f"expected a label object with 'technique', 'start' and 'end', "
            f"got the technique name {one_line(repr(lab))[:60]}: this is a file of "
            "SemEval-2021 Task 6 subtask 1 or 3 (techniques per meme, no spans); "
            "SpanScope scores the spans of subtask 2", path=lpath,
        )
    if not isinstance(lab, dict):
        raise FormatError(file, f"expected a label object, got a JSON {_kind(lab)}", path=lpath)
    for key in ("technique", "start", "end"):
        if key not in lab:
            raise FormatError(
                file, "missing (every label needs 'technique', 'start' and 'end')",
                path=lpath, field=key,
            )
    span = _span(lab, file, (i, "labels", j), doc_text, options.beyond_text)
    check_label(span.label, options.labels, file, field="technique",
                path=json_path(i, "labels", j, "technique"))
    fragment = lab.get("text_fragment")
    if fragment is not None and not isinstance(fragment, str):
        loaded.warn(
            f"expected text_fragment as a string, got a JSON {_kind(fragment)}; ignored",
            path=lpath, field="text_fragment",
            kind="ignored",
        )
        fragment = None
    for message, fld in span_warnings(span, doc_text, fragment=fragment):
        loaded.warn(message, path=lpath, field=fld)
    return span.start, span.end, span.label


_BOM = b"\xef\xbb\xbf"
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD](?:[89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                               rb"|([89a-fA-F][0-9a-fA-F]{2}))")
"""A ``\\uD800``-``\\uDFFF`` escape, a pair taken whole (group 1 empty) before a single one
(group 1 set): scanning left to right pairs each high half with the low half right after it, so
a single match is a lone surrogate. ``json.dumps`` writes every character beyond the BMP, an
emoji, as a pair: those files stay with ``msgspec``. The pattern begins with the literal
``\\u``, which ``re`` finds with its prefix scan (7 ms on a 30 MiB file, with or without
escapes); a pattern with a look-behind branch is tried at every byte instead (0.32 s on the same
file, more than ``json.loads`` of it: issue 29)."""

FALLBACKS: Counter[str] = Counter()
"""Files :func:`read_fast` refused in this process, by reason (``lone surrogate``, ``not
UTF-8``, ``decoder``, ``values``): invalid files, which :func:`explain` then names. The bench
corpora are valid and add nothing here (``tests/formats/test_fast_path_guard.py``)."""

RETOKENISED: Counter[str] = Counter()
"""Files :func:`read_fast` tokenised with the standard library's ``json`` instead of
``msgspec``, by reason (``lone surrogate``: an escape that may be one; ``unusual``: a value
``msgspec``'s strict records do not take, such as a numeric id, an offset as a string, ``NaN``).
Their values go to the same columns and checks; the guard test asserts that the bench corpora,
whose speed the benchmarks measure, add nothing here either."""


class _Label(msgspec.Struct, gc=False):
    """One entry of ``labels`` as ``msgspec`` reads it on the hot path: any other key is
    ignored, as :func:`explain` ignores it; a missing key or a value of another type sends the
    file to the standard library's tokeniser (:class:`_AnyLabel`).

    ``gc=False`` (here and in :class:`_Document`): decoded records hold strings, numbers and
    lists, never a cycle, so the cycle collector need not track them; tracked, the 200,000
    records of a 20,000-document file set off collections that cost a quarter of the decoding
    (issue 29)."""

    start: int
    end: int
    technique: str
    text_fragment: str | None = None


class _Document(msgspec.Struct, gc=False):
    id: str
    labels: list[_Label]
    text: str | None = None


class _AnyLabel(msgspec.Struct, gc=False):
    """A label entry with every value the format accepts: an offset as a string (``"10"``),
    a ``text_fragment`` of any type (not a string: ignored with a warning)."""

    start: int | str
    end: int | str
    technique: str
    text_fragment: Any = None


class _AnyDocument(msgspec.Struct, gc=False):
    """A document with every value the format accepts: a numeric id (read as a string)."""

    id: int | str
    labels: list[_AnyLabel]
    text: str | None = None


_ELEMENTS = msgspec.json.Decoder(list[msgspec.Raw]).decode
_DOCUMENT = msgspec.json.Decoder(_Document).decode
_BATCH = 1024
"""Documents gathered into the columns at once: few calls, and only a batch's objects alive
at a time."""
_DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, ValueError,
                  RecursionError)


def _is_utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 throughout, checked a MiB at a time (no decoded copy held).

    ``msgspec`` checks the strings it keeps, not the keys and values it skips, which
    :func:`explain` refuses like any other byte that is not UTF-8
    (tests/formats/test_semeval2021_skipped.py).
    """
    check = codecs.getincrementaldecoder("utf-8")().decode
    try:
        for at in range(0, len(data), 1 << 20):
            check(data[at:at + (1 << 20)])
        check(b"", True)
    except UnicodeDecodeError:
        return False
    return True


def read_fast(data: bytes, *, name: str, fname: str, options: ReadOptions) -> Loaded | None:
    """The columnar reader, the one path that reads SemEval-2021 JSON: the file's documents
    decoded into small typed records (not dicts), their spans fed to a :class:`SpanBuilder`,
    checked in vectorised passes, warnings grouped per kind; None when a value is invalid, so
    that :func:`explain` names it (file, line, field).

    On the hot path ``msgspec`` splits the top-level list into raw byte ranges (one pass that
    checks the syntax of the whole file), then decodes each where it lies, :data:`_BATCH` at a
    time, each batch dropped once its fields are in the columns, so the peak holds a batch's
    objects, not the whole file's. A file ``msgspec`` does not take as it is (a lone surrogate
    escape, a numeric id, an offset given as a string, ``NaN`` or a number of a thousand digits
    in a field nobody reads, a ``text_fragment`` that is not a string) is tokenised by the standard
    library's ``json`` instead, with the hooks :func:`~core.formats._common.load_json` uses,
    and goes to the same columns and checks (:data:`RETOKENISED`). Both keep the last of two
    equal keys.
    """
    given = data  # decode() takes one BOM off, as explain() reads the file
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    columns: _Columns | None = None
    if _has_lone_surrogate(data):
        reason = "lone surrogate"
    elif not data.isascii() and not _is_utf8(data):  # msgspec skips unknown keys' bytes unread
        return _fallback("not UTF-8")
    else:
        reason = "unusual"
        columns = _decode(data)
    if columns is None:
        RETOKENISED[reason] += 1
        try:
            columns = _decode_any(name, given)
        except FormatError:
            return _fallback(reason if reason == "lone surrogate" else "decoder")
        if columns is None:
            return _fallback("values")
    from core.model import units  # the one hunk of D1 here (bugtour9): the offsets' unit

    offsets = units.recount(columns.texts, columns.counts, columns.starts, columns.ends,
                            columns.fragments if columns.has_fragments else None)
    if not _valid(columns, options):
        return _fallback("values")
    loaded = Loaded(FORMAT, name)
    if offsets.converting:  # text_fragment found only in UTF-16 units or bytes (core.model.units)
        loaded.warn(str(units.note(offsets)), kind="offset-units")
    loaded.texts.update(zip(columns.doc_ids, columns.texts, strict=True))
    loaded.sets.append(AnnotationSet(set_name_of(name or fname), columns.spans.spans(),
                                     options.role))
    _fast_warnings(loaded, data, columns)
    return loaded


def _fallback(reason: str) -> Loaded | None:
    """:func:`read_fast`'s refusal (None), counted in :data:`FALLBACKS`."""
    FALLBACKS[reason] += 1
    return None


def _has_lone_surrogate(data: bytes) -> bool:
    """Whether ``data`` holds a ``\\uD800``-``\\uDFFF`` escape that is not half of a pair
    (one pass of :data:`_SURROGATE_ESCAPE`; a file without ``\\u`` costs a prefix scan, and a
    file without any escape one ``memchr`` for a backslash: 0.6 ms on 30 MB, 7 ms the scan)."""
    return b"\\" in data and any(_SURROGATE_ESCAPE.findall(data))


class _Refused(Exception):
    """A value the format does not accept, met while converting a decoded one."""


def _offsets(values: Sequence[int | str]) -> list[int]:
    """Offsets as ints: a string of decimal digits (``"10"``, ``" +7 "``) converted as
    :func:`~core.formats._common.parse_offset` converts it; anything else refused."""
    out: list[int] = []
    for value in values:
        if isinstance(value, str):
            converted = digit_offset(value)
            if converted is None:
                raise _Refused
            value = converted
        out.append(value)
    return out


class _Columns:
    """A file's documents as :func:`read_fast` gathers them: ids, texts, span counts and the
    spans (a :class:`SpanBuilder`, documents numbered in file order), fragments when any, and
    the values read with a warning (numeric ids, fragments that are not strings)."""

    def __init__(self) -> None:
        self.doc_ids: list[str] = []
        self.texts: list[str | None] = []
        self.counts: list[int] = []
        self.starts = array("q")
        self.ends = array("q")
        self.labels = array("i")
        self.fragments: list[str | None] = []
        self.has_fragments = False
        self.spans = SpanBuilder()
        self.numeric_ids: list[tuple[int, int]] = []  # (document, the number)
        self.odd_fragments: list[tuple[int, object]] = []  # (span row, the value)

    def extend(self, documents: Sequence[_Document | _AnyDocument], *, any_values: bool = False
               ) -> None:
        """One batch of decoded documents appended to the columns (``any_values``: records
        of :class:`_AnyDocument`, whose ids, offsets and fragments are converted here)."""
        ids: Sequence[int | str] = [d.id for d in documents]
        if any_values and any(type(x) is not str for x in ids):
            ids = self._numeric_ids(ids)
        self.doc_ids.extend(ids)  # type: ignore[arg-type]
        self.texts.extend([d.text for d in documents])
        self.counts.extend([len(d.labels) for d in documents])
        labels = [lab for d in documents for lab in d.labels]
        row = len(self.starts)
        self._offsets(self.starts, [lab.start for lab in labels])
        self._offsets(self.ends, [lab.end for lab in labels])
        self.labels.extend(self.spans.label_codes([lab.technique for lab in labels]))
        fragments = [lab.text_fragment for lab in labels]
        if fragments.count(None) == len(fragments):
            if self.has_fragments:
                self.fragments.extend(fragments)
            return  # no list of Nones kept until a fragment is met
        if not self.has_fragments:
            self.has_fragments = True
            self.fragments = [None] * row
        if any_values and any(f is not None and type(f) is not str for f in fragments):
            for k, f in enumerate(fragments):
                if f is not None and type(f) is not str:
                    self.odd_fragments.append((row + k, f))
                    fragments[k] = None
        self.fragments.extend(fragments)

    @staticmethod
    def _offsets(column: array[int], values: list[int] | list[int | str]) -> None:
        """``values`` appended to ``column``, offsets given as strings converted."""
        n = len(column)
        try:
            column.extend(values)  # type: ignore[arg-type]
        except TypeError:  # an offset given as a string
            del column[n:]
            column.extend(_offsets(values))

    def _numeric_ids(self, ids: Sequence[int | str]) -> list[str]:
        """The ids as strings, the numeric ones noted for their warning."""
        out = []
        base = len(self.doc_ids)
        for k, doc_id in enumerate(ids):
            if type(doc_id) is not str:
                if not isinstance(doc_id, int) or abs(doc_id) >= 10**MAX_DIGITS:
                    raise _Refused  # explain refuses a number of more than MAX_DIGITS digits
                self.numeric_ids.append((base + k, doc_id))
                doc_id = str(doc_id)
            out.append(doc_id)
        return out

    def finish(self) -> None:
        """Hand the columns to the builder (no copy; the ids are distinct)."""
        doc = np.repeat(np.arange(len(self.doc_ids), dtype=np.int32), self.counts)
        self.spans.add_columns(doc, np.frombuffer(self.starts, dtype=np.int64),
                               np.frombuffer(self.ends, dtype=np.int64),
                               np.frombuffer(self.labels, dtype=np.int32),
                               doc_ids=self.doc_ids)


def _decode(data: bytes) -> _Columns | None:
    """The documents of ``data`` as columns, or None when ``msgspec``'s strict records do not
    take the file (malformed JSON, a missing key, a value of another type or an unusual one, a
    huge offset)."""
    columns = _Columns()
    try:
        elements = _ELEMENTS(data)
        for k in range(0, len(elements), _BATCH):
            # Each raw document decoded where it lies: joining a batch's bytes into a list to
            # decode copied the file once more (about 20 ms of a 30 MB file; issue 29).
            columns.extend([_DOCUMENT(raw) for raw in elements[k:k + _BATCH]])
        del elements
    except (*_DECODE_ERRORS, OverflowError):
        return None
    return columns


def _decode_any(file: str, data: bytes) -> _Columns | None:
    """The documents of ``data`` tokenised by the standard library (the values
    :func:`explain` sees), converted to :class:`_AnyDocument` records and gathered in the
    same columns; a :class:`FormatError` for malformed JSON or text, None for a value of a
    type the format does not accept."""
    value = load_json(file, decode(file, data))
    columns = _Columns()
    try:
        documents = msgspec.convert(value, list[_AnyDocument])
        del value
        for k in range(0, len(documents), _BATCH):
            columns.extend(documents[k:k + _BATCH], any_values=True)
    except (msgspec.ValidationError, _Refused, OverflowError):
        return None
    return columns


def _valid(columns: _Columns, options: ReadOptions) -> bool:
    """Whether every value of the columns is valid (texts from ``options.gold_texts``
    filled in on the way): ids non-blank and distinct, the spans as
    :meth:`SpanBuilder.valid` checks them."""
    doc_ids = columns.doc_ids
    if not all(map(str.strip, doc_ids)) or len(set(doc_ids)) != len(doc_ids):
        return False
    if options.gold_texts is not None and None in columns.texts:
        gold_texts = options.gold_texts
        columns.texts = [gold_texts.get(doc_id) if t is None else t
                         for doc_id, t in zip(doc_ids, columns.texts, strict=True)]
    columns.finish()
    lengths = None
    if options.beyond_text == "refuse":
        texts = columns.texts
        lengths = (np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))  # type: ignore[arg-type]
                   if None not in texts else
                   np.fromiter((-1 if t is None else len(t) for t in texts), dtype=np.int64,
                               count=len(texts)))
    return columns.spans.valid(allowed=options.labels, lengths=lengths)


def _fast_warnings(loaded: Loaded, data: bytes, columns: _Columns) -> None:
    """The file's warnings as grouped diagnostics, listed in file order as :func:`explain`
    meets them: numeric ids, fragments that are not strings, fragment mismatches, spans at
    whitespace, duplicate spans."""
    file = loaded.source
    lines = LineFinder(file, data)
    texts = columns.texts
    fragments = columns.fragments if columns.has_fragments else []  # not kept when all None
    doc, start, end, label = columns.spans.columns()
    first = np.concatenate(([0], np.cumsum(columns.counts, dtype=np.int64)))
    group = object()

    def where(k: int) -> tuple[int, str]:
        i = int(doc[k])
        return i, json_path(i, "labels", k - int(first[i]))

    mismatched = [k for k, f in enumerate(fragments) if f is not None
                  and texts[int(doc[k])] is not None
                  and f != texts[int(doc[k])][int(start[k]):int(end[k])]]  # type: ignore[index]

    def fragment_warnings() -> Iterator[tuple[Position, Diagnostic]]:
        for k in mismatched:
            i, path = where(k)
            s, e = int(start[k]), int(end[k])
            actual = texts[i][s:e]  # type: ignore[index]
            message = (f"the fragment given, {fragments[k]!r}, differs from the text at "
                       f"[{s}, {e}), {actual!r}; the offsets are used")
            yield (i, k, 0), Diagnostic(file, message, lines(path), "text_fragment", path,
                                        kind="fragment-mismatch")

    numeric_ids, odd_fragments = columns.numeric_ids, columns.odd_fragments

    def id_warnings() -> Iterator[tuple[Position, Diagnostic]]:
        for i, number in numeric_ids:
            path = json_path(i, "id")
            _, message = check_doc_id(number, file)
            assert message is not None
            yield (i, -1), Diagnostic(file, message, lines(path), "id", path)

    def odd_fragment_warnings() -> Iterator[tuple[Position, Diagnostic]]:
        for k, value in odd_fragments:
            i, path = where(k)
            message = f"expected text_fragment as a string, got a JSON {_kind(value)}; ignored"
            yield (i, k, -1), Diagnostic(file, message, lines(path), "text_fragment", path,
                                         kind="ignored")

    add_group(loaded, group, len(numeric_ids), id_warnings)
    add_group(loaded, group, len(odd_fragments), odd_fragment_warnings)
    add_group(loaded, group, len(mismatched), fragment_warnings)
    begins, ends = whitespace_edges(texts, doc, start, end)
    at_space = np.flatnonzero(begins | ends)
    del begins, ends

    def whitespace_warnings() -> Iterator[tuple[Position, Diagnostic]]:
        for k in at_space.tolist():
            i, path = where(k)
            s, e = int(start[k]), int(end[k])
            message = whitespace_message(s, e, texts[i][s:e])  # type: ignore[index]
            yield (i, k, 1), Diagnostic(file, message, lines(path), None, path)

    add_group(loaded, group, len(at_space), whitespace_warnings)
    repeat, _ = columns.spans.repeats()
    names, doc_ids = columns.spans.labels, columns.doc_ids
    found = [(int(doc[k]), int(start[k]), int(end[k]), names[label[k]]) for k in repeat.tolist()]
    total = len(doc_ids)

    def duplicate_warnings() -> Iterator[tuple[Position, Diagnostic]]:
        n = len(start)
        m, previous = 0, -1
        for i, s, e, lab in found:
            m = m + 1 if i == previous else 0
            previous = i
            path = json_path(i, "labels")
            message = (f"document {doc_ids[i]!r} has the span [{s}, {e}) {lab!r} more than "
                       "once; kept (each copy counts in the scores)")
            yield (i, n + total + m, 2), Diagnostic(file, message, lines(path), None, path,
                                                    kind="duplicate-span")

    add_group(loaded, group, len(repeat), duplicate_warnings)


def _span(
    lab: Mapping[str, object], file: str, at: tuple[str | int, ...],
    text: str | None, beyond_text: Policy,
) -> Span:
    # Each field is checked with its own path so the message points at the offending value.
    return make_span(
        lab["start"], lab["end"], lab["technique"], file, path=json_path(*at),
        text=text, fields=("start", "end", "technique"), beyond_text=beyond_text,
    )


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return f"string {value[:40]!r}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return f"number {value}"


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """One JSON list; ``text`` and each label's ``text_fragment`` are written when text is known.

    The bytes are those of ``json.dumps(documents, ensure_ascii=False, indent=2)``, written
    here piece by piece: with ``indent`` the standard library encodes in Python, a call per
    value (13 s of CPU under a profiler for 10,000 documents), while each string below goes
    through its C escaper (:func:`json.encoder.encode_basestring`, what ``json.dumps`` uses for
    a string with ``ensure_ascii=False``). ``tests/formats/test_semeval2021_writer.py`` holds
    the two equal on generated and hostile documents."""
    aset = single_set(sets, FORMAT)
    quote = json.encoder.encode_basestring
    docs: list[str] = []
    for doc_id in aset.spans:
        text = texts.get(doc_id)
        labels: list[str] = []
        for span in aset.get(doc_id):
            fragment = ("" if text is None else
                        ',\n        "text_fragment": ' + quote(text[span.start : span.end]))
            labels.append(f'      {{\n        "start": {int(span.start)!r},\n        "end": '
                          f'{int(span.end)!r},\n        "technique": {quote(span.label)}'
                          f"{fragment}\n      }}")
        shown = ('[\n' + ",\n".join(labels) + "\n    ]") if labels else "[]"
        said = "" if text is None else ',\n    "text": ' + quote(text)
        docs.append(f'  {{\n    "id": {quote(doc_id)}{said},\n    "labels": {shown}\n  }}')
    name = PurePosixPath(aset.name.replace("/", "_") or "annotations").name
    body = ("[\n" + ",\n".join(docs) + "\n]") if docs else "[]"
    return {f"{name}.json": body + "\n"}
