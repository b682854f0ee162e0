"""File formats: detection, reading and writing.

Every format is a module of this package with the same three functions:

``sniff(filename: str, head: str) -> int``
    How sure the module is (0 = not this format, 100 = certain) that a file with this name and
    this ``head`` is in its format. ``head`` is the file's first lines
    (:func:`~core.formats._sniff.head_of`): its first 4 KiB, extended to the end of the line
    they cut, at most 1 MiB (64 MiB for a first JSON Lines record); so a JSON Lines file's
    first record is whole, and
    :func:`~core.formats._sniff.json_head` gives the records a head holds whole, parsed once for
    all modules. A module answers more than 0 only when the content shows its format, or when
    the file name is one that only its format uses (``.ann``, ``.labels``, ``.spacy``,
    ``.parquet``, ``.xmi``, the CoNLL suffixes, PTC's ``article<ID>.txt``; PTC also takes a
    ``.tsv`` so that its reader names the bad line); a common suffix (``.json``, ``.jsonl``)
    may raise a score that the content gave, never make one. When every module answers 0,
    :func:`detect` says it could not detect the format rather than guess.
``read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded``
    Parse one input (one file, or the files of one folder, keyed by relative path) into domain
    objects, or raise :class:`~core.model.errors.FormatError`.
``write(texts, sets) -> dict[str, str]`` (writable formats only)
    Render annotation sets as files, keyed by relative path (one key for single-file formats).

Inputs are byte mappings rather than paths so that the command line (files and folders on disk)
and the dashboard (uploaded files) share one code path: :func:`load_path` and
:func:`load_files` are the two entry points.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Literal

from core.formats._sniff import (
    LFS_POINTER,
    MAY_SNIFF,
    NOT_AN_EXPORT,
    UNREAD_LAYOUTS,
    head_of,
    why_undetected,
    why_undetected_name,
)
from core.formats.archive import check_binary_cas_export, unpack_zips
from core.model import AnnotationSet, Role, bounds, units
from core.model.bounds import Policy
from core.model.errors import (
    Diagnostic,
    FormatError,
    MissingFileError,
    check_choice,
    warning_kind,
)

FORMATS: dict[str, str] = {
    "semeval2021": "core.formats.semeval2021",
    "ptc": "core.formats.ptc",
    "mafalda": "core.formats.mafalda",
    "mafalda-llm": "core.formats.mafalda_llm",
    "brat": "core.formats.brat",
    "doccano": "core.formats.doccano",
    "label-studio": "core.formats.label_studio",
    "hateval": "core.formats.hateval",
    "spans-csv": "core.formats.spans_csv",
    "webanno-tsv": "core.formats.webanno",
    "webanno-tsv2": "core.formats.webanno_tsv2",
    "uima-xmi": "core.formats.xmi",
    "uima-json": "core.formats.uima_json",
    "conll": "core.formats.conll",
    "spacy": "core.formats.spacy_docs",
    "parquet": "core.formats.parquet",
}
"""Format name -> module implementing it (imported on first use)."""

WRITABLE = ("semeval2021", "ptc", "mafalda", "brat", "doccano", "hateval", "spans-csv",
            "webanno-tsv", "conll", "spacy")

BINARY_WRITABLE = ("parquet",)
"""Formats whose writer returns bytes (``write_tables``), written by ``convert`` only."""

LlmParsing = Literal["paper-2023", "repo-head"]

LineBreaks = Literal["universal", "as-stored"]
"""How a PTC article text's CRLF line breaks count (``--line-breaks``): ``universal`` reads each
as one character, as Python's universal newlines read the articles whose offsets the corpus
gives; ``as-stored`` keeps the ``\\r`` (two characters). docs/formats.md, "PTC"."""


Sentences = list[list[tuple[int, int]]]
"""A document's tokens: its sentences, each a list of ``(start, end)`` character offsets."""


