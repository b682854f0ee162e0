"""Write the golden outcome files of the tool-format readers (``tests/formats/golden/``).

    python scripts/golden.py --write [--only NAME-PREFIX]
    python scripts/golden.py --check

Each golden file is one input read by one reader (brat, doccano, Label Studio, CoNLL, spaCy
JSONL and DocBin, WebAnno TSV, UIMA XMI, Parquet, MAFALDA) under one or more option sets, with
what the reader gave each time: the texts, the sets with their spans in order, the warnings
(messages, files, lines, fields, order, grouped counts), or the error message.
``tests/formats/test_golden.py`` reads every file again and compares. The inputs are the
repository's samples and test files (named by path, never copied), the broken files of
``tests/formats/broken/``, small inputs written out here, corpora written by the writers from a
fixed seed, and those files with bytes damaged from a fixed seed (stored in the golden file,
so that a change of a writer does not change an input).

``--write`` reads every input with the readers of this tree and rewrites every file: run it
only when a reader's outcome is meant to change, and read the diff before committing it.
``--check`` compares without writing (what the test does) and exits 1 on a difference, or
when an input the script writes (``written-*``, ``damaged-*``) is no longer what this tree's
writers write. A written input is compared by what it says, a spaCy DocBin by its decoded
fields: ``--write`` keeps the stored bytes of an input that says the same, so that it changes
no file on an unchanged tree.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import io
import json
import random
import sys
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.formats import ReadOptions, detect, module, read_folder  # noqa: E402
from core.formats.archive import unpack_zips  # noqa: E402
from core.model.errors import Diagnostic, FormatError, expand_diagnostics  # noqa: E402

GOLDEN = ROOT / "tests" / "formats" / "golden"
SAMPLES = ROOT / "sample_data" / "formats"
TS_XML = "sample_data/formats/xmi_export/TypeSystem.xml"
TOOL_FORMATS = ("brat", "doccano", "label-studio", "conll", "spacy", "webanno-tsv", "uima-xmi",
                "parquet", "mafalda")

Input = dict[str, "str | bytes"]
"""A reader's input: file name -> repository path (``str``) or the bytes themselves."""


@dataclass
class Case:
    """One input and the option sets it is read with (``runs``: options, beyond-text policy)."""

    name: str
    fmt: str
    source: str
    files: Input
    runs: list[tuple[dict[str, Any], str]] = field(default_factory=lambda: [({}, "refuse")])
    unpack: bool = False


# ---- reading ----------------------------------------------------------------------------------


def input_bytes(files: Mapping[str, Any]) -> dict[str, bytes]:
    """The stored input as the reader's files (``{"path"}``, ``{"text"}`` or ``{"base64"}``)."""
    out: dict[str, bytes] = {}
    for name, spec in files.items():
        if "path" in spec:
            out[name] = (ROOT / spec["path"]).read_bytes()
        elif "text" in spec:
            out[name] = spec["text"].encode("utf-8")
        else:
            out[name] = base64.b64decode(spec["base64"])
    return out


def _diagnostic(d: Diagnostic) -> dict[str, Any]:
    out: dict[str, Any] = {"file": d.file, "message": d.message}
    for key in ("line", "field", "path"):
        if getattr(d, key) is not None:
            out[key] = getattr(d, key)
    out["kind"] = d.kind
    if d.severity != "warning":
        out["severity"] = d.severity
    if d.count != 1:
        out["count"] = d.count
    return out


