"""Label Studio exports (JSON, JSON-MIN, CSV, TSV): one set per annotator and per model.

The "JSON" export of Label Studio (documentation, "Export annotations": task format): a list of
tasks ``{id, data: {text}, annotations: [{completed_by, result: [...]}], predictions:
[{model_version, result: [...]}]}``; a span result is ``{"type": "labels", "value": {start, end,
text, labels: [...]}}``. Each annotator (``completed_by``) becomes an annotation set with role
``annotator`` and each model (``model_version``) a set with role ``system``. A set covers the
tasks its annotator or model worked on, so "did not annotate" stays distinct from "found
nothing". A result with several labels gives one span per label.

Skipped with a warning: cancelled annotations (``was_cancelled``) and results that are not span
labels (choices, relations, ...). Label Studio stores offsets as code points, Python's
characters; its exports made before it did (issue 1347, pull request 1559 of its tracker)
counted JavaScript string indices, UTF-16 code units, which differ after a character outside
the Basic Multilingual Plane (an emoji). Each span's ``value.text`` tells the unit: a file whose
spans find their text only in UTF-16 code units (or UTF-8 bytes) is converted, with one warning
(:mod:`core.model.units`).

The "JSON-MIN" export (Label Studio's converter, ``convert_to_json_min``) is read too: one
record per annotation, the task's data fields at the top level (``text``, ...), ``id`` (the
task), ``annotator``, ``annotation_id``, ``created_at``, ``updated_at``, ``lead_time``, and one
key per control tag (its ``from_name``) holding that annotation's values: for span labels a list
of ``{start, end, text, labels}``. Each annotator is a set, as in the full export; values that
are not spans (choices, text areas) are skipped with one warning per key. The export keeps no
predictions.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, NoReturn

from core.formats import Loaded, ReadOptions, decode
from core.formats._columns import SpanColumns, add_group, duplicates
from core.formats._common import (
    _SURROGATE_ESCAPE,
    DuplicateIds,
    JsonLocator,
    check_doc_id,
    check_label,
    csv_problem,
    json_path,
    lines_from,
    load_json,
    make_span,
    member_name,
    span_warnings,
)
from core.formats._sniff import LS_IMPORT_TASKS, head_of, json_head
from core.model import AnnotationSet, Role
from core.model.errors import Diagnostic, FormatError, Position
from core.model.textsafe import MAX_DIGITS, MAX_OFFSET_DIGITS, parse_json_float, parse_json_int

FORMAT = "label-studio"
_ANN = re.compile(r'"(annotations|completions|predictions)"\s*:')
_ENTRIES = (("annotations", "annotator"), ("completions", "annotator"), ("predictions", "system"))
"""A task's lists of annotations and their role. ``completions`` is Label Studio 0.x's name for
``annotations`` (its export before 1.0, and John Snow Labs' Annotation Lab's)."""


def sniff(filename: str, head: str) -> int:
    """Tasks with ``annotations`` or ``predictions`` and a ``data`` object: decided on the first
    tasks when the head holds them whole, else on the head's text; a CSV or TSV export by its
    header (:func:`table_header`)."""
    body = head.lstrip()
    if not body.startswith(("[", "{")):
        if "annotation_id" not in head or table_header(head) is None:
            return 0
        return 95 if filename.lower().endswith((".csv", ".tsv")) else 85
    found = json_head(head)
    # One record on the only line is a task file written without indentation (one task as a
    # script or the API writes it), not JSON Lines: Label Studio exports no JSON Lines.
    one_line_task = found.kind == "lines" and len(found.records) == 1
    if (found.kind in ("array", "object") or one_line_task) and found.records:
        task = found.records[0]
        if isinstance(task.get("data"), dict) and any(
                isinstance(task.get(key), list) for key, _ in _ENTRIES):
            return 95 if filename.lower().endswith(".json") else 80
        if found.kind == "array" and is_min_record(task):
            return 90
        return 0
    if found.records:
        return 0  # JSON Lines: not an export of Label Studio
    if _ANN.search(body) and '"data"' in body:
        return 95 if filename.lower().endswith(".json") else 80
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one Label Studio JSON export: one set per annotator and per model; or a Label
    Studio 0.x ``completions/`` folder, a task file each (:func:`_read_task_files`)."""
    if len(files) != 1:
        return _read_task_files(files, name, options)
    (data,) = files.values()
    return _read_file(name, data, options, {})


def _is_task_file(data: bytes) -> bool:
    """Is ``data`` one task object, as Label Studio 0.x writes each into completions/? (Parsed
    whole: a pretty-printed task file is longer than a head; such files are small.)"""
    try:
        task = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(task, dict) and isinstance(task.get("data"), dict) and any(
        isinstance(task.get(key), list) for key, _ in _ENTRIES)


def _parent(path: str) -> str:
    """The folder of a file of the input (``""`` at its top)."""
    return path.rpartition("/")[0]


def _refuse_other_json(file: str, data: bytes, others: int) -> NoReturn:
    """Refuse ``file``, a ``.json`` file beside ``others`` task files of a completions/ folder
    that is no task file: a JSON error with its line, else what a task file holds."""
    value = load_json(file, decode(file, data))
    got = (f"a JSON {type(value).__name__}" if not isinstance(value, dict)
           else "a JSON object without them")
    raise FormatError(file, f"expected a task object of Label Studio 0.x, as the folder's other "
                      f"{others} .json file{'s are' if others > 1 else ' is'} "
                      "({\"completions\": [...], \"data\": {...}, \"id\": N}); got " + got)


