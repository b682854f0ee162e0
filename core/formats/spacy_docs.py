"""spaCy documents: ``DocBin`` files (``.spacy``) and spaCy-style JSON Lines.

* ``.spacy``: a serialised ``spacy.tokens.DocBin`` (spaCy documentation, "DocBin"). Read with
  spaCy, an OPTIONAL dependency imported only here; without it the error names the package to
  install. A document's id is ``doc.user_data["id"]`` when the DocBin kept user data, else its
  position (``1``, ``2``, ...). Spans are character offsets (``span.start_char``,
  ``span.end_char``) of ``doc.ents`` or of a span group ``doc.spans[NAME]``.
* JSONL: one object per line, ``{"text": ..., "ents": [...]}`` and/or ``"spans": [...]`` (or
  ``"spans": {"group": [...]}``), each span ``{"start": 0, "end": 5, "label": "PER"}`` or
  ``[0, 5, "PER"]`` in character offsets (the layout of spaCy's and Prodigy's JSONL corpora);
  ``"entities": [...]`` is read as ``ents`` is (the name many NER training sets kept as JSONL
  use). A list of span objects under any other key, or under a span group not chosen, is not
  read: one warning per key counts its records and spans, never a silent 0 spans.
  ``id`` (or ``meta.id``) names the document; without it the line number does. Prodigy's
  exports (``prodigy db-out``) are this layout with an ``answer`` per task: a task answered
  ``reject`` or ``ignore`` is not an annotation and is skipped (one warning counts them), as
  Prodigy's own ``data-to-spacy`` leaves them out; when the tasks name two or more annotators
  (``_annotator_id``, Prodigy 1.11 and later with named sessions), each annotator is a set of
  its own (role ``annotator``), as Prodigy's ``review`` recipe groups them.
* JSON: a list of the same objects (``[{"text": ..., "spans": [...]}, ...]``, the training
  data that spaCy users keep in one ``.json`` file and turn into a DocBin); a record's place in
  messages is the line it starts on and its JSON path (``[3]``), its id its position (``1``,
  ``2``, ...) unless it names one.
* spaCy's training tuples: a JSON list of ``[text, {"entities": [[start, end, label]]}]``
  pairs (spaCy v2's ``nlp.update`` took them), or the NER Annotator for spaCy's export
  ``{"classes": [...], "annotations": [pairs]}``: each pair is read as the record ``{"text":
  text, "entities": [...]}``, its path in messages ``[3][1].entities[0]``
  (``annotations[3][1]...``).

Which spans: ``--span-group NAME`` (``ents`` for the entities, ``entities`` or ``spans`` for a
JSONL ``entities`` or ``spans`` list); default ``ents`` when the input has entities (else
``entities``), else its only span group; otherwise an error lists the groups. A DocBin's groups
that hold spans and are not read are one warning each (their documents and spans counted).
"""

from __future__ import annotations

import contextlib
import json
import re
from array import array
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from core.formats import Loaded, ReadOptions, Sentences, decode
from core.formats._columns import JsonLines, SpanColumns, duplicates
from core.formats._common import (
    DuplicateIds,
    JsonLocator,
    check_label,
    json_path,
    load_json,
    make_span,
    set_name_of,
    single_set,
    span_warnings,
)
from core.formats._sniff import is_span_objects, json_head, training_tuples
from core.model import AnnotationSet, Span
from core.model.bounds import Policy
from core.model.errors import FormatError, KindedText
from core.model.textsafe import one_line

FORMAT = "spacy"
INSTALL = "reading .spacy files needs spaCy: pip install spacy"
_KEYS = re.compile(r'"(ents|spans)"\s*:\s*[\[{]')

GROUP_KEYS = ("ents", "entities", "spans")
"""The keys of a JSONL record that hold its spans: spaCy's ``ents`` and ``spans``, and
``entities``, the name many NER training sets kept as JSONL give the same list."""


def _spacy_entities(rec: Mapping[str, Any]) -> bool:
    """Does a record hold ``entities`` as spaCy-style span objects (``start``, ``end``, not
    doccano's ``start_offset``)?"""
    entities = rec.get("entities")
    return isinstance(entities, list) and is_span_objects(entities) and "start" in entities[0]


def sniff(filename: str, head: str) -> int:
    if filename.lower().endswith(".spacy"):
        return 100
    if head.lstrip()[:1] in ("[", "{") and training_tuples(head):
        return 80  # [[text, {"entities": ...}]], bare or as the NER Annotator's "annotations"
    first = head.lstrip().split("\n", 1)[0]
    if first.startswith("{") and '"text"' in first and _KEYS.search(first):
        return 90
    records = json_head(head).records if first.startswith(("{", "[")) else ()
    if records and all(isinstance(r.get("text"), str) for r in records) and any(
            _spacy_entities(r) for r in records) and not any(
            {"data", "relations", "cats"} & r.keys() for r in records):
        return 88  # {"text", "entities": [{"start", "end", "label"}]}: doccano's are offsets
    if first.startswith("[") and records and all(
            isinstance(r.get("text"), str) and ("ents" in r or "spans" in r)
            and not {"data", "label", "labels", "entities"} & r.keys() for r in records):
        return 85  # a JSON list of spaCy-style records
    if records and any(_prodigy_task(r) for r in records):
        return 87  # Prodigy's db-out, whose first tasks may have no "spans" yet
    if records and all(isinstance(r.get("text"), str) and r.get("entities") == []
                       and not _OTHER_KEYS & r.keys() for r in records):
        # Every record of the head has "entities": [] (a file whose first records are not
        # annotated yet): the same layout, with no span to show its style. doccano's layouts
        # that use "entities" add "relations" or "cats"; the reader takes objects or triples.
        return 60
    return 0


