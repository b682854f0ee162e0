"""JSON files no format reads are named when detection fails (wild13 tour).

Both were refused with "could not detect the format; pass it explicitly (one of: ...)", which
sends the user round fifteen formats none of which reads them:

* jmpageau/ProjectBEAMI@929fc75 ``annotations.json``: a JSON list of spaCy's training tuples,
  ``[[text, {"entities": [[start, end, label]]}], ...]``, pretty-printed (the layout spaCy v2's
  ``nlp.update`` took, and the NER Annotator's ``annotations`` without its ``classes``). Its
  first text is 1,935 characters, so the 4 KiB head holds no whole pair; asked with
  ``--format spacy`` the reader said only "expected a list of JSON objects". Since the wild14
  tour the spacy reader reads such lists (``test_spacy_training_tuples.py``); lists of other
  lists are still not called so here;
* jobschepens/clausemate@1efc33e ``archive/exportedproject<N>.json``: the settings file of an
  INCEpTION project export (name, mode, ``source_documents``, ``annotation_documents``,
  ``layers``, ...), which holds no annotation: they are in the export's ``annotation/`` and
  ``curation/`` folders.

The files here are made in those shapes, with our texts.
"""

from __future__ import annotations

import json

from core.formats._sniff import why_undetected
from tests.formats.test_unread_json_layouts import _refusal


def test_a_list_of_lists_that_are_not_training_tuples_is_not_called_so() -> None:
    assert why_undetected(json.dumps([[1, 2], [3, 4]] * 900).encode()) is None
    assert why_undetected(json.dumps([["a", ["B-PER", "O"]]] * 900).encode()) is None


def test_an_inception_project_settings_file_says_where_the_annotations_are() -> None:
    settings = {"name": "C07_adt-demo", "slug": None, "description": None,
                "mode": "ANNOTATION", "version": 1,
                "source_documents": [{"name": f"chap_{i}.tsv", "format": "ctsv3",
                                      "state": "CURATION_IN_PROGRESS"} for i in range(40)],
                "annotation_documents": [], "layers": []}
    data = json.dumps(settings, indent=2).replace('": ', '" : ').encode()
    assert len(data) > 4096  # the head cuts the document list
    message = _refusal("exportedproject17489847281818987052.json", data)
    assert ("could not detect the format: the settings of an INCEpTION or WebAnno project "
            "export (exportedproject.json") in message
    assert "annotation/" in message and "curation/" in message
