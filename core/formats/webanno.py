"""INCEpTION / WebAnno TSV 3 (``#FORMAT=WebAnno TSV 3.x``) and INCEpTION project exports.

Format (INCEpTION user guide, "WebAnno TSV 3.3 File format"): a header ``#FORMAT=WebAnno TSV
3.3``, one line per layer (``#T_SP=`` span, ``#T_CH=`` chain, ``#T_RL=`` relation layers) naming
its features separated by ``|``, two empty lines, then per sentence ``#Text=`` lines and one line
per token, ``sentence-token<TAB>begin-end<TAB>token<TAB>`` and one column per feature. In a
column ``_`` means "no annotation of this layer here" and ``*`` "an annotation without a value";
several (stacked) annotations are separated by ``|``; ``[N]`` after a value is a disambiguation
id shared by all tokens of one multi-token annotation; ``1-3.1`` lines are sub-tokens; reserved
characters are escaped with a backslash.

How we read it, as INCEpTION's own reader does (``Tsv3XDeserializer``): the document text is
rebuilt from the ``#Text=`` lines (a line break after each), each sentence placed at its first
token's begin offset (a gap is filled with spaces; a sentence that starts right after the previous
one drops that line break), so token offsets index the rebuilt text. Offsets count UTF-16 units
(Java strings); they are converted to Python characters. An annotation spans from the begin of its
first unit to the end of its last unit.

The label is one feature of one span layer (:mod:`core.formats.layers`; ``--layer``,
``--feature``). Relation and chain layers carry no spans and are skipped; an annotation whose
feature is empty (``*``) is skipped with a warning.

An INCEpTION project export (a zip or folder with ``annotation/<document>/<user>.tsv``), or any
folder with one subfolder per document and one file per annotator, gives one annotation set per
annotator (role ``annotator``); ``curation/<document>/CURATION_USER.tsv`` becomes the set
``curation`` (role ``gold``); INCEpTION's ``INITIAL_CAS`` (the document before annotation) is
skipped. A flat folder of ``.tsv`` files is one set with one document per file.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, NoReturn, Protocol, TypeVar

import numpy as np

from core.formats import Loaded, ReadOptions, Sentences, decode
from core.formats._columns import SpanColumns, duplicates, iter_lines
from core.formats._common import check_label, member_name, parse_offset
from core.formats.archive import check_binary_cas_export
from core.formats.layers import Choice, choose
from core.model import AnnotationSet, Role, Span
from core.model.errors import FormatError, KindedText

FORMAT = "webanno-tsv"
HEADER = "#FORMAT=WebAnno TSV 3"
_FORMAT_RE = re.compile(r"#FORMAT=WebAnno TSV (3)(?:\.([0-9]+))?\s*\Z")
_ID_RE = re.compile(r"([0-9]+)-([0-9]+)(?:\.([0-9]+))?\Z")
_OFFSETS_RE = re.compile(r"([0-9]+)-([0-9]+)\Z")
# The widest gap between two sentences that is padded with spaces (characters).
MAX_GAP = 10_000_000
# The longest file whose body is read as arrays (characters): a longer one is read line by
# line, whose memory does not grow with a copy of the file and arrays over its characters.
COLUMNS_MAX = 32_000_000
_TOKEN_HEAD = re.compile(r"([0-9]+)-([0-9]+)(?:\.([0-9]+))?\t([0-9]{1,12})-([0-9]{1,12})\t")
"""A token line's id and offsets cells at once: it matches exactly when the line's first two
cells match :data:`_ID_RE` and :data:`_OFFSETS_RE` and a third cell follows (one match per
line instead of a split and two). An offset of more than 12 digits does not match: no text is
10^12 characters long, and ``int()`` refuses over 4,300 digits (:func:`_refuse_token_line` says
which offset, through :func:`~core.formats._common.parse_offset`)."""
_TOKEN_ROW = re.compile(r"^[0-9]+-[0-9]+(?:\.[0-9]+)?\t([0-9]{1,12}-[0-9]{1,12})\t", re.M)
""":data:`_TOKEN_HEAD` at every line start of many files at once, the offsets cell kept (what
:func:`_bodies_columns` needs of it)."""
_TEXT_ROW = re.compile(r"^#Text=([^\n]*)", re.M)
_STACK_SEP = re.compile(r"(?<!\\)\|")
_VALUE_ESCAPES = [("\\", "\\\\"), ("[", "\\["), ("]", "\\]"), ("|", "\\|"), ("_", "\\_"),
                  ("->", "\\->"), (";", "\\;"), ("\t", "\\t"), ("\n", "\\n"), ("*", "\\*")]
_ESCAPED = dict(_VALUE_ESCAPES)
_ESCAPE_VALUE = re.compile(r"->|[\\\[\]|_;\t\n*]")
_UNESCAPE_VALUE = re.compile(r"\\(\\|\[|\]|\||_|->|;|t|n|\*)")
_TEXT_SPECIAL = {"\t": "t", "\n": "n", "\f": "f", "\r": "r", "\b": "b", "\\": "\\"}
_UNESCAPE_TEXT = re.compile(r"\\([tnfrb\\]|[\x00-\x07\x0e-\x1f])")
INITIAL_CAS = "INITIAL_CAS"
CURATION_USER = "CURATION_USER"
LAYER = "webanno.custom.Span"
FEATURE = "label"


def escape_value(value: str) -> str:
    """Escape a feature value or token (INCEpTION ``Escaping.escapeValue``).

    >>> escape_value("a|b_c->d")
    'a\\\\|b\\\\_c\\\\->d'
    """
    return _ESCAPE_VALUE.sub(lambda m: _ESCAPED[m.group(0)], value)


def unescape_value(value: str) -> str:
    """Undo :func:`escape_value`.

    >>> unescape_value(r"a\\|b\\_c\\->d")
    'a|b_c->d'
    """
    if "\\" not in value:  # most values: nothing escaped
        return value
    mapping = {"t": "\t", "n": "\n"}
    return _UNESCAPE_VALUE.sub(lambda m: mapping.get(m.group(1), m.group(1)), value)


def escape_text(text: str) -> str:
    """Escape a ``#Text=`` line: TAB, line breaks, backslash and other control characters."""
    out = []
    for ch in text:
        if ch in _TEXT_SPECIAL:
            out.append("\\" + _TEXT_SPECIAL[ch])
        elif ord(ch) < 32 and not 8 <= ord(ch) <= 13:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def unescape_text(text: str) -> str:
    """Undo :func:`escape_text` (format 3.2 and later)."""
    if "\\" not in text:  # most lines: nothing escaped
        return text
    mapping = _TEXT_UNESCAPED
    return _UNESCAPE_TEXT.sub(lambda m: mapping.get(m.group(1), m.group(1)), text)


_TEXT_UNESCAPED = {v: k for k, v in _TEXT_SPECIAL.items()}


# ---- parsing ---------------------------------------------------------------------------------


@dataclass
class Column:
    layer: str
    kind: str  # "span", "relation", "chain"
    feature: str | None  # None: placeholder column of a layer without features
    role: str = "primitive"  # primitive, slot-role, slot-target, relation-ref, chain