_OTHER_KEYS = frozenset({"data", "relations", "cats", "label", "labels", "annotations",
                         "spans", "ents", "annotation_id", "annotator", "lead_time"})
"""Keys of a record that another layout reads (doccano, Label Studio and its JSON-MIN's
``annotation_id``, ``annotator``, ``lead_time``) or that a check above decides on: a head of
``{"text", "entities": []}`` records is spaCy-style only without them."""


PRODIGY_KEYS = ("_input_hash", "_task_hash")
"""The keys Prodigy adds to every task it stores (Prodigy documentation, "Loaders and Input
Data": the hashes of the input and of the question)."""


def _prodigy_task(record: Mapping[str, Any]) -> bool:
    """Is ``record`` a task of a Prodigy export: a text with Prodigy's hashes, or a text with
    an ``answer`` and a ``_view_id`` (a file whose hashes were dropped)? Detected on any of the
    head's records: the first tasks of a ``ner.manual`` export have no ``spans`` key when the
    annotator marked nothing, so a check of the first line alone missed such a file."""
    if not isinstance(record.get("text"), str) or "data" in record:
        return False
    return all(k in record for k in PRODIGY_KEYS) or (
        record.get("answer") in ("accept", "reject", "ignore") and "_view_id" in record)


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


def _keep_task_tokens(loaded: Loaded, options: ReadOptions, doc_id: str,
                      task: Mapping[str, Any], text: str) -> None:
    """Keep a task's own tokens (:func:`_task_tokens`) when the caller asks for tokens."""
    if options.keep_tokens:
        sentences = _task_tokens(task.get("tokens"), text)
        if sentences is not None:
            loaded.keep_tokens(doc_id, sentences)


def _task_tokens(tokens: object, text: str) -> Sentences | None:
    """A Prodigy task's ``tokens`` (``[{"start", "end", ...}]``, those its annotator marked
    spans on) as sentences of ``(start, end)``, a new sentence after a line break; None when
    the task has none or one lies outside the text or before the one before (an edited text),
    so that a writer splits the text itself. Tokens of no characters (a transformer's ``<s>``
    at ``[0, 0)``) and of white space only (Prodigy's ``"\\n"`` tokens) are left out."""
    if not isinstance(tokens, list) or not tokens:
        return None
    sentences: Sentences = [[]]
    last = 0
    for token in tokens:
        if not isinstance(token, dict):
            return None
        start, end = token.get("start"), token.get("end")
        if (not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool)
                or isinstance(end, bool) or start < 0 or end > len(text) or end < start):
            return None
        if start == end or not text[start:end].strip():
            continue
        if start < last:
            return None
        if "\n" in text[last:start] and sentences[-1]:
            sentences.append([])
        sentences[-1].append((start, end))
        last = end
    return sentences if sentences[0] else None


def _choose_group(groups: Sequence[str], wanted: str | None, file: str) -> str | None:
    if wanted is not None:
        if wanted not in groups and groups:
            raise FormatError(file, f"no span group {wanted!r}; the input holds "
                              f"{', '.join(groups)}", field="span-group")
        return wanted
    for name in ("ents", "entities"):
        if name in groups:
            return name
    if len(groups) == 1:
        return groups[0]
    if not groups:
        return None
    raise FormatError(file, f"several span groups ({', '.join(groups)}) and no entities; choose "
                      "one with --span-group", field="span-group")


class _Group:
    """The spans of one span group (or ``ents``) of every document of a DocBin, as columns."""

    def __init__(self) -> None:
        self.doc = array("i")
        self.start = array("q")
        self.end = array("q")
        self.label = array("i")


def _user_id(user_data: Sequence[bytes | None], n: int) -> object:
    """The ``id`` in the ``n``-th document's user data (msgpack, as DocBin keeps it), or None:
    decoded as spaCy's ``get_docs`` decodes it (``raw=False``, tuples), with a pairs hook,
    which keeps srsly from asking its decoder registry (those decoders turn numpy arrays back
    into arrays, which an id is not)."""
    if n >= len(user_data) or user_data[n] is None:
        return None
    from srsly import msgpack

    found = msgpack.unpackb(user_data[n], raw=False, use_list=False, object_pairs_hook=dict)
    if not isinstance(found, dict):  # get_docs's doc.user_data.update would fail on it
        raise TypeError(f"user data is a {type(found).__name__}, not a dict")
    return found.get("id")


