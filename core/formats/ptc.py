"""PTC TSV (NLP4IF-2019 FLC, SemEval-2020 Task 11): ``article_id TAB technique TAB start TAB end``.

Da San Martino et al. (2019); file layout as the official scorers read it
(``docs/formats.md``):

* one TSV file with 4 columns (``article_id, technique, start, end``) or 3 columns
  (``article_id, start, end``: span identification; the label becomes ``propaganda``), no header;
* or a gold folder of ``article<ID>*.labels`` files (the id comes from the file name, regex
  ``article([0-9]+)``), with the texts taken from ``article<ID>.txt`` when present.

Where the official scorers crash or accept silently, we refuse with a message: a row whose id
column differs from its file name's id (KeyError there), a ``.labels`` file name without an
article id (crash there), a non-integer offset (ValueError there). A blank line inside a file is
refused as the official FLC scorer does; a final newline is fine.
"""

from __future__ import annotations

import codecs
import dataclasses
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
    whitespace_edges,
    whitespace_message,
)
from core.formats._common import (
    check_label,
    make_span,
    member_name,
    set_name_of,
    single_set,
    span_warnings,
)
from core.formats._sniff import offsetless_header
from core.model import AnnotationSet, Span, make_spans
from core.model.errors import Diagnostic, FormatError, Position

FORMAT = "ptc"
SPAN_ONLY_LABEL = "propaganda"
"""The label of 3-column (span identification) rows, as in the official SI scorer."""

SLC_LABELS = ("propaganda", "non-propaganda", "?")
"""The third column of an NLP4IF-2019 sentence-level file (``?`` in its templates)."""
ARTICLE_RE = re.compile(r"article([0-9]+)")
_TC_NAME = re.compile(r"(?<![a-z])(?:tc|flc)(?![a-z])", re.IGNORECASE)
"""A file name that says technique classification: ``dev-task-TC.labels``, NLP4IF-2019's
``article<ID>.task-FLC.labels`` (and ``.task-flc-tc.labels``)."""
_TEXT_RE = re.compile(r"article([0-9]+)\.txt\Z")
_INT = re.compile(r"[0-9]+\Z")


def sniff(filename: str, head: str) -> int:
    """``.labels`` files are PTC when their name holds an article id, they are empty or a row
    is a PTC row (else, 30: another tool's sidecar, such as a ``<document>.ann.labels`` beside
    brat files, which the ``.ann`` files outscore); a ``.tsv`` is PTC when its rows end in two
    integer columns."""
    lower = PurePosixPath(filename).name.lower()
    if lower.endswith(".txt") and _TEXT_RE.match(lower):
        return 20
    lines = [line for line in head.splitlines()[:20] if line.strip()]
    if head and not head.endswith("\n") and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut by the 4 KiB head
    kinds = [_row_kind(line) for line in lines]
    if lower.endswith(".labels"):
        return 95 if ARTICLE_RE.search(lower) or not lines or "ptc" in kinds else 30
    tsv = lower.endswith(".tsv")
    if not lines:
        return 5 if tsv else 0
    good, hateval_like = kinds.count("ptc"), kinds.count("hateval")
    if hateval_like == len(lines):
        return 0
    if good == len(lines):
        return 90 if tsv or lower.endswith(".txt") else 60
    # A .tsv that is not HatEval-like (which has a header with HS) is most likely a PTC file
    # with an error: read it as PTC so that the reader names the bad line; not one that
    # starts with a '#' comment or has token tags (O, B-PER) in its last column (CoNLL-like:
    # GermEval 2014), which a message about article ids would mislead.
    header = lines[0].lower().split("\t")
    if not good and offsetless_header(head) is not None:
        return 0  # a table of other data (MiMoText's statements): detection says so
    if tsv and "hs" not in [h.strip() for h in header] and not _conll_like(lines):
        return 40 if good else 30
    return 0


