"""Label Studio JSON export: tasks with ``annotations`` (one per annotator) and ``predictions``.

The "JSON" export of Label Studio (documentation, "Export annotations": task format): a list of
tasks ``{id, data: {text}, annotations: [{completed_by, result: [...]}], predictions:
[{model_version, result: [...]}]}``; a span result is ``{"type": "labels", "value": {start, end,
text, labels: [...]}}``. Each annotator (``completed_by``) becomes an annotation set with role
``annotator`` and each model (``model_version``) a set with role ``system``. A set covers the
tasks its annotator or model worked on, so "did not annotate" stays distinct from "found
nothing". A result with several labels gives one span per label.

Skipped with a warning: cancelled annotations (``was_cancelled``) and results that are not span
labels (choices, relations, ...). Label Studio counts offsets in JavaScript string units
(UTF-16), which differ from Python characters after a character outside the Basic Multilingual
Plane; the ``value.text`` check reports such shifts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from core.errors import FormatError
from core.formats import Loaded, ReadOptions, decode
from core.formats._common import (
    DuplicateIds,
    JsonLocator,
    check_doc_id,
    check_label,
    duplicate_span_warnings,
    json_path,
    lines_from,
    load_json,
    make_span,
    sorted_spans,
    span_warnings,
)
from core.model import AnnotationSet, Role, Span

FORMAT = "label-studio"
_ANN = re.compile(r'"(annotations|predictions)"\s*:')


def sniff(filename: str, head: str) -> int:
    body = head.lstrip()
    if not body.startswith(("[", "{")):
        return 0
    if _ANN.search(body) and '"data"' in body:
        return 95 if filename.lower().endswith(".json") else 80
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one Label Studio JSON export: one set per annotator and per model."""
    if len(files) != 1:
        raise FormatError(name, f"expected one JSON file, got a folder of {len(files)} files")
    (data,) = files.values()
    file = name
    content = decode(file, data)
    value = load_json(file, content)
    loc = JsonLocator(content)
    if isinstance(value, dict):
        value = [value]  # a single exported task
    if not isinstance(value, list):
        raise FormatError(file, "expected a JSON list of tasks", line=1)
    loaded = Loaded(FORMAT, file)
    dup = DuplicateIds(file, "task id")
    per_set: dict[str, dict[str, list[Span]]] = {}
    roles: dict[str, Role] = {}
    origin: dict[tuple[str, str], str] = {}
    with lines_from(loc, loaded):
        for i, task in enumerate(value):
            if not isinstance(task, dict):
                raise FormatError(file, "expected a task object", path=json_path(i))
            doc_id = _task_id(task, file, i)
            dup.add(doc_id, json_path(i), path=json_path(i))
            text = _task_text(task, file, i)
            if text is None and options.gold_texts is not None:
                text = options.gold_texts.get(doc_id)
            loaded.texts[doc_id] = text
            for key, role in (("annotations", "annotator"), ("predictions", "system")):
                entries = task.get(key, [])
                if not isinstance(entries, list):
                    raise FormatError(file, "expected a list", path=json_path(i, key), field=key)
                for k, entry in enumerate(entries):
                    at = (i, key, k)
                    if not isinstance(entry, dict):
                        raise FormatError(file, "expected an object", path=json_path(*at))
                    if entry.get("was_cancelled"):
                        loaded.warn("a cancelled annotation; skipped", path=json_path(*at))
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
                    doc_spans = per_set.setdefault(set_name, {}).setdefault(doc_id, [])
                    doc_spans.extend(_results(entry, file, at, text, options, loaded))
                    for d in duplicate_span_warnings(doc_spans):
                        loaded.warn(f"the span [{d.start}, {d.end}) {d.label!r} occurs more than "
                                    "once; kept", path=json_path(*at))
    if not per_set:
        raise FormatError(file, "no annotations or predictions in any task")
    for set_name, spans in per_set.items():
        loaded.sets.append(AnnotationSet(set_name, sorted_spans(spans), roles[set_name]))
    return loaded


def _task_id(task: Mapping[str, Any], file: str, i: int) -> str:
    # A "doc_id" in the task data names the document; Label Studio's own task id otherwise.
    data = task.get("data")
    if isinstance(data, dict) and "doc_id" in data:
        doc_id, _ = check_doc_id(data["doc_id"], file, field="doc_id",
                                 path=json_path(i, "data", "doc_id"))
        return doc_id
    if "id" not in task:
        raise FormatError(file, "missing (a task needs an 'id' or data.doc_id)",
                          path=json_path(i), field="id")
    doc_id, _ = check_doc_id(task["id"], file, path=json_path(i, "id"))
    return doc_id


def _task_text(task: Mapping[str, Any], file: str, i: int) -> str | None:
    data = task.get("data")
    if data is None:
        return None
    if not isinstance(data, dict):
        raise FormatError(file, "expected an object", path=json_path(i, "data"), field="data")
    if isinstance(data.get("text"), str):
        return str(data["text"])
    strings = [v for v in data.values() if isinstance(v, str)]
    return strings[0] if len(strings) == 1 else None


def _owner(entry: Mapping[str, Any], key: str) -> str:
    if key == "predictions":
        version = entry.get("model_version")
        return f"model {version}" if version not in (None, "") else "model"
    who = entry.get("completed_by")
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    return f"annotator {who}" if who not in (None, "") else "annotator"


def _results(
    entry: Mapping[str, Any], file: str, at: tuple[str | int, ...],
    text: str | None, options: ReadOptions, loaded: Loaded,
) -> list[Span]:
    results = entry.get("result", [])
    if not isinstance(results, list):
        raise FormatError(file, "expected a list", path=json_path(*at, "result"), field="result")
    out: list[Span] = []
    for r, res in enumerate(results):
        rat = (*at, "result", r)
        where = json_path(*rat)
        if not isinstance(res, dict):
            raise FormatError(file, "expected a result object", path=where)
        value = res.get("value")
        kind = res.get("type")
        if not isinstance(value, dict) or kind not in (None, "labels", "hypertextlabels") or (
            "start" not in value and "end" not in value
        ):
            loaded.warn(f"a {kind or 'non-span'} result, not a span label; skipped", path=where)
            continue
        vpath = json_path(*rat, "value")
        for key in ("start", "end", "labels"):
            if key not in value:
                raise FormatError(file, "missing", path=vpath, field=key)
        labels = value["labels"]
        if not isinstance(labels, list) or not labels:
            raise FormatError(file, f"expected a non-empty list of labels, got {labels!r}",
                              path=vpath, field="labels")
        for label in labels:
            span = make_span(value["start"], value["end"], label, file,
                             path=vpath, text=text, fields=("start", "end", "labels"),
                             beyond_text=options.beyond_text)
            check_label(span.label, options.labels, file, field="labels",
                        path=vpath)
            fragment = value.get("text") if isinstance(value.get("text"), str) else None
            for message, fld in span_warnings(span, text, fragment=fragment,
                                              fragment_field="text"):
                loaded.warn(message, path=vpath, field=fld)
            out.append(span)
    return out
