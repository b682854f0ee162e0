"""brat standoff: ``<doc>.ann`` beside ``<doc>.txt``, one ``T`` line per text-bound annotation.

Format of the brat rapid annotation tool (Stenetorp et al., 2012; brat "standoff format"
documentation): ``T1<TAB>Label START END<TAB>fragment``; a discontinuous annotation lists
fragments as ``START END;START END``. Our span model is contiguous, so each fragment becomes its
own span with a warning. Relations, events, attributes, normalisations and notes (``R``, ``E``,
``A``/``M``, ``N``, ``#`` lines) carry no spans: they are skipped with one warning per file
and kind that counts them and names their first lines (a corpus may hold thousands).

The document id is the ``.ann`` path without its extension (``news/1.ann`` -> ``news/1``). A
label may contain spaces (we parse the offsets from the right), which brat's own tool does not
accept; ``convert --to brat`` says so when it happens.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from operator import itemgetter
from pathlib import PurePosixPath
from typing import NoReturn

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import SpanColumns, duplicates
from core.formats._common import (
    check_label,
    make_span,
    member_name,
    set_name_of,
    single_set,
)
from core.model import AnnotationSet
from core.model.errors import Diagnostic, FormatError, KindedText, Position
from core.model.textsafe import MAX_OFFSET_DIGITS, fragment_repr, one_line

FORMAT = "brat"
_TYPE_OFFSETS = re.compile(r"(?P<label>.+?) (?P<frags>-?[^ ;]+ -?[^ ;]+(?:;-?[^ ;]+ -?[^ ;]+)*)\Z")
_SKIPPED = {"R": "a relation", "E": "an event", "A": "an attribute", "M": "an attribute",
            "N": "a normalisation", "#": "a note", "*": "an equivalence"}


def sniff(filename: str, head: str) -> int:
    lower = filename.lower()
    if lower.endswith(".ann"):
        return 95
    if lower.endswith(".conf") and PurePosixPath(lower).name in {
        "annotation.conf", "visual.conf", "tools.conf", "kb_shortcuts.conf",
    }:
        return 10
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read ``.ann`` files (one or a folder), with texts from the ``.txt`` files beside them."""
    loaded = Loaded(FORMAT, name)
    ann = {p: d for p, d in files.items() if p.lower().endswith(".ann")}
    # One .ann given on its own (perhaps with the .txt beside it): named by its file.
    single = len(ann) == 1 and PurePosixPath(name).name == PurePosixPath(next(iter(ann))).name
    if not ann:
        raise FormatError(name, "expected brat .ann files, found none")
    txt = {p[: -len(".txt")]: d for p, d in files.items() if p.lower().endswith(".txt")}
    txt = _texts_from_their_folder(ann, txt, loaded, name)
    for path in files:
        if not path.lower().endswith((".ann", ".txt", ".conf")):
            loaded.warn(f"{path}: not a brat .ann, .txt or .conf file; ignored", kind="ignored")
    folders = None if single else _annotator_folders(ann, txt)
    if folders is not None:
        loaded.warn(KindedText(f"one annotator each in the folders {', '.join(sorted(folders))} "
                               "(they hold the same documents): one annotation set per folder, "
                               "role annotator", "folder-layout"), file=name)
    per_set: dict[str, SpanColumns] = {}
    skipped: dict[str, list[tuple[Position, Diagnostic]]] = {}
    for path in sorted(ann):
        stem = path[: -len(".ann")]
        set_name, doc_id = _set_and_document(name, stem, single, folders)
        spans = per_set.setdefault(set_name, SpanColumns())
        file = name if single else member_name(name, path)
        text = (decode(member_name(name, stem + ".txt"), txt[stem], keep_bom=True)
                if stem in txt else None)
        if text is None and options.gold_texts is not None:
            text = options.gold_texts.get(doc_id)
        try:
            _read_ann(file, decode(file, ann[path]), text, options, loaded, spans,
                      spans.document(doc_id), skipped)
        except FormatError as exc:
            if exc.field != "id" or exc.line is None:
                raise
            _refuse_every_duplicate(exc, name, path, ann, single)
        if loaded.texts.get(doc_id) is None:
            loaded.texts[doc_id] = text
    # Relations, events, attributes, ... are the body of many exports: one warning per file
    # and kind of line, with their count and first lines, in the order of the input.
    for _, diagnostic in sorted((d for found in skipped.values() for d in found),
                                key=itemgetter(0)):
        loaded.diagnostics.append(diagnostic)
    _warn_lone_texts(ann, txt, loaded)
    role = options.role if folders is None else "annotator" if options.role == "gold" \
        else options.role
    for set_name, spans in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, spans.spans(), role))
        if folders is not None:
            loaded.named_sets.add(set_name)
    return loaded