@dataclass(frozen=True)
class TableBudget:
    """The most rows and uncompressed bytes that the columnar tables of one input (Parquet) may
    hold, checked from their footers before any page is read: a 31 KB Parquet file of 2M
    identical rows reads to 1.2 GB. The command line reads what its user asks (no budget); the
    dashboard, which strangers can reach, reads under :meth:`from_env` (docs/robustness.md)."""

    rows: int
    bytes: int

    ROWS_ENV = "SPANSCOPE_MAX_TABLE_ROWS"
    MIB_ENV = "SPANSCOPE_MAX_TABLE_MIB"
    DEFAULT_ROWS = 1_000_000
    DEFAULT_MIB = 256

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> TableBudget:
        """The budget set by whoever starts the server (``SPANSCOPE_MAX_TABLE_ROWS``,
        ``SPANSCOPE_MAX_TABLE_MIB``), else the defaults; a value that is not a positive
        integer is refused naming the variable."""
        def value(name: str, default: int) -> int:
            raw = environ.get(name, "").strip()
            if not raw:
                return default
            if not raw.isdigit() or int(raw) < 1 or len(raw) > 15:
                raise FormatError(name, f"expected a positive whole number, got {raw[:40]!r}")
            return int(raw)

        return cls(value(cls.ROWS_ENV, cls.DEFAULT_ROWS),
                   value(cls.MIB_ENV, cls.DEFAULT_MIB) * 2**20)


@dataclass(frozen=True)
class ReadOptions:
    """Options that change how a file is read.

    ``labels``: the allowed label names (a label outside them is a FormatError), or None.
    ``role``: the role the read sets get unless the file itself names annotators or models.
    ``llm_parsing``: how MAFALDA model answers become spans (docs/mafalda.md).
    ``gold_texts``: texts by document id, for formats whose files carry no text (PTC without
    article files, MAFALDA model outputs paired with the gold by position).
    ``beyond_text``: what to do with a span that ends past its text (:mod:`core.model.bounds`):
    ``refuse`` (a FormatError), ``clip`` or ``official`` (kept), each change a warning.
    ``label_ids``: label names by numeric label id, for doccano's ``annotations`` layout (a
    doccano label config given with ``--labels``; :func:`core.formats.tools.read_label_file`).
    ``table_budget``: the most a columnar input may unpack to (:class:`TableBudget`), or None.
    ``line_breaks``: how PTC article texts count CRLF line breaks (:data:`LineBreaks`).
    ``tag_column``: CoNLL's column of the tags (None: the last).
    ``keep_tokens``: readers whose files hold a tokenisation (WebAnno TSV, a spaCy DocBin,
    CoNLL, UIMA XMI) keep it in :attr:`Loaded.tokens`, for a writer that needs tokens
    (``convert --to conll``); off by default, since scoring never needs them.
    ``offsets``: the unit a reader whose spans give their own text reads the offsets in
    (:mod:`core.model.units`); :func:`load_files` sets it, None (a reader called directly)
    reads code points.
    ``detected``: the format was detected from the names and first bytes, not asked for
    (:func:`load_files` without ``fmt`` sets it): a reader that refuses the file can then say
    why it was read so (the MAFALDA reader's hint of doccano, ``core.formats.mafalda``).
    """

    labels: Sequence[str] | None = None
    role: Role = "gold"
    llm_parsing: LlmParsing = "paper-2023"
    gold_texts: Mapping[str, str | None] | None = None
    gold_doc_ids: Sequence[str] | None = None
    # Options of the annotation-tool and NER formats (issue 19): the command line's --layer,
    # --feature, --span-group, --scheme, --text-column (core/formats/tool_options.py); the
    # command line fills them in, a reader reads nothing but these fields (issue 25).
    layer: str | None = None
    feature: str | None = None
    span_group: str | None = None
    scheme: str | None = None
    text_column: int | None = None
    tag_column: int | None = None
    line_breaks: LineBreaks = "universal"
    beyond_text: Policy = "refuse"
    label_ids: Mapping[int, str] | None = None
    table_budget: TableBudget | None = None
    keep_tokens: bool = False
    offsets: units.Offsets | None = None
    detected: bool = False


