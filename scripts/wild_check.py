"""Check SpanScope against independent readers on real exports from public repositories.

    python scripts/wild_check.py FILES_DIR [--manifest tests/data/wild/manifest.jsonl]
                                 [--json OUT] [--only FORMAT] [--time]

The manifest (``tests/data/wild/manifest.jsonl``, one JSON object per line) names each real
export: where it came from (repository, commit, path, licence), the SpanScope format it is in,
the tool that wrote it, extra read options, and what SpanScope and the independent reader found
the last time the check ran. The files themselves are not in this repository (we do not
redistribute other projects' files): fetch them at the commits listed, lay them out under
FILES_DIR as the manifest's ``file`` says, and run this script. ``tests/data/wild/SOURCES.md``
is the same list for people.

For every entry the script

1. detects the format as ``validate`` does and compares it with the manifest's;
2. reads the input with SpanScope (``core.formats.load_path``, the manifest's options);
3. reads it again with an independent reader: the ``json`` module for the JSON formats, spaCy
   for ``DocBin``, seqeval for CoNLL chunks, dkpro-cassis for UIMA XMI, and a reading of the
   published specification for brat, PTC and WebAnno TSV;
4. compares the two as multisets of documents, each document being its text and its spans
   ``(start, end, label)``; document ids and annotation-set names are left out of the
   comparison, as the tools name them differently.

``--time`` prints, for every entry read, the wall time of a second read with SpanScope (the
first imports the reader), the input's size and the rate: a bench line, not a test.

Exit status 0 when every entry agrees (and matches the manifest's expected counts when it has
them), 1 otherwise. ``--json`` writes the table for docs and the manifest.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", module="seqeval")  # "X seems not to be NE tag", per chunk

Spans = tuple[tuple[int, int, str], ...]


@dataclass
class Reading:
    """What one reader found: documents as (text, sorted spans), pooled over sets."""

    docs: list[tuple[str | None, Spans]] = field(default_factory=list)
    sets: int = 1

    def add(self, text: str | None, spans: Iterable[tuple[int, int, str]]) -> None:
        self.docs.append((text, tuple(sorted(spans))))

    @property
    def span_count(self) -> int:
        return sum(len(s) for _, s in self.docs)

    def labels(self) -> Counter[str]:
        return Counter(lab for _, spans in self.docs for _, _, lab in spans)

    def summary(self) -> dict[str, Any]:
        return {"documents": len(self.docs), "spans": self.span_count,
                "labels": len(self.labels()), "with_text": sum(t is not None for t, _ in self.docs),
                "sets": self.sets}


# ---- SpanScope -------------------------------------------------------------------------------


def spanscope(path: Path, fmt: str, options: dict[str, Any]) -> tuple[Reading, int]:
    """SpanScope's reading and its number of warnings."""
    from core.formats import ReadOptions, load_path

    loaded = load_path(path, fmt=fmt, options=ReadOptions(**options))
    reading = Reading(sets=len(loaded.sets))
    for aset in loaded.sets:
        for doc_id, spans in aset.spans.items():
            reading.add(loaded.texts.get(doc_id), ((s.start, s.end, s.label) for s in spans))
    return reading, sum(max(1, d.count) for d in loaded.diagnostics)


def detected(path: Path) -> str:
    from core.formats import detect, read_file_with_companions, read_folder
    from core.model.errors import FormatError

    files = read_folder(path) if path.is_dir() else read_file_with_companions(path)
    try:
        return detect(files, source=str(path))
    except FormatError as exc:
        return f"refused: {exc}"


# ---- independent readers ---------------------------------------------------------------------


_UNPACKED: dict[Path, Path] = {}


def _files(path: Path, *suffixes: str) -> list[Path]:
    """The input's files with these suffixes: the file itself, a folder's files, or a zip's
    (unpacked once into a temporary folder)."""
    if path.suffix.lower() == ".zip":
        if path not in _UNPACKED:
            folder = Path(tempfile.mkdtemp(prefix="wild-"))
            with zipfile.ZipFile(path) as archive:
                archive.extractall(folder)
            _UNPACKED[path] = folder
        path = _UNPACKED[path]
    if path.is_file():
        return [path]
    # A Mac's Finder adds __MACOSX/ and ._* members (resource forks, not text) to the zips it
    # makes; SpanScope skips them and hidden files (core/formats/archive.py), so does this.
    return sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(suffixes)
                  and not any(part == "__MACOSX" or part.startswith(".")
                              for part in p.relative_to(path).parts))


def _jsonl(path: Path) -> list[Any]:
    """Every JSON value of a JSON Lines file, also values pretty-printed over several lines
    (split on newlines only: a text may hold U+2028 and other characters ``splitlines``
    breaks on)."""
    text = path.read_text(encoding="utf-8-sig")
    decoder = json.JSONDecoder()
    values: list[Any] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos == len(text):
            return values
        value, pos = decoder.raw_decode(text, pos)
        values.append(value)


