"""Documents page: URL parameters select the view; file text and labels reach the page escaped."""

from __future__ import annotations

import pytest

from core.metrics import registry
from core.render import highlight
from ui import documents, sidebar, state


def _html(at) -> str:
    return "\n".join(h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT)


def _open_list(at):
    """Opens the list of documents (a lazy expander, closed at first), as a click does."""
    at.session_state[documents.K_DOC_LIST] = True
    at.session_state[f"{documents.K_DOC_LIST}_kept"] = True  # what its on_change keeps
    return at.run()


def _listed(at) -> list[str]:
    """The documents the open list shows, in its order."""
    return list(next(df.value for df in at.dataframe if "missed" in df.value.columns)
                ["document"])


@pytest.mark.slow
def test_query_parameters_select_document_sets_and_metric(make_app) -> None:
    at = make_app("pages/documents.py",
                  params={"doc": "doc2", "a": "gold", "b": "system_b", "metric": "mafalda",
                          "level": "1"})
    assert not at.exception
    assert at.selectbox(key=state.K_DOC).value == "doc2"
    assert at.selectbox(key=state.K_SET_B).value == "system_b"
    assert at.radio(key=state.K_METRIC).value == "mafalda"
    # the hand-made labels have no levels: no level control, the URL's level is not used
    # (ui.levels; the MAFALDA sample's pages test the levels)
    assert state.K_LEVEL not in [s.key for s in at.selectbox]
    assert 'id="right-doc"' in _html(at) and "Doubt" in _html(at)


def test_markup_in_text_and_labels_is_rendered_as_text(make_app) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc10"})
    body = _html(at)
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in body
    assert "&lt;img src=x onerror=alert(1)&gt;" in body
    assert "<script" not in body and "<img" not in body
    assert "&lt;b&gt;bold&lt;/b&gt;" in body  # the label


def test_search_filters_documents_by_text(make_app) -> None:
    at = make_app("pages/documents.py")
    at.text_input(key=state.K_DOC_QUERY).input("fear sells").run()
    assert at.selectbox(key=state.K_DOC).options == ["doc2"]


def test_disagreement_order_puts_the_least_matched_document_first(make_app) -> None:
    at = make_app("pages/documents.py")
    at.selectbox(key=state.K_DOC_SORT).select("disagreement").run()
    assert not at.exception
    # gold vs system_a: doc2 is matched on [0,10) only, doc1 and doc10 partly; see conftest.
    from core.render.highlight import span_items
    from core.render.segments import disagreement

    ws = at.session_state[state.K_UPLOAD_WS]
    gold, sys_a = ws.sets["gold"], ws.sets["system_a"]
    expected = sorted(ws.corpus.doc_ids, key=lambda d: -disagreement(
        [i.as_alt() for i in span_items(gold, d, "G")],
        [i.as_alt() for i in span_items(sys_a, d, "P")], len(ws.corpus.texts[d])))
    assert at.selectbox(key=state.K_DOC).options == expected


def test_selecting_a_span_marks_it_in_the_rendering(make_app) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc1"})
    at.selectbox(key=state.K_SPAN).select("G2").run()
    assert not at.exception
    # Bold (800) through the class ss-on of highlight.compact_css, drawn once for the page.
    assert '<span class="ss-tag ss-on" dir="ltr" data-span="G2" title="Doubt"' in _html(at)
    assert ".ss-c .ss-tag.ss-on{font-weight:800}" in _html(at)


