"""The columnar tool-format and Parquet readers give exactly what the per-span readers gave.

Each reader of ``core/formats/`` (brat, doccano, Label Studio, CoNLL, spaCy JSONL and DocBin,
WebAnno TSV, UIMA XMI, Parquet) is compared with its version from before it read into columns
(``tests/formats/reference/``, loaded by path): the same texts, the same sets with the same
spans in the same order, the same warnings (messages, lines, fields, order) and, on invalid
input, the same error. Inputs: the repository's samples and broken files, files the writers
make from generated corpora (hypothesis), and those files with bytes damaged.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import io
import json
import sys
import zipfile
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.errors import FormatError, expand_diagnostics
from core.formats import (
    ReadOptions,
    brat,
    conll,
    doccano,
    label_studio,
    parquet,
    read_folder,
    spacy_docs,
    webanno,
    write_files,
    xmi,
)
from core.formats.archive import unpack_zips
from core.model import AnnotationSet, Span
from tests.formats.damage import damage

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SAMPLES = ROOT / "sample_data" / "formats"
TS_XML = (SAMPLES / "xmi_export" / "TypeSystem.xml").read_bytes()


def _reference(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"reference_{name}",
                                                  HERE / "reference" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


PAIRS: dict[str, tuple[ModuleType, ModuleType]] = {
    "brat": (brat, _reference("brat")),
    "doccano": (doccano, _reference("doccano")),
    "label-studio": (label_studio, _reference("label_studio")),
    "conll": (conll, _reference("conll")),
    "spacy": (spacy_docs, _reference("spacy_docs")),
    "webanno-tsv": (webanno, _reference("webanno")),
    "uima-xmi": (xmi, _reference("xmi")),
    "parquet": (parquet, _reference("parquet")),
}


def outcome(module: ModuleType, files: Mapping[str, bytes], name: str, options: ReadOptions,
            policy: str) -> tuple[str, object]:
    """A reader's error message, or every value a caller can see.

    The doccano reader warns, since issue "Real users' files" item 3, when a record has no text
    key but other keys hold strings (a damaged ``"text"`` key); the reference reader predates
    that warning, which ``tests/formats/test_doccano_exports.py`` tests. The warnings are
    compared sorted by kind and message (file order kept among equal ones): brat and Label
    Studio now group the lines and results that carry no span (one grouped warning per kind,
    ``test_grouped_skips.py``), which lists them after the reader's other warnings."""
    try:
        loaded = module.read(dict(files), name=name,
                             options=dataclasses.replace(options, beyond_text=policy))
    except FormatError as exc:
        return "error", str(exc)
    diags = sorted((d for d in expand_diagnostics(loaded.diagnostics)
                    if not str(d.message).startswith("no 'text' (or 'data')")),
                   key=lambda d: (d.kind, d.message))  # stable: file order kept for ties
    sets = [(s.name, s.role, s.alternatives, list(s.spans.items()), s.labels(), s.span_count())
            for s in loaded.sets]
    return "ok", (loaded.format, loaded.source, list(loaded.texts.items()), sets, diags)


def same(fmt: str, files: Mapping[str, bytes], name: str = "in",
         options: ReadOptions | None = None, policy: str = "refuse") -> str:
    new, old = PAIRS[fmt]
    options = options or ReadOptions()
    got = outcome(new, files, name, options, policy)
    expected = outcome(old, files, name, options, policy)
    assert got == expected
    return got[0]


# ---- generated corpora ------------------------------------------------------------------

WORDS = st.sampled_from(["a", "bb", "Ok", "é", "x\u00a0y", "🙂", "zz", "c|d", "e_f", "[g]"])
LABELS = st.sampled_from(["PER", "LOC", "Doubt", "X|Y", "*"])