def _set_and_document(name: str, stem: str, single: bool, folders: Mapping[str, str] | None
                      ) -> tuple[str, str]:
    """The set and the document of the ``.ann`` file ``stem`` + ``.ann``: the set named by the
    input and the document by the file's path (its name alone for a single file), or in the
    one-folder-per-annotator layout the annotator's folder and the path under it."""
    if folders is not None:
        set_name = next(f for f, prefix in folders.items() if stem.startswith(prefix))
        return set_name, stem[len(folders[set_name]):]
    return set_name_of(name), PurePosixPath(stem).name if single else stem


def _texts_from_their_folder(ann: Mapping[str, bytes], txt: dict[str, bytes], loaded: Loaded,
                             name: str) -> dict[str, bytes]:
    """The texts keyed by the ``.ann`` stems they go with. When no ``.ann`` has its ``.txt``
    beside it, the ``.ann`` files are in one folder and the ``.txt`` files in another, and
    every ``.ann`` has a ``.txt`` of its name there (the wild15 tour's SPG corpus:
    ``brat/000096468.ann`` and ``txt/000096468.txt``), each text is taken from that folder,
    with one warning; else ``txt`` unchanged."""
    stems = [p[: -len(".ann")] for p in ann]
    if not txt or any(stem in txt for stem in stems):
        return txt
    ann_folders = {PurePosixPath(stem).parent for stem in stems}
    txt_folders = {PurePosixPath(stem).parent for stem in txt}
    if len(ann_folders) != 1 or len(txt_folders) != 1:
        return txt
    (ann_folder,), (txt_folder,) = ann_folders, txt_folders
    by_name = {PurePosixPath(stem).name: data for stem, data in txt.items()}
    if not all(PurePosixPath(stem).name in by_name for stem in stems):
        return txt
    loaded.warn(KindedText(f"the texts are in the folder {txt_folder}/, the annotations in "
                           f"{ann_folder}/: each .ann is read with the .txt of its name there "
                           f"({len(stems)} pairs)", "folder-layout"), file=name)
    names = {PurePosixPath(stem).name for stem in stems}
    # a text without an .ann keeps its own path, to be warned of as before
    paired = {stem: data for stem, data in txt.items() if PurePosixPath(stem).name not in names}
    paired.update({str(ann_folder / n): by_name[n] for n in names})
    return paired


def _warn_lone_texts(ann: Mapping[str, bytes], txt: Mapping[str, bytes], loaded: Loaded
                     ) -> None:
    """Warn of each ``.txt`` without its ``.ann`` (ignored)."""
    ann_stems = {p[: -len(".ann")] for p in ann}
    for stem in txt:
        if stem not in ann_stems:
            loaded.warn(f"{stem}.txt: a text without a .ann file; ignored (brat writes an empty "
                        ".ann file for a document without annotations)", kind="ignored")


def _annotator_folders(ann: Mapping[str, bytes], txt: Mapping[str, bytes]
                       ) -> dict[str, str] | None:
    """The annotators' folders of a project laid out one folder per annotator (bratiaa's
    layout, Kolditz 2019: ``<annotator>/<document>.ann``), as {folder name: path prefix}; None
    for any other layout.

    The ``.ann`` files must lie in two or more folders under their common folder, none beside
    them, and the folders must share documents: a document name in two folders, each with its
    ``.txt``, the same text in each (``train/`` and ``dev/`` hold other documents; two folders
    may hold one name for two texts, and then they are not annotators). Each folder must share
    at least half of its documents with another folder (a train/dev/test split with one leaked
    document stays one set), and the shared ``.ann`` files must not all be byte for byte the
    same (two copies of one corpus are not two annotators in perfect agreement)."""
    stems = [p[: -len(".ann")] for p in ann]
    parts = [PurePosixPath(s).parts for s in stems]
    common = 0
    while all(len(p) > common + 2 for p in parts) and len({p[common] for p in parts}) == 1:
        common += 1
    if any(len(p) < common + 2 for p in parts):
        return None
    folders: dict[str, str] = {}
    by_doc: dict[str, list[str]] = {}
    for stem, p in zip(stems, parts, strict=True):
        prefix = "/".join(p[: common + 1]) + "/"
        folders[p[common]] = prefix
        by_doc.setdefault(stem[len(prefix):], []).append(stem)
    shared = [copies for copies in by_doc.values() if len(copies) > 1]
    if len(folders) < 2 or not shared:
        return None
    for copies in shared:
        texts = [txt.get(stem) for stem in copies]
        if any(t is None for t in texts) or len(set(texts)) > 1:
            return None
    in_folder = Counter(PurePosixPath(stem).parts[common] for stem in stems)
    in_shared = Counter(PurePosixPath(stem).parts[common] for copies in shared for stem in copies)
    if any(2 * in_shared[folder] < n for folder, n in in_folder.items()):
        return None
    content = {p[: -len(".ann")]: d for p, d in ann.items()}
    if all(len({content[stem] for stem in copies}) == 1 for copies in shared):
        return None
    return folders


