"""Spans as Apache Parquet tables: ``doc_id, start, end, label[, set]``, texts beside them.

The format for large corpora and for sharding (``docs/scale.md``): columnar, compressed, typed,
and read without a parser loop, so validation runs as vectorised passes over whole columns.

Layout
------
``<name>.parquet``, the *spans table*: one row per span.

========== ============================ ==================================================
column     type                         meaning
========== ============================ ==================================================
``doc_id`` string (an integer column     the document; a numeric column is read as strings,
           is read, with a warning)     with one warning
``start``  integer                      first character, 0-based
``end``    integer                      one past the last character (exclusive)
``label``  string                       the span's label
``set``    string, optional             the annotation set (gold, a system, an annotator):
                                        one file may hold gold and predictions, or several
                                        annotators
========== ============================ ==================================================

A row whose ``start``, ``end`` and ``label`` are all null *declares* a document of its set
without spans ("annotated, found nothing"), as in ``spans-csv``; the writer writes one for every
document of a set that has no span, so such documents survive a round trip.

``<name>.texts.parquet``, the *texts table* (optional when reading; always written): ``doc_id``
(string, each id once) and ``text`` (string, null when unknown). A document of the texts table
that no row of any set mentions belongs to every set, without spans, so a hand-made spans table
plus a texts table needs no declaration rows. (Files SpanScope writes carry the sets in their
metadata and a declaration row for every document a set covers without spans: there, a text no
row mentions belongs to no set.)

A folder of such files (shards, ``part-0000.parquet`` with ``part-0000.texts.parquet`` ...) is
read as one input; each shard's texts table pairs with its spans table by name.

Without a ``set`` column the file holds one set, named after the file (``gold.parquet`` ->
``gold``), with the role the caller asks for. With a ``set`` column each set keeps its name; its
role (and MAFALDA's ``alternatives`` flag) comes from the file's key-value metadata
``spanscope.sets`` that the writer stores, else ``annotator``. A set whose entry there says
``"file_order": true`` keeps a MAFALDA gold's file order in its rows (its labels unsorted:
MAFALDA's official evaluator walks them in file order, :mod:`core.metrics.mafalda_order`); read
as a gold, the table gives that order back as the MAFALDA reader does (``Loaded.records``).

Checks
------
Whole columns at once (pyarrow compute and numpy), the first bad row named by its 0-based index
(``df.iloc[i]``): a missing column, a column of the wrong type (``start`` as floating point, a
``label`` of numbers), a null ``doc_id``, a partly null row, a negative ``start``,
``end <= start``, an empty label, a label outside ``--labels``, a span past its text (the one
policy of :mod:`core.model.bounds`), and a ``doc_id`` listed twice in a texts table. Warnings: extra
columns, numeric document ids, duplicate spans (by row, with the row of the first copy), spans
that begin or end in whitespace, files of a folder that are not Parquet.

Example message::

    pred.parquet: row 2: field 'end': expected an integer greater than start (12), got '9'
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from core.formats import Loaded, ReadOptions, TableBudget
from core.formats._columns import whitespace_edges
from core.formats._common import check_label, span_warnings
from core.model import ROLES, AnnotationSet, Role, Span, SpanTable, SpanView, bounds
from core.model.bounds import Policy
from core.model.errors import FormatError

FORMAT = "parquet"
SUFFIX = ".parquet"
TEXTS_SUFFIX = ".texts.parquet"
REQUIRED = ("doc_id", "start", "end", "label")
OPTIONAL = ("set",)
META_KEY = b"spanscope.sets"
MAGIC = "PAR1"


def sniff(filename: str, head: str) -> int:
    lower = filename.lower()
    if lower.endswith(SUFFIX):
        return 100
    return 90 if head.startswith(MAGIC) else 0


def is_texts_table(name: str) -> bool:
    """Whether a file name is a texts table (``<name>.texts.parquet``)."""
    return name.lower().endswith(TEXTS_SUFFIX)


def texts_name(spans_name: str) -> str:
    """The texts table of a spans table: ``a/gold.parquet`` -> ``a/gold.texts.parquet``.

    >>> texts_name("shards/part-0001.parquet")
    'shards/part-0001.texts.parquet'
    """
    return spans_name[: -len(SUFFIX)] + TEXTS_SUFFIX


def stem(name: str) -> str:
    """A spans table's name without folder and suffix (the default set name).

    >>> stem("runs/system_a.parquet")
    'system_a'
    """
    base = PurePosixPath(name.replace("\\", "/").rstrip("/")).name or name
    return base[: -len(SUFFIX)] if base.lower().endswith(SUFFIX) else base


# ---- reading ---------------------------------------------------------------------------------


def _table(file: str, data: bytes) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with contextlib.suppress(pa.ArrowException, OSError, UnicodeDecodeError):
        # One file, read directly: pq.read_table goes through pyarrow.dataset, which imports
        # pandas (about 50 MiB). A file it cannot read is given to pq.read_table, whose
        # message the error quotes. Column names that are not UTF-8 (a damaged schema) fail
        # only when asked for, so they are asked for here.
        table = pq.ParquetFile(pa.BufferReader(data)).read(use_threads=False)
        table.column_names  # noqa: B018
        return table
    try:
        table = pq.read_table(pa.BufferReader(data))
        table.column_names  # noqa: B018
        return table
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FormatError(file, f"expected a Parquet file, could not read it: {first}") from None


def _unreadable(file: str, data: bytes, exc: Exception) -> FormatError:
    """The error for a file that a streaming read could not read: the whole-file reader's
    message (it raises it), else the same wording with the streaming reader's reason."""
    _table(file, data)
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return FormatError(file, f"expected a Parquet file, could not read it: {first}")


