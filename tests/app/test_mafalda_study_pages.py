"""The MAFALDA user study shape on the dashboard (``tests/data/formats/mafalda_study``, our own
texts): a gold without ids (its documents numbered by line) and annotators' doccano exports of
the same texts, each numbered its own way. The annotators' documents are matched to the gold's
by their text (:func:`ui.text_policy.align_annotators`), so the pages count three documents,
not six, and every annotator shares the gold's documents (Annotators: against the gold)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.cli.launch import DATA_ENV
from tests.app.conftest import plain_texts
from ui import cli_data

ROOT = Path(__file__).resolve().parents[2]
STUDY = ROOT / "tests" / "data" / "formats" / "mafalda_study"


def _app(monkeypatch: pytest.MonkeyPatch, page: str) -> AppTest:
    monkeypatch.setenv(DATA_ENV, json.dumps([
        {"role": "gold", "path": str(STUDY / "gold.jsonl")},
        {"role": "annotator", "path": str(STUDY / "annotator1.jsonl"), "name": "Ann1"},
        {"role": "annotator", "path": str(STUDY / "annotator2.jsonl"), "name": "Ann2"}]))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_annotators_documents_take_the_golds_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(monkeypatch, "pages/data.py")
    ws = cli_data.cli_workspace()
    assert ws is not None and all(r.ok for r in ws.reports)
    assert sorted(ws.corpus.texts) == ["0", "1", "2"]  # three texts, not six
    assert {n: sorted(s.spans) for n, s in ws.sets.items()} == {
        "gold": ["0", "1", "2"], "Ann1": ["0", "1", "2"], "Ann2": ["0", "1", "2"]}
    notes = " ".join(w.value for w in [*at.warning, *at.info])
    assert "3 documents renamed, matched to the other files' documents by their text" in notes
    assert "'4642' → '0'" in notes and "'4664' → '2'" in notes  # Ann2 holds them in another order
    assert at.metric[0].value == "3"  # the summary's documents
    # which file became which set (--data NAME:ROLE=PATH), on the Data page and in the sidebar
    for shown in (" ".join(e.value for e in at.info).replace("\\", ""),  # Markdown-escaped
                  " ".join(plain_texts(at.sidebar))):  # the sidebar's caption is plain HTML
        assert "gold.jsonl (gold), annotator1.jsonl as Ann1 (annotator), annotator2.jsonl as " \
            "Ann2 (annotator)" in shown
