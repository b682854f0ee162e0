"""Documents page: a long text is drawn one passage at a time (core.render.passages), its spans
clipped to the passage; a span asked for outside the passage opens the passage holding it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from core.render.passages import PASSAGE_CHARS
from ui import documents, sidebar, state

APP = str(Path(__file__).resolve().parents[2] / "app.py")
WORD = "lorem ipsum dolor sit amet "
TEXT = WORD * (3 * PASSAGE_CHARS // len(WORD))  # about three passages


def _app(span: str | None = None) -> AppTest:
    gold = AnnotationSet("gold", {"long": tuple(Span(k, k + 5, "A")
                                                for k in range(0, len(TEXT) - 6, 2700))})
    pred = AnnotationSet("system_a", {"long": (Span(0, 5, "A"), Span(len(TEXT) - 11, len(TEXT) - 6,
                                                                      "A"))}, role="system")
    report = state.FileReport("long.json", "test", "gold", "long", {"long": TEXT},
                              (gold, pred))
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = state.build_workspace(
        [report], key="test:long", title="a long text", shareable=False)
    at.run()
    if span is not None:  # as a click on the Labels page's evidence asks for a span
        at.session_state[state.K_SPAN] = span
    return at.switch_page("pages/documents.py").run()


def _lanes(at: AppTest, dom_id: str) -> str:
    """The lanes of ``dom_id``, up to the next element with an id (the Documents page draws
    both sets' lanes and the merged view in one element)."""
    body = next(h.proto.body for h in at.html
                if h.proto.body != sidebar.SCRIPT and f'id="{dom_id}"' in h.proto.body)
    start = body.index(f'id="{dom_id}"')
    end = body.find(' id="', start + 1)
    return body[start:end if end > 0 else len(body)]


def test_a_long_text_is_drawn_one_passage_at_a_time() -> None:
    at = _app()
    assert not at.exception
    picker = at.selectbox(key=f"{documents.K_PASSAGE}/long")
    assert len(picker.options) == 3 and picker.options[0].startswith("1 of 3: characters 0–")
    left = _lanes(at, "left-doc")
    assert left.count("lorem") < len(TEXT) // len(WORD) // 2  # one passage, not the text
    spans = at.selectbox(key=state.K_SPAN).options
    assert "P1 [0, 5) A" in spans[1] or any(o.startswith("P1") for o in spans)
    assert not any(o.startswith("P2") for o in spans)  # the last span is in the last passage
    picker.set_value(2).run()
    assert not at.exception
    assert any(o.startswith("P2") for o in at.selectbox(key=state.K_SPAN).options)


def test_a_span_asked_for_in_another_passage_opens_that_passage() -> None:
    at = _app("P2")
    assert not at.exception
    picker = at.selectbox(key=f"{documents.K_PASSAGE}/long")
    assert picker.value == 2
    assert at.selectbox(key=state.K_SPAN).value == "P2"
    picker.set_value(0).run()  # the reader moves on: the picker is theirs again
    assert not at.exception
    assert at.selectbox(key=f"{documents.K_PASSAGE}/long").value == 0
    assert at.selectbox(key=state.K_SPAN).value == "—"
