"""Document categories and category records (wild14 tour, wild13's kayako leftovers).

klea-clgx/kayako@b9ccb35 keeps a doccano sequence-labelling export of support e-mails twice
re-saved by a script (``admin_with_client.jsonl``, ``axis_emails.jsonl``): each record adds
``cats``, the e-mail's categories (``report_issue``, ``other``, ...). They label whole
documents, so the doccano reader skips them with one warning; that warning counted them
("1000 document categories ('cats') skipped") without saying which, so a reader of the
warning could not tell what was left out. It names them now, most frequent first.

The same repository's ``entities_data.jsonl`` is the spans cut out of the texts, one record
each: ``{"text": "Dart Appraisal", "category": "client"}``, no document, no offsets. Detection
said only "could not detect the format; pass it explicitly (one of: ...)", sending the user
round sixteen formats none of which reads it; it names the layout now.

The files here are made in those shapes, with our texts.
"""

from __future__ import annotations

import json

from core.formats import load_files
from tests.formats.test_unread_json_layouts import _refusal


def test_the_skipped_cats_warning_names_the_categories_most_frequent_first() -> None:
    records = [{"text": "Please resend the invoice.", "entities": [[7, 13, "action"]],
                "cats": [cat]} for cat in ["report_issue", "other", "report_issue",
                                           "billing", "report_issue", "other"]]
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    loaded = load_files({"admin_with_client.jsonl": data})
    assert loaded.format == "doccano"
    (message,) = [str(d) for d in loaded.diagnostics if d.field == "cats"]
    assert ("6 document categories ('cats': report_issue 3, other 2, billing 1) skipped "
            "(the first at line 1): they label whole documents, not spans") in message


def test_many_categories_are_named_up_to_eight() -> None:
    records = [{"text": "x y", "entities": [[0, 1, "a"]], "cats": [f"c{k:02d}"]}
               for k in range(12)]
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    loaded = load_files({"a.jsonl": data})
    (message,) = [str(d) for d in loaded.diagnostics if d.field == "cats"]
    assert "('cats': c00 1, c01 1, c02 1, c03 1, c04 1, c05 1, c06 1, c07 1 and 4 more)" \
        in message


def test_records_of_a_fragment_and_its_category_are_named_at_detection() -> None:
    rows = [{"text": "Dart Appraisal", "category": "client"},
            {"text": "please change the recipient address", "category": "issue_to_check"}]
    data = "".join(json.dumps(r) + "\n" for r in rows * 60).encode()
    message = _refusal("entities_data.jsonl", data)
    assert ("could not detect the format: records of a text and its category ({\"text\", "
            "\"category\"}") in message
    assert "no character offsets" in message


def test_records_of_token_and_tag_lists_are_named_at_detection() -> None:
    """challayasaswi/NER-System-For-Telugu-Language@c589933 ``te_val.json`` (wild14): a JSON
    list of ``{"words": [...], "ner": [...]}`` records (some all ``O``), the layout Hugging
    Face datasets keep a tagger's data in; named, with CoNLL as the way to read it."""
    rows = [{"words": ["Ravi", "went", "to", "Hyderabad"], "ner": ["B-PER", "O", "O", "B-LOC"]},
            {"words": ["It", "rained"], "ner": ["O", "O"]}]
    message = _refusal("te_val.json", json.dumps(rows * 40, indent=0).encode())
    assert ("could not detect the format: records of token and tag lists ({\"words\", "
            "\"ner\"}") in message
    assert "write them as CoNLL" in message


def test_doccano_span_objects_under_another_key_are_named_at_detection() -> None:
    """lcclab-blcu/CHED@6069107 ``all.jsonl`` (wild14): the event triggers of the Chinese
    Historical Event Detection corpus, one sentence a record, as doccano's span objects
    (``start_offset``, ``end_offset``, ``label``) under ``events``, a key no doccano export
    writes. Detection said "pass it explicitly", and ``--format doccano`` reads 0 spans (with a
    warning): it names the key and the rename that makes the file a doccano export."""
    rows = [{"sen_id": k, "doc_id": 7, "text": "The king met the envoy.",
             "events": [{"id": k, "trigger": "met", "label": "meet",
                         "start_offset": 9, "end_offset": 12}]} for k in range(30)]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    message = _refusal("all.jsonl", data)
    assert ("could not detect the format: records with doccano's span objects "
            "({start_offset, end_offset, label}) under 'events'") in message
    assert "rename 'events' to 'entities'" in message


def test_records_of_an_items_id_and_its_label_are_named() -> None:
    """FabioEhr/linguistica-annotator@816d0ee ``annotations.jsonl`` (wild14's leftover, read
    in the wild15 tour): an annotation app's log, one record per judgement, ``{"row_uuid",
    "annotator", "timestamp", "id", "label"}``, the items' texts kept elsewhere; it got "could
    not detect the format; pass it explicitly (one of: ...)"."""
    records = [{"row_uuid": f"{k:08x}-0000", "annotator": name, "timestamp":
                f"2025-07-12T09:2{k}:11", "id": 90 + k % 3, "label": 1 + k % 2}
               for k, name in enumerate(["Ada", "Ada", "Ben", "Ben", "Ada"])]
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    message = _refusal("annotations.jsonl", data)
    assert ("could not detect the format: records of an item's id and its label "
            '({"row_uuid", "annotator", "timestamp", "id", "label"}: judgements of items '
            "whose texts are kept elsewhere") in message
    assert "no text and no character offsets to read" in message


def test_flat_records_with_a_text_are_not_taken_for_judgements() -> None:
    from core.formats._sniff import _judgements

    assert _judgements(({"id": 1, "text": "a b", "label": "x"},)) is None
    assert _judgements(({"id": 1, "label": "x", "start": 0},)) is None
    assert _judgements(({"label": "x", "score": 2},)) is None  # no id
    assert _judgements(()) is None
