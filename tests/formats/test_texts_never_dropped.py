"""No reader drops a document's text without a word: a MAFALDA line without ``text`` is a
warning that counts such lines, and a model output whose ``text`` is not a string is refused."""

from __future__ import annotations

import json

import pytest

from core.formats import ReadOptions, load_files
from core.model.errors import FormatError


def test_mafalda_lines_without_text_are_counted_in_one_warning() -> None:
    lines = [{"text": "A calm day.", "labels": []},
             {"sentence": "Everyone says so.", "labels": [[0, 8, "ad populum"]]},
             {"labels": []}]
    data = "".join(json.dumps(x) + "\n" for x in lines).encode()
    loaded = load_files({"gold.jsonl": data}, fmt="mafalda")
    assert loaded.texts == {"0": "A calm day.", "1": None, "2": None}
    (warning,) = [d for d in loaded.diagnostics if d.field == "text"]
    assert (warning.line, warning.message) == (
        2, "2 lines have no 'text' (first: line 2): those documents have no text, and their "
           "offsets are not checked against one")


def test_a_model_output_whose_text_is_not_a_string_is_refused() -> None:
    gold = json.dumps({"text": "A calm day.", "labels": []}) + "\n"
    pred = json.dumps({"text": ["A calm day."], "prediction": {"A calm day.": "nothing"}}) + "\n"
    gold_loaded = load_files({"gold.jsonl": gold.encode()}, fmt="mafalda")
    with pytest.raises(FormatError) as exc:
        load_files({"pred.jsonl": pred.encode()}, fmt="mafalda-llm",
                   options=ReadOptions(role="system", gold_doc_ids=gold_loaded.set.doc_ids))
    assert str(exc.value) == "pred.jsonl:1: field 'text': expected the text as a string, got list"
