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
``spanscope.sets`` that the writer stores, else ``annotator``.

Checks
------
Whole columns at once (pyarrow compute and numpy), the first bad row named by its 0-based index
(``df.iloc[i]``): a missing column, a column of the wrong type (``start`` as floating point, a
``label`` of numbers), a null ``doc_id``, a partly null row, a negative ``start``,
``end <= start``, an empty label, a label outside ``--labels``, a span past its text (the one
policy of :mod:`core.bounds`), and a ``doc_id`` listed twice in a texts table. Warnings: extra
columns, numeric document ids, duplicate spans, spans that begin or end in whitespace, files of
a folder that are not Parquet.

Example message::

    pred.parquet: row 2: field 'end': expected an integer greater than start (12), got '9'
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from core import bounds
from core.errors import FormatError
from core.formats import Loaded, ReadOptions
from core.formats._common import check_label, span_warnings
from core.model import ROLES, AnnotationSet, Role, Span

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

    try:
        return pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FormatError(file, f"expected a Parquet file, could not read it: {first}") from None


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


def _strings(column: Any) -> Any:
    """A string column as ``large_string`` (dictionary-encoded and view columns decoded)."""
    import pyarrow as pa

    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    return column.cast(pa.large_string())


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
        loaded.warn(f"extra columns ignored: {', '.join(extra)}", file=file)


def _doc_ids(file: str, column: Any, loaded: Loaded) -> Any:
    """The ``doc_id`` column as strings; null and empty ids refused, numbers converted."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = column.type
    if _is_integer(t):
        loaded.warn("numeric document ids are read as strings (the official 2021 scorer would "
                    "treat 7 and '7' as different documents)", field="doc_id", file=file)
        if column.null_count:
            i = _first(column.is_null().to_numpy(zero_copy_only=False))
            raise FormatError(file, "missing (every row needs a document id)", path=_row(i or 0),
                              field="doc_id")
        return pc.cast(column, pa.large_string())
    if not _is_string(t):
        raise FormatError(file, f"expected a string column, got {_type_name(t)}",
                          field="doc_id")
    ids = _strings(column)
    bad = pc.or_kleene(pc.is_null(ids), pc.equal(pc.utf8_trim_whitespace(ids), ""))
    i = _first(bad.to_numpy(zero_copy_only=False))
    if i is not None:
        got = ids[i].as_py()
        raise FormatError(file, "missing (every row needs a document id)" if got is None
                          else f"expected a non-empty document id, got {got!r}",
                          path=_row(i), field="doc_id")
    return ids


def _texts_table(file: str, data: bytes, loaded: Loaded) -> dict[str, str | None]:
    """``doc_id -> text`` of a texts table; a repeated id is refused with both rows."""
    import pyarrow.compute as pc

    table = _table(file, data)
    _check_columns(file, table, loaded, texts=True)
    ids = _doc_ids(file, table.column("doc_id").combine_chunks(), loaded)
    text_col = table.column("text").combine_chunks()
    if not _is_string(text_col.type):
        raise FormatError(file, f"expected a string column, got {_type_name(text_col.type)}",
                          field="text")
    id_list: list[str] = ids.to_pylist()
    if len(set(id_list)) != len(id_list):
        codes = pc.dictionary_encode(ids).indices.to_numpy(zero_copy_only=False)
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        k = _first(sorted_codes[1:] == sorted_codes[:-1])
        assert k is not None
        first, again = sorted(int(x) for x in order[k : k + 2])
        raise FormatError(file, f"duplicate document id {id_list[again]!r}: first at row {first}, "
                          f"again at row {again}; each document must appear once",
                          path=_row(again), field="doc_id")
    texts: list[str | None] = _strings(text_col).to_pylist()
    return dict(zip(id_list, texts, strict=True))


def _int_column(file: str, table: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Values (nulls as 0) and the null mask of an integer column."""
    column = table.column(name).combine_chunks()
    if not _is_integer(column.type):
        hint = " (cast it to an integer type, e.g. astype('Int64'))" if str(
            column.type) in ("double", "float", "halffloat") else ""
        raise FormatError(file, f"expected an integer column, got {_type_name(column.type)}"
                          f"{hint}", field=name)
    nulls = column.is_null().to_numpy(zero_copy_only=False)
    values = column.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    if str(column.type) == "uint64":
        big = _first(column.fill_null(0).to_numpy(zero_copy_only=False) > np.iinfo(np.int64).max)
        if big is not None:
            raise FormatError(file, "expected an offset below 2**63", path=_row(big), field=name)
    return values, nulls


def _set_meta(table: Any) -> dict[str, dict[str, Any]]:
    meta = table.schema.metadata or {}
    raw = meta.get(META_KEY)
    if not raw:
        return {}
    try:
        entries = json.loads(raw)
        return {str(e["name"]): e for e in entries if isinstance(e, dict) and "name" in e}
    except (ValueError, TypeError, KeyError):
        return {}