def outcome(fmt: str, files: Mapping[str, bytes], source: str, options: Mapping[str, Any],
            policy: str) -> dict[str, Any]:
    """What the reader of ``fmt`` gives: its error message, or every value a caller can see."""
    opts = ReadOptions(**options, beyond_text=policy)  # type: ignore[arg-type]
    try:
        loaded = module(fmt).read(dict(files), name=source, options=opts)
    except FormatError as exc:
        return {"error": str(exc)}
    sets = [{"name": s.name, "role": s.role, "alternatives": s.alternatives,
             "labels": s.labels(), "span_count": s.span_count(),
             "spans": {d: [[x.start, x.end, x.label] for x in v] for d, v in s.spans.items()}}
            for s in loaded.sets]
    out: dict[str, Any] = {"format": loaded.format, "source": loaded.source,
                           "texts": dict(loaded.texts), "sets": sets,
                           "named_sets": sorted(loaded.named_sets),
                           "diagnostics": [_diagnostic(d) for d in loaded.diagnostics]}
    if any(d.more is not None for d in loaded.diagnostics):  # grouped: each one, in file order
        out["expanded"] = [_diagnostic(d) for d in expand_diagnostics(loaded.diagnostics)]
    if loaded.records is not None:  # MAFALDA's gold order and kept zero-length spans
        records: Any = loaded.records
        out["records"] = {"intervals": {d: [list(x) for x in v] for d, v in
                                        records.intervals.items()},
                          "zero_length": {d: [list(x) for x in v] for d, v in
                                          records.zero_length.items()}}
    if loaded.assumed_extents is not None:
        out["assumed_extents"] = loaded.assumed_extents
    return out


