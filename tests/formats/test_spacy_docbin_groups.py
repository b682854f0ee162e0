"""A spaCy DocBin with entities and several span groups (``doc.spans[NAME]``): the groups not
chosen were dropped silently. Each is now one warning that counts its documents and spans,
names the first document and the option that reads it (``--span-group NAME``), as the JSONL
reader warns per unread key. Our own documents, built with spaCy."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.formats import ReadOptions, load_path


def _docbin(path: Path) -> Path:
    import spacy  # optional for users, in requirements-dev.txt for the tests
    from spacy.tokens import Doc, DocBin, Span

    nlp = spacy.blank("en")
    docs = []
    for k in range(3):
        doc = Doc(nlp.vocab, words=["Ann", "met", "Bob", "in", "Paris", "."])
        doc.ents = [Span(doc, 0, 1, "PER"), Span(doc, 2, 3, "PER")]
        doc.spans["sc"] = [Span(doc, 0, 3, "MEET"), Span(doc, 4, 5, "LOC")]
        if k == 1:
            doc.spans["extra"] = [Span(doc, 4, 5, "CITY")]
        docs.append(doc)
    DocBin(docs=docs).to_disk(path)
    return path


def _messages(loaded: object) -> list[str]:
    return [str(d) for d in loaded.diagnostics]  # type: ignore[attr-defined]


def test_docbin_groups_not_chosen_are_counted_and_named(tmp_path: Path) -> None:
    src = _docbin(tmp_path / "groups.spacy")
    loaded = load_path(src)
    assert loaded.sets[0].span_count() == 6
    assert _messages(loaded) == [
        f"{src}: field 'span-group': 3 documents hold span group 'sc', not chosen (the spans "
        "read are 'ents'): its 6 spans are not read (first: document 1); read them with "
        "--span-group sc",
        f"{src}: field 'span-group': 1 document holds span group 'extra', not chosen (the spans "
        "read are 'ents'): its 1 span is not read (first: document 2); read them with "
        "--span-group extra"]


def test_docbin_choosing_a_group_warns_of_the_entities_left(tmp_path: Path) -> None:
    src = _docbin(tmp_path / "groups.spacy")
    loaded = load_path(src, options=ReadOptions(span_group="extra"))
    assert loaded.sets[0].span_count() == 1
    messages = _messages(loaded)
    assert len(messages) == 2
    assert "3 documents hold entities (doc.ents), not chosen (the spans read are 'extra'): " \
           "their 6 spans are not read (first: document 1); read them with --span-group " \
           "ents" in messages[0]
    assert "span group 'sc'" in messages[1] and "--span-group sc" in messages[1]


def test_docbin_with_one_group_warns_of_nothing(tmp_path: Path) -> None:
    import spacy
    from spacy.tokens import Doc, DocBin, Span

    doc = Doc(spacy.blank("en").vocab, words=["Ann", "met", "Bob"])
    doc.ents = [Span(doc, 0, 1, "PER")]
    src = tmp_path / "one.spacy"
    DocBin(docs=[doc]).to_disk(src)
    assert _messages(load_path(src)) == []


def test_validate_prints_the_groups_left(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    src = _docbin(tmp_path / "groups.spacy")
    assert main(["validate", str(src)]) == 0
    captured = capsys.readouterr()
    assert "span group 'sc', not chosen" in captured.out + captured.err
