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

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from core.errors import FormatError
from core.formats import Loaded, ReadOptions, decode
from core.formats._common import (
    check_label,
    make_span,
    member_name,
    set_name_of,
    single_set,
    sorted_spans,
    span_warnings,
)
from core.model import AnnotationSet, Span

FORMAT = "ptc"
SPAN_ONLY_LABEL = "propaganda"
"""The label of 3-column (span identification) rows, as in the official SI scorer."""

ARTICLE_RE = re.compile(r"article([0-9]+)")
_TEXT_RE = re.compile(r"article([0-9]+)\.txt\Z")
_INT = re.compile(r"[0-9]+\Z")


def sniff(filename: str, head: str) -> int:
    """``.labels`` files are PTC; a ``.tsv`` is PTC when its rows end in two integer columns."""
    lower = PurePosixPath(filename).name.lower()
    if lower.endswith(".labels"):
        return 95
    if lower.endswith(".txt") and _TEXT_RE.match(lower):
        return 20
    lines = [line for line in head.splitlines()[:20] if line.strip()]
    if head and not head.endswith("\n") and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut by the 4 KiB head
    tsv = lower.endswith(".tsv")
    if not lines:
        return 5 if tsv else 0
    good = hateval_like = 0
    for line in lines:
        cols = [c.strip() for c in line.rstrip().split("\t")]
        # HatEval rows: id, HS (2 columns), id, HS, TR, AG (4, all 0/1) or id, text, HS, TR, AG.
        if len(cols) in (2, 5) or (len(cols) == 4 and set(cols[1:]) <= {"0", "1"}):
            hateval_like += 1
        elif (len(cols) in (3, 4) and all(_INT.match(c) for c in cols[-2:])
              and _INT.match(cols[0])):
            good += 1
    if hateval_like == len(lines):
        return 0
    if good == len(lines):
        return 90 if tsv or lower.endswith(".txt") else 60
    # A .tsv that is not HatEval-like (which has a header with HS) is most likely a PTC file
    # with an error: read it as PTC so that the reader names the bad line.
    header = lines[0].lower().split("\t")
    if tsv and "hs" not in [h.strip() for h in header]:
        return 40 if good else 30
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read a PTC TSV file, or a gold folder of ``article<ID>*.labels`` (+ ``.txt``) files."""
    loaded = Loaded(FORMAT, name)
    set_name = set_name_of(name)
    labels_files = {p: d for p, d in files.items() if p.lower().endswith(".labels")}
    only = next(iter(files)) if len(files) == 1 else ""
    single_file = len(files) == 1 and PurePosixPath(name).name == PurePosixPath(only).name
    if len(files) == 1 and (not labels_files or single_file):
        # A file given on its own is one TSV (a submission, or a TC gold file such as
        # dev-task-TC.labels); only a folder's .labels files take their id from the file name.
        (data,) = files.values()
        order: list[tuple[str, Span]] = []
        spans = _read_tsv(name, decode(name, data), None, options, loaded, order=order)
        # The official TC scorer compares rows in file order (core.metrics.tc_order).
        from core.metrics.tc_order import RowOrder

        loaded.records = RowOrder(tuple(order))
        for doc_id in spans:
            loaded.texts[doc_id] = (
                options.gold_texts.get(doc_id) if options.gold_texts is not None else None
            )
        loaded.sets.append(AnnotationSet(set_name, sorted_spans(spans), options.role))
        return loaded
    return _read_folder(files, labels_files, name, set_name, options, loaded)


def _read_folder(
    files: Mapping[str, bytes], labels_files: Mapping[str, bytes], name: str, set_name: str,
    options: ReadOptions, loaded: Loaded,
) -> Loaded:
    if not labels_files:
        raise FormatError(
            name, "expected a PTC gold folder with article<ID>*.labels files, found none "
            f"among {len(files)} files",
        )
    texts: dict[str, str] = {}
    text_files: dict[str, str] = {}
    for path, data in files.items():
        base = PurePosixPath(path).name
        if path in labels_files:
            continue
        match = _TEXT_RE.match(base)
        if match:
            texts[match.group(1)] = decode(member_name(name, path), data)
            text_files[match.group(1)] = path
        else:
            loaded.warn(
                f"{path}: not an article<ID>.txt text or an article<ID>*.labels file; ignored"
            )
    spans: dict[str, list[Span]] = {}
    origin: dict[str, str] = {}
    for path in sorted(labels_files, key=_natural):
        file = member_name(name, path)
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
        text = texts.get(doc_id)
        if text is None and options.gold_texts is not None:
            text = options.gold_texts.get(doc_id)
        doc = _read_tsv(file, decode(file, labels_files[path]), doc_id, options, loaded, text)
        spans[doc_id] = doc.get(doc_id, [])
        loaded.texts[doc_id] = text
    for doc_id, path in text_files.items():
        if doc_id not in spans:
            loaded.warn(
                f"{path}: article {doc_id} has a text but no .labels file; ignored (an empty "
                ".labels file marks an article without propaganda)"
            )
    loaded.sets.append(AnnotationSet(set_name, sorted_spans(spans), options.role))
    return loaded


def _read_tsv(
    file: str, text: str, file_id: str | None, options: ReadOptions, loaded: Loaded,
    doc_text: str | None = None, order: list[tuple[str, Span]] | None = None,
) -> dict[str, list[Span]]:
    """Rows of one TSV; ``file_id`` is the id a gold file's name gives (rows must agree)."""
    spans: dict[str, list[Span]] = {}
    first_line: dict[tuple[str, Span], int] = {}
    columns: int | None = None
    # Split on "\n" only, as the official scorers iterate over file lines; one final newline
    # ends the last row rather than adding a blank one.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
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
        if columns is None:
            columns = len(cols)
        elif len(cols) != columns:
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
        label = cols[1] if len(cols) == 4 else SPAN_ONLY_LABEL
        start, end = cols[-2], cols[-1]
        text_for_doc = doc_text
        if text_for_doc is None and file_id is None and options.gold_texts is not None:
            text_for_doc = options.gold_texts.get(article)
        try:
            span = make_span(start, end, label, file, line=number, text=text_for_doc,
                             fields=("start", "end", "technique"))
        except FormatError as exc:
            if number == 1 and start.lower() in ("start", "begin", "start_offset"):
                raise FormatError(
                    file, exc.diagnostic.message + "; PTC files have no header row",
                    line=number, field=exc.field,
                ) from None
            raise
        if len(cols) == 4:
            check_label(label, options.labels, file, field="technique", line=number)
        for message, fld in span_warnings(span, text_for_doc):
            loaded.warn(message, line=number, field=fld, file=file)
        spans.setdefault(article, []).append(span)
        if order is not None:
            order.append((article, span))
        key = (article, span)
        if key in first_line:
            loaded.warn(
                f"article {article} has the span [{span.start}, {span.end}) {span.label!r} "
                f"again (first on line {first_line[key]}); kept (each copy counts in the scores)",
                line=number, file=file,
            )
        else:
            first_line[key] = number
    return spans


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
