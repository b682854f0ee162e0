"""spaCy-style JSON Lines whose spans are under ``entities`` (``{"id", "text", "entities":
[{"start", "end", "label"}]}``), the layout of many NER training sets kept as JSONL (e.g. the
PII data of AshokNayak2004/pii-ner-stt, ``tests/data/wild/manifest.jsonl``), read by the
``spacy`` format and detected as it; a record whose span objects sit under a key the reader does
not read gets a warning, never a silent 0 spans. Our own texts, in that layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.formats import detect, load_files
from core.model.errors import FormatError

RECORDS: list[dict[str, Any]] = [
    {"id": "dev_00000", "text": "call rohan iyer in pune on monday",
     "entities": [{"start": 5, "end": 15, "label": "PERSON_NAME"},
                  {"start": 19, "end": 23, "label": "CITY"}]},
    {"id": "dev_00001", "text": "no names here", "entities": []},
    {"id": "dev_00002", "text": "mail asha today",
     "entities": [{"start": 5, "end": 9, "label": "PERSON_NAME"}]},
]


def _jsonl(records: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def _triples(loaded: Any) -> dict[str, list[tuple[int, int, str]]]:
    (aset,) = loaded.sets
    return {d: [(s.start, s.end, s.label) for s in spans] for d, spans in aset.spans.items()}


def test_entities_objects_are_read_as_the_spans() -> None:
    loaded = load_files({"dev.jsonl": _jsonl(RECORDS)}, fmt="spacy")
    assert _triples(loaded) == {
        "dev_00000": [(5, 15, "PERSON_NAME"), (19, 23, "CITY")],
        "dev_00001": [],
        "dev_00002": [(5, 9, "PERSON_NAME")]}
    assert loaded.diagnostics == []


def test_entities_jsonl_is_detected_as_spacy() -> None:
    assert detect({"dev.jsonl": _jsonl(RECORDS)}) == "spacy"
    # the first record without spans does not hide the layout
    assert detect({"dev.jsonl": _jsonl(RECORDS[1:])}) == "spacy"


def test_a_json_list_of_entities_records_is_detected_as_spacy() -> None:
    files = {"train.json": json.dumps(RECORDS, indent=2).encode()}
    assert detect(files) == "spacy"
    assert _triples(load_files(files))["dev_00002"] == [(5, 9, "PERSON_NAME")]


def test_doccano_entities_stay_doccano() -> None:
    doccano = [{"id": 1, "text": "call rohan", "relations": [],
                "entities": [{"id": 7, "label": "PER", "start_offset": 5, "end_offset": 10}]}]
    assert detect({"all.jsonl": _jsonl(doccano)}) == "doccano"


def test_validate_counts_the_entities(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pii_dev.jsonl"
    path.write_bytes(_jsonl(RECORDS))
    assert main(["validate", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["format"], report["documents"], report["spans"]) == ("spacy", 3, 3)


def test_span_objects_under_an_unread_key_are_warned_of() -> None:
    records = [{"id": r["id"], "text": r["text"], "pii_spans": r["entities"]} for r in RECORDS]
    loaded = load_files({"dev.jsonl": _jsonl(records)}, fmt="spacy")
    assert sum(len(v) for v in _triples(loaded).values()) == 0
    (warning,) = loaded.diagnostics
    assert warning.line == 1 and warning.field == "pii_spans"
    assert str(warning) == (
        "dev.jsonl:1: field 'pii_spans': 2 records hold a list of span objects "
        "({start, end, label}) under 'pii_spans', which the spacy reader does not read (it "
        "reads 'ents', 'entities' or 'spans'): their 3 spans are not read (first: line 1)")


def test_an_unchosen_span_group_is_warned_of_with_the_option_that_reads_it() -> None:
    records = [{"id": "a", "text": "Rome and Oslo", "ents": [[0, 4, "LOC"]],
                "spans": [{"start": 9, "end": 13, "label": "CITY"}]}]
    loaded = load_files({"dev.jsonl": _jsonl(records)}, fmt="spacy")
    assert _triples(loaded) == {"a": [(0, 4, "LOC")]}
    (warning,) = loaded.diagnostics
    assert "under 'spans'" in str(warning) and "--span-group spans" in str(warning)
    chosen = load_files({"dev.jsonl": _jsonl(records)}, fmt="spacy",
                        options=_options(span_group="spans"))
    assert _triples(chosen) == {"a": [(9, 13, "CITY")]}
    assert "under 'ents'" in str(chosen.diagnostics[0])


def _options(**kw: Any) -> Any:
    from core.formats import ReadOptions

    return ReadOptions(**kw)


def test_doccano_warns_of_span_objects_under_a_key_it_does_not_read() -> None:
    records = [{"id": 1, "text": "call rohan", "label": [[5, 10, "PER"]],
                "pii": [{"start": 0, "end": 4, "label": "ACT"}]}]
    loaded = load_files({"all.jsonl": _jsonl(records)}, fmt="doccano")
    assert _triples(loaded) == {"1": [(5, 10, "PER")]}
    (warning,) = loaded.diagnostics
    assert str(warning) == (
        "all.jsonl:1: field 'pii': 1 spans ({start, end, label} objects) under 'pii' skipped "
        "(the first at line 1): the doccano reader reads 'label', 'labels', 'entities' and "
        "'annotations' only")


def test_a_head_of_records_without_entities_yet_is_detected_as_spacy() -> None:
    # harryziyuhe/constitution_ner's "101 - 300 annotations.jsonl" (tests/data/wild): 3,000
    # {"id", "text", "entities"} records, of which the first 101 have no entity yet; the head
    # detection reads showed only "entities": [] and the file was refused as undetectable.
    records = [{"id": f"row-{k}", "text": f"Section {k}.", "entities": []} for k in range(30)]
    records.append(RECORDS[0])
    files = {"101 - 300 annotations.jsonl": _jsonl(records)}
    assert detect(files) == "spacy"
    assert sum(len(v) for v in _triples(load_files(files)).values()) == 2
    # doccano's own layouts with empty lists keep their format
    doccano = [{"id": 1, "text": "a", "entities": [], "relations": []}] * 3
    assert detect({"all.jsonl": _jsonl(doccano)}) == "doccano"
    assert detect({"all.jsonl": _jsonl([{"id": 1, "text": "a", "label": []}] * 3)}) == "doccano"
    # nor does a Label Studio JSON-MIN record whose Labels tag is named "entities"
    minimal = [{"id": 1, "text": "a", "entities": [], "annotator": 1, "annotation_id": 2,
                "lead_time": 3.0}] * 3
    with pytest.raises(FormatError):
        detect({"min.jsonl": _jsonl(minimal)})


def test_doccano_offsets_past_the_head_say_which_format_to_read_them_with(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review13: 25 records of "entities": [] fill the head (detected spaCy-style), then
    # doccano's offset objects; the refusal said only "field 'start': missing".
    records: list[dict[str, Any]] = [{"id": i, "text": "hello world", "entities": []}
                                     for i in range(25)]
    records.append({"id": 25, "text": "hello world", "entities": [
        {"id": 1, "label": "X", "start_offset": 0, "end_offset": 5}]})
    path = tmp_path / "dc.jsonl"
    path.write_bytes(_jsonl(records))
    assert detect({"dc.jsonl": path.read_bytes()}) == "spacy"
    with pytest.raises(FormatError) as err:
        load_files({"dc.jsonl": path.read_bytes()})
    assert str(err.value) == (
        "dc.jsonl:26: entities[0]: field 'start': doccano's layout ('start_offset', "
        "'end_offset'), not spaCy's ('start', 'end'): read the file with --format doccano")
    assert main(["validate", "--format", "doccano", str(path)]) == 0  # as it says
    assert "spans           1" in capsys.readouterr().out
