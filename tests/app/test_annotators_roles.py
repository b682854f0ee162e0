"""Annotators page: which sets it compares by default, and what it says about them.

With fewer than two sets of the annotator role the page compares every set, a gold with
predictions; an info box says so, names each set by role and where roles are given (a newcomer
read a gold-against-system matrix as agreement between annotators). Three annotators' PTC
``.labels`` files are guessed annotators (:func:`core.model.roles.guess_role`), so they are
the sets compared by default, without the gold (tour 18 found them guessed systems)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.model.roles import guess_role
from ui import annotators as ann
from ui import state

PAGE = "pages/annotators.py"
TC = Path(__file__).resolve().parents[1] / "data" / "formats" / "ptc" / "semeval2020-tc-folder"


def _notes(at) -> list[str]:
    return [i.value for i in at.info if "annotator role" in i.value]


def test_without_annotators_the_default_says_it_compares_the_gold_with_the_systems(
        make_app) -> None:
    at = make_app(PAGE)  # gold, system_a, system_b: no set of the annotator role
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["gold", "system_a", "system_b"]
    (note,) = _notes(at)
    assert "Fewer than two sets have the annotator role" in note
    assert "the gold **gold** with the systems **system\\_a**, **system\\_b**" in note
    assert "not agreement between annotators" in note and "Role box" in note
    # the sets' help says what the fallback takes
    assert "the gold and the systems too" in at.multiselect(key=ann.K_ANN_SETS).help


def test_the_gold_and_one_system_are_named_so(make_app) -> None:
    at = make_app(PAGE, params={ann.K_ANN_SETS: ["gold", "system_a"]})
    (note,) = _notes(at)
    assert "the gold **gold** with the system **system\\_a**." in note


def test_no_note_when_the_annotators_are_compared(make_app) -> None:
    at = make_app(PAGE, data="sample")
    assert "gold" not in at.multiselect(key=ann.K_ANN_SETS).value
    assert _notes(at) == []


@pytest.mark.parametrize(("name", "role"), [
    ("ana.labels", "annotator"), ("ben.task2-tc.txt", "system"),
    ("dev-task-TC.labels", "gold"), ("train-task2-TC.labels", "gold"),
    ("pred_run.labels", "system"), ("system_b.labels", "system"), ("gold.labels", "gold"),
])
def test_a_labels_file_is_an_annotation_unless_its_name_says_otherwise(name, role) -> None:
    assert guess_role(name) == role
    assert guess_role(name, fmt="ptc") == role


GOLD_LABELS = sorted({p.name for p in (Path(__file__).parents[1] / "data" / "formats" / "ptc")
                      .rglob("*.labels") if "task" in p.name})


def test_every_shared_task_gold_labels_name_in_the_test_data_is_a_gold() -> None:
    """The SemEval-2020 Task 11 and NLP4IF-2019 releases' gold names (``dev-task-TC.labels``,
    ``article<ID>.task1-SI.labels``, ``.task-FLC.labels``, ...) kept under tests/data."""
    assert len(GOLD_LABELS) >= 10
    assert {n: guess_role(n) for n in GOLD_LABELS} == {n: "gold" for n in GOLD_LABELS}


@pytest.mark.parametrize("name", [
    "task2_team1.labels", "task2-team1.labels", "task-TC_team3.labels", "multitask.labels",
    "task.labels", "team_task-TC-v2.labels", "tasks.labels",
])
def test_a_labels_file_with_task_elsewhere_in_its_name_is_an_annotation(name) -> None:
    """Any ``.labels`` name with ``task`` in it was read as the gold: a team's predictions named
    after the task (``task2_team1.labels``) became the reference (review20)."""
    assert guess_role(name) == "annotator"
    assert guess_role(name, fmt="ptc") == "annotator"


def test_three_annotators_labels_files_are_guessed_annotators_and_compared_alone(
        make_app) -> None:
    rows = (TC / "article201.task2-TC.labels").read_bytes()
    files = [(p.name, p.read_bytes(), "text/plain") for p in sorted(TC.iterdir())]
    files += [(f"{who}.labels", rows, "text/plain") for who in ("ana", "ben", "chloe")]
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.role for n, s in ws.sets.items()} == {
        "articles": "gold", "ana": "annotator", "ben": "annotator", "chloe": "annotator"}
    assert at.selectbox(key=state.upload_key("role", "ana.labels")).value == "annotator"
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key=ann.K_ANN_SETS).value == ["ana", "ben", "chloe"]
    assert _notes(at) == []
    assert at.selectbox(key=ann.K_ANN_GOLD).value == "articles"


def test_a_choice_of_some_sets_is_not_called_every_set_loaded(make_app) -> None:
    """With system_b left out, the note said the page "compares every set loaded" and named
    two of the three (review20)."""
    at = make_app(PAGE, params={ann.K_ANN_SETS: ["gold", "system_a"]})
    (note,) = _notes(at)
    assert "every set loaded" not in note
    assert "compares the sets chosen: the gold **gold** with the system **system\\_a**." in note
    (default,) = _notes(make_app(PAGE))
    assert "compares every set loaded: the gold **gold** with the systems" in default
