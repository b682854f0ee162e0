"""Format conversion and checking (``python -m core convert`` and ``validate``), label lists.

Both go through the same readers as scoring (:func:`core.formats.load_path`), so a file that
``validate`` accepts is one that ``score`` reads, and ``convert`` refuses what the readers refuse.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.formats import (
    BINARY_WRITABLE,
    Loaded,
    ReadOptions,
    detect,
    load_files,
    load_path,
    module,
    read_file_with_companions,
    read_folder,
    write_files,
)
from core.formats.atomic import Output, check_writable, commit
from core.model import AnnotationSet, Role
from core.model.bounds import Policy
from core.model.errors import FormatError, KindedText, SpanScopeError, expand_diagnostics

FOLDER_FORMATS = ("brat", "webanno-tsv")
"""Formats that are always written as a folder (one file per document)."""


def _choose_sets(loaded: Loaded, set_name: str | None, source: str) -> list[AnnotationSet]:
    if set_name is None:
        return list(loaded.sets)
    chosen = [s for s in loaded.sets if s.name == set_name]
    if not chosen:
        names = ", ".join(repr(s.name) for s in loaded.sets)
        raise FormatError(source, f"no annotation set named {set_name!r}; sets: {names}")
    return chosen


def _render(fmt: str, output: Path, loaded: Loaded, sets: list[AnnotationSet], *,
            csv_raw: bool = False) -> Mapping[str, str | bytes]:
    """The files to write: ``ptc`` and ``spans-csv`` pick a single-file layout by suffix, and
    ``spacy`` writes a binary DocBin when the output ends in ``.spacy``."""
    suffix = output.suffix.lower()
    if fmt == "parquet":
        from core.formats import parquet

        return parquet.write_tables(loaded.texts, sets, parquet.stem(output.name),
                                    loaded.records)
    if fmt in ORDER_KEEPING:  # a writer that keeps the gold labels' file order (_order_lost)
        from core.formats import module

        written: Mapping[str, str | bytes] = module(fmt).write(loaded.texts, sets,
                                                               order=loaded.records)
        return written
    if fmt == "spacy" and suffix == ".spacy":
        from core.formats._common import single_set
        from core.formats.spacy_docs import docbin_bytes

        return {output.name: docbin_bytes(loaded.texts, single_set(sets, "spacy"))}
    if fmt == "ptc" and suffix in (".tsv", ".txt"):
        from core.formats import ptc

        return ptc.write_tsv(loaded.texts, sets)
    if fmt == "spans-csv" and suffix == ".jsonl":
        from core.formats import spans_csv

        return spans_csv.write_jsonl(loaded.texts, sets)
    if fmt == "conll":
        from core.formats import conll

        return conll.write(loaded.texts, sets, tokens=loaded.tokens)
    if fmt == "hateval" or loaded.format == "hateval":
        from core.formats import hateval

        if loaded.format != "hateval" or fmt != "hateval":
            raise FormatError("<output>", "HatEval files hold text-level labels, not spans; "
                              "they convert only to hateval (which normalises the layout)")
        assert isinstance(loaded.records, hateval.HatEvalTable)
        return {output.name: hateval.render(loaded.records)}
    return write_files(fmt, loaded.texts, sets, csv_raw=csv_raw)


def convert(
    input: str | Path,
    output: str | Path,
    *,
    to: str,
    from_format: str | None = None,
    set_name: str | None = None,
    labels_file: str | Path | None = None,
    options: ReadOptions | None = None,
    csv_raw: bool = False,
) -> list[str]:
    """Read ``input`` (any format, detected unless ``from_format``) and write it as ``to``.

    Single-file formats write ``output`` as a file; brat, and PTC unless ``output`` ends in
    ``.tsv``, write a folder (article ``.labels`` and ``.txt`` files). Returns the messages to
    show: the reader's warnings, anything lost in the conversion, and a summary line.
    ``labels_file``: a label list or doccano label config (:func:`read_options_for_labels`);
    ``options``: the other reader options (the command line's ``--layer`` ...); ``csv_raw``:
    :func:`write_sets`. The output is checked before the input is read.
    """
    out = Path(output)
    check_writable(out, folder=output_is_folder(to, out))
    read_options = read_options_for_labels(labels_file, options)
    if to == "conll":  # CoNLL is made of tokens: the input's own when it has them
        read_options = replace(read_options, keep_tokens=True)
    loaded = load_path(input, fmt=from_format, options=read_options)
    sets = _choose_sets(loaded, set_name, str(input))
    messages: list[str] = [KindedText(f"warning: {d}", d.kind)  # core.cli.convert names it
                           for d in expand_diagnostics(loaded.diagnostics)]
    messages.extend(write_sets(sets, out, to=to, texts=loaded.texts, source=loaded,
                               csv_raw=csv_raw))
    docs = len({d for s in sets for d in s.spans})
    spans = sum(s.span_count() for s in sets)
    names = ", ".join(s.name for s in sets)
    messages.append(f"wrote {docs} documents, {spans} spans ({names}) as {to} to {out}")
    return messages


def write_sets(
    sets: list[AnnotationSet],
    output: str | Path,
    *,
    to: str,
    texts: dict[str, str | None],
    source: Loaded | None = None,
    csv_raw: bool = False,
) -> list[str]:
    """Write ``sets`` (over ``texts``) to ``output`` in format ``to``; the one writer of
    ``convert`` and ``adjudicate``.

    brat, and PTC unless ``output`` ends in ``.tsv`` or ``.txt``, are written as a folder (one
    file per document); the other formats as one file (``spans-csv`` as JSON Lines when
    ``output`` ends in ``.jsonl``). ``source`` is what ``sets`` were read from, when they were
    read: a HatEval table converts only from a HatEval input. ``csv_raw``: write CSV cells as
    they are, without the quote that keeps a spreadsheet from running them
    (:mod:`core.formats.csvsafe`). Everything is written whole or not at all
    (:func:`core.formats.atomic.commit`). Returns notes on what the format cannot hold; raises
    :class:`~core.model.errors.FormatError` naming ``output`` when it cannot be written.
    """
    outputs, notes = render_sets(sets, output, to=to, texts=texts, source=source,
                                 csv_raw=csv_raw)
    commit(outputs)
    return notes


def output_is_folder(to: str, output: str | Path) -> bool:
    """Whether format ``to`` is written to ``output`` as a folder (one file per document)."""
    return to in FOLDER_FORMATS or (to == "ptc" and Path(output).suffix.lower() not in
                                    (".tsv", ".txt"))


def render_sets(
    sets: list[AnnotationSet],
    output: str | Path,
    *,
    to: str,
    texts: dict[str, str | None],
    source: Loaded | None = None,
    csv_raw: bool = False,
    order: object = None,
) -> tuple[dict[Path, Output], list[str]]:
    """What :func:`write_sets` writes, not yet written: ``{target: a file's content, or a
    folder's files}``, and the notes on what the format cannot hold. A command that writes
    several outputs passes them all to :func:`core.formats.atomic.commit` at once. ``order``:
    without ``source``, the records of the input ``sets`` come from (a shard's: the gold
    labels' file order, kept by parquet and mafalda, :func:`_order_lost`)."""
    out = Path(output)
    loaded = source if source is not None else Loaded(format="spans", source=str(out),
                                                      texts=texts, sets=list(sets))
    if source is None and order is not None:
        loaded.records = order
    try:
        files = _render(to, out, loaded, sets, csv_raw=csv_raw)
    except FormatError as exc:
        if exc.file != "<output>":
            raise
        # Writers do not know the output path; name it here.
        raise FormatError(str(out), exc.diagnostic.message) from None
    outputs: dict[Path, Output] = {}
    if to in BINARY_WRITABLE:  # a table and its companion, side by side (x.parquet, x.texts...)
        if out.is_dir():
            raise FormatError(str(out), "is a folder; give a file name for the output")
        for rel, content in files.items():
            outputs[out.parent / rel] = content
    elif output_is_folder(to, out):
        if out.exists() and not out.is_dir():
            raise FormatError(str(out), f"the {to} format is written as a folder, but this is "
                              "a file")
        outputs[out] = dict(files)
    else:
        if len(files) != 1:  # pragma: no cover - every single-file writer returns one file
            raise FormatError(str(out), f"the {to} writer produced {len(files)} files")
        if out.is_dir():
            raise FormatError(str(out), "is a folder; give a file name for the output")
        outputs[out] = next(iter(files.values()))
    return outputs, _losses(to, out, loaded, sets, read=source is not None)


ORDER_KEEPING = ("parquet", "mafalda")
"""The formats whose writer keeps the gold labels' file order (:func:`_order_lost`)."""


def _order_lost(to: str, loaded: Loaded, sets: list[AnnotationSet]) -> list[str]:
    """The note that format ``to`` drops the gold labels' file order, when ``loaded`` (a
    MAFALDA file, or a Parquet table written from one) lists some document's gold labels out
    of sorted order: MAFALDA's official evaluator walks them in file order
    (:mod:`core.metrics.mafalda_order`), so its ``repo-head`` and ``metrics-py`` numbers would
    change."""
    from core.formats.parquet import ordered_set
    from core.metrics.mafalda_order import unsorted_documents

    docs = unsorted_documents(loaded.records)
    if to in ORDER_KEEPING or ordered_set(sets, loaded.records) is None:
        return []
    many = f"{len(docs)} documents list" if len(docs) != 1 else "1 document lists"
    return [f"note: {many} their gold labels unsorted (first: {docs[0]!r}); "
            f"{to} keeps no file order, which MAFALDA's repo-head and metrics-py variants "
            "read: convert to mafalda or parquet to keep it"]


def _losses(to: str, out: Path, loaded: Loaded, sets: list[AnnotationSet], *,
            read: bool = True) -> list[str]:
    """What the target format cannot hold, said once each (``read``: ``loaded`` is an input
    that was read, whose format the notes may name)."""
    notes: list[str] = []
    notes.extend(_order_lost(to, loaded, sets))
    has_text = any(t is not None for t in loaded.texts.values())
    single_tsv = to == "ptc" and out.suffix.lower() in (".tsv", ".txt")
    if has_text and (to == "spans-csv" or single_tsv):
        notes.append(f"note: the {to} file does not carry the document texts")
    if single_tsv:
        empty = [d for s in sets for d, spans in s if not spans]
        if empty:
            notes.append(f"note: {len(empty)} documents without spans cannot be listed in a "
                         "single PTC TSV file; write a folder to keep them")
    if to == "spacy" and out.suffix.lower() == ".spacy":
        from core.formats._common import single_set
        from core.formats.spacy_docs import docbin_notes

        notes.extend(docbin_notes(loaded.texts, single_set(sets, "spacy")))
    writer_losses = getattr(module(to), "losses", None)  # formats that know their own limits
    if to == "conll":  # whose tokens are written: the input's own, or a white-space split
        from core.formats import conll

        notes.extend(conll.losses(loaded.texts, sets, tokens=loaded.tokens,
                                  reader=loaded.format if read else None))
    elif writer_losses is not None and not single_tsv:  # a single PTC TSV holds no texts
        notes.extend(writer_losses(loaded.texts, sets))
    if to == "brat":
        spaced = sorted({sp.label for s in sets for _, spans in s for sp in spans
                         if " " in sp.label})
        if spaced:
            notes.append("note: brat's own tool does not accept labels with spaces, e.g. "
                         f"{spaced[0]!r}; SpanScope reads them back")
    return notes


@dataclass(frozen=True)
class LabelFile:
    """A ``--labels`` file: the label names, and for a doccano label config the names by
    numeric label id (``ids``; None for a plain list)."""

    names: list[str]
    ids: dict[int, str] | None = None


def read_label_list(path: str | Path | None) -> list[str] | None:
    """Read a label list (one per line, blank lines ignored, or a doccano label config: the
    names of its labels); None for no file."""
    return None if path is None else read_label_file(path).names


def read_label_file(path: str | Path) -> LabelFile:
    """Read a ``--labels`` file: a plain list, one label per line (blank lines ignored), or a
    doccano label config, the JSON list of ``{id, text, ...}`` objects that doccano's label
    page exports (also a JSON list of names). A config's ``text`` values are the names; its
    ``id`` values map doccano's numeric label ids to them (``ReadOptions.label_ids``). Entries
    with a ``task_type`` other than ``Span`` (categories, relation types) are left out.

    Read once per file version: the command line builds reader options many times.
    """
    p = Path(path)
    try:
        stat = p.stat()
    except OSError as exc:
        raise FormatError(str(p), f"cannot read the label list: {exc.strerror}") from None
    return _label_file(str(p), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _label_file(path: str, mtime_ns: int, size: int) -> LabelFile:
    from core.formats import decode

    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(path, f"cannot read the label list: {exc.strerror}") from None
    text = decode(path, raw)  # undecodable UTF-8 is a FormatError naming the byte
    if text.lstrip().startswith("["):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            value = None  # a plain list whose first label starts with "["
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return LabelFile([v.strip() for v in value if v.strip()])
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return _label_config(path, text, value)
    return LabelFile([line.strip() for line in text.splitlines() if line.strip()])


def _label_config(path: str, text: str, entries: list[dict[str, Any]]) -> LabelFile:
    """A doccano label config: names and names by id, each entry checked."""
    from core.formats._common import JsonLocator

    loc = JsonLocator(text)
    ids: dict[int, str] = {}
    names: list[str] = []
    for i, entry in enumerate(entries):
        task = entry.get("task_type")
        if task is not None and task != "Span":
            continue
        name, label_id = entry.get("text"), entry.get("id")
        if not isinstance(name, str) or not name.strip():
            raise FormatError(path, "expected a label name (a non-empty string) in a doccano "
                              f"label config, got {json.dumps(name)}", line=loc.line(i),
                              path=f"[{i}].text", field="text")
        if isinstance(label_id, bool) or not isinstance(label_id, int):
            raise FormatError(path, "expected a numeric label id in a doccano label config, "
                              f"got {json.dumps(label_id)}", line=loc.line(i), path=f"[{i}].id",
                              field="id")
        if label_id in ids:
            raise FormatError(path, f"label id {label_id} given twice ({ids[label_id]!r} and "
                              f"{name!r})", line=loc.line(i), path=f"[{i}].id", field="id")
        ids[label_id] = name
        if name not in names:
            names.append(name)
    if not ids:
        raise FormatError(path, "a doccano label config without span labels (every entry has "
                          "a task_type other than 'Span')", line=1)
    return LabelFile(names, ids)


def read_options_for_labels(labels_file: str | Path | None,
                            options: ReadOptions | None = None) -> ReadOptions:
    """``options`` with a ``--labels`` file's: its names are the allowed labels and, for a
    doccano label config, its ids map doccano's numeric label ids to names."""
    options = options or ReadOptions()
    if labels_file is None:
        return options
    found = read_label_file(labels_file)
    return replace(options, labels=found.names, label_ids=found.ids)


TASK_LISTS: dict[str, tuple[str, ...]] = {
    "semeval2021": ("semeval2021", "semeval2020-tc", "nlp4if2019"),
    "ptc": ("semeval2020-tc", "nlp4if2019", "semeval2021"),
}
"""The propaganda formats and the technique lists (``score --metric martino`` variants) of the
tasks whose files they hold, the format's own task first: SemEval-2021 Task 6 JSON, and PTC TSV
for SemEval-2020 Task 11 (14 techniques) and NLP4IF-2019 (18)."""


def _plain(label: str) -> str:
    """A label compared without case, underscores, hyphens or repeated spaces."""
    return " ".join(label.lower().replace("_", " ").replace("-", " ").split())


def task_labels(loaded: Loaded) -> tuple[str | None, str | None]:
    """The technique list of the file's own task, and the error for a label outside it.

    The file's task is the one whose list holds most of its labels (ties go to the format's own
    task). When at least half of the file's distinct labels are on that list, every other label
    is an error: a misspelling, or a label of another task. When fewer are, the file has its own
    label set and a label is an error only if it is a listed one written differently (case,
    ``_``, ``-``, spaces). The role a file plays never changes this, so ``validate`` accepts the
    same labels in a gold, a prediction or an annotator's file. Returns (list name or None,
    error or None); the error names the file only (:func:`validate` adds the line).
    """
    task, label = _refused_label(loaded)
    if label is None:
        return task, None
    assert task is not None
    return task, _task_label_error(label, task, loaded.source)


def _task_label_error(label: str, task: str, file: str, *, line: int | None = None,
                      field: str = "label", path: str | None = None) -> str:
    """The message for ``label`` outside ``task``'s technique list, at a place in ``file``."""
    from core.formats._common import check_label
    from core.model.techniques import official_list

    try:
        check_label(label, list(official_list(task)), file, field=field, line=line, path=path)
    except FormatError as exc:
        return (f"{exc} (the {task} technique list, of the task whose labels the file "
                "uses; pass --labels FILE to allow other labels)")
    raise AssertionError(f"{label!r} is on the {task} list")  # _refused_label never gives one


def _refused_label(loaded: Loaded) -> tuple[str | None, str | None]:
    """The technique list of the file's own task, and the first label it refuses (or None):
    the rule of :func:`task_labels`."""
    from core.model.techniques import official_list

    tasks = TASK_LISTS.get(loaded.format)
    if tasks is None:
        return None, None
    used = sorted({s.label for aset in loaded.sets for _, spans in aset for s in spans})
    if not used or all(label == "propaganda" for label in used):
        return None, None  # span identification (3-column PTC): no labels to check
    lists = {task: list(official_list(task)) for task in tasks}
    task = max(tasks, key=lambda t: sum(label in lists[t] for label in used))
    inside = sum(label in lists[task] for label in used)
    if 2 * inside < len(used):
        plain: dict[str, str] = {}
        for t in tasks:  # the format's own task first
            for x in lists[t]:
                plain.setdefault(_plain(x), t)
        misspelt = [label for label in used
                     if _plain(label) in plain and label not in lists[plain[_plain(label)]]]
        if not misspelt:
            return None, None
        task = plain[_plain(misspelt[0])]
        used = misspelt
    for label in used:
        if label not in lists[task]:
            return task, label
    return task, None


def _located_label_error(files: Mapping[str, bytes], loaded: Loaded, label: str,
                         options: ReadOptions) -> str:
    """The refusal of ``label`` by the file's own technique list, at the line, JSON path and
    field where the reader meets it first: the file is read again with every label it uses but
    that one allowed, so the reader's own label check stops there (a refused file only)."""
    task = _refused_label(loaded)[0]
    assert task is not None
    used = sorted({s.label for aset in loaded.sets for _, spans in aset for s in spans})
    try:
        load_files(files, fmt=loaded.format, name=loaded.source,
                   options=replace(options, labels=[x for x in used if x != label]))
    except FormatError as exc:
        where = exc.diagnostic
        if where.line is not None or where.path is not None:
            return _task_label_error(label, task, where.file, line=where.line,
                                     field=where.field or "label", path=where.path)
    return _task_label_error(label, task, loaded.source)


def validate(
    file: str | Path, *, fmt: str | None = None, labels_file: str | None = None,
    role: Role = "gold", beyond_text: Policy = "refuse", options: ReadOptions | None = None,
) -> dict[str, Any]:
    """Read ``file`` and summarise it: documents, spans, sets, errors and warnings.

    ``role`` is what the file holds (``gold``, ``system`` or ``annotator``): readers check a
    gold more strictly than predictions (MAFALDA predictions may say ``unknown``) and warn about
    duplicate predictions. Without ``labels_file`` the labels of a propaganda file are checked
    against the technique list of its own task, whatever the role (:func:`task_labels`; the
    list's name is ``technique_list``).

    A missing file or label list raises (the command line reports it and exits 1); a file that
    the reader refuses gives ``valid: False`` with the reader's message in ``errors``.
    ``options`` are the reader options that the other arguments leave alone (the command
    line's ``--layer`` ... ``--text-column``).
    """
    path = Path(file)
    if not path.exists():
        raise FormatError(str(path), "no such file or folder")
    label_file = read_label_file(labels_file) if labels_file is not None else None
    labels = label_file.names if label_file is not None else None
    result: dict[str, Any] = {
        "file": str(path), "format": fmt, "documents": 0, "spans": 0, "sets": {},
        "errors": [], "warnings": [], "valid": False, "technique_list": None,
    }
    files = read_folder(path) if path.is_dir() else read_file_with_companions(path)
    if not files:
        raise FormatError(str(path), "the folder holds no files")
    read = replace(options or ReadOptions(), labels=labels, role=role, beyond_text=beyond_text,
                   label_ids=label_file.ids if label_file else None)
    try:
        result["format"] = fmt or detect(files, source=str(path))
        # detected here: the reader is told so, as load_files tells it when it detects
        loaded = load_files(files, fmt=result["format"], name=str(path),
                            options=replace(read, detected=fmt is None))
    except SpanScopeError as exc:
        result["errors"].append(str(exc))
        return result
    result["format"] = loaded.format
    if labels is None:
        result["technique_list"], refused = _refused_label(loaded)
        if refused is not None:
            result["errors"].append(_located_label_error(files, loaded, refused, read))
            return result
    doc_ids = set(loaded.texts)
    for aset in loaded.sets:
        doc_ids.update(aset.spans)
        counts = Counter(s.label for _, spans in aset for s in spans)
        result["sets"][aset.name] = {
            "role": aset.role,
            "documents": len(aset.spans),
            "spans": aset.span_count(),
            "labels": dict(sorted(counts.items())),
        }
    result["documents"] = len(doc_ids)
    result["spans"] = sum(s.span_count() for s in loaded.sets)
    result["warnings"] = [str(d) for d in expand_diagnostics(loaded.diagnostics)]
    result["valid"] = True
    return result
