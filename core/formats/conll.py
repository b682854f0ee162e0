"""CoNLL token files with BIO / IOB1 / IOB2 / IOE / BIOES / BILOU tags (NER system output).

Layout (CoNLL-2002/2003 shared tasks, Tjong Kim Sang & De Meulder 2003): one token per line,
columns separated by TABs (or, in a line without a TAB, by spaces), the token in the first column
(``--text-column N`` picks another), the tag in the LAST column (``--tag-column N`` picks
another); a blank line ends a sentence; a line whose first column is ``-DOCSTART-`` starts a new
document (so does ``DOC-START``, ``-DOC-START-`` or ``DOCSTART`` on a row tagged ``O``). A line
whose first column is ``#`` and whose tag cell holds no tag is a comment (GermEval 2014's
``#<TAB>source URL<TAB>[date]`` lines, CoNLL-U's ``# text = ...``): skipped, counted in one
warning per file.

Without those two options, a file whose first sentence numbers its tokens in column 1 (``1``,
``2``, ...) over 3 or more columns has its tokens read from column 2; when it has exactly 4
columns with tags in the last two it is the GermEval 2014 layout (Benikova et al. 2014: index,
token, outer entity, inner entity) and its tags are read from column 3, the outer entities.
A warning says which columns were read.

Chunks are extracted exactly as ``seqeval`` 1.2.2 extracts them (Nakayama 2018), so that an
entity-level P/R/F1 computed from our spans equals ``seqeval.metrics``:

* ``scheme=None`` / ``auto``: seqeval's default mode (``get_entities``), which accepts any mix of
  IOB1, IOB2, IOE and IOBES tags and repairs invalid transitions (``I-PER`` after ``O`` starts a
  chunk; ``B-PER I-LOC`` gives two chunks). The sentences of a document are chained with an
  ``O`` between them, as seqeval chains a list of sentences.
* ``IOB1``, ``IOB2`` (``BIO``), ``IOE1``, ``IOE2``, ``IOBES`` (``BIOES``), ``BILOU``: seqeval's
  strict mode (``mode='strict', scheme=...``), sentence by sentence: a chunk must start and end
  by the scheme's rules, otherwise it is dropped; a prefix outside the scheme is an error.
* ``IO``: a type per token and no B- prefix (``organization``; ``I-PER`` is ``PER``): each
  tag is read as ``I-TYPE`` in the default mode, so a chunk is a run of one type within a
  sentence; a B-, E-, S-, L- or U- prefix is refused. Without it, the refusal of a bare type
  names IO tags and ``--scheme IO``.

The transition rules below are restated from seqeval's documented behaviour (its ``scheme.py``
tables and ``end_of_chunk``/``start_of_chunk``), not copied; ``tests/formats/
test_conll_seqeval.py`` checks them against the installed ``seqeval`` on random tag sequences.

Text rule: a sentence's tokens are joined by one space and sentences by one newline, so a span
covering tokens i..j is ``[start of token i, end of token j)`` in that text. When a folder holds
``<name>.txt`` beside ``<name>.conll`` (a "companion text"), the tokens are found in that text in
order (only whitespace may separate them) and the offsets are those of the real text.

Tags: ``O``, or a prefix ``B I E S L U`` followed by ``-TYPE`` (``B-PER``); a bare ``B``, ``I``,
``E``, ``S``, ``L``, ``U`` is a chunk of type ``_`` (as in seqeval). Suffix-style tags
(``PER-B``, ``MISC-I``: the type first) are read as seqeval reads them with ``suffix=True``: a
file whose typed tags are all suffix-style is read in that style (``PER-B`` is ``B-PER``); a file
that mixes both styles is refused, naming one tag of each. Anything else is refused with file,
line and field, since seqeval would silently guess.

seqeval's default mode knows the prefixes ``B I E S`` only: it reads ``L`` and ``U`` as ``I``, so
a BILOU file read without ``--scheme BILOU`` can lose or merge chunks (a bare ``L`` or ``U`` has
the type of ``O`` and never closes its chunk). We read it as seqeval does and warn when the
chunks differ from the strict BILOU reading.
"""

from __future__ import annotations

import bisect
import contextlib
import re
import unicodedata
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import NoReturn

from core.formats import Loaded, ReadOptions, Sentences, decode
from core.formats._columns import SpanColumns, iter_lines
from core.formats._common import check_label, member_name, single_set
from core.model import AnnotationSet, Span
from core.model.errors import FormatError, KindedText

FORMAT = "conll"
SUFFIXES = (".conll", ".conllx", ".conll03", ".bio", ".iob", ".iob2", ".bioes", ".bilou")
DOCSTART = "-DOCSTART-"
_DOCSTART_LIKE = re.compile(r"-?DOC-?START-?\Z")
"""Other spellings of the document-start marker (``DOC-START``: dungdx34/vtner's Vietnamese
files; ``-DOC-START-``, ``DOCSTART``): a document boundary when the row's last cell is ``O``
or there is none, so that a tagged token spelled so stays a token."""
_TAG = re.compile(r"(?:O|([BIESLUM])(?:-([^\s]+))?)\Z")
_SUFFIX_TAG = re.compile(r"([^\s-](?:\S*[^\s-])?)-([BIESLU])\Z")
"""A suffix-style tag: the type, ``-``, then the prefix (``PER-B``)."""
_HEAD_TAG = re.compile(r"(?:O|[BIESLUM]-\S+)\Z")

# ---- chunk extraction: seqeval's default mode -----------------------------------------------


def _split(tag: str) -> tuple[str, str]:
    """(prefix, type) of a tag as seqeval's default mode reads it (``O`` -> ('O', '_'))."""
    return tag[0], tag[1:].split("-", 1)[-1] or "_"


def _ends(prev: str, cur: str, prev_type: str, cur_type: str) -> bool:
    """Does a chunk end between the previous token and this one (default mode)?"""
    if prev in ("E", "S"):
        return True
    if prev in ("B", "I") and cur in ("B", "S", "O"):
        return True
    return prev not in ("O", ".") and prev_type != cur_type


