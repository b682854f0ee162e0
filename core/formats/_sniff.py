"""What format detection looks at: a file's head, and the JSON records the head shows whole.

:func:`head_of` is the ``head`` every module's ``sniff`` receives (see :mod:`core.formats`):
the file's first 4 KiB, extended to the end of the line they cut, at most 1 MiB, or, when the
file starts a JSON object, at most 64 MiB (:data:`HEAD_RECORD_MAX`). A JSON Lines file's first
record is then always whole unless that one line is longer than 64 MiB, so a module decides on
the record's keys, not on a guess from the file name; a pretty-printed JSON file, whose lines
are short, still costs about 4 KiB.

:func:`json_head` parses the records the head holds whole (at most :data:`MAX_RECORDS`), once
per head however many modules ask: JSON Lines objects one per line, the first elements of a
top-level JSON list, or one object spread over several lines. It never reads past the head,
so detecting a 60 MB JSON list parses at most its first MiB.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

HEAD_MIN = 4096
"""A head holds at least this many bytes of the file (all of a shorter file)."""

HEAD_MAX = 1 << 20
"""A head ends at the first line end at or after :data:`HEAD_MIN`, or here (1 MiB)."""

HEAD_RECORD_MAX = 64 << 20
"""A head that starts a JSON object (a JSON Lines record) whose line is longer than
:data:`HEAD_MAX` ends at that line's end, or at the end of the file, up to here (64 MiB). One
record can hold a long document (a book chapter, a whole report: a few MB of text with its
spans), and detection needs it whole to see its keys; the bound keeps what detection decodes
and parses of one file to one such record (tens of MB at most, well under a second), not a
whole one-line file of gigabytes, which no JSON Lines record is."""

MAX_RECORDS = 20
""":func:`json_head` parses at most this many records."""

_WS = " \t\r\n"


def head_of(data: bytes) -> str:
    """The text a ``sniff`` sees of ``data``: its first :data:`HEAD_MIN` bytes, extended to the
    end of the line they cut (at most :data:`HEAD_MAX` bytes), decoded as UTF-8 with
    undecodable bytes replaced and a byte order mark dropped.

    >>> head_of(b'{"a": 1}\\n{"b": 2}\\n')
    '{"a": 1}\\n{"b": 2}\\n'
    >>> len(head_of(b"x" * 5000 + b"\\n" + b"y" * 5000))
    5001
    """
    if len(data) > HEAD_MIN:
        newline = data.find(b"\n", HEAD_MIN - 1, HEAD_MAX)
        end = HEAD_MAX if newline < 0 else newline + 1
        if newline < 0 and len(data) > HEAD_MAX and _starts_object(data):
            newline = data.find(b"\n", HEAD_MAX, HEAD_RECORD_MAX)
            if newline >= 0 or len(data) <= HEAD_RECORD_MAX:  # the record ends: read it whole
                end = len(data) if newline < 0 else newline + 1
        data = data[:end]
    return data.decode("utf-8", errors="replace").lstrip("\ufeff")


def _starts_object(data: bytes) -> bool:
    """Whether ``data`` starts a JSON object, after a byte order mark and white space."""
    return data[:HEAD_MIN].removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"{")


_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\f") + b"\x7f"


LFS_POINTER = "a Git LFS pointer, not the file"
"""How :func:`why_undetected` starts its answer for a Git LFS pointer file."""
_LFS_POINTER = re.compile(rb"version https://git-lfs\.github\.com/spec/v1\r?\n"
                          rb"(?:[a-z0-9.-]+ [^\n]*\n)*?size ([0-9]{1,18})\r?\n")
"""A Git LFS pointer (the Git LFS specification: a ``version`` line, then keys in order,
``oid`` and ``size`` among them), which a clone made without ``git lfs`` holds in place of
the file."""


def why_undetected(data: bytes) -> str | None:
    """Why no ``sniff`` can recognise ``data`` when the reason lies in the bytes, else None:
    the file is empty, holds binary bytes (a control character or a byte that is not UTF-8)
    within its first :data:`HEAD_MIN` bytes, or its first line is longer than
    :data:`HEAD_MAX` (:data:`HEAD_RECORD_MAX` when it starts a JSON object), so that the head
    holds no whole JSON Lines record, or is such a line read whole that no format recognises
    (a minified JSON object). Asked only once detection has failed.

    >>> why_undetected(b""), why_undetected(b"ab\\x00c"), why_undetected(b'{"a": 1}')
    ('the file is empty', 'not a text file (binary bytes at offset 2)', None)
    """
    if not data.strip():
        return "the file is empty" if not data else "the file holds only white space"
    pointer = _LFS_POINTER.match(data[:1024])
    if pointer is not None:
        return (f"{LFS_POINTER}: its content ({int(pointer.group(1)):,} bytes) is kept by Git "
                "LFS; fetch it (git lfs pull) and read the file again")
    head = data[:HEAD_MAX]
    control = next((i for i, b in enumerate(head[:HEAD_MIN]) if b in _CONTROL), None)
    try:
        head[:HEAD_MIN].decode("utf-8-sig")
        bad = None
    except UnicodeDecodeError as exc:
        # exc.start counts after a byte order mark (utf-8-sig): the file's offset is past it
        skipped = 3 if head.startswith(b"\xef\xbb\xbf") else 0
        bad = exc.start + skipped if exc.reason != "unexpected end of data" else None
    offsets = [i for i in (control, bad) if i is not None]
    if offsets:
        return f"not a text file (binary bytes at offset {min(offsets)})"
    if len(data) > HEAD_MAX and b"\n" not in head:
        if not _starts_object(data):
            return (f"the first line is longer than {HEAD_MAX >> 20} MiB, the most detection "
                    "reads, so it sees no whole record")
        line = data.find(b"\n", HEAD_MAX, HEAD_RECORD_MAX)
        if line < 0 and len(data) > HEAD_RECORD_MAX:
            return (f"the first line is longer than {HEAD_RECORD_MAX >> 20} MiB, the most "
                    "detection reads of a JSON record, so it sees no whole record")
        size = (len(data) if line < 0 else line) / 2**20
        return (f"its first line ({size:,.1f} MiB{', the whole file' if line < 0 else ''}), "
                "read whole, is no record of a known format")
    other = _other_json(head_of(data))
    if other is not None:
        return other
    toxic = _toxic_spans_csv(head[:HEAD_MIN].decode("utf-8", errors="replace"))
    if toxic is not None:
        return toxic
    names = offsetless_header(head[:HEAD_MIN].decode("utf-8", errors="replace"))
    if names is not None:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        return (f"{NOT_AN_EXPORT}: a table whose header ({shown}) names no character offsets "
                "(start, end) and no token tags, which every span format SpanScope reads gives")
    return None


_TOXIC_SPANS = re.compile(r'(?:spans,text|text,spans)\r?\n"?\[[0-9, ]*\]')
"""SemEval-2021 task 5's CSV: a header ``spans,text`` and, per post, the list of the offsets of
its toxic characters."""


def _toxic_spans_csv(head: str) -> str | None:
    """What SemEval-2021 task 5's Toxic Spans CSV is (wild15 tour: ipavlopoulos/toxic_spans's
    ``tsd_trial.csv``, ``tsd_test.csv``), with what to do; None for any other head."""
    if _TOXIC_SPANS.match(head.lstrip("\ufeff")) is None:
        return None
    return ("SemEval-2021 task 5's Toxic Spans CSV (spans,text: per post, the offsets of its "
            "toxic characters, one by one): no format SpanScope reads; make each run of "
            "consecutive offsets a span from its first offset to one past its last, labelled "
            "'toxic', and write the posts as doccano JSONL ({\"id\": ..., \"text\": ..., "
            "\"label\": [[start, end, \"toxic\"]]}), then read that")


_NER_ANNOTATOR = re.compile(r'\{\s*"classes"\s*:\s*\[[^\]]*\]\s*,\s*"annotations"\s*:\s*\[\s*\[')
"""The NER Annotator for spaCy's export, pretty-printed past the head: its two keys in order."""

