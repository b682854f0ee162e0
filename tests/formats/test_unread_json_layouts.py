"""JSON layouts no format reads are named when detection fails (wild12 tour).

Three files of the wild12 tour, each refused with "could not detect the format; pass it
explicitly (one of: ...)", or worse:

* menon92/BanglaNER@7a2d1f5 ``data/main.jsonl``: JSON Lines of ``[text, [tags]]`` lists. Its
  4 KiB head holds 2,237 Bengali characters, which ``json_head`` took for a whole short file
  (it counted characters, not bytes), so the SemEval-2021 reader was asked and said
  "malformed JSON at column 1: Extra data";
* the same repository's ``bn_dev.json``: spaCy v2's JSON training data (``paragraphs``,
  ``sentences``, ``tokens`` with ``orth`` and ``ner``);
* zhukovanadezhda/psy-ner@3520f3d ``data/test_data.json``: the NER Annotator for spaCy's
  export, ``{"classes": [...], "annotations": [[text, {"entities": [[s, e, label]]}]]}``,
  read by the spacy reader since the wild14 tour (``test_spacy_training_tuples.py``).

The first two are now named with what to do. The files here are made in those shapes, with
our texts.
"""

from __future__ import annotations

import json

import pytest

from core.formats import detect
from core.formats._sniff import head_of, json_head
from core.model.errors import FormatError


def _refusal(name: str, data: bytes) -> str:
    with pytest.raises(FormatError) as exc:
        detect({name: data})
    message = str(exc.value)
    assert "pass it explicitly" not in message
    return message


def test_json_lines_of_text_and_tags_lists_are_named() -> None:
    line = json.dumps(["অগ্রণী ব্যাংকের জ্যেষ্ঠ কর্মকর্তা পদে নিয়োগ পরীক্ষার প্রশ্নপত্র",
                       ["B-ORG", "L-ORG", "O", "O", "O", "O", "O", "O"]], ensure_ascii=False)
    data = ("\n".join([line] * 40) + "\n").encode()
    assert len(data) > 4096 and len(head_of(data)) < 4096  # characters, not bytes
    assert not json_head(head_of(data)).broken
    message = _refusal("main.jsonl", data)
    assert "could not detect the format: JSON Lines of lists, not objects (the first: str, " \
        "list)" in message
    assert "malformed JSON" not in message


def test_spacy_v2_training_json_says_to_convert_it() -> None:
    tokens = [{"orth": "Dhaka", "tag": "-", "ner": "U-LOC"},
              {"orth": "city", "tag": "-", "ner": "O"}]
    doc = {"id": 0, "paragraphs": [{"sentences": [{"tokens": tokens}]}]}
    message = _refusal("bn_dev.json", json.dumps([doc], indent=2).encode())
    assert "spaCy v2's JSON training data" in message
    assert "python -m spacy convert FILE OUTPUT_DIR" in message


def test_dygie_json_lines_of_token_indexed_entities_are_named() -> None:
    """ScienceNLP-Lab/DiMB-RE@46eb09b ``data/DiMB-RE/ner_reduced_v6.1_trg_abs/dev.json``
    (wild15 tour): DyGIE++'s layout, as PURE and PL-Marker read it, a document a line with
    its sentences' tokens and ``ner`` entities as token indices; it got "could not detect the
    format; pass it explicitly (one of: ...)"."""
    doc = {"doc_key": "PMC1", "sentences": [["Iron", "therapy", "helps", "."], ["Zinc", "too"]],
           "ner": [[[0, 1, "Nutrient"]], [[4, 4, "Nutrient"]]], "relations": [[], []]}
    data = (json.dumps(doc) + "\n" + json.dumps({**doc, "doc_key": "PMC2"}) + "\n").encode()
    message = _refusal("dev.json", data)
    assert ('could not detect the format: DyGIE++ or PURE JSON Lines ({"doc_key", '
            '"sentences", "ner", "relations", ...}: the tokens of each sentence, entities as '
            "[first token, last token, label] counted over the document): no text and no "
            "character offsets to read; write the tokens with their tags as CoNLL") in message