def _natural(path: str) -> tuple[object, ...]:
    """``completions/2.json`` before ``completions/10.json``."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path))


def _read_task_files(files: Mapping[str, bytes], name: str, options: ReadOptions) -> Loaded:
    """Label Studio 0.x's project storage: a ``completions/`` folder holding one task object
    per file (``{"completions": [...], "data": {...}, "id": N}``), read as one export whose
    tasks are its files: a document per task, a set per annotator. An error names its file;
    the text key is found once for the folder and said once; a task id in two files is
    refused naming both; a .json file beside the task files that is none (cut short, other JSON)
    is refused naming it. A folder holding any other JSON file is refused saying what to read."""
    tasks = {p: d for p, d in files.items() if p.lower().endswith(".json")}
    kinds = {p: _is_task_file(d) for p, d in tasks.items()}
    folders = {_parent(p) for p, task in kinds.items() if task}
    # a .json file beside the task files that is none: a damaged one, named (review19)
    for path in sorted((p for p, task in kinds.items() if not task and _parent(p) in folders),
                       key=_natural):
        _refuse_other_json(member_name(name, path), tasks[path], sum(kinds.values()))
    if not tasks or not all(kinds.values()):
        raise FormatError(name, f"expected one JSON file, got a folder of {len(files)} files; "
                          "Label Studio exports a project as one file (Export, then JSON, "
                          "JSON-MIN, CSV or TSV): read that file, or one of them (Label Studio "
                          "0.x keeps each task in a file of its project's completions/ folder: "
                          "read that folder)")
    loaded = Loaded(FORMAT, name)
    for path in sorted(set(files) - set(tasks)):
        loaded.warn(f"{path}: not a Label Studio task file (.json); ignored", kind="ignored")
    text_keys: dict[str, object] = {}
    per_set: dict[str, SpanColumns] = {}
    roles: dict[str, Role] = {}
    task_file: dict[str, str] = {}
    for path in sorted(tasks, key=_natural):
        file = member_name(name, path)
        one = _read_file(file, tasks[path], options, text_keys)
        for doc_id, text in one.texts.items():
            if doc_id in task_file:
                raise FormatError(file, f"task id {doc_id!r} again (first in "
                                  f"{task_file[doc_id]}): a task is one file of completions/; "
                                  "remove the copy", field="id")
            task_file[doc_id] = file
            loaded.texts[doc_id] = text
        for aset in one.sets:
            roles.setdefault(aset.name, aset.role)
            columns = per_set.setdefault(aset.name, SpanColumns())
            for doc_id, spans in aset.spans.items():
                index = columns.document(doc_id)
                for span in spans:
                    columns.add(index, span.start, span.end, span.label)
        loaded.diagnostics.extend(_once_for_folder(d, len(tasks)) for d in one.diagnostics)
    for set_name, columns in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, columns.spans(), roles[set_name]))
    return loaded


_ONCE_KINDS = ("text-field", "media-path", "missing-texts")
"""The warnings said once per file (per key) by the record of keys said, which the files of a
completions/ folder share (:func:`_task_text`): once for the folder."""


def _once_for_folder(d: Diagnostic, files: int) -> Diagnostic:
    """``d`` as a completions/ folder of ``files`` task files says it: a warning of
    :data:`_ONCE_KINDS` says it is said once for all of them, not once per file."""
    if d.kind not in _ONCE_KINDS:
        return d
    folder = f"said once for all {files} task files"
    return dataclasses.replace(d, message=d.message.replace(
        "said once per file and key", folder).replace("said once per file", folder))


def _read_file(file: str, data: bytes, options: ReadOptions, text_keys: dict[str, object]
               ) -> Loaded:
    """Read one export file; ``text_keys``: the data keys read as the text so far (shared by
    the files of a completions/ folder)."""
    content = decode(file, data)
    if content.lstrip()[:1] not in ("[", "{"):
        return _read_table(file, content, options)
    first = json_head(head_of(data)).first
    is_min = first is not None and is_min_record(first)
    if _streamable(content):
        # A list of tasks (or of JSON-MIN records) is decoded one element at a time (the
        # whole tree of a large export is most of its memory, and the elements' offsets
        # found on the way spare the line numbers a second decoding); a malformed file is
        # reported as decoding it whole reports it, before any invalid task.
        starts: list[int] = []
        try:
            if is_min:
                return _read_min(file, content, _each_task(content, starts), options, starts)
            return _read_tasks(file, content, _each_task(content, starts), options, starts,
                                   text_keys=text_keys)
        except _Malformed:
            load_json(file, content)  # raises the whole-file message
        except FormatError:
            load_json(file, content)
            raise
    if is_min:
        records = load_json(file, content)
        if isinstance(records, list):
            return _read_min(file, content, enumerate(records), options)
    value = _load_export(file, content)
    if isinstance(value, dict):
        value = [value]  # a single exported task
    if not isinstance(value, list):
        raise FormatError(file, "expected a JSON list of tasks", line=1)
    if value and is_min_record(value[0]):
        return _read_min(file, content, enumerate(value), options)
    return _read_tasks(file, content, enumerate(value), options, text_keys=text_keys)


def _load_export(file: str, content: str) -> Any:
    """The file's one JSON value; a second value after a task object on its first line is
    JSON Lines, which Label Studio never exports: the error says so and what to give."""
    try:
        return load_json(file, content)
    except FormatError as exc:
        if not (exc.diagnostic.message.endswith("Extra data")
                and content.lstrip().startswith("{")):
            raise
        raise FormatError(file, "a second JSON value after the first task: this is JSON Lines "
                          "(one task per line), which Label Studio does not export; read the "
                          "project's export (Export, then JSON), or put the tasks in one JSON "
                          "list", line=exc.line) from None


MIN_META = ("id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time",
            "agreement")
"""The keys a JSON-MIN record adds to the task's data fields and control tags."""
_MIN_META = frozenset(MIN_META)


def is_min_record(record: object) -> bool:
    """Whether ``record`` is a record of Label Studio's JSON-MIN export: an annotation's
    ``annotation_id`` and ``annotator`` beside the task's fields, no ``annotations`` list."""
    return (isinstance(record, dict) and "annotation_id" in record and "annotator" in record
            and "annotations" not in record and "data" not in record)


def _read_min(file: str, content: str, records: Iterable[tuple[int, Any]],
              options: ReadOptions, starts: list[int] | None = None) -> Loaded:
    """Read a JSON-MIN export: one set per annotator, one document per task ``id``.
    ``starts``: the records' offsets, complete once ``records`` (:func:`_each_task`) is."""
    loc = JsonLocator(content)
    loaded = Loaded(FORMAT, file)
    with lines_from(loc, loaded):
        found = _min_sets(file, records, options, loaded, _json_place)
        if starts is not None:
            loc.items_found(starts)
    _add_min_sets(file, loaded, *found)
    return loaded


Place = Callable[..., dict[str, Any]]
"""Where a part of a record is, as the keywords of :class:`FormatError` and ``warn``:
``place(i, *parts)`` for the record at index ``i`` (JSON-MIN: a JSON path; CSV: its line,
and inside a cell's JSON the column and index as the path)."""