@dataclass
class Loaded:
    """What one input file (or folder) held.

    ``sets`` usually has one annotation set; formats that name annotators or models (Label
    Studio, ``spans-csv`` with an ``annotator`` column) give one set each. ``named_sets`` are
    the names of the sets that the input names itself (an annotator, a doccano user, a model,
    an INCEpTION curation): each keeps the name and role the reader gives it, whatever
    ``ReadOptions.role`` asks (``validate`` lists them so); any other set is named after the
    input and has the caller's role. ``records`` carries
    non-span data (HatEval rows). ``diagnostics`` are the warnings: every skipped record, every
    suspicious value, so that nothing is dropped silently. ``assumed_extents`` is set by a
    reader that places the spans itself because the file states no offsets (``mafalda-llm``):
    per document, where a span over the whole text ends as the reader places it; such spans
    past their text are not refused (:mod:`core.model.bounds`). ``tokens``: the input's own
    tokens when :attr:`ReadOptions.keep_tokens` asked for them and its format has them, by
    document: its sentences, each a list of ``(start, end)`` offsets in the document's text
    (a document missing from it has none); None when the reader keeps none.
    """

    format: str
    source: str
    texts: dict[str, str | None] = field(default_factory=dict)
    sets: list[AnnotationSet] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    records: object | None = None
    assumed_extents: dict[str, int] | None = None
    named_sets: set[str] = field(default_factory=set)
    tokens: dict[str, Sentences] | None = None

    def keep_tokens(self, doc_id: str, sentences: Sentences) -> None:
        """Record ``doc_id``'s tokens (sentences of ``(start, end)``), sentences without a
        token left out."""
        if self.tokens is None:
            self.tokens = {}
        self.tokens[doc_id] = [sent for sent in sentences if sent]

    @property
    def set(self) -> AnnotationSet:
        """The single annotation set of this input (error when there are none or several)."""
        if len(self.sets) != 1:
            names = ", ".join(s.name for s in self.sets) or "none"
            raise FormatError(
                self.source,
                f"expected exactly one annotation set, found {len(self.sets)} ({names}); "
                "pick one by name",
            )
        return self.sets[0]

    def warn(
        self,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        path: str | None = None,
        file: str | None = None,
        kind: str = "",
    ) -> None:
        """A warning about this input; ``kind`` is what a summary counts it under (every
        reader names it, so that rewording a message cannot count it under another kind;
        without it, it is read off the message, :func:`~core.model.errors.warning_kind`)."""
        self.diagnostics.append(Diagnostic(file or self.source, message, line, field, path,
                                           kind=kind or getattr(message, "kind", "")))


def module(fmt: str) -> ModuleType:
    """The module implementing format ``fmt``."""
    if fmt not in FORMATS:
        valid = ", ".join(sorted(FORMATS))
        raise FormatError("<options>", f"unknown format {fmt!r}; valid formats: {valid}")
    return importlib.import_module(FORMATS[fmt])


def decode(file: str, data: bytes, *, keep_bom: bool = False) -> str:
    """Decode UTF-8 (a BOM is allowed); an undecodable byte is a FormatError naming its offset.

    A byte order mark is taken off, unless ``keep_bom``: a text whose offsets count it as its
    first character (a brat ``.txt``: brat reads it as Python's ``open(encoding="utf-8")``
    does, U+FEFF included, and so does its own export of a text that starts with one)."""
    try:
        return data.decode("utf-8" if keep_bom else "utf-8-sig")
    except UnicodeDecodeError as exc:
        # exc.start counts in exc.object: the bytes after a byte order mark under utf-8-sig
        read = bytes(exc.object)
        line = read[: exc.start].count(b"\n") + 1
        raise FormatError(
            file, f"expected UTF-8 text, found byte 0x{read[exc.start]:02x}"
            + _windows_1252_hint(read, exc.start), line=line
        ) from None


_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}"
                            rb"|[\xf0-\xf4][\x80-\xbf]{3}")
"""A UTF-8 sequence of two to four bytes: a file holding one is UTF-8, damaged where it is not."""


_WRITTEN = frozenset("¿¡«»ºª°·´–—‘’“”…€")
"""Windows-1252's punctuation that texts write beside its letters."""


def _windows_1252_hint(data: bytes, at: int) -> str:
    """What a file that is not UTF-8 reads as in Windows-1252 (Latin-1's superset, which Excel
    and Notepad on Windows save), when it reads so whole and holds no UTF-8 sequence: the
    character of the byte at ``at`` and the text around it, so the user sees the file is
    whole and only saved in another encoding. Two or more such characters, nine in ten of them
    letters or :data:`_WRITTEN`, are asked for: one stray byte, or symbols, are damage as
    likely as an encoding. Else ''."""
    if _UTF8_SEQUENCE.search(data) is not None:
        return ""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return ""
    others = [c for c in text if c > "\x7f"]
    written = sum(c in _WRITTEN or unicodedata.category(c)[0] == "L" for c in others)
    if len(others) < 2 or written < 0.9 * len(others):
        return ""  # one byte, or symbols no text writes: a damaged file, not an encoding
    begin = data.rfind(b"\n", 0, at) + 1
    stop = data.find(b"\n", at)
    stop = len(data) if stop < 0 else stop
    left, right = max(begin, at - 20), min(stop, at + 30)
    shown = (("..." if left > begin else "") + text[left:right].rstrip("\r")
             + (" ..." if right < stop else ""))
    return (f"; the file reads as Windows-1252 (Latin-1), where byte 0x{data[at]:02x} is "
            f"{text[at]!r} ({shown!r}): save it as UTF-8 and read it again")