def _read_docbin(file: str, data: bytes, options: ReadOptions) -> Loaded:
    """Read a DocBin one ``Doc`` at a time: spaCy's documents (a C struct per token) are the
    bulk of the memory, so only each document's text, id and spans are kept."""
    import_spacy()
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    def fail(exc: Exception, number: int | None = None) -> FormatError:
        where = f" (document {number})" if number is not None else ""
        return FormatError(file, f"expected a spaCy DocBin (.spacy) file, but it cannot be "
                           f"read{where}: {type(exc).__name__}: {one_line(str(exc))[:80]}")

    try:
        docbin = DocBin(store_user_data=True).from_bytes(data)
        # Each document's user data is decoded below for its id alone: get_docs would decode
        # it with srsly.msgpack_loads, which asks srsly's decoder registry (the installed
        # packages' entry points) once per document, two thirds of a 1,000-document read
        user_data, docbin.user_data = docbin.user_data, []
        # A bare Vocab: the documents need only the strings the DocBin carries, and a blank
        # pipeline's tokenizer costs 0.1-0.5 s per read to build (wild13 tour)
        vocab = Vocab()
        stream = iter(docbin.get_docs(vocab))
    except Exception as exc:  # spaCy and srsly raise many types for a corrupt file
        raise fail(exc) from None
    loaded = Loaded(FORMAT, file)
    groups: list[str] = []
    texts: list[str] = []
    raw_ids: list[object] = []
    found: dict[str, _Group] = {}
    label_codes: dict[str, int] = {}
    with_cats = 0  # documents with text labels (doc.cats: textcat), which are not spans
    token_sentences: list[Sentences] = []  # per document, when options.keep_tokens
    while True:
        n = len(texts)
        try:
            doc = next(stream, None)
            if doc is None:
                break
            if doc.has_annotation("ENT_IOB") and "ents" not in groups:
                groups.append("ents")
            groups.extend(g for g in doc.spans if g not in groups)
            raw_ids.append(_user_id(user_data, n))
            texts.append(doc.text)
            with_cats += bool(doc.cats)
            if options.keep_tokens:
                token_sentences.append(_doc_sentences(doc))
            for name, members in (("ents", doc.ents), *((g, doc.spans[g]) for g in doc.spans
                                                        if g != "ents")):
                group = found.get(name)
                if group is None:
                    group = found[name] = _Group()
                for sp in members:
                    label = sp.label_
                    code = label_codes.get(label)
                    if code is None:
                        code = label_codes[label] = len(label_codes)
                    group.doc.append(n)
                    group.start.append(sp.start_char)
                    group.end.append(sp.end_char)
                    group.label.append(code)
        except Exception as exc:  # a damaged DocBin fails in spaCy's code while it is read
            raise fail(exc, n + 1) from None
        del doc
    chosen_group = _choose_group(groups, options.span_group, file)
    dup = DuplicateIds(file)
    columns = SpanColumns()
    names = list(label_codes)
    picked = found.get(chosen_group) if chosen_group is not None else None
    k = 0
    for n, (text, raw_id) in enumerate(zip(texts, raw_ids, strict=True), start=1):
        doc_id = str(raw_id) if raw_id not in (None, "") else str(n)
        dup.add(doc_id, f"document {n}", field="id")
        index = columns.document(doc_id)
        while picked is not None and k < len(picked.doc) and picked.doc[k] == n - 1:
            span = make_span(picked.start[k], picked.end[k], names[picked.label[k]], file,
                             text=text, path=f"doc {n}.{chosen_group}",
                             beyond_text=options.beyond_text)
            check_label(span.label, options.labels, file, field="label", path=f"doc {n}")
            columns.add(index, span.start, span.end, span.label)
            k += 1
        loaded.texts[doc_id] = text
        if options.keep_tokens:
            loaded.keep_tokens(doc_id, token_sentences[n - 1])
    if with_cats and (picked is None or not len(picked.doc)):
        _text_labels_note(loaded, with_cats, "documents", "doc.cats")
    _warn_groups_left(loaded, found, chosen_group)
    if picked is not None:
        _warn_tag_labels(loaded, Counter(names[code] for code in picked.label))
    loaded.sets.append(AnnotationSet(set_name_of(file.removesuffix(".spacy")),
                                     columns.spans(), options.role))
    return loaded


def _warn_groups_left(loaded: Loaded, found: Mapping[str, _Group], chosen: str | None) -> None:
    """One warning per span group of a DocBin (``doc.ents`` included) that holds spans and is
    not the one read: how many documents and spans it holds, the first document (by
    position) and the option that reads it, so that no group is dropped silently (as the
    JSONL reader warns per unread key, :func:`_warn_unread`)."""
    for name, group in found.items():
        if name == chosen or not len(group.doc):
            continue
        docs, spans = len(set(group.doc)), len(group.doc)
        what = "entities (doc.ents)" if name == "ents" else f"span group {name!r}"
        hold = "documents hold" if docs != 1 else "document holds"
        their = "their" if name == "ents" else "its"
        are = "spans are" if spans != 1 else "span is"
        loaded.warn(f"{docs} {hold} {what}, not chosen (the spans read are {chosen!r}): "
                    f"{their} {spans} {are} not read (first: document {group.doc[0] + 1}); "
                    f"read them with --span-group {name}", field="span-group", kind="layer-choice")


_TAG_LABEL = re.compile(r"([BIESLU])-(.+)")


def _warn_tag_labels(loaded: Loaded, labels: Counter[str]) -> None:
    """Warn when every span label is a tag of a BIO-like scheme with two prefixes or more
    (``B-LOC``, ``I-LOC``): the tool that built the file took each token's tag for a label
    (the wild14 tour's Telugu DocBin), so an entity is read as a span per token, none of which
    matches a gold span labelled ``LOC``. Read as they are; the warning says what to do."""
    tags = [_TAG_LABEL.fullmatch(label) for label in labels if label != "O"]
    if not tags or None in tags or len({m.group(1) for m in tags if m}) < 2:
        return
    shown = ", ".join(f"{label} {n:,}" for label, n in labels.most_common(8))
    more = f", and {len(labels) - 8} more" if len(labels) > 8 else ""
    first = next(m.group(2) for m in tags if m)
    # joseBarros/ner_genetics_collab's dev.spacy: every token a span, 79,417 of them 'O'
    outside = (f", and the {labels['O']:,} spans labelled 'O' are tokens outside any entity"
               if "O" in labels else "")
    loaded.warn(f"the span labels are BIO tags ({shown}{more}): the file holds a span per "
                f"tagged token, so an entity of two tokens is read as two spans "
                f"('B-{first}', 'I-{first}'), and each would score 0 against a span labelled "
                f"{first!r}{outside}; rebuild the file with a span per entity (spaCy's "
                "biluo_tags_to_spans on each document's tags), or write its tokens and tags as "
                "CoNLL (a token and its tag a line) and read that", field="label",
                kind="tag-labels")


