"""Documents page with three sets: it lists the documents of the pair compared, not a third
set's (the tour's doccano admin / admin_perturbed pair, 36 documents each, listed 44: the other
8 were a brat annotator's)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from tests.app.conftest import plain_texts
from ui import state

from .conftest import APP


def _workspace() -> state.Workspace:
    texts: dict[str, str | None] = {
        "r1": "Soup was cold.", "r2": "Nice bread here.",
        "n7": "Gazprom bought Sibneft.", "t9": "A text no set annotates.",
    }
    gold = AnnotationSet("admin", {"r1": (Span(0, 4, "FOOD"),), "r2": (Span(5, 10, "FOOD"),)},
                         "gold")
    pred = AnnotationSet("admin_perturbed", {"r1": (Span(0, 4, "FOOD"),), "r2": ()}, "system")
    other = AnnotationSet("rured", {"n7": (Span(0, 7, "ORG"),)}, "annotator")
    report = state.FileReport("three.json", "test", "gold", "three", texts, (gold, pred, other))
    return state.build_workspace([report], key="test:three-sets", title="three sets",
                                 shareable=False)


def _documents(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = _workspace()
    at.run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_list_holds_the_pairs_documents_and_names_the_third_sets_left_out() -> None:
    at = _documents({"a": "admin", "b": "admin_perturbed"})
    picker = at.selectbox(key=state.K_DOC)
    # r2 has no span in admin_perturbed but is its document; t9 no set holds: a text of the
    # corpus, listed; n7 only rured holds: not listed
    assert picker.label.startswith("Document (all 3)")
    assert set(picker.options) == {"r1", "r2", "t9"}
    captions = " ".join(plain_texts(at.main))  # plain HTML (ui.plain), not escaped Markdown
    assert "Not listed: documents only other sets hold (1 of rured)" in captions


def test_a_link_to_a_document_of_a_third_set_says_why_it_does_not_open() -> None:
    at = _documents({"a": "admin", "b": "admin_perturbed", "doc": "n7"})
    notes = " ".join(i.value for i in at.info).replace("\\", "")
    assert "Document n7 is not listed: neither admin nor admin_perturbed holds it" in notes
    assert "rured does" in notes
    assert at.selectbox(key=state.K_DOC).value in {"r1", "r2", "t9"}


def test_a_pair_holding_the_document_lists_it() -> None:
    at = _documents({"a": "admin", "b": "rured", "doc": "n7"})
    assert at.selectbox(key=state.K_DOC).value == "n7"
    assert not any("Not listed" in c.value for c in at.caption)
