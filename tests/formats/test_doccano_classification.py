"""A doccano text classification export is refused saying what it is (wild11 tour).

doccano's text classification projects export each text with the labels of the whole text:
``"label": ["POS"]`` (doccano 1.x), or one string ``"label": "SIGNATURE BLOCK"`` (a contracts
project, weatherman85/contracts@09a37a9 ``signature_block.jsonl``). Neither has a character
offset. The first was refused with "expected a [start, end, label] triple, got "POS"", the
second with "expected a list of [start, end, label] triples", which sends the user looking for
a malformed triple; the refusal now says that the file labels whole texts and has no spans.
The texts below are ours.
"""

from __future__ import annotations

import json

import pytest

from core.formats import ReadOptions, detect, load_files
from core.model.errors import FormatError


@pytest.mark.parametrize(("label", "shown"), [(["POS"], "'POS'"), (["POS", "NEG"], "'POS', 'NEG'"),
                                              ("SIGNATURE BLOCK", "'SIGNATURE BLOCK'")])
def test_a_text_classification_export_says_it_labels_whole_texts(label: object,
                                                                 shown: str) -> None:
    data = (json.dumps({"id": 1, "text": "In witness whereof.", "label": label}) + "\n"
            + json.dumps({"id": 2, "text": "Signed.", "label": label}) + "\n").encode()
    with pytest.raises(FormatError) as exc:
        load_files({"cls.jsonl": data}, fmt="doccano", options=ReadOptions())
    message = str(exc.value)
    assert message.startswith("cls.jsonl:1: field 'label': ")
    assert f"labels the whole text ({shown}), as doccano's text classification export does" \
        in message
    assert "no spans" in message


def test_a_malformed_triple_is_still_named_as_one() -> None:
    data = json.dumps({"id": 1, "text": "abc", "label": [[0, 2, "A"], [1, "B"]]}).encode()
    with pytest.raises(FormatError) as exc:
        load_files({"x.jsonl": data}, fmt="doccano", options=ReadOptions())
    assert 'expected a [start, end, label] triple, got [1, "B"]' in str(exc.value)


def test_a_string_label_record_is_detected_as_doccano_and_refused_saying_why() -> None:
    """The contracts file (``{"Section": null, "Subsection": null, "label": "SIGNATURE BLOCK",
    "text": ...}`` per line, two lines made the same way) was refused only with ``--format
    doccano``; detection said "could not detect the format" and listed fifteen formats."""
    record = {"Section": None, "Subsection": None, "label": "SIGNATURE BLOCK",
              "text": "IN WITNESS WHEREOF, the Parties have signed.\nBy: [***]\n"}
    data = (json.dumps(record) + "\n" + json.dumps(record | {"text": "Signed.\n"}) + "\n").encode()
    assert detect({"signature_block.jsonl": data}) == "doccano"
    with pytest.raises(FormatError) as exc:
        load_files({"signature_block.jsonl": data}, options=ReadOptions())
    assert "labels the whole text ('SIGNATURE BLOCK')" in str(exc.value)


def test_a_prodigy_textcat_task_with_a_string_label_is_not_taken_for_doccano() -> None:
    task = {"text": "Great film.", "label": "POSITIVE", "answer": "accept",
            "_input_hash": 1, "_task_hash": 2, "_view_id": "classification"}
    assert detect({"textcat.jsonl": (json.dumps(task) + "\n").encode()}) != "doccano"