_BIO_TAG = re.compile(r"(?:O|[BIESLU]-\S+)\Z")


def _conll_like(lines: Sequence[str]) -> bool:
    """Does a head start with a ``#`` field, or end a row with a BIO tag (``O``, ``B-PER``)?"""
    if lines[0].split("\t")[0].strip() == "#":
        return True
    return any(_BIO_TAG.match(line.rstrip().split("\t")[-1].strip()) for line in lines)


def _row_kind(line: str) -> str:
    """``hateval`` for a row shaped as HatEval's, ``ptc`` for one ending in two integer
    columns after a numeric id, else ``other``."""
    cols = [c.strip() for c in line.rstrip().split("\t")]
    # HatEval rows: id, HS (2 columns), id, HS, TR, AG (4, all 0/1) or id, text, HS, TR, AG.
    if len(cols) in (2, 5) or (len(cols) == 4 and set(cols[1:]) <= {"0", "1"}):
        return "hateval"
    if len(cols) in (3, 4) and all(_INT.match(c) for c in cols[-2:]) and _INT.match(cols[0]):
        return "ptc"
    return "other"


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read a PTC TSV file, or a gold folder of ``article<ID>*.labels`` (+ ``.txt``) files.

    A single TSV is read by one path, :func:`read_tsv_fast`; a file it refuses is invalid,
    and :func:`explain` raises the error naming file, line and field. A folder's ``.labels``
    files are read row by row (:func:`_read_tsv`, the only path for folders).
    """
    set_name = set_name_of(name)
    labels_files = {p: d for p, d in files.items() if p.lower().endswith(".labels")}
    only = next(iter(files)) if len(files) == 1 else ""
    single_file = len(files) == 1 and PurePosixPath(name).name == PurePosixPath(only).name
    if len(files) == 1 and (not labels_files or single_file):
        # A file given on its own is one TSV (a submission, or a TC gold file such as
        # dev-task-TC.labels); only a folder's .labels files take their id from the file name.
        (data,) = files.values()
        loaded = read_tsv_fast(data, name=name, set_name=set_name, options=options)
        if loaded is not None:
            return loaded
        explain(data, name=name, options=options)
    return _read_folder(files, labels_files, name, set_name, options, Loaded(FORMAT, name))


def explain(data: bytes, *, name: str, options: ReadOptions) -> NoReturn:
    """The explaining pass over a TSV :func:`read_tsv_fast` refused: the rows in file order
    through the checks of :func:`_read_tsv`, so that the first invalid value raises its
    :class:`FormatError` (line and field); what they gather is discarded. A file in which it
    finds nothing wrong is a bug of the columnar path, reported as such."""
    _read_tsv(name, decode(name, data), None, options, Loaded(FORMAT, name), SpanBuilder())
    raise unexplained(name, FORMAT)


_UNUSUAL = re.compile(rb'["\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x85\xa0]|\xe1\x9a\x80'
                      rb"|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80")
"""Bytes that send a TSV to the Python tokeniser: control characters and whitespace that
``str.strip`` and Arrow's trim may treat differently (and quotes, which Arrow may read)."""

FALLBACKS: Counter[str] = Counter()
"""Single TSV files :func:`read_tsv_fast` refused in this process (invalid files, which
:func:`explain` names)."""

RETOKENISED: Counter[str] = Counter()
"""Single TSV files :func:`read_tsv_fast` split into cells with ``str.split`` rather than
``pyarrow.csv`` (unusual bytes, a lone CR, a blank line, texts to check against); their cells
go to the same columns and checks. The bench corpora add nothing here."""


