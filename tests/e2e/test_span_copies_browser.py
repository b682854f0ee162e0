"""Real browser: a prediction its set gives twice (same start, end and label) is two spans with
two ids, P1 and P2, in the highlights, the span selector and the note of what Da San Martino
takes from each; the second copy was named P1 too, so selecting P2 found no pairs of its own
(review19)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ui.documents import DOC_TABS

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parents[1] / "app" / "data"


def test_a_prediction_given_twice_has_two_ids_and_each_its_own_pairs(
    app_url: str, page: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    docs = json.loads((DATA / "system_a.json").read_text(encoding="utf-8"))
    doc1 = next(d for d in docs if d["id"] == "doc1")
    doc1["labels"] = [doc1["labels"][0], dict(doc1["labels"][0])]  # [4, 15) Loaded, twice
    twice = tmp_path / "system_twice.json"
    twice.write_text(json.dumps(docs), encoding="utf-8")
    st_ui.upload_then_documents(page, app_url, [str(DATA / "gold.json"), str(twice)])
    st_ui.choose(page, "Document", "doc1")
    right = page.locator("#right-doc")
    right.locator(".ss-tag[data-span='P2']").wait_for(timeout=30_000)
    assert right.locator(".ss-tag[data-span='P1']").count() == 1
    st_ui.choose(page, "Select a span", "P2 [4, 15) Loaded")
    st_ui.click(page, page.get_by_role("tab", name=DOC_TABS[1]),
                page.get_by_text("Pairs formed by P2"))
    note = page.get_by_text("Da San Martino takes from it:")
    note.wait_for(timeout=30_000)
    assert "Its copies: P1, P2, each with rows of its own." in note.inner_text()
    assert "precision takes 1.000 from it" in note.inner_text()
    st_ui.shot(page, "documents_span_copies")
    assert st_ui.app_errors(page) == []