@st.composite
def corpora(draw: st.DrawFn) -> tuple[dict[str, str | None], dict[str, list[Span]]]:
    """Texts of words on lines, with spans over whole words (some overlapping, some repeated,
    some that take in the space after a word)."""
    texts: dict[str, str | None] = {}
    spans: dict[str, list[Span]] = {}
    for d in range(draw(st.integers(1, 4))):
        lines = [" ".join(draw(st.lists(WORDS, min_size=1, max_size=6)))
                 for _ in range(draw(st.integers(1, 3)))]
        text = "\n".join(lines)
        starts = [i for i, ch in enumerate(text) if not ch.isspace()
                  and (i == 0 or text[i - 1].isspace())]
        ends = [i + 1 for i, ch in enumerate(text) if not ch.isspace()
                and (i + 1 == len(text) or text[i + 1].isspace())]
        out = []
        for _ in range(draw(st.integers(0, 5))):
            s = draw(st.sampled_from(starts))
            e = draw(st.sampled_from([x for x in ends if x > s]))
            if draw(st.integers(0, 5)) == 0 and e < len(text):
                e += 1  # ends in whitespace
            out.append(Span(s, e, draw(LABELS)))
            if draw(st.integers(0, 5)) == 0:
                out.append(out[-1])
        texts[str(d + 1)] = text
        spans[str(d + 1)] = out
    return texts, spans


def _aset(spans: dict[str, list[Span]], name: str = "gold", role: Any = "gold"
          ) -> AnnotationSet:
    return AnnotationSet(name, {d: tuple(sorted(v)) for d, v in spans.items()}, role)


def _encoded(files: Mapping[str, str]) -> dict[str, bytes]:
    return {k: v.encode("utf-8") for k, v in files.items()}


def _label_studio(texts: Mapping[str, str | None], spans: Mapping[str, list[Span]]) -> bytes:
    tasks = []
    for i, (d, text) in enumerate(texts.items()):
        assert text is not None
        result: list[dict[str, Any]] = [
            {"type": "labels", "value": {"start": s.start, "end": s.end,
                                         "text": text[s.start:s.end], "labels": [s.label]}}
            for s in spans[d]]
        if i % 2:
            result.append({"type": "choices", "value": {"choices": ["x"]}})
        tasks.append({"id": int(d), "data": {"text": text},
                      "annotations": [{"completed_by": 1, "result": result},
                                      {"completed_by": 2, "result": result[:1],
                                       "was_cancelled": i % 3 == 0}],
                      "predictions": [{"model_version": "m", "result": result[1:]}]})
    return json.dumps(tasks, indent=1, ensure_ascii=False).encode()


def _xmi(text: str, spans: list[Span]) -> bytes:
    from xml.sax.saxutils import quoteattr

    # UIMA counts UTF-16 units: a character outside the BMP counts two.
    u16 = [0]
    for ch in text:
        u16.append(u16[-1] + (2 if ord(ch) > 0xFFFF else 1))
    anns = "".join(
        f'<custom:Technique xmi:id="{n}" sofa="1" begin="{u16[s.start]}" end="{u16[s.end]}" '
        f'Technique={quoteattr(s.label)}/>' for n, s in enumerate(spans, start=10))
    ids = " ".join(str(n) for n in range(10, 10 + len(spans)))
    return ('<?xml version="1.0" encoding="UTF-8"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
            'xmlns:cas="http:///uima/cas.ecore" xmlns:custom="http:///webanno/custom.ecore" '
            f'xmi:version="2.0"><cas:NULL xmi:id="0"/>{anns}<cas:Sofa xmi:id="1" sofaNum="1" '
            f'sofaID="_InitialView" sofaString={quoteattr(text)}/><cas:View sofa="1" '
            f'members="{ids}"/></xmi:XMI>').encode()


def _parquet(texts: dict[str, str | None], spans: dict[str, list[Span]]) -> dict[str, bytes]:
    other = {d: v[::-1] for d, v in spans.items()}
    sets = [_aset(spans, "gold"), _aset(other, "alice", "annotator")]
    return parquet.write_tables(texts, sets, "corpus")