def read_tsv_fast(data: bytes, *, name: str, set_name: str, options: ReadOptions
                  ) -> Loaded | None:
    """One PTC TSV file read as columns, checked in vectorised passes; the row order kept as
    columns too (:class:`RowColumns`). The one path that reads a single TSV: None when a value
    is invalid (a blank line, a header, a non-numeric id or offset, a span past its text),
    so that :func:`explain` names file, line and field.

    ``pyarrow.csv`` (TAB-separated, no quoting) splits a plain file into cells; a file with
    control characters or unusual whitespace, a lone CR, or texts to check the spans against
    (``gold_texts``) is split by ``str.split`` as :func:`_read_tsv` splits it, into the same
    columns (:data:`RETOKENISED`). Offsets are decimal digits, or strings
    :func:`~core.formats._common.digit_offset` reads (``+5``, ``007``).
    """
    raw = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    plain = not (options.gold_texts is not None or not raw
                 or raw.startswith(b"\xef\xbb\xbf") or _UNUSUAL.search(raw)
                 or raw.count(b"\r") != raw.count(b"\r\n"))
    cols = _arrow_cells(raw) if plain else None
    if cols is None:
        RETOKENISED["tsv"] += 1
        cols = _split_cells(name, data)
    if cols is None:
        return _fallback()
    import pyarrow as pa
    import pyarrow.compute as pc

    width = len(cols)
    n = len(cols[0])
    article = cols[0]
    if not pc.all(pc.match_substring_regex(article, "^[0-9]+$"), min_count=0).as_py():
        return _fallback()
    start, end = offset_column(cols[-2]), offset_column(cols[-1])
    if start is None or end is None:
        return _fallback()
    if width == 4:
        lab_codes = pc.dictionary_encode(cols[1]).combine_chunks()
        names = [str(x) for x in lab_codes.dictionary.to_pylist()]
        label = lab_codes.indices.to_numpy(zero_copy_only=False)
    else:
        names = [SPAN_ONLY_LABEL]
        label = np.zeros(n, dtype=np.int32)
    doc_codes = pc.dictionary_encode(article).combine_chunks()
    doc_ids = [str(x) for x in doc_codes.dictionary.to_pylist()]
    doc = doc_codes.indices.to_numpy(zero_copy_only=False)
    del cols, article, pa
    spans = SpanBuilder()
    spans.add_columns(doc, start, end, label, labels=names, doc_ids=doc_ids)
    gold_texts = options.gold_texts
    texts = [gold_texts.get(d) for d in doc_ids] if gold_texts is not None else None
    lengths = None
    if texts is not None and options.beyond_text == "refuse":
        lengths = np.array([-1 if t is None else len(t) for t in texts], dtype=np.int64)
    if not spans.valid(allowed=options.labels if width == 4 else None, lengths=lengths):
        return _fallback()
    loaded = Loaded(FORMAT, name)
    aset = AnnotationSet(set_name, spans.spans(), options.role)
    from core.metrics.tc_order import RowOrder

    loaded.records = RowOrder(RowColumns(doc_ids, names, doc, start, end, label))
    for k, doc_id in enumerate(doc_ids):
        loaded.texts[doc_id] = None if texts is None else texts[k]
    loaded.sets.append(aset)
    if width == 3:
        _tc_name_note(loaded, [name], name)
    group = object()
    if texts is not None:
        _whitespace_group(loaded, group, spans, texts)
    _duplicate_group(loaded, group, spans)
    return loaded


def _fallback() -> Loaded | None:
    """:func:`read_tsv_fast`'s refusal (None), counted in :data:`FALLBACKS`."""
    FALLBACKS["tsv"] += 1
    return None