def read_json_any(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8-sig").strip()
    if text.startswith("["):
        data = json.loads(text)
        return data if isinstance(data, list) else [data]
    return _jsonl(path)


def ind_semeval2021(path: Path, options: dict[str, Any]) -> Reading:
    """SemEval-2021 Task 6 JSON: ``[{id, text, labels: [{technique, start, end}]}]``."""
    r = Reading()
    for f in _files(path, ".json", ".txt"):
        for doc in json.loads(f.read_text(encoding="utf-8-sig")):
            r.add(doc.get("text"), ((lab["start"], lab["end"], lab["technique"])
                                    for lab in doc.get("labels", [])))
    return r


def ind_ptc(path: Path, options: dict[str, Any]) -> Reading:
    """PTC TSV (NLP4IF-2019 / SemEval-2020 Task 11): ``id<TAB>technique<TAB>start<TAB>end`` or
    ``id<TAB>start<TAB>end`` (span identification, label ``propaganda``); article texts in
    ``article<ID>.txt`` beside the labels."""
    by_doc: dict[str, list[tuple[int, int, str]]] = {}
    texts: dict[str, str] = {}
    for f in _files(path, ".labels", ".tsv", ".txt", ".out"):
        m = re.fullmatch(r"article(\w+)\.txt", f.name)
        if m:
            texts[m.group(1)] = f.read_text(encoding="utf-8")
            continue
        for line in f.read_text(encoding="utf-8").splitlines():
            cols = line.rstrip("\n").split("\t")
            if not line.strip():
                continue
            if len(cols) == 4:
                doc, lab, s, e = cols
            else:
                (doc, s, e), lab = cols[:3], "propaganda"
            by_doc.setdefault(doc, []).append((int(s), int(e), lab))
        if f.name.endswith(".labels") and re.match(r"article\w+\.", f.name):
            by_doc.setdefault(f.name.split(".")[0].removeprefix("article"), [])
    # With one labels file for all articles, its rows name the documents (as the official
    # scorers read it); per-article files make every article with a text a document.
    combined = any(f.name.endswith((".labels", ".tsv", ".out"))
                   and not re.match(r"article\w+\.", f.name)
                   for f in _files(path, ".labels", ".tsv", ".out"))
    r = Reading()
    for doc in sorted(set(by_doc) if combined else set(by_doc) | set(texts)):
        r.add(texts.get(doc), by_doc.get(doc, []))
    return r


def ind_mafalda(path: Path, options: dict[str, Any]) -> Reading:
    """MAFALDA JSONL ``{text, labels: [[start, end, label]]}``, read as the released
    evaluator reads it: labels in lower case, the annotators' ``to clean`` marks left out."""
    r = Reading()
    for obj in _jsonl(path):
        r.add(obj.get("text"), ((s, e, lab.lower()) for s, e, lab in obj.get("labels", [])
                                if lab.lower() != "to clean"))
    return r


def ind_doccano(path: Path, options: dict[str, Any]) -> Reading:
    """doccano exports: ``label``/``labels`` triples, ``entities`` objects, ``annotations``
    objects with ``user`` (one set per user), the text under ``text`` or ``data``."""
    per_user: dict[object, list[tuple[int, list[tuple[int, int, str]]]]] = {}
    plain = Reading()
    texts: list[str | None] = []
    label_names = options.get("labels_map") or {}
    for obj in read_json_any(path):
        text = obj.get("text", obj.get("data"))
        if "annotations" in obj:
            users: dict[object, list[tuple[int, int, str]]] = {}
            for a in obj["annotations"]:
                lab = a.get("label")
                users.setdefault(a.get("user"), []).append(
                    (a["start_offset"], a["end_offset"], str(label_names.get(lab, lab))))
            for user, spans in users.items():
                per_user.setdefault(user, []).append((len(texts), spans))
            texts.append(text)
            continue
        spans = []
        for key in ("label", "labels"):
            for item in obj.get(key, []) or []:
                if isinstance(item, list):
                    spans.append((item[0], item[1], str(item[2])))
        for ent in obj.get("entities", []) or []:
            if isinstance(ent, list):  # intent detection: entities as triples
                spans.append((ent[0], ent[1], str(ent[2])))
            else:
                spans.append((ent["start_offset"], ent["end_offset"], str(ent["label"])))
        plain.add(text, spans)
        texts.append(text)
    if per_user:
        # Every user's set covers every document: a document a user left without spans is a
        # document in which that user found nothing.
        r = Reading(sets=len(per_user))
        for docs in per_user.values():
            spans_of = dict(docs)
            for i, text in enumerate(texts):
                r.add(text, spans_of.get(i, []))
        return r
    return plain


def _prediction_bodies(task: dict[str, Any]) -> list[Any]:
    """A task's predictions as objects: Label Studio's JSON export lists them by id
    (``"predictions": [11]``); the body of a listed id is the ``prediction`` an annotation
    embeds (the prediction its annotator saw), once per id; an id without one has no spans
    in the file."""
    listed = task.get("predictions", []) or []
    ids = {p for p in listed if isinstance(p, int) and not isinstance(p, bool)}
    bodies: dict[int, dict[str, Any]] = {}
    for ann in task.get("annotations", []) or []:
        body = ann.get("prediction") if isinstance(ann, dict) else None
        if isinstance(body, dict) and body.get("id") in ids:
            bodies.setdefault(body["id"], body)
    return [p for p in listed if isinstance(p, dict)] + list(bodies.values())


def ind_label_studio_table(path: Path) -> Reading:
    """Label Studio's CSV or TSV export: a row per annotation, a cell holding a JSON list of
    ``{start, end, text, labels}`` a control tag's spans; one set per ``annotator``, the text
    the ``text`` column, else the cell every span's ``text`` is the fragment of."""
    raw = path.read_text(encoding="utf-8-sig")
    delimiter = "\t" if "\t" in raw.split("\n", 1)[0] else ","
    sets: dict[str, list[tuple[str | None, list[tuple[int, int, str]]]]] = {}
    for row in csv.DictReader(io.StringIO(raw, newline=""), delimiter=delimiter):
        who = row.get("annotator") or ""
        if not who and not row.get("annotation_id"):
            continue  # a task nobody annotated: its text only
        values = []
        for cell in row.values():
            if not (cell or "").startswith("[{"):
                continue
            try:
                found = json.loads(cell)
            except ValueError:
                continue
            values += [v for v in found if isinstance(v, dict) and "start" in v
                       and "labels" in v]
        text = row.get("text")
        if text is None:
            text = next((c for c in row.values() if c and values and all(
                c[v["start"]:v["end"]] == v.get("text") for v in values)), None)
        sets.setdefault(who, []).append(
            (text, [(v["start"], v["end"], lab) for v in values for lab in v["labels"]]))
    r = Reading(sets=len(sets))
    for docs in sets.values():
        for text, spans in docs:
            r.add(text, spans)
    return r


_MEDIA = re.compile(r"(?:https?://|/data/)\S+|[^\n]*\.(?:png|jpe?g|gif|bmp|tiff?|webp|mp3|wav|"
                    r"flac|mp4|webm|ogg)", re.IGNORECASE)
"""A data string that says where a media file is: no text (Label Studio's image tasks)."""


def ind_label_studio(path: Path, options: dict[str, Any]) -> Reading:
    """Label Studio JSON: one set per annotator (``completed_by``) and per model; a CSV or
    TSV export through :func:`ind_label_studio_table`."""
    if path.suffix.lower() in (".csv", ".tsv"):
        return ind_label_studio_table(path)
    sets: dict[str, list[tuple[int, list[tuple[int, int, str]]]]] = {}
    # A folder: Label Studio 0.x's completions/, one task object per file
    tasks = [t for f in _files(path, ".json") for t in read_json_any(f)] if path.is_dir() \
        else read_json_any(path)
    for task in tasks:
        task["predictions"] = _prediction_bodies(task)
    # The labeling config may read another data field than `text`: the one every result's
    # value.text is the fragment of, in the tasks that have results.
    keys: Counter[str] = Counter()
    for task in tasks:
        data = task.get("data", {})
        values = [r.get("value", {}) for kind in ("annotations", "completions", "predictions")
                  for a in task.get(kind, []) or [] for r in a.get("result", [])]
        values = [v for v in values if "start" in v and "text" in v]
        keys.update(k for k, t in data.items() if isinstance(t, str) and values and all(
            t[v["start"]:v["end"]] == v["text"] for v in values))
    key = "text" if not keys or "text" in keys else keys.most_common(1)[0][0]
    texts: list[str | None] = []
    for task in tasks:
        data = task.get("data", {})
        text = data.get(key)
        # No `text`: the task's only string (a chat project's $scenario_prompt), unless it only
        # says where an image, audio or video is.
        strings = [t for t in data.values() if isinstance(t, str) and not _MEDIA.fullmatch(t)]
        if text is None and len(strings) == 1:
            text = strings[0]
        texts.append(text if isinstance(text, str) else None)
        for kind in ("annotations", "completions", "predictions"):
            for ann in task.get(kind, []) or []:
                if ann.get("was_cancelled"):
                    continue
                who = (f"{kind}:{ann.get('completed_by', ann.get('model_version'))}")
                spans = []
                for res in ann.get("result", []):
                    value = res.get("value", {})
                    if "start" in value and "end" in value:
                        for lab in value.get("labels", []) or value.get("hypertextlabels", []):
                            spans.append((value["start"], value["end"], lab))
                sets.setdefault(who, []).append((len(texts) - 1, spans))
    r = Reading(sets=len(sets))
    for docs in sets.values():
        for i, spans in docs:
            r.add(texts[i], spans)
    return r


def ind_brat(path: Path, options: dict[str, Any]) -> Reading:
    """brat standoff: ``T`` lines ``ID<TAB>TYPE START END[;START END]<TAB>TEXT``, every fragment
    a span; the text in the ``.txt`` beside the ``.ann``, or, for a corpus whose README pairs
    ``txt/<id>.txt`` with ``brat/<id>.ann`` (SPG-Extended-Corpus), when no ``.ann`` has a text
    beside it, the one ``.txt`` of its name under the input."""
    r = Reading()
    anns = list(_files(path, ".ann"))
    by_name: dict[str, list[Path]] = {}
    if not any(a.with_suffix(".txt").is_file() for a in anns):
        for t in _files(path, ".txt"):
            by_name.setdefault(t.stem, []).append(t)
    for ann in anns:
        txt = ann.with_suffix(".txt")
        if not txt.is_file() and len(by_name.get(ann.stem, [])) == 1:
            txt = by_name[ann.stem][0]
        text = txt.read_text(encoding="utf-8") if txt.is_file() else None
        spans = []
        for line in ann.read_text(encoding="utf-8").splitlines():
            if not line.startswith("T"):
                continue
            _, middle, *_ = line.split("\t")
            # The offsets from the right: a type with spaces (edsnlp writes "test label 0") is
            # not brat's own, but SpanScope reads it back (docs/formats.md, brat).
            found = re.fullmatch(r"(.*?) (\d+ \d+(?:;\d+ \d+)*)", middle)
            assert found is not None, middle
            label, frags = found.group(1), found.group(2)
            for frag in frags.split(";"):
                s, e = frag.split()
                spans.append((int(s), int(e), label))
        r.add(text, spans)
    return r


CONLL_TAG = r"O|[BIESLU](?:-\S+)?|\S+-[BIESLU]"
"""A CoNLL tag: prefix-style (``B-PER``, a bare ``B``) or suffix-style (``PER-B``)."""


def _starts_document(cols: list[str]) -> bool:
    """A document-start line, by this checker's own rule, written from the CoNLL-2003 shared
    task's description (Tjong Kim Sang and De Meulder 2003: documents are separated by a line
    ``-DOCSTART- -X- -X- O``) rather than copied from SpanScope's reader: the marker is a word,
    DOCSTART, however hyphenated and in whatever case, on a line that marks no entity (its last
    cell ``O``, or the marker alone); a line that tags it as an entity is a token."""
    word = cols[0].replace("-", "").upper()
    return word == "DOCSTART" and (len(cols) == 1 or cols[-1] == "O")


def ind_conll(path: Path, options: dict[str, Any]) -> Reading:
    """CoNLL: tokens and tags (last column), chunks by seqeval (default mode; IO tags, with
    ``--scheme IO``, as ``I-TYPE``); texts rebuilt as the tokens joined by single spaces,
    sentences by newlines (SpanScope's convention). ``--text-column N`` and ``--tag-column N``
    (1-based) take the token and the tag from those columns instead (a GermEval 2014 file:
    index, token, outer tag, inner tag)."""
    from seqeval.metrics.sequence_labeling import get_entities

    r = Reading()
    io = str(options.get("scheme") or "").upper() == "IO"
    token_at = int(options.get("text_column") or 1) - 1
    tag_at = int(options["tag_column"]) - 1 if options.get("tag_column") else -1
    for f in _files(path, ".conll", ".txt", ".tsv", ".iob", ".bio", ".conllu", ".test"):
        docs: list[list[list[tuple[str, str]]]] = [[]]
        sentence: list[tuple[str, str]] = []
        for line in [*f.read_text(encoding="utf-8").splitlines(), ""]:
            cols = line.split()
            if "\t" in line and line.strip():
                # Tab-separated cells, ASCII blanks taken off: a token may be U+00A0 (vtner),
                # which split() drops; trailing empty cells are no columns.
                cols = [c.strip(" \r\n\f\v") for c in line.split("\t")]
                while cols and not cols[-1]:
                    cols.pop()
            # A "#" line is a comment only when its tag cell holds no tag (CoNLL-U's "# text
            # = ..."); "#<TAB>O" and "#hashtag<TAB>B-LOC" are tokens (BTC, WNUT17).
            if not cols or (line.startswith("#") and (
                    len(cols) < 2 or not re.fullmatch(CONLL_TAG, cols[-1]))):
                if sentence:
                    docs[-1].append(sentence)
                    sentence = []
                continue
            if _starts_document(cols):
                if sentence:
                    docs[-1].append(sentence)
                    sentence = []
                if docs[-1]:
                    docs.append([])
                continue
            tag = cols[tag_at]
            if io and tag != "O" and not tag.startswith("I-"):
                tag = f"I-{tag}"  # IO tags: a bare type is inside a chunk of that type
            sentence.append((cols[token_at], tag))
        tags = [t for sentences in docs for sent in sentences for _, t in sent if t != "O"]
        # Suffix-style tags (PER-B) are read with seqeval's suffix=True.
        suffix = bool(tags) and sum(bool(re.fullmatch(r".+-[BIESLU]", t)) for t in tags) > (
            0.9 * len(tags))
        for sentences in docs:
            if not sentences:
                continue
            text_parts: list[str] = []
            spans = []
            offset = 0
            for k, sent in enumerate(sentences):
                starts = []
                for j, (tok, _) in enumerate(sent):
                    starts.append(offset)
                    offset += len(tok) + (1 if j < len(sent) - 1 else 0)
                text_parts.append(" ".join(t for t, _ in sent))
                for typ, a, b in get_entities([t for _, t in sent], suffix=suffix):
                    spans.append((starts[a], starts[b] + len(sent[b][0]), typ))
                if k < len(sentences) - 1:
                    offset += 1
            r.add("\n".join(text_parts), spans)
    return r


def _spacy_records(values: list[Any]) -> list[dict[str, Any]]:
    """The records of spaCy-style JSON: JSON Lines, one JSON list, or training data as spaCy
    v2 took it, ``(text, {"entities": [(start, end, label)]})`` pairs, alone in a list or under
    the ``annotations`` of the NER Annotator for spaCy's export (``{"classes", "annotations"}``);
    a pair is ``{"text": text, "entities": [...]}``."""
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    elif len(values) == 1 and isinstance(values[0], dict) and "classes" in values[0]:
        values = values[0]["annotations"]
    return [{"text": v[0], **v[1]} if isinstance(v, list) else v for v in values]


def ind_spacy(path: Path, options: dict[str, Any]) -> Reading:
    """spaCy: ``DocBin`` through spaCy itself (``doc.ents``, else the only span group);
    JSONL ``{text, ents|entities|spans}`` through ``json``."""
    r = Reading()
    group = options.get("span_group")
    if path.suffix == ".spacy":
        import spacy
        from spacy.tokens import DocBin

        nlp = spacy.blank("xx")
        for doc in DocBin().from_bytes(path.read_bytes()).get_docs(nlp.vocab):
            if group in (None, "ents") and (doc.ents or not doc.spans):
                spans = doc.ents
            else:
                spans = doc.spans[group or next(iter(doc.spans))]
            r.add(doc.text, ((s.start_char, s.end_char, s.label_) for s in spans))
        return r
    objs = _spacy_records(_jsonl(path))
    annotators = {o.get("_annotator_id") for o in objs} - {None}
    # Prodigy with named sessions: a question (_input_hash, else its text, and _task_hash)
    # that one annotator accepts again on a later line counts with its last accepted answer
    # only; the accepted questions of one input add up (one document).
    last: dict[tuple[Any, Any, Any], int] = {}
    kept: set[Any] = set()
    skipped = ("reject", "ignore")  # Prodigy: not an annotation, and replaces none

    def question(obj: dict[str, Any]) -> tuple[Any, Any, Any]:
        return (obj.get("_annotator_id"), obj.get("_input_hash", obj.get("text")),
                obj.get("_task_hash"))

    for k, obj in enumerate(objs):
        if len(annotators) > 1 and obj.get("id") is None and (
                obj.get("meta") or {}).get("id") is None and obj.get("answer") not in skipped:
            last[question(obj)] = k
    for k, obj in enumerate(objs):
        if obj.get("answer") in skipped:
            kept.add(obj.get("_annotator_id"))  # the annotator's set stands, even empty
            continue
        if last.get(question(obj), k) != k:
            continue
        kept.add(obj.get("_annotator_id"))
        items = obj.get(group or next((k for k in ("ents", "entities") if k in obj),
                                      "spans"), [])
        if isinstance(items, dict):
            items = next(iter(items.values()), [])
        r.add(obj.get("text"), ((i["start"], i["end"], i["label"]) if isinstance(i, dict)
                                else tuple(i) for i in items))
    r.sets = max(1, len(kept - {None}))
    return r


def ind_spans_csv(path: Path, options: dict[str, Any]) -> Reading:
    """CSV ``doc_id, start, end, label[, annotator]`` (texts are not part of the format)."""
    sets: dict[str, dict[str, list[tuple[int, int, str]]]] = {}
    for row in csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))):
        sets.setdefault(row.get("annotator", ""), {}).setdefault(row["doc_id"], []).append(
            (int(row["start"]), int(row["end"]), row["label"]))
    r = Reading(sets=len(sets))
    for docs in sets.values():
        for spans in docs.values():
            r.add(None, spans)
    return r


