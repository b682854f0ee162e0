"""One loaded set: Documents shows its spans alone (no correct / missed categories against
itself) and Labels says it needs a second set, as Scores and Errors do (tour 4, finding 7)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from core.render import highlight
from ui import sidebar, state

APP = Path(__file__).resolve().parents[2] / "app.py"
TEXTS: dict[str, str | None] = {
    "doc2": "Fear sells: they will take <b>everything</b> you own unless you act now!",
    "doc10": "The quick brown fox jumps over the lazy dog.",
}
ONE = AnnotationSet("only", {"doc2": (Span(0, 10, "Fear"), Span(12, 40, "Loaded")),
                             "doc10": (Span(4, 9, "Doubt"),)}, "gold")


def _app(page: str) -> AppTest:
    report = state.FileReport("only.json", "test", "gold", "only", TEXTS, (ONE,))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key="test:one-set", title="one set", shareable=False)
    at.run()
    return at.switch_page(page).run()


def _html(at: AppTest) -> str:
    # Not the style of the highlighted text (its class names hold "missed", as the merged view's)
    return "\n".join(h.proto.body for h in at.html
                     if h.proto.body not in (sidebar.SCRIPT, highlight.compact_css()))


def test_documents_shows_the_one_sets_spans_without_comparing_it_with_itself() -> None:
    at = _app("pages/documents.py")
    assert not at.exception, [e.value for e in at.exception]
    assert any("Load a second set to compare" in i.value for i in at.info)
    assert at.selectbox(key=state.K_DOC).options == ["doc2", "doc10"]  # by id, numbers as such
    assert state.K_SET_B not in [s.key for s in at.selectbox]
    body = _html(at)
    assert 'id="left-doc"' in body and 'id="right-doc"' not in body
    assert "Fear" in body and "Loaded" in body
    assert "correct" not in body.lower() and "missed" not in body.lower()
    assert "&lt;b&gt;everything" in body and "<b>everything" not in body  # escaped
    assert any("2 span(s)" in m.value for m in at.markdown)
    at.button(key="doc_next").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc10"
    assert any("1 span(s)" in m.value for m in at.markdown)
    at.text_input(key=state.K_DOC_QUERY).input("fox").run()
    assert at.selectbox(key=state.K_DOC).options == ["doc10"]


def test_labels_asks_for_a_second_set() -> None:
    at = _app("pages/labels.py")
    assert not at.exception
    assert [i.value for i in at.info] == ["Labels need a reference set and at least one other "
                                          "set."]
    assert not at.get("vega_lite_chart") and not at.get("arrow_vega_lite_chart")