def _arrow_cells(raw: bytes) -> list[Any] | None:
    """The stripped cells of a plain TSV, a column of strings per field, by ``pyarrow``;
    None when Arrow does not read it as :func:`_read_tsv` would (a blank line, rows of
    different widths, bytes that are not UTF-8, not 3 or 4 columns, a line ending in a tab)."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyarrow import csv as pa_csv
    except ImportError:  # pragma: no cover - pyarrow is a pinned dependency
        return None
    try:
        table = pa_csv.read_csv(
            pa.py_buffer(raw if raw.endswith(b"\n") else raw + b"\n"),
            read_options=pa_csv.ReadOptions(autogenerate_column_names=True, use_threads=False),
            parse_options=pa_csv.ParseOptions(delimiter="\t", quote_char=False,
                                              ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(
                column_types={f"f{i}": pa.string() for i in range(4)},
                strings_can_be_null=False, quoted_strings_can_be_null=False),
            memory_pool=pa.system_memory_pool())  # gives freed buffers back (peak memory)
    except (pa.ArrowInvalid, pa.ArrowKeyError):
        return None
    if table.num_columns not in (3, 4):
        return None
    # Trim (as _read_tsv's str.strip) only the columns with a space at an edge.
    cols = [pc.utf8_trim_whitespace(col) if pc.any(pc.match_substring_regex(
        col, r"^\s|\s$")).as_py() else col for col in table.columns]
    # A line ending in a tab (and spaces) ends in an empty cell here, where _read_tsv's
    # rstrip takes the tab off with the line's end: one column fewer, split as it splits it.
    if pc.any(pc.equal(cols[-1], "")).as_py():
        return None
    return cols


def _split_cells(file: str, data: bytes) -> list[Any] | None:
    """The cells of a TSV split as :func:`_read_tsv` splits them (lines on ``\\n``, one final
    newline ending the last row, each line's end and each cell stripped), a column of strings
    per field; None for what it refuses in the file's shape (text that is not UTF-8, a blank
    line, not 3 or 4 columns, or not as many as on line 1)."""
    import pyarrow as pa

    try:
        text = decode(file, data)
    except FormatError:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows = [[c.strip() for c in raw.rstrip().split("\t")] for raw in lines]
    width = len(rows[0]) if rows else 3
    if width not in (3, 4) or any(len(r) != width or not raw.rstrip()
                                  for r, raw in zip(rows, lines, strict=True)):
        return None
    return [pa.chunked_array([pa.array([r[i] for r in rows], type=pa.string())])
            for i in range(width)]


def _whitespace_group(loaded: Loaded, group: object, spans: SpanBuilder,
                      texts: Sequence[str | None]) -> None:
    """The warnings about spans that begin or end in whitespace (rows = lines) of a file read
    with the texts ``texts`` (one per document of ``spans``), grouped."""
    doc, start, end, _ = spans.columns()
    begins, ends = whitespace_edges(texts, doc, start, end)
    at_space = np.flatnonzero(begins | ends)
    del begins, ends
    file = loaded.source

    def produce() -> Iterator[tuple[Position, Diagnostic]]:
        for r in at_space.tolist():
            s, e = int(start[r]), int(end[r])
            message = whitespace_message(s, e, texts[int(doc[r])][s:e])  # type: ignore[index]
            yield (r + 1, 0), Diagnostic(file, message, r + 1)

    add_group(loaded, group, len(at_space), produce)


class RowColumns(Sequence[tuple[str, Span]]):
    """The rows of a PTC file, ``(article, Span)`` in file order, kept as columns and built
    when iterated (:class:`core.metrics.tc_order.RowOrder` of the fast reader)."""

    def __init__(self, doc_ids: Sequence[str], labels: Sequence[str], doc: np.ndarray,
                 start: np.ndarray, end: np.ndarray, label: np.ndarray) -> None:
        self._doc_ids, self._labels = doc_ids, labels
        self._doc, self._start, self._end, self._label = doc, start, end, label

    def __len__(self) -> int:
        return len(self._doc)

    def _rows(self, rows: slice) -> list[tuple[str, Span]]:
        spans = make_spans(self._start[rows].tolist(), self._end[rows].tolist(),
                           [self._labels[k] for k in self._label[rows].tolist()])
        return [(self._doc_ids[d], sp) for d, sp in zip(self._doc[rows].tolist(), spans,
                                                         strict=True)]

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self._rows(index))
        return self._rows(slice(index, index + 1 if index != -1 else None))[0]

    def __iter__(self) -> Iterator[tuple[str, Span]]:
        step = 65536
        for i in range(0, len(self), step):
            yield from self._rows(slice(i, i + step))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))


def _duplicate_group(loaded: Loaded, group: object, spans: SpanBuilder) -> None:
    """The warnings about a span listed again, grouped (rows = lines), found
    on the builder's columns."""
    repeat, first = spans.repeats()
    if not len(repeat):
        return
    doc, start, end, label = spans.columns()
    names, doc_ids = spans.labels, spans.doc_ids
    file = loaded.source

    def produce() -> Iterator[tuple[Position, Diagnostic]]:
        for r, f in zip(repeat.tolist(), first.tolist(), strict=True):
            line = r + 1
            message = (f"article {doc_ids[doc[r]]} has the span [{start[r]}, {end[r]}) "
                       f"{names[label[r]]!r} again (first on line {f + 1}); kept (each copy "
                       "counts in the scores)")
            yield (line, 1), Diagnostic(file, message, line, kind="duplicate-span")

    add_group(loaded, group, len(repeat), produce)