@dataclass
class TsvDocument:
    """One parsed file. Its token lines are kept as positions in ``content`` (the decoded
    file) and numbers in arrays, not as an object each: a token line costs about 30 bytes
    here instead of several hundred."""

    file: str
    version: str
    columns: list[Column]
    text: str = ""
    content: str = ""
    unit_line: array[int] = field(default_factory=lambda: array("i"))  # 1-based line number
    unit_at: array[int] = field(default_factory=lambda: array("q"))  # where the line starts
    unit_stop: array[int] = field(default_factory=lambda: array("q"))  # and ends (no "\r")
    unit_begin: array[int] = field(default_factory=lambda: array("q"))  # UTF-16, as in the file
    unit_end: array[int] = field(default_factory=lambda: array("q"))
    warnings: list[tuple[str, int]] = field(default_factory=list)
    read_by: str = "lines"  # or "columns": which of _body and _bodies_columns read the body
    tokens_match: bool = False  # True: every token cell is the text at its offsets
    spans_read_by: str = ""  # "lines" or "columns": how spans_of last read the cells
    # the units' begins and ends in code points (_unit_offsets), computed once
    py_offsets: tuple[Sequence[int], Sequence[int]] | None = field(default=None, repr=False)

    def cells(self, k: int) -> list[str]:
        """The TAB-separated cells of the ``k``-th token line."""
        return self.content[self.unit_at[k] : self.unit_stop[k]].split("\t")

    def token_sentences(self) -> Sentences:
        """The tokens (not sub-tokens) of each sentence, as ``(start, end)`` in the text: a
        sentence per row number (``3`` of ``3-1``), a sub-token (``3-1.1``) left out, the
        offsets those :func:`_unit_offsets` computed once for the spans."""
        begins, ends = _unit_offsets(self)
        content = self.content
        out: Sentences = []
        sentence = None
        for at, stop, begin, end in zip(self.unit_at, self.unit_stop, begins, ends,
                                        strict=True):
            head = content[at : content.find("\t", at, stop)]
            if "." in head:
                continue  # a sub-token (1-3.1) lies inside its token
            number = head.partition("-")[0]
            if number != sentence:
                out.append([])
                sentence = number
            out[-1].append((int(begin), int(end)))
        return out

    def span_layers(self) -> dict[str, list[str]]:
        """Span layers in header order, with the features that can carry a label."""
        out: dict[str, list[str]] = {}
        for col in self.columns:
            if col.kind != "span":
                continue
            feats = out.setdefault(col.layer, [])
            if col.feature is not None and col.role == "primitive":
                feats.append(col.feature)
        return out


_TSV2_HEADER = re.compile(r"#\s*[A-Za-z_$][\w$.]*\s*(\||#|\Z)")


def looks_like_tsv2(head: str) -> bool:
    """Whether a file starting with ``head`` is WebAnno TSV 2: a layer header `` # type |
    feature ...`` then ``#id=`` or ``#text=`` (:mod:`core.formats.webanno_tsv2`)."""
    lines = [line.strip() for line in head.lstrip("\ufeff").split("\n")[:5] if line.strip()]
    return (len(lines) >= 2 and _TSV2_HEADER.match(lines[0]) is not None
            and lines[1].startswith(("#id=", "#text=")))


def looks_like_tsv1(head: str) -> bool:
    """Whether a file starting with ``head`` is WebAnno TSV 1 (no layer header, ``#id=`` and
    ``#text=`` then tokens numbered 1, 2, ... with ten columns), which is not read."""
    lines = [line.strip() for line in head.lstrip("\ufeff").split("\n")[:5] if line.strip()]
    return (len(lines) >= 3 and lines[0].startswith("#id=") and lines[1].startswith("#text=")
            and lines[2].split("\t")[0].isdigit() and lines[2].count("\t") >= 9)


def sniff(filename: str, head: str) -> int:
    if head.startswith(HEADER):
        return 100
    if filename.lower().endswith(".tsv") and "#FORMAT=WebAnno TSV" in head[:200]:
        return 90
    return 0


def parse(file: str, content: str, *, columns_first: bool = True) -> TsvDocument:
    """Parse one TSV 3 file into its header columns, rebuilt text and token/sub-token units.

    The body is read by :func:`_bodies_columns` (whole files at once) when it can, else, and
    for every file it refuses, line by line by :func:`_body`, which gives the error; the two
    give the same document (``columns_first=False``: line by line only, for the tests that
    compare them). ``TsvDocument.read_by`` says which one read it."""
    return parse_many([(file, content)], columns_first=columns_first)[0]


def parse_many(files: Iterable[tuple[str, str]], *, columns_first: bool = True,
               batch: int = 4_000_000) -> list[TsvDocument]:
    """:func:`parse` of each ``(file, text)``, the bodies of about ``batch`` characters of
    files read together by :func:`_bodies_columns`. The errors are :func:`parse`'s, in file
    order: the first file that is refused (its header, its body, or a ``files`` item that
    raised) raises, whatever comes after it."""
    out: list[TsvDocument] = []
    pending: list[tuple[TsvDocument, int, int, int]] = []
    size = 0
    try:
        for file, content in files:
            try:
                head = _parse_header(file, content)
            except FormatError:
                _finish(pending, columns_first)
                raise
            out.append(head[0])
            pending.append(head)
            size += len(content)
            if size >= batch:
                _finish(pending, columns_first)
                pending, size = [], 0
    except FormatError:
        _finish(pending, columns_first)  # an earlier file's error comes first
        raise
    _finish(pending, columns_first)
    return out


def _finish(pending: list[tuple[TsvDocument, int, int, int]], columns_first: bool) -> None:
    """Read the bodies of ``pending`` (documents whose header is read): together where
    :func:`_bodies_columns` can, the others line by line, in order (the first error raises)."""
    items = list(pending)
    pending.clear()
    done = _bodies_columns([p for p in items if p[1] > 0]) if columns_first else set()
    for doc, first, _at, last in items:
        if id(doc) in done:
            doc.read_by = "columns"
            continue
        lines = (itertools.islice(_numbered_lines(doc.content), first - 1, None) if first > 0
                 else iter(()))
        _body(doc, lines, last)


def _parse_header(file: str, content: str) -> tuple[TsvDocument, int, int, int]:
    """The document of a file with its header read, the number of its body's first line and
    where it starts (0, 0 without a body), and the number of the header's last line."""
    lines = _header_lines(content)
    number, at, first = next(lines)
    m = _FORMAT_RE.match(first.strip())
    if m is None:
        if looks_like_tsv2(content[:4096]):
            raise FormatError(file, "this is WebAnno TSV 2 (a first line ' # <layer> | "
                              "<feature> ...', no #FORMAT header); read it with the format "
                              "webanno-tsv2", line=1, field="#FORMAT")
        raise FormatError(file, f"expected the header '#FORMAT=WebAnno TSV 3.x', got "
                          f"{first[:40]!r}", line=1, field="#FORMAT")
    version = f"3.{m.group(2) or '0'}"
    columns: list[Column] = []
    body, body_at = 0, 0
    for number, at, line in lines:
        if not line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
            if line.startswith("#T_"):  # a damaged declaration, not a comment to skip
                raise FormatError(file, f"expected a layer declaration starting '#T_SP=', "
                                  f"'#T_CH=' or '#T_RL=', got {line[:40]!r}", line=number,
                                  field="header")
            body, body_at = number, at
            break
        columns.extend(_columns(file, line, number))
    return TsvDocument(file, version, columns, content=content), body, body_at, number


def _header_lines(content: str) -> Iterator[tuple[int, int, str]]:
    """:func:`_numbered_lines` found one at a time (the header's few lines, not the file's)."""
    at, number = 0, 1
    while True:
        stop = content.find("\n", at)
        line = content[at:] if stop < 0 else content[at:stop]
        yield number, at, line[:-1] if line.endswith("\r") else line
        if stop < 0:
            return
        at, number = stop + 1, number + 1


def _numbered_lines(content: str) -> Iterator[tuple[int, int, str]]:
    """``(line number, offset in content, line without its "\r")`` of every line, as
    ``content.split("\n")`` numbers them."""
    at = 0
    if "\r" not in content:  # the usual file: no line to trim
        for number, raw in enumerate(iter_lines(content), start=1):
            yield number, at, raw
            at += len(raw) + 1
        return
    for number, raw in enumerate(iter_lines(content), start=1):
        yield number, at, raw[:-1] if raw.endswith("\r") else raw
        at += len(raw) + 1


def _columns(file: str, line: str, number: int) -> list[Column]:
    kind = {"#T_SP=": "span", "#T_CH=": "chain", "#T_RL=": "relation"}[line[:6]]
    fields = [f for f in line[6:].split("|") if f]  # as StringUtils.split: empty fields dropped
    if not fields:
        raise FormatError(file, "expected a layer name after '='", line=number, field=line[:5])
    layer = fields[0]
    if len(fields) == 1:
        return [Column(layer, kind, None, "placeholder")]
    out: list[Column] = []
    for decl in fields[1:]:
        if kind == "span" and decl.startswith("ROLE_"):
            out.append(Column(layer, kind, decl, "slot-role"))
        elif kind == "span" and out and out[-1].role == "slot-role":
            out.append(Column(layer, kind, decl, "slot-target"))
        elif kind == "relation" and decl.startswith("BT_"):
            out.append(Column(layer, kind, decl, "relation-ref"))
        elif kind == "chain":
            out.append(Column(layer, kind, decl, "chain"))
        else:
            out.append(Column(layer, kind, decl, "primitive"))
    return out


