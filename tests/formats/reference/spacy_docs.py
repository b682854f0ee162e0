"""spaCy documents: ``DocBin`` files (``.spacy``) and spaCy-style JSON Lines.

* ``.spacy``: a serialised ``spacy.tokens.DocBin`` (spaCy documentation, "DocBin"). Read with
  spaCy, an OPTIONAL dependency imported only here; without it the error names the package to
  install. A document's id is ``doc.user_data["id"]`` when the DocBin kept user data, else its
  position (``1``, ``2``, ...). Spans are character offsets (``span.start_char``,
  ``span.end_char``) of ``doc.ents`` or of a span group ``doc.spans[NAME]``.
* JSONL: one object per line, ``{"text": ..., "ents": [...]}`` and/or ``"spans": [...]`` (or
  ``"spans": {"group": [...]}``), each span ``{"start": 0, "end": 5, "label": "PER"}`` or
  ``[0, 5, "PER"]`` in character offsets (the layout of spaCy's and Prodigy's JSONL corpora).
  ``id`` (or ``meta.id``) names the document; without it the line number does.

Which spans: ``--span-group NAME`` (``ents`` for the entities, ``spans`` for a JSONL ``spans``
list); default ``ents`` when the input has entities, else its only span group; otherwise an
error lists the groups.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

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

FORMAT = "spacy"
INSTALL = "reading .spacy files needs spaCy: pip install spacy"
_KEYS = re.compile(r'"(ents|spans)"\s*:\s*[\[{]')


def sniff(filename: str, head: str) -> int:
    if filename.lower().endswith(".spacy"):
        return 100
    first = head.lstrip().split("\n", 1)[0]
    if first.startswith("{") and '"text"' in first and _KEYS.search(first):
        return 90
    return 0


def import_spacy() -> Any:
    """``spacy`` itself, or a FormatError naming the package to install."""
    try:
        import spacy
    except ImportError:
        raise FormatError("<options>", INSTALL) from None
    return spacy


def read(files: Mapping[str, bytes], *, name: str, options: ReadOptions) -> Loaded:
    """Read one ``.spacy`` DocBin or one spaCy JSONL file into one annotation set."""
    if len(files) != 1:
        raise FormatError(name, f"expected one .spacy or JSONL file, got {len(files)} files")
    ((path, data),) = files.items()
    if path.lower().endswith(".spacy") or (
        not path.lower().endswith((".jsonl", ".json")) and data.strip()
        and data.lstrip()[:1] != b"{"
    ):
        return _read_docbin(name, data, options)
    return _read_jsonl(name, decode(name, data), options)


def _choose_group(groups: Sequence[str], wanted: str | None, file: str) -> str | None:
    if wanted is not None:
        if wanted not in groups and groups:
            raise FormatError(file, f"no span group {wanted!r}; the input holds "
                              f"{', '.join(groups)}", field="span-group")
        return wanted
    if "ents" in groups:
        return "ents"
    if len(groups) == 1:
        return groups[0]
    if not groups:
        return None
    raise FormatError(file, f"several span groups ({', '.join(groups)}) and no entities; choose "
                      "one with --span-group", field="span-group")


def _read_docbin(file: str, data: bytes, options: ReadOptions) -> Loaded:
    spacy = import_spacy()
    from spacy.tokens import DocBin

    try:
        docbin = DocBin(store_user_data=True).from_bytes(data)
        vocab = spacy.blank("xx").vocab
        docs = list(docbin.get_docs(vocab))
    except Exception as exc:  # spaCy and srsly raise many types for a corrupt file
        raise FormatError(file, f"expected a spaCy DocBin (.spacy) file, but it cannot be "
                          f"read: {type(exc).__name__}: {str(exc)[:80]}") from None
    loaded = Loaded(FORMAT, file)
    groups: list[str] = []
    for doc in docs:
        if doc.has_annotation("ENT_IOB") and "ents" not in groups:
            groups.append("ents")
        groups.extend(g for g in doc.spans if g not in groups)
    group = _choose_group(groups, options.span_group, file)
    dup = DuplicateIds(file)
    spans: dict[str, list[Span]] = {}
    for n, doc in enumerate(docs, start=1):
        raw_id = doc.user_data.get("id") if isinstance(doc.user_data, dict) else None
        doc_id = str(raw_id) if raw_id not in (None, "") else str(n)
        dup.add(doc_id, f"document {n}", field="id")
        if group is None:
            chosen: Sequence[Any] = ()
        elif group == "ents":
            chosen = doc.ents
        else:
            chosen = doc.spans.get(group, ())
        doc_spans = []
        for sp in chosen:
            span = make_span(sp.start_char, sp.end_char, sp.label_, file, text=doc.text,
                             path=f"doc {n}.{group}", beyond_text=options.beyond_text)
            check_label(span.label, options.labels, file, field="label", path=f"doc {n}")
            doc_spans.append(span)
        spans[doc_id] = doc_spans
        loaded.texts[doc_id] = doc.text
    loaded.sets.append(AnnotationSet(set_name_of(file.removesuffix(".spacy")),
                                     sorted_spans(spans), options.role))
    return loaded


def _groups_of(obj: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "ents" in obj:
        out["ents"] = obj["ents"]
    spans = obj.get("spans")
    if isinstance(spans, dict):
        out.update(spans)
    elif spans is not None:
        out["spans"] = spans
    return out


def _read_jsonl(file: str, content: str, options: ReadOptions) -> Loaded:
    rows = iter_jsonl(file, content)
    loaded = Loaded(FORMAT, file)
    groups: list[str] = []
    for line, obj in rows:
        if not isinstance(obj, dict):
            raise FormatError(file, "expected one JSON object per line", line=line)
        groups.extend(g for g in _groups_of(obj) if g not in groups)
    group = _choose_group(groups, options.span_group, file)
    dup = DuplicateIds(file)
    spans: dict[str, list[Span]] = {}
    no_id: list[int] = []
    for line, obj in rows:
        assert isinstance(obj, dict)
        text = obj.get("text")
        if not isinstance(text, str):
            raise FormatError(file, "expected the text as a string", line=line, field="text")
        raw_id = obj.get("id")
        meta = obj.get("meta")
        if raw_id is None and isinstance(meta, dict):
            raw_id = meta.get("id")
        if raw_id is None:
            no_id.append(line)
            doc_id = str(line)
        elif isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)) or raw_id == "":
            raise FormatError(file, f"expected a number or string id, got {raw_id!r}",
                              line=line, field="id")
        else:
            doc_id = str(raw_id)
        dup.add(doc_id, f"line {line}", line=line)
        items = _groups_of(obj).get(group, []) if group is not None else []
        if not isinstance(items, list):
            raise FormatError(file, "expected a list of spans", line=line, field=str(group))
        doc_spans: list[Span] = []
        for j, item in enumerate(items):
            where = json_path(str(group), j)
            if isinstance(item, list):
                if len(item) != 3:
                    raise FormatError(file, f"expected [start, end, label], got "
                                      f"{json.dumps(item)[:60]}", line=line, path=where)
                start, end, label = item
                fields = (f"{where}[0]", f"{where}[1]", f"{where}[2]")
                span = make_span(start, end, label, file, line=line, text=text, fields=fields,
                                 beyond_text=options.beyond_text)
            elif isinstance(item, dict):
                for key in ("start", "end", "label"):
                    if key not in item:
                        raise FormatError(file, "missing", line=line, path=where, field=key)
                span = make_span(item["start"], item["end"], item["label"], file, line=line,
                                 text=text, path=where, beyond_text=options.beyond_text)
            else:
                raise FormatError(file, "expected a span object or [start, end, label]",
                                  line=line, path=where)
            check_label(span.label, options.labels, file, field="label", line=line, path=where)
            for message, fld in span_warnings(span, text):
                loaded.warn(message, line=line, field=fld)
            doc_spans.append(span)
        for d in duplicate_span_warnings(doc_spans):
            loaded.warn(f"the span [{d.start}, {d.end}) {d.label!r} occurs more than once; kept",
                        line=line)
        spans[doc_id] = doc_spans
        loaded.texts[doc_id] = text
    if no_id:
        loaded.warn(f"{len(no_id)} lines have no 'id'; their line numbers are the document "
                    f"ids (first: line {no_id[0]})", line=no_id[0], field="id")
    loaded.sets.append(AnnotationSet(set_name_of(file), sorted_spans(spans), options.role))
    return loaded


def write(texts: Mapping[str, str | None], sets: Sequence[AnnotationSet]) -> dict[str, str]:
    """spaCy JSONL: ``{"id", "text", "spans": [{"start", "end", "label"}]}`` per document.

    Spans go to ``spans`` (a span group may overlap, ``ents`` may not); the reader takes them
    back as the only group.
    """
    aset = single_set(sets, FORMAT)
    lines = []
    for doc_id in aset.spans:
        text = texts.get(doc_id)
        if text is None:
            raise FormatError("<output>", f"document {doc_id!r} has no text; spaCy documents "
                              "need it")
        obj = {"id": doc_id, "text": text,
               "spans": [{"start": s.start, "end": s.end, "label": s.label}
                         for s in aset.get(doc_id)]}
        lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
    return {f"{aset.name or 'annotations'}.jsonl": "".join(lines)}


def docbin_bytes(texts: Mapping[str, str | None], aset: AnnotationSet, *,
                 group: str = "sc") -> bytes:
    """A DocBin of ``aset`` (spans in span group ``group``, or ``ents``), tokenised by a blank
    English pipeline; a span whose edges are not token edges is widened to them."""
    spacy = import_spacy()
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    out = DocBin(store_user_data=True)
    for doc_id, spans in aset:
        text = texts.get(doc_id)
        if text is None:
            raise FormatError("<output>", f"document {doc_id!r} has no text")
        doc = nlp.make_doc(text)
        made = [doc.char_span(s.start, s.end, label=s.label, alignment_mode="expand")
                for s in spans]
        kept = [m for m in made if m is not None]
        if group == "ents":
            doc.ents = kept
        else:
            doc.spans[group] = kept
        doc.user_data["id"] = doc_id
        out.add(doc)
    data: bytes = out.to_bytes()
    return data