def test_selected_span_shows_the_pairs_core_computes(make_app, handmade, frame) -> None:
    from core.metrics import martino
    at = make_app("pages/documents.py", params={"doc": "doc1", "b": "system_a",
                                                 documents.K_DOC_TAB: documents.DOC_TABS[1]})
    at.selectbox(key=state.K_SPAN).select("G1").run()
    assert not at.exception, [e.value for e in at.exception]
    _, sets = handmade
    rows = [r for r in martino.contributions(sets[0], sets[1], doc="doc1")
            if r.gold is not None and (r.gold.start, r.gold.end) == (4, 19)]
    shown = frame(at, "gold", "pred", "C(s,t,|s|)")
    pairs = shown[shown["gold"] == "G1"]
    assert len(pairs) == len(rows) >= 1
    assert sorted(pairs["C(s,t,|t|)"]) == pytest.approx(sorted(r.contribution_r for r in rows))
    assert sorted(pairs["|s∩t|"]) == sorted(r.intersection for r in rows)


def test_selecting_a_span_marks_its_partners_in_the_other_set(make_app) -> None:
    at = make_app("pages/documents.py", params={"doc": "doc1", "b": "system_a"})
    at.selectbox(key=state.K_SPAN).select("G1").run()
    # G1 [4, 19) Loaded overlaps P1 [4, 15) Loaded: P1's tag is drawn bold on the right.
    assert '<span class="ss-tag ss-on" dir="ltr" data-span="P1" title="Loaded"' in _html(at)
    assert '<span class="ss-tag" dir="ltr" data-span="P2" title="Doubt"' in _html(at)


def test_next_and_previous_step_through_the_order_and_stop_at_the_ends(make_app) -> None:
    at = make_app("pages/documents.py")
    assert at.selectbox(key=state.K_DOC).value == "doc1"
    assert at.button(key="doc_prev").disabled
    at.button(key="doc_next").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc2"  # natural order: doc2 before doc10
    at.button(key="doc_next").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc10"
    assert at.button(key="doc_next").disabled
    at.button(key="doc_prev").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc2"
    assert not at.exception


def test_document_table_lists_every_document_with_counts_and_a_snippet(make_app) -> None:
    at = _open_list(make_app("pages/documents.py"))
    table = next(df.value for df in at.dataframe if "missed" in df.value.columns)
    assert list(table["document"]) == ["doc1", "doc2", "doc10"]
    row = table.set_index("document").loc["doc1"]
    # gold doc1: Loaded [4,19), Doubt [10,15), Loaded [35,43); system_a: Loaded [4,15),
    # Doubt [50,60). Missed (the Errors category: no prediction overlaps it): Loaded [35,43)
    # alone; Doubt [10,15) overlaps P1 (boundary+label). Spurious: Doubt [50,60).
    assert row["missed"] == 1 and row["spurious"] == 1
    assert row["text"].startswith("The quick brown fox")


def test_document_rows_kept_per_pair_equal_a_fresh_table(make_app) -> None:
    # Issue 29, fifth pass: each listed document's counts are kept per pair, so another
    # order or filter lists them without computing them again; the table is the same.
    import pandas as pd

    from ui import documents

    at = make_app("pages/documents.py")
    ws = at.session_state[state.K_UPLOAD_WS]
    args = ("gold", "system_a")
    documents.document_table(ws.key, ws, *args, ("doc10", "doc1"), "martino", "semeval2021",
                             None)
    kept = documents.document_table(ws.key, ws, *args, ("doc2", "doc1", "doc10"), "martino",
                                    "semeval2021", None)
    documents.document_table.clear()
    documents._document_counts.clear()
    fresh = documents.document_table(ws.key, ws, *args, ("doc2", "doc1", "doc10"), "martino",
                                     "semeval2021", None)
    pd.testing.assert_frame_equal(kept, fresh)
    assert list(fresh["document"]) == ["doc2", "doc1", "doc10"]


