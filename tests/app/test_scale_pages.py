"""Pages on a corpus larger than any widget should list whole (3,000 documents): tables are
paginated with a "Rows a–b of n" caption, the per-text scatter draws a seeded random sample and
says so, and document pickers list a bounded window with a search box for the rest."""

from __future__ import annotations

import random

import pytest
from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_workspace, page_tables
from ui import annotators as ann
from ui import curation, doc_picker, documents, state
from ui import differences as diff
from ui import scores as scores_ui

N_DOCS = 3000
LABELS = ("Doubt", "Loaded", "Fear", "Slogans")


def _workspace() -> state.Workspace:
    rng = random.Random(0)
    texts: dict[str, str | None] = {}
    spans: dict[str, dict[str, tuple[Span, ...]]] = {n: {} for n in ("gold", "sys", "ann_1",
                                                                      "ann_2")}
    for i in range(N_DOCS):
        doc = f"doc{i}"
        texts[doc] = f"text number {i} " + "word " * 30
        for name, got in spans.items():
            if name == "ann_2" and i % 2:
                continue  # an annotator leaves every other document out: a long "missing" table
            out = []
            for _ in range(3):
                a = rng.randrange(0, 120)
                out.append(Span(a, a + rng.randrange(3, 30), rng.choice(LABELS)))
            got[doc] = tuple(out)
    roles = {"gold": "gold", "sys": "system", "ann_1": "annotator", "ann_2": "annotator"}
    sets = tuple(AnnotationSet(n, s, roles[n]) for n, s in spans.items())  # type: ignore[arg-type]
    report = state.FileReport("large.json", "test", "gold", "large", texts, sets)
    return state.build_workspace([report], key=f"test:scale{N_DOCS}", title="large",
                                 shareable=False)


@pytest.fixture(scope="module")
def large() -> state.Workspace:
    return _workspace()


def _open(ws: state.Workspace, page: str) -> AppTest:
    at = app_on_workspace(ws, page, timeout=180)
    return at


def _captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def test_the_scatter_draws_a_seeded_sample_and_says_so(large: state.Workspace) -> None:
    at = _open(large, "pages/differences.py")
    toggle = at.toggle(key=diff.K_DIFF_DRAW)
    assert "a random sample of the 3,000 texts" in toggle.label
    toggle.set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    want = f"Showing {diff.SCATTER_MAX:,} of {N_DOCS:,} texts (random sample, seed 0)."
    assert any(c.startswith(want) for c in _captions(at)), _captions(at)
    assert "Rows 1–50 of 3,000." in _captions(at)  # the table lists every text, paginated


def test_scores_data_and_errors_tables_are_paginated(large: state.Workspace) -> None:
    at = _open(large, "pages/scores.py")
    at.session_state[scores_ui.K_DETAIL_TAB] = "📄 Per document"  # lazy tabs: open it
    at.run()
    caption, rows, _ = page_tables(at)[0]  # the page's rows in the table's own caption
    assert caption.startswith("Rows 1–20 of 3,000.") and len(rows) == scores_ui.PER_DOC_ROWS
    at = _open(large, "pages/data.py")
    missing = N_DOCS // 2
    assert f"Rows 1–50 of {missing:,}." in _captions(at)  # documents missing from "ann_2"
    at.number_input(key="missing_page").set_value(3).run()
    assert f"Rows 101–150 of {missing:,}." in _captions(at)
    assert all(len(df.value) <= 50 for df in at.dataframe)
    from ui import errors as err_ui

    at = _open(large, "pages/errors.py")
    assert all(len(df.value) <= 50 for df in at.dataframe)
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[2]  # lazy tabs: the per-label table
    at.run()
    assert at.dataframe and all(len(df.value) <= 50 for df in at.dataframe)


@pytest.mark.parametrize(("page", "key"), [("pages/annotators.py", ann.K_ANN_DOC),
                                           ("pages/curation.py", curation.K_CUR_DOC)])
def test_document_pickers_list_a_window_and_search_the_rest(large: state.Workspace, page: str,
                                                            key: str) -> None:
    at = _open(large, page)
    if page == "pages/curation.py":
        from ui import curation as cur

        assert any("built when asked" in i.value for i in at.info)
        assert not [b for b in at.selectbox if b.key == key]  # nothing computed yet
        at.toggle(key=cur.K_CUR_BUILD).set_value(True).run()
        assert not at.exception, [e.value for e in at.exception]
        at.toggle(key=cur.K_CUR_WHOLE).set_value(True).run()  # the whole document, on demand
    else:  # the picker is on the tab of the documents by disagreement (lazy tabs)
        at.session_state[ann.K_ANN_TAB] = ann.TABS[2]
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    box = at.selectbox(key=key)
    # The window, and the document shown when it lies beyond (on Annotators the ranking's first,
    # once the measure's view has ranked the documents).
    window = list(box.options[:documents.DOC_WINDOW])
    assert window == [f"doc{i}" for i in range(documents.DOC_WINDOW)]
    assert list(box.options[documents.DOC_WINDOW:]) in ([], [box.value])
    assert f"the first {documents.DOC_WINDOW} of {N_DOCS:,} listed" in box.label
    at.text_input(key=doc_picker.search_key(key)).set_value("doc2999").run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.selectbox(key=key)
    assert box.options == ["doc2999"] and box.value == "doc2999"