def _decode_text(file: str, data: bytes, options: ReadOptions, loaded: Loaded) -> str:
    """An article text as the official tools read it (Python's ``open(encoding="utf-8")``): a
    UTF-8 byte order mark stays as its first character, and the corpus's offsets count it (two
    articles of the SemEval-2020 training set and two of NLP4IF-2019's start with one).

    ``open`` reads with universal newlines, so a CRLF line break is one character (``\\n``) in
    the offsets of the labels (an article saved with CRLF endings shifts every span after its
    first line break otherwise); a lone CR becomes ``\\n`` too. That reading, the default, is
    said in a warning naming the file; ``line_breaks="as-stored"`` (``--line-breaks``) keeps
    the text as its bytes are."""
    text = decode(file, data)
    if options.line_breaks == "universal" and "\r" in text:
        crlf = text.count("\r\n")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if crlf:
            loaded.warn(f"{crlf} CRLF line breaks read as one character each, as the PTC "
                        "offsets count them (Python's universal newlines); --line-breaks "
                        "as-stored counts each CR as well", file=file, kind="line-breaks")
    return "\ufeff" + text if data.startswith(codecs.BOM_UTF8) else text


def _read_folder(
    files: Mapping[str, bytes], labels_files: Mapping[str, bytes], name: str, set_name: str,
    options: ReadOptions, loaded: Loaded,
) -> Loaded:
    if not labels_files:
        raise FormatError(
            name, "expected a PTC gold folder with article<ID>*.labels files, or one .labels "
            "file for all its articles (such as dev-task-TC.labels) beside the "
            f"article<ID>.txt texts; found none among {len(files)} files",
        )
    combined = sorted(p for p in labels_files
                      if ARTICLE_RE.search(PurePosixPath(p).name) is None)
    if combined and (len(combined) > 1 or len(labels_files) > 1):
        raise FormatError(
            member_name(name, combined[0]), "expected either article<ID>*.labels files or one "
            "labels file for all articles beside the texts, found "
            f"{len(labels_files)} .labels files of which {len(combined)} name no article",
        )
    texts: dict[str, str] = {}
    text_files: dict[str, str] = {}
    for path, data in files.items():
        base = PurePosixPath(path).name
        if path in labels_files:
            continue
        match = _TEXT_RE.match(base)
        if match:
            texts[match.group(1)] = _decode_text(member_name(name, path), data, options,
                                                  loaded)
            text_files[match.group(1)] = path
        else:
            loaded.warn(
                f"{path}: not an article<ID>.txt text or an article<ID>*.labels file; ignored",
                kind="ignored",
            )
    if combined and text_files:  # without texts the folder is a per-article one misnamed
        return _read_combined(combined[0], labels_files[combined[0]], texts, text_files, name,
                              set_name, options, loaded)
    spans = SpanBuilder()
    origin: dict[str, str] = {}
    span_only: list[str] = []  # files whose rows have 3 columns (SI)
    for path in sorted(labels_files, key=_natural):
        file = member_name(name, path)
        doc_id = _article_of(file, path, origin)
        text = texts.get(doc_id)
        if text is None and options.gold_texts is not None:
            text = options.gold_texts.get(doc_id)
        spans.document(doc_id)
        if _read_tsv(file, decode(file, labels_files[path]), doc_id, options, loaded, spans,
                     text) == 3:
            span_only.append(path)
        loaded.texts[doc_id] = text
    _tc_name_note(loaded, span_only, name)
    for doc_id, path in text_files.items():
        if doc_id not in spans:
            loaded.warn(
                f"{path}: article {doc_id} has a text but no .labels file; ignored (an empty "
                ".labels file marks an article without propaganda)",
                kind="ignored",
            )
    loaded.sets.append(AnnotationSet(set_name, spans.spans(), options.role))
    return loaded


