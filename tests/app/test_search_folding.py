"""The Documents page's search folds Unicode normalization and case (core.model.textsafe.folded):
"café" typed in NFC finds a document whose text is stored in NFD (tour 9, D9)."""

from __future__ import annotations

import unicodedata
import uuid
from types import SimpleNamespace

from core.model.textsafe import folded, search_match
from ui import documents

NFD = unicodedata.normalize("NFD", "Le café de Zoë est fermé.")


def test_an_nfc_query_finds_an_nfd_text_and_case_does_not_matter() -> None:
    assert search_match("café", "nfd", NFD)
    assert search_match("ZOË", "nfd", NFD)
    assert not search_match("cafe ", "nfd", NFD)  # an accent is not dropped
    assert folded("STRASSE") == folded("straße")


def test_the_documents_search_uses_the_folding() -> None:
    ws = SimpleNamespace(corpus=SimpleNamespace(texts={"nfd": NFD, "other": "Nothing here."}))
    order = ("nfd", "other")
    # the page passes the query stripped and lower-cased (ui/documents.search_documents)
    found = documents._search(uuid.uuid4().hex, ws, hash(order), order, "café")
    assert found == ["nfd"]
