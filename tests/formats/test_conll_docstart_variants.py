"""Document-start markers other than ``-DOCSTART-`` start a document (wild12 tour).

dungdx34/vtner@38bd858's Vietnamese ``data/dev.conll`` (token, POS, BIO tag) opens each of its
48 documents with ``DOC-START<TAB>Np<TAB>O``, directly followed by the document's first token,
with no blank line. SpanScope knew only CoNLL-2003's ``-DOCSTART-``, so it read one document
whose text held 48 ``DOC-START`` tokens. The file below is made the same way (its own tokens,
in Vietnamese as in the file): the marker's second cell is a POS tag, not a document id, so
such documents are numbered.
"""

from __future__ import annotations

import pytest

from core.formats import ReadOptions, detect, load_files

VTNER_LIKE = (
    "DOC-START\tNp\tO\n"
    "Nhà\tN\tO\n"
    "ở\tE\tO\n"
    "Hưng_Yên\tNp\tB-LOC\n"
    ".\t.\tO\n"
    "\n"
    "DOC-START\tNp\tO\n"
    "BOT\tNp\tB-LOC\n"
    "Biên_Hòa\tNp\tI-LOC\n"
    "mở\tV\tO\n"
    "\n"
    "Cô_giáo\tN\tO\n"
    "Quang_Hưng\tNp\tB-PER\n"
    "\n"
)


Docs = dict[str, tuple[str, list[tuple[int, int, str]]]]


def _read(content: str) -> Docs:
    loaded = load_files({"dev.conll": content.encode()}, fmt="conll", options=ReadOptions())
    (aset,) = loaded.sets
    return {doc: (loaded.texts[doc], [(s.start, s.end, s.label) for s in spans])
            for doc, spans in aset.spans.items()}


def test_vtner_doc_start_rows_start_documents_and_are_no_tokens() -> None:
    data = VTNER_LIKE.encode()
    assert detect({"dev.conll": data}) == "conll"
    docs = _read(VTNER_LIKE)
    assert list(docs) == ["1", "2"]  # numbered: 'Np' is a POS tag, not an id
    text1, spans1 = docs["1"]
    assert text1 == "Nhà ở Hưng_Yên ."
    assert [text1[a:b] for a, b, _ in spans1] == ["Hưng_Yên"]
    text2, spans2 = docs["2"]
    assert text2 == "BOT Biên_Hòa mở\nCô_giáo Quang_Hưng"
    assert [(text2[a:b], lab) for a, b, lab in spans2] == [
        ("BOT Biên_Hòa", "LOC"), ("Quang_Hưng", "PER")]
    assert "DOC-START" not in text1 + text2


@pytest.mark.parametrize("marker", ["-DOC-START-", "DOCSTART", "-DOCSTART"])
def test_other_document_start_spellings_start_documents(marker: str) -> None:
    docs = _read(VTNER_LIKE.replace("DOC-START", marker))
    assert len(docs) == 2
    assert all(marker not in text for text, _ in docs.values())


def test_the_conll_2003_marker_still_names_its_document_when_it_gives_an_id() -> None:
    docs = _read("-DOCSTART-\tnews-1\tO\nRome\tB-LOC\n\n-DOCSTART- -X- -X- O\n\nParis\tB-LOC\n")
    assert list(docs) == ["news-1", "2"]


def test_a_tagged_token_spelled_like_a_marker_stays_a_token() -> None:
    (text, spans), = _read("DOCSTART\tB-ORG\nInc\tI-ORG\n").values()
    assert text == "DOCSTART Inc"
    assert spans == [(0, 12, "ORG")]