def _type_name(t: Any) -> str:
    return str(t)


def _is_string(t: Any) -> bool:
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        return _is_string(t.value_type)
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t)
                or pa.types.is_string_view(t))


def _is_integer(t: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_integer(t))


def _strings(column: Any, file: str, field: str) -> Any:
    """A string column as ``large_string`` (dictionary-encoded and view columns decoded).

    Parquet does not check that its strings are UTF-8; Arrow fails only when one is turned into
    Python text. Each string column is checked here, so a damaged one is named."""
    import pyarrow as pa

    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    out = column.cast(pa.large_string())
    try:
        out.validate(full=True)
    except pa.ArrowInvalid as exc:
        raise FormatError(file, f"expected UTF-8 text: {str(exc).splitlines()[0][:120]}",
                          field=field) from None
    return out


# Arrays become NumPy through their buffers: pyarrow's own conversions (``to_numpy``,
# ``fill_null`` with a Python value, comparisons with a Python scalar) import pandas, about
# 50 MiB and 0.15 s on every read of a small file.


def _nulls(array: Any) -> np.ndarray:
    """Which values of an Arrow array are null."""
    n = len(array)
    validity = array.buffers()[0]
    if not array.null_count or validity is None:
        return np.zeros(n, dtype=bool)
    bits = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), bitorder="little")
    return np.asarray(bits[array.offset : array.offset + n] == 0)


def _ints(array: Any) -> np.ndarray:
    """The values of an integer Arrow array (whatever its buffer holds at a null)."""
    dtype = np.dtype(str(array.type))
    n = len(array)
    data = array.buffers()[1]
    if not n or data is None:
        return np.zeros(n, dtype=dtype)
    return np.frombuffer(data, dtype=dtype, count=array.offset + n)[array.offset :]


def _blank(strings: Any) -> np.ndarray:
    """Which values of a string array are empty or whitespace only (nulls: False)."""
    import pyarrow.compute as pc

    lengths = pc.utf8_length(pc.utf8_trim_whitespace(strings))
    return np.asarray((_ints(lengths) == 0) & ~_nulls(lengths))


def _filled(column: Any, nulls: np.ndarray, value: int) -> np.ndarray:
    """An integer column's values as NumPy, ``value`` where ``nulls``."""
    out = np.array(_ints(column))
    out[nulls] = value
    return out


def _first(mask: np.ndarray) -> int | None:
    """Index of the first true value, or None."""
    hit = np.flatnonzero(mask)
    return int(hit[0]) if len(hit) else None


def _row(i: int) -> str:
    return f"row {i}"


def _check_columns(file: str, table: Any, loaded: Loaded, *, texts: bool) -> None:
    names = list(table.column_names)
    required = ("doc_id", "text") if texts else REQUIRED
    optional: tuple[str, ...] = () if texts else OPTIONAL
    missing = [c for c in required if c not in names]
    if missing:
        what = "doc_id, text" if texts else "doc_id, start, end, label[, set]"
        raise FormatError(file, f"the table lacks the column(s) {', '.join(missing)}; expected "
                          f"{what}, got {', '.join(names) or 'no column'}")
    extra = [c for c in names if c not in required + optional]
    if extra:
        loaded.warn(f"extra columns ignored: {', '.join(extra)}", file=file, kind="ignored")