def _body(doc: TsvDocument, lines: Iterator[tuple[int, int, str]], last: int) -> None:
    """Rebuild the text and collect units, with the state checks of INCEpTION's reader."""
    file = doc.file
    ncols = len(doc.columns)
    parts: list[str] = []  # the text so far, as pieces
    length16 = 0  # its length in UTF-16 units
    sentence_text: list[str] = []
    state = "space"  # space, header, token
    sentence_end16 = 0
    version_old = doc.version in ("3.0", "3.1")
    last_token: tuple[int, int] | None = None
    add_line, add_at, add_stop = doc.unit_line.append, doc.unit_at.append, doc.unit_stop.append
    add_begin, add_end = doc.unit_begin.append, doc.unit_end.append
    match_head = _TOKEN_HEAD.match
    block: tuple[int, str] | None = None  # the first line of a header block: number, text
    for number, at, line in lines:
        last = number
        if state in ("space", "header") and line.startswith("#"):
            if state == "space":
                block = (number, line)
            state = "header"
            if line.startswith("#Text="):
                raw = line[len("#Text="):]
                sentence_text.append(_unescape_old(raw) if version_old else unescape_text(raw))
            continue
        if not line:
            if state == "header":
                if sentence_text:
                    raise FormatError(file, "expected a token line after the sentence's "
                                      "#Text= line, got an empty line", line=number)
                _skip_comments(doc, block, number - 1)
            state = "space"
            continue
        if state == "space":
            raise FormatError(file, f"expected a #Text= line or an empty line between "
                              f"sentences, got {line[:40]!r}", line=number)
        if state == "token" and line.startswith("#"):
            raise FormatError(file, f"expected an empty line before the next sentence's "
                              f"{line.split('=', 1)[0]}= line", line=number)
        head = match_head(line)
        if head is None or line.count("\t") < ncols + 2:
            _refuse_token_line(file, line, number, ncols)
        begin, end = int(head[4]), int(head[5])
        subtoken = head[3] is not None
        # INCEpTION writes a zero-width annotation as a zero-width sub-token (1-1.1 0-0) at
        # its token's begin or end; a token itself is never empty.
        if end < begin or (end == begin and not subtoken):
            _refuse_end(file, number, begin, end, subtoken)
        if state == "header":
            if subtoken:
                raise FormatError(file, "expected a token, got a sub-token as the first line "
                                  "of a sentence", line=number, field="id")
            # The first token fixes where the sentence starts (the reader's padding rule).
            if length16 != begin:
                length16 = _pad_to(parts, length16, begin, file, number)
            piece = "".join(s + "\n" for s in sentence_text)
            parts.append(piece)
            length16 += _len16(piece)
            sentence_end16 = length16 - 1
            sentence_text = []
            last_token = None
        if end > sentence_end16:
            raise FormatError(file, f"the offsets {begin}-{end} pass the end of the sentence "
                              f"text ({sentence_end16})", line=number, field="offsets")
        last_token = _placed(file, number, begin, end, subtoken, last_token)
        state = "token"
        add_line(number)
        add_at(at)
        add_stop(at + len(line))
        add_begin(begin)
        add_end(end)
    if state == "header":
        if sentence_text:
            raise FormatError(file, "the last sentence has a #Text= line but no tokens",
                              line=last)
        _skip_comments(doc, block, last)
    doc.text = "".join(parts)


def _bodies_columns(items: Sequence[tuple[TsvDocument, int, int, int]]) -> set[int]:
    """What :func:`_body` does, for the bodies of several files at once: the lines' kinds and
    the state checks as arrays over every line, the token lines' offsets with one
    :data:`_TOKEN_ROW` scan, the sentences' texts with one :data:`_TEXT_ROW` scan. ``items``:
    ``(document, its body's first line number, where that line starts, ...)``. Returns the
    ids of the documents read; a file that any check of :func:`_body` would refuse, or that
    holds what only :func:`_body` handles (a carriage return, a block of ``#`` lines without
    a ``#Text=`` line), is left unchanged for :func:`_body` to read and say what is wrong; so
    is a file longer than :data:`COLUMNS_MAX`."""
    items = [it for it in items
             if len(it[0].content) <= COLUMNS_MAX and "\r" not in it[0].content]
    if not items:
        return set()
    bodies = [doc.content[at:] for doc, _first, at, _last in items]
    big = "\n".join(bodies)
    nfiles = len(items)
    if big.isascii():
        codes = np.frombuffer(big.encode("ascii"), dtype=np.uint8)
    else:  # one number per character, so positions are the string's
        codes = np.frombuffer(big.encode("utf-32-le"), dtype=np.uint32)
    breaks = np.flatnonzero(codes == 10)
    starts = np.concatenate(([0], breaks + 1))
    stops = np.concatenate((breaks, [len(big)]))
    nlines = np.fromiter((b.count("\n") + 1 for b in bodies), dtype=np.int64, count=nfiles)
    file_of = np.repeat(np.arange(nfiles), nlines)
    file_first = np.concatenate(([0], np.cumsum(nlines)[:-1]))
    file_last = file_first + nlines - 1
    padded = np.concatenate((codes, np.full(8, 10, dtype=codes.dtype)))
    # Kinds: 0 empty, 1 a "#" line, 2 a token line; _body's states as the allowed steps.
    kind = np.where(starts == stops, 0, np.where(padded[starts] == 35, 1, 2)).astype(np.int8)
    before = np.concatenate(([0], kind[:-1]))
    before[file_first] = 0
    refused = np.zeros(nfiles, dtype=bool)
    refused[file_of[((before == 0) & (kind == 2)) | ((before == 2) & (kind == 1))
                    | ((before == 1) & (kind == 0))]] = True
    refused[kind[file_last] == 1] = True
    # Every block of "#" lines holds a #Text= line (else _body's comment rule or its error).
    hashes = kind == 1
    text_line = hashes.copy()
    for j, ch in enumerate(b"#Text="):
        text_line &= padded[starts + j] == ch
    block_line = np.flatnonzero(hashes & (before != 1))  # the first line of each block
    block_file = file_of[block_line]
    per_block = np.bincount(np.cumsum(hashes & (before != 1))[text_line] - 1,
                            minlength=len(block_line))
    refused[block_file[per_block == 0]] = True
    # The token lines: enough cells, _TOKEN_HEAD's id and offsets, sub-tokens.
    token_line = np.flatnonzero(kind == 2)
    units = len(token_line)
    unit_file = file_of[token_line]
    t_starts, t_stops = starts[token_line], stops[token_line]
    ncols = np.array([len(it[0].columns) for it in items], dtype=np.int64)
    tabs = np.flatnonzero(codes == 9)
    first_tab = np.searchsorted(tabs, t_starts)
    refused[unit_file[np.searchsorted(tabs, t_stops) - first_tab < ncols[unit_file] + 2]] = True
    rows = _TOKEN_ROW.findall(big)
    if len(rows) != units:  # a token line _TOKEN_HEAD does not match: which file's
        rows = []
        for f, body in enumerate(bodies):
            found = _TOKEN_ROW.findall(body)
            count = int(np.count_nonzero(unit_file == f))
            if len(found) != count:
                refused[f] = True
                found = ["0-1"] * count
            rows.extend(found)
    numbers = (np.fromstring(" ".join(rows).replace("-", " "), dtype=np.int64, sep=" ")
               if rows else np.zeros(0, dtype=np.int64))
    begin, end = numbers[0::2], numbers[1::2]
    dots = np.flatnonzero(codes == 46)
    if units:
        tab_at = tabs[np.minimum(first_tab, len(tabs) - 1)] if len(tabs) else t_stops
        sub = np.searchsorted(dots, tab_at) > np.searchsorted(dots, t_starts)
    else:
        sub = np.zeros(0, dtype=bool)
    # _placed's checks: a sentence opens with a token; a token does not overlap the one
    # before it; a sub-token lies inside its token (``owner``).
    opens = before[token_line] == 1
    wrong = (sub & opens) | (end < begin) | ((end == begin) & ~sub)
    owner = np.maximum.accumulate(np.where(sub, -1, np.arange(units)))
    follows = np.flatnonzero(~sub & ~opens)
    wrong[follows] |= begin[follows] < end[owner[follows - 1]]
    inner = np.flatnonzero(sub)
    wrong[inner] |= (begin[inner] < begin[owner[inner]]) | (end[inner] > end[owner[inner]])
    refused[unit_file[wrong]] = True
    # The sentences: their texts placed where their first tokens begin (_pad_to's rule), and
    # no unit past the end of its sentence's text.
    texts = _TEXT_ROW.findall(big)
    if len(texts) != int(np.count_nonzero(text_line)):
        return set()
    text_file = file_of[text_line]
    if "\\" in big:
        texts = _unescaped_texts(texts, text_file, items)
    gap = _sentence_gaps(texts, per_block, token_line, block_line, block_file, begin, end,
                         refused)
    # Each file read: its text and its units' arrays.
    done: set[int] = set()
    line_no = token_line - file_first[unit_file]
    unit_bounds = np.searchsorted(unit_file, np.arange(nfiles + 1))
    text_bounds = np.searchsorted(text_file, np.arange(nfiles + 1))
    block_bounds = np.searchsorted(block_file, np.arange(nfiles + 1))
    body_at = np.concatenate(([0], np.cumsum([len(b) + 1 for b in bodies])[:-1]))
    for f in np.flatnonzero(~refused).tolist():
        doc, first, at0, _last = items[f]
        u0, u1 = int(unit_bounds[f]), int(unit_bounds[f + 1])
        t0, t1 = int(text_bounds[f]), int(text_bounds[f + 1])
        b0, b1 = int(block_bounds[f]), int(block_bounds[f + 1])
        if not gap[b0:b1].any():
            doc.text = "\n".join(texts[t0:t1]) + "\n" if t1 > t0 else ""
        else:
            parts: list[str] = []
            k = t0
            for n, g in zip(per_block[b0:b1].tolist(), gap[b0:b1].tolist(), strict=True):
                if g < 0:
                    parts[-1] = parts[-1][:-1]
                elif g > 0:
                    parts.append(" " * g)
                parts.append("".join(t + "\n" for t in texts[k:k + n]))
                k += n
            doc.text = "".join(parts)
        shift = at0 - int(body_at[f])
        doc.unit_line = array("i", (line_no[u0:u1] + first).astype(np.int32).tobytes())
        doc.unit_at = array("q", (t_starts[u0:u1] + shift).astype(np.int64).tobytes())
        doc.unit_stop = array("q", (t_stops[u0:u1] + shift).astype(np.int64).tobytes())
        doc.unit_begin = array("q", begin[u0:u1].tobytes())
        doc.unit_end = array("q", end[u0:u1].tobytes())
        done.add(id(doc))
    _tokens_match([items[f][0] for f in np.flatnonzero(~refused).tolist()],
                  np.flatnonzero(~refused[unit_file]), codes, tabs, first_tab, t_stops,
                  begin, end)
    return done