def _doc_sentences(doc: Any) -> Sentences:
    """A ``Doc``'s tokens (white-space tokens left out) by sentence: ``doc.sents`` when the
    DocBin kept sentence starts, else the lines of the text."""
    out: Sentences = []
    if doc.has_annotation("SENT_START"):
        for sent in doc.sents:
            out.append([(t.idx, t.idx + len(t.text)) for t in sent if not t.is_space])
        return out
    out.append([])
    for t in doc:
        if t.is_space:  # spaCy keeps a line break (and extra spaces) as a token of its own
            if "\n" in t.text:
                out.append([])
            continue
        out[-1].append((t.idx, t.idx + len(t.text)))
    return out


def _text_labels_note(loaded: Loaded, count: int, what: str, where: str) -> None:
    """The warning of an input without spans whose records carry text labels (a text
    classification: spaCy's ``doc.cats``, Prodigy's ``label`` or ``accept``), as Label
    Studio's reader warns of an export of choices only."""
    loaded.warn(f"no spans: {count} {what} carry text labels ({where}), which span metrics do "
                "not score, so 0 spans are read (SpanScope measures spans: annotate entities "
                "or span groups)", kind="no-spans")


def _has_text_labels(obj: Mapping[str, Any]) -> bool:
    """Does a JSONL task carry a text label: Prodigy's ``label`` (binary classification),
    ``accept`` (choice), or spaCy's ``cats``?"""
    return (isinstance(obj.get("label"), str) or bool(obj.get("cats"))
            or (isinstance(obj.get("accept"), list) and bool(obj["accept"])))


