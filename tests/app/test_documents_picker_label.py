"""Documents page: the document picker's label says how many documents the search and filters
keep, in words that do not read as a position (tour 18: "Document (6 of 6)" stood above
"Document 1 of 6 in this order", and read as being on the sixth document)."""

from __future__ import annotations

from tests.app.conftest import plain_texts
from ui import documents, state


def test_all_documents_listed_read_all(make_app) -> None:
    at = make_app("pages/documents.py")
    assert not at.exception, [e.value for e in at.exception]
    picker = at.selectbox(key=state.K_DOC)
    assert picker.label == "Document (all 3)" == documents.picker_label(3, 3)
    assert len(picker.options) == 3
    assert "Document 1 of 3 in this order" in plain_texts(at.main)  # plain HTML (ui.plain)


def test_a_search_says_how_many_match_of_how_many(make_app) -> None:
    at = make_app("pages/documents.py")
    at.text_input(key=state.K_DOC_QUERY).input("fox").run()
    picker = at.selectbox(key=state.K_DOC)
    assert picker.options == ["doc1"]
    assert picker.label == "Document (1 of 3 match the search and filters)"