def _doc_ids(file: str, column: Any, loaded: Loaded) -> Any:
    """The ``doc_id`` column as strings; null and empty ids refused, numbers converted."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = column.type
    if _is_integer(t):
        loaded.warn("numeric document ids are read as strings (the official 2021 scorer would "
                    "treat 7 and '7' as different documents)", field="doc_id", file=file,
                    kind="document-ids")
        if column.null_count:
            i = _first(_nulls(column))
            raise FormatError(file, "missing (every row needs a document id)", path=_row(i or 0),
                              field="doc_id")
        return pc.cast(column, pa.large_string())
    if not _is_string(t):
        raise FormatError(file, f"expected a string column, got {_type_name(t)}",
                          field="doc_id")
    ids = _strings(column, file, "doc_id")
    bad = _nulls(ids) | _blank(ids)
    i = _first(bad)
    if i is not None:
        got = ids[i].as_py()
        raise FormatError(file, "missing (every row needs a document id)" if got is None
                          else f"expected a non-empty document id, got {got!r}",
                          path=_row(i), field="doc_id")
    return ids


def _texts_table(file: str, data: bytes, loaded: Loaded) -> dict[str, str | None]:
    """``doc_id -> text`` of a texts table; a repeated id is refused with both rows."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    # The texts are decoded a batch at a time into Python strings, not as one Arrow column
    # (which holds them all a second time, plus the decompression buffers). A file the
    # streaming reader cannot read is read whole, which raises the usual message.
    try:
        source = pq.ParquetFile(pa.BufferReader(data))
        schema = source.schema_arrow
        names = list(schema.names)
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        raise _unreadable(file, data, exc) from None
    _check_columns(file, _Columns(names), loaded, texts=True)
    try:
        id_col = source.read(columns=["doc_id"], use_threads=False).column("doc_id")
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        raise _unreadable(file, data, exc) from None
    ids = _doc_ids(file, id_col.combine_chunks(), loaded)
    text_type = schema.field("text").type
    if not _is_string(text_type):
        raise FormatError(file, f"expected a string column, got {_type_name(text_type)}",
                          field="text")
    id_list: list[str] = ids.to_pylist()
    if len(set(id_list)) != len(id_list):
        codes = _ints(pc.dictionary_encode(ids).indices)
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        k = _first(sorted_codes[1:] == sorted_codes[:-1])
        assert k is not None
        first, again = sorted(int(x) for x in order[k : k + 2])
        raise FormatError(file, f"duplicate document id {id_list[again]!r}: first at row {first}, "
                          f"again at row {again}; each document must appear once",
                          path=_row(again), field="doc_id")
    texts: list[str | None] = []
    try:
        for batch in source.iter_batches(batch_size=1024, columns=["text"], use_threads=False):
            texts.extend(_strings(batch.column(0), file, "text").to_pylist())
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        raise _unreadable(file, data, exc) from None
    return dict(zip(id_list, texts, strict=True))


@dataclass
class _Columns:
    """A table's column names, for :func:`_check_columns` before the table is read."""

    column_names: list[str]





def _int_column(file: str, table: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Values (nulls as 0) and the null mask of an integer column."""
    column = table.column(name).combine_chunks()
    if not _is_integer(column.type):
        hint = " (cast it to an integer type, e.g. astype('Int64'))" if str(
            column.type) in ("double", "float", "halffloat") else ""
        raise FormatError(file, f"expected an integer column, got {_type_name(column.type)}"
                          f"{hint}", field=name)
    nulls = _nulls(column)
    raw = _filled(column, nulls, 0)
    values = raw.astype(np.int64, copy=False)
    if str(column.type) == "uint64":
        big = _first(raw > np.iinfo(np.int64).max)
        if big is not None:
            raise FormatError(file, "expected an offset below 2**63", path=_row(big), field=name)
    return values, nulls


def _set_meta(file: str, table: Any) -> dict[str, dict[str, Any]]:
    """The sets' roles and flags from the schema metadata; unreadable entries are ignored (the
    spans stay readable), but nesting deep enough to exhaust the recursion limit is refused."""
    meta = table.schema.metadata or {}
    raw = meta.get(META_KEY)
    if not raw:
        return {}
    try:
        entries = json.loads(raw)
        return {str(e["name"]): e for e in entries if isinstance(e, dict) and "name" in e}
    except RecursionError:
        raise FormatError(file, "expected the schema metadata as JSON, got JSON nested too "
                          "deeply", field="spanscope.sets") from None
    except (ValueError, TypeError, KeyError):
        return {}


def _spans_table(file: str, data: bytes, options: ReadOptions, loaded: Loaded,
                 texts: Mapping[str, str | None]
                 ) -> tuple[bool, dict[str, SpanTable], dict[str, Any],
                            dict[str, dict[str, tuple[tuple[int, int], ...]]]]:
    """Validate one spans table: whether it has a ``set`` column, each set's spans as columns
    (documents in order of first appearance), the sets' metadata, and per set whose metadata
    says ``"file_order": true`` its documents' intervals in row order (:func:`_file_order`)."""
    import pyarrow.compute as pc

    table = _table(file, data)
    _check_columns(file, table, loaded, texts=False)
    n = table.num_rows
    ids = _doc_ids(file, table.column("doc_id").combine_chunks(), loaded)
    start, start_null = _int_column(file, table, "start")
    end, end_null = _int_column(file, table, "end")
    label_col = table.column("label").combine_chunks()
    if not _is_string(label_col.type):
        raise FormatError(file, f"expected a string column, got {_type_name(label_col.type)}",
                          field="label")
    labels = _strings(label_col, file, "label")
    label_null = _nulls(labels)
    declared = start_null & end_null & label_null
    _check_rows(file, start, end, labels, {"start": start_null, "end": end_null,
                                          "label": label_null}, declared)
    label_names, label_codes = _label_codes(file, labels, label_null, options)
    has_set = "set" in table.column_names
    if has_set:
        set_names, set_codes = _set_codes(file, table)
    else:
        set_names = [""]
        set_codes = np.zeros(n, dtype=np.int32)
    meta = _set_meta(file, table)
    doc_enc = pc.dictionary_encode(ids)
    doc_names: list[str] = doc_enc.dictionary.to_pylist()
    doc_codes = _ints(doc_enc.indices).astype(np.int32)
    # The Arrow columns are not needed past this point: free them before the numeric passes.
    del table, ids, labels, label_col, start_null, end_null, label_null, doc_enc
    _check_against_texts(file, texts, doc_names, doc_codes, start, end, declared,
                         (label_names, label_codes), loaded, options.beyond_text)
    # Each set becomes a SpanTable: documents in order of first appearance within the set,
    # spans by (start, end, label) as sorted_spans sorts them; declaration rows give documents
    # without spans.
    keep = ~declared
    per_set: dict[str, SpanTable] = {}
    for code in range(len(set_names)):
        in_set = set_codes == code if len(set_names) > 1 else np.ones(n, dtype=bool)
        first_docs = doc_codes[in_set]
        _, first_at = np.unique(first_docs, return_index=True)
        docs_in_set = first_docs[np.sort(first_at)]
        local = np.full(len(doc_names), -1, dtype=np.int32)
        local[docs_in_set] = np.arange(len(docs_in_set), dtype=np.int32)
        rows = in_set & keep
        spans = SpanTable.from_columns([doc_names[d] for d in docs_in_set.tolist()],
                                       local[doc_codes[rows]], start[rows], end[rows],
                                       label_codes[rows], label_names)
        per_set[set_names[code]] = spans
        who = f"{set_names[code]}: " if set_names[code] else ""
        repeats = _repeats(spans)
        if len(repeats):
            keys = (doc_codes, start, end, label_codes)
            set_rows = np.flatnonzero(rows)
            # Only the rows that may be a copy of a repeated span are sorted (a 1M-row table
            # with 1 % repeats: 0.5 s of CPU for sorting every row); a key collision only
            # adds a row that the exact comparison in _warn_repeats then finds unrepeated.
            at = {name: k for k, name in enumerate(label_names)}
            global_label = np.array([at[name] for name in spans.labels], dtype=np.int64)
            wanted = _row_keys(docs_in_set[spans.doc[repeats]], spans.start[repeats],
                               spans.end[repeats], global_label[spans.label[repeats]])
            candidates = set_rows[np.isin(_row_keys(*(k[set_rows] for k in keys)), wanted)]
            _warn_repeats(candidates, keys, (doc_names, label_names), who, has_set, file,
                          loaded)
    orders = {}
    entries = list(meta.values())
    for code, set_name in enumerate(set_names):
        info = meta.get(set_name, {}) if has_set else (entries[0] if len(entries) == 1 else {})
        if info.get("file_order") is True:
            rows = (set_codes == code) & keep if has_set else keep
            orders[set_name] = _file_order(doc_names, doc_codes[rows], start[rows], end[rows])
    return has_set, per_set, meta, orders


