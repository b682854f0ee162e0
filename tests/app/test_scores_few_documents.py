"""Scores on a corpus of one or a few documents: the bootstrap over documents cannot give an
interval (one document: every resample is that document, a zero-width interval that looks
certain), so the table shows none and a note says why (the Annotators page warns likewise)."""

from __future__ import annotations

import math

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet
from tests.app.conftest import APP, corpus
from ui import scores as scores_ui
from ui import state


def _app(docs: tuple[str, ...]) -> AppTest:
    texts, sets = corpus()
    cut = [AnnotationSet(a.name, {d: a.spans[d] for d in docs if d in a.spans}, a.role,
                         a.alternatives) for a in sets[:2]]
    report = state.FileReport("few.json", "test", "gold", "few", {d: texts[d] for d in docs},
                              tuple(cut))
    ws = state.build_workspace([report], key=f"test:few:{len(docs)}", title="few documents",
                               shareable=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _systems(at: AppTest):  # -> DataFrame
    return next(df.value for df in at.dataframe if "DSM F1" in df.value.columns)


def _captions(at: AppTest) -> str:
    return " ".join(c.value for c in at.caption)


def test_one_document_shows_no_interval_and_says_why() -> None:
    at = _app(("doc1",))
    table = _systems(at)
    assert not math.isnan(table["DSM F1"][0])
    for col in ("DSM F1 low", "DSM F1 high", "MAFALDA F1 low", "MAFALDA F1 high"):
        assert table[col].isna().all(), col  # drawn as "—", not a certain-looking F1 / F1
    assert "Only 1 document" in _captions(at)
    assert "no interval" in _captions(at)


def test_a_few_documents_keep_the_interval_with_a_caveat() -> None:
    at = _app(("doc1", "doc2"))
    table = _systems(at)
    assert table["DSM F1 low"].notna().all()
    assert f"Only 2 documents (fewer than {scores_ui.FEW_DOCUMENTS})" in _captions(at)


def test_the_caveat_ends_at_few_documents() -> None:
    assert scores_ui.few_documents_note(scores_ui.FEW_DOCUMENTS) is None
    assert scores_ui.few_documents_note(scores_ui.FEW_DOCUMENTS - 1) is not None
