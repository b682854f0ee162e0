"""doccano JSONL: one document per line, spans as ``label: [[start, end, label]]`` or
``entities: [{start_offset, end_offset, label}]``.

The two sequence-labelling layouts doccano exports (the older ``label`` triples and the newer
``entities`` objects; doccano documentation, "Export dataset"). ``id`` is doccano's numeric
example id, read as a string; a line without ``id`` gets its line number as id, with a warning.
``text`` is optional here (doccano always writes it) and, when present, offsets must lie in it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from core.errors import FormatError
from core.formats import Loaded, ReadOptions, decode
from core.formats._common import (
    DuplicateIds,
    check_label,
    duplicate_span_warnings,
    iter_jsonl,
    json_path,
    make_span,
    set_name_of,
    single_set,
    sorted_spans,
    span_warnings,
)
from core.model import AnnotationSet, Span

FORMAT = "doccano"
_LABEL_KEY = re.compile(r'"label"\s*:\s*\[')
_ENTITIES_KEY = re.compile(r'"entities"\s*:\s*\[')


def sniff(filename: str, head: str) -> int:
    """JSON objects per line with a ``label`` list or an ``entities`` list."""
    body = head.lstrip()
    if not body.startswith("{"):
        return 0
    first = body.split("\n", 1)[0]
    score = 10 if filename.lower().endswith((".jsonl", ".json")) else 0
    if _ENTITIES_KEY.search(first) and "start_offset" in first:
        return score + 85
    if _LABEL_KEY.search(first) and '"sentences_with_labels"' not in first:
        return score + 70
    if "\n" not in body and re.match(r'\{\s*"id"\s*:', body) and '"text"' in first:
        return score + 15  # doccano writes id, text, label: a long text hides the label key
    return 0


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one doccano JSONL file into one annotation set (role from ``options``)."""
    if len(files) != 1:
        raise FormatError(name, f"expected one JSONL file, got a folder of {len(files)} files")
    (data,) = files.values()
    file = name
    loaded = Loaded(FORMAT, file)
    dup = DuplicateIds(file)
    spans: dict[str, list[Span]] = {}
    for line, obj in iter_jsonl(file, decode(file, data)):
        if not isinstance(obj, dict):
            raise FormatError(file, "expected one JSON object per line", line=line)
        if "id" in obj:
            raw_id = obj["id"]
            if isinstance(raw_id, bool) or not isinstance(raw_id, (int, str)) or raw_id == "":
                raise FormatError(file, f"expected a number or string id, got {raw_id!r}",
                                  line=line, field="id")
            doc_id = str(raw_id)
        else:
            doc_id = str(line)
            loaded.warn(f"no 'id'; the line number {line} is used as the document id",
                        line=line, field="id")
        dup.add(doc_id, f"line {line}", line=line)
        text = obj.get("text")
        if text is not None and not isinstance(text, str):
            raise FormatError(file, "expected the text as a string", line=line, field="text")
        if text is None and options.gold_texts is not None:
            text = options.gold_texts.get(doc_id)
        doc_spans: list[Span] = []
        has_label = "label" in obj
        has_entities = "entities" in obj
        if not has_label and not has_entities:
            raise FormatError(
                file, "missing (expected 'label' triples or 'entities' objects)", line=line,
                field="label",
            )
        if has_label:
            items = obj["label"]
            if not isinstance(items, list):
                raise FormatError(file, "expected a list of [start, end, label] triples",
                                  line=line, field="label")
            for j, item in enumerate(items):
                where = json_path("label", j)
                if not isinstance(item, list) or len(item) != 3:
                    raise FormatError(
                        file, f"expected a [start, end, label] triple, got {json.dumps(item)}",
                        line=line, path=where, field="label",
                    )
                span = make_span(item[0], item[1], item[2], file, line=line, text=text,
                                 fields=(f"{where}[0]", f"{where}[1]", f"{where}[2]"),
                                 beyond_text=options.beyond_text)
                check_label(span.label, options.labels, file, field=f"{where}[2]", line=line)
                doc_spans.append(span)
        if has_entities:
            items = obj["entities"]
            if not isinstance(items, list):
                raise FormatError(file, "expected a list of entity objects", line=line,
                                  field="entities")
            for j, item in enumerate(items):
                where = json_path("entities", j)
                if not isinstance(item, dict):
                    raise FormatError(file, "expected an entity object", line=line, path=where)
                for key in ("start_offset", "end_offset", "label"):
                    if key not in item:
                        raise FormatError(file, "missing", line=line, path=where, field=key)
                span = make_span(item["start_offset"], item["end_offset"], item["label"], file,
                                 line=line, text=text, path=where,
                                 fields=("start_offset", "end_offset", "label"),
                                 beyond_text=options.beyond_text)
                check_label(span.label, options.labels, file, field="label", line=line,
                            path=where)
                doc_spans.append(span)
        for span in doc_spans:
            for message, fld in span_warnings(span, text):
                loaded.warn(message, line=line, field=fld)
        for d in duplicate_span_warnings(doc_spans):
            loaded.warn(f"the span [{d.start}, {d.end}) {d.label!r} occurs more than once; kept",
                        line=line)
        spans[doc_id] = doc_spans
        loaded.texts[doc_id] = text
    loaded.sets.append(AnnotationSet(set_name_of(name), sorted_spans(spans), options.role))
    return loaded


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """doccano JSONL in the ``label`` triple layout (the one doccano imports)."""
    aset = single_set(sets, FORMAT)
    lines = []
    for doc_id in aset.spans:
        # doccano ids are numbers; keep strings that would not survive int() as strings.
        out_id: int | str = int(doc_id) if re.fullmatch(r"[1-9][0-9]{0,17}|0", doc_id) else doc_id
        obj: dict[str, object] = {"id": out_id}
        text = texts.get(doc_id)
        if text is not None:
            obj["text"] = text
        obj["label"] = [[s.start, s.end, s.label] for s in aset.get(doc_id)]
        lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
    return {f"{aset.name or 'annotations'}.jsonl": "".join(lines)}