def _file_order(doc_names: list[str], doc: np.ndarray, start: np.ndarray, end: np.ndarray
                ) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per document, its distinct intervals in row order (first sighting): the gold labels'
    file order a writer kept (:func:`write_tables`)."""
    if not len(doc):
        return {}
    by_key = np.lexsort((end, start, doc))  # a (doc, start, end) group's rows, first row first
    key = (doc[by_key], start[by_key], end[by_key])
    new = np.ones(len(by_key), dtype=bool)
    new[1:] = (key[0][1:] != key[0][:-1]) | (key[1][1:] != key[1][:-1]) | (
        key[2][1:] != key[2][:-1])
    first = np.sort(by_key[new])  # each interval's first row, in row order
    rows = first[np.argsort(doc[first], kind="stable")]  # grouped by document, row order kept
    d = doc[rows]
    cuts = np.flatnonzero(d[1:] != d[:-1]) + 1
    pairs = list(zip(start[rows].tolist(), end[rows].tolist(), strict=True))
    bounds = [0, *cuts.tolist(), len(rows)]
    groups = {doc_names[int(d[a])]: tuple(pairs[a:b])
              for a, b in itertools.pairwise(bounds)}
    # the documents in order of their first row, as the MAFALDA reader lists them
    return {name: groups[name] for name in dict.fromkeys(doc_names[k] for k in
                                                           doc[first].tolist())}


def _check_rows(file: str, start: np.ndarray, end: np.ndarray, labels: Any,
                nulls: Mapping[str, np.ndarray], declared: np.ndarray) -> None:
    """Refuse the first row (in the order of the checks) that is neither a span nor a
    declaration: a missing value, a negative start, an end not past its start, a blank label."""
    for name, mask in nulls.items():
        i = _first(mask & ~declared)
        if i is not None:
            raise FormatError(file, "missing (a row is a span with start, end and label, or "
                              "declares a document without spans with all three null)",
                              path=_row(i), field=name)
    i = _first((start < 0) & ~declared)
    if i is not None:
        raise FormatError(file, f"expected a non-negative integer offset, got {start[i]}",
                          path=_row(i), field="start")
    i = _first((end <= start) & ~declared)
    if i is not None:
        raise FormatError(file, f"expected an integer greater than start ({start[i]}), got "
                          f"'{end[i]}'", path=_row(i), field="end")
    i = _first(_blank(labels))
    if i is not None:
        raise FormatError(file, f"expected a non-empty label string, got {labels[i].as_py()!r}",
                          path=_row(i), field="label")


def _label_codes(file: str, labels: Any, label_null: np.ndarray, options: ReadOptions
                 ) -> tuple[list[str], np.ndarray]:
    """The distinct labels and each row's code among them (-1 for a declaration row), each
    label checked against the labels list (the error names the first row that has it)."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(labels)
    label_names: list[str] = encoded.dictionary.to_pylist()
    label_codes = _filled(encoded.indices, label_null, -1).astype(np.int32)
    if options.labels is not None:
        for code, name in enumerate(label_names):
            try:
                check_label(name, options.labels, file, field="label")
            except FormatError as exc:
                i = _first(label_codes == code)
                raise FormatError(file, exc.diagnostic.message, path=_row(i or 0),
                                  field="label") from None
    return label_names, label_codes