def _duplicate_ids(content: str) -> list[tuple[int, str, int]]:
    """Every line of an ``.ann`` file that gives an id an earlier line gave: (line, id, the
    earlier line), as :func:`_read_ann` finds the first."""
    seen: dict[str, int] = {}
    found = []
    for number, raw in enumerate(content.split("\n"), start=1):
        if raw.startswith("T") and "\t" in raw:
            ann_id = raw.split("\t", 1)[0]
            if ann_id in seen:
                found.append((number, ann_id, seen[ann_id]))
            else:
                seen[ann_id] = number
    return found


_DUPLICATES_SHOWN = 30


def _text_or_empty(path: str, data: bytes) -> str:
    """A later file's text for the list of duplicate ids; one that cannot be decoded is left
    out of it (its own error comes once the first is fixed)."""
    try:
        return decode(path, data)
    except FormatError:
        return ""


def _refuse_every_duplicate(exc: FormatError, name: str, path: str, ann: Mapping[str, bytes],
                            single: bool) -> NoReturn:
    """Raise ``exc`` (the first duplicate id of ``path``) naming too every other line of the
    input that gives an id twice (file, line, id; the first :data:`_DUPLICATES_SHOWN`, of
    which ``path``'s own lines leave half to the other files when they have that many): a
    corpus pasted together from two rounds (RuRED: 5 of 527 files) is repaired in one pass, not
    one run of validate per file. The files before ``path`` were read, so they have none."""
    found = [(p, d) for p in sorted(ann) if p >= path
             for d in _duplicate_ids(_text_or_empty(p, ann[p])) if (p, d[0]) != (path, exc.line)]
    if not found:
        raise exc
    # this file's own lines leave room for the other files' (half the list, if they need it):
    # the other files are the ones the list is there to name
    own = [f for f in found if f[0] == path]
    others = [f for f in found if f[0] != path]
    own = own[:_DUPLICATES_SHOWN - min(len(others), _DUPLICATES_SHOWN // 2)]
    shown = own + others[:_DUPLICATES_SHOWN - len(own)]
    groups: dict[str, list[str]] = {}
    for p, (line, ann_id, first) in shown:
        where = PurePosixPath(name).name if single else p  # within the input named above
        groups.setdefault(p, []).append(
            f"{where}:{line} {one_line(ann_id)[:40]!r} (first on line {first})")
    more = []
    if path in groups:
        more.append("this file also gives an id twice: " + ", ".join(groups.pop(path)))
    files = len({p for p, _ in found} - {path})
    if files:
        more.append(f"{files} more .ann file{'s give' if files > 1 else ' gives'} an id twice: "
                    + "; ".join(", ".join(items) for items in groups.values()))
    if len(found) > len(shown):
        more[-1] += f" and {len(found) - len(shown)} more such lines"
    raise FormatError(exc.file, exc.diagnostic.message + "; " + "; ".join(more),
                      line=exc.line, field=exc.field) from None


def _free_id(content: str) -> str:
    """The first text-bound annotation id (``T1``, ``T2``, ...) no line of ``content`` uses."""
    used = {line.split("\t", 1)[0].strip() for line in content.split("\n")}
    return next(f"T{n}" for n in itertools.count(1) if f"T{n}" not in used)


def _read_ann(
    file: str, content: str, text: str | None, options: ReadOptions, loaded: Loaded,
    columns: SpanColumns, doc: int, skipped: dict[str, list[tuple[Position, Diagnostic]]],
) -> None:
    """Add the spans of one ``.ann`` file to ``columns`` as document ``doc``; the lines that
    carry no span go to ``skipped`` by kind (with their position in the input)."""
    out: list[tuple[int, int, str]] = []
    seen_ids: dict[str, int] = {}
    lines_of: dict[str, list[tuple[int, str]]] = {}  # kind of skipped line -> (number, line)
    # Split on "\n" only: a fragment may contain other characters str.splitlines() breaks on.
    for number, raw in enumerate(content.split("\n"), start=1):
        raw = raw.rstrip("\r")
        if not raw.strip():
            continue
        kind = raw[:1]
        if kind != "T":
            lines_of.setdefault(_SKIPPED.get(kind, "an unknown"), []).append((number, raw))
            continue
        cols = raw.split("\t")
        if len(cols) < 2:
            raise FormatError(
                file, "expected 'T<n> TAB label start end TAB text', got no TAB", line=number
            )
        ann_id = cols[0]
        if ann_id in seen_ids:
            raise FormatError(
                file, f"duplicate annotation id {one_line(ann_id)[:40]!r} (first on line "
                f"{seen_ids[ann_id]}); brat itself refuses to open such a document: give one "
                f"of the two an id no other line uses (such as {_free_id(content)!r}) and "
                "change the attributes, relations and notes that mean it",
                line=number, field="id",
            )
        seen_ids[ann_id] = number
        match = _TYPE_OFFSETS.match(cols[1].strip())
        if match is None:
            raise FormatError(
                file, f"expected 'label start end[;start end...]', got {cols[1]!r}",
                line=number, field="offsets",
            )
        label = match.group("label")
        check_label(label, options.labels, file, field="label", line=number)
        fragments = [f.split(" ") for f in match.group("frags").split(";")]
        if len(fragments) > 1:
            loaded.warn(
                f"{ann_id} is discontinuous ({match.group('frags')}); each of its "
                f"{len(fragments)} fragments becomes a separate span",
                line=number, file=file,
                kind="discontinuous",
            )
        given = "\t".join(cols[2:]) if len(cols) > 2 else None
        pieces = _pieces(fragments, label, given, text, file, number, options)
        if text is not None and given is not None:
            # brat writes a discontinuous annotation's text with a space between fragments and
            # newlines inside a fragment as spaces.
            actual = " ".join(text[s:e] for s, e, _ in pieces)
            if given.replace("\n", " ") != actual.replace("\n", " "):
                loaded.warn(
                    f"the text given, {given!r}, differs from the text at the offsets, "
                    f"{actual!r}; the offsets are used", line=number, field="text", file=file,
                    kind="fragment-mismatch",
                )
        if text is not None:
            for s, e, _ in pieces:
                frag = text[s:e]
                if frag[:1].isspace() or frag[-1:].isspace():
                    loaded.warn(KindedText(f"the span [{s}, {e}) begins or ends in "
                                           f"whitespace: {fragment_repr(frag)}", "whitespace"),
                                line=number, file=file)
        out.extend(pieces)
    for what, found in lines_of.items():
        skipped.setdefault(what, []).append(((doc, found[0][0]), _skipped_lines(file, what, found)))
    _add_spans(out, columns, doc, file, loaded)


def _pieces(fragments: list[list[str]], label: str, given: str | None, text: str | None,
            file: str, number: int, options: ReadOptions) -> list[tuple[int, int, str]]:
    """The spans of one ``T`` line, one per fragment ``[start, end]``; ``given``: the line's
    text column, a continuous span's own text, which tells the unit of its offsets
    (``options.offsets``, :mod:`core.model.units`)."""
    converting = options.offsets is not None and options.offsets.converting
    pieces: list[tuple[int, int, str]] = []
    for start, end in fragments:
        own = given if len(fragments) == 1 else None
        if (start.isdigit() and end.isdigit() and start.isascii() and end.isascii()
                and len(start) <= MAX_OFFSET_DIGITS and len(end) <= MAX_OFFSET_DIGITS
                and not converting):
            # Plain decimal offsets (nearly every line): make_span's checks, without
            # building a Span; anything else goes through make_span for its message.
            s, e = int(start), int(end)
            if e > s and (text is None or (e <= len(text) and (
                    own is None or text[s:e] == own))) and label.strip():
                pieces.append((s, e, label))
                continue
        span = make_span(start, end, label, file, line=number, text=text,
                         beyond_text=options.beyond_text, fragment=own, offsets=options.offsets)
        pieces.append((span.start, span.end, span.label))
    return pieces


def _skipped_lines(file: str, what: str, found: list[tuple[int, str]]) -> Diagnostic:
    """One warning for the lines of one kind that carry no span in one file: the line itself
    when it is alone, else their count, first line numbers and the first line."""
    number, raw = found[0]
    if len(found) == 1:
        return Diagnostic(file, f"skipped {what} line (only T lines carry spans): {raw[:60]!r}",
                          line=number, kind="skipped")
    numbers = ", ".join(str(n) for n, _ in found[:5]) + (", ..." if len(found) > 5 else "")
    return Diagnostic(file, f"skipped {len(found)} {what.split(' ', 1)[1]} lines (only T lines "
                      f"carry spans), on lines {numbers}; the first: {raw[:60]!r}", line=number,
                      kind="skipped")


def _add_spans(out: list[tuple[int, int, str]], columns: SpanColumns, doc: int, file: str,
               loaded: Loaded) -> None:
    """One ``.ann`` file's spans into ``columns``, with a warning for each repeated one."""
    for s, e, lab in duplicates(out):
        loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept", file=file,
                    kind="duplicate-span")
    for s, e, lab in out:
        columns.add(doc, s, e, lab)


def _check_doc_id(doc_id: str) -> None:
    parts = PurePosixPath(doc_id).parts
    if not doc_id or doc_id.startswith("/") or ".." in parts or "\\" in doc_id or not parts:
        raise FormatError("<output>", f"document id {doc_id!r} cannot be a brat file name")


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """``<id>.ann`` per document (empty without spans) and ``<id>.txt`` when the text is known;
    several sets: one folder per set (``<set>/<id>.ann``, the annotator-folder layout
    :func:`read` takes back as one set per folder), each with the documents its set covers."""
    if len(sets) <= 1:
        return _write_set(texts, single_set(sets, FORMAT))
    out: dict[str, str] = {}
    for aset in sets:
        name = aset.name
        if not name or name != name.strip() or any(c in name for c in '/\\:*?"<>|\t\n') \
                or name in (".", ".."):
            raise FormatError("<output>", f"set name {name!r} cannot be a brat folder name; "
                              "rename the set or write one set with --set NAME")
        out.update({f"{name}/{path}": data for path, data in _write_set(texts, aset).items()})
    return out


def _write_set(texts: Mapping[str, str | None], aset: AnnotationSet) -> dict[str, str]:
    out: dict[str, str] = {}
    for doc_id in aset.spans:
        _check_doc_id(doc_id)
        text = texts.get(doc_id)
        lines = []
        for n, s in enumerate(aset.get(doc_id), start=1):
            if any(c in s.label for c in "\t\n\r") or s.label != s.label.strip():
                raise FormatError("<output>", f"label {s.label!r} cannot be a brat type")
            frag = "" if text is None else text[s.start : s.end].replace("\n", " ")
            frag = frag.replace("\r", " ")
            lines.append(f"T{n}\t{s.label} {s.start} {s.end}\t{frag}\n")
        out[f"{doc_id}.ann"] = "".join(lines)
        if text is not None:
            out[f"{doc_id}.txt"] = text
    return out


def losses(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> list[str]:
    """Several sets are written one folder each; :func:`read` takes such folders back as one
    set each (role ``annotator``) only when each shares at least half of its documents (with
    their texts) with another and the shared documents' spans are not all the same
    (:func:`_annotator_folders`)."""
    if len(sets) < 2:
        return []
    docs = [{d for d in aset.spans if texts.get(d) is not None} for aset in sets]
    count = Counter(d for found in docs for d in found)
    shared = {d for d, n in count.items() if n > 1}
    alike = all(len({tuple(sorted((x.start, x.end, x.label) for x in aset.get(d)))
                     for aset, found in zip(sets, docs, strict=True) if d in found}) == 1
                for d in shared)
    if shared and not alike and all(2 * len(found & shared) >= len(found) for found in docs):
        roles = sorted({aset.role for aset in sets} - {"annotator"})
        kept = (f"; their roles ({', '.join(roles)}) are not kept: every folder reads back as "
                "an annotator" if roles else "")
        return [f"note: {len(sets)} sets written as one folder each (<set>/<document>.ann), "
                f"the layout brat projects give one folder per annotator{kept}"]
    return [f"note: {len(sets)} sets written as one folder each, but they do not share most of "
            "their documents (with texts and different spans): read back, the folders are one "
            "set whose document ids keep the folder; write one set with --set NAME to keep it "
            "apart"]