def _groups_of(obj: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("ents", "entities"):
        if key in obj:
            out[key] = obj[key]
    spans = obj.get("spans")
    if isinstance(spans, dict):
        out.update(spans)
    elif spans is not None:
        out["spans"] = spans
    return out


SKIPPED_ANSWERS = ("reject", "ignore")
"""Prodigy answers that mark a task as not annotated (Prodigy documentation, "Annotation
interfaces": accept, reject, ignore)."""


def _read_jsonl(file: str, content: str, options: ReadOptions) -> Loaded:
    # Two passes over the lines, each decoding one line at a time: the first finds the span
    # groups and the annotators, the second reads the documents (the decoded file is never
    # held at once).
    loaded = Loaded(FORMAT, file)
    records = _records_of(file, content)
    groups, annotators, inputs = _groups_and_annotators(file, records)
    group = _choose_group(groups, options.span_group, file)
    per_annotator = len(annotators) >= 2
    # per annotator: the ids seen, the spans, the documents named by their input
    sets: dict[str | None, tuple[DuplicateIds, SpanColumns, set[str]]] = {}
    no_id: list[int] = []
    skipped: list[int] = []
    span_count = text_labelled = 0
    used = group if group in GROUP_KEYS or group is None else "spans"
    unread: dict[str, list[int]] = {}  # key -> [records, spans, first line]
    for line, obj in records:
        assert isinstance(obj, dict)
        position = records.index + 1 if isinstance(records, _JsonList) else line
        who = obj.get("_annotator_id") if per_annotator else None
        if _skipped(obj, who, (file, line), skipped, sets):
            continue
        key = inputs.key(obj) if per_annotator else None
        if key is not None and inputs.superseded(who, key, obj, position, line):
            continue
        _count_unread(obj, used, line, unread)
        text = obj.get("text")
        if not isinstance(text, str):
            raise FormatError(file, "expected the text as a string", line=line, field="text")
        if per_annotator and not (isinstance(who, str) and who):
            raise FormatError(file, "expected the annotator of this task: the other tasks name "
                              f"{len(annotators)} annotators", line=line, field="_annotator_id")
        doc_id = (inputs.document(key, text, loaded.texts, file, line) if key is not None
                  else _task_id(obj, file, line, no_id,
                                position if isinstance(records, _JsonList) else None))
        columns = _document_of(sets, who, doc_id, key is not None, (file, line))
        triples = _task_spans(obj, group, text, file, line, options, loaded,
                              records.path() if isinstance(records, _JsonList) else None)
        if key is not None:
            triples = inputs.fresh(who, doc_id, triples, line)
        index = columns.document(doc_id)
        for s, e, lab in triples:
            columns.add(index, s, e, lab)
        span_count += len(triples)
        text_labelled += _has_text_labels(obj)
        loaded.texts[doc_id] = text
        _keep_task_tokens(loaded, options, doc_id, obj, text)
    _warn_no_id(loaded, no_id, isinstance(records, _JsonList))
    inputs.warn(loaded, len(annotators))
    if skipped:
        loaded.warn(f"{_tasks(len(skipped))} answered 'reject' or 'ignore' "
                    + ("is not an annotation" if len(skipped) == 1 else "are not annotations")
                    + f"; skipped (first: line {skipped[0]})", line=skipped[0], field="answer",
                    kind="skipped")
    if text_labelled and not span_count:
        _text_labels_note(loaded, text_labelled, "tasks", "'label', 'accept' or 'cats'")
    _warn_unread(loaded, unread, used)
    if not per_annotator:
        columns = sets[None][1] if sets else SpanColumns()
        loaded.sets.append(AnnotationSet(set_name_of(file), columns.spans(), options.role))
        return loaded
    for who in annotators:
        if who in sets:
            loaded.sets.append(AnnotationSet(who, sets[who][1].spans(), "annotator"))
            loaded.named_sets.add(who)
    return loaded


def _records_of(file: str, content: str) -> JsonLines | _JsonList:
    """The file's records: a JSON list's, the NER Annotator's export's (one object whose
    ``annotations`` are the list), or JSON Lines'."""
    start = content.lstrip()[:1]
    if start == "[" or (start == "{" and training_tuples(content[:65536])):
        return _JsonList(file, content)
    return JsonLines(file, content)


def _document_of(sets: dict[str | None, tuple[DuplicateIds, SpanColumns, set[str]]],
                 who: str | None, doc_id: str, by_input: bool, where: tuple[str, int]
                 ) -> SpanColumns:
    """The spans of annotator ``who`` (its set made on its first task), with ``doc_id`` seen
    at ``where`` (file, line): a document the file names twice is refused, but the questions
    of one input (``by_input``: named by its input, :class:`_Inputs`) share its document."""
    found = sets.get(who)
    if found is None:
        found = sets[who] = (DuplicateIds(where[0]), SpanColumns(), set())
    dup, columns, inputs = found
    if not (by_input and doc_id in inputs):
        dup.add(doc_id, f"line {where[1]}", line=where[1])
    if by_input:
        inputs.add(doc_id)
    return columns


def _skipped(obj: Mapping[str, Any], who: object, where: tuple[str, int], skipped: list[int],
             sets: dict[str | None, tuple[DuplicateIds, SpanColumns, set[str]]]) -> bool:
    """Whether the task (at ``where``: file, line) is answered 'reject' or 'ignore' (no
    annotation; its line added to ``skipped``); its annotator keeps a set, even empty, so that
    ``agree`` lists it."""
    if obj.get("answer") not in SKIPPED_ANSWERS:
        return False
    skipped.append(where[1])
    if isinstance(who, str) and who and who not in sets:
        sets[who] = (DuplicateIds(where[0]), SpanColumns(), set())
    return True


def _tasks(count: int) -> str:
    """``"1 task"``, ``"2 tasks"``."""
    return f"{count} task" if count == 1 else f"{count} tasks"


def _warn_no_id(loaded: Loaded, no_id: list[int], in_list: bool) -> None:
    """The warning of the records whose line number (position in a JSON list) is their id."""
    one = len(no_id) == 1
    if no_id and in_list:
        loaded.warn(("1 record has no 'id'; its position in the list (1, 2, ...) is the "
                     "document id" if one else f"{len(no_id)} records have no 'id'; their "
                     "positions in the list (1, 2, ...) are the document ids")
                    + f" (first: line {no_id[0]})", line=no_id[0], field="id", kind="document-ids")
    elif no_id:
        loaded.warn(("1 line has no 'id'; its line number is the document id" if one else
                     f"{len(no_id)} lines have no 'id'; their line numbers are the document "
                     "ids") + f" (first: line {no_id[0]})", line=no_id[0], field="id",
                    kind="document-ids")


def _count_unread(obj: dict[str, Any], used: str | None, line: int,
                  unread: dict[str, list[int]]) -> None:
    """Counts, per key of ``obj`` other than ``used``, the span lists it holds that the reader
    does not read (``unread[key]``: records, spans, first line)."""
    for key, value in obj.items():
        if key != used and (is_span_objects(value) or (
                key in GROUP_KEYS and isinstance(value, list) and value)):
            count = unread.setdefault(key, [0, 0, line])
            count[0] += 1
            count[1] += len(value)


def _warn_unread(loaded: Loaded, unread: dict[str, list[int]], used: str | None) -> None:
    """One warning per key whose spans :func:`_count_unread` found and the reader dropped: a
    file whose spans are all there would otherwise read as a corpus without spans, and score
    0 or 1 silently."""
    for key, (n_records, n_spans, first) in unread.items():
        what = "records hold a list of span" if n_records != 1 else "record holds a list of span"
        if key in GROUP_KEYS:
            loaded.warn(f"{n_records} {what}s under {key!r}, a span group not chosen (the "
                        f"spans read are {used!r}): their {n_spans} spans are not read (first: "
                        f"line {first}); read them with --span-group {key}", line=first,
                        field=key, kind="layer-choice")
        else:
            loaded.warn(f"{n_records} {what} objects ({{start, end, label}}) under {key!r}, "
                        "which the spacy reader does not read (it reads 'ents', 'entities' or "
                        f"'spans'): their {n_spans} spans are not read (first: line {first})",
                        line=first, field=key, kind="skipped")


class _JsonList:
    """The records of a JSON list, as :class:`JsonLines` gives those of JSON Lines: ``(line,
    record)``, the line where each starts.

    spaCy's training tuples ``[text, {"entities": [...]}]`` (the list itself, or the
    ``annotations`` of the NER Annotator for spaCy's export, ``{"classes": [...],
    "annotations": [...]}``) are given as the records ``{"text": text, "entities": [...]}``
    they stand for; :meth:`path` is where the record's annotation object is in the file."""

    def __init__(self, file: str, content: str) -> None:
        self.file = file
        self.values = load_json(file, content)
        self.prefix: tuple[str, ...] = ()  # the key of the records' list (the NER Annotator's)
        if (isinstance(self.values, dict) and isinstance(self.values.get("annotations"), list)
                and "classes" in self.values):
            self.values, self.prefix = self.values["annotations"], ("annotations",)
        if not isinstance(self.values, list):
            raise FormatError(file, "expected a list of objects {\"text\": ..., \"spans\": "
                              "[...]} or one such object per line (JSON Lines)", line=1)
        self.locator = JsonLocator(content)
        self.index = 0  # the record being read
        self.tuple = False  # is it a training tuple?

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        for i, value in enumerate(self.values):
            self.index = i
            line = self.locator.line(*self.prefix, i) or 1
            self.tuple = isinstance(value, list) or bool(self.prefix)
            yield line, self._record(value, line) if self.tuple else value

    def _record(self, value: object, line: int) -> dict[str, Any]:
        """The record a training tuple stands for."""
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
                and isinstance(value[1], dict)):
            raise FormatError(self.file, "expected a record or a training tuple [text, "
                              "{\"entities\": [[start, end, label]]}], got "
                              f"{one_line(json.dumps(value)[:60])}", line=line,
                              path=json_path(*self.prefix, self.index))
        return {**value[1], "text": value[0]}

    def path(self) -> tuple[str | int, ...]:
        """The JSON path of the record being read's spans' object: ``[3]``, or ``[3][1]``
        (``annotations[3][1]``) for a training tuple."""
        return (*self.prefix, self.index, 1) if self.tuple else (self.index,)

    @contextlib.contextmanager
    def in_file_order(self) -> Iterator[None]:
        yield  # decoded at once: no later malformed line to report first


