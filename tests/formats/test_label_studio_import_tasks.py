"""A file of Label Studio tasks to import, with nothing annotated, says so (wild13 tour).

gm1642/testing_chatbot@c3bcdb2 ``label_studio.json`` is a list of ``{"data": {"my_text": ...,
"my_id": ...}}`` tasks: what one imports into Label Studio, before anyone annotates. Detection
said "could not detect the format; pass it explicitly (one of: ...)", and ``--format
label-studio`` said "field 'id': missing (a task needs an 'id' or data.doc_id)", which sends
the user to add ids to a file that holds no annotation. Both now say it is an import file.
The tasks here are made in that shape, with our texts.
"""

from __future__ import annotations

import json

import pytest

from core.formats import ReadOptions, detect, load_files
from core.model.errors import FormatError

TASKS = [{"data": {"my_text": text, "my_id": f"{i:032x}"}}
         for i, text in enumerate(["15", "(1x1) unit squares", "+5", "=20"] * 30)]


def test_detection_names_tasks_to_import() -> None:
    data = json.dumps(TASKS, indent=4).encode()
    assert len(data) > 4096
    with pytest.raises(FormatError) as exc:
        detect({"label_studio.json": data})
    message = str(exc.value)
    assert "pass it explicitly" not in message
    assert ("could not detect the format: Label Studio tasks to import (each only "
            "{\"data\": {...}}, no annotations or predictions)") in message


def test_the_label_studio_reader_names_tasks_to_import() -> None:
    data = json.dumps(TASKS[:4], indent=4).encode()
    with pytest.raises(FormatError) as exc:
        load_files({"label_studio.json": data}, fmt="label-studio", options=ReadOptions())
    message = str(exc.value)
    assert "field 'id': missing (a task needs an 'id' or data.doc_id)" in message
    assert "Label Studio tasks to import" in message