def _set_codes(file: str, table: Any) -> tuple[list[str], np.ndarray]:
    """The distinct values of the ``set`` column and each row's code among them."""
    import pyarrow.compute as pc

    set_col = table.column("set").combine_chunks()
    if not _is_string(set_col.type):
        raise FormatError(file, f"expected a string column, got {_type_name(set_col.type)}",
                          field="set")
    sets_arr = _strings(set_col, file, "set")
    i = _first(_nulls(sets_arr) | _blank(sets_arr))
    if i is not None:
        raise FormatError(file, "missing (a file with a set column names the set of every "
                          "row)", path=_row(i), field="set")
    enc = pc.dictionary_encode(sets_arr)
    set_names: list[str] = enc.dictionary.to_pylist()
    return set_names, _ints(enc.indices).astype(np.int32)


def _check_against_texts(file: str, texts: Mapping[str, str | None], doc_names: list[str],
                         doc_codes: np.ndarray, start: np.ndarray, end: np.ndarray,
                         declared: np.ndarray, label_table: tuple[list[str], np.ndarray],
                         loaded: Loaded, beyond_text: Policy) -> None:
    """Spans past a known text, under the one policy of core.model.bounds: refused here, or kept for
    load_files to clip or keep with a warning per span; a warning for each span with
    whitespace at an edge, where the text is known."""
    label_names, label_codes = label_table
    doc_len = np.array([-1 if texts.get(d) is None else len(texts[d] or "") for d in doc_names],
                       dtype=np.int64)
    span_len = doc_len[doc_codes] if len(doc_codes) else np.zeros(0, dtype=np.int64)
    past = (span_len >= 0) & (end > span_len) & ~declared
    i = _first(past)
    if i is not None and beyond_text == "refuse":
        raise FormatError(file, bounds.past_text(int(span_len[i]), int(end[i])), path=_row(i),
                          field="end")
    # Only the suspects get a message (span_warnings builds it).
    known = np.flatnonzero((span_len >= 0) & ~declared & ~past)
    if len(known):
        doc_texts = [texts.get(d) for d in doc_names]
        begins, ends = whitespace_edges(doc_texts, doc_codes[known], start[known], end[known])
        for k in known[begins | ends].tolist():
            text = doc_texts[doc_codes[k]]
            assert text is not None
            span = Span(int(start[k]), int(end[k]), label_names[label_codes[k]])
            for message, fld in span_warnings(span, text):
                loaded.warn(message, field=fld, path=_row(k), file=file)


def _repeats(spans: SpanTable) -> np.ndarray:
    """The positions of a set's table (sorted by document, start, end, label) that repeat the
    span before them: one pass over its columns, so that a table without repeats never pays
    for :func:`_warn_repeats`'s sort of the rows."""
    if len(spans) < 2:
        return np.zeros(0, dtype=np.int64)
    same = ((spans.doc[1:] == spans.doc[:-1]) & (spans.start[1:] == spans.start[:-1])
            & (spans.end[1:] == spans.end[:-1]) & (spans.label[1:] == spans.label[:-1]))
    return np.flatnonzero(same) + 1


def _row_keys(doc: np.ndarray, start: np.ndarray, end: np.ndarray, label: np.ndarray
              ) -> np.ndarray:
    """A 64-bit key per span (document code, start, end, label code), equal for equal spans
    (unequal spans may share one, rarely: callers compare exactly afterwards)."""
    out = doc.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    out ^= start.astype(np.uint64) * np.uint64(0xC2B2AE3D27D4EB4F)
    out ^= end.astype(np.uint64) * np.uint64(0x165667B19E3779F9)
    out ^= label.astype(np.uint64) * np.uint64(0x27D4EB2F165667C5)
    return out