def _unescaped_texts(texts: Sequence[str], text_file: np.ndarray,
                     items: Sequence[tuple[TsvDocument, int, int, int]]) -> list[str]:
    """The sentences' ``#Text=`` lines unescaped, each by its file's version's rules
    (:func:`_unescape_old` for 3.0 and 3.1)."""
    old = [it[0].version in ("3.0", "3.1") for it in items]
    return [_unescape_old(t) if old[f] else unescape_text(t)
            for t, f in zip(texts, text_file.tolist(), strict=True)]


def _sentence_gaps(texts: Sequence[str], per_block: np.ndarray, token_line: np.ndarray,
                   block_line: np.ndarray, block_file: np.ndarray, begin: np.ndarray,
                   end: np.ndarray, refused: np.ndarray) -> np.ndarray:
    """:func:`_bodies_columns`' sentence checks: each sentence's text placed where its first
    token begins (:func:`_pad_to`'s rule), no unit past the end of its sentence's text; a file
    that breaks one is marked in ``refused``. Returns each sentence's gap to the text before
    it (negative: a newline taken back; positive: spaces to pad)."""
    if "".join(texts).isascii():
        widths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1
    else:
        widths = np.fromiter(map(_len16, texts), dtype=np.int64, count=len(texts)) + 1
    sentences, units = len(block_line), len(token_line)
    if sentences and units:
        text_first = np.minimum(np.concatenate(([0], np.cumsum(per_block)[:-1])),
                                max(len(texts) - 1, 0))
        length = np.add.reduceat(widths, text_first) if len(texts) else np.zeros(sentences,
                                                                                 np.int64)
        head = np.minimum(np.searchsorted(token_line, block_line), units - 1)
        at = begin[head]
        opening = np.concatenate(([True], block_file[1:] != block_file[:-1]))
        gap = at - np.where(opening, 0, np.concatenate(([0], (at + length)[:-1])))
        last = np.maximum.reduceat(end, head)
        bad = (gap < -1) | (gap > MAX_GAP) | (last > at + length - 1)
        refused[block_file[bad]] = True
    else:
        gap = np.zeros(sentences, dtype=np.int64)
    return gap


def _tokens_match(docs: Sequence[TsvDocument], units: np.ndarray, codes: np.ndarray,
                  tabs: np.ndarray, first_tab: np.ndarray, t_stops: np.ndarray,
                  begin: np.ndarray, end: np.ndarray) -> None:
    """Set ``tokens_match`` on each of ``docs`` whose token cells all hold, unescaped, the
    text at their offsets (the check :func:`spans_of` makes per token), compared as arrays
    of characters: ``units`` (the batch's units of ``docs``, in order), the batch's
    ``codes`` and TABs (the token cell runs from the second TAB of its line to the third or
    the line's end), the units' offsets. A file with a backslash in a token cell or a
    character beyond the BMP is left to :func:`spans_of`."""
    if not docs:
        return
    text = "".join(d.text for d in docs)
    if text.isascii():
        letters = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    else:
        letters = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    counts = np.fromiter((len(d.unit_line) for d in docs), dtype=np.int64, count=len(docs))
    owner = np.repeat(np.arange(len(docs)), counts)
    sizes = np.fromiter((len(d.text) for d in docs), dtype=np.int64, count=len(docs))
    base = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    slash = np.flatnonzero(codes == 92)
    cell_at = tabs[first_tab[units] + 1] + 1
    third = np.minimum(first_tab[units] + 2, len(tabs) - 1)
    cell_stop = np.where(tabs[third] < t_stops[units], tabs[third], t_stops[units])
    wide = np.flatnonzero(letters > 0xFFFF)
    bad = np.zeros(len(docs), dtype=bool)
    bad[owner[np.searchsorted(slash, cell_stop) > np.searchsorted(slash, cell_at)]] = True
    bad[np.searchsorted(base, wide, side="right") - 1] = True
    width = cell_stop - cell_at
    b, e = begin[units], end[units]
    bad[owner[width != e - b]] = True
    width = np.where((width == e - b) & ~bad[owner], width, 0)  # compared: the others'
    total = int(width.sum())
    step = np.arange(total) - np.repeat(np.cumsum(width) - width, width)
    cell = np.repeat(cell_at, width) + step
    letter = np.repeat(base[owner] + b, width) + step
    bad[np.repeat(owner, width)[codes[cell] != letters[letter]]] = True
    for doc, refused in zip(docs, bad.tolist(), strict=True):
        doc.tokens_match = not refused


def _placed(file: str, number: int, begin: int, end: int, subtoken: bool,
            last_token: tuple[int, int] | None) -> tuple[int, int] | None:
    """The sentence's last token after line ``number``: a token must not overlap the one
    before it, and a sub-token must lie inside its token (INCEpTION's reader's checks)."""
    if not subtoken:
        if last_token is not None and begin < last_token[1]:
            raise FormatError(file, f"the token {begin}-{end} overlaps the previous token "
                              f"{last_token[0]}-{last_token[1]}", line=number, field="offsets")
        return (begin, end)
    if last_token is None or begin < last_token[0] or end > last_token[1]:
        raise FormatError(file, f"the sub-token {begin}-{end} lies outside its token",
                          line=number, field="offsets")
    return last_token


def _skip_comments(doc: TsvDocument, block: tuple[int, str] | None, stop: int) -> None:
    """Note a block of ``#`` lines without a ``#Text=`` line (lines ``block[0]`` to ``stop``),
    which holds no sentence and is skipped. The GUM corpus (Zeldes 2017) writes its documents'
    summaries so, ``#Summary1=...`` between the header and the first sentence; INCEpTION's
    reader refuses such a file, but nothing in the block is annotated text."""
    if block is None:
        return
    first, text = block
    where = f"line {first}" if stop <= first else f"lines {first}-{stop}"
    doc.warnings.append((f"{where}: '#' lines without a #Text= line (the first: "
                         f"{text[:60]!r}) hold no sentence; skipped as comments", first))


