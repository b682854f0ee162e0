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


def _two_labels_on_one_interval(app_url: str, page: Any, st_ui: SimpleNamespace,
                                tmp_path: Path) -> None:
    """The sample's system A with a second prediction on doc1's [4, 15), labelled Doubt where
    the first is Loaded, uploaded with the gold; Documents on doc1 under MAFALDA."""
    docs = json.loads((DATA / "system_a.json").read_text(encoding="utf-8"))
    doc1 = next(d for d in docs if d["id"] == "doc1")
    other = dict(doc1["labels"][0])
    other["technique"] = "Doubt"
    doc1["labels"] = [doc1["labels"][0], other]  # [4, 15) Loaded and [4, 15) Doubt
    two = tmp_path / "system_two.json"
    two.write_text(json.dumps(docs), encoding="utf-8")
    st_ui.upload_then_documents(page, app_url, [str(DATA / "gold.json"), str(two)])
    st_ui.choose(page, "Document", "doc1")
    st_ui.click(page, page.get_by_test_id("stRadio").get_by_text("mafalda", exact=True),
                page.get_by_text("MAFALDA variant"))


def test_two_labels_on_one_interval_each_keep_their_note_under_mafalda(
    app_url: str, page: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    """Two predictions on [4, 15) with different labels are two spans, not two copies: under
    MAFALDA (which names a prediction by its interval) both ids were given the last note
    written, with "Its copies: P1, P2" (review20)."""
    _two_labels_on_one_interval(app_url, page, st_ui, tmp_path)
    said = {}
    for span_id, label in (("P1", "Doubt"), ("P2", "Loaded")):
        st_ui.choose(page, "Select a span", f"{span_id} [4, 15) {label}")
        if span_id == "P1":
            st_ui.click(page, page.get_by_role("tab", name=DOC_TABS[1]),
                        page.get_by_text("Pairs formed by P1"))
        note = page.get_by_text("MAFALDA takes from it:")
        note.wait_for(timeout=30_000)
        st_ui.wait_idle(page)
        said[span_id] = note.inner_text()
    # the gold's [10, 15) Doubt (G2) is P1's best match, its [4, 19) Loaded (G1) P2's
    assert said["P1"].endswith("= 0.455 from its best gold match G2 (label doubt)."), said
    assert said["P2"].endswith("= 1.000 from its best gold match G1 (label loaded)."), said
    assert not any("copies" in s for s in said.values()), said
    st_ui.shot(page, "documents_two_labels_one_interval")
    assert st_ui.app_errors(page) == []


def test_a_gold_spans_recall_names_the_prediction_of_its_label_under_mafalda(
    app_url: str, page: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    """[4, 15) Doubt (P1) and [4, 15) Loaded (P2): the gold's [4, 19) Loaded (G1) takes its
    recall from P2, the prediction of its label. MAFALDA's rows named the prediction by its
    interval, so G1's note said P1 (the interval's first id), the Doubt prediction that gives
    it nothing (review20)."""
    _two_labels_on_one_interval(app_url, page, st_ui, tmp_path)
    st_ui.choose(page, "Select a span", "G1 [4, 19) Loaded")
    st_ui.click(page, page.get_by_role("tab", name=DOC_TABS[1]),
                page.get_by_text("Pairs formed by G1"))
    note = page.get_by_text("MAFALDA takes from it:")
    note.wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    said = note.inner_text()
    # 11 of G1's 15 characters, from the Loaded prediction
    assert "recall takes C(s,t,|t|) = 0.733 from its best prediction P2," in said, said
    st_ui.shot(page, "documents_recall_of_its_label")
    assert st_ui.app_errors(page) == []