def _starts(prev: str, cur: str, prev_type: str, cur_type: str) -> bool:
    """Does a chunk start at this token (default mode)?"""
    if cur in ("B", "S"):
        return True
    if prev in ("E", "S", "O") and cur in ("E", "I"):
        return True
    return cur not in ("O", ".") and prev_type != cur_type


def chunks_default(tags: Sequence[str]) -> list[tuple[str, int, int]]:
    """Chunks ``(type, first token, last token + 1)`` of one tag sequence, seqeval default mode.

    >>> chunks_default(["B-PER", "I-PER", "O", "I-LOC", "B-LOC"])
    [('PER', 0, 2), ('LOC', 3, 4), ('LOC', 4, 5)]
    """
    out: list[tuple[str, int, int]] = []
    prev, prev_type, begin = "O", "", 0
    for i, tag in enumerate([*tags, "O"]):
        cur, cur_type = _split(tag)
        if _ends(prev, cur, prev_type, cur_type):
            out.append((prev_type, begin, i))
        if _starts(prev, cur, prev_type, cur_type):
            begin = i
        prev, prev_type = cur, cur_type
    return out


# ---- chunk extraction: seqeval's strict mode ------------------------------------------------

_ANY = "OBIESLU"
# Per scheme: allowed prefixes, and (previous prefixes, current prefixes, type condition) rows
# for "starts a chunk", "continues it" and "the chunk ended just before this token". Type
# condition: "same", "diff" or "any".
_Rule = tuple[str, str, str]


@dataclass(frozen=True)
class Scheme:
    """One tagging scheme's transition table (strict mode)."""

    name: str
    allowed: str
    start: tuple[_Rule, ...]
    inside: tuple[_Rule, ...]
    end: tuple[_Rule, ...]


SCHEMES: dict[str, Scheme] = {
    "IOB1": Scheme("IOB1", "IOB",
                   start=(("O", "I", "any"), ("I", "I", "diff"), ("B", "I", "any"),
                          ("I", "B", "same"), ("B", "B", "same")),
                   inside=(("B", "I", "same"), ("I", "I", "same")),
                   end=(("I", "I", "diff"), ("I", "O", "any"), ("I", "B", "any"),
                        ("B", "O", "any"), ("B", "I", "diff"), ("B", "B", "same"))),
    "IOE1": Scheme("IOE1", "IOE",
                   start=(("O", "I", "any"), ("I", "I", "diff"), ("E", "I", "any"),
                          ("E", "E", "same")),
                   inside=(("I", "I", "same"), ("I", "E", "same")),
                   end=(("I", "I", "diff"), ("I", "O", "any"), ("I", "E", "diff"),
                        ("E", "I", "same"), ("E", "E", "same"))),
    "IOB2": Scheme("IOB2", "IOB",
                   start=((_ANY, "B", "any"),),
                   inside=(("B", "I", "same"), ("I", "I", "same")),
                   end=(("I", "O", "any"), ("I", "I", "diff"), ("I", "B", "any"),
                        ("B", "O", "any"), ("B", "I", "diff"), ("B", "B", "any"))),
    "IOE2": Scheme("IOE2", "IOE",
                   start=(("O", "I", "any"), ("O", "E", "any"), ("E", "I", "any"),
                          ("E", "E", "any"), ("I", "I", "diff"), ("I", "E", "diff")),
                   inside=(("I", "E", "same"), ("I", "I", "same")),
                   end=(("E", _ANY, "any"),)),
    "IOBES": Scheme("IOBES", "IOBES",
                    start=((_ANY, "B", "any"), (_ANY, "S", "any")),
                    inside=(("B", "I", "same"), ("B", "E", "same"), ("I", "I", "same"),
                            ("I", "E", "same")),
                    end=(("S", _ANY, "any"), ("E", _ANY, "any"))),
    "BILOU": Scheme("BILOU", "BILOU",
                    start=((_ANY, "B", "any"), (_ANY, "U", "any")),
                    inside=(("B", "I", "same"), ("B", "L", "same"), ("I", "I", "same"),
                            ("I", "L", "same")),
                    end=(("U", _ANY, "any"), ("L", _ANY, "any"))),
}
ALIASES = {"BIO": "IOB2", "BIOES": "IOBES", "BMES": "IOBES"}
"""Other names of the schemes; BMES (Chinese NER: MSRA, Resume, Weibo, as LatticeLSTM's data
lays them out) is IOBES with M for I, and its M- tags are read as I- in every mode
(:func:`_parse`)."""


def scheme_of(name: str | None) -> Scheme | None:
    """The strict scheme named ``name`` (None or ``auto``: the default mode)."""
    if name is None or name.lower() == "auto":
        return None
    key = ALIASES.get(name.upper(), name.upper())
    if key not in SCHEMES:
        valid = ", ".join(["auto", *SCHEMES, *ALIASES, "IO"])
        raise FormatError("<options>", f"unknown tag scheme {name!r}; valid: {valid}")
    return SCHEMES[key]


def _strict_parts(tag: str) -> tuple[str, str]:
    """(prefix, type) as seqeval's strict mode reads a tag (the type stripped of ``-``)."""
    return tag[0], tag[1:].strip("-") or "_"


def _matches(rules: tuple[_Rule, ...], prev: tuple[str, str], cur: tuple[str, str]) -> bool:
    for prev_prefixes, cur_prefixes, cond in rules:
        if prev[0] in prev_prefixes and cur[0] in cur_prefixes and (
            cond == "any" or (cond == "same") == (prev[1] == cur[1])
        ):
            return True
    return False


def first_invalid(tags: Sequence[str], scheme: Scheme) -> int | None:
    """Index of the first tag whose prefix the scheme does not allow (None if all are fine)."""
    for i, tag in enumerate(tags):
        if tag[0] not in scheme.allowed:
            return i
    return None