LayerKey = tuple[str, str | None]
_LABEL_RANGES = {"uima.cas.String", "uima.cas.Integer", "uima.cas.Boolean", "uima.cas.Long",
                 "uima.cas.Short", "uima.cas.Byte"}
_NOT_LAYERS = {"Token", "Sentence", "DocumentMetaData", "TagsetDescription"}


def _xmi_type_system(xmi: Path) -> Path:
    """``TypeSystem.xml`` (any case: WebAnno 3 wrote ``typesystem.xml``) beside the file or in
    a folder above; else, as corpora keep it (REDEWIEDERGABE's ``resources/``), the type
    system declaring the most types in a folder just below the nearest of those folders."""
    for folder in [xmi.parent, *xmi.parents]:
        named = [p for p in folder.glob("*.xml") if p.name.lower() == "typesystem.xml"]
        if named:
            return named[0]
        declared = [p for p in folder.glob("*.xml")
                    if b"<typeSystemDescription" in p.read_bytes()[:4096]]
        if len(declared) == 1:
            return declared[0]
    for folder in [xmi.parent, *xmi.parents]:
        found = [p for p in folder.glob("*/*.xml")
                 if b"<typeSystemDescription" in p.read_bytes()[:4096]]
        if found:
            return max(found, key=lambda p: p.read_bytes().count(b"<typeDescription>"))
    raise FileNotFoundError(f"no type system for {xmi}")