def _json_place(i: int, *parts: str | int) -> dict[str, Any]:
    return {"path": json_path(i, *parts)}


_Skipped = dict[str, tuple[int, dict[str, Any]]]
"""Per key of a record whose values are no spans: how many records have it, and the first
one's place."""


def _min_sets(file: str, records: Iterable[tuple[int, Any]], options: ReadOptions,
              loaded: Loaded, place: Place, text_key: str | None = None
              ) -> tuple[dict[str, SpanColumns], _Skipped]:
    """The sets of JSON-MIN records (or CSV rows read as such), one per annotator, with one
    document per task (``doc_id`` when the task data has one, as in the full export, else the
    task ``id``); the texts and warnings go to ``loaded``, the sets to
    :func:`_add_min_sets`. ``text_key``: the field that holds the text, when the user named
    it; else as :func:`_task_text` finds it."""
    per_set: dict[str, SpanColumns] = {}
    origin: dict[tuple[str, str], int] = {}
    skipped: _Skipped = {}
    text_keys: dict[str, object] = {}
    choices: dict[str, None] | None = {}  # result keys while no span is found; then None
    for i, record in records:
        doc_id, spans_by_key, task = _min_task(record, i, file, skipped, place)
        if choices is not None:
            if spans_by_key:
                choices = None
            else:
                choices.update(dict.fromkeys(task.get(_MIN_RESULTS, ())))
        text = _task_text(task, file, i, loaded, text_keys, data_path=(), place=place,
                          text_key=text_key)
        if text is None and options.gold_texts is not None:
            text = options.gold_texts.get(doc_id)
        if doc_id in loaded.texts and loaded.texts[doc_id] != text:
            raise FormatError(file, f"task {doc_id!r} has another text than in an earlier "
                              "record", **place(i))
        loaded.texts[doc_id] = text
        who = record["annotator"]
        if who in (None, "") and record["annotation_id"] in (None, ""):
            continue  # the row the converter writes for a task nobody annotated: its text only
        set_name = f"annotator {who}" if who not in (None, "") else "annotator"
        if (set_name, doc_id) in origin:
            first, here = place(origin[(set_name, doc_id)]), place(i)
            where = (f"lines {first['line']} and {here['line']}" if "line" in here
                     else f"{first['path']} and {here['path']}")
            raise FormatError(file, f"{set_name} has two records for task {doc_id!r}: "
                              f"{where}; keep one", **here)
        origin[(set_name, doc_id)] = i
        columns = per_set.setdefault(set_name, SpanColumns())
        index = columns.document(doc_id)
        doc_spans: list[tuple[int, int, str]] = []
        for key, values in spans_by_key.items():
            for j, value in enumerate(values):
                plain = _plain_spans(value, text, options.labels)
                doc_spans.extend(_span_value(value, file, place(i, key, j), text, options,
                                             loaded) if plain is None else plain)
        for s, e, lab in duplicates(doc_spans):
            loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept",
                        **place(i), kind="duplicate-span")
        for s, e, lab in doc_spans:
            columns.add(index, s, e, lab)
    if choices is not None and per_set:
        _no_spans(loaded, [*choices, *(k for k in skipped if k not in choices)], text_keys,
                  text_key)
    return per_set, skipped


def _no_spans(loaded: Loaded, choices: list[str], text_keys: Mapping[str, object],
              text_key: str | None) -> None:
    """The warning of an export whose records hold no span (``labels``) result."""
    used = text_key or next((k for k in text_keys if k and not k.startswith("\0")), None)
    text = (f"; the text is the field {used!r}" if used
            else "; the texts are the tasks' 'text' (or only string)"
            if any(t is not None for t in loaded.texts.values()) else "; no text was read")
    shown = ", ".join(repr(k) for k in choices[:8]) + (", ..." if len(choices) > 8 else "")
    kinds = ("image/audio/video regions or classifications" if _REGION_TYPES.intersection(choices)
             else "choices or other classifications")
    loaded.warn("the export holds no span (labels) results, so 0 spans are read"
                + (f": only {kinds} ({shown})" if choices else "")
                + text + " (SpanScope measures spans: export a project with a Labels tag)",
                kind="no-spans")


def _add_min_sets(file: str, loaded: Loaded, per_set: dict[str, SpanColumns],
                  skipped: _Skipped) -> None:
    for key, (count, first) in skipped.items():
        loaded.warn(f"{key!r} holds values that are not span labels (choices, relations, ...) "
                    f"in {count} records; skipped", **{"field": key, **first}, kind="skipped")
    if not per_set:
        raise FormatError(file, "no annotation records")
    for set_name, columns in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, columns.spans(), "annotator"))
        loaded.named_sets.add(set_name)


_MIN_RESULTS = "\x00results"
"""The key of a JSON-MIN record's task (:func:`_min_task`) that lists its string results."""


def _min_task(record: object, i: int, file: str, skipped: _Skipped, place: Place
              ) -> tuple[str, dict[str, list[Any]], dict[str, Any]]:
    """One JSON-MIN record checked: its task id, its span lists by key, and the record as a
    task of the full export (its string fields as ``data``, its spans as one annotation).
    Lists and objects that hold no spans (choices, relations) are counted in ``skipped``."""
    if not isinstance(record, dict) or not is_min_record(record):
        raise FormatError(file, "expected a JSON-MIN record (a task's fields with "
                          "'annotation_id' and 'annotator')", **place(i))
    named = record.get("doc_id")
    if isinstance(named, (str, int)) and not isinstance(named, bool) and named != "":
        doc_id, _ = check_doc_id(named, file, field="doc_id", **place(i, "doc_id"))
    elif "id" not in record:
        raise FormatError(file, "missing (a record needs its task's 'id')", field="id",
                          **place(i))
    else:
        doc_id, _ = check_doc_id(record["id"], file, **place(i, "id"))
    spans_by_key: dict[str, list[Any]] = {}
    data: dict[str, str] = {}
    results: list[str] = []  # strings after the task id: single choices, not task data
    after_id = False
    for key, value in record.items():
        if key in _MIN_META:
            after_id = after_id or key == "id"
            continue
        if isinstance(value, list) and value and all(
                isinstance(x, dict) and ("start" in x or "end" in x) for x in value):
            spans_by_key[key] = value
        elif isinstance(value, (list, dict)):  # a control tag's values that are no spans
            seen = skipped.get(key)
            skipped[key] = (1, place(i, key)) if seen is None else (seen[0] + 1, seen[1])
        elif isinstance(value, str):
            data[key] = value
            if after_id:
                results.append(key)
    task: dict[str, Any] = {"data": data}
    if results:
        # The converter writes the task's data, then its id, then each control tag's result
        # (a single choice as a string): :func:`_task_text` does not offer them as the text.
        task[_MIN_RESULTS] = results
    if not isinstance(data.get("text"), str):  # :func:`_task_text` may need them
        task["annotations"] = [{"result": [{"value": x} for v in spans_by_key.values()
                                           for x in v]}]
    return doc_id, spans_by_key, task