@pytest.mark.parametrize("level", [2, 0])
def test_a_filtered_list_counts_from_the_corpus_table_as_each_document_alone(level) -> None:
    # Issue 29, eighth pass: a list filtered by an error category takes every document's
    # missed and spurious counts from the corpus's error table (computed for the filter)
    # instead of categorising each listed document alone; the counts and the table are the
    # same.
    import pandas as pd

    from ui import errors as err_ui

    ws = state.load_sample("propaganda")
    totals = [0, 0]
    for system in ("system_a", "system_b", "annotator_1", "annotator_2"):
        counts = err_ui.missed_and_spurious(ws.key, ws, "gold", system, level)
        assert counts is not None
        docs = [*ws.sets["gold"].doc_ids, "not a document"]
        for doc in docs:
            one = err_ui.document_error_table(ws.key, ws, "gold", system, level, doc)
            assert one is not None
            assert counts(doc) == (one.counts("reference")["missed"],
                                   one.counts("prediction")["spurious"]), (system, doc)
        args = (ws.key, ws, "gold", system, tuple(ws.sets["gold"].doc_ids), "mafalda", None,
                level)
        documents.document_table.clear()
        documents._document_counts.clear()
        filtered = documents.document_table(*args, True)
        documents.document_table.clear()
        documents._document_counts.clear()
        alone = documents.document_table(*args)
        pd.testing.assert_frame_equal(filtered, alone)
        totals[0] += int(filtered["missed"].sum())
        totals[1] += int(filtered["spurious"].sum())
    assert totals[0] > 0 and totals[1] > 0  # both counts compared, not zeros alone


def test_the_list_and_the_picker_offer_the_same_documents_past_the_window(
        make_app, monkeypatch) -> None:
    # Issue 29, sixth pass: the list is drawn above the picker, outside the fragment a
    # document switch reruns; a step past the window's end reruns the whole page, so the list
    # names the new document as the picker does (the window shrunk to two documents here).
    from ui import documents

    monkeypatch.setattr(documents, "DOC_WINDOW", 2)
    monkeypatch.setattr(documents, "DOC_CHOICES", 2)
    at = _open_list(make_app("pages/documents.py"))

    assert at.selectbox(key=state.K_DOC).options == _listed(at) == ["doc1", "doc2"]
    at.button(key="doc_next").click().run()
    at.button(key="doc_next").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc10"
    assert at.selectbox(key=state.K_DOC).options == _listed(at) == ["doc1", "doc2", "doc10"]
    at.button(key="doc_prev").click().run()
    assert at.selectbox(key=state.K_DOC).options == _listed(at) == ["doc1", "doc2"]
    assert not at.exception


def test_the_selector_lists_fewer_documents_than_the_list(make_app, monkeypatch) -> None:
    # Issue 29, eleventh pass: the selector is drawn again on every switch and its cost in the
    # browser grows with its options, so it lists the first DOC_CHOICES documents (plus the one
    # shown) while the list keeps DOC_WINDOW; a step within the list but past the selector's
    # window adds that document to the selector alone, and the list stays as it was.
    from ui import documents

    monkeypatch.setattr(documents, "DOC_WINDOW", 3)
    monkeypatch.setattr(documents, "DOC_CHOICES", 1)
    at = _open_list(make_app("pages/documents.py"))

    box = at.selectbox(key=state.K_DOC)
    assert box.options == ["doc1"] and _listed(at) == ["doc1", "doc2", "doc10"]
    assert "the first 1 in this order are listed, search for others" in box.label
    at.button(key="doc_next").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc2"
    assert at.selectbox(key=state.K_DOC).options == ["doc1", "doc2"]
    assert _listed(at) == ["doc1", "doc2", "doc10"]
    assert "Both annotations of document doc2, side by side" in _html(at)
    at.button(key="doc_prev").click().run()
    assert at.selectbox(key=state.K_DOC).options == ["doc1"]
    assert not at.exception


def test_a_deep_link_past_the_window_is_listed_and_picked(make_app, monkeypatch) -> None:
    from ui import documents

    monkeypatch.setattr(documents, "DOC_WINDOW", 1)
    monkeypatch.setattr(documents, "DOC_CHOICES", 1)
    at = make_app("pages/documents.py", params={"doc": "doc10"})
    assert at.selectbox(key=state.K_DOC).value == "doc10"
    assert at.selectbox(key=state.K_DOC).options == ["doc1", "doc10"]
    assert 'id="left-doc"' in _html(at)
    assert not at.exception