def files_for(fmt: str, texts: dict[str, str | None], spans: dict[str, list[Span]]
              ) -> dict[str, bytes]:
    """The corpus written in ``fmt`` as the reader's input (a folder's files)."""
    if fmt == "label-studio":
        return {"tasks.json": _label_studio(texts, spans)}
    if fmt == "uima-xmi":
        files = {f"annotation/{d}/alice.xmi": _xmi(t or "", spans[d]) for d, t in texts.items()}
        files.update({f"annotation/{d}/bob.xmi": _xmi(t or "", spans[d][1:])
                      for d, t in texts.items()})
        files["TypeSystem.xml"] = TS_XML
        return files
    if fmt == "parquet":
        return _parquet(texts, spans)
    if fmt == "spacy-docbin":
        return {"d.spacy": spacy_docs.docbin_bytes(texts, _aset(spans))}
    if fmt == "conll":
        clean = {d: [s for s in v if " " not in s.label] for d, v in spans.items()}
        # CoNLL holds one label per token: keep the spans that share no word.
        kept: dict[str, list[Span]] = {}
        for d, items in clean.items():
            taken: list[Span] = []
            for s in sorted(items):
                if all(s.start >= t.end or s.end <= t.start for t in taken):
                    taken.append(s)
            kept[d] = taken
        return _encoded(write_files("conll", texts, [_aset(kept)]))
    sets = [_aset(spans)]
    if fmt == "webanno-tsv":
        sets = [_aset(spans, "alice"), _aset({d: v[1:] for d, v in spans.items()}, "bob")]
    return _encoded(write_files(fmt, texts, sets))


FORMATS = ["brat", "doccano", "label-studio", "conll", "spacy", "webanno-tsv", "uima-xmi",
           "parquet"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(FORMATS))
def test_written_corpora_read_the_same(corpus: Any, fmt: str) -> None:
    texts, spans = corpus
    assert same(fmt, files_for(fmt, texts, spans)) == "ok"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_docbin_corpora_read_the_same(corpus: Any) -> None:
    texts, spans = corpus
    files = files_for("spacy-docbin", texts, spans)
    assert same("spacy", files, name="d.spacy") == "ok"
    assert same("spacy", files, name="d.spacy", options=ReadOptions(span_group="sc")) == "ok"
    same("spacy", files, name="d.spacy", options=ReadOptions(span_group="other"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(FORMATS), st.sampled_from(["clip", "official"]))
def test_labels_lists_and_policies_apply_the_same(corpus: Any, fmt: str, policy: str) -> None:
    texts, spans = corpus
    files = files_for(fmt, texts, spans)
    same(fmt, files, options=ReadOptions(labels=["PER", "LOC"]))
    same(fmt, files, policy=policy)
    same(fmt, files, options=ReadOptions(role="system"))


PIECES = st.sampled_from(["", "\xff", "\n", "\t", "-", "9", " ", "[", "]", "|", "*", "_", '"',
                          "{", ",", "0", "T", "#", "B-", "O", "\r"])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), corpora(), st.sampled_from([f for f in FORMATS if f != "parquet"]))
def test_damaged_files_give_the_same_error_or_result(data: st.DataObject, corpus: Any,
                                                      fmt: str) -> None:
    texts, spans = corpus
    files = files_for(fmt, texts, spans)
    path = data.draw(st.sampled_from(sorted(p for p in files if p != "TypeSystem.xml")))
    files[path] = damage(files[path], data, PIECES)
    if fmt == "doccano":
        # A JSON list, or an object over several lines: layouts the doccano reader reads since
        # "Real users' files" item 3 and the reference reader (JSON Lines only) never did.
        body = files[path].decode("utf-8", "replace").lstrip(" \t\r\n")
        assume(not body.startswith("[") and body.split("\n", 1)[0].strip() != "{")
    same(fmt, files)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), corpora())
def test_parquet_tables_with_bad_values_give_the_same_error(data: st.DataObject,
                                                            corpus: Any) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    texts, spans = corpus
    rows = [(d, s.start, s.end, s.label) for d, v in spans.items() for s in v]
    columns: dict[str, list[Any]] = {"doc_id": [r[0] for r in rows] + ["9"],
                                     "start": [r[1] for r in rows] + [None],
                                     "end": [r[2] for r in rows] + [None],
                                     "label": [r[3] for r in rows] + [None]}
    for _ in range(data.draw(st.integers(0, 3))):
        col = data.draw(st.sampled_from(list(columns)))
        i = data.draw(st.integers(0, len(rows)))
        columns[col][i] = data.draw(st.sampled_from(
            {"doc_id": [None, "", " ", "1"], "start": [None, -1, 0, 3, 10**6],
             "end": [None, 0, 2, 10**6], "label": [None, "", "PER", " "]}[col]))
    table = pa.table({"doc_id": pa.array(columns["doc_id"], pa.string()),
                      "start": pa.array(columns["start"], pa.int64()),
                      "end": pa.array(columns["end"], pa.int64()),
                      "label": pa.array(columns["label"], pa.string())})
    buf = io.BytesIO()
    pq.write_table(table, buf)
    files = {"t.parquet": buf.getvalue()}
    if data.draw(st.booleans()):
        files["t.texts.parquet"] = _parquet(texts, spans)["corpus.texts.parquet"]
    same("parquet", files, name="t.parquet")
    same("parquet", files, name="t.parquet", options=ReadOptions(labels=["PER"]))


