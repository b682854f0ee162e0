"""A Label Studio task file of one line is detected (wild11 tour).

A single exported task written without indentation (``json.dumps(task)``, as a script or
Label Studio's API writes one task, or the one-task file a user cuts from an export) is a
file of one line. Detection took that line for a JSON Lines record, and a JSON Lines file is
no Label Studio export, so the file was refused with "could not detect the format"; the same
task indented, or inside a list on one line, was read. One record on the only line is a task
file; a JSON Lines file of several tasks stays undetected (Label Studio exports no JSON Lines).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, detect, load_files
from core.model.errors import FormatError

TEXT = "The council opened a register for Leonard Segers ."


def _task(key: str = "annotations") -> dict[str, object]:
    return {"id": 7, "data": {"text": TEXT}, key: [{"id": 1, "completed_by": 3, "result": [
        {"id": "r1", "from_name": "label", "to_name": "text", "type": "labels",
         "value": {"start": 4, "end": 11, "text": "council", "labels": ["Org"]}}]}]}


@pytest.mark.parametrize("key", ["annotations", "completions", "predictions"])
@pytest.mark.parametrize("end", ["", "\n", "\r\n"], ids=["no-newline", "lf", "crlf"])
def test_a_task_object_on_one_line_is_detected_and_read(key: str, end: str) -> None:
    data = (json.dumps(_task(key)) + end).encode()
    assert detect({"task.json": data}) == "label-studio"
    loaded = load_files({"task.json": data}, options=ReadOptions())
    assert [(s.start, s.end, s.label) for s in loaded.sets[0].spans["7"]] == [(4, 11, "Org")]
    assert loaded.texts == {"7": TEXT}


def test_a_task_list_on_one_line_is_detected_and_read() -> None:
    data = json.dumps([_task(), {**_task(), "id": 8}]).encode()
    assert detect({"tasks.json": data}) == "label-studio"
    loaded = load_files({"tasks.json": data}, options=ReadOptions())
    assert sorted(loaded.sets[0].spans) == ["7", "8"]


def test_a_one_line_task_file_on_the_command_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "task.json"
    path.write_text(json.dumps(_task()), encoding="utf-8")
    assert main(["validate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["format"], out["spans"]) == ("label-studio", 1)


def test_json_lines_of_several_tasks_are_still_not_taken_for_an_export() -> None:
    data = (json.dumps(_task()) + "\n" + json.dumps({**_task(), "id": 8}) + "\n").encode()
    with pytest.raises(FormatError) as exc:
        detect({"tasks.jsonl": data})
    assert "could not detect the format" in str(exc.value)


def test_one_line_of_another_json_object_is_not_a_task() -> None:
    data = json.dumps({"id": 7, "data": {"text": TEXT}, "label": [[4, 11, "Org"]]}).encode()
    assert detect({"doc.json": data}) != "label-studio"


def test_json_lines_whose_first_task_fills_the_head_say_what_they_are() -> None:
    """A first task longer than the head detection reads is the only record it sees: the
    file is taken for a one-line task file, and the second line is named as JSON Lines."""
    long_task = {**_task(), "data": {"text": TEXT + " x" * 3000}}
    data = (json.dumps(long_task) + "\n" + json.dumps({**_task(), "id": 8}) + "\n").encode()
    assert detect({"tasks.jsonl": data}) == "label-studio"
    with pytest.raises(FormatError) as exc:
        load_files({"tasks.jsonl": data}, options=ReadOptions())
    assert str(exc.value).startswith("tasks.jsonl:2: a second JSON value after the first task: "
                                     "this is JSON Lines")
