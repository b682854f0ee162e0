"""spaCy-style training data kept as one JSON list (``[{"text", "spans": [{start, end,
label}]}]``, what spaCy users load before building a DocBin) reads as the JSON Lines of the
same records (``core/formats/spacy_docs.py``); a span past its text names the record, its line
and the field. Our own texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import detect, load_files
from core.model.errors import FormatError

RECORDS = [{"text": "A red fox and a lazy dog.",
            "spans": [{"start": 2, "end": 9, "label": "ANIMAL"},
                      {"start": 16, "end": 24, "label": "ANIMAL"}]},
           {"text": "Geese fly south.", "spans": [{"start": 0, "end": 5, "label": "ANIMAL"}]}]


def _list(records: list[dict[str, object]]) -> bytes:
    return json.dumps(records, indent=2).encode()


def test_a_json_list_is_detected_and_reads_as_its_json_lines() -> None:
    files = {"dev_data.json": _list(RECORDS)}
    assert detect(files) == "spacy"
    loaded = load_files(files)
    lines = load_files({"dev.jsonl": "\n".join(json.dumps(r) for r in RECORDS).encode()})
    assert loaded.texts == {"1": RECORDS[0]["text"], "2": RECORDS[1]["text"]}
    (spans,) = [s.spans for s in loaded.sets]
    assert [(s.start, s.end, s.label) for s in spans["1"]] == [(2, 9, "ANIMAL"),
                                                               (16, 24, "ANIMAL")]
    assert list(spans.values()) == list(lines.sets[0].spans.values())
    assert [d.message for d in loaded.diagnostics] == [
        "2 records have no 'id'; their positions in the list (1, 2, ...) are the document ids "
        "(first: line 2)"]


def test_a_span_past_the_text_names_the_record_and_field() -> None:
    records = json.loads(json.dumps(RECORDS))
    records[1]["spans"][0]["end"] = 19
    with pytest.raises(FormatError) as exc:
        load_files({"dev_data.json": _list(records)}, fmt="spacy")
    assert exc.value.diagnostic.path == "[1].spans[0].end" and exc.value.field == "end"
    assert str(exc.value).startswith(
        "dev_data.json:17: [1].spans[0].end: field 'end': expected an offset within the text "
        "(length 16), got 19")


def test_a_list_of_other_values_is_refused_plainly(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data.json").write_text('[\n  {"text": "a", "spans": []},\n  3\n]\n')
    assert main(["validate", str(tmp_path / "data.json"), "--format", "spacy"]) != 0
    assert "data.json:3: expected a list of JSON objects {\"text\": ..., \"spans\": [...]}" in \
        capsys.readouterr().err