def chunks_strict(tags: Sequence[str], scheme: Scheme) -> list[tuple[str, int, int]]:
    """Chunks ``(type, first token, last token + 1)`` of one sentence, seqeval strict mode.

    A chunk is kept only if the token after it closes it by the scheme's end rules (an IOB2
    chunk always is; an IOE2 chunk must end in ``E``). Call :func:`first_invalid` first: a
    prefix outside the scheme is an error there.

    >>> chunks_strict(["I-PER", "B-LOC", "I-LOC", "O"], SCHEMES["IOB2"])
    [('LOC', 1, 3)]
    """
    toks = [_strict_parts(t) for t in tags]
    ext = [*toks, ("O", "_")]
    out: list[tuple[str, int, int]] = []
    i = 0
    prev = ("O", "_")
    while i < len(ext):
        tok = ext[i]
        if _matches(scheme.start, prev, tok):
            end = i + 1
            last = tok
            # The final ("O", "_") is never inside a chunk, so the loop stops before it ends.
            while _matches(scheme.inside, last, ext[end]):
                last = ext[end]
                end += 1
            if _matches(scheme.end, ext[end - 1], ext[end]):
                out.append((tok[1], i, end))
            i = end
        else:
            i += 1
        prev = ext[i - 1]
    return out


# ---- reading -------------------------------------------------------------------------------


@dataclass
class _Doc:
    """One document as few objects: a string per sentence (its tokens joined by one space, as
    the text is rebuilt) and, per token, its length, tag code and line in arrays."""

    doc_id: str | None
    line: int
    tag_names: list[str]  # the file's tags, shared by its documents: tags[k] indexes it
    sentences: list[str] = field(default_factory=list)
    sizes: array[int] = field(default_factory=lambda: array("i"))  # tokens per sentence
    lengths: array[int] = field(default_factory=lambda: array("i"))
    tags: array[int] = field(default_factory=lambda: array("i"))
    lines: array[int] = field(default_factory=lambda: array("i"))


def _is_docstart(cols: Sequence[str]) -> bool:
    """Does this row start a document: ``-DOCSTART-``, or another spelling of it
    (:data:`_DOCSTART_LIKE`) whose row carries no tag?"""
    first = cols[0].strip() if cols else ""
    if first == DOCSTART:
        return True
    return bool(_DOCSTART_LIKE.match(first)) and (len(cols) == 1 or cols[-1].strip() in ("O", ""))


def _is_tag(cell: str) -> bool:
    return bool(_TAG.match(cell) or _SUFFIX_TAG.match(cell))


_BLANKS = " \t\n\r\f\v"
"""The characters taken off a tab-separated token's ends: ASCII blanks, not Unicode spaces."""


def _is_comment(cols: Sequence[str], tag_at: int) -> bool:
    """Is this line (its columns) a comment: ``#`` first, no tag in the tag cell?"""
    if cols[0].strip() != "#":
        return False
    return len(cols) < 2 or not _is_tag(cols[tag_at].strip() if tag_at < len(cols) else "")


def _token_row(line: str) -> bool:
    """Is ``line`` a row of two or more columns whose last one is a tag?"""
    cols = line.split("\t") if "\t" in line else line.split()
    last = cols[-1].strip() if cols else ""
    return len(cols) >= 2 and bool(_TAG.match(last) or _SUFFIX_TAG.match(last))


def sniff(filename: str, head: str) -> int:
    lower = filename.lower()
    by_name = lower.endswith(SUFFIXES)
    lines = [ln for ln in head.split("\n")[:40] if ln.strip()
             and not _is_comment(ln.split("\t") if "\t" in ln else ln.split(), -1)]
    if head and not head.endswith("\n") and len(lines) > 1:
        lines = lines[:-1]
    if not lines:
        return 30 if by_name else 0
    if lines[0].startswith("#FORMAT=") or (lines[0].lstrip().startswith(("{", "["))
                                           and not _token_row(lines[0])):
        return 0  # JSON; a token row whose token is "[" or "{" (AnEM's files) is not
    tagged = typed = 0
    for ln in lines:
        cols = ln.split("\t") if "\t" in ln else ln.split()
        if cols and _is_docstart(cols):
            tagged += 1
            typed += 1
            continue
        last = cols[-1].strip() if cols else ""
        if _token_row(ln):
            tagged += 1
            # GermEval 2014's outer entities are in the column before the last (inner) one.
            outer = cols[-2].strip() if len(cols) >= 4 else ""
            typed += any(bool((_HEAD_TAG.match(t) or _SUFFIX_TAG.match(t)) and t != "O")
                         for t in (last, outer))
    share = tagged / len(lines)
    if share >= 0.9 and typed:
        return 92 if by_name or lower.endswith((".txt", ".tsv")) else 85
    if _io_share(lines):
        return 60  # IO tags: the reader names them and --scheme IO
    return 40 if by_name else 0