def _refuse_token_line(file: str, line: str, number: int, ncols: int) -> NoReturn:
    """The error of a token line :data:`_TOKEN_HEAD` does not match or that has too few
    columns: the first of the three checks (columns, id, offsets) that fails, cell by cell."""
    cells = line.split("\t")
    if len(cells) < ncols + 3:
        raise FormatError(file, f"expected {ncols + 3} TAB-separated columns (id, offsets, "
                          f"token and {ncols} from the header), got {len(cells)}", line=number)
    if _ID_RE.match(cells[0]) is None:
        raise FormatError(file, f"expected a sentence-token id such as 1-3 or 1-3.1, got "
                          f"{cells[0]!r}", line=number, field="id")
    om = _OFFSETS_RE.match(cells[1])
    if om is not None:  # digits, but too many of them for an offset: parse_offset says so
        parse_offset(om.group(1), file, field="offsets", line=number)
        parse_offset(om.group(2), file, field="offsets", line=number)
    raise FormatError(file, f"expected begin-end offsets such as 4-8, got {cells[1]!r}",
                      line=number, field="offsets")


def _refuse_end(file: str, number: int, begin: int, end: int, subtoken: bool) -> NoReturn:
    least = "not less than" if subtoken else "greater than"
    raise FormatError(file, f"expected an end offset {least} begin ({begin}), got "
                      f"{end}", line=number, field="offsets")


def _pad_to(parts: list[str], length16: int, begin: int, file: str, number: int) -> int:
    """Make the text so far (``parts``, ``length16`` UTF-16 units long) end where a sentence
    that starts at ``begin`` starts: pad it with spaces, or drop the line break before it when
    it starts one unit earlier; anything else is refused. Returns the new length."""
    if length16 > begin:
        if length16 != begin + 1:
            raise FormatError(
                file, f"the sentence starts at {begin}, inside the previous sentence "
                f"(which ends at {length16 - 1})", line=number, field="offsets")
        parts[-1] = parts[-1][:-1]
        return length16 - 1
    if begin - length16 > MAX_GAP:
        # INCEpTION pads the gap between sentences with spaces; a gap this wide is a damaged
        # offset, and padding it would fill the memory.
        raise FormatError(
            file, f"the sentence starts at {begin}, {begin - length16} characters after the "
            f"previous one ends (at most {MAX_GAP:,} expected)", line=number, field="offsets")
    parts.append(" " * (begin - length16))
    return begin


def _unescape_old(text: str) -> str:
    # Formats 3.0 and 3.1 used Java string escapes in #Text= lines.
    try:
        return text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return text


