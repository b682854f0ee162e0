"""Every variant picker says what each variant computes, from the registry's one source
(``Metric.variant_notes``), and the Metric differences ladder's variant step explains the same."""

from __future__ import annotations

import pytest

from core.metrics import registry
from ui import state


def _notes(name: str) -> list[str]:
    m = registry.get(name)
    return [m.variant_note(v) for v in m.variants]


@pytest.mark.parametrize("page", ["pages/scores.py", "pages/differences.py", "pages/documents.py"])
def test_the_mafalda_variant_picker_explains_every_variant(make_app, page: str) -> None:
    at = make_app(page, params={"b": "system_a", "metric": "mafalda"})
    assert not at.exception, [e.value for e in at.exception]
    help_text = at.selectbox(key=state.variant_key("mafalda")).help
    for variant, note in zip(registry.get("mafalda").variants, _notes("mafalda"), strict=True):
        assert f"**{variant}**: {note}" in help_text


def test_the_martino_variant_picker_on_scores_explains_every_variant(make_app) -> None:
    at = make_app("pages/scores.py", params={"b": "system_a"})
    help_text = at.selectbox(key=state.variant_key("martino")).help
    assert registry.get("martino").description in help_text
    for note in _notes("martino"):
        assert note in help_text


def test_the_ladders_variant_step_explains_repo_head(make_app, frame) -> None:
    at = make_app("pages/differences.py", params={"b": "system_a", "mvariant": "repo-head"})
    assert not at.exception, [e.value for e in at.exception]
    steps = frame(at, "step", "what changes").set_index("step")
    text = steps.loc["repo-head code", "what changes"]
    assert "an exact match gets R = 0.5" in text
    assert registry.get("mafalda").variant_note("repo-head") in text