def detect(files: Mapping[str, bytes], *, source: str | None = None) -> str:
    """The format of an input, from its files' names and heads (the best ``sniff`` score).

    ``source`` names the input in the error message (default: its file names). When no module
    recognises any file (every score 0), a FormatError says so and lists the formats. A
    built-in module whose ``sniff`` cannot answer more than 0 for these names and heads
    (:data:`~core.formats._sniff.MAY_SNIFF`) scores 0 without being imported.
    """
    if not files:
        raise FormatError("<input>", "no files to read")
    files = unpack_zips(files, source or ", ".join(sorted(files)[:5]))
    check_binary_cas_export(files, source or ", ".join(sorted(files)[:5]))
    heads = [(fname, head_of(data)) for fname, data in files.items()]
    scores: dict[str, int] = {}
    for fmt in FORMATS:
        may = MAY_SNIFF.get(FORMATS[fmt])
        if may is not None and not any(may(fname, head) for fname, head in heads):
            scores[fmt] = 0
            continue
        try:
            mod = module(fmt)
        except ModuleNotFoundError as exc:
            # A format whose module is not written yet cannot be detected; any other missing
            # import is a real bug and propagates.
            if exc.name != FORMATS[fmt]:
                raise
            continue
        scores[fmt] = max((int(mod.sniff(fname, head)) for fname, head in heads), default=0)
    best = max(scores, key=lambda f: scores[f])
    if scores[best] <= 0:
        names = source or ", ".join(sorted(files)[:5])
        whys = [(f, why) for f, d in files.items()
                if (why := why_undetected(d) or why_undetected_name(f)) is not None]
        if len(files) == 1 and whys and (whys[0][1] == "the file is empty"
                                         or whys[0][1].startswith((LFS_POINTER, NOT_AN_EXPORT,
                                                                 *UNREAD_LAYOUTS))):
            # No format to pass would read it: naming them all would send the user round them.
            raise FormatError(names, f"could not detect the format: {whys[0][1]}")
        said = ("" if not whys else ": " + whys[0][1] if len(files) == 1 else
                ": " + "; ".join(f"{f}: {why}" for f, why in whys[:3]))
        raise FormatError(
            names,
            f"could not detect the format{said}; pass it explicitly (one of: "
            + ", ".join(f"{f} ({FORMAT_TOOLS[f]})" if f in FORMAT_TOOLS else f
                        for f in sorted(FORMATS))
            + ")",
        )
    return best


FORMAT_TOOLS = {"spacy": "spaCy DocBin or JSONL, Prodigy's JSONL exports"}
"""Tools whose files a format reads that its name does not say, for the could-not-detect
message (a Prodigy export is read as ``spacy``, which nothing else in the list suggests)."""