def _len16(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


class _Offsets:
    """UTF-16 offsets of a text -> Python string indices: an offset moves back by the number
    of characters beyond the Basic Multilingual Plane (two UTF-16 units each) before it. Only
    those characters are listed (an emoji-free text costs nothing), not every character."""

    def __init__(self, text: str) -> None:
        self.length16 = _len16(text)
        self.identity = self.length16 == len(text)
        # the UTF-16 offset of each such character: its index plus those before it
        self.starts16 = np.fromiter((m.start() + j for j, m in enumerate(_ASTRAL.finditer(text))),
                                    dtype=np.int64) if not self.identity else None

    def many(self, offsets: np.ndarray) -> tuple[np.ndarray, int | None, bool]:
        """``offsets`` in code points, the index of the first that falls outside the text or
        inside such a character (None: none does), and whether that one is outside the text.

        Outside the text is looked at first: an offset past the end of a text holding an emoji
        was said to fall inside a character outside the BMP (review19).

        >>> _Offsets("a\U0001F600b").many(np.array([1, 2, 4, 5]))[1:]
        (1, False)
        >>> _Offsets("a\U0001F600b").many(np.array([1, 3, 9, 2]))[1:]
        (2, True)
        """
        if self.starts16 is None:
            out = np.flatnonzero((offsets < 0) | (offsets > self.length16))
            return offsets, (int(out[0]) if out.size else None), bool(out.size)
        before = np.searchsorted(self.starts16, offsets, side="left")
        outside = (offsets < 0) | (offsets > self.length16)
        inside = (before > 0) & (self.starts16[np.maximum(before - 1, 0)] + 1 == offsets)
        bad = np.flatnonzero(inside | outside)
        if not bad.size:
            return offsets - before, None, False
        first = int(bad[0])
        return offsets - before, first, bool(outside[first])


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")
"""A character beyond the Basic Multilingual Plane: two UTF-16 code units."""


def _code_points(doc: TsvDocument, k: int, exc: FormatError) -> FormatError:
    """``exc`` (an offset inside a character beyond the BMP) saying so when the token's offsets
    find its text counted in code points: such a file was written by a tool that counts
    Python's characters, not INCEpTION's UTF-16 code units."""
    b, e = doc.unit_begin[k], doc.unit_end[k]
    cells = doc.content[doc.unit_at[k]:doc.unit_stop[k]].split("\t")
    given = unescape_value(cells[2]) if len(cells) > 2 else None
    if given is None or doc.text[b:e] != given:
        return exc
    offset = exc.diagnostic.message.split()[2]  # "the offset N falls inside ..."
    return FormatError(doc.file, f"the offset {offset} falls inside a character "
                       "outside the Basic Multilingual Plane: WebAnno TSV offsets count UTF-16 "
                       f"code units, and these look like code points (the token {given!r} is "
                       f"at {b}-{e} counted so); write the offsets in UTF-16 code units, as "
                       "INCEpTION does", line=doc.unit_line[k], field="offsets")


def spans_of(doc: TsvDocument, choice: Choice | None, labels: Sequence[str] | None = None,
             *, by_columns: bool = True
             ) -> tuple[list[tuple[int, int, str]], list[tuple[str, int]]]:
    """The spans ``(start, end, label)`` of the chosen layer and feature, and warnings
    (message, line).

    ``labels``: the allowed labels (a label outside them is a FormatError at its first line).
    The token and chosen cells of every token line are read with one scan of the file
    (:func:`_unit_cells`) when it can and every token matches the text, else line by line
    (always when ``by_columns`` is False); ``doc.spans_read_by`` says which ran.
    """
    warnings: list[tuple[str, int]] = [(KindedText(m, "skipped"), line)
                                       for m, line in doc.warnings]  # comment blocks
    begins, ends = _unit_offsets(doc)
    index, id_index = (None, None) if choice is None else _column_index(doc, choice)
    fname = "" if choice is None else _field_name(choice)
    text = doc.text
    # The token column against the text, and the units the chosen column marks: (unit, its
    # cell, the cell with its ids); from one scan of the file when it can be read so.
    matched = by_columns and doc.tokens_match and id_index is None  # known while parsing
    read = (_unit_cells(doc, index, tokens=not matched) if id_index is None and by_columns
            else None)
    marked: list[tuple[int, str, str]]
    if read is not None and (matched or read[0] == tuple(map(text.__getitem__,
                                                              map(slice, begins, ends)))):
        raws = read[1]
        marked = [(k, raws[k], raws[k]) for k in itertools.compress(
            range(len(raws)), map(operator.not_, map(_UNMARKED.__contains__, raws)))]
        doc.spans_read_by = "columns"
    else:
        marked = _marked_by_lines(doc, begins, ends, index, id_index, warnings)
        doc.spans_read_by = "lines"
    if choice is None or index is None:
        return [], warnings
    found = _found(doc, choice, marked, begins, ends, fname, id_index)
    return _annotations(doc, choice, labels, found, fname, warnings), warnings


def _marked_by_lines(doc: TsvDocument, begins: Sequence[int], ends: Sequence[int],
                     index: int | None, id_index: int | None,
                     warnings: list[tuple[str, int]]) -> list[tuple[int, str, str]]:
    """:func:`spans_of`'s line-by-line reading: every token line split into its cells, its
    token cell checked against the text (a warning where they differ, added to
    ``warnings``), and the units the chosen column ``index`` marks, as ``(unit, its cell, the
    cell with its ids)``."""
    text, content = doc.text, doc.content
    unit_at, unit_stop, unit_line = doc.unit_at, doc.unit_stop, doc.unit_line
    marked: list[tuple[int, str, str]] = []
    for k in range(len(unit_line)):
        cells = content[unit_at[k]:unit_stop[k]].split("\t")  # doc.cells(k), inlined
        b, e, line = begins[k], ends[k], unit_line[k]
        token = text[b:e]
        given = unescape_value(cells[2])
        if token != given:
            warnings.append((f"the token column {given!r} differs from the text at "
                             f"{doc.unit_begin[k]}-{doc.unit_end[k]}, {token!r}; the offsets "
                             "are used", line))
        if index is None:
            continue  # no layer chosen, or this file's header lacks it: nothing annotated
        raw = cells[3 + index] if 3 + index < len(cells) else "_"
        if raw == "_" or raw == "":
            continue
        # A slot host without a label column is read from its slot target column, whose
        # [N] suffixes name the targets; the host's own id ends its slot role cell.
        marked.append((k, raw, raw if id_index is None else
                       cells[3 + id_index] if 3 + id_index < len(cells) else "_"))
    return marked


def _found(doc: TsvDocument, choice: Choice, marked: Sequence[tuple[int, str, str]],
           begins: Sequence[int], ends: Sequence[int], fname: str,
           id_index: int | None) -> dict[object, list[Any]]:
    """The annotations of the ``marked`` units (``(unit, its cell, the cell with its ids)``):
    annotation key -> ``[begin, end, label or None, first line, first unit]``; an id met again
    extends its annotation."""
    unit_line = doc.unit_line
    found: dict[object, list[Any]] = {}
    by_id: dict[str, object] = {}
    for k, raw, id_raw in marked:
        b, e, line = begins[k], ends[k], unit_line[k]
        values = _STACK_SEP.split(raw)
        id_cells = values if id_index is None else _STACK_SEP.split(id_raw)
        for j, value in enumerate(values):
            ident, bare = _split_id(id_cells[j] if j < len(id_cells) else "", doc.file, line,
                                    fname)
            if id_index is None:
                value = bare
            if ident is not None and ident in by_id:
                # Ends where the last unit carrying the id ends, as INCEpTION's reader sets it
                # (Tsv3XDeserializer: "Extend the span of the existing annotation"): an id on a
                # token and then on its shorter sub-token marks the sub-token.
                found[by_id[ident]][1] = e
                continue
            key: object = (line, j)
            if ident is not None:
                by_id[ident] = key
            label: str | None
            if choice.feature is None:
                label = choice.short
            elif value == "*" or value == "":
                label = None
            else:
                label = unescape_value(value)
            found[key] = [b, e, label, line, k]
    return found


_UNMARKED = frozenset(("_", ""))
"""The cells that mark no annotation of their layer."""


_CELL_PATTERNS: dict[tuple[int | None, bool], re.Pattern[str]] = {}


def _unit_cells(doc: TsvDocument, index: int | None, *, tokens: bool = True
                ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Every token line's token cell (unescaped; none when ``tokens`` is False) and, when
    ``index`` is given, its cell of column ``index``, from one scan of the file; None when
    the file cannot be read so (a carriage return, a line with too few cells: the
    line-by-line loop of :func:`spans_of`)."""
    n = len(doc.unit_line)
    if n == 0 or "\r" in doc.content:
        return None
    if not tokens and index is None:
        return (), ()
    pattern = _CELL_PATTERNS.get((index, tokens))
    if pattern is None:
        pattern = _CELL_PATTERNS[(index, tokens)] = re.compile(
            r"^[0-9][^\t\n]*\t[^\t\n]*\t" + (r"([^\t\n]*)\t" if tokens else r"[^\t\n]*\t")
            + ("" if index is None else rf"(?:[^\t\n]*\t){{{index}}}([^\t\n]*)"), re.M)
    rows = pattern.findall(doc.content, doc.unit_at[0])
    if len(rows) != n:
        return None
    if not tokens:
        return (), tuple(rows)
    if index is None:
        given, raws = tuple(rows), ()
    else:
        given, raws = zip(*rows, strict=True)
    if "\\" in doc.content:
        given = tuple(map(unescape_value, given))
    return given, raws


def _unit_offsets(doc: TsvDocument) -> tuple[Sequence[int], Sequence[int]]:
    """The units' begins and ends in code points (the file counts UTF-16 units)."""
    if doc.py_offsets is not None:
        return doc.py_offsets
    to_py = _Offsets(doc.text)
    if to_py.identity:
        doc.py_offsets = doc.unit_begin, doc.unit_end
        return doc.py_offsets
    begin16 = np.frombuffer(doc.unit_begin, dtype=np.int64)
    end16 = np.frombuffer(doc.unit_end, dtype=np.int64)
    # both at once, in file order (a unit's begin, then its end), so that the first bad
    # offset named is the first in the file, as one unit after the other found it
    both = np.empty(2 * len(begin16), dtype=np.int64)
    both[0::2], both[1::2] = begin16, end16
    converted, bad, past = to_py.many(both)
    if bad is not None:
        k = bad // 2
        if past:  # _body's message: the sentence checks keep such offsets out of a file read
            raise FormatError(doc.file, f"the offsets {doc.unit_begin[k]}-{doc.unit_end[k]} "
                              f"pass the end of the text ({to_py.length16})",
                              line=doc.unit_line[k], field="offsets")
        raise _code_points(doc, k, FormatError(
            doc.file, f"the offset {int(both[bad])} falls inside a character outside the Basic "
            "Multilingual Plane (UTF-16 offsets)", line=doc.unit_line[k], field="offsets"))
    doc.py_offsets = array("q", converted[0::2].tolist()), array("q", converted[1::2].tolist())
    return doc.py_offsets


def _annotations(doc: TsvDocument, choice: Choice, labels: Sequence[str] | None,
                 found: dict[object, list[Any]], fname: str,
                 warnings: list[tuple[str, int]]) -> list[tuple[int, int, str]]:
    """The spans of the annotations ``found`` (``[begin, end, label or None, first line, first
    unit]`` each); one warning per zero-width annotation and one for those without a value."""
    spans: list[tuple[int, int, str]] = []
    empty: list[int] = []
    for a_begin, a_end, a_label, a_line, a_unit in found.values():
        if a_label is None:
            empty.append(a_line)
            continue
        if a_begin == a_end:
            row = doc.cells(a_unit)
            warnings.append((KindedText(f"a zero-width {choice.short} annotation {a_label!r} "
                                        f"(row {row[0]}, offsets {row[1]}); a span cannot be "
                                        "empty, so it is skipped", "skipped"), a_line))
            continue
        check_label(a_label, labels, doc.file, field=fname, line=a_line)
        spans.append((a_begin, a_end, a_label))
    if empty:
        warnings.append((KindedText(f"{len(empty)} annotations of layer {choice.layer} have no "
                                    f"value for feature {choice.feature} ('*'); skipped (first "
                                    f"on line {empty[0]})", "skipped"), empty[0]))
    return spans


def _field_name(choice: Choice) -> str:
    return f"{choice.short}|{choice.feature}" if choice.feature else choice.short


def _split_id(value: str, file: str, line: int, field: str) -> tuple[str | None, str]:
    """``(disambiguation id or None, value without it)`` of one stacked cell value."""
    if value.endswith("]") and not value.endswith("\\]") and "[" in value:
        cut = value.rindex("[")
        ident = value[cut + 1 : -1]
        if not ident.isdigit():
            raise FormatError(file, f"expected a numeric disambiguation id in [...], got "
                              f"{ident!r}", line=line, field=field)
        return ident, value[:cut]
    return None, value


def _column_index(doc: TsvDocument, choice: Choice) -> tuple[int | None, int | None]:
    """The column that marks the chosen layer's annotations (and carries the label), and
    the column holding their disambiguation ids when it is another one.

    Every annotation of a layer writes its label feature (``*`` when it has no value) or, for a
    layer without features, its placeholder column. A layer whose only features are slots (an
    INCEpTION slot-feature host such as ``webanno.custom.SimpleLinkHost``) writes its slot
    target column for every annotation (``*`` when it has no links, as INCEpTION's
    ``Tsv3XSerializer`` does); its ids are on the slot role column just before it.
    """
    slot: tuple[int, int | None] | None = None
    for i, col in enumerate(doc.columns):
        if col.layer != choice.layer or col.kind != "span":
            continue
        if col.feature == choice.feature if choice.feature is not None \
                else col.role in ("placeholder", "primitive"):
            return i, None
        if choice.feature is None and col.role == "slot-target" and slot is None:
            role = i - 1 if i > 0 and doc.columns[i - 1].role == "slot-role" else None
            slot = (i, role)
    return slot if slot is not None else (None, None)


# ---- reading files and exports --------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    path: str
    doc_id: str
    user: str | None  # None: a plain file or flat folder (one set, named after the input)


def layout(paths: Sequence[str], name: str, loaded: Loaded) -> list[Entry]:
    """Which document and annotator each TSV file holds (see the module docstring)."""
    export = [p for p in paths if _export_parts(p) is not None]
    if export:
        chosen = set(export)
        skipped = [p for p in paths if p not in chosen]
        if skipped:
            loaded.warn(f"{len(skipped)} TSV files outside annotation/ and curation/ ignored "
                        f"(e.g. {skipped[0]})", kind="ignored")
        out = []
        for p in export:
            parts = _export_parts(p)
            assert parts is not None
            out.append(Entry(p, parts[0], parts[1]))
        return out
    if len(paths) == 1 and "/" not in paths[0]:
        return [Entry(paths[0], _stem(paths[0]), None)]
    if all("/" not in p for p in paths):
        return [Entry(p, _stem(p), None) for p in paths]
    out = []
    for p in paths:
        path_parts = PurePosixPath(p).parts
        if len(path_parts) < 2:
            raise FormatError(member_name(name, p), "expected <document>/<annotator>.tsv in a "
                              "folder with one subfolder per document; this file is at the top")
        out.append(Entry(p, path_parts[-2], _stem(path_parts[-1])))
    return out


def _export_parts(path: str) -> tuple[str, str] | None:
    parts = PurePosixPath(path).parts
    for i in range(len(parts) - 2):
        if parts[i] in ("annotation", "curation") and i + 3 == len(parts):
            return parts[i + 1], _stem(parts[i + 2])
    return None


def _stem(path: str) -> str:
    name = PurePosixPath(path).name
    return name[: -len(".tsv")] if name.lower().endswith(".tsv") else name


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one TSV file, a folder of them, or an INCEpTION project export."""
    loaded = Loaded(FORMAT, name)
    single = len(files) == 1
    paths: list[str] = []

    def tsv3() -> Iterator[tuple[str, str]]:
        for path, file, content in tsv_members(files, name, loaded):
            if not content.startswith("#FORMAT=WebAnno TSV"):
                if single:
                    parse(file, content)  # raises the header error
                if looks_like_tsv2(content[:4096]):
                    loaded.warn(f"{path}: WebAnno TSV 2; ignored (read TSV 2 files with the "
                                "format webanno-tsv2)", kind="ignored")
                else:
                    loaded.warn(f"{path}: no '#FORMAT=WebAnno TSV 3' header; ignored",
                                kind="ignored")
                continue
            paths.append(path)
            yield file, content

    parsed = parse_many(tsv3())
    docs: dict[str, TsvDocument] = dict(zip(paths, parsed, strict=True))
    if not docs:
        check_binary_cas_export(files, name)
        raise FormatError(name, "expected WebAnno TSV 3 files (#FORMAT=WebAnno TSV 3.x), found "
                          "none")
    return assemble(docs, spans_of, name=name, options=options, loaded=loaded)


def tsv_members(files: Mapping[str, bytes], name: str, loaded: Loaded
                ) -> Iterator[tuple[str, str, str]]:
    """``(path, file name for messages, text)`` of an input's TSV files in path order: the
    file given alone, or a folder's (an export's) ``.tsv`` files; a folder's other files are
    reported, but for the ``.ser``, ``.json`` and ``.log`` files every export holds."""
    single = len(files) == 1
    for path, data in sorted(files.items()):
        file = name if single else member_name(name, path)
        if not path.lower().endswith(".tsv") and not single:
            if not path.lower().endswith((".ser", ".json", ".log")):
                loaded.warn(f"{path}: not a TSV file; ignored", kind="ignored")
            continue
        yield path, file, decode(file, data)


class ParsedDocument(Protocol):
    """What :func:`assemble` needs of a parsed TSV file (TSV 3 here, TSV 2 in
    :mod:`core.formats.webanno_tsv2`)."""

    file: str
    text: str

    def span_layers(self) -> dict[str, list[str]]: ...

    def token_sentences(self) -> Sentences: ...


D = TypeVar("D", bound=ParsedDocument)
SpansOf = Callable[[D, Choice | None, Sequence[str] | None],
                   tuple[list[tuple[int, int, str]], list[tuple[str, int]]]]


def assemble(docs: Mapping[str, D], spans_of: SpansOf[D], *, name: str, options: ReadOptions,
             loaded: Loaded) -> Loaded:
    """The annotation sets of parsed TSV files keyed by path: one set per annotator of a
    project export (:func:`layout`), the layer and feature chosen once over every file
    (:func:`core.formats.layers.choose`), each document's text checked to be the same in every
    annotator's file."""
    entries = layout(list(docs), name, loaded)
    union: dict[str, list[str]] = {}
    for doc in docs.values():
        for layer_name, feats in doc.span_layers().items():
            known = union.setdefault(layer_name, [])
            known.extend(f for f in feats if f not in known)
    tsv3 = [d for d in docs.values() if isinstance(d, TsvDocument)]
    choice = choose(union, layer=options.layer, feature=options.feature, source=name,
                    values=_value_sample(tsv3) if len(tsv3) == len(docs) else None)
    if choice is not None and choice.note:
        loaded.warn(choice.note)
    per_set: dict[str, SpanColumns] = {}
    roles: dict[str, Role] = {}
    text_from: dict[str, str] = {}
    for entry in entries:
        doc = docs[entry.path]
        if entry.user == INITIAL_CAS:
            loaded.warn(f"{entry.path}: INCEpTION's initial state of the document (before "
                        "annotation); skipped", kind="skipped")
            continue
        set_name, role = export_set(entry.user, _set_name(name), options.role)
        roles.setdefault(set_name, role)
        if entry.user is not None:
            loaded.named_sets.add(set_name)
        spans, warnings = spans_of(doc, choice, options.labels)
        for message, line in warnings:
            loaded.warn(message, line=line, file=doc.file)
        for s, e, lab in duplicates(spans):
            loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept",
                        file=doc.file, kind="duplicate-span")
        columns = per_set.setdefault(set_name, SpanColumns())
        if entry.doc_id in columns:
            raise FormatError(doc.file, f"a second file for document {entry.doc_id!r} of "
                              f"{set_name} (first: {text_from.get(entry.doc_id)})")
        index = columns.document(entry.doc_id)
        for s, e, lab in spans:
            columns.add(index, s, e, lab)
        if entry.doc_id in loaded.texts and loaded.texts[entry.doc_id] != doc.text:
            raise FormatError(doc.file, f"the text of document {entry.doc_id!r} differs from "
                              f"the one in {text_from[entry.doc_id]}; each annotator's file must "
                              "hold the same document")
        loaded.texts.setdefault(entry.doc_id, doc.text)
        text_from.setdefault(entry.doc_id, doc.file)
        if options.keep_tokens and entry.doc_id not in (loaded.tokens or {}):
            loaded.keep_tokens(entry.doc_id, doc.token_sentences())
    if not per_set:
        raise FormatError(name, "no annotator files (only INCEpTION's INITIAL_CAS)")
    for set_name, columns in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, columns.spans(), roles[set_name]))
    return loaded