def _warn_repeats(rows: np.ndarray, keys: tuple[np.ndarray, ...],
                  names: tuple[list[str], list[str]], who: str, has_set: bool, file: str,
                  loaded: Loaded) -> None:
    """A span listed twice or more in one set: one warning per repeat, in row order, naming
    its row and the row of its first copy (0-based, as every Parquet message counts rows) and
    the columns that are equal. ``rows``: the set's span rows; ``keys``: the document, start,
    end and label code of every row."""
    if len(rows) < 2:
        return
    doc, start, end, label = (k[rows] for k in keys)
    order = np.lexsort((rows, label, end, start, doc))
    same = np.zeros(len(rows), dtype=bool)
    s_doc, s_start, s_end, s_label = doc[order], start[order], end[order], label[order]
    same[1:] = ((s_doc[1:] == s_doc[:-1]) & (s_start[1:] == s_start[:-1])
                & (s_end[1:] == s_end[:-1]) & (s_label[1:] == s_label[:-1]))
    if not same.any():
        return
    # the first copy of each run of equal spans: the run's first row (rows break the ties)
    run_start = np.maximum.accumulate(np.where(same, 0, np.arange(len(rows))))
    first = rows[order][run_start]
    doc_names, label_names = names
    columns = ("set, " if has_set else "") + "doc_id, start, end, label"
    repeats = sorted(zip(rows[order][same].tolist(), first[same].tolist(),
                         order[same].tolist(), strict=True))
    for row, first_row, k in repeats:
        loaded.warn(f"{who}document {doc_names[doc[k]]!r} has the span [{int(start[k])}, "
                    f"{int(end[k])}) {label_names[label[k]]!r} more than once; kept (each copy "
                    f"counts in the scores; first at row {first_row}, rows counted from 0 as "
                    "df.iloc counts them)", path=_row(row), field=columns, file=file,
                    kind="duplicate-span")


def _merge(doc_ids: list[str], parts: list[SpanTable]) -> SpanView:
    """One set's tables (one per shard; their documents are distinct) as one table, documents
    in ``doc_ids`` order."""
    if len(parts) == 1 and list(parts[0].doc_ids) == doc_ids:
        return SpanView(parts[0])
    index = {d: i for i, d in enumerate(doc_ids)}
    names: dict[str, int] = {}
    docs, starts, ends, labels = [], [], [], []
    for part in parts:
        if not len(part):
            continue
        to_doc = np.array([index[d] for d in part.doc_ids], dtype=np.int32)
        to_label = np.array([names.setdefault(lab, len(names)) for lab in part.labels],
                            dtype=np.int32)
        docs.append(to_doc[part.doc])
        starts.append(part.start)
        ends.append(part.end)
        labels.append(to_label[part.label])
    if not docs:
        return SpanView(SpanTable.from_columns(doc_ids, [], [], [], [], []))
    return SpanView(SpanTable.from_columns(doc_ids, np.concatenate(docs), np.concatenate(starts),
                                            np.concatenate(ends), np.concatenate(labels),
                                            list(names)))


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read a spans table (with its texts table when given), or a folder of them (shards)."""
    with _system_allocator():
        return _read(files, name=name, options=options)


_POOL_LOCK = threading.Lock()
_POOL_USERS: list[Any] = []  # the pool to restore, once per read under way


@contextlib.contextmanager
def _system_allocator() -> Iterator[None]:
    """Arrow's default allocator keeps freed buffers for reuse; the system allocator gives
    them back, so the decompressed pages of one table are not still held while the next is
    read (about 40 MiB less peak on a 18 MiB corpus). Reads in several threads at once share
    the switch; the last one to finish restores the default."""
    import pyarrow as pa

    with _POOL_LOCK:
        if not _POOL_USERS:
            previous = pa.default_memory_pool()
            pa.set_memory_pool(pa.system_memory_pool())
        else:
            previous = _POOL_USERS[0]
        _POOL_USERS.append(previous)
    try:
        yield
    finally:
        with _POOL_LOCK:
            _POOL_USERS.pop()
            if not _POOL_USERS:
                pa.set_memory_pool(previous)


def _read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    loaded = Loaded(FORMAT, name)
    spans_files, texts_files = _table_files(files, name, loaded)
    if options.table_budget is not None:
        _check_budget(files, [*spans_files, *texts_files], name, options.table_budget)
    texts = _read_texts(files, texts_files, name, loaded)
    known_texts: Mapping[str, str | None] = {**(options.gold_texts or {}), **{
        d: t for d, t in texts.items() if t is not None}}
    default = stem(name)
    sets = _Sets()
    orders: dict[str, dict[str, tuple[tuple[int, int], ...]]] = {}
    for f in spans_files:
        file = _where(name, f)
        has_column, per_set, meta, order = _spans_table(file, files[f], options, loaded,
                                                        known_texts)
        sets.add(file, has_column, per_set, meta, default, options, loaded)
        for set_name, intervals in order.items():
            orders.setdefault(set_name if has_column else default, {}).update(intervals)
    if len(orders) == 1 and sets.roles.get(next(iter(orders))) == "gold":
        # The gold labels' file order the writer kept, which MAFALDA's official evaluator reads
        # (core.metrics.mafalda_order), as the MAFALDA reader gives it: for a gold (read as
        # predictions, a MAFALDA file keeps no order either).
        from core.metrics.mafalda_order import GoldOrder

        loaded.records = GoldOrder(next(iter(orders.values())))
    merged = sets.merged
    if not merged:
        merged[default] = {}
        sets.roles[default] = options.role
        sets.alternatives[default] = False
    # in order: a set of ids made the texts' order change with the hash seed
    mentioned = dict.fromkeys(d for docs in merged.values() for d in docs)
    for set_name, docs in merged.items():
        for doc in texts:
            if doc not in mentioned and not sets.written:
                docs[doc] = None
        loaded.sets.append(AnnotationSet(set_name, _merge(list(docs), sets.parts.get(set_name, [])),
                                         sets.roles[set_name], sets.alternatives[set_name]))
    for doc in dict.fromkeys([*mentioned, *texts]):
        loaded.texts[doc] = texts.get(doc, options.gold_texts.get(doc) if options.gold_texts
                                      else None)
    return loaded


def _check_budget(files: Mapping[str, bytes], tables: list[str], name: str,
                  budget: TableBudget) -> None:
    """Refuse an input whose tables hold more rows or uncompressed bytes than ``budget``, from
    the footers alone (no page is read). A footer that cannot be read is left to the reader's
    own message."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = size = 0
    for f in tables:
        try:
            meta = pq.ParquetFile(pa.BufferReader(files[f])).metadata
            rows += meta.num_rows
            size += sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        except (pa.ArrowException, OSError, UnicodeDecodeError):
            continue
        if rows > budget.rows or size > budget.bytes:
            what = (f"{rows:,} rows (at most {budget.rows:,})" if rows > budget.rows else
                    f"{size / 2**20:,.0f} MiB uncompressed (at most {budget.bytes / 2**20:,.0f} "
                    "MiB)")
            raise FormatError(_where(name, f), f"the Parquet tables of this input hold {what}, "
                              "more than this server reads; its operator sets the limit "
                              f"({TableBudget.ROWS_ENV}, {TableBudget.MIB_ENV}), or read it "
                              "with the command line")