def _io_share(lines: Sequence[str]) -> bool:
    """Do ``lines`` look like IO-tagged tokens: 90% rows of a token without white space and
    a tag, ``O`` or a bare type, with some ``O`` and at most 20 types?"""
    rows = outside = 0
    types: set[str] = set()
    for ln in lines:
        cols = ln.split("\t") if "\t" in ln else ln.split()
        last = cols[-1].strip() if len(cols) >= 2 and not cols[0].strip().count(" ") else ""
        if last == "O":
            rows += 1
            outside += 1
        elif last and (_IO_TYPE.match(last) or _TAG.match(last)):
            rows += 1
            types.add(last)
    return rows >= 0.9 * len(lines) and outside > 0 and 0 < len(types) <= 20


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one CoNLL file, or a folder of them (with optional companion ``.txt`` texts)."""
    loaded = Loaded(FORMAT, name)
    io = (options.scheme or "").upper() == "IO"
    scheme = None if io else scheme_of(options.scheme)
    single = len(files) == 1
    conll = {p: d for p, d in files.items()
             if single or not p.lower().endswith(".txt")}
    if not conll:
        raise FormatError(name, "expected CoNLL token files, found only .txt files")
    stems = {PurePosixPath(p).with_suffix("").as_posix(): p for p in files
             if not single and p.lower().endswith(".txt")}
    columns = SpanColumns()
    for path in sorted(conll):
        file = name if single else member_name(name, path)
        content = decode(file, conll[path])
        column, tag_at = _columns_of(file, content, options, loaded)
        docs = _parse(file, content, column, tag_at, loaded, io=io,
                      bmes=(options.scheme or "").upper() == "BMES")
        stem = PurePosixPath(path).with_suffix("").as_posix()
        companion = None
        if stem in stems:
            txt_path = stems.pop(stem)
            companion_file = member_name(name, txt_path)
            companion = (companion_file, decode(companion_file, files[txt_path]))
            if len(docs) != 1:
                raise FormatError(file, f"a companion text ({companion_file}) needs one "
                                  f"document per CoNLL file; this one holds {len(docs)}")
        for n, doc in enumerate(docs, start=1):
            doc_id = doc.doc_id or (str(n) if single else (stem if len(docs) == 1
                                                            else f"{stem}/{n}"))
            if doc_id in columns:
                raise FormatError(file, f"duplicate document id {doc_id!r}", line=doc.line,
                                  field="-DOCSTART-")
            text, doc_spans, note, (starts, ends) = _spans(file, doc, scheme, companion,
                                                            options.labels)
            if note is not None:
                loaded.warn(note[0], line=note[1], field="tag", file=file)
            if options.keep_tokens:
                sentences, k = [], 0
                for size in doc.sizes:
                    sentences.append(list(zip(starts[k : k + size], ends[k : k + size],
                                              strict=True)))
                    k += size
                loaded.keep_tokens(doc_id, sentences)
            index = columns.document(doc_id)
            for start, end, label in doc_spans:
                columns.add(index, start, end, label)
            loaded.texts[doc_id] = text
    for stem in stems:
        loaded.warn(f"{stem}.txt: no CoNLL file of that name beside it; ignored", kind="ignored")
    if not columns.doc_ids:
        loaded.warn("no tokens: a CoNLL file has one token and its tag per line", kind="no-spans")
    loaded.sets.append(AnnotationSet(_set_name(name), columns.spans(), options.role))
    return loaded


def _set_name(source: str) -> str:
    base = PurePosixPath(source.replace("\\", "/").rstrip("/")).name or source
    for suffix in (*SUFFIXES, ".txt", ".tsv", ".zip"):
        if base.lower().endswith(suffix) and len(base) > len(suffix):
            return base[: -len(suffix)]
    return base


def _columns_of(file: str, content: str, options: ReadOptions, loaded: Loaded
                ) -> tuple[int, int | None]:
    """The token column and tag column (0-based; None: the last) of one file: the options',
    else those of the layout its first sentence shows (an index in column 1; GermEval 2014),
    said in a warning."""
    column = (options.text_column or 1) - 1
    tag_at = None if options.tag_column is None else options.tag_column - 1
    if options.text_column is not None or options.tag_column is not None:
        return column, tag_at
    first: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(iter_lines(content[:1 << 16]), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            if first:
                break
            continue
        cols = line.split("\t") if "\t" in line else line.split()
        if _is_docstart(cols) or _is_comment(cols, len(cols) - 1):
            continue
        first.append((number, [c.strip() for c in cols]))
    width = len(first[0][1]) if first else 0
    if width < 3 or any(len(cols) != width or cols[0] != str(k)
                        for k, (_, cols) in enumerate(first, start=1)):
        return column, tag_at
    at = first[0][0]
    if width == 4 and all(_is_tag(cols[2]) and _is_tag(cols[3]) for _, cols in first):
        loaded.warn("read as GermEval 2014 (index, token, outer entity tag, inner entity tag): "
                    "tokens from column 2, tags from column 3 (the outer entities); "
                    "--tag-column 4 reads the inner ones", line=at, file=file, kind="column-layout")
        return 1, 2
    loaded.warn(f"column 1 numbers the tokens (1, 2, 3, ...): tokens read from column 2, tags "
                f"from column {width}; --text-column and --tag-column pick others",
                line=at, file=file, kind="column-layout")
    return 1, None


def _parse(file: str, content: str, column: int, tag_at: int | None = None,
           loaded: Loaded | None = None, *, io: bool = False, bmes: bool = False
           ) -> list[_Doc]:
    """The documents of one file; ``io``: the tags are IO tags (:func:`_io_tag`); ``bmes``:
    the user named BMES (its M- tags, read as I-, need no warning)."""
    docs: list[_Doc] = []
    doc: _Doc | None = None
    tokens: list[str] = []  # of the open sentence
    codes: dict[str, int] = {}
    names: list[str] = []
    styles: dict[str, tuple[str, int]] = {}  # "prefix"/"suffix": the first such tag and line
    comments: list[int] = []  # the lines of comments (# first, no tag)
    middle: tuple[str, int] | None = None  # the first M- tag and its line
    if tag_at is not None and tag_at == column:
        raise FormatError("<options>", f"--text-column and --tag-column name the same column "
                          f"({column + 1})")
    # The columns a line needs (token and tag), and where its tag is.
    need = max(2, column + 2) if tag_at is None else max(2, column + 1, tag_at + 1)
    tag_index = -1 if tag_at is None else tag_at

    def close_sentence() -> None:
        nonlocal tokens
        if tokens:
            assert doc is not None
            doc.sentences.append(" ".join(tokens))
            doc.sizes.append(len(tokens))
            tokens = []

    for number, raw in enumerate(iter_lines(content), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            close_sentence()
            continue
        cols = line.split("\t") if "\t" in line else line.split()
        if "#" in cols[0] and _is_comment(cols, tag_index):
            comments.append(number)
            continue
        if _is_docstart(cols):
            close_sentence()
            # Only -DOCSTART- carries an id (our writer's "-DOCSTART-<TAB>id<TAB>O"); the
            # second cell of vtner's "DOC-START<TAB>Np<TAB>O" is a POS tag
            given = cols[1].strip() if (len(cols) >= 3 and cols[0].strip() == DOCSTART
                                        and cols[1].strip() not in ("", "-X-")) else None
            doc = _Doc(given, number, names)
            docs.append(doc)
            continue
        if len(cols) < need:
            _refuse_columns(file, line, len(cols), number, column, tag_at)
        token, tag = cols[column], cols[tag_index].strip()
        if "\t" in line:
            # ASCII blanks only: a token may be U+00A0 or another Unicode space a tokenizer
            # kept (vtner's dev.conll), which str.strip() would take for an empty column.
            token = token.strip(_BLANKS)
        if not token:
            raise FormatError(file, "expected a token, got an empty column", line=number,
                              field=f"column {column + 1}")
        code = codes.get(tag)
        if code is None:  # a tag not met before: checked once
            name = _tag_name(file, tag, number, styles, io=io)
            if middle is None and tag.startswith("M-"):
                middle = (tag, number)
            code = codes[tag] = len(names)
            names.append(name)
        if doc is None:
            doc = _Doc(None, number, names)
            docs.append(doc)
        tokens.append(token)
        doc.lengths.append(len(token))
        doc.tags.append(code)
        doc.lines.append(number)
    close_sentence()
    if comments and loaded is not None:
        listed = ", ".join(map(str, comments[:3])) + (", ..." if len(comments) > 3 else "")
        more = f" (lines {listed})" if len(comments) > 1 else ""
        loaded.warn(f"{len(comments)} comment line(s) skipped: '#' in column 1 and no tag"
                    f"{more}", line=comments[0], file=file, kind="skipped")
    _bmes_note(file, middle, loaded, named=bmes)
    if "suffix" in styles:
        _prefix_suffix_tags(file, styles, names)
    return [d for d in docs if d.sentences or d.doc_id is not None] or docs


def _bmes_note(file: str, middle: tuple[str, int] | None, loaded: Loaded | None, *,
               named: bool) -> None:
    """One warning for a file whose tags have BMES's ``M-`` prefix (``middle``: the first such
    tag and its line), read as ``I-``, unless the user ``named`` the scheme."""
    if middle is not None and loaded is not None and not named:
        loaded.warn(f"BMES tags ({middle[0]!r}): the M- (middle) prefix is read as I-, BMES "
                    "being IOBES with M for I (--scheme BMES reads them strictly as IOBES)",
                    line=middle[1], field="tag", file=file, kind="tag-scheme")


def _tag_name(file: str, tag: str, number: int, styles: dict[str, tuple[str, int]], *,
              io: bool) -> str:
    """The name a tag met for the first time is read as, checked (:func:`_check_tag`): an IO
    tag as :func:`_io_tag` reads it; BMES's ``M-`` (IOBES with M for I) as ``I-``."""
    name = _io_tag(file, tag, number) if io else tag
    if name.startswith("M-"):
        name = "I" + name[1:]
    _check_tag(file, name, number, styles)
    return name