class _Inputs:
    """The inputs of a Prodigy export with several annotators, found in the first pass.

    Prodigy identifies an input by its ``_input_hash`` (Prodigy documentation, "Loaders and
    Input Data": the hash of the input, the text; ``_task_hash`` adds the question asked), so
    the tasks of several annotators that share it are one document, each annotator's answer a
    set over the documents: the document id is the hash. A task without ``_input_hash`` is
    known by its text, its id the line (the position in a JSON list) where that text first
    appears. Only a task without ``id`` or ``meta.id`` is named so (an id the file gives is
    the document).

    One input may be asked several questions, each its own ``_task_hash`` (a binary recipe
    such as ``ner.teach`` suggests one span per question): an annotator's accepted answers to
    all of them are one document, their spans together. The same question answered again (same
    input, same ``_task_hash``, or no ``_task_hash``) is a later session's answer: the later
    accepted one is kept. A 'reject' or 'ignore' answer is no annotation and replaces none.
    A span that two questions both mark (same start, end and label) is one annotation
    confirmed twice and is kept once (:meth:`fresh`): the document is the union of the
    answers, whereas a span one task lists twice is the file's duplicate, kept with a warning
    as every reader keeps it. ``last``: per annotator, input and question, the position of
    its last accepted answer."""

    def __init__(self) -> None:
        self.last: dict[tuple[object, tuple[str, object], object], int] = {}
        self.first_line: dict[str, int] = {}  # text -> where it first appears
        self.hashed = False  # some task was named by its _input_hash
        self.named: list[int] = []  # the lines of the tasks named by their input
        self.ids: set[str] = set()  # the documents they name
        self.earlier: list[int] = []  # an annotator's answers superseded by a later one
        self.questions: dict[tuple[str, object], object] = {}  # input -> its first question
        self.asked_again: dict[tuple[str, object], int] = {}  # input -> line of its 2nd one
        # per annotator and document, the spans its earlier questions marked
        self.marked: dict[tuple[object, str], set[tuple[int, int, str]]] = {}
        self.repeated: list[int] = []  # a line per span an earlier question marked already

    @staticmethod
    def key(obj: Mapping[str, Any]) -> tuple[str, object] | None:
        """``("hash", _input_hash)`` or ``("text", text)`` for a task the file gives no id;
        None for one it does (or one without a text, refused later)."""
        meta = obj.get("meta")
        if obj.get("id") is not None or (isinstance(meta, dict) and meta.get("id") is not None):
            return None
        hashed = obj.get("_input_hash")
        if isinstance(hashed, (int, str)) and not isinstance(hashed, bool) and hashed != "":
            return ("hash", hashed)
        text = obj.get("text")
        return ("text", text) if isinstance(text, str) else None

    @staticmethod
    def question(obj: Mapping[str, Any]) -> object:
        """The task's ``_task_hash`` (None when it has none, or not a number or string)."""
        asked = obj.get("_task_hash")
        return asked if isinstance(asked, (int, str)) and not isinstance(asked, bool) else None

    def add(self, obj: Mapping[str, Any], position: int, line: int) -> None:
        key = self.key(obj)
        if key is None:
            return
        if key[0] == "text":
            self.first_line.setdefault(str(key[1]), position)
        if obj.get("answer") in SKIPPED_ANSWERS:
            return
        asked = self.question(obj)
        if self.questions.setdefault(key, asked) != asked:
            self.asked_again.setdefault(key, line)
        self.last[(obj.get("_annotator_id"), key, asked)] = position

    def superseded(self, who: object, key: tuple[str, object], obj: Mapping[str, Any],
                   position: int, line: int) -> bool:
        """Whether the accepted task at ``position`` is an answer its annotator gives again
        later to the same question (counted for the warning)."""
        if self.last.get((who, key, self.question(obj)), position) == position:
            return False
        self.earlier.append(line)
        return True

    def document(self, key: tuple[str, object], text: str, texts: Mapping[str, str | None],
                 file: str, line: int) -> str:
        """The document id of a task named by its input: the hash, or the line where its
        text first appears; one hash with two ``texts`` is refused."""
        if key[0] == "hash":
            self.hashed = True
            doc_id = str(key[1])
            if texts.get(doc_id, text) != text:
                raise FormatError(file, f"this task's _input_hash {key[1]} is an earlier "
                                  "task's, with another text (Prodigy gives one input one "
                                  "hash)", line=line, field="_input_hash")
        else:
            doc_id = str(self.first_line[str(key[1])])
        self.named.append(line)
        self.ids.add(doc_id)
        return doc_id

    def fresh(self, who: object, doc_id: str, triples: list[tuple[int, int, str]],
              line: int) -> list[tuple[int, int, str]]:
        """``triples``, one task's spans on document ``doc_id`` of annotator ``who``, without
        those an earlier question of the same annotator on the same input marked (their
        ``line`` counted for the warning); a repeat within the task stays."""
        marked = self.marked.setdefault((who, doc_id), set())
        kept = [t for t in triples if t not in marked]
        self.repeated.extend([line] * (len(triples) - len(kept)))
        marked.update(triples)
        return kept

    def warn(self, loaded: Loaded, annotators: int) -> None:
        """The warnings of the tasks named by their input, of the superseded answers and of
        the spans two questions mark."""
        if self.named:
            loaded.warn(f"{_tasks(len(self.named))} of {annotators} annotators "
                        + ("has" if len(self.named) == 1 else "have") + " no 'id': "
                        + ("Prodigy's '_input_hash' names their documents" if self.hashed
                           else "their text names their documents (no '_input_hash'; the id "
                           "is the line where the text first appears)")
                        + ", so each annotator's answers to one input are one document "
                        f"({len(self.ids)} input{'' if len(self.ids) == 1 else 's'}; first: "
                        f"line {self.named[0]})",
                        line=self.named[0], field="_input_hash" if self.hashed else "text",
                        kind="document-ids")
        if self.earlier:
            loaded.warn(f"{_tasks(len(self.earlier))} "
                        + ("answers" if len(self.earlier) == 1 else "answer")
                        + " a question that the same annotator answers again on a later line; "
                        f"the later answer is kept (first: line {self.earlier[0]})",
                        line=self.earlier[0], field="_annotator_id", kind="repeated-answer")
        if self.asked_again:
            many = len(self.asked_again)
            first = min(self.asked_again.values())
            loaded.warn(("1 input is" if many == 1 else f"{many} inputs are")
                        + " asked several questions (distinct '_task_hash'): each annotator's "
                        + ("accepted answers to it are" if many == 1 else
                           "accepted answers to one of them are")
                        + f" one document (first: line {first})", line=first,
                        field="_task_hash", kind="merged")
        if self.repeated:
            many = len(self.repeated)
            loaded.warn(("1 span repeats" if many == 1 else f"{many} spans repeat")
                        + " a span that the same annotator's earlier question on the same "
                        "input marks (same start, end and label); "
                        + ("it is" if many == 1 else "each is")
                        + f" kept once (first: line {self.repeated[0]})",
                        line=self.repeated[0], field="_task_hash", kind="duplicate-span")