_TRAINING_TUPLES = re.compile(r'\[\s*\[\s*"')
"""A JSON list whose first element is a list that starts with a string: spaCy's training
tuples when a ``{"entities": ...}`` object follows the string (the head may cut a long one)."""

_PROJECT_SETTINGS = re.compile(r'\{\s*"name"\s*:\s*"[^"\n]*"\s*,[^\[\]]*?"mode"\s*:\s*"\w+"'
                               r'[\s\S]*?"source_documents"\s*:\s*\[')
"""The settings file of an INCEpTION or WebAnno project export (``exportedproject<N>.json``):
its ``name`` first, then, before any list, the project's ``mode`` (``ANNOTATION``,
``annotation``), then its ``source_documents``, as both tools write them."""

UNREAD_LAYOUTS = ("JSON Lines of lists", "spaCy v2's JSON training data",
                  "the settings of an INCEpTION or WebAnno project export",
                  "Label Studio tasks to import", "records of a text and its category",
                  "records of token and tag lists", "records with doccano's span objects",
                  "records of an item's id and its label",
                  "SemEval-2021 task 6 records in a JSON object keyed by their ids",
                  "DyGIE++ or PURE JSON Lines", "SemEval-2021 task 5's Toxic Spans CSV")
"""How :func:`why_undetected` starts its answer for a known layout no format reads."""