def _value_sample(docs: Sequence[TsvDocument], limit: int = 200, lines: int = 50_000
                  ) -> Callable[[str, str | None], list[str]]:
    """The first ``limit`` values of a layer's feature in ``docs`` (reading at most ``lines``
    token lines), for :func:`core.formats.layers.choose` to tell labels from identifiers."""
    def sample(layer: str, feature: str | None) -> list[str]:
        out: list[str] = []
        budget = lines
        for doc in docs:
            index, id_index = _column_index(doc, Choice(layer, feature))
            if index is None or id_index is not None:
                continue
            for k in range(min(len(doc.unit_line), budget)):
                cells = doc.cells(k)
                raw = cells[3 + index] if 3 + index < len(cells) else "_"
                if raw in ("_", "*", ""):
                    continue
                for value in _STACK_SEP.split(raw):
                    if value.endswith("]") and "[" in value:
                        value = value[: value.rindex("[")]
                    if value not in ("*", ""):
                        out.append(unescape_value(value))
                if len(out) >= limit:
                    return out
            budget -= len(doc.unit_line)
            if budget <= 0:
                break
        return out
    return sample


def export_set(user: str | None, single_name: str, role: Role) -> tuple[str, Role]:
    """The set (name, role) a file of an INCEpTION export goes to: a lone file is the set
    ``single_name`` with the role asked for; ``CURATION_USER`` is the gold ``curation``; any
    other user is an annotator (or keeps a system role the caller asked for)."""
    if user is None:
        return single_name, role
    if user == CURATION_USER:
        return "curation", "gold"
    return user, "annotator" if role == "gold" else role