def read_case(stored: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every run of a stored golden case, read again by this tree's readers."""
    files = input_bytes(stored["input"])
    if stored.get("unpack"):
        files = unpack_zips(files, stored["source"])
    runs: list[dict[str, Any]] = []
    seen: list[dict[str, Any]] = []
    for run in stored["runs"]:
        got = outcome(stored["format"], files, stored["source"], run["options"], run["policy"])
        # an outcome met before is stored as its run's number (1-based), to keep files small
        same = next((i for i, o in enumerate(seen, start=1) if o == got), None)
        seen.append(got)
        runs.append({"options": run["options"], "policy": run["policy"],
                     "outcome": got if same is None else {"same_as_run": same}})
    return runs


# ---- the JSON layout: one line per span, per text, per warning -----------------------------


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with every list or object of scalars (a span, a warning's fields) on one line, so
    that a difference shows as a few changed lines."""
    def scalar(v: Any) -> bool:
        return not isinstance(v, (list, dict))

    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(value, list) and value and not all(scalar(v) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, indent + 1) for v in value) + "\n" + pad + "]"
    if isinstance(value, dict) and value and not (all(scalar(v) for v in value.values())
                                                  and len(value) <= 8):
        items = (f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}"
                 for k, v in value.items())
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    return json.dumps(value, ensure_ascii=False)


def _stored_input(files: Input) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for name, value in files.items():
        if isinstance(value, str):
            out[name] = {"path": value}
            continue
        try:
            text = value.decode("utf-8")
        except UnicodeDecodeError:
            text = "\r"  # stored as base64, as a carriage return is (JSON keeps it, editors not)
        out[name] = ({"base64": base64.b64encode(value).decode()} if "\r" in text
                     else {"text": text})
    return out


def build(case: Case) -> dict[str, Any]:
    """The golden file's content for ``case`` (its input and each run's outcome)."""
    stored: dict[str, Any] = {"format": case.fmt, "source": case.source,
                              "input": _stored_input(case.files),
                              "runs": [{"options": o, "policy": p} for o, p in case.runs]}
    if case.unpack:
        stored["unpack"] = True
    stored["runs"] = read_case(stored)
    return stored


# ---- the cases ---------------------------------------------------------------------------------


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _pointer_files(path: Path) -> Input:
    if path.is_dir():
        return {name: _rel(path / name) for name in read_folder(path)}
    return {path.name: _rel(path)}


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in text).strip("_")


def repository_cases() -> Iterator[Case]:
    """The samples and the tool-format test inputs, by path; each also read with a labels
    list (what the differential tests asked)."""
    labelled = [({}, "refuse"), ({"labels": ["PER", "Doubt"]}, "refuse")]
    paths = sorted(SAMPLES.iterdir()) + sorted((ROOT / "sample_data" / "mafalda").glob("*.jsonl"))
    for sub in ("conll", "doccano", "label-studio", "inception"):
        paths += sorted((ROOT / "tests" / "data" / "formats" / sub).iterdir())
    paths += sorted((ROOT / "sample_data").glob("*.parquet"))
    paths += sorted((ROOT / "tests").rglob("*.zip"))
    for path in paths:
        files = _pointer_files(path)
        unpack = path.suffix == ".zip"
        try:
            data = {k: (ROOT / v).read_bytes() for k, v in files.items()}  # type: ignore[operator]
            fmt = detect(unpack_zips(data, path.name) if unpack else data)
        except FormatError:
            continue
        if fmt in TOOL_FORMATS:
            yield Case(f"repo-{_slug(_rel(path))}", fmt, path.name, files, list(labelled),
                       unpack)


BROKEN = {"discontinuous.ann": "brat", "malformed.jsonl": "doccano",
          "boolean_offset.jsonl": "doccano", "cancelled_and_choices.json": "label-studio",
          "two_annotations_same_person.json": "label-studio"}


def broken_cases() -> Iterator[Case]:
    for name, fmt in sorted(BROKEN.items()):
        path = ROOT / "tests" / "formats" / "broken" / name
        yield Case(f"broken-{_slug(name)}", fmt, name, {name: _rel(path)})


def written_cases() -> Iterator[Case]:
    """Small inputs that pin one behaviour each (the order of errors in JSON Lines and in Label
    Studio's task list, an XMI read twice for one annotator, an INCEpTION export zipped)."""
    bodies = [
        '{"id": 1, "text": "ab", "label": [[0, 1, "X"]]}\n[1]\n{"id": 2, "label": [}\n',
        '{"id": 1, "text": "ab", "label": [[0, 9, "X"]]}\n{"id": 2, "label": [}\n',
        '{"id": 1, "text": "ab", "label": [[0, 9, "X"]]}\n{"id": 2, "label": []}\n',
        '{"id": 1, "text": "ab", "label": [[0, 1, "X"]]}\n\n{"id": 1, "label": []}\n',
    ]
    for i, body in enumerate(bodies, start=1):
        yield Case(f"jsonl-order-{i}-doccano", "doccano", "d.jsonl", {"d.jsonl": body.encode()})
        spacy = body.replace('"label": [[', '"text": "ab", "ents": [[').replace('"label"',
                                                                               '"ents"')
        yield Case(f"jsonl-order-{i}-spacy", "spacy", "d.jsonl", {"d.jsonl": spacy.encode()})
    tasks = [
        '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": 5}]}, {"id": 2,]',
        '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": 5}]}] x',
        '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": 5}]}]',
        ' \n[ ]\n', '[1, 2', '[', '[{"id": 1}, {"id": 1e999999}]', '{"id": 1, "annotations": []}',
        '[{"id": 1, "data": {"text": "\\ud800"}, "annotations": []}]',
        '[{"id": 99999999999999999999999, "annotations": []}]', '[[[[[[[[[[1]]]]]]]]]]',
        '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": [{"type": "labels", '
        '"value": {"start": 0, "end": 1, "labels": ["X"]}}]}]}, [] ]',
    ]
    for i, body in enumerate(tasks, start=1):
        yield Case(f"label-studio-tasks-{i:02}", "label-studio", "t.json",
                   {"t.json": body.encode()})
    one, two = _xmi("ab cd", [(0, 2, "X")]), _xmi("ab cd", [(3, 5, "Y")])
    yield Case("xmi-later-file-replaces-earlier", "uima-xmi", "proj",
               {"annotation/d/alice.xmi": one, "annotation/d/alice/alice.xmi": two,
                "TypeSystem.xml": TS_XML}, [({}, "refuse"), ({"layer": "NamedEntity"}, "refuse")])
    lines = [{"id": "a", "text": "He lies. So do you.", "labels": [
                 [0, 8, "ad hominem"], [3, 3, "ad hominem"], [0, 8, "ad hominem"],
                 [9, 19, "tu quoque"], [0, 2, "to clean"], [0, 19, "nothing"]]},
             {"id": "b", "labels": [[0, 4, "tu quoque"], [5, 5, "appeal to fear"]]},
             {"id": "c", "text": "ok", "labels": [[0, 9, "ad hominem"]]},
             {"id": "d", "text": "x", "labels": [[0, 1, "no such fallacy"]]}]
    body = "".join(json.dumps(line) + "\n" for line in lines)
    yield Case("mafalda-zero-length-and-labels", "mafalda", "m.jsonl", {"m.jsonl": body.encode()},
               [({}, "refuse"), ({}, "official"), ({}, "clip"), ({"role": "system"}, "refuse"),
                ({"role": "system"}, "official")])
    ok = "".join(json.dumps(line) + "\n" for line in lines[:2])
    yield Case("mafalda-zero-length-kept", "mafalda", "m.jsonl", {"m.jsonl": ok.encode()},
               [({}, "refuse"), ({}, "official"), ({"role": "system"}, "official")])
    export = SAMPLES / "inception_export"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(export.rglob("*.tsv")):
            z.writestr(p.relative_to(export).as_posix(), p.read_bytes())
    # unpacked, the zip is its members by their paths in the export: stored as those files
    members = unpack_zips({"export.zip": buf.getvalue()}, "export.zip")
    yield Case("webanno-export-zip", "webanno-tsv", "export.zip",
               {k: _rel(export / k) for k in members})


# ---- generated corpora (a fixed seed: the differential tests drew them with hypothesis) ----

WORDS = ["a", "bb", "Ok", "é", "x\u00a0y", "🙂", "zz", "c|d", "e_f", "[g]"]
LABELS = ["PER", "LOC", "Doubt", "X|Y", "*"]
Spans = dict[str, list[tuple[int, int, str]]]


def corpus(rng: random.Random) -> tuple[dict[str, str | None], Spans]:
    """Texts of words on lines, with spans over whole words (some overlapping, some repeated,
    some that take in the space after a word)."""
    texts: dict[str, str | None] = {}
    spans: Spans = {}
    for d in range(rng.randint(1, 4)):
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))
                 for _ in range(rng.randint(1, 3))]
        text = "\n".join(lines)
        starts = [i for i, ch in enumerate(text) if not ch.isspace()
                  and (i == 0 or text[i - 1].isspace())]
        ends = [i + 1 for i, ch in enumerate(text) if not ch.isspace()
                and (i + 1 == len(text) or text[i + 1].isspace())]
        out: list[tuple[int, int, str]] = []
        for _ in range(rng.randint(0, 5)):
            s = rng.choice(starts)
            e = rng.choice([x for x in ends if x > s])
            if rng.randint(0, 5) == 0 and e < len(text):
                e += 1  # ends in whitespace
            out.append((s, e, rng.choice(LABELS)))
            if rng.randint(0, 5) == 0:
                out.append(out[-1])
        texts[str(d + 1)] = text
        spans[str(d + 1)] = out
    return texts, spans