TABLE_COLUMNS = ("annotation_id", "annotator")
"""The columns that Label Studio's CSV and TSV exports always have and that mark one (with
``created_at``, ``updated_at`` and ``lead_time``, which a file may drop)."""


def table_header(head: str) -> tuple[list[str], str] | None:
    """The column names of a CSV or TSV export of Label Studio and its delimiter (a tab when
    the first line has one, else a comma), or None when the first line (at most 4,096
    characters) does not name :data:`TABLE_COLUMNS`.

    >>> table_header('"annotation_id","annotator","id","label","text"\\n1,"2",3,"[]","a"\\n')
    (['annotation_id', 'annotator', 'id', 'label', 'text'], ',')
    """
    first = head.lstrip()[:4097].split("\n", 1)[0].rstrip("\r")
    if len(first) > 4096:
        return None
    delimiter = "\t" if "\t" in first else ","
    try:
        (names,) = csv.reader([first], delimiter=delimiter)
    except (csv.Error, ValueError):
        return None
    names = [n.strip() for n in names]
    return (names, delimiter) if all(c in names for c in TABLE_COLUMNS) else None


def _read_table(file: str, content: str, options: ReadOptions) -> Loaded:
    """Read a CSV or TSV export (Label Studio's converter, ``exports/csv2.py``): a header of
    sorted column names, then one row per annotation with the task's data fields, ``id`` (the
    task), :data:`MIN_META`, and per control tag a cell holding that annotation's values as
    JSON (for span labels a list of ``{start, end, text, labels}``); strings are quoted,
    numbers not. Each row is read as the JSON-MIN record it would be (:func:`_min_sets`,
    :func:`_cell`). A cell of span values that does not parse is an error naming its line
    and column. ``--text-column N`` (``ReadOptions.text_column``) names the column of the text;
    without it the text is found as in JSON-MIN (:func:`_task_text`)."""
    found = table_header(content)
    rows = csv.reader(io.StringIO(content, newline=""),
                      delimiter=found[1] if found else ("\t" if "\t" in content.split(
                          "\n", 1)[0] else ","))
    try:
        header = [n.strip() for n in next(rows, [])]
    except csv.Error as exc:
        raise FormatError(file, csv_problem(exc), line=1) from None
    for column in (*TABLE_COLUMNS, "id"):
        if column not in header and not (column == "id" and "doc_id" in header):
            raise FormatError(file, f"missing column {column!r}: a CSV or TSV export of Label "
                              "Studio names 'annotation_id', 'annotator' and 'id' (the task) "
                              "in its first line", line=1, field=column)
    twice = [n for i, n in enumerate(header) if n in header[:i]]
    if twice:
        raise FormatError(file, f"the header names column {twice[0]!r} twice", line=1,
                          field=twice[0])
    text_key = None
    if options.text_column is not None:
        if options.text_column > len(header):
            raise FormatError(file, f"--text-column {options.text_column}: the header has "
                              f"{len(header)} columns", line=1)
        text_key = header[options.text_column - 1]
    lines: list[int] = []

    decoder = _HOOKED if _long_digit_run(content) else _PLAIN

    def records() -> Iterator[tuple[int, dict[str, Any]]]:
        end = rows.line_num
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except csv.Error as exc:
                raise FormatError(file, csv_problem(exc), line=end + 1) from None
            start, end = end + 1, rows.line_num
            if not any(cell.strip() for cell in row):
                continue  # a blank line (a converter run on Windows writes one per row)
            if len(row) != len(header):
                raise FormatError(file, f"expected {len(header)} cells as in the header, got "
                                  f"{len(row)}", line=start)
            lines.append(start)
            # An empty cell is a key the JSON-MIN record lacks (the converter fills them in)
            record: dict[str, Any] = dict.fromkeys(TABLE_COLUMNS)
            record.update((name, _cell(cell, file, start, name, decoder))
                          for name, cell in zip(header, row, strict=True) if cell != "")
            yield len(lines) - 1, record

    def place(i: int, *parts: str | int) -> dict[str, Any]:
        # a column alone is the message's field already: a path only inside a cell's JSON
        return {"line": lines[i], "path": json_path(*parts) if len(parts) > 1 else None}

    loaded = Loaded(FORMAT, file)
    found_sets = _min_sets(file, records(), options, loaded, place, text_key)
    _add_min_sets(file, loaded, *found_sets)
    return loaded


def _cell(cell: str, file: str, line: int, column: str,
          decoder: json.JSONDecoder | None = None) -> Any:
    """A CSV cell as the JSON-MIN value it stands for: a control tag's values (a JSON list of
    objects, or one object: the converter writes a choice of several so) as that value, any
    other cell as its string (a data field may hold ``[]`` or a list of words, which JSON-MIN
    gives as a string too). A cell that looks like span values (``[{`` and a ``"start"``)
    but does not parse is refused. ``decoder``: the hooks' (the default) or, for a file
    without a long run of digits (:func:`_long_digit_run`), the plain one."""
    body = cell.strip()
    if not body.startswith(("[{", "{")):
        return cell
    try:
        value = (decoder or _HOOKED).decode(body)
    except (ValueError, RecursionError) as exc:
        if '"start"' in body:
            raise FormatError(file, f"expected the JSON list of a control tag's values "
                              f"({{start, end, text, labels}}), got a cell that does not "
                              f"parse: {str(exc)[:100]}", line=line, field=column) from None
        return cell
    if isinstance(value, dict) or (isinstance(value, list)
                                   and all(isinstance(x, dict) for x in value)):
        return value
    return cell


