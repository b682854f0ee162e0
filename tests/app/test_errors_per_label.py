"""The Errors page's per-label chart on MAFALDA data (tour 7 item 3): one bar per label (a span
offering alternatives counts under each of them, or under the alternatives joined when asked),
horizontal bars with the names beside them, the biggest first and at most
``LABELS_PER_PAGE`` at a time, a log scale, and ⊥ written as the Labels page writes it."""

from __future__ import annotations

import pandas as pd

from core.model import NOTHING
from ui import errors as err_ui
from ui import state

from .conftest import app_on_workspace


def _mafalda():  # -> state.Workspace
    return state.build_workspace(state.sample_reports("mafalda"), key="sample:mafalda",
                                 title="mafalda", shareable=True)


def _frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=err_ui.LABEL_COLUMNS)


def test_each_counts_a_span_with_alternatives_under_each_label() -> None:
    df = _frame([["s", "A | B | nothing", "reference", "missed", 2],
                 ["s", "A", "reference", "missed", 1],
                 ["s", "B", "prediction", "spurious", 4]])
    each = err_ui.grouped_labels(df, "each")
    got = {(r.label, r.side, r.category): r.count for r in each.itertuples()}
    assert got == {("A", "reference", "missed"): 3, ("B", "reference", "missed"): 2,
                   ("nothing", "reference", "missed"): 2, ("B", "prediction", "spurious"): 4}
    assert err_ui.grouped_labels(df, "joined").equals(df)


def test_the_chart_draws_the_labels_given_biggest_first_with_names_beside_the_bars() -> None:
    df = _frame([["s", "small", "reference", "missed", 1],
                 ["s", "unknown", "prediction", "spurious", 130],
                 ["s", NOTHING, "reference", "optional", 5],
                 ["s", "mid | nothing", "reference", "correct", 7]])
    grouped = err_ui.grouped_labels(df)
    order = err_ui.label_order(grouped)
    assert order == ["unknown", NOTHING, "mid", "small"]  # ⊥: 5 optional + 7 offered
    fig = err_ui.label_chart(grouped, ["s"], labels=order[:3])
    assert {t.orientation for t in fig.data} == {"h"}
    names = {y for t in fig.data for y in t.y}
    assert names == {"unknown", "mid", "⊥ (nothing)"}
    assert not any(y == "nothing" for y in names)
    # A click names the label as read (the Documents filter's label).
    assert {c[1] for t in fig.data for c in t.customdata} == {"unknown", "mid", NOTHING}
    log = err_ui.label_chart(grouped, ["s"], labels=order, log=True)
    assert log.layout.xaxis.type == "log"


def test_the_per_label_tab_on_mafalda_writes_bottom_and_pages_its_labels() -> None:
    ws = _mafalda()
    at = app_on_workspace(ws, "pages/errors.py")
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[2]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=err_ui.K_ERR_GROUPING).value == "each"
    table = next(d.value for d in at.dataframe if "span label" in d.value.columns)
    assert "⊥ (nothing)" in set(table["span label"])
    assert not set(table["span label"]) & {NOTHING, "ad hominem | nothing"}
    assert not any(" | " in lab for lab in table["span label"])
    at.radio(key=err_ui.K_ERR_GROUPING).set_value("joined").run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in at.dataframe if "span label" in d.value.columns)
    assert "ad hominem | ⊥" in set(table["span label"])
    at.toggle(key=err_ui.K_ERR_LOG).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]


def test_the_chart_pages_its_labels_past_the_page_size(monkeypatch) -> None:
    monkeypatch.setattr(err_ui, "LABELS_PER_PAGE", 5)
    ws = _mafalda()
    at = app_on_workspace(ws, "pages/errors.py")
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[2]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.number_input(key="err_label_chart_page")
    assert box.value == 1 and box.max > 1
    box.set_value(2).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Labels 6–10 of" in c.value for c in at.caption)


def test_a_single_label_opens_the_documents_of_the_spans_offering_it() -> None:
    ws = _mafalda()
    table, _ = err_ui.error_table(ws.key, ws, "gold", "system_a", 2)
    joined = [n for n in table.columns.names if " | " in n]
    assert joined
    single = joined[0].split(" | ")[0]
    docs = err_ui.documents_with(ws, "gold", "system_a", 2, err_ui.ALL, single)
    held = set(table.documents_with(label=joined[0]))
    assert held <= set(docs)


def test_the_spans_of_one_category_open_on_the_biggest_error() -> None:
    ws = _mafalda()
    cats = err_ui.category_frame(ws.key, ws, "gold", ("system_a",), 2)
    sizes = {r.category: sum(int(v) for v in (r.reference, r.prediction) if pd.notna(v))
             for r in cats.itertuples() if r.category in err_ui.ERRORS}
    biggest = max(sizes, key=lambda c: sizes[c])
    assert err_ui.biggest_error(ws, "gold", "system_a", 2) == biggest
    at = app_on_workspace(ws, "pages/errors.py")
    at.session_state[err_ui.K_ERR_TAB] = err_ui.TABS[3]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    first = at.selectbox(key="err_list_system").value
    level = int(at.session_state[state.K_LEVEL])
    assert at.selectbox(key="err_list_category").value == err_ui.biggest_error(
        ws, "gold", first, level)
