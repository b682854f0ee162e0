"""Label Studio 0.x exports: tasks whose annotations are under ``completions`` (Label Studio's
format before 1.0, "Output" in its 0.x guide; John Snow Labs' Annotation Lab, a fork, exports the
same with ``created_username``). They were not detected ("could not detect the format") and, with
``--format label-studio``, refused as "no annotations or predictions in any task". The tasks
below have the shape of those exports; the words are ours."""

from __future__ import annotations

import json

from core.formats import ReadOptions, detect, load_files

TEXT = "Aspirin eases pain in Oslo."


def result(start: int, end: int, label: str) -> dict[str, object]:
    return {"id": f"r{start}", "from_name": "label", "to_name": "text", "type": "labels",
            "value": {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]}}


def test_a_label_studio_0x_export_is_detected_and_read() -> None:
    tasks = [{"id": 1, "data": {"text": TEXT},
              "completions": [{"id": 1001, "lead_time": 12.5,
                               "result": [result(0, 7, "Drug"), result(22, 26, "Place")]}]}]
    files = {"export.json": json.dumps(tasks).encode()}
    assert detect(files) == "label-studio"
    loaded = load_files(files, options=ReadOptions())
    assert [(s.name, s.role) for s in loaded.sets] == [("annotator", "annotator")]
    assert sorted((s.start, s.end, s.label) for s in loaded.sets[0].spans["1"]) == [
        (0, 7, "Drug"), (22, 26, "Place")]
    assert loaded.texts == {"1": TEXT}


def test_annotation_lab_completions_name_their_annotators() -> None:
    tasks = [{"id": 7, "data": {"text": TEXT},
              "completions": [
                  {"created_username": "eric", "lead_time": 82, "result": [result(0, 7, "Drug")]},
                  {"created_username": "ana", "result": [result(14, 18, "Symptom")]}],
              "predictions": [{"created_username": "SparkNLP Pre-annotation",
                               "result": [result(0, 7, "Drug")]}]}]
    loaded = load_files({"export.json": json.dumps(tasks).encode()}, options=ReadOptions())
    names = {s.name: s.role for s in loaded.sets}
    assert names == {"annotator eric": "annotator", "annotator ana": "annotator",
                     "model": "system"}
    ana = next(s for s in loaded.sets if s.name == "annotator ana")
    assert [(s.start, s.end, s.label) for s in ana.spans["7"]] == [(14, 18, "Symptom")]