class _Malformed(Exception):
    """The task-by-task decoding met something that is not a well-formed list."""


_HOOKED = json.JSONDecoder(parse_int=parse_json_int, parse_float=parse_json_float)
_PLAIN = json.JSONDecoder()
_RUN = MAX_DIGITS // 2


def _long_digit_run(content: str) -> bool:
    """Whether ``content`` may hold a number of more than ``MAX_DIGITS`` digits, which the
    hooks of :func:`~core.formats._common.load_json` keep as its text: a run of
    ``MAX_DIGITS + 1`` digits covers one of the aligned blocks of ``MAX_DIGITS // 2``
    characters whole, so a file none of whose blocks is all digits has no such number (nor a
    float written with more than ``4 * MAX_DIGITS`` characters, whose three digit runs would be
    that long), and the standard decoder without hooks, a third faster on numbers, gives the
    same values (the blocks cost 4 ms on 26 MiB)."""
    return any(content[k:k + _RUN].isdigit() for k in range(0, len(content), _RUN))


_WS = " \t\n\r"


def _streamable(content: str) -> bool:
    return content.lstrip(_WS)[:1] == "[" and _SURROGATE_ESCAPE.search(content) is None


def _each_task(content: str, starts: list[int]) -> Iterator[tuple[int, Any]]:
    """The elements of a top-level JSON list, decoded one at a time as
    :func:`~core.formats._common.load_json` decodes them (numbers too long to convert kept as
    such); each one's offset is appended to ``starts`` (:meth:`JsonLocator.items_found`)."""
    decoder = _HOOKED if _long_digit_run(content) else _PLAIN
    n = len(content)

    def skip(i: int) -> int:
        while i < n and content[i] in _WS:
            i += 1
        return i

    i = skip(skip(0) + 1)
    if i < n and content[i] == "]":
        if skip(i + 1) != n:
            raise _Malformed
        return
    k = 0
    while True:
        try:
            value, end = decoder.raw_decode(content, i)
        except (ValueError, RecursionError):
            raise _Malformed from None
        starts.append(i)
        yield k, value
        k += 1
        i = skip(end)
        if i < n and content[i] == ",":
            i = skip(i + 1)
            continue
        if i < n and content[i] == "]" and skip(i + 1) == n:
            return
        raise _Malformed


def _read_tasks(file: str, content: str, tasks: Iterable[tuple[int, Any]],
                options: ReadOptions, starts: list[int] | None = None, *,
                text_keys: dict[str, object] | None = None) -> Loaded:
    """Read a list of tasks; ``starts``: their offsets, complete once ``tasks``
    (:func:`_each_task`) is; ``text_keys``: the data keys read as the text so far."""
    loc = JsonLocator(content)
    loaded = Loaded(FORMAT, file)
    dup = DuplicateIds(file, "task id")
    per_set: dict[str, SpanColumns] = {}
    roles: dict[str, Role] = {}
    origin: dict[tuple[str, str], str] = {}
    if text_keys is None:
        text_keys = {}  # data keys read as the text, for one warning per file
    skipped: dict[str, list[tuple[Position, str]]] = {}  # kind of result -> where
    by_id = _PredictionIds()
    with lines_from(loc, loaded):
        for i, task in tasks:
            if not isinstance(task, dict):
                raise FormatError(file, "expected a task object", path=json_path(i))
            doc_id = _task_id(task, file, i)
            dup.add(doc_id, json_path(i), path=json_path(i))
            text = _task_text(task, file, i, loaded, text_keys)
            if text is None and options.gold_texts is not None:
                text = options.gold_texts.get(doc_id)
            loaded.texts[doc_id] = text
            for key, role in _ENTRIES:
                entries = task.get(key, [])
                if not isinstance(entries, list):
                    raise FormatError(file, "expected a list", path=json_path(i, key), field=key)
                if key == "predictions":
                    entries = by_id.resolve(task, i, entries)
                for k, entry in enumerate(entries):
                    at: tuple[str | int, ...] = (i, key, k)
                    if isinstance(entry, tuple):  # (where, the object an annotation embeds)
                        at, entry = entry
                    elif isinstance(entry, int) and not isinstance(entry, bool):
                        continue  # a prediction's id: counted by by_id, warned below
                    if not isinstance(entry, dict):
                        raise FormatError(file, "expected an object", path=json_path(*at))
                    if entry.get("was_cancelled"):
                        loaded.warn("a cancelled annotation; skipped", path=json_path(*at),
                                    kind="skipped")
                        continue
                    set_name = _owner(entry, key)
                    roles.setdefault(set_name, role)  # type: ignore[arg-type]
                    if (set_name, doc_id) in origin:
                        raise FormatError(
                            file, f"{set_name} has two {key} for task {doc_id!r}: "
                            f"{origin[(set_name, doc_id)]} and {json_path(*at)}; keep one",
                            path=json_path(*at),
                        )
                    origin[(set_name, doc_id)] = json_path(*at)
                    columns = per_set.setdefault(set_name, SpanColumns())
                    index = columns.document(doc_id)
                    doc_spans = _results(entry, file, at, text, options, loaded, skipped)
                    for s, e, lab in duplicates(doc_spans):
                        loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept",
                                    path=json_path(*at), kind="duplicate-span")
                    for s, e, lab in doc_spans:
                        columns.add(index, s, e, lab)
        if starts is not None:
            loc.items_found(starts)
        by_id.warn(loaded)
        # Relations, choices, ... can be most of an export: one grouped warning per kind
        # (each result listed with --all-warnings), not one line each.
        group = object()  # one pass over the file: its groups are listed interleaved
        for kind, found in skipped.items():
            add_group(loaded, group, len(found),
                      partial(_skipped_results, file, kind, found, loc))
    if not per_set:
        raise FormatError(file, "no annotations or predictions in any task")
    for set_name, columns in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, columns.spans(), roles[set_name]))
        loaded.named_sets.add(set_name)
    if skipped and not any(spans for aset in loaded.sets for spans in aset.spans.values()):
        # An image, audio or classification project: say once why nothing was read, as the
        # JSON-MIN reader does, besides the results skipped one by one; first, so that the
        # first warnings a command lists say it.
        _no_spans(loaded, list(skipped), text_keys, None)
        loaded.diagnostics.insert(0, loaded.diagnostics.pop())
    return loaded