def _article_of(file: str, path: str, origin: dict[str, str]) -> str:
    """The article id in the name of a folder's ``.labels`` file (each id once)."""
    match = ARTICLE_RE.search(PurePosixPath(path).name)
    if match is None:
        raise FormatError(
            file, "expected a file name with an article id, 'article<ID>...labels' "
            f"(regex article([0-9]+)), got {PurePosixPath(path).name!r}",
        )
    doc_id = match.group(1)
    if doc_id in origin:
        raise FormatError(
            file, f"duplicate article id {doc_id!r}: {origin[doc_id]} has it already; "
            "each article must have one .labels file",
        )
    origin[doc_id] = path
    return doc_id


def _read_combined(path: str, data: bytes, texts: Mapping[str, str],
                   text_files: Mapping[str, str], name: str, set_name: str,
                   options: ReadOptions, loaded: Loaded) -> Loaded:
    """One labels file for all articles (the official ``dev-task-TC.labels``, ``train-task1-SI
    .labels``, ...) read with the ``article<ID>.txt`` texts beside it: the rows' articles are
    the documents, as when the file is given alone; an article with a text and no row is not
    one (the official scorers know only the articles of the labels file), said in one
    warning."""
    file = member_name(name, path)
    order: list[tuple[str, Span]] = []
    gold_texts = {**(options.gold_texts or {}), **texts}
    spans = SpanBuilder()
    if _read_tsv(file, decode(file, data), None,
                 dataclasses.replace(options, gold_texts=gold_texts), loaded, spans,
                 order=order) == 3:
        _tc_name_note(loaded, [path], name)
    from core.metrics.tc_order import RowOrder

    loaded.records = RowOrder(tuple(order))
    for doc_id in spans.doc_ids:
        loaded.texts[doc_id] = gold_texts.get(doc_id)
    unused = sorted((d for d in text_files if d not in spans), key=_natural)
    if unused:
        loaded.warn(f"{len(unused)} article texts have no row in {PurePosixPath(path).name} "
                    f"(first: {text_files[unused[0]]}); ignored: the labels file names the "
                    "documents", kind="ignored")
    missing = [d for d in spans.doc_ids if d not in texts]
    if missing:
        loaded.warn(f"{len(missing)} articles of {PurePosixPath(path).name} have no "
                    f"article<ID>.txt text in the folder (first: {missing[0]})",
                    kind="missing-texts")
    loaded.sets.append(AnnotationSet(set_name, spans.spans(), options.role))
    return loaded


