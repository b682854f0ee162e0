"""Prodigy's JSONL exports (``prodigy db-out``), read by the ``spacy`` format.

Each task carries ``answer`` (accept, reject or ignore); a rejected or ignored task is not an
annotation. Tasks of several annotators name them in ``_annotator_id``. The cases are our own
texts in the layout of a ``ner_manual`` export (``spans`` with ``token_start``/``token_end``,
``tokens``, ``meta``, ``_input_hash``, ``_view_id``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.formats import detect, load_files, load_path
from core.metrics import martino
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


THREE = Path(__file__).resolve().parents[1] / "data" / "formats" / "prodigy" / \
    "three_annotators.jsonl"


def test_an_input_answered_by_several_annotators_is_one_document() -> None:
    """Prodigy names an input by ``_input_hash``: the tasks of three annotators without an id
    are four documents, each annotator's answers a set over them (clitour5 item 2)."""
    loaded = load_path(THREE)
    sets = {s.name: s for s in loaded.sets}
    assert list(sets) == ["ner-ana", "ner-ben", "ner-cyd"]
    assert {n: sorted(s.spans) for n, s in sets.items()} == {
        "ner-ana": ["101", "202", "303", "404"], "ner-ben": ["101", "202", "303"],
        "ner-cyd": ["101"]}  # cyd's reject (202) and ignore (404) are not annotations
    assert loaded.texts["101"] == "Mira flew from Lyon to Porto."
    # ana answered 303 twice: the later answer (three spans) is kept
    assert [loaded.texts["303"][s.start:s.end] for s in sets["ner-ana"].get("303")] == [
        "Jonas", "Mira", "Bergen"]
    messages = {d.field: (d.line, d.message) for d in loaded.diagnostics}
    assert messages["_input_hash"] == (1, (
        "8 tasks of 3 annotators have no 'id': Prodigy's '_input_hash' names their documents, "
        "so each annotator's answers to one input are one document (4 inputs; first: line 1)"))
    assert messages["_annotator_id"] == (6, (
        "1 task answers a question that the same annotator answers again on a later line; "
        "the later answer is kept (first: line 6)"))
    assert messages["answer"][0] == 7