def _refuse_columns(file: str, line: str, width: int, number: int, column: int,
                    tag_at: int | None) -> NoReturn:
    """The error of a line with fewer columns than the token and tag need (:func:`_parse`)."""
    if width < 2:
        bom = ("; it holds a byte order mark (U+FEFF), as where two files were joined: "
               "remove it" if "\ufeff" in line else "")
        raise FormatError(file, f"expected a token and a tag separated by a TAB or spaces, "
                          f"got {line[:60]!r}{bom}", line=number, field="tag")
    if tag_at is None:
        raise FormatError(file, f"expected the token in column {column + 1}, but the line "
                          f"has {width} columns and the last one is the tag",
                          line=number, field=f"column {column + 1}")
    raise FormatError(file, f"expected the token in column {column + 1} and the tag in "
                      f"column {tag_at + 1}, but the line has {width} columns",
                      line=number, field=f"column {max(column, tag_at) + 1}")


_IO_TYPE = re.compile(r"[^\W\d_][^\s-]*(?:-[^\s-]+)*\Z")
"""A bare type (``organization``, ``quasi-place``): an IO tag, which has no prefix."""
_PREFIXED = re.compile(r"[BIESLUM]-")


def _io_tag(file: str, tag: str, number: int) -> str:
    """An IO tag as the default mode reads it: ``O``, ``I-TYPE`` for ``TYPE`` or ``I-TYPE``; a
    B-, E-, S-, L- or U- prefix is not IO and is refused."""
    if tag == "O" or tag.startswith("I-"):
        return tag
    if _PREFIXED.match(tag):
        which = " (BMES: its M- is I-)" if tag[0] == "M" else ""
        raise FormatError(file, f"expected an IO tag (O, or a type such as PER or I-PER), got "
                          f"{tag!r}: a {tag[0]}- prefix marks another scheme{which}; read the "
                          "file without --scheme IO", line=number, field="tag")
    return f"I-{tag}"


_KEY_VALUES = re.compile(r"[A-Za-z][\w:.\[\]-]*=[^|]*(?:\|[A-Za-z][\w:.\[\]-]*=[^|]*)*\Z")
"""A CoNLL-U FEATS or MISC cell, ``Key=Value`` pairs joined by ``|`` (``Entity=(1-person|
SpaceAfter=No``): no tag, although a bare type's pattern matches it."""
_NOT_TAG_HINT = (": this cell holds Key=Value pairs, a CoNLL-U MISC or FEATS column, not BIO "
                 "tags (CorefUD's Entity= spans are not read); give the column that holds the "
                 "tags with --tag-column N")