def _table_files(files: Mapping[str, bytes], name: str, loaded: Loaded
                 ) -> tuple[list[str], list[str]]:
    """The input's spans tables and texts tables (sorted), with a warning for any other file."""
    spans_files = sorted(f for f in files if f.lower().endswith(SUFFIX) and not is_texts_table(f))
    texts_files = sorted(f for f in files if is_texts_table(f))
    for other in sorted(set(files) - set(spans_files) - set(texts_files)):
        if len(files) > 1:
            loaded.warn("not a Parquet spans or texts table; ignored", file=_where(name, other),
                        kind="ignored")
    if not spans_files:
        if len(files) == 1 and not texts_files:
            spans_files = list(files)  # a Parquet file under another name (detected by content)
        else:
            raise FormatError(name, "no spans table (<name>.parquet) in the input; a texts "
                              "table (<name>.texts.parquet) alone holds no spans")
    return spans_files, texts_files


def _read_texts(files: Mapping[str, bytes], texts_files: list[str], name: str, loaded: Loaded
                ) -> dict[str, str | None]:
    """Every texts table's ``doc_id -> text``; a document in two of them is refused."""
    texts: dict[str, str | None] = {}
    text_source: dict[str, str] = {}
    for f in texts_files:
        file = _where(name, f)
        table = _texts_table(file, files[f], loaded)
        again = next((d for d in table if d in text_source), None) if text_source else None
        if again is not None:
            raise FormatError(file, f"document {again!r} is also in {text_source[again]}; each "
                              "document must appear once", field="doc_id")
        text_source.update(dict.fromkeys(table, file))
        texts.update(table)
    return texts


class _Sets:
    """The sets of the spans tables read so far (shards): each set's documents in order, its
    tables, role and alternatives flag; a document of one set in two tables is refused."""

    def __init__(self) -> None:
        self.merged: dict[str, dict[str, None]] = {}  # set -> its documents, in order
        self.parts: dict[str, list[SpanTable]] = {}
        self.roles: dict[str, Role] = {}
        self.alternatives: dict[str, bool] = {}
        self.shard_of: dict[tuple[str, str], str] = {}
        self.written = False  # by SpanScope: declaration rows list exactly what each set covers

    def add(self, file: str, has_column: bool, per_set: dict[str, SpanTable],
            meta: dict[str, Any], default: str, options: ReadOptions, loaded: Loaded) -> None:
        """Add one spans table's sets (:func:`_spans_table`)."""
        self.written = self.written or bool(meta)
        if has_column:
            for listed in meta:  # a set the writer wrote without any document has no row
                per_set.setdefault(listed, SpanTable.from_columns([], [], [], [], [], []))
            rank = {n: i for i, n in enumerate(meta)}
            items = sorted(per_set.items(), key=lambda kv: rank.get(kv[0], len(rank)))
        else:
            items = list(per_set.items())
        entries = list(meta.values())
        for set_name, part in items:
            key = set_name if has_column else default
            # Without a set column the caller's role holds (a gold file read as predictions);
            # the metadata still says whether the set has MAFALDA alternatives.
            info = meta.get(set_name, {}) if has_column else (
                entries[0] if len(entries) == 1 else {})
            role = info.get("role")
            self.roles.setdefault(key, options.role if not has_column else
                                  role if role in ROLES else "annotator")
            if has_column:
                loaded.named_sets.add(key)
            self.alternatives.setdefault(key, bool(info.get("alternatives", False)))
            target = self.merged.setdefault(key, {})
            for doc in part.doc_ids:
                if doc in target:
                    raise FormatError(file, f"document {doc!r} of set {key!r} is also in "
                                      f"{self.shard_of[(key, doc)]}; a document's spans must be "
                                      "in one table", field="doc_id")
                self.shard_of[(key, doc)] = file
                target[doc] = None
            self.parts.setdefault(key, []).append(part)


