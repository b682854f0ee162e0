"""``spanscope app --data FILE`` without a role, FILE a Label Studio export of several annotators
(tour 5): the sidebar and the Data page call it by the roles its sets were read with, "3
annotators", not the "system" its file name suggested."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.cli.launch import DATA_ENV
from tests.app.conftest import plain_texts
from ui import cli_data

ROOT = Path(__file__).resolve().parents[2]
EXPORT = ROOT / "tests" / "data" / "agree_tour" / "label_studio_three.json"


def test_an_export_of_three_annotators_is_listed_as_three_annotators(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, json.dumps([{"role": None, "path": str(EXPORT)}]))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    ws = cli_data.cli_workspace()
    assert ws is not None
    assert {s.role for s in ws.sets.values()} == {"annotator"} and len(ws.sets) == 3
    sidebar = " ".join(plain_texts(at.sidebar))  # the sidebar's caption is plain HTML (ui.plain)
    assert "label_studio_three.json (3 annotators)" in sidebar, sidebar
    assert "(system)" not in sidebar