def xmi_layers(path: Path) -> dict[LayerKey, Reading]:
    """UIMA XMI through dkpro-cassis: for every annotation type (but tokens, sentences and the
    document annotation) and every primitive feature of it (or none: the type's short name is
    the label), the non-empty annotations with a value; the type system is ``TypeSystem.xml``
    beside the file or in a folder above it."""
    from cassis import load_cas_from_xmi, load_typesystem

    per_file: list[tuple[str, dict[LayerKey, list[tuple[int, int, str]]]]] = []
    cases = []
    names: list[str] = []  # over every file: a file may hold a layer only as its subtypes
    for xmi in _files(path, ".xmi"):
        ts_path = _xmi_type_system(xmi)
        # The type system cassis loads the file with: TypeSystem.xml, else another type
        # system in its folder (cas-visualizer keeps two side by side).
        for candidate in [ts_path, *sorted(p for p in ts_path.parent.glob("*.xml")
                                           if p != ts_path and b"<typeSystemDescription"
                                           in p.read_bytes()[:4096])]:
            ts = load_typesystem(candidate.read_text(encoding="utf-8"))
            try:
                cas = load_cas_from_xmi(xmi.read_text(encoding="utf-8"), typesystem=ts)
            except Exception:  # cassis's TypeNotFoundError and others: the next one
                if candidate.parent == ts_path.parent and candidate != ts_path:
                    continue
                if candidate == ts_path and len(list(ts_path.parent.glob("*.xml"))) > 1:
                    continue
                raise
            break
        else:
            raise FileNotFoundError(f"no type system reads {xmi}")
        cases.append((ts, cas))
        for ann in cas.select_all_annotations():
            name = ann.type.name
            if (name not in names and name.rsplit(".", 1)[-1] not in _NOT_LAYERS
                    and not ts.subsumes("uima.tcas.DocumentAnnotation", name)):
                names.append(name)
    for ts, cas in cases:
        found: dict[LayerKey, list[tuple[int, int, str]]] = {}
        for name in names:
            if not ts.contains_type(name):
                continue
            features = [f.name for f in ts.get_type(name).all_features
                        if f.name not in ("begin", "end", "sofa")
                        and f.rangeType.name in _LABEL_RANGES] or [None]
            for feature in features:
                spans = found.setdefault((name, feature), [])
                for ann in cas.select(name):
                    if ts.subsumes("uima.tcas.DocumentAnnotation", ann.type.name):
                        continue
                    label = name.rsplit(".", 1)[-1] if feature is None else ann.get(feature)
                    if label not in (None, "") and ann.begin < ann.end:
                        spans.append((ann.begin, ann.end, str(label)))
        per_file.append((cas.sofa_string, found))
    # A feature that only another file's type system declares, with no value anywhere (two
    # type systems of one folder declare POS_DET with and without 'source'), is no layer to
    # compare: SpanScope lists the features of the annotations it reads.
    return {key: reading for key, reading in _by_layer(per_file).items()
            if reading.span_count or key[1] is None}


