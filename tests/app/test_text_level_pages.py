"""Text-level (HatEval) sets on the pages: a prediction holding the gold's five columns (id,
text, HS, TR, AG) is scored when its role is system (tour 4, finding 3).

``data/dashboard/text_level/`` holds our own six texts as the released HatEval CSV, gold and a
system's labels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from core.formats import load_path
from core.formats.hateval import HatEvalTable
from core.metrics import hateval
from ui import state

DATA = Path(__file__).resolve().parents[1] / "data" / "dashboard" / "text_level"


def _uploaded(make_app: Callable[..., AppTest], *names: str) -> AppTest:
    at = make_app("pages/data.py", data="empty")
    at.file_uploader(key=state.K_UPLOADS).set_value(
        [(n, (DATA / n).read_bytes(), "text/csv") for n in names]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_five_column_prediction_with_the_system_role_is_scored(
        make_app: Callable[..., AppTest], frame: Callable[..., Any]) -> None:
    at = _uploaded(make_app, "gold_hev.csv", "system_hev.csv")
    ws = at.session_state[state.K_UPLOAD_WS]
    assert {n: s.role for n, s in ws.sets.items()} == {"gold_hev": "gold",
                                                       "system_hev": "system"}
    at.switch_page("pages/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("No prediction file" in i.value for i in at.info)
    assert at.selectbox(key="hev_gold").options == ["gold_hev"]  # the system is no gold
    table = frame(at, "system", "EMR")
    gold, pred = (load_path(DATA / f"{n}_hev.csv").records for n in ("gold", "system"))
    assert isinstance(gold, HatEvalTable) and isinstance(pred, HatEvalTable)
    expected = hateval.evaluate_b(gold, pred)
    row = table.set_index("system").loc["system_hev"]
    assert row["EMR"] == expected["emr"] == 0.5
    assert row["mean macro-F1"] == expected["macro_f1"]


def _highlights(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html if 'class="ss-pair"' in h.proto.body)


def _markdown(at: AppTest) -> list[str]:
    return [str(m.value) for m in at.markdown]


def test_documents_shows_each_texts_labels_and_where_they_differ(
        make_app: Callable[..., AppTest]) -> None:
    """Tour 4, finding 8: the text's HS, TR and AG of gold and system, not "0 span(s)"."""
    at = _uploaded(make_app, "gold_hev.csv", "system_hev.csv")
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key=state.K_DOC).select("103").run()
    assert not at.exception, [e.value for e in at.exception]
    # the set names and captions are in the Documents page's element of highlights (HTML)
    shown = _highlights(at)
    assert "(gold) · HS 1 · TR 0 · AG 1</p>" in shown
    assert "(system) · <strong>HS 0 ≠</strong> · TR 0 · <strong>AG 0 ≠</strong></p>" in shown
    assert "span(s)" not in shown
    assert "differs on HS, AG" in shown
    at.selectbox(key=state.K_DOC).select("101").run()
    assert "they agree" in _highlights(at)
    assert "(system) · HS 0 · TR 0 · AG 0</p>" in _highlights(at)


def test_documents_with_one_hateval_set_shows_its_labels(
        make_app: Callable[..., AppTest]) -> None:
    at = _uploaded(make_app, "gold_hev.csv")
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key=state.K_DOC).select("105").run()
    assert any(s.endswith("(gold) · HS 1 · TR 1 · AG 1") for s in _markdown(at))
