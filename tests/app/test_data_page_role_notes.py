"""The Data page of ``spanscope app --data FOLDER`` names the sub-folders whose names state no
role (``inception_export/``), as the command line's start-up output does
(``core.model.roles.role_notes``), with the option that gives each its role."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.cli.launch import DATA_ENV
from tests.projects import data_folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return data_folder(tmp_path)


def test_the_data_page_names_a_sub_folder_without_a_role_word(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, json.dumps([{"role": None, "path": str(project)}]))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    notes = [w.value.replace("\\", "") for w in at.warning if "names no role" in w.value]
    assert len(notes) == 1, [w.value for w in at.warning]
    # named by the folders' names: a visitor never sees the server's paths
    assert notes[0].startswith("--data proj: the folder inception_export/ names no role")
    assert "--data annotator=proj/inception_export (or gold=, system=)" in notes[0]
    shown = [e.value for kind in (at.info, at.warning, at.markdown, at.caption) for e in kind]
    assert not any(str(project.parent) in text for text in shown)


def test_a_folder_with_a_role_has_no_note(project: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    export = project / "inception_export"
    monkeypatch.setenv(DATA_ENV, json.dumps([{"role": "annotator", "path": str(export)}]))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [w.value for w in at.warning if "names no role" in w.value]