def _where(name: str, member: str) -> str:
    """How messages name a member of the input: the file itself, its companion, or
    ``folder/member``."""
    if name == member:
        return name
    if name.lower().endswith(SUFFIX):  # one spans table read with its companion texts table
        parent = PurePosixPath(name.replace("\\", "/")).parent
        return member if str(parent) == "." else f"{parent}/{member}"
    return f"{name.rstrip('/')}/{member}"


# ---- writing ---------------------------------------------------------------------------------


def ordered_set(sets: Sequence[AnnotationSet], order: object) -> int | None:
    """The index of the set whose file order ``order`` (a reader's records: MAFALDA's
    :class:`~core.metrics.mafalda_order.GoldOrder`) gives: the only gold (the file order is
    the gold's); None when there is none or ``order`` lists no document out of sorted order."""
    from core.metrics.mafalda_order import unsorted_documents

    if not unsorted_documents(order):
        return None
    golds = [k for k, s in enumerate(sets) if s.role == "gold"]
    return golds[0] if len(golds) == 1 else None


def write_tables(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], name: str,
                 order: object = None) -> dict[str, bytes]:
    """``{name.parquet: spans table, name.texts.parquet: texts table}`` (module docstring).

    A ``set`` column is written when there are several sets or the set is an annotator's; the
    sets' roles and ``alternatives`` flags go into the file's metadata. Every document of a set
    without spans gets a declaration row (start, end, label null). ``order``: the reader's
    records of the input; when they give the gold labels' file order (MAFALDA's, which its
    official evaluator reads: :mod:`core.metrics.mafalda_order`), that set's rows keep it and
    its metadata says ``"file_order": true``, so that reading the table gives the order back.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.metrics.mafalda_order import in_file_order

    if not sets:
        raise FormatError("<output>", "no annotation set to write")
    keep = ordered_set(sets, order)
    with_set = len(sets) > 1 or sets[0].role == "annotator"
    doc: list[str] = []
    start: list[int | None] = []
    end: list[int | None] = []
    label: list[str | None] = []
    set_col: list[str] = []
    for k, aset in enumerate(sets):
        for doc_id, sorted_spans in aset:
            spans = in_file_order(doc_id, sorted_spans, order) if k == keep else sorted_spans
            if not spans:
                doc.append(doc_id)
                start.append(None)
                end.append(None)
                label.append(None)
                set_col.append(aset.name)
            for s in spans:
                doc.append(doc_id)
                start.append(s.start)
                end.append(s.end)
                label.append(s.label)
                set_col.append(aset.name)
    columns: dict[str, Any] = {
        "doc_id": pa.array(doc, pa.string()), "start": pa.array(start, pa.int64()),
        "end": pa.array(end, pa.int64()), "label": pa.array(label, pa.string())}
    if with_set:
        columns["set"] = pa.array(set_col, pa.string())
    meta = json.dumps([{"name": s.name, "role": s.role, "alternatives": s.alternatives,
                        **({"file_order": True} if k == keep else {})}
                       for k, s in enumerate(sets)])
    spans_table = pa.table(columns).replace_schema_metadata({META_KEY: meta.encode("utf-8")})
    all_docs = list(dict.fromkeys([*texts, *(d for s in sets for d in s.spans)]))
    texts_table = pa.table({"doc_id": pa.array(all_docs, pa.string()),
                            "text": pa.array([texts.get(d) for d in all_docs], pa.string())})
    out: dict[str, bytes] = {}
    for fname, table in ((name + SUFFIX, spans_table), (name + TEXTS_SUFFIX, texts_table)):
        buf = io.BytesIO()
        pq.write_table(table, buf)
        out[fname] = buf.getvalue()
    return out


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, bytes]:
    """:func:`write_tables` named after the single set (``spans`` for several)."""
    name = stem(sets[0].name.replace("/", "_")) if len(sets) == 1 else "spans"
    return write_tables(texts, sets, name)