class _PredictionIds:
    """The predictions a task lists by their ids, not as objects: Label Studio's JSON export
    writes ``"predictions": [11]`` for a project with pre-annotations (Label Studio issues
    #5654 and #9687). The body of such a prediction is in the file only where an annotation
    embeds it: ``annotations[].prediction`` is, in Label Studio's words, the prediction viewed
    at the time of annotation (its webhook and model documentation), with its ``id``,
    ``model_version`` and ``result``. Those are read as the model's set (once per task and
    prediction id, however many annotators saw it); an embedded prediction whose id the task
    does not list (one since replaced or deleted) is not the task's prediction and is not
    read: it and an embedded prediction of a task that lists none (an empty or missing
    ``predictions``) are counted for one warning per file, as are the ids left without a body.
    An embedded copy of a prediction the task lists as an object is that object, read once."""

    def __init__(self) -> None:
        self.ids = 0  # prediction entries that are ids
        self.embedded = 0  # of them, read from an annotation's embedded prediction
        self.first: tuple[int, str] | None = None  # (task index, JSON path) of the first id
        self.unlisted = 0  # embedded predictions the task does not list, not read
        self.first_unlisted: str | None = None  # the JSON path of the first

    def resolve(self, task: Mapping[str, Any], i: int, entries: list[Any]) -> list[Any]:
        """``entries`` with each prediction id that an annotation of the task embeds replaced
        by ``(path, object)``; the other ids stay (the reader skips them)."""
        ids = [e for e in entries if isinstance(e, int) and not isinstance(e, bool)]
        if ids:
            self.ids += len(ids)
            if self.first is None:
                k = next(k for k, e in enumerate(entries) if isinstance(e, int)
                         and not isinstance(e, bool))
                self.first = (i, json_path(i, "predictions", k))
        objects = {e.get("id") for e in entries if isinstance(e, dict)}
        bodies: dict[int, tuple[tuple[str | int, ...], dict[str, Any]]] = {}
        unlisted: set[object] = set()
        annotations = task.get("annotations")
        for k, entry in enumerate(annotations if isinstance(annotations, list) else ()):
            body = entry.get("prediction") if isinstance(entry, dict) else None
            if not isinstance(body, dict) or not isinstance(body.get("result"), list):
                continue
            pid = body.get("id")
            if isinstance(pid, int) and pid in ids:
                bodies.setdefault(pid, ((i, "annotations", k, "prediction"), body))
            elif (pid not in objects or pid is None) and repr(pid) not in unlisted:
                unlisted.add(repr(pid))  # seen by several annotators: one prediction
                self.unlisted += 1
                if self.first_unlisted is None:
                    self.first_unlisted = json_path(i, "annotations", k, "prediction")
        self.embedded += len(bodies)
        if not ids:
            return entries
        return [bodies.get(e, e) if isinstance(e, int) and not isinstance(e, bool) else e
                for e in entries]

    def warn(self, loaded: Loaded) -> None:
        """One warning per file (its place: the first id) counting the ids and what was read,
        and one (its place: the first) counting the embedded predictions not read."""
        if self.ids and self.first is not None:
            path = self.first[1]
            left = self.ids - self.embedded
            read = (f"{self.embedded} of them read from the prediction an annotation embeds "
                    "(annotations[].prediction, the prediction its annotator saw)"
                    + (f"; the other {left} have no spans in the file, skipped" if left else "")
                    if self.embedded else "their spans are not in the file, skipped")
            loaded.warn(("1 prediction is an id" if self.ids == 1 else
                         f"{self.ids} predictions are ids")
                        + ", not objects (Label Studio's JSON export lists a task's "
                        f"predictions by id): {read}", path=path, field="predictions",
                        kind="prediction-ids")
        if self.unlisted and self.first_unlisted is not None:
            many = self.unlisted != 1
            loaded.warn((f"{self.unlisted} predictions" if many else "1 prediction")
                        + " an annotation embeds (annotations[].prediction, the prediction "
                        "its annotator saw) " + ("are" if many else "is") + " not among its "
                        "task's predictions (replaced or deleted since): "
                        + ("their" if many else "its") + " spans are not read",
                        path=self.first_unlisted, field="prediction", kind="prediction-ids")


def _task_id(task: Mapping[str, Any], file: str, i: int) -> str:
    # A "doc_id" in the task data names the document; Label Studio's own task id otherwise.
    data = task.get("data")
    if isinstance(data, dict) and "doc_id" in data:
        doc_id, _ = check_doc_id(data["doc_id"], file, field="doc_id",
                                 path=json_path(i, "data", "doc_id"))
        return doc_id
    if "id" not in task:
        imported = set(task) == {"data"}  # no annotations either: a file to import
        raise FormatError(file, "missing (a task needs an 'id' or data.doc_id)"
                          + (f"; {LS_IMPORT_TASKS}" if imported else ""),
                          path=json_path(i), field="id")
    doc_id, _ = check_doc_id(task["id"], file, path=json_path(i, "id"))
    return doc_id


def _task_text(task: Mapping[str, Any], file: str, i: int, loaded: Loaded,
               seen: dict[str, object], data_path: tuple[str, ...] = ("data",),
               place: Place = _json_place, text_key: str | None = None) -> str | None:
    """The task's text: ``data[text_key]`` when the user named the key, else ``data.text``,
    else the only string of ``data``, else the string of ``data`` that the spans'
    ``value.text`` fragments match (a labeling config may name any data key, e.g.
    ``$about_origin``; a task without spans takes the key found for the tasks before it); a
    warning names the key used, once per file, or says that no text could be told apart."""
    data = task.get("data")
    if data is None:
        return None
    if not isinstance(data, dict):
        raise FormatError(file, "expected an object", field="data", **place(i, "data"))
    if text_key is not None:
        return str(data[text_key]) if isinstance(data.get(text_key), str) else None
    if isinstance(data.get("text"), str):
        return str(data["text"])
    strings = _text_candidates(task, data, i, loaded, seen, data_path, place)
    if len(strings) <= 1:
        return next(iter(strings.values()), None)
    fragments = list(_fragments(task))
    earlier = [k for k in seen if k in strings]
    if not fragments and len(earlier) == 1:
        return strings[earlier[0]]  # a task without spans: the key the file's other tasks use
    matches = {k: sum(v[s:e] == frag for s, e, frag in fragments) for k, v in strings.items()}
    best = max(matches.values(), default=0)
    chosen = [k for k, n in matches.items() if n == best]
    if best and len(chosen) == 1:
        key = chosen[0]
        if key not in seen:
            seen[key] = True
            loaded.warn(f"data has no 'text'; {key!r} is read as the text (of its "
                        f"{len(strings)} strings, the one the spans' text fragments match: "
                        f"{best} of {len(fragments)}; said once per file and key)",
                        field=key, **place(i, *data_path, key), kind="text-field")
        return strings[key]
    tied = [k for k in chosen if k in seen] if best else []
    if len(tied) == 1:
        # Both strings hold the fragments (a product name inside its description): the key
        # the tasks before this one were read by, as for a task without spans
        return strings[tied[0]]
    if "" not in seen:
        seen[""] = True
        _warn_no_text(task, strings, bool(fragments), i, loaded, data_path, place)
    return None