def _other_json(head: str) -> str | None:
    """What a JSON head no reader took is, when it is a known layout no format reads:
    spaCy v2's JSON training data, JSON Lines of lists ([text, tags] pairs), an INCEpTION
    project's settings or Label Studio tasks to import. Asked only once detection has failed.
    (spaCy's training tuples and the NER Annotator's export, named here until the wild14
    tour, are read by the spacy reader: :func:`training_tuples`.)"""
    body = head.lstrip(_WS)
    first, end = _raw(body, 0)
    if isinstance(first, list) and first and body[_skip(body, end):][:1] in ("[", "{"):
        shown = ", ".join(type(v).__name__ for v in first[:4])
        return (f"JSON Lines of lists, not objects (the first: {shown}): no format SpanScope "
                "reads; tags per token are read from CoNLL (a token and its tag a line), spans "
                "from doccano's JSON Lines ({\"text\": ..., \"label\": [[start, end, label]]})")
    if _PROJECT_SETTINGS.match(body):
        return ("the settings of an INCEpTION or WebAnno project export (exportedproject.json: "
                "the project's layers, users and document list, no annotation): the "
                "annotations are in the export's annotation/ folder (one file per document "
                "and annotator) and curation/ folder; export the project in WebAnno TSV 3 or "
                "UIMA CAS XMI and read those")
    by_id = _semeval_by_id(body)
    if by_id is not None:
        return by_id
    array = _array(body)
    task = array.first if array.kind == "array" else first if isinstance(first, dict) else None
    if isinstance(task, dict) and set(task) == {"data"} and isinstance(task["data"], dict):
        return LS_IMPORT_TASKS
    layout = _records_layout(json_head(head).records)
    if layout is not None:
        return layout
    if isinstance(task, dict) and isinstance(task.get("paragraphs"), list):
        return ("spaCy v2's JSON training data (documents of paragraphs of sentences of tokens "
                "with their ner tags): convert it to a DocBin with 'python -m spacy convert "
                "FILE OUTPUT_DIR', and read the .spacy file")
    return None


_RECORDS_BY_ID = re.compile(r'\{\s*"([^"\\]{1,40})"\s*:\s*\{\s*"id"\s*:')
"""A JSON object whose first member is a record that starts with its ``id``."""


def _semeval_by_id(body: str) -> str | None:
    """What a JSON object of SemEval-2021 task 6 records keyed by their ids is (wild15 tour:
    the code-switched propaganda corpus, umar1997/Propaganda_Detection_on_Code_Switched_Data,
    ``{"0": {"id": "0", "text": ..., "labels": [{"start_index", "end_index", "technique",
    "text_fragment"}]}}``), with what to do; None for any other head."""
    found = _RECORDS_BY_ID.match(body)
    if found is None or '"labels"' not in body or '"technique"' not in body:
        return None
    renamed = '"start_index"' in body and '"end_index"' in body
    offsets = '"start_index", "end_index"' if renamed else '"start", "end"'
    rename = (", rename 'start_index' and 'end_index' to 'start' and 'end'" if renamed
              else "")
    return (f"SemEval-2021 task 6 records in a JSON object keyed by their ids ({{\"{found[1]}\": "
            f"{{\"id\", \"text\", \"labels\": [{{{offsets}, \"technique\", ...}}]}}, ...}}), "
            f"not the task's JSON list: write the records as a list{rename}, and read it with "
            "--format semeval2021")


def _records_layout(records: tuple[dict[str, Any], ...]) -> str | None:
    """What the head's JSON records are when they are one of the layouts no format reads
    (wild14 and wild15 tours): a text and its category, doccano's span objects under another
    key, an item's id and its label, DyGIE++'s token-indexed entities, or token and tag lists;
    else None."""
    if not records:
        return None
    for layout in (_text_and_category, _span_objects_elsewhere, _judgements, _dygie,
                   _token_and_tag_records):
        found = layout(records)
        if found is not None:
            return found
    return None


