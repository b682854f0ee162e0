"""Label Studio's JSON-MIN export: one record per annotation, the task's fields at the top level,
one key per control tag. Our own texts, in the layout Label Studio's converter writes
(``convert_to_json_min``): it reads to the same sets as the full JSON export of the same tasks.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.formats import detect, load_files
from core.model.errors import FormatError

TEXT_1 = "Ada Lovelace met Charles Babbage in London."
TEXT_2 = "Nothing to see here."


def _value(text: str, start: int, end: int, label: str) -> dict[str, Any]:
    return {"start": start, "end": end, "text": text[start:end], "labels": [label]}


def _min_records() -> list[dict[str, Any]]:
    meta = {"created_at": "2024-05-01T10:00:00Z", "updated_at": "2024-05-01T10:00:00Z",
            "lead_time": 12.5}
    return [
        {"text": TEXT_1, "id": 7, "label": [_value(TEXT_1, 0, 12, "PER"),
                                            _value(TEXT_1, 17, 32, "PER"),
                                            _value(TEXT_1, 36, 42, "LOC")],
         "topics": [{"choices": ["history", "science"]}], "annotator": 1,
         "annotation_id": 31, **meta},
        {"text": TEXT_1, "id": 7, "label": [_value(TEXT_1, 0, 12, "PER")],
         "annotator": "ben@example.org", "annotation_id": 32, **meta},
        {"text": TEXT_2, "id": 8, "annotator": 1, "annotation_id": 33, **meta},
    ]


def _full_export() -> list[dict[str, Any]]:
    def result(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"type": "labels", "from_name": "label", "to_name": "text", "value": v}
                for v in values]
    records = _min_records()
    return [
        {"id": 7, "data": {"text": TEXT_1}, "annotations": [
            {"completed_by": 1, "result": result(records[0]["label"])},
            {"completed_by": "ben@example.org", "result": result(records[1]["label"])}]},
        {"id": 8, "data": {"text": TEXT_2}, "annotations": [{"completed_by": 1, "result": []}]},
    ]


def _files(records: list[dict[str, Any]]) -> dict[str, bytes]:
    return {"result.json": json.dumps(records, indent=2).encode()}


def test_json_min_is_detected_and_reads_as_the_full_export() -> None:
    files = _files(_min_records())
    assert detect(files) == "label-studio"
    loaded = load_files(files)
    full = load_files({"full.json": json.dumps(_full_export()).encode()})
    assert [(s.name, s.role, dict(s.spans)) for s in loaded.sets] == [
        (s.name, s.role, dict(s.spans)) for s in full.sets]
    assert loaded.texts == full.texts == {"7": TEXT_1, "8": TEXT_2}
    (warning,) = [d for d in loaded.diagnostics if d.field == "topics"]
    assert "in 1 records; skipped" in warning.message


def test_json_min_text_under_another_key_is_found_by_the_fragments() -> None:
    records = _min_records()
    for r in records:
        r["review"] = r.pop("text")
        r["source"] = "web form"
    loaded = load_files(_files(records))
    assert loaded.texts == {"7": TEXT_1, "8": TEXT_2}


def test_a_json_min_value_without_start_names_record_key_and_field() -> None:
    records = _min_records()
    del records[1]["label"][0]["start"]
    records[1]["label"][0]["end"] = 12
    with pytest.raises(FormatError) as exc:
        load_files(_files(records))
    assert "result.json:" in str(exc.value)
    assert "[1].label[0]: field 'start': missing" in str(exc.value)


def test_two_records_of_one_annotator_for_one_task_are_refused() -> None:
    records = _min_records()
    records[1]["annotator"] = 1
    with pytest.raises(FormatError) as exc:
        load_files(_files(records))
    assert "annotator 1 has two records for task '7': [0] and [1]; keep one" in str(exc.value)


def _choices_only() -> list[dict[str, Any]]:
    """A JSON-MIN export of a classification project (aspects of hotel reviews, our own):
    the task's fields, its id, then one single choice per aspect as a string."""
    meta = {"annotator": 1, "created_at": "2024-05-01T10:00:00Z",
            "updated_at": "2024-05-01T10:00:00Z", "lead_time": 3.5}
    return [
        {"hotel": "Harbour View Inn", "review": "Kind staff and a quiet room.", "user": "a***b",
         "id": 1, "Service": "Positive", "Room": "Positive", "annotation_id": 11, **meta},
        {"hotel": "Harbour View Inn", "review": "Noisy at night, breakfast was cold.",
         "user": "c.d", "id": 2, "Room": "Negative", "Food": "Negative",
         "topics": {"choices": ["noise", "food"]}, "annotation_id": 12, **meta},
    ]


def test_an_export_of_choices_only_says_it_holds_no_spans() -> None:
    loaded = load_files(_files(_choices_only()))
    assert [sum(map(len, s.spans.values())) for s in loaded.sets] == [0]
    messages = [d.message for d in loaded.diagnostics]
    assert messages[0] == (
        "data has no 'text' and several strings (that could be the text: 'hotel', 'review', "
        "'user'; besides the results 'Service', 'Room'); no span gives its text, so the task "
        "has no text (said once per file)")
    assert messages[1] == (
        "the export holds no span (labels) results, so 0 spans are read: only choices or other "
        "classifications ('Service', 'Room', 'Food', 'topics'); no text was read (SpanScope "
        "measures spans: export a project with a Labels tag)")


def test_an_export_of_choices_only_names_the_text_it_read() -> None:
    records = _choices_only()
    for r in records:
        r["text"] = r.pop("review")
    loaded = load_files(_files(records))
    assert any(d.message.startswith("the export holds no span (labels) results, so 0 spans are "
                                    "read: only choices or other classifications ('Service', ")
               and "; the texts are the tasks' 'text' (or only string)" in d.message
               for d in loaded.diagnostics)
    assert not any("several strings" in d.message for d in loaded.diagnostics)


def test_an_export_with_spans_gets_no_such_warning() -> None:
    loaded = load_files(_files(_min_records()))
    assert not any("no span (labels)" in d.message for d in loaded.diagnostics)
