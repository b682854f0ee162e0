"""Labels: which labels occur together and which get confused, and the spans behind each cell."""

import streamlit as st

from core.errors import SpanScopeError
from ui import labels as lab_ui
from ui import state
from ui.current import workspace_or_stop
from ui.escape import md
from ui.widgets import download_buttons, paginate, set_pair

st.title("🏷️ Labels")
ws = workspace_or_stop(1, "No annotation set is loaded yet.", needs_spans=True)

# ---- what to look at ----------------------------------------------------------------------------
c1, c2, c3 = st.columns([2, 2, 1])
set_a, set_b = set_pair(ws, c1, c2, "Reference (gold)", "Compared")
level = c3.selectbox("Level", state.LEVELS, key=state.K_LEVEL, bind="query-params",
                     help="2: the labels as annotated; 1: MAFALDA's groups (emotion, logic, "
                     "credibility); 0: fallacy or not.")
v1, v2, v3 = st.columns([3, 3, 2])
view = v1.radio("View", lab_ui.VIEWS, key=lab_ui.K_LAB_VIEW, bind="query-params",
                captions=[lab_ui.VIEW_HELP[v] for v in lab_ui.VIEWS])
gold = ws.sets[set_a]
scope, alternatives = "span", "match"
if view == "confusion":
    if gold.alternatives:
        alternatives = v2.radio("Gold alternatives count", lab_ui.ALTERNATIVES,
                                key=lab_ui.K_LAB_ALT, bind="query-params", help=lab_ui.ALT_HELP,
                                horizontal=True)
    else:
        v2.caption(f"{lab_ui.md(set_a)} has one label per span: every gold span is one row "
                   "entry per overlapping prediction, or one in *missed*.")
else:
    scope = v2.radio("Together means", lab_ui.SCOPES, key=lab_ui.K_LAB_SCOPE,
                     bind="query-params", help=lab_ui.SCOPE_HELP, horizontal=True)
values = v3.radio("Values", lab_ui.VALUES, key=lab_ui.K_LAB_VALUES, bind="query-params",
                  horizontal=True, help="row-normalised: each cell divided by its row total "
                  "(shown in brackets after the row label).")

try:
    m = lab_ui.label_matrix(ws.key, ws, view, set_a, set_b, scope, int(level), alternatives)
except SpanScopeError as exc:
    st.error(md(exc), icon="❌")
    st.stop()

if m.taxonomy == "MAFALDA":
    if level != 2:
        st.caption(f"Level {level}: labels mapped with MAFALDA's taxonomy "
                   f"({'emotion / logic / credibility' if level == 1 else 'fallacy or not'}); "
                   "⊥ stays *nothing*.")
else:
    merged = {2: "levels 1 and 0 use a flat taxonomy (one class per label)",
              1: "a flat taxonomy is used (one class per label), so level 1 equals level 2",
              0: "a flat taxonomy is used, and level 0 merges every label into one class, "
                 "*fallacy*"}[int(level)]
    st.caption(f"These labels are not MAFALDA's: {merged}.")

# ---- the heatmap --------------------------------------------------------------------------------
if view == "confusion":
    st.subheader(f"{lab_ui.md(set_a)} (rows) against {lab_ui.md(set_b)} (columns)")
    row_title, column_title = f"gold label in {set_a}", f"predicted label in {set_b}"
    optional_note = (" (in *optional (⊥)* when ⊥ is one of its alternatives: MAFALDA does not "
                     "require it)" if gold.alternatives else "")
    st.caption("Each overlapping (gold, predicted) span pair counts once in (gold label, "
               "predicted label); a gold span no prediction overlaps counts in *missed*"
               f"{optional_note}, a prediction no gold span overlaps in *spurious*. The diagonal "
               "is agreement. Row totals in brackets.")
else:
    in_set = set_a if view == "within reference" else set_b
    st.subheader(f"Labels together within {lab_ui.md(in_set)} (scope: {scope})")
    row_title, column_title = f"label in {in_set}", "occurring with"
    st.caption({
        "span": "A cell counts the intervals that carry both the row and the column label (for "
                "MAFALDA gold: a span's alternatives, as in the paper's Figure 2); the row total "
                "in brackets counts the intervals carrying the row label. The diagonal is empty "
                "by construction.",
        "overlap": "A cell counts the spans of the row label that overlap at least one span of "
                   "the column label; the row total in brackets counts the spans of the row "
                   "label. The diagonal counts spans that overlap another span of their label.",
        "text": "A cell counts the documents holding both labels; the row total in brackets "
                "counts the documents holding the row label. The diagonal is empty by "
                "construction.",
    }[scope])

if all(lab_ui.is_bucket(r) for r in m.rows):
    st.info("No spans to count in this view.", icon="ℹ️")
    st.stop()

cells = lab_ui.cell_frame(m, values)
grid = {(r, c) for r in m.rows for c in m.columns}