def _by_layer(per_file: list[tuple[str, dict[LayerKey, list[tuple[int, int, str]]]]]
              ) -> dict[LayerKey, Reading]:
    """One reading per layer over every document (a document without annotations of a layer
    is a document of that layer's reading, with no spans)."""
    keys = dict.fromkeys(k for _, found in per_file for k in found)
    readings = {k: Reading(docs=[]) for k in keys}
    for text, found in per_file:
        for key, reading in readings.items():
            reading.add(text, found.get(key, []))
    return readings


_TSV_SEP = re.compile(r"(?<!\\)\|")


def _tsv_unescape(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            if value[i + 1:i + 3] == "->":
                out.append("->")
                i += 3
                continue
            out.append({"t": "\t", "n": "\n"}.get(value[i + 1], value[i + 1]))
            i += 2
            continue
        out.append(value[i])
        i += 1
    return "".join(out)


def tsv3_layers(path: Path) -> dict[LayerKey, Reading]:
    """WebAnno TSV 3 as INCEpTION's user guide ("WebAnno TSV 3.3 File format") specifies it,
    for every span layer and feature: the ``#T_SP`` header names the columns, an annotation
    runs over the rows that carry its ``[N]`` id (or is one row's stack entry), ``*`` is no
    value, a slot host without features is found on its slot target column; offsets are UTF-16
    units into the ``#Text`` lines (each ended by a newline, gaps padded with spaces). Zero-width
    annotations are left out: a span has a length."""
    per_file: list[tuple[str, dict[LayerKey, list[tuple[int, int, str]]]]] = []
    for f in _files(path, ".tsv"):
        raw = f.read_text(encoding="utf-8")
        if not raw.startswith("#FORMAT=WebAnno TSV 3"):
            continue
        lines = raw.split("\n")
        cols: list[tuple[str, str, str | None, str]] = []  # layer, kind, feature, role
        i = 1
        while i < len(lines) and lines[i].startswith("#T_"):
            kind, rest = lines[i][3:5], lines[i][6:]
            parts = [p for p in rest.split("|") if p]
            if len(parts) == 1:
                cols.append((parts[0], kind, None, "placeholder"))
            previous = None
            for part in parts[1:]:
                role = ("role" if kind == "SP" and part.startswith("ROLE_") else
                        "target" if kind == "SP" and previous == "role" else "feature")
                cols.append((parts[0], kind, part, role))
                previous = role
            i += 1
        text16: list[bytes] = []
        units: list[tuple[int, int, list[str]]] = []
        pending: list[str] = []
        for line in lines[i:]:
            if line.startswith("#Text="):
                pending.append(re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r",
                                                          "f": "\f", "b": "\b"}.get(
                    m.group(1), m.group(1)), line[6:]))
                continue
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            b, e = map(int, fields[1].split("-"))
            if pending:
                s16 = "".join(t + "\n" for t in pending).encode("utf-16-le")
                del text16[b:]
                text16 += [" ".encode("utf-16-le")] * (b - len(text16))
                text16 += [s16[k:k + 2] for k in range(0, len(s16), 2)]
                pending = []
            units.append((b, e, fields[3:]))
        text = b"".join(text16).decode("utf-16-le", errors="surrogatepass")
        index, pos = {}, 0
        for n, ch in enumerate(text):
            index[pos] = n
            pos += 2 if ord(ch) > 0xFFFF else 1
        index[pos] = len(text)
        layers: dict[str, list[str | None]] = {}
        for layer, kind, feature, role in cols:
            if kind == "SP":
                layers.setdefault(layer, [])
                if role == "feature":
                    layers[layer].append(feature)
        found: dict[LayerKey, list[tuple[int, int, str]]] = {}
        for layer, features in layers.items():
            mine = [k for k, c in enumerate(cols) if c[0] == layer and c[1] == "SP"]
            for feature in features or [None]:
                id_col = None
                if feature is not None:
                    col = next(k for k in mine if cols[k][2] == feature)
                else:
                    plain = [k for k in mine if cols[k][3] in ("placeholder", "feature")]
                    if plain:
                        col = plain[0]
                    else:
                        col = next(k for k in mine if cols[k][3] == "target")
                        id_col = col - 1
                anns: dict[tuple[int, int], list[Any]] = {}
                by_id: dict[str, tuple[int, int]] = {}
                for n, (b, e, cells) in enumerate(units):
                    if cells[col] == "_":
                        continue
                    values = _TSV_SEP.split(cells[col])
                    ids = values if id_col is None else _TSV_SEP.split(cells[id_col])
                    for j, value in enumerate(values):
                        m = re.search(r"(?<!\\)\[(\d+)\]$", ids[j] if j < len(ids) else "")
                        ident = m.group(1) if m else None
                        if id_col is None and m:
                            value = value[:m.start()]
                        if ident and ident in by_id:
                            anns[by_id[ident]][1] = e
                            continue
                        if ident:
                            by_id[ident] = (n, j)
                        anns[(n, j)] = [b, e, value]
                short = layer.rsplit(".", 1)[-1]
                spans = found.setdefault((layer, feature), [])
                for b, e, value in anns.values():
                    label = short if feature is None else (
                        None if value == "*" else _tsv_unescape(value))
                    if label is not None and b != e:
                        spans.append((index[b], index[e], label))
        per_file.append((text, found))
    return _by_layer(per_file)