def _aset(spans: Spans, name: str = "gold", role: Any = "gold") -> Any:
    from core.model import AnnotationSet, Span

    return AnnotationSet(name, {d: tuple(sorted(Span(*x) for x in v)) for d, v in spans.items()},
                         role)


def _xmi(text: str, spans: list[tuple[int, int, str]]) -> bytes:
    from xml.sax.saxutils import quoteattr

    # UIMA counts UTF-16 units: a character outside the BMP counts two.
    u16 = [0]
    for ch in text:
        u16.append(u16[-1] + (2 if ord(ch) > 0xFFFF else 1))
    anns = "".join(
        f'<custom:Technique xmi:id="{n}" sofa="1" begin="{u16[s]}" end="{u16[e]}" '
        f'Technique={quoteattr(label)}/>' for n, (s, e, label) in enumerate(spans, start=10))
    ids = " ".join(str(n) for n in range(10, 10 + len(spans)))
    return ('<?xml version="1.0" encoding="UTF-8"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
            'xmlns:cas="http:///uima/cas.ecore" xmlns:custom="http:///webanno/custom.ecore" '
            f'xmi:version="2.0"><cas:NULL xmi:id="0"/>{anns}<cas:Sofa xmi:id="1" sofaNum="1" '
            f'sofaID="_InitialView" sofaString={quoteattr(text)}/><cas:View sofa="1" '
            f'members="{ids}"/></xmi:XMI>').encode()