def _text_and_category(records: tuple[dict[str, Any], ...]) -> str | None:
    """Records of a text and its category (wild14: kayako's ``entities_data.jsonl``)."""
    if all(isinstance(r.get("text"), str) and isinstance(r.get("category"), str)
           and not any(isinstance(v, (list, dict)) for v in r.values()) for r in records):
        return ("records of a text and its category ({\"text\", \"category\"}: a text "
                "classification's data, or fragments cut out of their documents): no character "
                "offsets to read; SpanScope measures spans within documents: export the "
                "documents with their spans (such as doccano's JSONL {\"text\": ..., \"label\": "
                "[[start, end, label]]})")
    return None


def _span_objects_elsewhere(records: tuple[dict[str, Any], ...]) -> str | None:
    """Records with doccano's span objects under a key no doccano export writes (wild14:
    CHED's ``events``)."""
    span_keys = {k for r in records for k, v in r.items()
                 if k not in _DOCCANO_SPAN_KEYS and isinstance(v, list) and v and all(
                     isinstance(o, dict) and {"start_offset", "end_offset", "label"} <= o.keys()
                     for o in v)}
    if len(span_keys) == 1 and all(isinstance(r.get("text"), str) for r in records):
        (key,) = span_keys
        return (f"records with doccano's span objects ({{start_offset, end_offset, label}}) "
                f"under '{key}', a key no doccano export writes: rename '{key}' to 'entities' "
                "(doccano 1.6's layout), give each record an 'id' of its own, and read the file "
                "again (--format doccano reads them only under 'entities' or 'annotations')")
    return None


def _dygie(records: tuple[dict[str, Any], ...]) -> str | None:
    """DyGIE++'s or PURE's JSON Lines (wild15: DiMB-RE's ``dev.json``)."""
    if not all(_token_index_entities(r) for r in records):
        return None
    keys = ", ".join(f'"{k}"' for k in list(records[0])[:5])
    return ("DyGIE++ or PURE JSON Lines ({" + keys + ", ...}: the tokens of each sentence, "
            "entities as [first token, last token, label] counted over the document): no "
            "text and no character offsets to read; write the tokens with their tags as "
            "CoNLL (B- on an entity's first token, I- on the rest, a blank line between "
            "sentences) and read that")


def _token_and_tag_records(records: tuple[dict[str, Any], ...]) -> str | None:
    """Records of token and tag lists, one tag at least a BIO tag (wild14: a Telugu set)."""
    if all(_token_tag_lists(r) for r in records) and any(
            re.fullmatch(r"[BIESLU]-\S+", tag) for r in records
            for tag in [v for v in r.values() if isinstance(v, list)][1]):
        keys = ", ".join(f'"{k}"' for k in records[0])
        return (f"records of token and tag lists ({{{keys}}}: a tagger's data, as Hugging "
                "Face datasets keep it): no format SpanScope reads; write them as CoNLL (a token "
                "and its tag a line, a blank line between records)")
    return None


def _judgements(records: tuple[dict[str, Any], ...]) -> str | None:
    """What records of flat values naming an item and a label, with no text and no offsets,
    are (wild15 tour: FabioEhr/linguistica-annotator's ``annotations.jsonl``, ``{"row_uuid",
    "annotator", "timestamp", "id", "label"}``, one judgement per click), else None."""
    def judgement(record: dict[str, Any]) -> bool:
        keys = {k.lower() for k in record}
        return (not any(isinstance(v, (list, dict)) for v in record.values())
                and bool(keys & _LABEL_KEYS) and not keys & _TEXT_OR_OFFSET_KEYS
                and any(k == "id" or k.endswith(("_id", "uuid")) for k in keys))
    if not records or not all(judgement(r) for r in records):
        return None
    keys = ", ".join(f'"{k}"' for k in records[0])
    return (f"records of an item's id and its label ({{{keys}}}: judgements of items whose "
            "texts are kept elsewhere, such as an annotation app's log of document classes): "
            "no text and no character offsets to read; SpanScope measures spans within "
            "documents: export the documents with their spans (such as doccano's JSONL "
            "{\"text\": ..., \"label\": [[start, end, label]]})")


_LABEL_KEYS = frozenset({"label", "labels", "category", "class", "answer", "choice"})
_TEXT_OR_OFFSET_KEYS = frozenset({"text", "data", "content", "sentence", "document", "tokens",
                                  "start", "end", "start_offset", "end_offset", "offset"})