def test_parquet_shards_merge_the_same() -> None:
    texts = {"a": "one two", "b": "three four", "c": "five"}
    first = parquet.write_tables({"a": texts["a"]}, [_aset({"a": [Span(0, 3, "X"),
                                                                  Span(0, 3, "X")]})], "p1")
    second = parquet.write_tables({"b": texts["b"], "c": texts["c"]},
                                  [_aset({"b": [Span(6, 10, "Y")], "c": []})], "p2")
    assert same("parquet", {**first, **second}, name="shards") == "ok"
    again = parquet.write_tables({"a": texts["a"]}, [_aset({"a": []})], "p3")
    assert same("parquet", {**first, **again}, name="shards") == "error"


# ---- the repository's files ------------------------------------------------------------


def _sample_inputs() -> list[tuple[str, str, dict[str, bytes]]]:
    out: list[tuple[str, str, dict[str, bytes]]] = []
    for path in sorted(SAMPLES.iterdir()):
        files = read_folder(path) if path.is_dir() else {path.name: path.read_bytes()}
        from core.formats import detect

        fmt = detect(files)
        if fmt in PAIRS:
            out.append((fmt, path.name, files))
    for path in sorted((ROOT / "sample_data").glob("*.parquet")) + sorted(
            (ROOT / "tests").rglob("*.zip")):
        files = unpack_zips({path.name: path.read_bytes()}, path.name)
        from core.formats import detect

        try:
            fmt = detect(files)
        except FormatError:
            continue
        if fmt in PAIRS:
            out.append((fmt, path.name, files))
    return out


SAMPLE_INPUTS = _sample_inputs()


def test_the_repository_holds_a_sample_of_every_converted_format() -> None:
    assert {fmt for fmt, _, _ in SAMPLE_INPUTS} >= set(PAIRS) - {"parquet"}


@pytest.mark.parametrize(("fmt", "name", "files"), SAMPLE_INPUTS,
                         ids=[f"{f}:{n}" for f, n, _ in SAMPLE_INPUTS])
def test_repository_samples_read_the_same(fmt: str, name: str, files: dict[str, bytes]) -> None:
    assert same(fmt, files, name=name) == "ok"
    same(fmt, files, name=name, options=ReadOptions(labels=["PER", "Doubt"]))


BROKEN = {"discontinuous.ann": "brat", "malformed.jsonl": "doccano",
          "boolean_offset.jsonl": "doccano", "cancelled_and_choices.json": "label-studio",
          "two_annotations_same_person.json": "label-studio"}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files_give_the_same_result(name: str) -> None:
    same(BROKEN[name], {name: (HERE / "broken" / name).read_bytes()}, name=name)


def test_an_export_zip_reads_the_same() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted((SAMPLES / "inception_export").rglob("*.tsv")):
            z.writestr(p.relative_to(SAMPLES / "inception_export").as_posix(), p.read_bytes())
    files = unpack_zips({"export.zip": buf.getvalue()}, "export.zip")
    assert same("webanno-tsv", files, name="export.zip") == "ok"


def test_a_later_xmi_of_the_same_document_and_annotator_replaces_the_earlier() -> None:
    one = _xmi("ab cd", [Span(0, 2, "X")])
    two = _xmi("ab cd", [Span(3, 5, "Y")])
    files = {"annotation/d/alice.xmi": one, "annotation/d/alice/alice.xmi": two,
             "TypeSystem.xml": TS_XML}
    assert same("uima-xmi", files, name="proj") == "ok"
    assert same("uima-xmi", files, name="proj", options=ReadOptions(layer="NamedEntity")
                ) == "error"