def _utf16_to_chars(text: str) -> dict[int, int]:
    """Each UTF-16 code unit offset of ``text`` that falls between characters, as a character
    offset (Java counts UTF-16 units; Python counts characters)."""
    at: dict[int, int] = {}
    unit = 0
    for i, char in enumerate(text):
        at[unit] = i
        unit += 2 if ord(char) > 0xFFFF else 1
    at[unit] = len(text)
    return at


def json_cas_layers(path: Path) -> dict[LayerKey, Reading]:
    """UIMA JSON CAS 0.4 through the ``json`` module (the format's specification, not
    dkpro-cassis, which SpanScope uses): the ``_InitialView`` sofa's text; for every type in
    ``%TYPES`` below ``uima.tcas.Annotation`` (but tokens, sentences and the document
    annotation's subtypes) and every feature whose ``%RANGE`` is a string, integer or boolean
    (its own or a super type's), the view's members of that type with a value, offsets turned
    from UTF-16 units into characters."""
    per_file: list[tuple[str, dict[LayerKey, list[tuple[int, int, str]]]]] = []
    for file in _files(path, ".json"):
        data = json.loads(file.read_text(encoding="utf-8"))
        if "%TYPES" not in data:
            per_file.append(_legacy_json_cas(data))
            continue
        types = data["%TYPES"]

        def chain(name: str, types: dict[str, Any] = types) -> list[str]:
            out = [name]
            while out[-1] in types:
                out.append(types[out[-1]]["%SUPER_TYPE"])
            return out

        fss = data["%FEATURE_STRUCTURES"]
        by_id = {fs["%ID"]: fs for fs in fss}
        view = data["%VIEWS"]["_InitialView"]
        text = by_id[view["%SOFA"]].get("sofaString") or ""
        at = _utf16_to_chars(text)
        found: dict[LayerKey, list[tuple[int, int, str]]] = {}
        for member in view["%MEMBERS"]:
            fs = by_id[member]
            name = fs["%TYPE"]
            above = chain(name)
            if ("uima.tcas.Annotation" not in above or "uima.tcas.DocumentAnnotation" in above
                    or name.rsplit(".", 1)[-1] in _NOT_LAYERS):
                continue
            features = [f for t in above if t in types for f, spec in types[t].items()
                        if not f.startswith("%") and isinstance(spec, dict)
                        and spec.get("%RANGE") in _LABEL_RANGES] or [None]
            for feature in features:
                spans = found.setdefault((name, feature), [])
                label = name.rsplit(".", 1)[-1] if feature is None else fs.get(feature)
                begin, end = fs.get("begin", 0), fs.get("end", 0)
                if label not in (None, "") and begin < end:
                    spans.append((at[begin], at[end], str(label)))
        per_file.append((text, found))
    return _by_layer(per_file)


def _legacy_json_cas(data: dict[str, Any]
                     ) -> tuple[str, dict[LayerKey, list[tuple[int, int, str]]]]:
    """UIMA 2's JsonCasSerializer layout (WebAnno 3's "UIMA CAS JSON"): the ``_InitialView``
    sofa's text in ``_referenced_fss``; every type of the ``_InitialView`` view whose records
    have an ``end`` (a ``begin`` of 0 is left out), but tokens, sentences, tagsets and the
    document metadata, by its short name, with every string, integer or boolean feature;
    UTF-16 offsets. Full type names are not compared (the file gives short names)."""
    sofa = next(fs for fs in data["_referenced_fss"].values()
                if fs.get("_type") == "Sofa" and fs.get("sofaID") == "_InitialView")
    text = sofa.get("sofaString") or ""
    at = _utf16_to_chars(text)
    found: dict[LayerKey, list[tuple[int, int, str]]] = {}
    for short, records in data["_views"]["_InitialView"].items():
        records = [data["_referenced_fss"][str(r)] if isinstance(r, int) else r
                   for r in records]
        if short in _NOT_LAYERS or short.startswith("Document") or not any(
                "end" in r for r in records):
            continue
        features = sorted({k for r in records for k, v in r.items()
                           if k not in ("sofa", "begin", "end") and not k.startswith("_")
                           and type(v) in (str, int, bool)}) or [None]
        for feature in features:
            spans = found.setdefault((short, feature), [])
            for r in records:
                label = short if feature is None else r.get(feature)
                begin, end = r.get("begin", 0), r.get("end", 0)
                if label not in (None, "") and begin < end:
                    spans.append((at[begin], at[end], str(label)))
    return text, found


LAYERED: dict[str, Callable[[Path], dict[LayerKey, Reading]]] = {
    "uima-xmi": xmi_layers,
    "uima-json": json_cas_layers,
    "webanno-tsv": tsv3_layers,
}
"""Formats with several span layers: every layer and feature is compared."""


def ind_hateval_csv(path: Path, options: dict[str, Any]) -> Reading:
    """The released HatEval CSV: one document per row, its text and no spans."""
    r = Reading()
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
    for row in rows[1:]:
        r.add(row[1], [])
    return r


INDEPENDENT: dict[str, Callable[[Path, dict[str, Any]], Reading]] = {
    "hateval-csv": ind_hateval_csv,
    "semeval2021": ind_semeval2021,
    "ptc": ind_ptc,
    "mafalda": ind_mafalda,
    "doccano": ind_doccano,
    "label-studio": ind_label_studio,
    "brat": ind_brat,
    "conll": ind_conll,
    "spacy": ind_spacy,
    "spans-csv": ind_spans_csv,
}


