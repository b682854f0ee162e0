"""Two refusals from the wild10 tour of real exports that said too little (the first file is
read since the wild11 tour, ``tests/formats/test_uima_json.py``).

* A UIMA CAS JSON file (WebAnno 3's and DKPro Core's "UIMA CAS JSON" export, keys ``_context``,
  ``_views``, ``_referenced_fss``, as in desothier1/webanno_annotation_file_processing_2022@708dd73
  ``process_json_files/extracted_annotations/*.json``; or the UIMA JSON CAS 0.4 layout of
  INCEpTION and dkpro-cassis, keys ``%TYPES``, ``%FEATURE_STRUCTURES``, ``%VIEWS``) was refused
  with "could not detect the format; pass it explicitly (one of: ...)", which sends the user
  through fifteen formats none of which reads it. It is now detected and read as ``uima-json``.
* A folder of Label Studio task files (Label Studio 0.x keeps one per task in its project's
  ``completions/`` folder, as HumanSignal/label-studio@1d7b0b1
  ``examples/named_entity/completions/``) was refused with "expected one JSON file, got a folder
  of 2 files", without saying what to give instead; since the wild12 tour such a folder is
  read, and one holding other JSON is refused saying what to read.

The files below have the shape of those files; the words are ours.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, detect, load_files
from core.model.errors import FormatError

TEXT = "The council opened a register for Leonard ."

LEGACY = {
    "_context": {"_types": {
        "Sentence": {"_feature_types": {"sofa": "_ref"}},
        "Claim": {"_feature_types": {"sofa": "_ref"}, "_id": "webanno.custom.Claim"}}},
    "_views": {"_InitialView": {
        "Sentence": [{"sofa": 12, "begin": 0, "end": len(TEXT)}],
        "Claim": [{"sofa": 12, "begin": 4, "end": 11, "value": "Actor"}]}},
    "_referenced_fss": {"12": {"_type": "Sofa", "sofaNum": 1, "sofaID": "_InitialView",
                               "mimeType": "text", "sofaString": TEXT}},
}
"""The legacy layout, pretty-printed with ``" : "`` as DKPro's JsonCasSerializer writes it."""

CAS_04 = {
    "%TYPES": {"webanno.custom.Claim": {"%NAME": "webanno.custom.Claim",
                                        "%SUPER_TYPE": "uima.tcas.Annotation"}},
    "%FEATURE_STRUCTURES": [
        {"%ID": 1, "%TYPE": "uima.cas.Sofa", "sofaNum": 1, "sofaID": "_InitialView",
         "sofaString": TEXT},
        {"%ID": 2, "%TYPE": "webanno.custom.Claim", "@sofa": 1, "begin": 4, "end": 11}],
    "%VIEWS": {"_InitialView": {"%SOFA": 1, "%MEMBERS": [2]}},
}


def _legacy_bytes() -> bytes:
    return json.dumps(LEGACY, indent=2, separators=(", ", " : ")).encode()


@pytest.mark.parametrize("data", [_legacy_bytes(), json.dumps(CAS_04).encode()],
                         ids=["webanno-legacy", "json-cas-0.4"])
def test_a_uima_cas_json_file_is_detected_and_read(data: bytes) -> None:
    """Since the wild11 tour: read (``core/formats/uima_json.py``), no longer refused."""
    assert detect({"1f82c62.json": data}) == "uima-json"
    loaded = load_files({"1f82c62.json": data}, options=ReadOptions())
    assert [(s.start, s.end) for s in loaded.sets[0].spans["1f82c62"]] == [(4, 11)]


def test_a_uima_cas_json_file_on_the_command_line_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "1f82c62.json"
    path.write_bytes(_legacy_bytes())
    assert main(["validate", str(path)]) == 0
    assert "uima-json" in capsys.readouterr().out


def test_a_uima_cas_json_file_read_as_xmi_says_how_to_read_it() -> None:
    with pytest.raises(FormatError) as exc:
        load_files({"1f82c62.json": _legacy_bytes()}, fmt="uima-xmi", options=ReadOptions())
    assert "found no .xmi file; 1f82c62.json is a UIMA CAS JSON file" in str(exc.value)
    assert "--format uima-json" in str(exc.value)


def test_a_json_object_that_only_mentions_the_keys_is_not_called_a_cas() -> None:
    """Only the top-level keys count: a record whose text holds '"_views"' is not a CAS."""
    data = json.dumps({"note": '"_context": {"_views": 1}', "x": 1}).encode()
    with pytest.raises(FormatError) as exc:
        detect({"other.json": data})
    assert "UIMA CAS JSON" not in str(exc.value)


def _task(task_id: int) -> bytes:
    """A task file as Label Studio 0.x writes it: one object, indented by 4."""
    return json.dumps({"id": task_id, "data": {"text": TEXT}, "completions": [{"result": [
        {"id": "r1", "from_name": "ner", "to_name": "text", "type": "labels",
         "value": {"start": 4, "end": 11, "text": "council", "labels": ["Org"]}}]}]},
        indent=4).encode()


def test_a_folder_of_label_studio_task_files_is_read_since_wild12() -> None:
    """It was refused saying what to read instead; a completions/ folder is read now
    (tests/formats/test_label_studio_completions_folder.py)."""
    loaded = load_files({"completions/0.json": _task(0), "completions/1.json": _task(1)},
                        fmt="label-studio", name="completions", options=ReadOptions())
    assert sorted(loaded.texts) == ["0", "1"]
    assert loaded.sets[0].span_count() == 2


def test_a_folder_with_other_json_than_task_files_says_what_to_read_instead() -> None:
    with pytest.raises(FormatError) as exc:
        load_files({"completions/0.json": _task(0), "config.json": b'{"title": "NER"}'},
                   fmt="label-studio", name="project", options=ReadOptions())
    message = str(exc.value)
    assert message.startswith("project: expected one JSON file, got a folder of 2 files")
    assert "Export" in message and "one of them" in message


def test_one_label_studio_0x_task_file_is_read() -> None:
    loaded = load_files({"0.json": _task(0)}, options=ReadOptions())
    assert [(s.start, s.end, s.label) for s in loaded.sets[0].spans["0"]] == [(4, 11, "Org")]
