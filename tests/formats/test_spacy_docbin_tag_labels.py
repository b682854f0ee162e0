"""A DocBin whose span labels are BIO tags (wild14's leftover, read again in the wild15 tour).

challayasaswi/NER-System-For-Telugu-Language@c589933 ``dev.spacy``: 2,700 documents whose
6,896 entities are one token each, labelled with the token's tag (``B-PER`` 1,997, ``I-PER``
1,659, ``B-LOC`` 1,043, ...): the tool that built it took the tags for labels. SpanScope reads
it faithfully, and every span would score 0 against a gold set labelled ``LOC``; it said
nothing. It warns now, naming the file, the labels and what to do. Our own documents, built
with spaCy, in that shape.
"""

from __future__ import annotations

from pathlib import Path

from core.formats import load_path


def _docbin(path: Path, labels: list[tuple[int, str]]) -> Path:
    import spacy  # optional for users, in requirements-dev.txt for the tests
    from spacy.tokens import Doc, DocBin, Span

    nlp = spacy.blank("xx")
    doc = Doc(nlp.vocab, words=["Ann", "Lee", "met", "Bob", "in", "New", "Delhi", "."])
    doc.ents = [Span(doc, k, k + 1, label) for k, label in labels]
    DocBin(docs=[doc, doc]).to_disk(path)
    return path


def test_bio_tags_as_span_labels_are_warned_of_with_the_labels(tmp_path: Path) -> None:
    src = _docbin(tmp_path / "dev.spacy",
                  [(0, "B-PER"), (1, "I-PER"), (3, "B-PER"), (5, "B-LOC"), (6, "I-LOC")])
    loaded = load_path(src)
    assert loaded.sets[0].span_count() == 10  # read as they are, one span a token
    (warning,) = [d for d in loaded.diagnostics if d.kind == "tag-labels"]
    message = str(warning)
    assert message.startswith(f"{src}: field 'label': the span labels are BIO tags "
                              "(B-PER 4, I-PER 2, B-LOC 2, I-LOC 2)")
    assert "would score 0 against a span labelled 'PER'" in message
    assert "write its tokens and tags as CoNLL" in message


def test_labels_with_a_prefix_that_are_no_tags_are_not_warned_of(tmp_path: Path) -> None:
    """One prefix alone (only 'B-...', 'E-mail') is no tagging scheme: no warning."""
    for labels in ([(0, "B-PER"), (3, "B-PER")], [(0, "E-MAIL"), (3, "PER")]):
        loaded = load_path(_docbin(tmp_path / "dev.spacy", labels))
        assert not [d for d in loaded.diagnostics if d.kind == "tag-labels"], labels


def test_o_tags_as_span_labels_are_counted_as_tokens_outside(tmp_path: Path) -> None:
    """joseBarros/ner_genetics_collab@f58aa53 ``corpus/dev.spacy`` (wild15 tour): every
    token is a span labelled with its tag, 'O' included (79,417 of its 98,258 spans)."""
    src = _docbin(tmp_path / "dev.spacy", [(0, "B-PER"), (1, "I-PER"), (2, "O"), (3, "B-PER"),
                                           (4, "O")])
    (warning,) = [d for d in load_path(src).diagnostics if d.kind == "tag-labels"]
    assert "the span labels are BIO tags (B-PER 4, O 4, I-PER 2)" in str(warning)
    assert "and the 4 spans labelled 'O' are tokens outside any entity" in str(warning)