"""Keys that make a flat record more than an item's id and its label."""


_DOCCANO_SPAN_KEYS = frozenset({"entities", "annotations", "label", "labels"})
"""Where doccano's exports keep their spans."""


def _token_index_entities(record: dict[str, Any]) -> bool:
    """Is ``record`` DyGIE++'s or PURE's: ``sentences``, lists of token strings, and ``ner``,
    per sentence a list of ``[first, last, label]`` (wild15 tour: DiMB-RE's ``dev.json``)?"""
    sentences, ner = record.get("sentences"), record.get("ner")
    return (isinstance(sentences, list) and isinstance(ner, list) and len(ner) == len(sentences)
            and all(isinstance(s, list) and all(isinstance(t, str) for t in s)
                    for s in sentences)
            and all(isinstance(per, list) and all(
                isinstance(e, list) and len(e) >= 3 and isinstance(e[0], int)
                and isinstance(e[1], int) for e in per) for per in ner))


def _token_tag_lists(record: dict[str, Any]) -> bool:
    """Is ``record`` a list of tokens and a list of as many tags (strings), and nothing else
    that is a list? (The caller asks for one BIO tag among the head's records.)"""
    lists = [v for v in record.values() if isinstance(v, list)]
    return (len(lists) == 2 and len(lists[0]) == len(lists[1]) > 0
            and all(isinstance(x, str) for v in lists for x in v))


LS_IMPORT_TASKS = ("Label Studio tasks to import (each only {\"data\": {...}}, no annotations "
                   "or predictions): nothing in them is annotated yet; annotate them in Label "
                   "Studio, then export the project (JSON) and read the export")
"""What a list of tasks holding only ``data`` is: a file to import into Label Studio."""


def training_tuples(head: str) -> bool:
    """Does ``head`` start spaCy's training tuples: a JSON list of ``[text, {"entities":
    ...}]`` pairs (spaCy v2's ``nlp.update`` took them; the head may cut a long first text),
    or the NER Annotator for spaCy's export, ``{"classes": [...], "annotations": [pairs]}``
    (its keys in that order when the head does not hold the whole file)?

    >>> training_tuples('[["Ann met Bob.", {"entities": [[0, 3, "PER"]]}]]')
    True
    >>> training_tuples('{"classes": ["PER"], "annotations": [["Ann", {"entities": []}]]}')
    True
    >>> training_tuples('[["a", ["B-PER", "O"]]]'), training_tuples('[[1, 2], [3, 4]]')
    (False, False)
    """
    body = head.lstrip(_WS)
    if _TRAINING_TUPLES.match(body):
        return _tuple_follows(body)
    if _NER_ANNOTATOR.match(body):
        return True
    # Decoded only when the head names "classes": detection asks this of every JSON object
    task = _raw(body, 0)[0] if body.startswith("{") and '"classes"' in body else None
    return (isinstance(task, dict) and isinstance(task.get("annotations"), list)
            and "classes" in task)


def _tuple_follows(body: str) -> bool:
    """Whether the string that opens ``body``'s first inner list is followed by an
    ``{"entities": ...}`` object, or runs past the head (a long text: the head cannot say)."""
    at = body.index('"')
    text, end = _raw(body, at)
    if not isinstance(text, str):
        return True  # the head cut the text
    rest = body[_skip(body, end):]
    if rest.startswith(",") and not rest[1:].strip(_WS):
        return True  # the head ends after the text: what follows is unseen
    return re.match(r',\s*\{\s*"entities"\s*:', rest) is not None


NOT_AN_EXPORT = "not an annotation export"
"""How :func:`why_undetected` starts its answer for a table of no span format."""

_OFFSET_WORDS = frozenset({"start", "end", "begin", "stop", "offset", "offsets", "from", "to",
                           "span", "spans", "char", "chars", "pos", "position", "tag", "tags",
                           "ner", "bio", "iob", "token", "tokens", "hs"})
"""Parts of a column name that may locate a span or tag a token or text (HatEval's ``HS``):
a header with one of them may be a span table with an error, which its reader should name."""

_COLUMN_NAME = re.compile(r"[A-Za-z_][\w.-]*\Z")


