"""The choices whose pairwise matrix the Annotators page computed in its own run
(:func:`ui.annotators.computed_here`): remembered for a rerun, at most as many as the matrix
cache keeps (review11 item 7: the set grew by one per choice for the whole session)."""

from __future__ import annotations

from typing import Any

import pytest
import streamlit as st

from ui import annotators


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    state: dict[str, Any] = {}
    monkeypatch.setattr(st, "session_state", state)
    return state


def test_a_choice_computed_here_is_computed_here_again_when_the_worker_is_free(
        session: dict[str, Any]) -> None:
    key = ("ws", ("ana", "ben"), None, "span-f1")
    assert not annotators.computed_here(key, lambda: False)  # worker free, never computed
    assert annotators.computed_here(key, lambda: True)  # worker busy: the page computes it
    assert annotators.computed_here(key, lambda: False)  # then the rerun draws it again


def test_the_session_remembers_only_the_last_choices(session: dict[str, Any]) -> None:
    keys = [("ws", ("ana", "ben"), f"label {i}", "span-f1")
            for i in range(annotators.MATRIX_KEPT + 8)]
    for key in keys:
        assert annotators.computed_here(key, lambda: True)
    assert annotators.computed_here(keys[10], lambda: False)  # used again: kept, the newest
    assert annotators.computed_here(("ws", ("ana",), None, "mafalda-f1"), lambda: True)
    remembered = list(session[annotators.K_ANN_HERE])
    assert len(remembered) == annotators.MATRIX_KEPT
    assert remembered[-2:] == [keys[10], ("ws", ("ana",), None, "mafalda-f1")]
    assert keys[0] not in remembered and keys[-1] in remembered
    assert not annotators.computed_here(keys[0], lambda: False)  # forgotten, as the cache