def _groups_and_annotators(file: str, first: JsonLines | _JsonList
                           ) -> tuple[list[str], dict[str, None], _Inputs]:
    """The first pass: the span groups (``ents``, ``spans`` keys) and the annotators
    (Prodigy's ``_annotator_id``) of every line, in first-seen order, and the inputs of the
    tasks that name an annotator (:class:`_Inputs`)."""
    groups: list[str] = []
    annotators: dict[str, None] = {}
    inputs = _Inputs()
    with first.in_file_order():
        for line, obj in first:
            if not isinstance(obj, dict):
                raise FormatError(file, "expected one JSON object per line"
                                  if isinstance(first, JsonLines) else
                                  "expected a list of JSON objects {\"text\": ..., \"spans\": "
                                  "[...]}", line=line)
            groups.extend(g for g in _groups_of(obj) if g not in groups)
            who = obj.get("_annotator_id")
            if isinstance(who, str) and who:
                annotators[who] = None
                inputs.add(obj, first.index + 1 if isinstance(first, _JsonList) else line,
                           line)
    return groups, annotators, inputs


def _task_id(obj: dict[str, Any], file: str, line: int, no_id: list[int],
             position: int | None = None) -> str:
    """A line's document id: ``id``, else ``meta.id`` (Prodigy), else its line number (its
    ``position`` in a JSON list; the line is added to ``no_id`` for the warning)."""
    raw_id = obj.get("id")
    meta = obj.get("meta")
    if raw_id is None and isinstance(meta, dict):
        raw_id = meta.get("id")
    if raw_id is None:
        no_id.append(line)
        return str(line if position is None else position)
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)) or raw_id == "":
        raise FormatError(file, f"expected a number or string id, got {raw_id!r}",
                          line=line, field="id")
    return str(raw_id)


def _task_spans(obj: dict[str, Any], group: str | None, text: str, file: str, line: int,
                options: ReadOptions, loaded: Loaded,
                record: tuple[str | int, ...] | None = None) -> list[tuple[int, int, str]]:
    """The spans of one line's chosen group (of the list's object at the path ``record``),
    checked, with their warnings (whitespace, duplicates)."""
    items = _groups_of(obj).get(group, []) if group is not None else []
    if not isinstance(items, list):
        raise FormatError(file, "expected a list of spans", line=line, field=str(group))
    doc_spans: list[Span] = []
    for j, item in enumerate(items):
        where = json_path(str(group), j) if record is None else json_path(*record, str(group), j)
        span = _span_item(item, where, text, file, line, options.beyond_text)
        check_label(span.label, options.labels, file, field="label", line=line, path=where)
        for message, fld in span_warnings(span, text):
            loaded.warn(message, line=line, field=fld)
        doc_spans.append(span)
    triples = [(s.start, s.end, s.label) for s in doc_spans]
    for s, e, lab in duplicates(triples):
        loaded.warn(f"the span [{s}, {e}) {lab!r} occurs more than once; kept", line=line,
                    kind="duplicate-span")
    return triples


