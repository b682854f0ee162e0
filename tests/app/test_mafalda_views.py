"""MAFALDA on the Scores and Documents pages: numbers and best matches come from core."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.metrics import mafalda
from core.model import AnnotationSet, Span
from tests.app.conftest import tables
from ui import documents, state

APP = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "app.py")
TEXT = "You are an idiot, so your plan fails. Vote now or the country dies tonight."


def _ws() -> state.Workspace:
    gold = AnnotationSet("gold", {"d1": (Span(0, 16, "ad hominem"), Span(0, 16, "nothing"),
                                         Span(38, 75, "appeal to fear"))}, "gold", True)
    sys_a = AnnotationSet("sys_a", {"d1": (Span(0, 8, "ad hominem"),
                                           Span(50, 75, "appeal to fear"))}, "system")
    rep = state.FileReport("m.jsonl", "mafalda", "gold", "m", {"d1": TEXT}, (gold, sys_a))
    return state.build_workspace([rep], key="test:mafalda", title="mafalda", shareable=False)


def _app(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = _ws()
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.slow
def test_scores_page_shows_mafalda_as_core_computes_it() -> None:
    at = _app("pages/scores.py", metric="mafalda", level="1")
    ws = _ws()
    res = mafalda.score(ws.sets["gold"], ws.sets["sys_a"], level=1, texts=ws.corpus.texts)
    table = next(d for d in tables(at) if "MAFALDA F1" in d.columns)
    assert table.iloc[0]["MAFALDA F1"] == pytest.approx(res.f1, abs=5e-5)  # four decimals shown
    assert table.iloc[0]["MAFALDA R"] == pytest.approx(res.recall, abs=5e-5)


@pytest.mark.slow
def test_documents_page_shows_the_best_match_of_a_selected_gold_span() -> None:
    at = _app("pages/documents.py", metric="mafalda", doc="d1",
              **{documents.K_DOC_TAB: documents.DOC_TABS[1]})  # lazy tabs: the contributions
    at.selectbox(key=state.K_SPAN).select("G2").run()
    ws = _ws()
    out = mafalda.explain(ws.sets["gold"], ws.sets["sys_a"], "d1", texts=ws.corpus.texts)
    contribution = out.gold[1].contribution_r
    shown = " ".join(m.value for m in at.markdown).replace("\\", "")  # unescape Markdown
    assert f"C(s,t,|t|) = {contribution:.3f}" in shown and "P2" in shown
    assert "A | ⊥" not in shown  # G1, not G2, holds the alternatives