def _read_tsv(
    file: str, text: str, file_id: str | None, options: ReadOptions, loaded: Loaded,
    spans: SpanBuilder, doc_text: str | None = None,
    order: list[tuple[str, Span]] | None = None,
) -> int | None:
    """Rows of one TSV, in file order, into ``spans``: the first invalid value raises its
    :class:`FormatError` (line and field), warnings are given one by one; ``file_id`` is the
    id a gold file's name gives (rows must agree). Returns the rows' number of columns (None
    for an empty file)."""
    first_line: dict[tuple[str, Span], int] = {}
    columns: int | None = None
    # Split on "\n" only, as the official scorers iterate over file lines; one final newline
    # ends the last row rather than adding a blank one.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        cols = _row(file, raw, number, columns, file_id)
        columns = len(cols)
        article = cols[0]
        text_for_doc = doc_text
        if text_for_doc is None and file_id is None and options.gold_texts is not None:
            text_for_doc = options.gold_texts.get(article)
        span = _row_span(file, cols, number, text_for_doc, options)
        for message, fld in span_warnings(span, text_for_doc):
            loaded.warn(message, line=number, field=fld, file=file)
        spans.add(spans.document(article), span.start, span.end, span.label)
        if order is not None:
            order.append((article, span))
        key = (article, span)
        if key in first_line:
            loaded.warn(
                f"article {article} has the span [{span.start}, {span.end}) {span.label!r} "
                f"again (first on line {first_line[key]}); kept (each copy counts in the scores)",
                line=number, file=file,
                kind="duplicate-span",
            )
        else:
            first_line[key] = number
    return columns


def _tc_name_note(loaded: Loaded, span_only: Sequence[str], name: str) -> None:
    """One warning when files whose name says technique classification (TC, FLC) hold span
    identification rows (``article_id, start, end``; each span read as ``propaganda``): an
    SI gold file saved under a TC name scores every technique as one label, which no number
    would show (a participant's copy of the PTC, ``article000.task-flc-tc.labels``)."""
    named = [p for p in span_only if _TC_NAME.search(PurePosixPath(p).name)]
    if not named:
        return
    first = PurePosixPath(named[0]).name
    what = (f"{first} is named" if len(named) == 1 else
            f"{len(named)} .labels files are named (first: {first})")
    loaded.warn(f"{what} for technique classification (TC/FLC: article_id, technique, start, "
                "end), but the rows have 3 columns, the span identification layout (SI: "
                f"article_id, start, end): every span is read as {SPAN_ONLY_LABEL!r}, no "
                "technique", file=member_name(name, named[0]) if named[0] != name else name,
                kind="file-name")


def _row(file: str, raw: str, number: int, columns: int | None, file_id: str | None
         ) -> list[str]:
    """The stripped cells of line ``number``, checked: 3 or 4 columns as on line 1, a numeric
    article id (the file name's, when given), not a sentence-level row."""
    row = raw.rstrip()
    if not row:
        raise FormatError(
            file, "blank line: a PTC file has one annotation per line and no blank lines "
            "(the official scorer rejects them too)", line=number,
        )
    cols = [c.strip() for c in row.split("\t")]
    if len(cols) not in (3, 4):
        hint = " (columns must be separated by TAB characters)" if len(cols) == 1 else ""
        raise FormatError(
            file, f"expected 3 or 4 TAB-separated columns (article_id, [technique,] start, "
            f"end), got {len(cols)}{hint}", line=number,
        )
    if columns is not None and len(cols) != columns:
        raise FormatError(
            file, f"expected {columns} columns like line 1, got {len(cols)}", line=number
        )
    article = cols[0]
    if not _INT.match(article):
        hint = "; PTC files have no header row" if number == 1 else ""
        raise FormatError(
            file, f"expected a numeric article id, got {article!r}{hint}",
            line=number, field="article_id",
        )
    if file_id is not None and article != file_id:
        raise FormatError(
            file, f"expected the article id of the file name ({file_id}), got {article!r}",
            line=number, field="article_id",
        )
    if len(cols) == 3 and cols[2] in SLC_LABELS and _INT.match(cols[1]):
        raise FormatError(
            file, "an NLP4IF-2019 sentence-level (SLC) file (article_id, sentence_id, "
            f"{cols[2]!r}): it labels sentences, not spans; SpanScope reads the span files "
            "(FLC, SI, TC)", line=number, field="end",
        )
    return cols


