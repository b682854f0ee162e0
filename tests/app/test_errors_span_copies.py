"""Errors page and Documents page on spans a set gives twice (two identical copies): each copy is
counted, listed under the Documents page's own id (P1, P2: :class:`ui.results._SpanIds`) and
marked there by a category filter (bugleft24; the copies' ids are review19's)."""

from __future__ import annotations

import uuid

from core.analysis.errors import categorise
from core.model import AnnotationSet, Span
from core.render.highlight import span_items
from tests.app.conftest import app_on_workspace, corpus, frame_of, page_tables
from ui import errors as err_ui
from ui import state


def _copies() -> state.Workspace:
    """The hand-made gold with [35, 43) Loaded given twice, and a system giving the correct
    [4, 19) Loaded and the spurious [50, 60) Doubt twice each."""
    texts, (gold, _, _) = corpus()
    gold = AnnotationSet("gold", {**gold.spans,
                                  "doc1": (*gold.spans["doc1"], Span(35, 43, "Loaded"))}, "gold")
    twice = AnnotationSet("system_twice", {"doc1": (
        Span(4, 19, "Loaded"), Span(4, 19, "Loaded"), Span(50, 60, "Doubt"),
        Span(50, 60, "Doubt")), "doc2": (), "doc10": ()}, "system")
    report = state.FileReport("twice.json", "test", "gold", "twice", texts, (gold, twice))
    return state.build_workspace([report], key=f"test:copies:{uuid.uuid4().hex}",
                                 title="copies", shareable=False)


def test_each_copy_is_counted_as_the_core_counts_it() -> None:
    ws = _copies()
    at = app_on_workspace(ws, "pages/errors.py")
    (counts,) = [df for caption, df, _ in page_tables(at) if "per category" in caption]
    rows = counts.set_index("category")
    t = categorise(ws.sets["gold"], ws.sets["system_twice"])
    assert rows.loc["correct", "prediction"] == t.counts("prediction")["correct"] == 2
    assert rows.loc["spurious", "prediction"] == t.counts("prediction")["spurious"] == 2
    # 3 gold spans of doc1 untouched... [35, 43) twice among them, doc2's 2, doc10's 1
    assert rows.loc["missed", "reference"] == t.counts("reference")["missed"] == 5
    assert t.duplicates == {"reference": 1, "prediction": 2}


def test_the_span_list_names_each_copy_by_the_documents_pages_id() -> None:
    at = app_on_workspace(_copies(), "pages/errors.py")
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[3]
    at.run()
    for category, want in [
            ("correct", [("reference", "G1", False), ("prediction", "P1", False),
                         ("prediction", "P2", True)]),
            ("spurious", [("prediction", "P3", False), ("prediction", "P4", True)]),
            ("missed", [("reference", "G3", False), ("reference", "G4", True)])]:
        at.selectbox(key="err_list_category").select(category).run()
        assert not at.exception, [e.value for e in at.exception]
        table = frame_of(at, "decided by", "duplicate")
        table = table[table["document"] == "doc1"]
        assert list(zip(table["side"], table["id"], table["duplicate"], strict=True)) == want


def test_a_category_filter_marks_both_copies_on_the_documents_page() -> None:
    ws = _copies()
    at = app_on_workspace(ws, "pages/documents.py", params={"doc": "doc1", "b": "system_twice",
                                         err_ui.K_ERR_CATEGORY: "spurious"})
    items_a, items_b = (span_items(ws.sets["gold"], "doc1", "G"),
                        span_items(ws.sets["system_twice"], "doc1", "P"))
    _, cats = err_ui.span_categories(ws, "gold", "system_twice", 2, "doc1", items_a, items_b)
    assert {i for i, c in cats.items() if c == "spurious"} == {"P3", "P4"}
    assert {i for i, c in cats.items() if c == "correct"} == {"P1", "P2"}
    # the page's options name both copies, each selectable
    options = at.selectbox(key=state.K_SPAN).options
    assert {"P1", "P2", "P3", "P4"} <= {o.split()[0] for o in options}