_COREF = re.compile(r"(?=\S*[()])(?:\(?[^\s()|]++\)?\|?)+\Z")
"""A CoNLL-2012 coreference cell: ``(person-1``, ``person-1)``, ``(time-4)``, stacked."""
_COREF_HINT = (": this is a coreference bracket (the CoNLL-2012 coreference layout: '(' opens "
               "a mention, ')' closes it), not a BIO tag; SpanScope reads BIO/IOB/BIOES tags")


def _empty_cell_hint(file: str) -> str:
    """Why a tag cell ``_`` is no tag, and the option that reads the tags from elsewhere: in a
    ``.conllu`` file, the last of CoNLL-U's ten columns (MISC), where no value is given."""
    where = (" (here CoNLL-U's MISC column, the last of its ten, which holds no BIO entity "
             "tags)" if file.lower().endswith(".conllu") else "")
    return (f": '_' is an empty cell{where}; give the column that holds the tags with "
            "--tag-column N")


def _check_tag(file: str, tag: str, number: int, styles: dict[str, tuple[str, int]]) -> None:
    """Refuse a tag that is neither prefix-style (``B-PER``, ``O``) nor suffix-style
    (``PER-B``); note in ``styles`` the first tag of each style and its line."""
    match = _TAG.match(tag)
    prefixed = match is not None and not (match.group(2) or "x").startswith("-") \
        and not (match.group(2) or "x").endswith("-")
    suffixed = _SUFFIX_TAG.match(tag) is not None
    if not prefixed and not suffixed:
        io = (_NOT_TAG_HINT if _KEY_VALUES.match(tag) else _COREF_HINT if _COREF.match(tag)
              else ": a type without a B-/I- prefix is an IO tag; read IO tags with --scheme IO"
              if _IO_TYPE.match(tag) and not re.match(r"[A-Z]-", tag) else
              f": {tag[:2]} is no prefix of a scheme read here (O, B, I, E, S, L, U, and BMES's M)"
              if re.match(r"[A-Z]-", tag) else _empty_cell_hint(file) if tag == "_" else "")
        raise FormatError(file, f"expected a tag such as O, B-PER, I-PER, E-PER, S-PER "
                          f"(or, suffix-style, PER-B), got {tag!r}{io}", line=number,
                          field="tag")
    if prefixed and match is not None and match.group(2) is not None and not suffixed:
        styles.setdefault("prefix", (tag, number))
    elif suffixed and not prefixed:
        styles.setdefault("suffix", (tag, number))


def _prefix_suffix_tags(file: str, styles: Mapping[str, tuple[str, int]],
                        names: list[str]) -> None:
    """Rewrite the suffix-style tag names in ``names`` prefix-style, as seqeval's
    ``suffix=True`` reads them (``PER-B`` is ``B-PER``); a file that mixes styles is refused."""
    if "prefix" in styles:
        (p_tag, p_line), (s_tag, s_line) = styles["prefix"], styles["suffix"]
        raise FormatError(file, f"tag {s_tag!r} is suffix-style (type first) but "
                          f"{p_tag!r} (line {p_line}) is prefix-style; a file uses one "
                          "style", line=s_line, field="tag")
    for k, name in enumerate(names):
        parts = _SUFFIX_TAG.match(name)
        if parts is not None:
            names[k] = f"{parts.group(2)}-{parts.group(1)}"


def _offsets(file: str, doc: _Doc, companion: tuple[str, str] | None
             ) -> tuple[str, list[int], list[int]]:
    """The document text and each token's start and end (tokens in file order)."""
    starts: list[int] = []
    ends: list[int] = []
    lengths = doc.lengths
    k = 0
    if companion is None:
        pos = 0
        for n, size in enumerate(doc.sizes):
            if n:
                pos += 1  # the line break between sentences
            for j in range(size):
                if j:
                    pos += 1  # the space between tokens
                starts.append(pos)
                pos += lengths[k]
                ends.append(pos)
                k += 1
        return "\n".join(doc.sentences), starts, ends
    cfile, text = companion
    pos = 0
    for sentence, size in zip(doc.sentences, doc.sizes, strict=True):
        at = 0
        for _ in range(size):
            token = sentence[at : at + lengths[k]]
            at += lengths[k] + 1
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if not text.startswith(token, pos):
                found = text[pos : pos + len(token)]
                raise FormatError(file, f"token {token!r} is not the next word of {cfile} at "
                                  f"offset {pos} (found {found!r}); only whitespace may "
                                  "separate tokens", line=doc.lines[k], field="token")
            starts.append(pos)
            pos += len(token)
            ends.append(pos)
            k += 1
    if text[pos:].strip():
        cut = text[pos:].strip()[:30]
        raise FormatError(cfile, f"text after the last token of the CoNLL file: {cut!r}")
    return text, starts, ends


def _bilou_note(doc: _Doc, default: list[tuple[str, int, int]]) -> tuple[str, int] | None:
    """A warning (message, line) when a document uses the BILOU prefixes ``L``/``U`` and
    seqeval's default mode, which does not know them, chunks it otherwise than strict BILOU.
    ``default`` holds the default mode's chunks as (type, first token, last token + 1)."""
    names = doc.tag_names
    used = {names[c][0] for c in set(doc.tags)}
    if not used & {"L", "U"}:
        return None
    first = next(k for k, c in enumerate(doc.tags) if names[c][0] in "LU")
    line = doc.lines[first]
    bilou = SCHEMES["BILOU"]
    others = ", ".join(sorted(used - set(bilou.allowed)))
    if others:
        return (KindedText(f"the tags mix the BILOU prefixes L, U with {others}; seqeval's "
                           "default mode reads L and U as I (chunks may end late or be lost); no "
                           "--scheme reads such a mix strictly", "tag-scheme"), line)
    strict: list[tuple[str, int, int]] = []
    k0 = 0
    for size in doc.sizes:
        tags = [names[c] for c in doc.tags[k0 : k0 + size]]
        strict += [(t, k0 + a, k0 + b) for t, a, b in chunks_strict(tags, bilou)]
        k0 += size
    differ = len(set(strict) ^ set(default))
    if not differ:
        return None
    return (KindedText(f"BILOU tags ({names[doc.tags[first]]!r} here) in seqeval's default "
                       f"mode, which reads L and U as I: {differ} chunk(s) differ from the BILOU "
                       "reading (a bare L or U has the type of O and never closes its chunk); "
                       "pass --scheme BILOU to read them as BILOU", "tag-scheme"), line)


