"""Prodigy's JSONL exports (``prodigy db-out``), read by the ``spacy`` format.

Each task carries ``answer`` (accept, reject or ignore); a rejected or ignored task is not an
annotation. Tasks of several annotators name them in ``_annotator_id``. The cases are our own
texts in the layout of a ``ner_manual`` export (``spans`` with ``token_start``/``token_end``,
``tokens``, ``meta``, ``_input_hash``, ``_view_id``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.formats import detect, load_files
from core.model.errors import FormatError


def _task(text: str, spans: list[tuple[int, int, str]], answer: str = "accept",
          **extra: Any) -> dict[str, Any]:
    return {"text": text,
            "spans": [{"start": s, "end": e, "token_start": 0, "token_end": 0, "label": lab}
                      for s, e, lab in spans],
            "tokens": [{"text": w, "id": i} for i, w in enumerate(text.split())],
            "meta": {"id": extra.pop("doc", text[:4])}, "_input_hash": 1, "_task_hash": 2,
            "_view_id": "ner_manual", "answer": answer, **extra}


def _file(*tasks: dict[str, Any]) -> dict[str, bytes]:
    return {"db-out.jsonl": "".join(json.dumps(t) + "\n" for t in tasks).encode()}


def test_rejected_and_ignored_tasks_are_skipped_with_one_warning() -> None:
    files = _file(_task("Rome is old", [(0, 4, "LOC")], doc="a"),
                  _task("Oslo is cold", [(0, 4, "LOC")], "reject", doc="b"),
                  _task("Lima is far", [], "ignore", doc="c"),
                  _task("Nice is warm", [(0, 4, "LOC")], doc="d"))
    assert detect(files) == "spacy"
    loaded = load_files(files)
    (aset,) = loaded.sets
    assert list(aset.spans) == ["a", "d"]
    assert set(loaded.texts) == {"a", "d"}
    (warning,) = [d for d in loaded.diagnostics if d.field == "answer"]
    assert warning.line == 2
    assert "2 tasks answered 'reject' or 'ignore'" in str(warning)


def test_tasks_of_two_annotators_become_two_annotator_sets() -> None:
    files = _file(_task("Rome is old", [(0, 4, "LOC")], doc="a", _annotator_id="ner-ana"),
                  _task("Rome is old", [(0, 11, "LOC")], doc="a", _annotator_id="ner-ben"),
                  _task("Nice is warm", [], doc="d", _annotator_id="ner-ana"))
    loaded = load_files(files)
    assert [(s.name, s.role, dict(s.spans)) for s in loaded.sets] == [
        ("ner-ana", "annotator", {"a": loaded.sets[0].spans["a"], "d": ()}),
        ("ner-ben", "annotator", {"a": loaded.sets[1].spans["a"]})]
    assert [(s.start, s.end) for s in loaded.sets[1].spans["a"]] == [(0, 11)]


def test_one_annotator_keeps_one_set_named_after_the_file() -> None:
    files = _file(_task("Rome is old", [(0, 4, "LOC")], doc="a", _annotator_id="ner-ana"),
                  _task("Nice is warm", [], doc="d", _annotator_id="ner-ana"))
    (aset,) = load_files(files).sets
    assert aset.name == "db-out" and list(aset.spans) == ["a", "d"]


def test_a_task_without_annotator_among_named_ones_is_refused_with_its_line() -> None:
    files = _file(_task("Rome is old", [], doc="a", _annotator_id="ner-ana"),
                  _task("Rome is old", [], doc="a", _annotator_id="ner-ben"),
                  _task("Nice is warm", [], doc="d"))
    with pytest.raises(FormatError) as exc:
        load_files(files)
    assert str(exc.value).startswith("db-out.jsonl:3: field '_annotator_id': ")


def _classification(text: str, label: str, answer: str = "accept") -> dict[str, Any]:
    """A task of Prodigy's ``textcat.manual`` / ``classification`` view: a text label, no
    spans."""
    return {"text": text, "label": label, "spans": [], "meta": {"id": text[:4]},
            "_input_hash": 1, "_task_hash": 2, "_view_id": "classification", "answer": answer}


def test_a_classification_export_warns_that_its_text_labels_are_not_spans() -> None:
    files = _file(_classification("Rome is old", "HISTORY"),
                  _classification("Oslo is cold", "WEATHER"),
                  _classification("Lima is far", "HISTORY", "reject"))
    loaded = load_files(files)
    assert loaded.format == "spacy" and loaded.set.span_count() == 0
    (note,) = [d.message for d in loaded.diagnostics if "text labels" in d.message]
    assert note.startswith("no spans: 2 tasks carry text labels ('label', 'accept' or 'cats'), "
                           "which span metrics do not score")


def test_a_span_export_with_a_label_key_gets_no_text_label_warning() -> None:
    files = _file(_task("Rome is old", [(0, 4, "LOC")], doc="a", label="LOC"))
    assert not [d for d in load_files(files).diagnostics if "text labels" in d.message]


def test_a_docbin_with_only_cats_warns_that_they_are_not_spans() -> None:
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    docbin = DocBin()
    for text, cats in (("Rome is old", {"HISTORY": 1.0, "WEATHER": 0.0}),
                       ("Oslo is cold", {"HISTORY": 0.0, "WEATHER": 1.0}), ("Lima", {})):
        doc = nlp(text)
        doc.cats = cats
        docbin.add(doc)
    loaded = load_files({"dev.spacy": docbin.to_bytes()})
    assert len(loaded.texts) == 3 and loaded.set.span_count() == 0
    (note,) = [d.message for d in loaded.diagnostics]
    assert note.startswith("no spans: 2 documents carry text labels (doc.cats), which span "
                           "metrics do not score")