@pytest.mark.parametrize("body", [
    '{"id": 1, "text": "ab", "label": [[0, 1, "X"]]}\n[1]\n{"id": 2, "label": [}\n',
    '{"id": 1, "text": "ab", "label": [[0, 9, "X"]]}\n{"id": 2, "label": [}\n',
    '{"id": 1, "text": "ab", "label": [[0, 9, "X"]]}\n{"id": 2, "label": []}\n',
    '{"id": 1, "text": "ab", "label": [[0, 1, "X"]]}\n\n{"id": 1, "label": []}\n',
])
def test_jsonl_errors_keep_the_order_of_decoding_the_whole_file(body: str) -> None:
    # A malformed line after an invalid record is what the whole-file decoding reported.
    same("doccano", {"d.jsonl": body.encode()}, name="d.jsonl")
    spacy_body = body.replace('"label": [[', '"text": "ab", "ents": [[').replace(
        '"label"', '"ents"')
    same("spacy", {"d.jsonl": spacy_body.encode()}, name="d.jsonl")


# ---- the helpers the readers share ------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text("ab \n\té\u00a0\u2028", max_size=30)), min_size=1,
                max_size=8), st.data(), st.sampled_from([1, 7, 1 << 23]))
def test_whitespace_edges_in_chunks_equal_str_isspace(texts: list[str | None],
                                                      data: st.DataObject, chunk: int) -> None:
    import numpy as np

    from core.formats._columns import whitespace_edges

    rows = data.draw(st.lists(st.tuples(st.integers(0, len(texts) - 1), st.integers(0, 35),
                                        st.integers(1, 5)), max_size=20))
    doc = np.array([d for d, _, _ in rows], dtype=np.int64)
    start = np.array([s for _, s, _ in rows], dtype=np.int64)
    end = start + np.array([n for _, _, n in rows], dtype=np.int64)
    begins, ends = whitespace_edges(texts, doc, start, end, chunk=chunk)
    for k, (d, s, _) in enumerate(rows):
        fragment = "" if texts[d] is None else (texts[d] or "")[s:int(end[k])]
        assert begins[k] == (texts[d] is not None and fragment[:1].isspace())
        assert ends[k] == (texts[d] is not None and fragment[-1:].isspace())


@given(st.text("ab\n\r", max_size=40), st.integers(1, 8))
def test_iter_lines_equals_split(text: str, chunk: int) -> None:
    from core.formats._columns import iter_lines

    assert list(iter_lines(text, chunk=chunk)) == text.split("\n")


@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 9), st.integers(1, 4),
                          st.sampled_from(["X", "Y", "Z"])), max_size=20))
def test_span_columns_equal_sorted_spans(rows: list[tuple[str, int, int, str]]) -> None:
    from core.formats._columns import SpanColumns
    from core.formats._common import sorted_spans

    columns = SpanColumns()
    expected: dict[str, list[Span]] = {}
    for doc, start, length, label in rows:
        columns.add(columns.document(doc), start, start + length, label)
        expected.setdefault(doc, []).append(Span(start, start + length, label))
    assert list(columns.spans().items()) == list(sorted_spans(expected).items())


@pytest.mark.parametrize("body", [
    '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": 5}]}, {"id": 2,]',
    '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": 5}]}] x',
    '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": 5}]}]',
    ' \n[ ]\n', '[1, 2', '[', '[{"id": 1}, {"id": 1e999999}]', '{"id": 1, "annotations": []}',
    '[{"id": 1, "data": {"text": "\\ud800"}, "annotations": []}]',
    '[{"id": 99999999999999999999999, "annotations": []}]', '[[[[[[[[[[1]]]]]]]]]]',
    '[{"id": 1, "data": {"text": "ab"}, "annotations": [{"result": [{"type": "labels", '
    '"value": {"start": 0, "end": 1, "labels": ["X"]}}]}]}, [] ]',
])
def test_label_studio_tasks_read_one_at_a_time_keep_the_whole_file_errors(body: str) -> None:
    same("label-studio", {"t.json": body.encode()}, name="t.json")


def test_parquet_reads_switch_to_the_system_allocator_and_back_even_when_nested() -> None:
    import pyarrow as pa

    before = pa.default_memory_pool().backend_name
    with parquet._system_allocator():
        with parquet._system_allocator():  # a second read in another thread
            assert pa.default_memory_pool().backend_name == "system"
        assert pa.default_memory_pool().backend_name == "system"
    assert pa.default_memory_pool().backend_name == before