def _warn_no_text(task: Mapping[str, Any], strings: Mapping[str, str], fragments: bool, i: int,
                  loaded: Loaded, data_path: tuple[str, ...], place: Place) -> None:
    """Say that the task's several strings could not be told apart as its text (once per file:
    :func:`_task_text`), naming them, the results among them (JSON-MIN) and why."""
    results = task.get(_MIN_RESULTS, ())
    names = ", ".join(repr(k) for k in [k for k in strings if k not in results][:6])
    why = "no span gives its text" if not fragments else "the spans' text fragments " \
        "do not tell them apart"
    if results:  # JSON-MIN: a single choice is a string too
        names = (f"that could be the text: {names or 'none'}; besides the results "
                 f"{', '.join(repr(k) for k in results[:6])}")
    loaded.warn(f"data has no 'text' and several strings ({names}); {why}, so the task "
                "has no text (said once per file)", **place(i, *data_path),
                field=data_path[0] if data_path else None, kind="missing-texts")


_MEDIA = re.compile(
    r"(?:^/data/(?:upload|local-files)/|^(?:https?|s3|gs|azure-blob)://\S+"
    r"\.(?:png|jpe?g|gif|bmp|tiff?|webp|svg|mp3|wav|flac|ogg|opus|m4a|aac|mp4|m4v|avi|mov|"
    r"webm|mkv|pdf)(?:[?#]\S*)?$)", re.IGNORECASE)


_MEDIA_FILE = re.compile(
    r"(?:[^\s/\\]*[/\\])+[^/\\\n]+\.(?:png|jpe?g|gif|bmp|tiff?|webp|svg|mp3|wav|flac|ogg|opus|"
    r"m4a|aac|mp4|m4v|avi|mov|webm|mkv|pdf)", re.IGNORECASE)
"""A relative path to a media file, as a task imported from a folder names it
(``dataset_yolo/images/train/download (1).jpg``): folders without white space, then a file
name, which may hold spaces, with a media suffix."""


def is_media_reference(value: str) -> bool:
    """Whether a task's data string is where Label Studio finds an image, audio or video (an
    upload path ``/data/upload/29/example.png``, a local-files path, a URL of a media file, or
    a relative path to one), which is not the text of a text task: an image or audio task has
    no text."""
    if _MEDIA_FILE.fullmatch(value) is not None:
        return True
    return not any(c.isspace() for c in value) and _MEDIA.search(value) is not None


def _text_candidates(task: Mapping[str, Any], data: Mapping[str, Any], i: int, loaded: Loaded,
                     seen: dict[str, object], data_path: tuple[str, ...], place: Place
                     ) -> dict[str, str]:
    """The strings of ``data`` that may be the task's text: each one set aside as media
    (:func:`_is_media`) is said, once per file and key."""
    strings = {k: v for k, v in data.items() if isinstance(v, str)}
    for key in [k for k, v in strings.items() if _is_media(task, k, v)]:
        value = strings.pop(key)
        if f"\0media\0{key}" not in seen:
            seen[f"\0media\0{key}"] = True
            shown = value if len(value) <= 60 else value[:57] + "..."
            loaded.warn(f"data {key!r} is read as a media file's path or address ({shown!r}), "
                        "not as the task's text (said once per file and key)",
                        field=key, **place(i, *data_path, key), kind="media-path")
    return strings


_REGION_TYPES = frozenset({
    "rectanglelabels", "rectangle", "polygonlabels", "polygon", "keypointlabels", "keypoint",
    "brushlabels", "brush", "ellipselabels", "ellipse", "videorectangle", "timelinelabels",
    "bitmasklabels", "vectorlabels"})
"""Label Studio's result types of image, audio and video regions: a key they name is media."""


def _is_media(task: Mapping[str, Any], key: str, value: str) -> bool:
    """Whether the data string ``value`` at ``key`` is set aside as media
    (:func:`is_media_reference`): only when no span result reads it as text (a ``labels``
    result naming ``key``, or a span whose ``value.text`` it holds at the span's offsets),
    unless a result on ``key`` is an image, audio or video region. A sentence such as
    ``I/O error when opening report.pdf`` looks like a relative path and is a text."""
    if not is_media_reference(value):
        return False
    types = {r.get("type") for r in _results_of(task)
             if r.get("to_name") == key}
    if types & _REGION_TYPES:
        return True
    if "labels" in types:
        return False
    return not any(value[s:e] == frag for s, e, frag in _fragments(task))