def offsetless_header(head: str) -> list[str] | None:
    """The column names of a head's first line when it is a header of 4 or more names (TAB- or
    comma-separated, as many cells on the next line) none of whose parts names an offset or a
    tag (:data:`_OFFSET_WORDS`), else None: a table no span reader can read, such as
    MiMoText's statements TSV (``subject_id``, ``subject_snippet``, ``property``, ...).

    >>> offsetless_header("subject_id\\tproperty\\tobject_id\\tsnippet\\nQ1\\tP36\\tQ2\\tWords\\n")
    ['subject_id', 'property', 'object_id', 'snippet']
    >>> offsetless_header("doc_id\\tlabel\\tstart\\tend\\nd1\\tA\\t0\\t4\\n") is None
    True
    """
    lines = head.lstrip("\ufeff").splitlines()
    if len(lines) < 2:
        return None
    sep = "\t" if "\t" in lines[0] else ","
    names = [c.strip().strip('"') for c in lines[0].split(sep)]
    width = len(names)
    while names and not names[-1]:
        names.pop()
    if names and not names[0] and lines[1].split(sep)[0].strip().isdigit():
        names = names[1:]  # pandas' to_csv: the index column has no name
    if len(names) < 4 or len(lines[1].split(sep)) != width or not all(
            _COLUMN_NAME.match(n) for n in names):
        return None
    for name in names:
        parts = re.split(r"[_.\-]+|(?<=[a-z])(?=[A-Z])", name)
        if any(part.lower() in _OFFSET_WORDS for part in parts):
            return None
    return names


CONLLU_HINT = ("a CoNLL-U file (Universal Dependencies' ten columns, ID to MISC), whose columns "
               "hold no BIO entity tags; a file that adds a column of them (B-PER, I-PER, O) is "
               "read by the CoNLL reader: --format conll --tag-column N, N that column (1 for "
               "the first; a MISC cell's NER= or Entity= values are not read)")
"""What a ``.conllu`` file is and how to read its entity tags, when detection fails on it."""


UIMA_JSON_HINT = ("a UIMA CAS JSON file (WebAnno's and DKPro Core's \"UIMA CAS JSON\" export, "
                  "or the JSON CAS of INCEpTION and dkpro-cassis): read it with --format "
                  "uima-json")
"""What a UIMA CAS JSON file is and how to read it, when another reader is asked to."""

_UIMA_JSON = re.compile(rb'\A\s*\{\s*"(?:_context|_views|%TYPES|%FEATURE_STRUCTURES|%VIEWS)"\s*:')
"""A UIMA CAS JSON file's first key: ``_context`` or ``_views`` (DKPro Core's JsonCasSerializer,
which WebAnno 3 uses for its "UIMA CAS JSON" export), ``%TYPES``, ``%FEATURE_STRUCTURES`` or
``%VIEWS`` (the UIMA JSON CAS format 0.4 of UIMA 3, INCEpTION and dkpro-cassis)."""


_UIMA_JSON_TEXT = re.compile(_UIMA_JSON.pattern.decode())


def is_cas_json(head: str) -> bool:
    """Whether a file's head (text) starts as a UIMA CAS JSON file: its first key is one of
    :data:`_UIMA_JSON`'s (a byte order mark before it is allowed).

    >>> is_cas_json('{"%TYPES" : {}, "%FEATURE_STRUCTURES": []}')
    True
    >>> is_cas_json('{"text": "_views"}')
    False
    """
    return _UIMA_JSON_TEXT.match(head.removeprefix("\ufeff")) is not None


def why_undetected_cas_json(data: bytes) -> str | None:
    """:data:`UIMA_JSON_HINT` when ``data`` is a UIMA CAS JSON file (its first key is one of
    :data:`_UIMA_JSON`'s), else None. Asked only once detection has failed.

    >>> why_undetected_cas_json(b'{"_context" : {"_types" : {}}}') == UIMA_JSON_HINT
    True
    >>> why_undetected_cas_json(b'{"text": "_views"}') is None
    True
    """
    return UIMA_JSON_HINT if _UIMA_JSON.match(data[:HEAD_MIN].removeprefix(b"\xef\xbb\xbf")) \
        else None


def why_undetected_name(name: str) -> str | None:
    """What the name of a file no reader recognised says of it and how to read it (a
    ``.conllu`` file: :data:`CONLLU_HINT`), else None. Asked only once detection has failed.

    >>> why_undetected_name("en_ewt-ud-dev.conllu") == CONLLU_HINT
    True
    """
    return CONLLU_HINT if name.lower().endswith(".conllu") else None