def read_folder(path: Path) -> dict[str, bytes]:
    """Every regular file below ``path``, keyed by its path relative to ``path`` (sorted)."""
    return {
        p.relative_to(path).as_posix(): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def read_file_with_companions(path: Path) -> dict[str, bytes]:
    """One file's bytes, with the files that belong to it: a brat ``.ann`` carries its text in
    the ``.txt`` beside it, so both are read (a span past that text is then caught); a Parquet
    spans table ``x.parquet`` its texts table ``x.texts.parquet``; a UIMA ``.xmi`` its type
    system, ``TypeSystem.xml`` beside it or in a folder above (keyed ``../TypeSystem.xml``,
    :func:`core.formats.xmi.type_system_above`)."""
    files = {path.name: path.read_bytes()}
    if path.suffix.lower() == ".xmi":
        # through the registry (FORMATS), as every reader: the module imports this package
        files.update(module("uima-xmi").type_system_above(path))
    if path.suffix.lower() == ".ann":
        text = path.with_suffix(".txt")
        if text.is_file():
            files[text.name] = text.read_bytes()
    lower = path.name.lower()
    if lower.endswith(".parquet") and not lower.endswith(".texts.parquet"):
        texts = path.with_name(path.name[: -len(".parquet")] + ".texts.parquet")
        if texts.is_file():  # the spans table's companion texts table (core/formats/parquet.py)
            files[texts.name] = texts.read_bytes()
    return files


def load_files(
    files: Mapping[str, bytes],
    *,
    fmt: str | None = None,
    name: str | None = None,
    options: ReadOptions | None = None,
) -> Loaded:
    """Read one input given as ``{relative path: bytes}`` (one file, or a folder's files)."""
    source = name or (next(iter(files)) if len(files) == 1 else "<folder>")
    if fmt is not None:  # the parameter is named, as scikit-learn names it (core.model.errors)
        check_choice("fmt", "load_path", fmt, sorted(FORMATS))
    files = unpack_zips(files, source)
    options = options or ReadOptions()
    if fmt is None:
        fmt = detect(files, source=source)
        options = dataclasses.replace(options, detected=True)
    reader = module(fmt).read
    given = options
    loaded, offsets = units.each_unit(  # a file whose spans give their text: its offsets' unit
        lambda o: reader(files, name=source, options=dataclasses.replace(given, offsets=o)))
    said = units.note(offsets)
    if said is not None:
        loaded.diagnostics.insert(0, Diagnostic(source, said, kind="offset-units"))
    assumed = ({source: loaded.assumed_extents} if loaded.assumed_extents is not None
               else None)
    if options.beyond_text != "refuse" or assumed:
        texts = {**(options.gold_texts or {}), **{d: t for d, t in loaded.texts.items()
                                                   if t is not None}}
        kept, warnings = bounds.check_sets([(source, s) for s in loaded.sets], texts,
                                           options.beyond_text, assumed=assumed)
        loaded.sets[:] = kept
        # The kind read off the whole warning, which may name it (a quoted id cannot change it).
        loaded.diagnostics.extend(Diagnostic(source, w.removeprefix(f"{source}: "),
                                             kind=warning_kind(w)) for w in warnings)
    return loaded


def load_path(
    path: str | Path, *, fmt: str | None = None, options: ReadOptions | None = None
) -> Loaded:
    """Read a file or a folder from disk: its format ``fmt`` (one of :data:`FORMATS`; None:
    detected from the names and first bytes), read with ``options`` (:class:`ReadOptions`; the
    role, ``beyond_text`` for spans past their text, ...).

    Returns a :class:`Loaded`: ``.set`` (the one annotation set), ``.sets``, ``.texts`` and
    ``.diagnostics`` (the warnings). Raises :class:`~core.model.errors.MissingFileError` (also
    a ``FileNotFoundError``) when ``path`` names nothing, :class:`~core.model.errors.FormatError`
    naming file, line and field when the input cannot be read, and
    :class:`~core.model.errors.ParameterError` when ``fmt`` is no format (all ``ValueError``
    too). ``docs/python-api.md``, "Reading files, and the errors you may meet"."""
    p = Path(path)
    if p.is_dir():
        files = read_folder(p)
        if not files:
            raise FormatError(str(p), "the folder holds no files")
        return load_files(files, fmt=fmt, name=str(p), options=options)
    if not p.exists():
        raise MissingFileError(str(p))  # also a FileNotFoundError (core.model.errors)
    return load_files(read_file_with_companions(p), fmt=fmt, name=str(p), options=options)


def write_files(
    fmt: str, texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], *,
    csv_raw: bool = False,
) -> dict[str, str]:
    """Render ``sets`` in format ``fmt`` as ``{relative path: text}``. CSV cells a spreadsheet
    would run as formulas are quoted unless ``csv_raw`` (:mod:`core.formats.csvsafe`)."""
    if fmt not in WRITABLE:
        raise FormatError(
            "<options>", f"format {fmt!r} cannot be written; writable: {', '.join(WRITABLE)}"
        )
    # Through the registry, as every writer: spans_csv imports this package.
    raw = {"raw": csv_raw} if fmt == "spans-csv" else {}
    out: dict[str, str] = module(fmt).write(texts, sets, **raw)
    return out
