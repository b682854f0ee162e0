"""Metric differences: from the Da San Martino score to the MAFALDA score one rule at a time."""

import streamlit as st

from core.errors import SpanScopeError
from core.metrics import registry
from ui import differences as diff
from ui import learn as learn_ui
from ui import results, sampling, state
from ui.current import workspace_or_stop
from ui.escape import md
from ui.widgets import download_buttons, paginate, set_pair

st.title("🔀 Metric differences")
st.caption("The Da San Martino and MAFALDA metrics share the overlap credit C(s,t,h) = "
           "|s∩t|/|h|·δ and differ by a few rules. Below, one system's score goes from one "
           "metric to the other changing one rule per step; every bar is computed by "
           "`core.metrics.differences.rule_score`, whose end points are the official metrics "
           "(the numbers of the 📊 Scores page).")
learn_ui.glossary()
ws = workspace_or_stop(2, "This page compares a system with a reference: load at least two sets.",
                       needs_spans=True)

c1, c2, c3, c4, c5 = st.columns([2, 2, 1, 1.4, 1.2])
ref, system = set_pair(ws, c1, c2, "Reference (gold)", "System", compared=state.compared_sets)
level = c3.selectbox("MAFALDA level", state.LEVELS, key=state.K_LEVEL, bind="query-params",
                     help="2: the labels as they are; 1: MAFALDA's three groups; 0: any label "
                     "or none.")
mvariant = c4.selectbox("MAFALDA variant", registry.get("mafalda").variants,
                        key=state.K_MAF_VARIANT, bind="query-params")
shown_measure = c5.radio("Score", list(diff.SHOWN_MEASURES), key=diff.K_DIFF_MEASURE,
                         bind="query-params", horizontal=True)
measure = diff.SHOWN_MEASURES[shown_measure]
tax = results.taxonomy_for(ws, ref, system)
if tax.name != "MAFALDA":
    st.caption(f"The labels of {md(ref)} and {md(system)} are not MAFALDA's fallacies: each "
               "label is its own class, so level 1 equals level 2 and level 0 asks 'any label or "
               "none'.")

steps = diff.path(ws.key, ws, ref, system, int(level), mvariant)

# ---- the path ----------------------------------------------------------------------------------
st.subheader(f"From Martino to MAFALDA: {md(system)} against {md(ref)}")
scored = [s for s in steps if s.score is not None]
if len(scored) >= 2:
    st.plotly_chart(diff.waterfall(steps, measure, title=f"{diff.MEASURES[measure]}, one rule "
                                   "at a time (grey: the official metrics)"),
                    key="diff_waterfall", width="stretch")
for s in steps:
    if s.error and s.official:
        st.warning(f"**{s.title}** cannot score these inputs: {md(s.error)}", icon="⚠️")
table = diff.steps_table(steps, measure)
st.dataframe(table, hide_index=True, key="diff_steps",
             column_config={diff.MEASURES[measure]: st.column_config.NumberColumn(format="%.4f"),
                            "change": st.column_config.NumberColumn(format="%+.4f")},
             placeholder="—")
download_buttons(table, f"metric_path_{system}", key="dl_diff_steps")

# ---- text by text ------------------------------------------------------------------------------
st.subheader("Text by text")
try:
    rows = diff.documents(ws.key, ws, ref, system, int(level), mvariant)
except SpanScopeError as exc:
    # The text-by-text comparison needs both official scorers; SemEval-2021's refuses a system
    # that does not cover the reference's documents (the path above shows that step's error).
    st.warning(f"The texts cannot be compared one by one: {md(str(exc))}. Load a system that "
               f"covers every document of {md(ref)}, or compare another pair.", icon="⚠️")
    st.stop()
df = diff.documents_table(rows)
if not len(df):
    st.info(f"{md(ref)} has no document.", icon="ℹ️")
    st.stop()
n_diff = int((df["F1 difference"].abs() > 1e-12).sum())
st.caption(f"{n_diff:,} of {len(df):,} texts score differently. Click a point or a row to open "
           "the text on the 📄 Documents page.")
points = sampling.sample_rows(df, diff.SCATTER_MAX)
picked = None
left, right = st.columns([3, 2])
with left:
    # A browser takes about a second per thousand markers: on a large corpus the scatter is
    # drawn when asked for, so that the page answers at once.
    draw = len(df) <= diff.SCATTER_AUTO or st.toggle(
        f"Draw the scatter ({len(points.rows):,} points"
        + (f", a random sample of the {len(df):,} texts)" if points.sampled else ")"),
        key=diff.K_DIFF_DRAW,
        persist_state="session",
        help=f"Off by default above {diff.SCATTER_AUTO:,} texts: drawing thousands of points "
        "takes the browser a second or more on every visit of this page.")
    if draw:
        event = st.plotly_chart(diff.scatter(points.rows, level=int(level), variant=mvariant),
                                key=diff.K_DIFF_SCATTER, on_select="rerun",
                                selection_mode=("points",), width="stretch")
        st.caption(points.caption("texts") + (" The table below lists every text, the most "
                                              "different first." if points.sampled else ""))
        picked = diff.selected_document(event, points.rows)
    else:
        st.caption(f"The scatter of per-text Martino F1 against MAFALDA F1 is off for "
                   f"{len(df):,} texts; turn it on above, or use the table below.")
with right:
    st.markdown("**Why the texts differ**")
    st.dataframe(diff.reasons_legend(), hide_index=True, key="diff_reasons", height=420,
                 placeholder="—")

st.markdown("**The texts where the two metrics differ most** (|MAFALDA F1 − Martino F1|, "
            "largest first)")
shown = paginate(df, key=diff.K_DIFF_PAGE)
table_event = st.dataframe(shown, hide_index=True, key=diff.K_DIFF_TABLE, on_select="rerun",
                     selection_mode="single-row",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in df.columns if c not in ("document", "reasons")},
                           placeholder="—")
picked = diff.selected_document(table_event, shown) or picked
download_buttons(df, f"metric_differences_{system}", key="dl_diff_docs")
st.caption("weight pooled: the text's share of all gold and predicted spans, i.e. its weight in "
           "Martino's pooled sums; weight averaged: 1/N, its weight in MAFALDA's average.")
if picked is not None:
    # The sets, level and variant are bound here under the Documents page's own keys, so they
    # travel in session state. switch_page may neither set nor clear query parameters bound on
    # this page: it gets the unbound ones explicitly (an empty mapping would do as well).
    st.session_state[state.K_DOC] = picked
    st.session_state[state.K_METRIC] = "mafalda"
    st.switch_page("pages/documents.py",
                   query_params={state.K_DOC: picked, state.K_METRIC: "mafalda"})
