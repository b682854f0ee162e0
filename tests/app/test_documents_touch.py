"""The Documents page on a touch screen (tour 7 item 8): the stepper's caption names no
keyboard keys (the buttons carry them, in their labels and help)."""

from __future__ import annotations

from tests.app.conftest import plain_texts


def test_the_stepper_caption_names_no_keys(make_app) -> None:
    at = make_app("pages/documents.py")
    assert not at.exception, [e.value for e in at.exception]
    # plain HTML, not st.caption (issue 29, twentieth pass: ui.plain)
    captions = [c for c in plain_texts(at.main) if "in this order" in c
                and c.startswith("Document ")]
    assert captions and not any("key" in c for c in captions)
    buttons = {b.key: b for b in at.button if b.key in ("doc_prev", "doc_next")}
    assert "key P" in buttons["doc_prev"].help and "key N" in buttons["doc_next"].help