# ---- the check -------------------------------------------------------------------------------


def compare(ours: Reading, theirs: Reading) -> list[str]:
    """What differs, in words (empty when the readings agree)."""
    problems = []
    if len(ours.docs) != len(theirs.docs):
        problems.append(f"documents {len(ours.docs)} vs {len(theirs.docs)}")
    if ours.span_count != theirs.span_count:
        problems.append(f"spans {ours.span_count} vs {theirs.span_count}")
    if ours.labels() != theirs.labels():
        diff = (ours.labels() - theirs.labels()) + (theirs.labels() - ours.labels())
        problems.append(f"label counts differ ({', '.join(sorted(diff)[:5])})")
    if not problems and Counter(ours.docs) != Counter(theirs.docs):
        texts_ours = Counter(t for t, _ in ours.docs)
        texts_theirs = Counter(t for t, _ in theirs.docs)
        problems.append("texts differ" if texts_ours != texts_theirs
                        else "spans differ within documents")
    return problems


def check_layers(path: Path, fmt: str, options: dict[str, Any], ours: Reading,
                 layers: dict[LayerKey, Reading]) -> tuple[list[str], dict[str, Any]]:
    """Compare a layered input layer by layer: the layer the options name, or every layer and
    feature the independent reader found (SpanScope reading each with ``--layer``/``--feature``).
    """
    from core.model.errors import FormatError

    if "layer" in options:
        short = options["layer"].rsplit(".", 1)[-1]
        match = [r for (layer, feature), r in layers.items()
                 if layer.rsplit(".", 1)[-1] == short
                 and options.get("feature") in (None, feature)]
        if not match:
            return [f"the independent reader found no layer {short}"], {}
        return compare(ours, match[0]), match[0].summary()
    problems = []
    for (layer, feature), theirs in layers.items():
        try:
            ours_layer, _ = spanscope(path, fmt, {**options, "layer": layer, "feature": feature})
            differs = compare(ours_layer, theirs)
        except FormatError as exc:
            differs = [f"refused: {exc}"]
        if differs:
            problems.append(f"layer {layer.rsplit('.', 1)[-1]}/{feature}: " + "; ".join(differs))
    return problems, {"layers": len(layers), "layers_agreeing": len(layers) - len(problems)}


def cli_options(args: list[str]) -> dict[str, Any]:
    """``ReadOptions`` keywords from command-line options (``--layer X`` -> ``layer="X"``)."""
    options: dict[str, Any] = {}
    args = list(args)
    while args:
        flag = args.pop(0)
        if flag == "--clip-spans":
            options["beyond_text"] = "clip"
            continue
        value = args.pop(0)
        key = flag.removeprefix("--").replace("-", "_")
        if key == "labels":
            from core.formats.tools import read_label_list

            options[key] = read_label_list(value)
        elif key in ("text_column", "tag_column"):
            options[key] = int(value)
        elif key not in ("format", "gold_format", "pred_format", "role"):
            options[key] = value
    return options


def check_labels(path: Path, row: dict[str, Any]) -> dict[str, Any]:
    """A label list or a doccano label config, read as ``--labels`` reads it."""
    from core.formats.tools import read_label_file
    from core.model.errors import FormatError

    try:
        labels = read_label_file(path)
    except FormatError as exc:
        return {**row, "ok": False, "problems": [f"--labels refused it: {exc}"]}
    return {**row, "ok": bool(labels.names), "labels": len(labels.names),
            "problems": [] if labels.names else ["no label read"]}


def check_score(entry: dict[str, Any], path: Path, files_dir: Path,
                row: dict[str, Any]) -> dict[str, Any]:
    """A prediction file scored against its gold with the default options (``python -m core
    score GOLD PRED ARGS --json``): it must score, exit 0."""
    score = entry["score"]
    command = [sys.executable, "-m", "core", "score", str(files_dir / score["gold"]), str(path),
               *score.get("args", []), *entry.get("options", []), "--json"]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    expected_error: str = entry.get("expect_error") or ""
    if proc.returncode != 0:
        ok = proc.returncode == 1 and bool(expected_error) and expected_error in proc.stderr
        return {**row, "ok": ok, "refused": proc.stderr.strip(),
                "problems": [] if ok else [f"score exited {proc.returncode}: "
                                           f"{proc.stderr.strip()[:300]}"]}
    if expected_error:
        return {**row, "ok": False, "problems": ["scored, but the manifest expects a refusal"]}
    result = json.loads(proc.stdout)
    row["score"] = {k: result.get(k) for k in ("precision", "recall", "f1")}
    row["warnings"] = sum(result.get("warning_counts", {}).values())
    return {**row, "ok": True, "problems": []}


def check(entry: dict[str, Any], files_dir: Path, *, timed: bool = False) -> dict[str, Any]:
    path = files_dir / entry["file"]
    options = {**cli_options(entry.get("options", [])), **entry.get("read_options", {})}
    row: dict[str, Any] = {"file": entry["file"], "format": entry["format"]}
    if not path.exists():
        return {**row, "ok": False, "problems": [f"missing: {path}"]}
    if entry.get("kind") == "labels":
        return check_labels(path, row)
    if "score" in entry:
        return check_score(entry, path, files_dir, row)
    row["detected"] = detected(path)
    if entry.get("refused_by") == "detect":
        # No reader's file (a table of other data): detection names what it is, and a
        # reader asked with --format would only name its own columns
        refused = row["detected"]
        ok = refused.startswith("refused: ") and entry.get("expect_error", "") in refused
        return {**row, "ok": ok, "refused": refused.removeprefix("refused: "),
                "problems": [] if ok else [f"detected: {refused}"]}
    from core.model.errors import FormatError

    try:
        ours, warnings = spanscope(path, entry["format"], options)
        if timed:  # the second read: the first imports the reader (spaCy takes seconds)
            started = time.perf_counter()
            spanscope(path, entry["format"], options)
            row["read_seconds"] = round(time.perf_counter() - started, 3)
        if entry["format"] == "mafalda":  # the taxonomy's names, compared in lower case
            ours.docs = [(t, tuple((a, b, lab.lower()) for a, b, lab in spans))
                         for t, spans in ours.docs]
    except FormatError as exc:
        # A damaged file is refused with a message naming where; the manifest says so.
        expected_error: str = entry.get("expect_error") or ""
        ok = bool(expected_error) and expected_error in str(exc)
        return {**row, "ok": ok, "refused": str(exc),
                "problems": [] if ok else [f"SpanScope refused it: {exc}"]}
    if entry.get("expect_error"):
        return {**row, "ok": False, "problems": ["read, but the manifest expects a refusal"]}
    row["spanscope"] = ours.summary()
    row["warnings"] = warnings
    problems = []
    if row["detected"] != entry["format"] and not entry.get("format_given"):
        problems.append(f"detected as {row['detected']}")
    layered = LAYERED.get(entry["format"])
    if layered is not None:
        try:
            layers = layered(path)
        except Exception as exc:  # the independent reader's own failure, named
            problems.append(f"the independent reader failed: {type(exc).__name__}: {exc}")
        else:
            found, row["independent"] = check_layers(path, entry["format"], options, ours,
                                                     layers)
            problems += found
    else:
        independent = INDEPENDENT.get(entry.get("independent", entry["format"]))
        row["independent"] = None
        if independent is not None:
            try:
                theirs = independent(path, {**options, **entry.get("independent_options", {})})
            except Exception as exc:  # the independent reader's own failure, named
                problems.append(f"the independent reader failed: {type(exc).__name__}: {exc}")
            else:
                row["independent"] = theirs.summary()
                problems += compare(ours, theirs)
    expected = entry.get("expected")
    if expected and expected != {k: row["spanscope"][k] for k in expected}:
        problems.append(f"expected {expected}")
    return {**row, "ok": not problems, "problems": problems}


