"""``spanscope app --data FOLDER``: a sub-folder read as one input whose name states no role
(``inception_export/``) is named at start-up, with the option that gives it its role, instead of
its role being taken silently from a name that says nothing of one; names that state a role
(``gold``, ``pred``, ``system``, ``annotator``, ...) keep the role they state."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from core.cli import launch
from core.model.roles import folders_without_role, role_notes, role_word
from tests.projects import data_folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder as ``--data`` gets it: a gold file, an INCEpTION export and a brat gold."""
    return data_folder(tmp_path)


class _Started(Exception):
    """Raised instead of starting streamlit."""


def test_the_start_up_output_names_a_sub_folder_without_a_role_word(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def started(*args: object) -> None:
        raise _Started

    monkeypatch.chdir(tmp_path)  # run_app moves to the dashboard's folder
    monkeypatch.setattr(os, "execve", started)
    monkeypatch.setattr(launch.subprocess, "call", started)
    with pytest.raises(_Started):
        launch.run_app(["--data", str(project), "--server.headless", "true"])
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"note: --data {project}: the folder inception_export/ names no role (no gold, "
        "annotator, ann_, ann-, curated, system or pred in its name), so SpanScope cannot tell "
        "whether it holds a gold, systems or annotators; give it its role, e.g. --data "
        f"annotator={project / 'inception_export'} (or gold=, system=)"]


def test_no_note_when_every_name_states_its_role_or_a_role_is_given(project: Path) -> None:
    shutil.rmtree(project / "inception_export")
    assert role_notes([(None, str(project))]) == []
    (project / "export").mkdir()
    assert role_notes([("annotator", str(project))]) == []  # a role given: one input
    assert role_notes([(None, str(project / "gold.json"))]) == []  # a file: no sub-folders
    assert [p.name for p in folders_without_role(project)] == ["export"]


def test_several_folders_without_a_role_word_are_one_note(project: Path) -> None:
    (project / "export2").mkdir()
    (note,) = role_notes([(None, str(project))])
    assert "the folders export2/, inception_export/ name no role" in note
    assert "in their names" in note and "give each its role" in note


def test_role_words_keep_the_role_they_state() -> None:
    assert [role_word(n) for n in ("gold", "preds", "system_b", "annotator_1", "ann-2",
                                   "curated.json", "inception_export", "brat_gold")] == [
        "gold", "system", "system", "annotator", "annotator", "gold", None, "gold"]


def test_brat_folders_sharing_their_documents_are_annotators_not_a_role_to_guess(
        tmp_path: Path) -> None:
    """Tour20: bratiaa's layout (one brat folder per annotator) is read as annotators, as the
    brat reader reads the whole folder (`validate`, `agree`); folders that share no document
    (a train/dev split) or hold other files stay folders without a role."""
    from core.model.roles import brat_annotator_folders

    def brat(folder: Path, docs: list[str]) -> None:
        folder.mkdir(parents=True)
        for d in docs:
            (folder / f"{d}.txt").write_text("Rome.\n", encoding="utf-8")
            (folder / f"{d}.ann").write_text("T1\tLOC 0 4\tRome\n", encoding="utf-8")

    lead = tmp_path / "lead"
    for who in ("Lisa", "Maria", "Max"):
        brat(lead / who, ["d1", "d2"])
    (lead / "annotation.conf").write_text("[entities]\nLOC\n", encoding="utf-8")
    assert [p.name for p in brat_annotator_folders(lead)] == ["Lisa", "Maria", "Max"]
    (note,) = role_notes([(None, str(lead))])
    assert note == (f"note: --data {lead}: the folders Lisa/, Maria/, Max/ hold the same brat "
                    "documents, one folder per annotator: read as annotators, as the command "
                    "line reads the folder (validate, agree); another role: --data "
                    f"system={lead / 'Lisa'} (or gold=), one folder each")
    assert role_notes([("annotator", str(lead))]) == []  # a role given: one input
    split = tmp_path / "split"
    brat(split / "train", ["d1", "d2"])
    brat(split / "dev", ["d3"])
    assert brat_annotator_folders(split) == []
    assert "name no role" in role_notes([(None, str(split))])[0]