def _span_item(item: object, where: str, text: str, file: str, line: int,
               beyond_text: Policy) -> Span:
    """One span of a group: ``[start, end, label]`` or ``{"start", "end", "label"}``."""
    if isinstance(item, list):
        if len(item) != 3:
            raise FormatError(file, f"expected [start, end, label], got "
                              f"{json.dumps(item)[:60]}", line=line, path=where)
        start, end, label = item
        fields = (f"{where}[0]", f"{where}[1]", f"{where}[2]")
        return make_span(start, end, label, file, line=line, text=text, fields=fields,
                         beyond_text=beyond_text)
    if isinstance(item, dict):
        if "start" not in item and {"start_offset", "end_offset"} & item.keys():
            # The sniff sees the head only: doccano's records of "entities": [] look alike
            # until the first span, which may come after it.
            raise FormatError(file, "doccano's layout ('start_offset', 'end_offset'), not "
                              "spaCy's ('start', 'end'): read the file with --format doccano",
                              line=line, path=where, field="start")
        for key in ("start", "end", "label"):
            if key not in item:
                raise FormatError(file, "missing", line=line, path=where, field=key)
        return make_span(item["start"], item["end"], item["label"], file, line=line,
                         text=text, path=where, beyond_text=beyond_text)
    raise FormatError(file, "expected a span object or [start, end, label]",
                      line=line, path=where)


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
    English pipeline whose tokens are cut at every span edge inside them, so that each span
    keeps its exact offsets (:func:`docbin_notes` says what was cut or left out)."""
    spacy = import_spacy()
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    out = DocBin(store_user_data=True)
    for doc_id, spans in aset:
        text = texts.get(doc_id)
        if text is None:
            raise FormatError("<output>", f"document {doc_id!r} has no text")
        doc = _cut_doc(nlp, text, spans)[0]
        made = [doc.char_span(s.start, s.end, label=s.label) for s in spans]
        kept = [m for m in made if m is not None]  # beyond the text: docbin_notes names them
        if group == "ents":
            doc.ents = kept
        else:
            doc.spans[group] = kept
        doc.user_data["id"] = doc_id
        out.add(doc)
    data: bytes = out.to_bytes()
    return data


def docbin_notes(texts: Mapping[str, str | None], aset: AnnotationSet) -> list[str]:
    """What :func:`docbin_bytes` changes: tokens cut at span edges (a note: spaCy's blank
    tokenizer splits at spaces and punctuation, so a text without spaces between words is one
    token per sentence), and spans it cannot place (a warning naming each: they end beyond the
    text)."""
    spacy = import_spacy()
    nlp = spacy.blank("en")
    cut: list[tuple[str, str, int]] = []
    dropped: list[str] = []
    for doc_id, spans in aset:
        text = texts.get(doc_id)
        if text is None:
            continue  # docbin_bytes refuses it
        _, tokens = _cut_doc(nlp, text, spans, build=False)
        cut.extend((doc_id, tok, pieces) for tok, pieces in tokens)
        dropped.extend(f"document {doc_id!r} [{s.start}, {s.end}) {s.label!r}"
                       for s in spans if s.end > len(text))
    notes = []
    if cut:
        doc_id, tok, pieces = max(cut, key=lambda c: len(c[1]))
        shown = tok if len(tok) <= 40 else tok[:37] + "..."
        notes.append(f"note: {len(cut)} tokens of spaCy's blank English tokenizer are cut at "
                     "span edges so that every span keeps its exact offsets (unspaced text, "
                     "such as Chinese or Japanese, is one token per sentence); the longest: "
                     f"document {doc_id!r}, {shown!r} cut into {pieces} tokens")
    if dropped:
        notes.append(KindedText(f"warning: {len(dropped)} spans end beyond their document's "
                                f"text and are left out of the DocBin: {', '.join(dropped[:5])}"
                                + (f" and {len(dropped) - 5} more" if len(dropped) > 5 else ""),
                                "beyond-text"))
    return notes


def _cut_doc(nlp: Any, text: str, spans: Sequence[Span], *, build: bool = True
             ) -> tuple[Any, list[tuple[str, int]]]:
    """``text`` as a spaCy ``Doc`` whose tokens are ``nlp``'s, each cut at the span edges that
    fall inside it (spaCy builds a Doc from words and their trailing spaces, "Doc.__init__"),
    and the tokens cut: ``(token, pieces)``. ``build=False`` skips the Doc."""
    from bisect import bisect_left, bisect_right

    edges = sorted({e for s in spans for e in (s.start, s.end)})
    # A span that starts at, or ends after, a token's trailing space needs that space as a
    # token of its own: spaCy's span edges are token edges.
    lone_space = {s.start for s in spans} | {s.end - 1 for s in spans}
    words: list[str] = []
    spaces: list[bool] = []
    cut: list[tuple[str, int]] = []
    for tok in nlp.make_doc(text):
        a, b = tok.idx, tok.idx + len(tok.text)
        points = [a, *edges[bisect_right(edges, a):bisect_left(edges, b)], b]
        if len(points) > 2:
            cut.append((tok.text, len(points) - 1))
        words.extend(text[points[k]:points[k + 1]] for k in range(len(points) - 1))
        space = bool(tok.whitespace_)
        if space and b in lone_space:
            words.append(tok.whitespace_)
            space = False
        spaces.extend([False] * (len(points) - 2) + [space])
        if len(spaces) < len(words):
            spaces.append(False)
    if not build:
        return None, cut
    from spacy.tokens import Doc

    return Doc(nlp.vocab, words=words, spaces=spaces), cut