def _spans(file: str, doc: _Doc, scheme: Scheme | None, companion: tuple[str, str] | None,
           labels: Sequence[str] | None = None
           ) -> tuple[str, list[tuple[int, int, str]], tuple[str, int] | None,
                      tuple[list[int], list[int]]]:
    """The text, the ``(start, end, label)`` chunks of one document, a warning (message,
    line) about BILOU tags read in the default mode, and the tokens' starts and ends."""
    text, starts, ends = _offsets(file, doc, companion)
    names = doc.tag_names
    out: list[tuple[int, int, str]] = []
    if scheme is None:
        flat: list[str] = []
        where: list[int] = []  # the token of each flat position (a separator: the one before)
        k = 0
        for n, size in enumerate(doc.sizes):
            if n:
                flat.append("O")
                where.append(k - 1)
            for _ in range(size):
                flat.append(names[doc.tags[k]])
                where.append(k)
                k += 1
        chunks = [(label, where[first], where[stop - 1] + 1)
                  for label, first, stop in chunks_default(flat)]
        for label, k0, k1 in chunks:
            check_label(label, labels, file, field="tag", line=doc.lines[k0])
            out.append((starts[k0], ends[k1 - 1], label))
        return text, out, _bilou_note(doc, chunks), (starts, ends)
    k0 = 0
    for size in doc.sizes:
        tags = [names[c] for c in doc.tags[k0 : k0 + size]]
        bad = first_invalid(tags, scheme)
        if bad is not None:
            raise FormatError(file, f"expected a {scheme.name} tag (prefixes "
                              f"{', '.join(scheme.allowed)}), got {tags[bad]!r}",
                              line=doc.lines[k0 + bad], field="tag")
        for label, first, stop in chunks_strict(tags, scheme):
            check_label(label, labels, file, field="tag", line=doc.lines[k0 + first])
            out.append((starts[k0 + first], ends[k0 + stop - 1], label))
        k0 += size
    return text, out, None, (starts, ends)


# ---- writing --------------------------------------------------------------------------------

_UNSPACED = ("CJK UNIFIED", "CJK COMPATIBILITY IDEOGRAPH", "HIRAGANA", "KATAKANA", "THAI",
             "LAO", "KHMER", "MYANMAR", "TIBETAN")
"""Scripts written without spaces between words (the start of their characters' names)."""


def _unspaced_script(token: str) -> bool:
    """Whether ``token`` holds a character of a script written without spaces between words
    (Chinese, Japanese, Thai, ...): one token per run of non-spaces is then a phrase.

    >>> _unspaced_script("习近平在北京"), _unspaced_script("Berlin")
    (True, False)
    """
    return not token.isascii() and any(
        unicodedata.name(ch, "").startswith(_UNSPACED) for ch in token)


_WORD = re.compile(r"\S+")


def _tokens(text: str) -> list[list[tuple[int, int]]]:
    """Sentences (lines of the text) of whitespace-separated tokens, as [start, end)."""
    out: list[list[tuple[int, int]]] = []
    pos = 0
    for line in text.split("\n"):
        row = [(pos + m.start(), pos + m.end()) for m in _WORD.finditer(line)]
        if row:
            out.append(row)
        pos += len(line) + 1
    return out


def _own_tokens(text: str, given: Sentences | None) -> Sentences | None:
    """An input's own tokens of ``text`` (:attr:`core.formats.Loaded.tokens`) when a CoNLL
    file can hold them: each within the text, after the one before, not empty, without a TAB
    or line break and without white space at its edges; else None (the text is split at
    white space instead)."""
    if not given:
        return None
    last = 0
    for sent in given:
        for start, end in sent:
            token = text[start:end]
            if (start < last or end <= start or end > len(text) or token != token.strip()
                    or any(c in token for c in "\t\n\r")):
                return None
            last = end
    return given


