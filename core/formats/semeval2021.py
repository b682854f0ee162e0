"""SemEval-2021 Task 6 subtask 2 JSON: ``[{id, text, labels: [{technique, start, end, ...}]}]``.

The format of Dimitrov et al. (2021), read as the official scorer reads it
(``docs/formats.md``): ``id`` and ``labels`` are required, and
``technique``, ``start`` and ``end`` in every label; ``text`` and ``text_fragment`` are optional.
Stricter than the official scorer on purpose: a fractional offset is refused instead of being
truncated, a duplicate ``id`` is refused instead of replacing the earlier entry, and when
``text`` is present offsets must lie within it. A numeric id is read as a string with a warning.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from core.errors import FormatError
from core.formats import Loaded, ReadOptions, decode
from core.formats._common import (
    JsonLocator,
    check_doc_id,
    check_label,
    duplicate_span_warnings,
    json_path,
    lines_from,
    load_json,
    make_span,
    set_name_of,
    single_set,
    sorted_spans,
    span_warnings,
)
from core.model import AnnotationSet, Span

FORMAT = "semeval2021"


def sniff(filename: str, head: str) -> int:
    """Sure when a JSON list's objects carry ``labels`` with ``technique`` entries."""
    lower = filename.lower()
    body = head.lstrip()
    if not body.startswith("["):
        return 0
    score = 10 if lower.endswith(".json") else 0
    if '"labels"' in body and '"technique"' in body:
        score += 85
    elif '"labels"' in body and '"id"' in body:
        score += 40
    elif '"id"' in body and len(head) >= 4000:
        score += 20  # a long first text may push "labels" past the 4 KiB head
    return score


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one SemEval-2021 JSON file into one annotation set (role from ``options``)."""
    if len(files) != 1:
        raise FormatError(name, f"expected one JSON file, got a folder of {len(files)} files")
    (fname, data), = files.items()
    file = name
    text = decode(file, data)
    value = load_json(file, text)
    loc = JsonLocator(text)
    loaded = Loaded(FORMAT, file)
    if not isinstance(value, list):
        raise FormatError(
            file, f"expected a JSON list of documents, got a JSON {_kind(value)}", line=1
        )
    first_seen: dict[str, int] = {}
    spans: dict[str, list[Span]] = {}
    with lines_from(loc, loaded):
        for i, entry in enumerate(value):
            where = json_path(i)
            if not isinstance(entry, dict):
                raise FormatError(
                    file, f"expected a document object, got a JSON {_kind(entry)}",
                    path=where,
                )
            for key in ("id", "labels"):
                if key not in entry:
                    raise FormatError(
                        file, f"missing (every document needs 'id' and 'labels'; keys found: "
                        f"{', '.join(map(repr, entry)) or 'none'})",
                        path=where, field=key,
                    )
            doc_id, warning = check_doc_id(entry["id"], file, path=json_path(i, "id"))
            if warning:
                loaded.warn(warning, path=json_path(i, "id"), field="id")
            if doc_id in first_seen:
                k = first_seen[doc_id]
                raise FormatError(
                    file, f"duplicate document id {doc_id!r}: first at {json_path(k)} (line "
                    f"{loc.line(k)}), again at {json_path(i)} (line {loc.line(i)}); each document "
                    "must appear once", line=loc.line(i, "id"), path=json_path(i, "id"), field="id",
                )
            first_seen[doc_id] = i
            doc_text = entry.get("text")
            if doc_text is not None and not isinstance(doc_text, str):
                raise FormatError(
                    file, f"expected the document text as a string, got a JSON {_kind(doc_text)}",
                    path=json_path(i, "text"), field="text",
                )
            if doc_text is None and options.gold_texts is not None:
                doc_text = options.gold_texts.get(doc_id)
            labels = entry["labels"]
            if not isinstance(labels, list):
                raise FormatError(
                    file, f"expected a list of labels, got a JSON {_kind(labels)}",
                    path=json_path(i, "labels"), field="labels",
                )
            doc_spans: list[Span] = []
            for j, lab in enumerate(labels):
                lpath = json_path(i, "labels", j)
                if not isinstance(lab, dict):
                    raise FormatError(
                        file, f"expected a label object, got a JSON {_kind(lab)}",
                        path=lpath,
                    )
                for key in ("technique", "start", "end"):
                    if key not in lab:
                        raise FormatError(
                            file, "missing (every label needs 'technique', 'start' and 'end')",
                            path=lpath, field=key,
                        )
                span = _span(lab, file, (i, "labels", j), doc_text)
                check_label(span.label, options.labels, file, field="technique",
                            path=json_path(i, "labels", j, "technique"))
                fragment = lab.get("text_fragment")
                if fragment is not None and not isinstance(fragment, str):
                    loaded.warn(
                        "expected text_fragment as a string, got a JSON "
                        f"{_kind(fragment)}; ignored",
                        path=lpath, field="text_fragment",
                    )
                    fragment = None
                for message, fld in span_warnings(span, doc_text, fragment=fragment):
                    loaded.warn(message, path=lpath, field=fld)
                doc_spans.append(span)
            for d in duplicate_span_warnings(doc_spans):
                loaded.warn(
                    f"document {doc_id!r} has the span [{d.start}, {d.end}) {d.label!r} more than "
                    "once; kept (each copy counts in the scores)",
                    path=json_path(i, "labels"),
                )
            spans[doc_id] = doc_spans
            loaded.texts[doc_id] = doc_text
    loaded.sets.append(
        AnnotationSet(set_name_of(name or fname), sorted_spans(spans), options.role)
    )
    return loaded


def _span(
    lab: Mapping[str, object], file: str, at: tuple[str | int, ...],
    text: str | None,
) -> Span:
    # Each field is checked with its own path so the message points at the offending value.
    return make_span(
        lab["start"], lab["end"], lab["technique"], file, path=json_path(*at),
        text=text, fields=("start", "end", "technique"),
    )


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return f"string {value[:40]!r}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return f"number {value}"


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """One JSON list; ``text`` and each label's ``text_fragment`` are written when text is known."""
    aset = single_set(sets, FORMAT)
    out: list[dict[str, object]] = []
    for doc_id in aset.spans:
        text = texts.get(doc_id)
        labels: list[dict[str, object]] = []
        for span in aset.get(doc_id):
            item: dict[str, object] = {
                "start": span.start, "end": span.end, "technique": span.label,
            }
            if text is not None:
                item["text_fragment"] = text[span.start : span.end]
            labels.append(item)
        entry: dict[str, object] = {"id": doc_id}
        if text is not None:
            entry["text"] = text
        entry["labels"] = labels
        out.append(entry)
    name = PurePosixPath(aset.name.replace("/", "_") or "annotations").name
    return {f"{name}.json": json.dumps(out, ensure_ascii=False, indent=2) + "\n"}
