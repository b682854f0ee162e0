"""Labels page: the matrices and the span pairs it shows are the ones core.metrics.labels
computes; chart and table selections are injected as the browser would send them."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.metrics import labels as core_labels
from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_workspace
from ui import labels as lab_ui
from ui import results, sidebar, state

PAGE = "pages/labels.py"


def _click(at: AppTest, row: str, column: str) -> AppTest:
    """Inject the heatmap selection a click on cell (row, column) produces, then rerun."""
    at.session_state[lab_ui.K_LAB_CHART] = {
        "selection": {lab_ui.CELL_PARAM: [{"row": row, "column": column}]}}
    return at.run()


def _pairs(at: AppTest, frame):  # -> pandas.DataFrame
    return frame(at, "document", "|s∩t|")


def _sample(name: str) -> state.Workspace:
    return state.build_workspace(state.sample_reports(name), key=f"sample:{name}", title=name,
                                 shareable=True)


def _ws(at: AppTest) -> state.Workspace:
    return at.session_state[state.K_UPLOAD_WS]


@pytest.mark.parametrize("data", ["handmade", "sample", "empty"])
def test_page_runs_on_handmade_sample_and_empty_data(make_app, data: str) -> None:
    at = make_app(PAGE, data=data)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "🏷️ Labels"


def test_empty_start_points_to_the_data_page(make_app) -> None:
    at = make_app(PAGE, data="empty")
    assert any("No annotation set" in i.value for i in at.info)
    assert any("data" in str(p.proto.page).lower() for p in at.main.get("page_link"))


def test_clicked_cell_lists_the_pairs_core_computes(make_app, frame) -> None:
    at = _click(make_app(PAGE, params={"b": "system_a"}), "Doubt", "Loaded")
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=lab_ui.K_LAB_CELL).value == ("Doubt", "Loaded")
    ws = _ws(at)
    m = core_labels.confusion(ws.sets["gold"], ws.sets["system_a"])
    (ev,) = m.evidence[("Doubt", "Loaded")]
    shown = _pairs(at, frame)
    # By hand (tests/app/conftest.py): gold Doubt [10, 15) "brown" overlaps the predicted
    # Loaded [4, 15) "quick brown" on 5 characters; both are the first spans of doc1's sets
    # that start there (G2, P1 on the Documents page).
    assert shown.to_dict("records") == [{
        "document": "doc1", "gold id": "G2", "gold span": "[10, 15) Doubt",
        "gold text": "brown", "predicted id": "P1", "predicted span": "[4, 15) Loaded",
        "predicted text": "quick brown", "|s∩t|": 5}]
    assert (ev.document, ev.row[0].interval, ev.column[0].interval, ev.overlap) == (
        "doc1", (10, 15), (4, 15), 5)
    assert any("**1** of **1**" in md.value for md in at.markdown)


@pytest.mark.slow
def test_missed_and_spurious_cells_list_spans_without_partner(make_app, frame) -> None:
    at = _click(make_app(PAGE, params={"b": "system_a"}), "Fear", core_labels.MISSED)
    shown = _pairs(at, frame)
    assert shown[["document", "gold span", "predicted span", "|s∩t|"]].to_dict("records") == [
        {"document": "doc2", "gold span": "[12, 44) Fear", "predicted span": "", "|s∩t|": 0}]
    at = _click(at, core_labels.SPURIOUS, "Doubt")
    shown = _pairs(at, frame)
    assert shown[["document", "gold span", "predicted span"]].to_dict("records") == [
        {"document": "doc1", "gold span": "", "predicted span": "[50, 60) Doubt"}]


def test_cell_selector_is_the_keyboard_way_to_a_cell(make_app, frame) -> None:
    at = make_app(PAGE, params={"b": "system_a"})
    box = at.selectbox(key=lab_ui.K_LAB_CELL)
    ws = _ws(at)
    m = core_labels.confusion(ws.sets["gold"], ws.sets["system_a"])
    # Every non-empty cell is offered, most counts first.
    assert box.options[1:] == [lab_ui.cell_option(m, c) for c in lab_ui.cell_options(m)]
    at = box.select(("Loaded", "Loaded")).run()
    shown = _pairs(at, frame)
    assert list(shown["gold span"]) == ["[4, 19) Loaded"]
    assert list(shown["predicted span"]) == ["[4, 15) Loaded"]


def test_query_parameters_choose_view_scope_values_and_level(make_app, frame) -> None:
    at = make_app(PAGE, params={"lview": "within reference", "lscope": "overlap",
                                "lvalues": "row-normalised", "level": "1", "b": "system_a"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=lab_ui.K_LAB_VIEW).value == "within reference"
    assert at.radio(key=lab_ui.K_LAB_SCOPE).value == "overlap"
    assert at.radio(key=lab_ui.K_LAB_VALUES).value == "row-normalised"
    # labels without levels (ui.levels): no level control and no MAFALDA wording; the URL's
    # level is not used
    assert state.K_LEVEL not in [s.key for s in at.selectbox]
    assert not any("flat taxonomy" in c.value or "MAFALDA" in c.value for c in at.caption)
    ws = _ws(at)
    m = core_labels.cooccurrence(ws.sets["gold"], scope="overlap", level=2,
                                 taxonomy=results.taxonomy_for(ws, "gold", "system_a"))
    freq = core_labels.row_frequencies(m.counts, m.row_totals)
    assert not [d for d in at.dataframe if "row total" in d.value.columns]  # closed: not drawn
    at.session_state[lab_ui.K_LAB_TABLE] = True  # open "The matrix as a table"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    wide = frame(at, "row", "row total")
    # gold doc1: Loaded [4, 19) overlaps Doubt [10, 15): half of the two Loaded spans, all of
    # the one Doubt span.
    assert freq == {("Doubt", "Loaded"): 1.0, ("Loaded", "Doubt"): 0.5}
    by_row = wide.set_index("row")
    assert by_row.loc["Loaded", "Doubt"] == 0.5 and by_row.loc["Doubt", "Loaded"] == 1.0
    assert list(by_row["row total"]) == [m.row_totals[r] for r in m.rows]


def test_within_compared_counts_the_compared_set(make_app, frame) -> None:
    at = make_app(PAGE, params={"lview": "within compared", "lscope": "text", "b": "system_a"})
    # system_a doc1 holds Loaded and Doubt.
    at = _click(at, "Loaded", "Doubt")
    shown = frame(at, "document", "shared chars")
    assert shown[["document", "row label id", "row label span", "column label id"]].to_dict(
        "records") == [{"document": "doc1", "row label id": "P1",
                        "row label span": "[4, 15) Loaded", "column label id": "P2"}]


@pytest.mark.slow
def test_selecting_a_pair_opens_its_document_with_the_gold_span(make_app) -> None:
    at = _click(make_app(PAGE, params={"b": "system_a"}), "Doubt", "Loaded")
    key = lab_ui.pairs_key("confusion", "gold", "system_a", "span", 2, "match",
                           ("Doubt", "Loaded"), 1)
    at.session_state[key] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "📄 Documents"
    assert at.selectbox(key=state.K_DOC).value == "doc1"
    assert at.selectbox(key=state.K_SET_B).value == "system_a"
    assert at.selectbox(key=state.K_SPAN).value == "G2"


@pytest.mark.slow
def test_a_cell_from_another_view_is_dropped(make_app) -> None:
    at = _click(make_app(PAGE, params={"b": "system_a"}), "Fear", core_labels.MISSED)
    at.radio(key=lab_ui.K_LAB_VIEW).set_value("within reference").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=lab_ui.K_LAB_CELL).value is None


@pytest.mark.slow
def test_alternatives_choice_only_for_gold_with_alternatives(make_app) -> None:
    at = make_app(PAGE)
    assert not any(r.key == lab_ui.K_LAB_ALT for r in at.radio)
    at = make_app(PAGE, data="sample", params={"sample": "mafalda"})
    assert at.radio(key=lab_ui.K_LAB_ALT).value == "match"


def test_mafalda_sample_optional_cell_lists_what_core_counts(make_app, frame) -> None:
    at = make_app(PAGE, data="sample", params={"sample": "mafalda", "level": "1"})
    assert not at.exception, [e.value for e in at.exception]
    ws = _sample("mafalda")
    a, b = state.default_pair(ws)
    m = core_labels.confusion(ws.sets[a], ws.sets[b], level=1,
                              taxonomy=results.taxonomy_for(ws, a, b))
    assert m.taxonomy == "MAFALDA"
    optional = [c for c in lab_ui.cell_options(m) if c[1] == core_labels.OPTIONAL]
    assert optional, "the MAFALDA sample has an optional (⊥) gold span left unpredicted"
    at = _click(at, *optional[0])
    shown = _pairs(at, frame)
    assert len(shown) == m.count(*optional[0])
    assert list(shown["document"]) == [e.document for e in m.evidence[optional[0]]]
    assert all("⊥" in s for s in shown["gold span"])


def test_documents_a_prediction_set_covers_but_gold_does_not_show_an_error(make_app) -> None:
    ws = state.build_workspace([state.FileReport(
        "x.json", "test", "gold", "x", {"d1": "abcdef", "d2": "ghijkl"},
        (AnnotationSet("gold", {"d1": (Span(0, 3, "A"),)}, "gold"),
         AnnotationSet("sys", {"d1": (), "d2": (Span(0, 2, "A"),)}, "system")))],
        key="test:extra", title="extra", shareable=False)
    at = app_on_workspace(ws, PAGE)
    assert any("only in sys" in e.value for e in at.error)


@pytest.mark.slow
def test_labels_from_files_reach_the_page_as_text(make_app, frame) -> None:
    at = _click(make_app(PAGE, params={"b": "system_a"}), "<b>bold</b>", "<b>bold</b>")
    shown = _pairs(at, frame)
    assert list(shown["gold span"]) == ["[6, 34) <b>bold</b>"]
    assert lab_ui.md("<b>x_y</b>") == "\\<b\\>x\\_y\\</b\\>"
    # nothing from a file is rendered as HTML on this page: the heatmap's scrolling style, the
    # row names beside it with the label escaped, and the page's two fixed captions (ui.plain)
    bodies = [h.proto.body for h in at.html if h.proto.body != sidebar.SCRIPT]
    (names,) = [b for b in bodies if b.startswith('<div class="lab-names"')]
    captions = [
        '<div class="ss-caption">Blue: label against label; orange: missed and spurious spans. '
        'Click a cell to list its spans.</div>',
        '<div class="ss-caption">Select a row to open its document on the Documents page, with '
        'both sets and the gold span selected.</div>']
    assert sorted(bodies) == sorted([lab_ui.SCROLL_CSS, names, *captions])
    assert "&lt;b&gt;bold&lt;/b&gt; (" in names and "<b>" not in names


def _crowded_app() -> AppTest:
    """The app on 60 documents whose gold A span overlaps two predictions each: cell (A, B)
    lists 120 pairs (three pages of the pair table)."""
    texts = {f"d{i:02d}": "x" * 40 for i in range(60)}
    gold = AnnotationSet("gold", {d: (Span(0, 30, "A"),) for d in texts}, "gold")
    pred = AnnotationSet("sys", {d: (Span(2, 9, "B"), Span(20, 35, "B")) for d in texts},
                         "system")
    ws = state.build_workspace([state.FileReport("c.json", "test", "gold", "c", texts,
                                                 (gold, pred))],
                               key="test:crowded", title="crowded", shareable=False)
    at = AppTest.from_file(str(state.ROOT / "app.py"), default_timeout=60)
    at.session_state[state.K_SOURCE] = "upload"
    at.session_state[state.K_UPLOAD_WS] = ws
    at.run()
    return at.switch_page(PAGE).run()


def test_a_crowded_cell_lists_its_pairs_one_page_at_a_time(frame) -> None:
    at = _click(_crowded_app(), "A", "B")
    assert not at.exception, [e.value for e in at.exception]
    assert at.get("vega_lite_chart")  # drawn at once, no toggle
    ws = _ws(at)
    evidence = core_labels.confusion(ws.sets["gold"], ws.sets["sys"]).evidence[("A", "B")]
    assert len(evidence) == 120
    assert any("**120** of **120**" in md.value and "120 span pair(s)" in md.value
               for md in at.markdown)

    def shown_pairs() -> list[tuple[str, str, str, int]]:
        shown = _pairs(at, frame)
        return list(zip(shown["document"], shown["gold span"], shown["predicted span"],
                        shown["|s∩t|"], strict=True))

    def core_pairs(rows: slice) -> list[tuple[str, str, str, int]]:
        return [(e.document, f"[{e.row[0].start}, {e.row[0].end}) A",
                 f"[{e.column[0].start}, {e.column[0].end}) B", e.overlap)
                for e in evidence[rows]]

    assert shown_pairs() == core_pairs(slice(0, 50))
    assert any(c.value == "Rows 1–50 of 120." for c in at.caption)
    at.number_input(key=lab_ui.K_LAB_PAIRS_PAGE).set_value(3).run()
    assert shown_pairs() == core_pairs(slice(100, 120))
    # The downloads hold every pair, in the order core lists them.
    ws = _ws(at)
    choice = lab_ui.Choice("gold", "sys", 2, "confusion", "span", "match", "counts", False)
    full = lab_ui.pair_table(ws, choice, ("A", "B"))
    assert list(full["document"]) == [e.document for e in evidence]
    assert list(full["|s∩t|"]) == [e.overlap for e in evidence] == [7, 10] * 60


def test_a_revisit_writes_no_heatmap_spec_again(make_app, monkeypatch) -> None:
    """Issue 29 (a warm revisit < 300 ms): back on the page, the heatmap is the first visit's
    Vega-Lite spec, sent again without Altair building and validating the chart again; a
    clicked cell is another spec (its frame)."""
    lab_ui.heatmap_spec.clear()
    lab_ui.row_names_spec.clear()
    at = make_app("pages/labels.py")
    assert not at.exception, [e.value for e in at.exception]
    first = [e.proto.spec for e in at.get("vega_lite_chart")]  # the heatmap
    names = [h.proto.body for h in at.html if 'class="lab-names"' in h.proto.body]  # the row names
    assert len(first) == 1 and len(names) == 1
    at.switch_page("pages/documents.py").run()
    calls: list[str] = []
    for name in ("heatmap", "row_names"):
        real = getattr(lab_ui, name)
        monkeypatch.setattr(lab_ui, name, lambda *a, _n=name, _f=real, **k: (calls.append(_n),
                                                                            _f(*a, **k))[1])
    at.switch_page("pages/labels.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert calls == []
    assert [e.proto.spec for e in at.get("vega_lite_chart")] == first
    assert [h.proto.body for h in at.html if 'class="lab-names"' in h.proto.body] == names
    _click(at, "Loaded", "Doubt")
    assert not at.exception, [e.value for e in at.exception]
    assert calls == ["heatmap"]  # the frame of the clicked cell; the row names stay as they are


def test_the_chosen_cell_is_in_the_url_and_a_link_to_it_restores_it(make_app, frame) -> None:
    # Tour finding: Back from a pair's document returned to "Choose a cell above…".
    # The selector is bound to the URL, like the view's widgets (?lcell=row → column).
    at = _click(make_app(PAGE, params={"b": "system_a"}), "Doubt", "Loaded")
    assert at.query_params[lab_ui.K_LAB_CELL] == "Doubt → Loaded"
    link = make_app(PAGE, params={"b": "system_a", lab_ui.K_LAB_CELL: "Doubt → Loaded"})
    assert not link.exception, [e.value for e in link.exception]
    assert link.selectbox(key=lab_ui.K_LAB_CELL).value == ("Doubt", "Loaded")
    assert list(_pairs(link, frame)["document"]) == ["doc1"]
    # Choosing no cell is the selector's default: the browser takes it out of the URL
    # (tests/e2e/test_labels_browser.py), and a link without it chooses none.
    at = at.selectbox(key=lab_ui.K_LAB_CELL).select(None).run()
    assert at.selectbox(key=lab_ui.K_LAB_CELL).value is None
    assert make_app(PAGE, params={"b": "system_a"}).selectbox(key=lab_ui.K_LAB_CELL).value is None


def test_a_url_cell_outside_the_view_is_not_chosen(make_app) -> None:
    at = make_app(PAGE, params={"b": "system_a", lab_ui.K_LAB_CELL: "Nope → Loaded"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=lab_ui.K_LAB_CELL).value is None
    assert lab_ui.K_LAB_CELL not in at.query_params


def test_a_return_to_the_page_keeps_the_chosen_cell(make_app) -> None:
    # Streamlit forgets the selector's value on another page; the cell comes back (and into
    # the URL) on the return.
    at = _click(make_app(PAGE, params={"b": "system_a"}), "Doubt", "Loaded")
    at.switch_page("pages/documents.py").run()
    at.query_params.pop(lab_ui.K_LAB_CELL, None)
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=lab_ui.K_LAB_CELL).value == ("Doubt", "Loaded")
    assert at.query_params[lab_ui.K_LAB_CELL] == "Doubt → Loaded"


def test_the_heatmap_labels_are_drawn_in_the_theme_text_colour(make_app) -> None:
    """Tour 4 item 4: the labels that are no outcome column are drawn in the colour given (the
    theme's text colour), never a fixed dark grey that the dark theme's background hides;
    the page draws them in the light theme's colour when the browser says nothing."""
    ws = _sample("propaganda")
    m = core_labels.confusion(ws.sets["gold"], ws.sets["system_a"])
    kwargs: dict[str, Any] = dict(rows=m.rows, columns=m.columns, totals=m.row_totals,
                                  row_title="gold", column_title="predicted", ink="#fafafa")
    spec = lab_ui.heatmap(lab_ui.cell_frame(m, "counts"), **kwargs)
    colour = spec["layer"][0]["encoding"]["x"]["axis"]["labelColor"]["expr"]
    assert colour.endswith(": '#fafafa'") and "#222" not in colour
    # The pinned row names are the page's HTML: in the page's text colour (no colour of their
    # own but the outcome rows' orange), whatever the theme.
    kwargs.pop("ink"), kwargs.pop("column_title")
    names = lab_ui.row_names(lab_ui.cell_frame(m, "counts"), **kwargs)
    assert "color" not in names and "#222" not in names
    assert ".lab-name-outcome{color:" + lab_ui.BUCKET_ORANGE in lab_ui.SCROLL_CSS
    lab_ui.heatmap_spec.clear()
    lab_ui.row_names_spec.clear()
    at = make_app(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    # the heatmap (column names) alone is a chart; the row names beside it are HTML
    (drawn,) = [e.proto.spec for e in at.get("vega_lite_chart")]
    assert f": '{lab_ui.theme_ink()}'" in drawn and "'#222'" not in drawn


def test_a_set_without_spans_or_text_labels_is_not_called_hateval(make_app) -> None:
    """Tour 4 item 11c: an upload whose sets hold no span and no text label (an empty CAS) is
    told so, with the way to the Data page; "text labels only, such as HatEval files" is for
    files that hold text labels."""
    ws = state.build_workspace([state.FileReport(
        "empty.xmi", "uima-xmi", "gold", "empty", {"d1": "abc"},
        (AnnotationSet("empty", {"d1": ()}, "gold"),))],
        key="test:no-spans", title="empty.xmi", shareable=False)
    at = app_on_workspace(ws, PAGE)
    (info,) = [i.value for i in at.info]
    assert "holds a span" in info and "HatEval" not in info and "Data page" in info
    at.session_state[state.K_UPLOAD_WS] = _sample("hateval")
    at.run()
    assert any("such as HatEval" in i.value for i in at.info)