def _tag_document(doc_id: str, text: str, spans: Sequence[Span],
                  sentences: Sentences | None = None
                  ) -> tuple[list[list[tuple[str, str]]], list[str]]:
    """(sentences of (token, IOB2 tag), notes about spans moved to token edges); the tokens
    are ``sentences`` (checked by :func:`_own_tokens`), else the text split at white space."""
    sentences = sentences or _tokens(text)
    flat = [tok for sent in sentences for tok in sent]
    sentence_of = [k for k, sent in enumerate(sentences) for _ in sent]
    tags = ["O"] * len(flat)
    owner: list[Span | None] = [None] * len(flat)
    notes: list[str] = []
    starts = [s for s, _ in flat]
    for span in spans:
        first = bisect.bisect_right(starts, span.start) - 1
        if first < 0 or flat[first][1] <= span.start:
            first += 1
        # Tokens are in text order: those starting before the span's end are the ones before
        # bisect_left(starts, end). Scanning to the end of the document instead made a long
        # document quadratic (118,000 tokens and 15,000 spans of one INCEpTION export: minutes).
        last = bisect.bisect_left(starts, span.end)
        covered = [i for i in range(max(first, 0), last) if flat[i][1] > span.start]
        if not covered:
            raise FormatError("<output>", f"document {doc_id!r}: the span [{span.start}, "
                              f"{span.end}) {span.label!r} covers no token (only whitespace); "
                              "CoNLL cannot hold it")
        for i in covered:
            if owner[i] is not None:
                other = owner[i]
                assert other is not None
                size = flat[i][1] - flat[i][0]
                # Text without spaces between words (Chinese, Japanese, Thai) is one token per
                # run of non-spaces: say so, or the refusal reads as a bug in the spans.
                token = text[flat[i][0]:flat[i][1]]
                unspaced = (f" (the token is {size} characters long: the text has no spaces "
                            "between words, so a whole sentence is one token; webanno-tsv and "
                            "spacy (OUT.spacy) cut tokens at span edges instead)"
                            if size > 20 or _unspaced_script(token) else "")
                raise FormatError("<output>", f"document {doc_id!r}: spans [{other.start}, "
                                  f"{other.end}) {other.label!r} and [{span.start}, {span.end}) "
                                  f"{span.label!r} share a token; a CoNLL tag column holds one "
                                  f"label per token{unspaced}")
            owner[i] = span
        if any(c in span.label for c in " \t") or not span.label:
            raise FormatError("<output>", f"label {span.label!r} cannot be a CoNLL tag type "
                              "(no spaces or TABs)")
        for i in covered:
            # A span across a line break is cut there: a chunk never crosses a sentence.
            first = i == covered[0] or sentence_of[i] != sentence_of[i - 1]
            tags[i] = f"{'B' if first else 'I'}-{span.label}"
        if sentence_of[covered[0]] != sentence_of[covered[-1]]:
            notes.append(f"document {doc_id!r}: the span [{span.start}, {span.end}) "
                         f"{span.label!r} crosses a line break and is cut into one chunk per "
                         "sentence")
        fitted = _fitted(doc_id, span, flat[covered[0]][0], flat[covered[-1]][1])
        if fitted:
            notes.append(fitted)
    out: list[list[tuple[str, str]]] = []
    i = 0
    for sent in sentences:
        row = []
        for start, end in sent:
            row.append((text[start:end], tags[i]))
            i += 1
        out.append(row)
    return out, notes


def _fitted(doc_id: str, span: Span, start: int, end: int) -> str | None:
    """The note on ``span`` written as the tokens ``[start, end)`` (None: the same edges). A
    span that ends in white space (doccano's, often) loses it: trimmed, not widened."""
    if (start, end) == (span.start, span.end):
        return None
    how = ("is trimmed to its tokens" if span.start <= start and end <= span.end
           else "is widened to whole tokens" if start <= span.start and span.end <= end
           else "is moved to whole tokens")
    return (f"document {doc_id!r}: the span [{span.start}, {span.end}) {span.label!r} {how} "
            f"[{start}, {end})")


def _canonical(text: str, sentences: Sentences | None = None) -> bool:
    """Is ``text`` what the reader rebuilds from its tokens (single spaces, single newlines)?"""
    rebuilt = "\n".join(" ".join(text[s:e] for s, e in sent)
                        for sent in sentences or _tokens(text))
    return rebuilt == text.rstrip()  # trailing whitespace moves no offset


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], *,
          tokens: Mapping[str, Sentences] | None = None) -> dict[str, str]:
    """One CoNLL file with IOB2 tags: ``-DOCSTART-<TAB>id<TAB>O`` per document, one line per
    token and a blank line after each sentence. Needs the texts. The tokens and sentences are
    a document's own ``tokens`` (those its input held: :attr:`core.formats.Loaded.tokens`)
    when a CoNLL file can hold them, else its text split at white space, a sentence per
    line."""
    aset = single_set(sets, FORMAT)
    lines: list[str] = []
    own = tokens or {}
    for doc_id in aset.spans:
        text = texts.get(doc_id)
        if text is None:
            raise FormatError("<output>", f"document {doc_id!r} has no text; CoNLL files are "
                              "made of the text's tokens")
        if any(c in doc_id for c in "\t\n\r"):
            raise FormatError("<output>", f"document id {doc_id!r} cannot be written on a "
                              "-DOCSTART- line")
        sentences, _ = _tag_document(doc_id, text, aset.get(doc_id),
                                     _own_tokens(text, own.get(doc_id)))
        lines.append(f"{DOCSTART}\t{doc_id}\tO")
        lines.append("")
        for sent in sentences:
            lines.extend(f"{token}\t{tag}" for token, tag in sent)
            lines.append("")
    return {f"{aset.name or 'annotations'}.conll": "\n".join(lines) + ("\n" if lines else "")}


def losses(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet], *,
           tokens: Mapping[str, Sentences] | None = None, reader: str | None = None
           ) -> list[str]:
    """What writing ``sets`` as CoNLL changes: texts rebuilt from tokens, spans widened; and,
    when ``reader`` names the input's format, whose tokens are written (:func:`write`)."""
    notes: list[str] = []
    own = tokens or {}
    docs = {d: _own_tokens(texts[d] or "", own.get(d)) for s in sets for d in s.spans
            if texts.get(d) is not None}
    with_own = sum(v is not None for v in docs.values())
    if reader is not None and with_own:
        notes.append(f"note: the tokens written are the input's own ({reader}, {with_own} "
                     f"document{'s' if with_own != 1 else ''})"
                     + (f"; the other {len(docs) - with_own} documents' texts are split at "
                        "white space" if with_own < len(docs) else ""))
    elif reader is not None:
        notes.append(f"note: the input ({reader}) carries no tokens: the tokens written are its "
                     "text split at whitespace")
    changed = [d for d, sentences in docs.items() if not _canonical(texts[d] or "", sentences)]
    if changed:
        notes.append(f"note: {len(changed)} document texts are not single-spaced tokens and "
                     "lines; reading the CoNLL file back rebuilds them, so offsets change "
                     f"(e.g. {changed[0]!r})")
    widened: list[str] = []
    for s in sets:
        for d, spans in s:
            text = texts.get(d)
            if text is not None:
                with contextlib.suppress(FormatError):  # write() reports it
                    widened.extend(_tag_document(d, text, spans, docs.get(d))[1])
    if widened:
        notes.append(f"note: {len(widened)} spans are fitted to whole tokens (widened, or "
                     "trimmed of white space at their edges) or cut at line breaks, e.g. "
                     f"{widened[0]}")
    return notes
