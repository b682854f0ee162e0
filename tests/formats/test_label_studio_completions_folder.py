"""A Label Studio 0.x project's ``completions/`` folder is read (wild12 tour).

Label Studio before 1.0 kept a project on disk: ``config.xml``, ``tasks.json`` and a
``completions/`` folder holding one JSON file per annotated task, ``{"completions": [...],
"data": {...}, "id": N}`` (jbogensperger/drug_review@21aba82: 1,309 such files;
HumanSignal/label-studio's ``examples/named_entity/completions/``). The folder was refused
("expected one JSON file, got a folder of 1309 files"); each task file was read alone. The
folder is now read as one export: a document per task file, the spans of each file's
completions, one warning about the text key (not one per file), and an error in any file
named by that file. The files below are made in drug_review's shape, with our own texts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, detect, load_files, load_path
from core.model.errors import FormatError


def _task(task_id: int, text: str, spans: list[tuple[int, int, str]]) -> bytes:
    results = [{"from_name": "label", "id": f"r{task_id}-{k}", "to_name": "text",
                "type": "labels", "value": {"start": s, "end": e, "labels": [lab],
                                            "text": text[s:e]}}
               for k, (s, e, lab) in enumerate(spans)]
    task = {"completions": [{"created_at": 1612790712, "id": 1000 + task_id,
                             "lead_time": 10.0, "result": results}],
            "data": {"clean_description": text, "title": f"Listing {task_id}"},
            "id": task_id}
    return json.dumps(task, indent=1).encode()


TEXTS = {0: "Get smart with NZT. Each capsule holds THC.",
         1: "Modafinil lasts about 12 hours.",
         10: "No drug is named here."}
FOLDER = {"completions/0.json": _task(0, TEXTS[0], [(15, 18, "Drug"), (39, 42, "Drug")]),
          "completions/1.json": _task(1, TEXTS[1], [(0, 9, "Drug")]),
          "completions/10.json": _task(10, TEXTS[10], [])}


def test_a_completions_folder_reads_a_document_per_task_file() -> None:
    assert detect(FOLDER) == "label-studio"
    loaded = load_files(FOLDER, name="completions", options=ReadOptions())
    (aset,) = loaded.sets
    assert aset.role == "annotator"
    assert {d: loaded.texts[d] for d in loaded.texts} == {str(k): t for k, t in TEXTS.items()}
    found = {d: [(loaded.texts[d] or "")[s.start:s.end] for s in spans]
             for d, spans in aset.spans.items()}
    assert found == {"0": ["NZT", "THC"], "1": ["Modafinil"], "10": []}
    text_field = [d for d in loaded.diagnostics if d.kind == "text-field"]
    assert len(text_field) == 1
    assert "'clean_description' is read as the text" in text_field[0].message
    assert "said once for all 3 task files" in text_field[0].message


def test_validate_reads_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, data in FOLDER.items():
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_bytes(data)
    assert main(["validate", str(tmp_path / "completions")]) == 0
    out = capsys.readouterr().out
    assert "documents       3" in out and "spans           3" in out
    loaded = load_path(tmp_path / "completions")
    assert loaded.sets[0].span_count() == 3


def test_an_error_in_one_task_file_names_that_file() -> None:
    bad = json.loads(FOLDER["completions/1.json"])
    bad["completions"][0]["result"][0]["value"]["end"] = "nine"
    folder = FOLDER | {"completions/1.json": json.dumps(bad).encode()}
    with pytest.raises(FormatError) as exc:
        load_files(folder, name="completions", options=ReadOptions())
    assert str(exc.value).startswith("completions/completions/1.json")


def test_two_task_files_with_one_task_id_are_refused_naming_both() -> None:
    folder = FOLDER | {"completions/1 copy.json": FOLDER["completions/1.json"]}
    with pytest.raises(FormatError) as exc:
        load_files(folder, name="completions", options=ReadOptions())
    message = str(exc.value)
    assert "task id '1'" in message
    assert "completions/1 copy.json" in message and "completions/1.json" in message


def test_a_folder_with_a_file_that_is_no_task_is_still_refused_saying_what_to_read() -> None:
    folder = FOLDER | {"config.json": b'{"label_config": "<View/>"}'}
    with pytest.raises(FormatError) as exc:
        load_files(folder, name="project", fmt="label-studio", options=ReadOptions())
    assert "completions/ folder" in str(exc.value)


def test_a_task_whose_fragments_fit_two_strings_takes_the_key_of_the_tasks_before() -> None:
    """drug_review's 25.json: 'Codeine Phosphate' is in its clean_description and in its name
    ('Crescent Codeine Phosphate 60mg'); the 1,308 other tasks are read by clean_description."""
    tied = json.loads(_task(25, "Crescent Codeine Phosphate 60mg tablets.", [(9, 26, "Drug")]))
    tied["data"]["name"] = "Crescent Codeine Phosphate 60mg"
    folder = FOLDER | {"completions/25.json": json.dumps(tied).encode()}
    loaded = load_files(folder, name="completions", options=ReadOptions())
    assert loaded.texts["25"] == "Crescent Codeine Phosphate 60mg tablets."
    assert not [d for d in loaded.diagnostics if d.kind == "missing-texts"]


def test_the_folder_says_its_other_once_only_warnings_once_for_all_its_files() -> None:
    """A media path among the data's strings, and strings the spans cannot tell apart, are
    said once for the folder, as the text key is (the record of keys said is the folder's):
    their messages said "(said once per file)" of a warning that the folder's other files,
    with the same data, did not repeat (review19)."""
    def task(task_id: int) -> bytes:
        return json.dumps({
            "completions": [{"id": task_id, "result": [{
                "from_name": "label", "to_name": "text", "type": "labels",
                "value": {"start": 0, "end": 4, "labels": ["Drug"], "text": "Some"}}]}],
            "data": {"a": "Some text", "b": "Some other", "image": "/data/upload/x.png"},
            "id": task_id}).encode()

    loaded = load_files({f"completions/{k}.json": task(k) for k in range(1, 5)},
                        name="completions", options=ReadOptions())
    said = {d.kind: d.message for d in loaded.diagnostics
            if d.kind in ("media-path", "missing-texts")}
    assert set(said) == {"media-path", "missing-texts"}
    assert len([d for d in loaded.diagnostics if d.kind in said]) == 2
    for message in said.values():
        assert "said once for all 4 task files" in message and "per file" not in message


def test_a_damaged_task_file_among_the_others_is_named_with_its_line() -> None:
    """One task file of the folder cut short (a copy interrupted) made the whole folder "no
    completions/ folder": "expected one JSON file, got a folder of 3 files; ... Label Studio 0.x
    keeps each task in a file of its project's completions/ folder: read that folder", to a
    user who had read that folder, and no file named (review19). The damaged file is named now,
    with its line, as the reader of one file names it; so is a file of the folder that holds
    other JSON than a task."""
    cut = FOLDER | {"completions/1.json": FOLDER["completions/1.json"][:-20]}
    with pytest.raises(FormatError) as exc:
        load_files(cut, name="completions", options=ReadOptions())
    said = str(exc.value)
    assert re.match(r"completions/completions/1\.json:\d+: malformed JSON", said), said
    assert "got a folder" not in said
    other = FOLDER | {"completions/2.json": b'{"label_config": "<View/>"}'}
    with pytest.raises(FormatError) as exc:
        load_files(other, name="completions", options=ReadOptions())
    assert str(exc.value) == (
        "completions/completions/2.json: expected a task object of Label Studio 0.x, as the "
        "folder's other 3 .json files are ({\"completions\": [...], \"data\": {...}, \"id\": "
        "N}); got a JSON object without them")