@dataclass(frozen=True)
class JsonHead:
    """The JSON records a head shows whole.

    ``kind``: ``lines`` (one object per line: JSON Lines), ``array`` (elements of a top-level
    list), ``object`` (an object over several lines: a pretty-printed file), or ``none`` (not
    JSON, or no record complete within the head). ``records`` holds the parsed values in file
    order; only objects (dicts) are kept, and reading stops at the first value that is not one.
    ``broken``: the head is a whole short file (under :data:`HEAD_MIN` characters) that starts
    like JSON and whose first value does not parse: a JSON reader should name the error.
    """

    kind: Literal["lines", "array", "object", "none"]
    records: tuple[dict[str, Any], ...] = ()
    broken: bool = False

    @property
    def first(self) -> dict[str, Any] | None:
        return self.records[0] if self.records else None


_NONE = JsonHead("none")


@lru_cache(maxsize=32)
def json_head(head: str) -> JsonHead:
    """The records of ``head`` (cached: every JSON module's ``sniff`` asks for the same head).

    >>> json_head('{"id": 1, "label": []}\\n{"id": 2, "lab').kind
    'lines'
    >>> json_head('[{"id": "1", "labels": []}, {"id": "2"').records
    ({'id': '1', 'labels': []},)
    >>> json_head('{\\n  "text": "a",\\n  "entities": []\\n}\\n').kind
    'object'
    >>> json_head("article1\\tDoubt\\t0\\t4\\n").kind
    'none'
    """
    body = head.lstrip(_WS)
    if body.startswith("["):
        found = _array(body)
    elif body.startswith("{"):
        found = _objects(body)
    else:
        return _NONE
    if not found.records and len(head.encode("utf-8")) < HEAD_MIN:
        # in bytes, as head_of cuts: 2,237 Bengali characters are a 4 KiB head of a longer file
        return JsonHead(found.kind, (), broken=True)
    return found


def _objects(body: str) -> JsonHead:
    records: list[dict[str, Any]] = []
    for line in body.split("\n", MAX_RECORDS)[:MAX_RECORDS]:
        line = line.strip(_WS)
        if not line:
            continue
        value = _loads(line)
        if not isinstance(value, dict):
            break  # the head cut this line, or it is not an object
        records.append(value)
    if records:
        return JsonHead("lines", tuple(records))
    value, _ = _raw(body, 0)
    return JsonHead("object", (value,)) if isinstance(value, dict) else _NONE


def _array(body: str) -> JsonHead:
    records: list[dict[str, Any]] = []
    i = _skip(body, 1)
    while len(records) < MAX_RECORDS and i < len(body):
        value, end = _raw(body, i)
        if not isinstance(value, dict):
            break
        records.append(value)
        i = _skip(body, end)
        if body[i : i + 1] != ",":
            break
        i = _skip(body, i + 1)
    return JsonHead("array", tuple(records)) if records else _NONE


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


_DECODER = json.JSONDecoder()


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _raw(text: str, at: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, at)
    except (ValueError, RecursionError):
        return None, at


def is_triples(value: object) -> bool:
    """Whether ``value`` is a list of ``[start, end, label]`` lists (possibly empty), the span
    layout of doccano's ``label``/``labels`` and MAFALDA's ``labels``.

    >>> is_triples([[0, 2, "ORG"]]), is_triples([]), is_triples(["positive"])
    (True, True, False)
    """
    return isinstance(value, list) and all(
        isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)
        and isinstance(item[1], int) for item in value)


def is_span_objects(value: object) -> bool:
    """Whether ``value`` is a non-empty list whose first item is a span object: a ``label``
    with ``start`` and ``end`` (or doccano's ``start_offset`` and ``end_offset``). Readers
    warn of such a list under a key they do not read.

    >>> is_span_objects([{"start": 0, "end": 4, "label": "LOC"}]), is_span_objects([])
    (True, False)
    """
    if not isinstance(value, list) or not value or not isinstance(value[0], dict):
        return False
    first = value[0]
    return "label" in first and (("start" in first and "end" in first)
                                 or ("start_offset" in first and "end_offset" in first))


def _starts(head: str, prefixes: str | tuple[str, ...]) -> bool:
    """Whether the head's content begins with ``prefixes`` after whitespace, as ``sniff``
    (``str.lstrip``) or :func:`json_head` (``_WS``) strips it."""
    return head.lstrip().startswith(prefixes) or head.lstrip(_WS).startswith(prefixes)