INDEPENDENT_NAMES = {
    "semeval2021": "json", "ptc": "PTC specification", "mafalda": "json (evaluator's reading)",
    "doccano": "json", "label-studio": "json", "brat": "brat specification",
    "conll": "seqeval", "spacy": "spaCy / json", "spans-csv": "csv", "hateval": "csv",
    "uima-xmi": "dkpro-cassis", "uima-json": "json (JSON CAS 0.4 specification)",
    "webanno-tsv": "TSV 3 specification",
}


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def sources_markdown(entries: list[dict[str, Any]], rows: list[dict[str, Any]],
                     files_dir: Path) -> str:
    """``tests/data/wild/SOURCES.md``: where each real export came from and what the last
    check found."""
    out = ["# Real exports checked (`tests/data/wild/`)", "",
           "The files are not in this repository: we do not redistribute other projects' files.",
           "`manifest.jsonl` names each one (repository, commit, path, licence, the tool that "
           "wrote it);", "fetch them at those commits, lay them out as the `file` column says, "
           "and run", "", "    python scripts/wild_check.py FOLDER --sources "
           "tests/data/wild/SOURCES.md", "",
           "which reads each with SpanScope and with an independent reader and rewrites this "
           "page. A", "refusal listed as expected is a damaged or out-of-scope file that "
           "SpanScope names with a clear", "message.", "",
           f"Last run: {sum(r['ok'] for r in rows)} of {len(rows)} as expected.", "",
           "| file | format | source | licence | written by | SpanScope read | independent "
           "reader | result |", "|---|---|---|---|---|---|---|---|"]
    for entry, row in zip(entries, rows, strict=True):
        ours = row.get("spanscope") or {}
        if "score" in row:
            read = "scored: F1 {:.3f}".format(row["score"]["f1"])
        elif row.get("labels") is not None and not ours:
            read = f"{row['labels']} labels"
        elif ours:
            read = (f"{ours['documents']} docs, {ours['spans']} spans, {ours['labels']} labels"
                    + (f", {ours['sets']} sets" if ours.get("sets", 1) > 1 else ""))
        else:
            read = "refused"
        independent = row.get("independent")
        if isinstance(independent, dict) and "layers" in independent:
            theirs = (f"{INDEPENDENT_NAMES.get(entry['format'], '')}: "
                      f"{independent['layers_agreeing']}/{independent['layers']} layers equal")
        elif independent:
            theirs = INDEPENDENT_NAMES.get(entry["format"], "")
        else:
            theirs = "—"
        if row.get("refused") and row["ok"]:
            read = "refused: " + row["refused"].replace(f"{files_dir}/", "").removeprefix(
                "error: ")
        result = ("as expected" if row["ok"] else "DIFFERS") + (
            f": {'; '.join(row['problems'])}" if row["problems"] else "")
        result = result.replace(f"{files_dir}/", "")
        source = f"{entry['repo']}@{entry['commit'][:7]}: `{entry['path']}`"
        out.append("| " + " | ".join(_cell(c) for c in (
            f"`{entry['file']}`", entry["format"], source, entry.get("licence", ""),
            entry.get("tool", ""), read[:200], theirs, result[:160])) + " |")
    return "\n".join(out) + "\n"


def _size(path: Path) -> int:
    """An input's bytes: a file's, or the sum of a folder's files."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files_dir", type=Path)
    parser.add_argument("--manifest", type=Path, default=ROOT / "tests/data/wild/manifest.jsonl")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only")
    parser.add_argument("--sources", type=Path, help="write the SOURCES.md table here")
    parser.add_argument("--time", action="store_true",
                        help="print each read's wall time and size (a bench line, not a test)")
    args = parser.parse_args(argv)
    entries = [json.loads(line) for line in args.manifest.read_text().splitlines()
               if line.strip()]
    entries = [e for e in entries if not args.only or e["format"] == args.only]
    rows = [check(e, args.files_dir, timed=args.time) for e in entries]
    for row in rows:
        ours = row.get("spanscope") or {}
        mark = "ok " if row["ok"] else "BAD"
        print(f"{mark} {row['file']:<60} {row['format']:<13} docs {ours.get('documents', '-'):>5}"
              f" spans {ours.get('spans', '-'):>6} labels {ours.get('labels', '-'):>4}"
              f" {'; '.join(row['problems'])}"
              + (f"refused as expected: {row['refused'][:80]}" if row.get("refused")
                 and row["ok"] else ""))
    if args.time:
        for entry, row in zip(entries, rows, strict=True):
            if "read_seconds" in row:
                size = _size(args.files_dir / entry["file"]) / 2**20
                print(f"time {row['file']:<56} {size:8.2f} MiB {row['read_seconds']:7.3f} s "
                      f"{size / max(row['read_seconds'], 1e-6):7.1f} MiB/s")
    bad = sum(not r["ok"] for r in rows)
    print(f"{len(rows) - bad} of {len(rows)} read as the independent reader reads them")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    if args.sources:
        args.sources.write_text(sources_markdown(entries, rows, args.files_dir),
                                encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