def test_agree_finds_the_documents_the_annotators_share(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", str(THREE), "--measure", "span-f1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["documents"] == 4
    matrix = out["span-f1"]["matrix"]
    # ana and cyd share input 101 only, where they marked the same three spans
    assert matrix["ner-ana"]["ner-cyd"] == 1.0
    # ana and ben share 101 (3 vs 2 spans), 202 (2 vs 1) and 303 (3 vs 3): 6 matches, 8 + 6
    assert matrix["ner-ana"]["ner-ben"] == pytest.approx(2 * 6 / (8 + 6))


def test_without_input_hash_the_text_names_the_input() -> None:
    tasks = [_task("Rome is old", [(0, 4, "LOC")], _annotator_id="ana"),
             _task("Nice is warm", [], _annotator_id="ana"),
             _task("Rome is old", [(0, 11, "LOC")], _annotator_id="ben")]
    for t in tasks:
        del t["meta"], t["_input_hash"]
    loaded = load_files(_file(*tasks))
    assert {s.name: sorted(s.spans) for s in loaded.sets} == {"ana": ["1", "2"], "ben": ["1"]}
    (note,) = [d for d in loaded.diagnostics if d.field == "text"]
    assert "their text names their documents (no '_input_hash'; the id is the line where the " \
        "text first appears)" in note.message


def test_one_input_hash_with_two_texts_is_refused_with_its_line() -> None:
    tasks = [_task("Rome is old", [], _annotator_id="ana"),
             _task("Oslo is cold", [], _annotator_id="ben")]
    for t in tasks:
        del t["meta"]
    with pytest.raises(FormatError) as exc:
        load_files(_file(*tasks))
    assert str(exc.value).startswith("db-out.jsonl:2: field '_input_hash': this task's "
                                     "_input_hash 1 is an earlier task's, with another text")


def test_an_export_whose_first_tasks_have_no_spans_is_detected_by_prodigys_keys() -> None:
    """A ``ner.manual`` db-out whose first tasks the annotator left empty has no ``spans`` key
    on its first lines (clitour5 item 4: explosion/projects' drugs_training.jsonl)."""
    empty = [{k: v for k, v in _task(text, [], doc=doc).items() if k != "spans"}
             for text, doc in (("Nothing here", "a"), ("Still nothing", "b"))]
    files = _file(*empty,
                  _task("Take aspirin daily", [(5, 12, "DRUG")], doc="c"))
    assert detect(files) == "spacy"
    assert load_files(files).set.span_count() == 1


def test_a_classification_export_without_hashes_is_detected_by_answer_and_view() -> None:
    task = {"text": "Rome is old", "label": "HISTORY", "answer": "accept",
            "_view_id": "classification"}
    assert detect(_file(task)) == "spacy"


def test_the_could_not_detect_message_names_prodigy_under_spacy() -> None:
    with pytest.raises(FormatError) as exc:
        detect({"notes.jsonl": b'{"title": "Minutes"}\n'})
    assert ", spacy (spaCy DocBin or JSONL, Prodigy's JSONL exports), " in str(exc.value)


def test_a_task_without_annotator_or_id_among_named_ones_is_refused_with_its_line() -> None:
    tasks = [_task("Rome is old", [], _annotator_id="ana"),
             _task("Rome is old", [], _annotator_id="ben"), _task("Nice is warm", [])]
    for t in tasks:
        del t["meta"], t["_input_hash"]
    with pytest.raises(FormatError) as exc:
        load_files(_file(*tasks))
    assert str(exc.value).startswith("db-out.jsonl:3: field '_annotator_id': expected the "
                                     "annotator of this task")


def _hashed(text: str, spans: list[tuple[int, int, str]], who: str, task_hash: int,
            answer: str = "accept", input_hash: int = 11) -> dict[str, Any]:
    task = _task(text, spans, answer, _annotator_id=who)
    del task["meta"]
    task.update(_input_hash=input_hash, _task_hash=task_hash)
    return task


def test_several_questions_on_one_input_merge_into_one_document_per_annotator() -> None:
    """A binary recipe (``ner.teach``) asks one input several questions, one suggested span
    each, under distinct ``_task_hash``: every accepted question's spans are the annotator's
    document, not only the last question's (review11 item 1)."""
    text = "Ada met Bob in Oslo."
    loaded = load_files(_file(_hashed(text, [(0, 3, "PER")], "ann-a", 101),
                              _hashed(text, [(8, 11, "PER")], "ann-a", 102),
                              _hashed(text, [(0, 3, "PER")], "ann-b", 101),
                              _hashed(text, [(8, 11, "PER")], "ann-b", 102)))
    assert {s.name: [(x.start, x.end, x.label) for x in s.spans["11"]]
            for s in loaded.sets} == {"ann-a": [(0, 3, "PER"), (8, 11, "PER")],
                                      "ann-b": [(0, 3, "PER"), (8, 11, "PER")]}
    assert not [d for d in loaded.diagnostics if d.field == "_annotator_id"]
    (note,) = [d for d in loaded.diagnostics if d.field == "_task_hash"]
    assert note.message == ("1 input is asked several questions (distinct '_task_hash'): "
                            "each annotator's accepted answers to it are one document "
                            "(first: line 2)")


def test_the_same_question_answered_again_keeps_the_later_answer() -> None:
    text = "Ada met Bob in Oslo."
    loaded = load_files(_file(_hashed(text, [(0, 3, "PER")], "ann-a", 101),
                              _hashed(text, [(0, 7, "PER")], "ann-b", 101),
                              _hashed(text, [(8, 11, "PER")], "ann-a", 101)))
    sets = {s.name: s for s in loaded.sets}
    assert [(x.start, x.end) for x in sets["ann-a"].spans["11"]] == [(8, 11)]
    (warning,) = [d for d in loaded.diagnostics if d.field == "_annotator_id"]
    assert warning.message == ("1 task answers a question that the same annotator answers "
                               "again on a later line; the later answer is kept (first: line 1)")


def test_a_later_ignore_does_not_wipe_an_earlier_accept_nor_the_annotator() -> None:
    """ann-a accepts a task and ignores it in a later session: the accepted answer stands,
    the ignore is counted as skipped, and ann-a keeps a set (review11 item 2)."""
    text = "Alpha beta gamma."
    loaded = load_files(_file(_hashed(text, [(0, 5, "X")], "ann-a", 1),
                              _hashed(text, [(6, 10, "X")], "ann-b", 1),
                              _hashed(text, [], "ann-a", 1, "ignore"),
                              _hashed("Delta eps.", [(0, 5, "X")], "ann-b", 2,
                                      input_hash=12)))
    sets = {s.name: s for s in loaded.sets}
    assert list(sets) == ["ann-a", "ann-b"]
    assert [(x.start, x.end) for x in sets["ann-a"].spans["11"]] == [(0, 5)]
    assert not [d for d in loaded.diagnostics if d.field == "_annotator_id"]
    (skipped,) = [d for d in loaded.diagnostics if d.field == "answer"]
    assert skipped.message.startswith("1 task answered 'reject' or 'ignore' is not an "
                                      "annotation; skipped (first: line 3)")


def test_an_annotator_who_only_skipped_keeps_an_empty_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "Alpha beta gamma."
    (tmp_path / "db-out.jsonl").write_bytes(_file(
        _hashed(text, [(0, 5, "X")], "ann-a", 1),
        _hashed(text, [], "ann-b", 1, "reject"))["db-out.jsonl"])
    loaded = load_path(tmp_path / "db-out.jsonl")
    assert [(s.name, dict(s.spans)) for s in loaded.sets] == [
        ("ann-a", {"11": loaded.sets[0].spans["11"]}), ("ann-b", {})]
    assert main(["validate", str(tmp_path / "db-out.jsonl"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "ann-b" in json.dumps(out)


def test_counts_of_one_in_the_warnings_are_singular() -> None:
    """review11 item 9: "1 lines have no 'id'", "1 tasks answered ... are" read as slips."""
    task = _task("Rome is old", [(0, 4, "LOC")])
    del task["meta"]
    loaded = load_files(_file(_task("Nice is warm", [(0, 4, "LOC")], "reject", doc="n"), task))
    assert sorted(d.message for d in loaded.diagnostics) == [
        "1 line has no 'id'; its line number is the document id (first: line 2)",
        "1 task answered 'reject' or 'ignore' is not an annotation; skipped (first: line 1)"]


def test_a_span_two_questions_on_one_input_both_mark_counts_once() -> None:
    """Two accepted questions (distinct ``_task_hash``) on one input that mark the same span
    with the same label are one annotation confirmed twice, not two: the merged document
    holds it once (else gold against itself scores precision 0.5), one warning counts the
    repeats. A span one task lists twice stays a duplicate, kept with its warning, as in
    every reader (bugleft12 item 1)."""
    text = "Ada met Bob in Oslo."
    loaded = load_files(_file(_hashed(text, [(0, 3, "PER")], "ann-a", 101),
                              _hashed(text, [(0, 3, "PER"), (8, 11, "PER")], "ann-a", 102),
                              _hashed(text, [(8, 11, "PER")], "ann-a", 104),
                              _hashed(text, [(0, 3, "PER")], "ann-b", 101),
                              _hashed(text, [(8, 11, "PER"), (8, 11, "PER")], "ann-b", 103)))
    assert {s.name: [(x.start, x.end, x.label) for x in s.spans["11"]]
            for s in loaded.sets} == {"ann-a": [(0, 3, "PER"), (8, 11, "PER")],
                                      "ann-b": [(0, 3, "PER"), (8, 11, "PER"), (8, 11, "PER")]}
    (repeat,) = [d for d in loaded.diagnostics if "earlier question" in d.message]
    assert repeat.message == ("2 spans repeat a span that the same annotator's earlier "
                              "question on the same input marks (same start, end and label); "
                              "each is kept once (first: line 2)")
    assert (repeat.line, repeat.field) == (2, "_task_hash")
    (within,) = [d for d in loaded.diagnostics if "occurs more than once" in d.message]
    assert within.line == 5


def test_two_annotators_who_agree_score_one_when_questions_repeat_a_span() -> None:
    """ann-a confirms [0, 3) PER in two questions, ann-b in one: they agree, and scoring one
    against the other gives 1.0 (before: ann-a's document held the span twice, recall 2.0
    scored against it, precision 0.5 the other way round)."""
    text = "Ada met Bob in Oslo."
    loaded = load_files(_file(_hashed(text, [(0, 3, "PER")], "ann-a", 101),
                              _hashed(text, [(0, 3, "PER")], "ann-a", 102),
                              _hashed(text, [(0, 3, "PER")], "ann-b", 101)))
    sets = {s.name: s for s in loaded.sets}
    for gold, pred in (("ann-a", "ann-b"), ("ann-b", "ann-a")):
        result = martino.score(sets[gold], sets[pred], variant="semeval2021")
        assert (result.precision, result.recall, result.f1) == (1.0, 1.0, 1.0)