def test_only_the_open_tab_is_drawn_and_a_switch_keeps_it(make_app) -> None:
    # Lazy tabs (docs/performance.md, "the Documents page draws less per switch"): the
    # highlights first; the contributions and the scores drawn only when their tab is open.
    at = make_app("pages/documents.py", params={"doc": "doc1", "b": "system_a"})
    assert at.session_state[documents.K_DOC_TAB] == documents.DOC_TABS[0]
    assert 'id="left-doc"' in _html(at) and 'id="right-doc"' in _html(at)
    assert "<strong>Merged view</strong>" in _html(at)
    assert not at.dataframe  # the list (closed at first) and the tables are not drawn
    at.selectbox(key=state.K_SPAN).select("G1").run()  # its pairs: named, one click away
    assert ("and the spans it forms pairs with; what each pair contributes: tab "
            f"{documents.DOC_TABS[1]}.") in _html(at)
    at.session_state[documents.K_DOC_TAB] = documents.DOC_TABS[1]
    at.run()
    assert 'id="left-doc"' not in _html(at)
    assert any(m.value == "**Every pair of document doc1**" for m in at.markdown)
    assert any("C(s,t,|s|)" in df.value.columns for df in at.dataframe)
    at.selectbox(key=state.K_DOC).select("doc2").run()  # a switch keeps the open tab
    assert not at.exception, [e.value for e in at.exception]
    assert any(m.value == "**Every pair of document doc2**" for m in at.markdown)
    at.session_state[documents.K_DOC_TAB] = documents.DOC_TABS[2]
    at.run()
    assert any("metric" in df.value.columns for df in at.dataframe)
    assert not any("C(s,t,|s|)" in df.value.columns for df in at.dataframe)


