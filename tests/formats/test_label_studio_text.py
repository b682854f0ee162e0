"""Label Studio tasks whose labeling config reads a data key other than ``text`` keep their
text (issue "Real users' files and machines", item 3: no reader drops a text silently)."""

from __future__ import annotations

import json
from pathlib import Path

from core.formats import load_files, load_path

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "label-studio"


def test_the_data_key_the_spans_match_is_the_text_with_one_warning() -> None:
    path = DATA / "text_under_summary.json"
    loaded = load_path(path)
    assert loaded.format == "label-studio"
    tasks = json.loads(path.read_text("utf-8"))
    assert loaded.texts == {str(t["id"]): t["data"]["summary"] for t in tasks}
    (aset,) = loaded.sets
    text = loaded.texts["2"]
    assert text is not None
    assert [text[s.start:s.end] for s in aset.get("2")] == ["Quiet Harbour", "Edith Marlow"]
    (warning,) = loaded.diagnostics  # the task without spans takes the same key silently
    assert (warning.path, warning.field) == ("[0].data.summary", "summary")
    assert warning.message.startswith("data has no 'text'; 'summary' is read as the text")


def test_strings_the_spans_cannot_tell_apart_give_no_text_and_say_so() -> None:
    task = {"id": 1, "data": {"a": "same words", "b": "same words"},
            "annotations": [{"completed_by": 1, "result": [
                {"type": "labels", "value": {"start": 0, "end": 4, "text": "same",
                                             "labels": ["X"]}}]}]}
    loaded = load_files({"t.json": json.dumps([task]).encode()}, name="t.json")
    assert loaded.texts == {"1": None}
    (warning,) = loaded.diagnostics
    assert warning.message == ("data has no 'text' and several strings ('a', 'b'); the spans' "
                               "text fragments do not tell them apart, so the task has no text "
                               "(said once per file)")