def _row_span(file: str, cols: list[str], number: int, text: str | None,
              options: ReadOptions) -> Span:
    """The span of a checked row (``make_span``; a header row named as such)."""
    label = cols[1] if len(cols) == 4 else SPAN_ONLY_LABEL
    start, end = cols[-2], cols[-1]
    try:
        span = make_span(start, end, label, file, line=number, text=text,
                         fields=("start", "end", "technique"),
                         beyond_text=options.beyond_text)
    except FormatError as exc:
        if number == 1 and start.lower() in ("start", "begin", "start_offset"):
            raise FormatError(
                file, exc.diagnostic.message + "; PTC files have no header row",
                line=number, field=exc.field,
            ) from None
        raise
    if len(cols) == 4:
        check_label(label, options.labels, file, field="technique", line=number)
    return span


def _natural(path: str) -> tuple[int, str, str]:
    match = ARTICLE_RE.search(path)
    # Compare digit strings by length first: no int() on a name of thousands of digits.
    digits = match.group(1).lstrip("0") if match else ""
    return (len(digits) if match else -1, digits, path)


def _tsv_rows(texts: Mapping[str, str | None], aset: AnnotationSet, doc_ids: Sequence[str],
              ) -> list[str]:
    span_only = all(s.label == SPAN_ONLY_LABEL for _, spans in aset for s in spans)
    rows = []
    for doc_id in doc_ids:
        for s in aset.get(doc_id):
            if "\t" in s.label or "\n" in s.label or "\r" in s.label:
                raise FormatError(
                    "<output>", f"label {s.label!r} contains a TAB or line break; PTC TSV "
                    "cannot hold it",
                )
            cells = [doc_id] + ([] if span_only else [s.label]) + [str(s.start), str(s.end)]
            rows.append("\t".join(cells))
    return rows


def _check_ids(aset: AnnotationSet) -> None:
    bad = [d for d in aset.spans if not _INT.match(d)]
    if bad:
        raise FormatError(
            "<output>", "PTC article ids must be numbers (they become article<ID> file names); "
            f"got {', '.join(repr(b) for b in bad[:5])}",
        )


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """A gold folder: ``article<ID>.labels`` per document (empty when it has no span) and
    ``article<ID>.txt`` when the text is known. 3 columns when every label is ``propaganda``."""
    aset = single_set(sets, FORMAT)
    _check_ids(aset)
    out: dict[str, str] = {}
    for doc_id in aset.spans:
        rows = _tsv_rows(texts, aset, [doc_id])
        out[f"article{doc_id}.labels"] = "".join(r + "\n" for r in rows)
        text = texts.get(doc_id)
        if text is not None:
            out[f"article{doc_id}.txt"] = text
    return out


def write_tsv(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """One submission-style TSV file (documents without spans cannot be represented)."""
    aset = single_set(sets, FORMAT)
    _check_ids(aset)
    rows = _tsv_rows(texts, aset, list(aset.spans))
    return {f"{aset.name or 'annotations'}.tsv": "".join(r + "\n" for r in rows)}


def losses(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> list[str]:
    """What a PTC folder written here does not give back as it was: a text holding carriage
    returns. The articles are written as they are, but a PTC reader counts a CR LF (or a lone
    CR) as one character by default, as the task's offsets do (``--line-breaks universal``),
    so such a text's later spans would move when read back without ``--line-breaks
    as-stored``."""
    held = sorted(d for d, t in texts.items() if t and "\r" in t)
    if not held:
        return []
    return [f"note: {len(held)} texts hold carriage returns (e.g. {held[0]!r}); read the "
            "folder back with --line-breaks as-stored, or a PTC reader counts each CR LF as one "
            "character and the spans after it move"]