def _label_studio(texts: Mapping[str, str | None], spans: Spans) -> bytes:
    tasks = []
    for i, (d, text) in enumerate(texts.items()):
        assert text is not None
        result: list[dict[str, Any]] = [
            {"type": "labels", "value": {"start": s, "end": e, "text": text[s:e],
                                         "labels": [label]}}
            for s, e, label in spans[d]]
        if i % 2:
            result.append({"type": "choices", "value": {"choices": ["x"]}})
        tasks.append({"id": int(d), "data": {"text": text},
                      "annotations": [{"completed_by": 1, "result": result},
                                      {"completed_by": 2, "result": result[:1],
                                       "was_cancelled": i % 3 == 0}],
                      "predictions": [{"model_version": "m", "result": result[1:]}]})
    return json.dumps(tasks, indent=1, ensure_ascii=False).encode()


def files_for(fmt: str, texts: dict[str, str | None], spans: Spans) -> Input:
    """The corpus written in ``fmt`` as the reader's input (a folder's files)."""
    from core.formats import parquet, spacy_docs, write_files

    def encoded(files: Mapping[str, str]) -> Input:
        return {k: v.encode("utf-8") for k, v in files.items()}

    if fmt == "label-studio":
        return {"tasks.json": _label_studio(texts, spans)}
    if fmt == "uima-xmi":
        files: Input = {f"annotation/{d}/alice.xmi": _xmi(t or "", spans[d])
                        for d, t in texts.items()}
        files.update({f"annotation/{d}/bob.xmi": _xmi(t or "", spans[d][1:])
                      for d, t in texts.items()})
        files["TypeSystem.xml"] = TS_XML
        return files
    if fmt == "parquet":
        other = {d: v[::-1] for d, v in spans.items()}
        return dict(parquet.write_tables(texts, [_aset(spans, "gold"),
                                                 _aset(other, "alice", "annotator")], "corpus"))
    if fmt == "spacy-docbin":
        return {"d.spacy": spacy_docs.docbin_bytes(texts, _aset(spans))}
    if fmt == "conll":
        # CoNLL holds one label per token: keep the spans that share no word.
        kept: Spans = {}
        for d, items in spans.items():
            taken: list[tuple[int, int, str]] = []
            for s in sorted(x for x in items if " " not in x[2]):
                if all(s[0] >= t[1] or s[1] <= t[0] for t in taken):
                    taken.append(s)
            kept[d] = taken
        return encoded(write_files("conll", texts, [_aset(kept)]))
    sets = [_aset(spans)]
    if fmt == "webanno-tsv":
        sets = [_aset(spans, "alice"), _aset({d: v[1:] for d, v in spans.items()}, "bob")]
    return encoded(write_files(fmt, texts, sets))


WRITTEN = ["brat", "doccano", "label-studio", "conll", "spacy", "webanno-tsv", "uima-xmi",
           "parquet"]
PIECES = ["", "\xff", "\n", "\t", "-", "9", " ", "[", "]", "|", "*", "_", '"', "{", ",", "0", "T",
          "#", "B-", "O", "\r"]


def damage(raw: bytes, rng: random.Random) -> bytes:
    """``raw`` with one to four runs of up to three bytes replaced by a piece ("\\xff" stays one
    invalid UTF-8 byte)."""
    out = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(out))
        cut = rng.randint(0, 3)
        piece = rng.choice(PIECES)
        out[at:at + cut] = piece.encode("latin-1") if piece == "\xff" else piece.encode("utf-8")
    return bytes(out)


