"""Documents page: the document shown can be downloaded as standalone HTML and SVG (ui.export;
the files themselves are tested in tests/export)."""

from __future__ import annotations


def test_documents_page_offers_html_and_svg_of_the_document_shown(make_app) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc10"})
    assert not at.exception, [e.value for e in at.exception]
    labels = [b.proto.label for b in at.get("download_button")]
    assert "⬇️ HTML" in labels and "⬇️ SVG" in labels