# A click on the heatmap selects its cell; the selector below is the keyboard way to the same.
clicked = lab_ui.clicked_cell(st.session_state.get(lab_ui.K_LAB_CHART))
if clicked != st.session_state.get(lab_ui.K_LAB_CLICKED):
    st.session_state[lab_ui.K_LAB_CLICKED] = clicked
    if clicked in grid:
        st.session_state[lab_ui.K_LAB_CELL] = clicked
options: list[tuple[str, str] | None] = [None, *lab_ui.cell_options(m)]
current = st.session_state.get(lab_ui.K_LAB_CELL)
if current is not None and current not in options:
    if current in grid:
        options.append(current)  # an empty cell that was clicked
    else:
        st.session_state[lab_ui.K_LAB_CELL] = None  # left over from another view
selected = st.session_state.get(lab_ui.K_LAB_CELL)

chart = lab_ui.heatmap(cells, rows=m.rows, columns=m.columns, totals=m.row_totals,
                       row_title=row_title, column_title=column_title, selected=selected)
# The cells keep their size, so a matrix wider than a phone scrolls sideways instead of being cut.
st.html(lab_ui.SCROLL_CSS)
st.altair_chart(chart, on_select="rerun", selection_mode=lab_ui.CELL_PARAM,
                key=lab_ui.K_LAB_CHART, width="content", theme=None)
if view == "confusion":
    grey = ("; grey: optional (⊥) gold spans left unpredicted, not an error for MAFALDA"
            if gold.alternatives else "")
    st.caption(f"Blue: label against label; orange: missed and spurious spans{grey}. Click a "
               "cell to list its spans.")
else:
    st.caption("Click a cell to list its spans.")

with st.expander("The matrix as a table"):
    wide = lab_ui.matrix_wide(m, cells)
    st.dataframe(wide, hide_index=True, key="lab_matrix_table", placeholder="—")
    tidy = cells[["row", "column", "count", "row_total", "frequency", "pairs"]]
    download_buttons(tidy, f"labels_{view.replace(' ', '_')}_level{level}", key="dl_lab_matrix")

# ---- the spans behind one cell ------------------------------------------------------------------
st.subheader("Spans behind a cell")
cell = st.selectbox("Cell (or click the heatmap)", options, key=lab_ui.K_LAB_CELL,
                    format_func=lambda c: lab_ui.cell_option(m, c),
                    placeholder=lab_ui.cell_option(m, None))
if cell is None:
    st.caption("Choose a cell above, or click one in the heatmap.")
    st.stop()

row, column = cell
count, total = m.count(row, column), m.row_totals.get(row, 0)
evidence = m.evidence.get(cell, ())
share = f" ({count / total:.0%} of the row)" if total else ""
st.markdown(f"**{count}** of **{total}**{share}; {len(evidence)} span pair(s) listed.",
            help="For co-occurrence in the overlap and text scopes one row-label span or "
                 "document can form several pairs, so the list may be longer than the count.")
if not evidence:
    st.caption("Nothing was counted in this cell.")
    st.stop()

pairs = lab_ui.pair_table(ws.key, ws, view, set_a, set_b, scope, int(level), alternatives,
                          row, column)
shown = paginate(pairs, key=lab_ui.K_LAB_PAIRS + "_page")
table_key = lab_ui.pairs_key(view, set_a, set_b, scope, int(level), alternatives, cell,
                             int(st.session_state.get(lab_ui.K_LAB_PAIRS + "_page", 1)))
text_columns = [c for c in pairs.columns if c.endswith(" text")]
picked = st.dataframe(shown, hide_index=True, on_select="rerun", selection_mode="single-row",
                      key=table_key,
                      column_config={c: st.column_config.TextColumn(width="medium")
                                     for c in text_columns}, placeholder="—")
st.caption("Select a row to open its document on the Documents page, with both sets and the "
           "gold span selected.")
download_buttons(pairs, "label_pairs", key="dl_lab_pairs")

rows_picked = picked["selection"]["rows"]
if rows_picked:
    record = shown.iloc[rows_picked[0]]
    marker = (table_key, rows_picked[0])
    if st.session_state.get(lab_ui.K_LAB_OPENED) != marker:
        st.session_state[lab_ui.K_LAB_OPENED] = marker
        left_id, right_id = str(record.iloc[1]), str(record.iloc[4])
        span_id = (left_id or right_id).split(",")[0].strip()
        if span_id:
            st.session_state[state.K_SPAN] = span_id
        # The sets travel in the session (K_SET_A / K_SET_B are the Documents page's keys too);
        # switch_page may not set query parameters bound to this page's widgets.
        st.session_state[state.K_DOC] = str(record["document"])
        st.switch_page("pages/documents.py", query_params={state.K_DOC: str(record["document"])})
    st.page_link("pages/documents.py", label=f"Open document {md(record['document'])}", icon="📄",
                 query_params={state.K_DOC: str(record["document"]), state.K_SET_A: set_a,
                               state.K_SET_B: set_b})