def generated_cases(n_corpora: int = 3, n_damaged: int = 8) -> Iterator[Case]:
    """Corpora written in each format, read with a labels list, a role, and each beyond-text
    policy; each file also damaged ``n_damaged`` times (parquet: bad values instead)."""
    runs: list[tuple[dict[str, Any], str]] = [
        ({}, "refuse"), ({"labels": ["PER", "LOC"]}, "refuse"), ({}, "clip"),
        ({}, "official"), ({"role": "system"}, "refuse")]
    for fmt in WRITTEN:
        rng = random.Random(f"golden-{fmt}")
        for k in range(1, n_corpora + 1):
            yield Case(f"written-{fmt}-{k}", fmt, "in", files_for(fmt, *corpus(rng)), list(runs))
        if fmt == "parquet":
            continue
        for k in range(1, n_damaged + 1):
            files = files_for(fmt, *corpus(rng))
            path = rng.choice(sorted(p for p in files if p != "TypeSystem.xml"))
            raw = files[path]
            assert isinstance(raw, bytes)
            files[path] = damage(raw, rng)
            yield Case(f"damaged-{fmt}-{k}", fmt, "in", files)
    rng = random.Random("golden-docbin")
    for k in range(1, 3):
        yield Case(f"written-spacy-docbin-{k}", "spacy", "d.spacy",
                   files_for("spacy-docbin", *corpus(rng)),
                   [({}, "refuse"), ({"span_group": "sc"}, "refuse"),
                    ({"span_group": "other"}, "refuse")])
    yield from parquet_cases()