def _named(filename: str, *suffixes: str) -> bool:
    return filename.lower().endswith(suffixes)


def _first_line(head: str) -> str:
    """The first line of the head's content, lowercased, when it is at most 4096 characters
    long (``spans_csv``'s header; a longer one is not a header), else ``""``."""
    first = head.lstrip()[:4097].split("\n", 1)[0]
    return first.lower() if len(first) <= 4096 else ""


_LEAD = re.compile(r"\s*")
_TAG_LIKE = re.compile(r"(?:O|[BIESLU](?:-\S+)?|\S+-[BIESLU])\Z")
"""A CoNLL tag, prefix-style or suffix-style (looser than ``core.formats.conll``'s tests)."""


def _tag_last(head: str) -> bool:
    """Whether the head's first line has two or more fields and ends in what may be a CoNLL tag
    (a token row whose token is ``[`` or ``{``: AnEM's files start so)."""
    start = _LEAD.match(head)
    at = start.end() if start is not None else 0
    end = head.find("\n", at)
    # rsplit from the right: a JSON line (tens of MB) is copied, never split into fields
    fields = head[at:end if end >= 0 else len(head)].rsplit(None, 1)
    return len(fields) == 2 and _TAG_LIKE.match(fields[-1]) is not None


CONLL_SUFFIXES = (".conll", ".conllx", ".conll03", ".bio", ".iob", ".iob2", ".bioes", ".bilou")
"""``core.formats.conll.SUFFIXES``."""
SPANS_CSV_COLUMNS = ("doc_id", "start", "end", "label")
"""``core.formats.spans_csv.REQUIRED``."""
PARQUET_MAGIC = "PAR1"
"""``core.formats.parquet.MAGIC``."""

MAY_SNIFF: dict[str, Callable[[str, str], bool]] = {
    "core.formats.semeval2021": lambda name, head: _starts(head, "["),
    "core.formats.ptc": lambda name, head: (
        _named(name, ".labels", ".txt", ".tsv") or "\t" in head),
    "core.formats.mafalda": lambda name, head: _starts(head, "{"),
    "core.formats.mafalda_llm": lambda name, head: _starts(head, "{"),
    "core.formats.brat": lambda name, head: _named(name, ".ann", ".conf"),
    "core.formats.doccano": lambda name, head: _starts(head, ("[", "{")),
    "core.formats.label_studio": lambda name, head: (
        _starts(head, ("[", "{")) or "annotation_id" in head),
    "core.formats.hateval": lambda name, head: "\t" in head or "hs" in head.lower(),
    "core.formats.spans_csv": lambda name, head: (
        _starts(head, "{") or _named(name, ".csv")
        or all(column in _first_line(head) for column in SPANS_CSV_COLUMNS)),
    "core.formats.webanno": lambda name, head: "#" in head and "#FORMAT=WebAnno TSV" in head,
    "core.formats.webanno_tsv2": lambda name, head: (
        "#" in head and ("#id=" in head or "#text=" in head)),
    "core.formats.xmi": lambda name, head: _named(name, ".xmi", ".xml") or "xmlns:xmi=" in head,
    "core.formats.uima_json": lambda name, head: _starts(head, "{"),
    "core.formats.conll": lambda name, head: (
        _named(name, *CONLL_SUFFIXES) or not _starts(head, ("{", "["))
        or _tag_last(head)),
    "core.formats.spacy_docs": lambda name, head: (
        _named(name, ".spacy") or _starts(head, "{")
        or (_starts(head, "[") and ('"spans"' in head or '"ents"' in head
                                    or '"entities"' in head
                                    or _TRAINING_TUPLES.match(head.lstrip(_WS)) is not None))),
    "core.formats.parquet": lambda name, head: (
        _named(name, ".parquet") or head.startswith(PARQUET_MAGIC)),
}
"""For each built-in format module, a test that is true whenever its ``sniff`` could answer
more than 0 for a file name and head (never false then; true more often is allowed): it reads
the name's suffix and the head's first character or a few words, as the modules' own
conditions do, a single character first (``memchr``: a one-line JSON file's head is a MiB).
:func:`core.formats.detect` imports and asks only the modules whose test holds, so that
reading a SemEval-2021 file imports no reader of brat, CoNLL or XMI (issue 29, target 1:
start-up). ``tests/formats/test_sniff_candidates.py`` holds every module's answers on the
repository's files and on generated heads to these tests."""