def test_the_documents_selector_is_bounded(large: state.Workspace) -> None:
    at = _open(large, "pages/documents.py")
    assert len(at.selectbox(key=state.K_DOC).options) <= documents.DOC_CHOICES + 1
    assert all(len(df.value) <= documents.DOC_WINDOW + 1 for df in at.dataframe)


def test_documents_error_filters_wait_for_their_toggle(large: state.Workspace) -> None:
    from ui import errors as err_ui

    at = _open(large, "pages/documents.py")
    assert not [s for s in at.selectbox if s.key == err_ui.K_ERR_CATEGORY]
    at.toggle(key="doc_err_filter_on").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key=err_ui.K_ERR_CATEGORY).set_value("missed").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "missed" in at.selectbox(key=err_ui.K_ERR_CATEGORY).value


def test_one_documents_error_rows_equal_the_corpus_tables() -> None:
    from ui import errors as err_ui

    ws = state.load_sample("propaganda")
    whole, _ = err_ui.error_table(ws.key, ws, "gold", "system_a", 2)
    assert whole is not None
    for doc in ws.sets["gold"].doc_ids:
        one = err_ui.document_error_table(ws.key, ws, "gold", "system_a", 2, doc)
        assert one is not None
        assert one.spans == tuple(s for s in whole.spans if s.document == doc)


def test_errors_schemas_and_slices_wait_for_their_toggles(large: state.Workspace) -> None:
    from ui import errors as err_ui

    at = _open(large, "pages/errors.py")
    assert not [t for t in at.toggle if t.key == "err_schemas_on"]  # a closed lazy expander
    at.session_state[err_ui.K_ERR_SCHEMAS_OPEN] = True
    at.run()
    assert at.toggle(key="err_schemas_on").value is False
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[4]  # lazy tabs: the slices' tab
    at.run()
    assert at.toggle(key="err_slices_on").value is False
    charts = len(at.get("plotly_chart"))  # none until the toggle
    at.toggle(key="err_slices_on").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.get("plotly_chart")) == charts + 1


def test_the_per_document_tab_pages_sorts_and_downloads_the_whole_table(
        large: state.Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """One page of the per-document table as an HTML table (no data grid): 20 rows of the
    table sorted by the two widgets (ties by document id), which rows and in which order in its
    caption, the next page the next 50 rows, a score above 1 marked, the download the whole
    table in the same order, the link the first row's document."""
    downloads: dict[str, object] = {}
    real = scores_ui.download_menu

    def record(df, name, *, key, settings=None):  # -> None
        downloads[key] = df
        real(df, name, key=key, settings=settings)

    monkeypatch.setattr(scores_ui, "download_menu", record)
    at = _open(large, "pages/scores.py")
    at.session_state[scores_ui.K_DETAIL_TAB] = "📄 Per document"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [df for df in at.dataframe if "document" in df.value.columns]  # no grid
    whole = downloads["dl_per_doc"]
    assert len(whole) == N_DOCS and set(whole["document"]) == {f"doc{i}" for i in range(N_DOCS)}
    caption, page, marked = page_tables(at)[0]
    assert caption == "Rows 1–20 of 3,000. Sorted by F1, ascending, ties by document."
    assert list(page["document"]) == list(whole["document"][:20])
    assert list(page["F1"]) == pytest.approx(list(whole["F1"][:20]), abs=5e-5)
    assert list(whole["F1"]) == sorted(whole["F1"])
    ties = whole.groupby("F1", sort=False)["document"].apply(list)
    assert all(docs == sorted(docs, key=lambda d: int(d[3:])) for docs in ties)
    above = [(i, j) for i, row in enumerate(page.itertuples(index=False))
             for j, (column, value) in enumerate(zip(page.columns, row, strict=True))
             if column in ("P", "R", "F1") and value > 1]
    assert marked == above
    link = next(str(el.proto) for el in at.get("page_link") if "first document" in str(el.proto))
    assert f"doc={whole['document'].iloc[0]}" in link

    at.number_input(key=scores_ui.K_TABLE_PAGE).increment().run()
    caption, page, _ = page_tables(at)[0]
    assert caption.startswith("Rows 21–40 of 3,000.")
    assert list(page["document"]) == list(whole["document"][20:40])

    at.selectbox(key="doc_table_sort").set_value("P").run()
    at.toggle(key="doc_table_asc").set_value(False).run()
    whole = downloads["dl_per_doc"]
    caption, page, _ = page_tables(at)[0]
    assert caption == "Rows 21–40 of 3,000. Sorted by P, descending, ties by document."
    assert list(whole["P"]) == sorted(whole["P"], reverse=True)
    assert list(page["document"]) == list(whole["document"][20:40])