def parquet_cases() -> Iterator[Case]:
    """Parquet tables with bad values (missing, negative, past the text), with and without a
    texts table, and shards that merge or clash."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.formats import parquet
    from core.model import AnnotationSet, Span

    rng = random.Random("golden-parquet-values")
    choices: dict[str, list[Any]] = {"doc_id": [None, "", " ", "1"],
                                     "start": [None, -1, 0, 3, 10**6],
                                     "end": [None, 0, 2, 10**6], "label": [None, "", "PER", " "]}
    for k in range(1, 9):
        texts, spans = corpus(rng)
        rows = [(d, s, e, label) for d, v in spans.items() for s, e, label in v]
        columns: dict[str, list[Any]] = {"doc_id": [r[0] for r in rows] + ["9"],
                                         "start": [r[1] for r in rows] + [None],
                                         "end": [r[2] for r in rows] + [None],
                                         "label": [r[3] for r in rows] + [None]}
        for _ in range(rng.randint(0, 3)):
            col = rng.choice(list(columns))
            columns[col][rng.randint(0, len(rows))] = rng.choice(choices[col])
        table = pa.table({"doc_id": pa.array(columns["doc_id"], pa.string()),
                          "start": pa.array(columns["start"], pa.int64()),
                          "end": pa.array(columns["end"], pa.int64()),
                          "label": pa.array(columns["label"], pa.string())})
        buf = io.BytesIO()
        pq.write_table(table, buf)
        files: Input = {"t.parquet": buf.getvalue()}
        if k % 2:
            written = files_for("parquet", texts, spans)
            files["t.texts.parquet"] = written["corpus.texts.parquet"]
        yield Case(f"parquet-values-{k}", "parquet", "t.parquet", files,
                   [({}, "refuse"), ({"labels": ["PER"]}, "refuse")])

    def aset(spans: dict[str, list[Span]]) -> AnnotationSet:
        return AnnotationSet("gold", {d: tuple(sorted(v)) for d, v in spans.items()}, "gold")

    texts = {"a": "one two", "b": "three four", "c": "five"}
    first = parquet.write_tables({"a": texts["a"]}, [aset({"a": [Span(0, 3, "X"),
                                                                 Span(0, 3, "X")]})], "p1")
    second = parquet.write_tables({"b": texts["b"], "c": texts["c"]},
                                  [aset({"b": [Span(6, 10, "Y")], "c": []})], "p2")
    again = parquet.write_tables({"a": texts["a"]}, [aset({"a": []})], "p3")
    yield Case("parquet-shards-merge", "parquet", "shards", {**first, **second})
    yield Case("parquet-shards-clash", "parquet", "shards", {**first, **again})


def cases() -> Iterator[Case]:
    yield from repository_cases()
    yield from broken_cases()
    yield from written_cases()
    yield from generated_cases()


# ---- checking ----------------------------------------------------------------------------------


def content(name: str, data: bytes) -> object:
    """What an input file says, for comparing two writings of it: a spaCy DocBin (``.spacy``)
    as its decoded fields (tokens, spaces, strings, span groups, user data: the zlib stream
    around them may differ in bytes between two writers of the same content), any other file
    its bytes (a DocBin that does not decode, a damaged one, its bytes too)."""
    if name.endswith(".spacy"):
        import zlib

        import srsly

        try:
            return srsly.msgpack_loads(zlib.decompress(data))
        except (zlib.error, ValueError):
            return data
    return data


def same_input(stored: Mapping[str, Any], files: Input) -> bool:
    """Whether a golden file's stored input says what ``files`` (a case's) say."""
    if set(stored) != set(files):
        return False
    old = input_bytes(stored)
    for name, value in files.items():
        if isinstance(value, str):
            if stored[name] != {"path": value}:
                return False
        elif content(name, old[name]) != content(name, value):
            return False
    return True


def kept_input(case: Case) -> Case:
    """``case`` with the bytes its golden file holds when they say the same (:func:`same_input`):
    ``--write`` on an unchanged tree then changes no file, whatever bytes a writer gives."""
    path = GOLDEN / f"{case.name}.json"
    if not path.is_file():
        return case
    stored = json.loads(path.read_text(encoding="utf-8"))["input"]
    if not same_input(stored, case.files):
        return case
    return Case(case.name, case.fmt, case.source, {**case.files, **{
        k: v for k, v in input_bytes(stored).items() if not isinstance(case.files[k], str)}},
        case.runs, case.unpack)


def stale_inputs() -> list[str]:
    """The golden files whose stored input is no longer what the cases make (a writer of
    ``written-*`` and ``damaged-*`` inputs changed since ``--write``): their outcomes are
    still checked, on inputs this tree would not write."""
    out = []
    for case in cases():
        path = GOLDEN / f"{case.name}.json"
        if path.is_file() and not same_input(
                json.loads(path.read_text(encoding="utf-8"))["input"], case.files):
            out.append(path.name)
    return out


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


def difference(path: Path) -> str:
    """A unified diff between a golden file's outcomes and this tree's ("" when equal)."""
    stored = json.loads(path.read_text(encoding="utf-8"))
    want = dumps(stored["runs"]).splitlines()
    got = dumps(read_case(stored)).splitlines()
    if want == got:
        return ""
    return "\n".join(difflib.unified_diff(want, got, f"{path.name} (golden)",
                                          f"{path.name} (readers now)", lineterm="", n=2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true", help="rewrite every golden file")
    what.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--only", default="", help="only the cases whose name starts so")
    args = parser.parse_args(argv)
    if args.check:
        diffs = [d for p in golden_files() if p.stem.startswith(args.only)
                 for d in [difference(p)] if d]
        diffs += [f"{name}: its input is not what the writers of this tree write; run --write"
                  for name in stale_inputs() if name.startswith(args.only)]
        print("\n\n".join(diffs) if diffs else "identical")
        return 1 if diffs else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    names = set()
    for case in cases():
        if not case.name.startswith(args.only):
            continue
        assert case.name not in names, case.name
        names.add(case.name)
        (GOLDEN / f"{case.name}.json").write_text(dumps(build(kept_input(case))) + "\n",
                                                  encoding="utf-8")
    if not args.only:
        for stale in golden_files():
            if stale.stem not in names:
                stale.unlink()
    shown = _rel(GOLDEN) if GOLDEN.is_relative_to(ROOT) else GOLDEN
    print(f"wrote {len(names)} golden files to {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
