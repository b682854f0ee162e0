"""SemEval-2021 Task 6 subtasks 1 and 3 list technique names per meme (``"labels": ["Smears"]``),
not spans: such a file is named for what it is instead of a bare type error."""

from __future__ import annotations

import json

import pytest

from core.formats import load_files
from core.model.errors import FormatError


def test_a_subtask_1_file_is_named_with_its_first_technique() -> None:
    data = json.dumps([{"id": "125", "text": "WHEN YOU SEE IT", "labels": ["Smears", "Doubt"]}],
                      indent=4).encode()
    with pytest.raises(FormatError) as exc:
        load_files({"training_set_task1.txt": data}, fmt="semeval2021")
    assert str(exc.value) == (
        "training_set_task1.txt:6: [0].labels[0]: expected a label object with 'technique', "
        "'start' and 'end', got the technique name 'Smears': this is a file of SemEval-2021 "
        "Task 6 subtask 1 or 3 (techniques per meme, no spans); SpanScope scores the spans of "
        "subtask 2")
