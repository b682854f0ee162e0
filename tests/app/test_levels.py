"""Level controls and MAFALDA wording only with labels that have levels (issue 26, §5;
:mod:`ui.levels`): the propaganda sample (techniques, one class per label) shows neither, the
MAFALDA sample shows both."""

from __future__ import annotations

import pytest

from ui import levels, state

PAGES = ["pages/scores.py", "pages/labels.py", "pages/errors.py", "pages/differences.py",
         "pages/documents.py"]


def _level_boxes(at) -> list:  # -> list of selectboxes
    return [s for s in at.selectbox if s.key == state.K_LEVEL]


@pytest.mark.parametrize("page", PAGES)
def test_no_level_control_nor_mafalda_note_on_labels_without_levels(make_app, page: str) -> None:
    at = make_app(page, data="sample", params={"sample": "propaganda", "metric": "mafalda"})
    assert not at.exception, [e.value for e in at.exception]
    assert _level_boxes(at) == []
    shown = [c.value for c in at.caption] + [m.value for m in at.markdown]
    assert not any("not MAFALDA's" in t for t in shown)


@pytest.mark.parametrize("page", ["pages/labels.py", "pages/errors.py"])
def test_the_mafalda_sample_has_its_level_control(make_app, page: str) -> None:
    at = make_app(page, data="sample", params={"sample": "mafalda", "level": "1"})
    assert not at.exception, [e.value for e in at.exception]
    (box,) = _level_boxes(at)
    assert box.value == 1


def test_has_levels_reads_the_labels_of_the_sets() -> None:
    assert levels.has_levels(state.load_sample("mafalda"))
    assert not levels.has_levels(state.load_sample("propaganda"))
    assert not levels.has_levels(state.empty_workspace())