def _spans_table(file: str, data: bytes, options: ReadOptions, loaded: Loaded,
                 texts: Mapping[str, str | None]
                 ) -> tuple[bool, dict[str, dict[str, list[Span]]], dict[str, Any]]:
    """Validate one spans table: whether it has a ``set`` column, ``set -> doc -> spans``
    (documents in order of first appearance) and the sets' metadata."""
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
    labels = _strings(label_col)
    label_null = labels.is_null().to_numpy(zero_copy_only=False)
    declared = start_null & end_null & label_null
    for name, mask in (("start", start_null), ("end", end_null), ("label", label_null)):
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
    blank = pc.equal(pc.utf8_trim_whitespace(labels.fill_null("x")), "")
    i = _first(blank.to_numpy(zero_copy_only=False))
    if i is not None:
        raise FormatError(file, f"expected a non-empty label string, got {labels[i].as_py()!r}",
                          path=_row(i), field="label")
    encoded = pc.dictionary_encode(labels)
    label_names: list[str] = encoded.dictionary.to_pylist()
    label_codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    if options.labels is not None:
        for code, name in enumerate(label_names):
            try:
                check_label(name, options.labels, file, field="label")
            except FormatError as exc:
                i = _first(label_codes == code)
                raise FormatError(file, exc.diagnostic.message, path=_row(i or 0),
                                  field="label") from None
    if "set" in table.column_names:
        set_col = table.column("set").combine_chunks()
        if not _is_string(set_col.type):
            raise FormatError(file, f"expected a string column, got {_type_name(set_col.type)}",
                              field="set")
        sets_arr = _strings(set_col)
        i = _first(pc.or_(pc.is_null(sets_arr), pc.equal(pc.utf8_trim_whitespace(
            sets_arr.fill_null("x")), "")).to_numpy(zero_copy_only=False))
        if i is not None:
            raise FormatError(file, "missing (a file with a set column names the set of every "
                              "row)", path=_row(i), field="set")
        enc = pc.dictionary_encode(sets_arr)
        set_names: list[str] = enc.dictionary.to_pylist()
        set_codes = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        meta = _set_meta(table)
    else:
        set_names = [""]
        set_codes = np.zeros(n, dtype=np.int64)
        meta = _set_meta(table)
    doc_enc = pc.dictionary_encode(ids)
    doc_names: list[str] = doc_enc.dictionary.to_pylist()
    doc_codes = doc_enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    # Spans past a known text, under the one policy of core.bounds: refused here, or kept for
    # load_files to clip or keep with a warning per span.
    doc_len = np.array([-1 if texts.get(d) is None else len(texts[d] or "") for d in doc_names],
                       dtype=np.int64)
    span_len = doc_len[doc_codes] if n else np.zeros(0, dtype=np.int64)
    past = (span_len >= 0) & (end > span_len) & ~declared
    i = _first(past)
    if i is not None and options.beyond_text == "refuse":
        raise FormatError(file, bounds.past_text(int(span_len[i]), int(end[i])), path=_row(i),
                          field="end")
    # Whitespace at a span's edge: only where the text is known, and only the suspects get a
    # message (span_warnings builds it).
    known = np.flatnonzero((span_len >= 0) & ~declared & ~past)
    if len(known):
        doc_texts = [texts.get(d) for d in doc_names]
        for k, s, e, c in zip(known.tolist(), start[known].tolist(), end[known].tolist(),
                              doc_codes[known].tolist(), strict=True):
            text = doc_texts[c]
            assert text is not None
            if text[s].isspace() or text[e - 1].isspace():
                span = Span(s, e, label_names[label_codes[k]])
                for message, fld in span_warnings(span, text):
                    loaded.warn(message, field=fld, path=_row(k), file=file)
    # Group: set, then document in order of first appearance, then (start, end, label).
    label_rank = np.empty(len(label_names), dtype=np.int64)
    label_rank[np.argsort(np.array(label_names, dtype=object), kind="stable")] = np.arange(
        len(label_names))
    rank = np.full(n, -1, dtype=np.int64)  # declaration rows have no label
    labelled = label_codes >= 0
    rank[labelled] = label_rank[label_codes[labelled]]
    order = np.lexsort((rank, end, start, doc_codes, set_codes))
    per_set: dict[str, dict[str, list[Span]]] = {name: {} for name in set_names}
    o_set, o_doc = set_codes[order], doc_codes[order]
    o_start, o_end, o_lab, o_decl = start[order], end[order], label_codes[order], declared[order]
    # first-appearance order of documents within each set
    for code in range(len(set_names)):
        rows = np.flatnonzero(set_codes == code)
        first_docs = doc_codes[rows]
        _, first_at = np.unique(first_docs, return_index=True)
        for d in first_docs[np.sort(first_at)].tolist():
            per_set[set_names[code]][doc_names[d]] = []
    keep = ~o_decl
    spans_all = [Span(s, e, label_names[c]) for s, e, c in zip(
        o_start[keep].tolist(), o_end[keep].tolist(), o_lab[keep].tolist(), strict=True)]
    k_set, k_doc = o_set[keep], o_doc[keep]
    same = np.zeros(len(spans_all), dtype=bool)
    if len(spans_all) > 1:
        same[1:] = ((k_set[1:] == k_set[:-1]) & (k_doc[1:] == k_doc[:-1])
                    & (o_start[keep][1:] == o_start[keep][:-1])
                    & (o_end[keep][1:] == o_end[keep][:-1]) & (o_lab[keep][1:] == o_lab[keep][:-1]))
    for k in np.flatnonzero(same).tolist():
        span = spans_all[k]
        who = f"{set_names[k_set[k]]}: " if set_names[k_set[k]] else ""
        loaded.warn(f"{who}document {doc_names[k_doc[k]]!r} has the span [{span.start}, "
                    f"{span.end}) {span.label!r} more than once; kept (each copy counts in the "
                    "scores)", file=file)
    cut = np.flatnonzero((k_set[1:] != k_set[:-1]) | (k_doc[1:] != k_doc[:-1])) + 1
    edges = [0, *cut.tolist(), len(spans_all)]
    for lo, hi in itertools.pairwise(edges):
        if hi > lo:
            per_set[set_names[k_set[lo]]][doc_names[k_doc[lo]]].extend(spans_all[lo:hi])
    return "set" in table.column_names, per_set, meta


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read a spans table (with its texts table when given), or a folder of them (shards)."""
    loaded = Loaded(FORMAT, name)
    spans_files = sorted(f for f in files if f.lower().endswith(SUFFIX) and not is_texts_table(f))
    texts_files = sorted(f for f in files if is_texts_table(f))
    for other in sorted(set(files) - set(spans_files) - set(texts_files)):
        if len(files) > 1:
            loaded.warn("not a Parquet spans or texts table; ignored", file=_where(name, other))
    if not spans_files:
        if len(files) == 1 and not texts_files:
            spans_files = list(files)  # a Parquet file under another name (detected by content)
        else:
            raise FormatError(name, "no spans table (<name>.parquet) in the input; a texts "
                              "table (<name>.texts.parquet) alone holds no spans")
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
    known_texts: Mapping[str, str | None] = {**(options.gold_texts or {}), **{
        d: t for d, t in texts.items() if t is not None}}
    default = stem(name)
    merged: dict[str, dict[str, list[Span]]] = {}
    roles: dict[str, Role] = {}
    alternatives: dict[str, bool] = {}
    shard_of: dict[tuple[str, str], str] = {}
    written = False  # by SpanScope: declaration rows list exactly what each set covers
    for f in spans_files:
        file = _where(name, f)
        has_column, per_set, meta = _spans_table(file, files[f], options, loaded, known_texts)
        written = written or bool(meta)
        if has_column:
            for listed in meta:  # a set the writer wrote without any document has no row
                per_set.setdefault(listed, {})
            rank = {n: i for i, n in enumerate(meta)}
            items = sorted(per_set.items(), key=lambda kv: rank.get(kv[0], len(rank)))
        else:
            items = list(per_set.items())
        entries = list(meta.values())
        for set_name, docs in items:
            key = set_name if has_column else default
            # Without a set column the caller's role holds (a gold file read as predictions);
            # the metadata still says whether the set has MAFALDA alternatives.
            info = meta.get(set_name, {}) if has_column else (
                entries[0] if len(entries) == 1 else {})
            role = info.get("role")
            roles.setdefault(key, options.role if not has_column else
                             role if role in ROLES else "annotator")
            alternatives.setdefault(key, bool(info.get("alternatives", False)))
            target = merged.setdefault(key, {})
            for doc, spans in docs.items():
                if doc in target:
                    raise FormatError(file, f"document {doc!r} of set {key!r} is also in "
                                      f"{shard_of[(key, doc)]}; a document's spans must be in "
                                      "one table", field="doc_id")
                shard_of[(key, doc)] = file
                target[doc] = spans
    if not merged:
        merged[default] = {}
        roles[default] = options.role
        alternatives[default] = False
    mentioned = {d for docs in merged.values() for d in docs}
    for set_name, docs in merged.items():
        for doc in texts:
            if doc not in mentioned and not written:
                docs[doc] = []
        loaded.sets.append(AnnotationSet(set_name, {d: tuple(v) for d, v in docs.items()},
                                         roles[set_name], alternatives[set_name]))
    for doc in dict.fromkeys([*mentioned, *texts]):
        loaded.texts[doc] = texts.get(doc, options.gold_texts.get(doc) if options.gold_texts
                                      else None)
    return loaded


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


def write_tables(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], name: str
                 ) -> dict[str, bytes]:
    """``{name.parquet: spans table, name.texts.parquet: texts table}`` (module docstring).

    A ``set`` column is written when there are several sets or the set is an annotator's; the
    sets' roles and ``alternatives`` flags go into the file's metadata. Every document of a set
    without spans gets a declaration row (start, end, label null).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not sets:
        raise FormatError("<output>", "no annotation set to write")
    with_set = len(sets) > 1 or sets[0].role == "annotator"
    doc: list[str] = []
    start: list[int | None] = []
    end: list[int | None] = []
    label: list[str | None] = []
    set_col: list[str] = []
    for aset in sets:
        for doc_id, spans in aset:
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
    meta = json.dumps([{"name": s.name, "role": s.role, "alternatives": s.alternatives}
                       for s in sets])
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
