"""Labels without a taxonomy (restaurant entity types, as a doccano export holds): the Metric
differences page draws no level control, and says what the "level 2" of its path means
(tour finding 16)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from tests.app.conftest import plain_texts, tables
from ui import levels, state


def test_the_path_says_what_level_2_means_without_a_taxonomy() -> None:
    text = "The udon at Hanon in Williamsburg comes with tempura."
    gold = AnnotationSet("gold", {"d1": (Span(4, 8, "DISH"), Span(12, 17, "EST"))}, "gold")
    pred = AnnotationSet("sys", {"d1": (Span(4, 8, "FOOD"), Span(12, 17, "EST"))}, "system")
    report = state.FileReport("r.json", "test", "gold", "r", {"d1": text}, (gold, pred))
    ws = state.build_workspace([report], key="test:flat", title="flat", shareable=False)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"),
                           default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page("pages/differences.py").run()
    assert not at.exception
    assert not levels.has_levels(ws, "gold", "sys")
    assert not any(s.label == "MAFALDA level" for s in at.selectbox)
    steps = next(t for t in tables(at) if "step" in t.columns)  # a Markdown table
    assert "MAFALDA, level 2" in steps["step"].tolist()
    assert any("“level 2” below means the labels as they are" in c
               for c in [*(c.value for c in at.caption), *plain_texts(at)])