def _results_of(task: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Every result object of the task's annotations and predictions."""
    for key, _ in _ENTRIES:
        entries = task.get(key)
        for entry in entries if isinstance(entries, list) else ():
            results = entry.get("result") if isinstance(entry, dict) else None
            for res in results if isinstance(results, list) else ():
                if isinstance(res, dict):
                    yield res


def _fragments(task: Mapping[str, Any]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, value.text)`` of the task's span results that give all three."""
    for res in _results_of(task):
        value = res.get("value")
        if not isinstance(value, dict):
            continue
        start, end, frag = value.get("start"), value.get("end"), value.get("text")
        if (isinstance(start, int) and isinstance(end, int) and isinstance(frag, str)
                and not isinstance(start, bool) and not isinstance(end, bool)):
            yield start, end, frag


def _owner(entry: Mapping[str, Any], key: str) -> str:
    if key == "predictions":
        version = entry.get("model_version")
        if version in (None, ""):
            return "model"
        # "model 0" (Label Studio's own examples) names the set as it is, not "model model 0"
        return str(version) if str(version).lower().startswith("model") else f"model {version}"
    who = entry.get("completed_by")
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    if who in (None, ""):
        who = entry.get("created_username")  # Annotation Lab's completions
    return f"annotator {who}" if who not in (None, "") else "annotator"


_SPAN_VALUE = "{'start', 'end', 'text', 'labels'}"
_NOT_SPANS = {
    "nested": ("holds another result's 'value' inside its own (a result within a result), where "
               f"Label Studio writes the span's {_SPAN_VALUE}: give the result the inner "
               "value's fields (or export the project again from Label Studio)"),
    "no-offsets": ("has no 'start' and 'end' (the span's character offsets in the text, which "
                   f"Label Studio writes in the value with its labels: {_SPAN_VALUE})"),
    "not-object": f"is not an object (Label Studio writes a span's value as {_SPAN_VALUE})",
}
"""What is wrong with a span result (``labels``, ``hypertextlabels`` or no ``type``) whose
value gives no span, and what to do."""


def _skip_reason(kind: object, value: object) -> str:
    """The key a skipped result is counted and said under: its type (``choices``,
    ``relation``: not a span label), or, for a span result, :data:`_NOT_SPANS`' reason."""
    if kind not in (None, "labels", "hypertextlabels"):
        return str(kind or "non-span")
    if not isinstance(value, dict):
        return f"{kind or 'span'}:not-object"
    inner = [value.get("value"), value.get("result")]
    nested = any(isinstance(v, dict) or (isinstance(v, list) and v and isinstance(v[0], dict))
                 for v in inner)
    return f"{kind or 'span'}:{'nested' if nested else 'no-offsets'}"


def _skipped_results(file: str, kind: str, found: list[tuple[Position, str]],
                     loc: JsonLocator) -> Iterator[tuple[Position, Diagnostic]]:
    """The warnings of the results skipped under ``kind`` (:func:`_skip_reason`), each naming
    its result; a span result's names its field ``value`` and what is wrong with it."""
    span_kind, _, reason = kind.partition(":")
    for position, path in found:
        if reason:
            yield position, Diagnostic(file, f"a {span_kind} result whose value "
                                       f"{_NOT_SPANS[reason]}; skipped", loc.line_of(path),
                                       "value", path, kind="skipped")
        else:
            yield position, Diagnostic(file, f"a {kind} result, not a span label; skipped",
                                       loc.line_of(path), None, path, kind="skipped")


def _results(
    entry: Mapping[str, Any], file: str, at: tuple[str | int, ...],
    text: str | None, options: ReadOptions, loaded: Loaded,
    skipped: dict[str, list[tuple[Position, str]]],
) -> list[tuple[int, int, str]]:
    results = entry.get("result", [])
    if not isinstance(results, list):
        raise FormatError(file, "expected a list", path=json_path(*at, "result"), field="result")
    out: list[tuple[int, int, str]] = []
    allowed = options.labels
    for r, res in enumerate(results):
        if not isinstance(res, dict):
            raise FormatError(file, "expected a result object", path=json_path(*at, "result", r))
        value = res.get("value")
        kind = res.get("type")
        if not isinstance(value, dict) or kind not in (None, "labels", "hypertextlabels") or (
            "start" not in value and "end" not in value
        ):
            rat = (*at, "result", r)
            skipped.setdefault(_skip_reason(kind, value), []).append(
                (tuple(x for x in rat if isinstance(x, int)), json_path(*rat)))
            continue
        converting = options.offsets is not None and options.offsets.converting
        plain = None if converting else _plain_spans(value, text, allowed)
        out.extend(_span_value(value, file, {"path": json_path(*at, "result", r, "value")}, text,
                               options, loaded) if plain is None else plain)
    return out


_OFFSET_LIMIT = 10**MAX_OFFSET_DIGITS


def _plain_spans(value: object, text: str | None, allowed: Sequence[str] | None
                 ) -> list[tuple[int, int, str]] | None:
    """The spans of a span value that :func:`_span_value` would take without a word: offsets
    that are ints, ``0 <= start < end`` within the text, labels that are non-blank strings of
    the label list, a ``text`` that is the text at the offsets (or no string), no whitespace at
    either edge; None for any other value, which :func:`_span_value` then reads (its errors
    and warnings need the value's place, worked out only then)."""
    if type(value) is not dict:
        return None
    start, end, labels = value.get("start"), value.get("end"), value.get("labels")
    if (type(start) is not int or type(end) is not int or type(labels) is not list
            or not labels or not 0 <= start < end < _OFFSET_LIMIT):
        return None
    for label in labels:
        if type(label) is not str or not label.strip() or (
                allowed is not None and label not in allowed):
            return None
    if text is not None:
        if end > len(text):
            return None
        actual = text[start:end]
        fragment = value.get("text")
        if (isinstance(fragment, str) and fragment != actual) or actual[:1].isspace() \
                or actual[-1:].isspace():
            return None
    return [(start, end, label) for label in labels]


def _span_value(value: object, file: str, where: dict[str, Any],
                text: str | None, options: ReadOptions, loaded: Loaded
                ) -> list[tuple[int, int, str]]:
    """The spans of one span value ``{start, end, text, labels}`` (one per label); ``where``
    it is, as :data:`Place` gives it."""
    if not isinstance(value, dict):
        raise FormatError(file, f"expected a span value {{start, end, text, labels}}, got "
                          f"{value!r:.60}", **where)
    for key in ("start", "end", "labels"):
        if key not in value:
            raise FormatError(file, "missing", field=key, **where)
    labels = value["labels"]
    if not isinstance(labels, list) or not labels:
        raise FormatError(file, f"expected a non-empty list of labels, got {labels!r}",
                          field="labels", **where)
    out = []
    fragment = value.get("text") if isinstance(value.get("text"), str) else None
    for label in labels:
        span = make_span(value["start"], value["end"], label, file, text=text,
                         fields=("start", "end", "labels"), beyond_text=options.beyond_text,
                         fragment=fragment, offsets=options.offsets, **where)
        check_label(span.label, options.labels, file, field="labels", **where)
        for message, fld in span_warnings(span, text, fragment=fragment,
                                          fragment_field="text"):
            loaded.warn(message, field=fld, **where)
        out.append((span.start, span.end, span.label))
    return out