def _set_name(source: str) -> str:
    base = PurePosixPath(source.replace("\\", "/").rstrip("/")).name or source
    for suffix in (".tsv", ".zip"):
        if base.lower().endswith(suffix) and len(base) > len(suffix):
            return base[: -len(suffix)]
    return base


# ---- writing ---------------------------------------------------------------------------------

_WORD = re.compile(r"\S+")


def _safe_name(value: str, what: str) -> None:
    if (not value or value in (".", "..") or any(c in value for c in "/\\\t\n\r")
            or value.startswith(".")):
        nested = what == "document id" and ("/" in value.strip("/") or "\\" in value.strip("\\"))
        raise FormatError("<output>", f"{what} {value!r} cannot be a file name in a WebAnno TSV "
                          "folder" + (" (a sub-folder there holds one document's annotators, "
                                      "as in INCEpTION's exports); write doccano, brat or "
                                      "spans-csv, which keep such ids" if nested else ""))


def render(text: str, spans: Sequence[Span]) -> str:
    """One document as WebAnno TSV 3.3 with a ``webanno.custom.Span|label`` layer.

    Sentences start at the first token of each line; tokens are runs of non-space characters,
    split further at span boundaries so that every span covers whole tokens. Reading the file
    gives back ``text`` (plus a final line break the format adds, and with the whitespace before
    a line's first token turned into spaces) and the same spans, except spans that start or end
    in whitespace, which are trimmed to their tokens as in INCEpTION.
    """
    tokens = _tokens(text, spans)
    if not tokens:
        return f"#FORMAT=WebAnno TSV 3.3\n#T_SP={LAYER}|{FEATURE}\n\n\n"
    starts = _sentence_starts(text, tokens)
    covering, ids = _coverage(tokens, spans)
    u16 = _to16(text)
    out = ["#FORMAT=WebAnno TSV 3.3", f"#T_SP={LAYER}|{FEATURE}", "", ""]
    for n, k0 in enumerate(starts):
        k1 = starts[n + 1] if n + 1 < len(starts) else len(tokens)
        begin = tokens[k0][0]
        stop = tokens[k1][0] if k1 < len(tokens) else len(text)
        sentence = text[begin:stop]
        if sentence.endswith("\n"):
            sentence = sentence[:-1]
        out.extend("#Text=" + escape_text(line) for line in sentence.split("\n"))
        for j, k in enumerate(range(k0, k1), start=1):
            b, e = tokens[k]
            values = []
            for i in covering[k]:
                value = escape_value(spans[i].label)
                values.append(f"{value}[{ids[i]}]" if i in ids else value)
            cell = "|".join(values) or "_"
            out.append(f"{n + 1}-{j}\t{u16[b]}-{u16[e]}\t{escape_value(text[b:e])}\t{cell}\t")
        out.append("")
    return "\n".join(out) + "\n"


def _tokens(text: str, spans: Sequence[Span]) -> list[tuple[int, int]]:
    """The runs of non-space characters of ``text``, cut at every span boundary inside them."""
    bounds = sorted({b for s in spans for b in (s.start, s.end)})
    tokens: list[tuple[int, int]] = []
    for m in _WORD.finditer(text):
        lo = bisect.bisect_right(bounds, m.start())
        hi = bisect.bisect_left(bounds, m.end())
        cuts = [m.start(), *bounds[lo:hi], m.end()]
        tokens.extend(itertools.pairwise(cuts))
    return tokens


def _sentence_starts(text: str, tokens: Sequence[tuple[int, int]]) -> list[int]:
    """Sentence starts: the first token of each line that has one."""
    starts: list[int] = []
    line_of_prev = -1
    newlines = [m.start() for m in re.finditer("\n", text)]
    for k, (b, _) in enumerate(tokens):
        line = bisect.bisect_left(newlines, b)
        if line != line_of_prev:
            starts.append(k)
            line_of_prev = line
    return starts


def _coverage(tokens: Sequence[tuple[int, int]], spans: Sequence[Span]
              ) -> tuple[list[list[int]], dict[int, int]]:
    """Which spans cover each token (in span order), and the ids of the spans that need one:
    those over several tokens and those stacked on a token with another."""
    covering: list[list[int]] = [[] for _ in tokens]
    ordered = sorted(range(len(spans)), key=lambda i: (spans[i].start, spans[i].end,
                                                       spans[i].label))
    tok_starts = [b for b, _ in tokens]

    count: list[int] = [0] * len(spans)
    for i in ordered:
        s = spans[i]
        k = bisect.bisect_left(tok_starts, s.start)
        if k > 0 and tokens[k - 1][1] > s.start:
            k -= 1
        while k < len(tokens) and tokens[k][0] < s.end:
            if tokens[k][1] > s.start:
                covering[k].append(i)
                count[i] += 1
            k += 1
    needs_id = [c > 1 for c in count]
    for cov in covering:
        if len(cov) > 1:
            for i in cov:
                needs_id[i] = True
    ids: dict[int, int] = {}
    for i in ordered:
        if needs_id[i] and count[i]:
            ids[i] = len(ids) + 1
    return covering, ids


def _to16(text: str) -> list[int]:
    """UTF-16 offset of every Python index 0..len(text)."""
    out = [0] * (len(text) + 1)
    pos = 0
    for i, ch in enumerate(text):
        out[i] = pos
        pos += 2 if ord(ch) > 0xFFFF else 1
    out[len(text)] = pos
    return out


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """A folder: ``<document>.tsv`` per document for one set, or INCEpTION's export layout
    ``annotation/<document>/<set>.tsv`` for several (one set per annotator)."""
    if not sets:
        raise FormatError("<output>", "no annotation set to write")
    out: dict[str, str] = {}
    for aset in sets:
        if len(sets) > 1:
            _safe_name(aset.name, "set name")
        for doc_id in aset.spans:
            _safe_name(doc_id, "document id")
            text = texts.get(doc_id)
            if text is None:
                raise FormatError("<output>", f"document {doc_id!r} has no text; WebAnno TSV "
                                  "files are made of the text's sentences and tokens")
            path = f"{doc_id}.tsv" if len(sets) == 1 else f"annotation/{doc_id}/{aset.name}.tsv"
            out[path] = render(text, aset.get(doc_id))
    return out


def losses(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> list[str]:
    """What WebAnno TSV cannot hold exactly: spans with edges in whitespace (or whitespace
    only), a text's missing final line break, a text of whitespace only."""
    changed = 0
    example = ""
    for s in sets:
        for d, spans in s:
            text = texts.get(d) or ""
            for sp in spans:
                frag = text[sp.start:sp.end]
                if not frag.strip() or frag != frag.strip():
                    changed += 1
                    example = example or f"[{sp.start}, {sp.end}) {sp.label!r} in {d!r}"
    notes = []
    if changed:
        notes.append(f"note: {changed} spans start or end in whitespace (or hold only "
                     "whitespace); WebAnno TSV trims them to their tokens (or drops them), "
                     f"e.g. {example}")
    # The format cannot say "no line break at the end": a reader (INCEpTION's, ours) rebuilds
    # the text with one after every #Text= line, and a text without tokens has no sentence.
    docs = {d for s in sets for d in s.spans}
    unended = [d for d in docs if (texts.get(d) or "").strip()
               and not (texts.get(d) or "").endswith("\n")]
    blank = [d for d in docs if texts.get(d) and not (texts.get(d) or "").strip()]
    if unended:
        notes.append(f"note: {len(unended)} document texts do not end with a line break; "
                     "WebAnno TSV cannot hold such a text (a reader ends every #Text= line "
                     "with one), so they are read back one line break longer, offsets "
                     f"unchanged, e.g. {min(unended)!r}")
    if blank:
        notes.append(f"note: {len(blank)} document texts hold only whitespace; WebAnno TSV "
                     f"has no sentence for them, so they are read back empty, e.g. "
                     f"{min(blank)!r}")
    return notes