def test_the_first_screen_holds_the_document_and_the_list_closed(make_app) -> None:
    # Issue 29, seventh pass (docs/performance.md): a visit draws the picker and the
    # document's highlights; the list's grid, the costliest element to draw again on every
    # visit, waits in a closed expander that names what it lists.
    at = make_app("pages/documents.py", params={"b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert not at.dataframe
    (listing,) = [e for e in at.expander if "Documents in this order" in e.label]
    assert "3 listed" in listing.label and "F1" in listing.label
    assert at.session_state[documents.K_DOC_LIST] is False
    assert at.selectbox(key=state.K_DOC).options == ["doc1", "doc2", "doc10"]
    assert 'id="left-doc"' in _html(at) and 'id="right-doc"' in _html(at)


def test_an_opened_list_stays_open_on_a_return_to_the_page(make_app) -> None:
    at = _open_list(make_app("pages/documents.py"))
    assert [df.key for df in at.dataframe] == [documents.K_DOC_TABLE]
    at.switch_page("pages/data.py").run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [df.key for df in at.dataframe] == [documents.K_DOC_TABLE]


def test_a_filtered_list_opens_at_once(make_app) -> None:
    # A link from the Errors page (a category, a label or a bucket) comes to see its list.
    at = make_app("pages/documents.py", params={"ecat": "boundary", "b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[documents.K_DOC_LIST] is True
    table = next(df.value for df in at.dataframe if "missed" in df.value.columns)
    assert list(table["document"]) == at.selectbox(key=state.K_DOC).options

def test_a_link_to_a_document_the_filters_exclude_opens_it_and_clears_them(make_app) -> None:
    # Tour finding 1: Errors left "missed" selected; a link from Metric differences or Labels
    # then named doc10 (no missed span) and the page showed the filter's first document.
    from ui import errors as err_ui

    at = make_app("pages/documents.py", params={err_ui.K_ERR_CATEGORY: "missed"})
    assert at.selectbox(key=state.K_DOC).options == ["doc1", "doc2"]
    at.switch_page("pages/differences.py").run()
    at.session_state[state.K_DOC] = "doc10"  # what ui.differences and ui.labels set
    at.query_params[state.K_DOC] = "doc10"
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=state.K_DOC).value == "doc10"
    assert at.selectbox(key=err_ui.K_ERR_CATEGORY).value == err_ui.ALL
    assert at.query_params.get(err_ui.K_ERR_CATEGORY) in (None, [], [err_ui.ALL])
    assert any("doc10" in n.value and "missed" in n.value for n in at.info)
    # Filtering on the page itself still moves to the filter's first document.
    at.selectbox(key=err_ui.K_ERR_CATEGORY).select("missed").run()
    assert at.selectbox(key=state.K_DOC).value == "doc1"
    assert not at.info or not any("doc10" in n.value for n in at.info)


def test_a_url_link_to_an_excluded_document_opens_it_too(make_app) -> None:
    # Tour finding 1, the links that carry the document in the URL alone (st.page_link:
    # Scores, Annotators, Labels): they behave as the session-state links above.
    from ui import errors as err_ui

    at = make_app("pages/documents.py", params={err_ui.K_ERR_CATEGORY: "missed"})
    assert at.selectbox(key=state.K_DOC).value == "doc1"
    at.switch_page("pages/scores.py").run()
    at.query_params[state.K_DOC] = "doc10"
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=state.K_DOC).value == "doc10"
    assert at.selectbox(key=err_ui.K_ERR_CATEGORY).value == err_ui.ALL


def test_the_lists_missed_and_spurious_columns_agree_with_the_errors_filter(make_app) -> None:
    # Tour finding 2: the list counted "no same-label prediction overlaps" while the Errors
    # categories and the filter count "no prediction overlaps"; one definition now.
    from ui import errors as err_ui

    at = _open_list(make_app("pages/documents.py", params={"b": "system_b"}))
    table = next(df.value for df in at.dataframe if "missed" in df.value.columns)
    ws = at.session_state[state.K_UPLOAD_WS]
    for category in ("missed", "spurious"):
        listed = set(table.loc[table[category] > 0, "document"])
        assert listed == set(err_ui.documents_with(ws, "gold", "system_b", 2, category, err_ui.ALL))
    # system_b's doc2 Doubt [5,30) overlaps both Fear spans: nothing missed there.
    assert table.set_index("document").loc["doc2", "missed"] == 0


def test_the_lists_ticked_row_never_names_another_document_than_the_shown_one(make_app) -> None:
    # Tour finding 10: row doc1 clicked, then Next: doc2 shown, row doc1 stayed ticked.
    at = _open_list(make_app("pages/documents.py"))
    at.session_state[documents.K_DOC_TABLE] = {"selection": {"rows": [0], "columns": [],
                                                             "cells": []}}
    at.run()
    assert at.selectbox(key=state.K_DOC).value == "doc1"
    assert list(at.session_state[documents.K_DOC_TABLE]["selection"]["rows"]) == [0]
    at.button(key="doc_next").click().run()
    assert at.selectbox(key=state.K_DOC).value == "doc2"
    assert list(at.session_state[documents.K_DOC_TABLE]["selection"]["rows"]) == []
    at.session_state[documents.K_DOC_TABLE] = {"selection": {"rows": [1], "columns": [],
                                                             "cells": []}}
    at.run()
    at.selectbox(key=state.K_DOC).select("doc10").run()  # the picker too
    assert list(at.session_state[documents.K_DOC_TABLE]["selection"]["rows"]) == []
    assert not at.exception


def test_the_url_carries_the_search_and_the_order(make_app) -> None:
    # Tour finding 8: a search and an order stayed in the session; the URL did not reproduce
    # the view. Both are bound to the URL now (the order as it is shown).
    at = make_app("pages/documents.py")
    at.text_input(key=state.K_DOC_QUERY).input("fear").run()
    at.selectbox(key=state.K_DOC_SORT).select("disagreement").run()
    assert at.query_params[state.K_DOC_QUERY] == "fear"
    assert at.query_params[state.K_DOC_SORT] == documents.DOC_SORTS["disagreement"]
    again = make_app("pages/documents.py", params={
        state.K_DOC_QUERY: "o", state.K_DOC_SORT: documents.DOC_SORTS["disagreement"]})
    assert again.text_input(key=state.K_DOC_QUERY).value == "o"
    assert again.selectbox(key=state.K_DOC_SORT).value == "disagreement"
    assert not again.exception


def test_a_selected_spans_pairs_and_the_filters_spans_have_cues_of_their_own(make_app) -> None:
    # Tour finding 15: with G1 selected and the filter "missed" on, G3 (missed, no pair of G1)
    # was tinted and bolded as G1's pairs are, under a caption naming G1's pairs alone.
    from ui import errors as err_ui

    at = make_app("pages/documents.py", params={"doc": "doc1", "b": "system_a",
                                                 err_ui.K_ERR_CATEGORY: "missed"})
    at.selectbox(key=state.K_SPAN).select("G1").run()
    body = _html(at)
    left = body[body.index('id="left-doc"'):body.index('id="right-doc"')]
    # G3 [35,43) Loaded is missed: outlined, its tag underlined, not tinted or bold.
    assert ('<span class="ss-tag ss-kept" dir="ltr" data-span="G3" title="Loaded" '
            'style="background:') in left
    g3 = left[left.rindex('<span class="ss-seg', 0, left.index('data-span="G3"')):]
    g3 = g3[:g3.index(">")]
    assert g3.startswith('<span class="ss-seg ss-kept"') and "rgba(255,220,0,0.35)" not in g3
    # The classes' cues: the kept segment outlined, dashed; the kept tag underlined, dashed.
    assert ".ss-c .ss-seg.ss-kept{outline:1px dashed" in body
    assert ".ss-c .ss-tag.ss-kept{text-decoration:underline dashed}" in body
    # P1 is G1's pair: bold and tinted, and not outlined (not missed).
    right = body[body.index('id="right-doc"'):]
    assert '<span class="ss-tag ss-on" dir="ltr" data-span="P1" title="Loaded"' in right
    # the captions of both cues, in the element of the texts they explain
    assert '<p class="ss-cap">Tinted yellow, tag in bold: G1 [' in body
    assert '<p class="ss-cap">Dashed outline, tag underlined:' in body


def test_the_highlights_are_one_element_with_their_headings_legends_and_captions(
        make_app) -> None:
    """Both sets side by side and the merged view, with their headings, set names, legends and
    captions, are one HTML element (docs/performance.md, issue 29, twelfth pass): a document
    switch reconciles one element where it drew eleven, the same content in the same order."""
    at = make_app("pages/documents.py", params={"doc": "doc2"})
    assert not at.exception
    bodies = [h.proto.body for h in at.html if h.proto.body not in (
        sidebar.SCRIPT, highlight.compact_css())
              and not h.proto.body.startswith('<div class="ss-caption">')]  # the stepper's
    (body,) = bodies
    order = ["Both annotations of document doc2, side by side", 'class="ss-legend ss-c"',
             "ss-cat-legend", 'class="ss-pair"', "<strong>gold</strong> (gold) · 2 span(s)",
             'id="left-doc"', "<strong>system_a</strong> (system) · ", 'id="right-doc"',
             "<strong>Merged view</strong>", "missed (gold only)", 'id="merged"',
             " chars", "Export this document"]
    at_ = [body.index(part) for part in order]
    assert at_ == sorted(at_)
    assert body.count("ss-legend") == 3  # labels, categories, statuses
    # nothing of it drawn as Markdown any more
    assert not any("Both annotations" in m.value or "Merged view" in m.value
                   or "span(s)" in m.value for m in at.markdown)
    assert not any(" chars" in c.value or "Export this document" in c.value for c in at.caption)
    assert [h.proto.body for h in at.html].count(highlight.compact_css()) == 1  # their style
    css = highlight.compact_css()
    # two columns, one on a narrow screen (as Streamlit's columns stack)
    assert ".ss-pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr)" in css
    assert "@media (max-width:640px){.ss-pair{grid-template-columns:minmax(0,1fr)}}" in css


def test_the_highlights_are_built_once_per_document_and_view(make_app) -> None:
    """A document shown again (back to it, or the page drawn again) takes its HTML from the
    cache; another document, or another span selected, builds it."""
    documents._highlights_html.clear()
    built = documents.HTML_BUILDS["highlights"]
    at = make_app("pages/documents.py", params={"doc": "doc1"})
    first = _html(at)
    assert documents.HTML_BUILDS["highlights"] == built + 1
    at.button(key="doc_next").click().run()  # doc2: built
    assert documents.HTML_BUILDS["highlights"] == built + 2
    at.button(key="doc_prev").click().run()  # doc1 again: from the cache, the same HTML
    assert documents.HTML_BUILDS["highlights"] == built + 2
    assert _html(at) == first
    at.selectbox(key=state.K_SPAN).select("G1").run()  # another mark: built
    assert documents.HTML_BUILDS["highlights"] == built + 3
    assert 'class="ss-tag ss-on"' in _html(at)
    assert not at.exception


def test_the_highlights_escape_the_document_id_and_every_text(make_app) -> None:
    """The headings and captions are HTML now, not Markdown: every name and text escaped."""
    from core.metrics import registry

    at = make_app("pages/documents.py", params={"doc": "doc10"})
    ws = at.session_state[state.K_UPLOAD_WS]
    view = documents.View("gold", "system_a", "martino", registry.get("martino"), None, None)
    items = highlight.span_items(ws.sets["gold"], "doc10", "G")
    hostile = '<img src=x onerror=alert(1)>"'
    shown = documents.Shown(hostile, ws.corpus.texts["doc10"], items, [], {}, items[0].id,
                            {items[0].id: f"{items[0].id} <b>bold</b>"}, None, (), {}, {},
                            (items[0].id,))
    body = documents.side_by_side(ws, view, shown) + documents.merged_view(ws, view, shown)
    assert "<img" not in body and "<b>bold" not in body and "<script" not in body
    assert "document &lt;img src=x onerror=alert(1)&gt;&quot;, side by side" in body
    assert f"{items[0].id} &lt;b&gt;bold&lt;/b&gt;" in body


def test_two_passages_with_the_same_text_keep_their_own_spans() -> None:
    """A long document that repeats a block: two passages of the same text whose spans sit at
    other places are two builds, each drawing its own spans (not the first's from the cache)."""
    documents._highlights_html.clear()
    ws = state.load_sample(state.sample_names()[0])
    set_a, set_b = list(ws.sets)[:2]
    metric = registry.span_metrics()[0]
    view = documents.View(set_a, set_b, metric.name, metric, metric.default_variant, None)
    text = "Vote no. " * 10

    def drawn(start: int, end: int) -> str:
        item = highlight.SpanItem("G1", start, end, ("X",))
        shown = documents.Shown("d1", text, [item], [], {"X": "#0072b2"}, None, {}, None, (),
                                {}, {})
        return documents.highlights_html(ws, view, shown)

    built = documents.HTML_BUILDS["highlights"]
    first, second = drawn(0, 4), drawn(9, 13)
    assert documents.HTML_BUILDS["highlights"] == built + 2
    assert first != second
    assert drawn(0, 4) == first and documents.HTML_BUILDS["highlights"] == built + 2
