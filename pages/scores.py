"""Scores: every system against the reference under both span metrics and the text-level scores."""

import pandas as pd
import streamlit as st

from core.metrics import registry
from ui import above_one, charts, results, state
from ui import hateval as hateval_ui
from ui.current import workspace_or_stop
from ui.escape import md
from ui.widgets import download_buttons, paginate

st.title("📊 Scores")
ws = workspace_or_stop(2, "Scores need a reference set and at least one other set.")
if not ws.has_spans:
    # Text labels only (HatEval files): the span metrics have nothing to score.
    if hateval_ui.tables(ws):
        hateval_ui.render(ws)
    else:
        st.info("No set of this corpus holds a span, so there is nothing for the span metrics "
                "to score.", icon="ℹ️")
    st.stop()

names = list(ws.sets)
default_a, _ = state.default_pair(ws)

span_metrics = registry.span_metrics()
with_variants = [m for m in span_metrics if m.variants]
with_levels = [m for m in span_metrics if m.levels]
cols = st.columns(2 + len(with_variants))
ref = cols[0].selectbox("Reference (gold)", names,
                        index=names.index(default_a) if default_a else 0,
                        key=state.K_SET_A, bind="query-params")
variants: dict[str, str | None] = {}
for col, m in zip(cols[1:], with_variants, strict=False):
    variants[m.name] = col.selectbox(f"{m.title} variant", m.variants,
                                     key=state.variant_key(m.name), bind="query-params",
                                     help=m.description)
level_owner = " / ".join(m.title for m in with_levels)
level = cols[-1].selectbox(f"{level_owner} level", state.LEVELS, key=state.K_LEVEL,
                           bind="query-params", disabled=not with_levels,
                           help="2: fine-grained fallacies; 1: their 3 categories; "
                           "0: fallacy or not.")

systems = state.compared_sets(ws, ref)
if not systems:
    st.info("Only the reference set is loaded: add a system or annotator file.", icon="ℹ️")
    st.stop()

b1, b2, _spacer = st.columns([1, 1, 2])
n_boot = b1.number_input("Bootstrap resamples", min_value=100, max_value=10000, step=100,
                         key=state.K_BOOT_N, persist_state="session")
seed = b2.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key=state.K_SEED,
                       persist_state="session")

# ---- all systems side by side -------------------------------------------------------------------
st.subheader("All systems")
overview = results.systems_overview(ws.key, ws, ref, tuple(systems), tuple(variants.items()),
                                    int(level), int(n_boot), int(seed))
if len(overview.table.columns) > 1:
    notes = []
    if any(c.endswith(" low") for c in overview.table.columns):
        notes.append(f"F1 low/high: 95% bootstrap interval over documents ({int(n_boot):,} "
                     f"resamples, seed {int(seed)}; a metric averaged over texts resamples the "
                     "per-text F1s it averages, a pooled one the per-document sums it pools).")
    notes.extend(f"{results.abbreviation(m)} = {m.title}." for m in span_metrics
                 if results.abbreviation(m) != m.title)
    if "semeval2021" in variants.values():
        notes.append("In the SemEval-2021 variant P and R can exceed 1: every overlapping "
                     "same-label pair counts, as in the official scorer.")
    if ws.sets[ref].alternatives:
        readers = ", ".join(describe for describe in (
            results.describe(m, variants.get(m.name), int(level) if m.levels else None)
            for m in span_metrics if m.gold_alternatives))
        notes.append(f"text: {md(ref)} lists alternative labels, so the text-level scores are "
                     f"the label-only P/R/F1 of {readers}.")
    else:
        notes.append("text: micro P/R/F1 and exact-match ratio of each document's set of labels.")
    if with_levels:
        notes.append(results.taxonomy_note(ws, ref, systems))
    st.caption(" ".join(notes))
    st.dataframe(overview.table, hide_index=True, key="overview_table", placeholder="—")
    download_buttons(overview.table, "systems", key="dl_overview")
    f1_cols = {label: col for label, col in overview.f1_columns.items()
               if col in overview.table}
    if f1_cols:
        st.plotly_chart(charts.systems_f1(overview.table, columns=f1_cols,
                                          title=f"F1 against {ref}"), key="systems_chart")

# ---- one system in detail -----------------------------------------------------------------------
st.subheader("One system in detail")
d1, d2 = st.columns(2)
system = d1.selectbox("System", systems, key=state.K_SET_B, bind="query-params")
metric = d2.radio("Metric", results.span_metric_names(), help=results.metric_help(),
                  key=state.K_METRIC, bind="query-params", horizontal=True)
entry = registry.get(metric)
var = variants.get(metric)
lev = int(level) if entry.levels else None
named = results.describe(entry, var, lev)
result = results.pair_result(ws.key, ws, ref, system, metric, var, lev)
if result.error:
    st.error(f"{named} cannot score {md(system)} against {md(ref)}: {md(result.error)}",
             icon="❌")
    st.stop()
st.caption(results.overall_caption(result))
if "taxonomy" in entry.options:
    st.caption(results.taxonomy_note(ws, ref, [system]))

tab_labels, tab_docs = st.tabs(["🏷️ Per label", "📄 Per document"])
with tab_labels:
    per_label = result.per_label
    if not len(per_label) and result.raw is not None and not result.raw.pooled:
        st.caption(f"{entry.title} averages per text and has no per-label decomposition; its "
                   "per-text values are in the per-document tab.")
    st.dataframe(above_one.mark(per_label), hide_index=True, key="per_label_table", placeholder="—")
    above_one.note(per_label, key="per_label")
    download_buttons(per_label, f"per_label_{system}_{metric}", key="dl_per_label")
    if len(per_label):
        st.plotly_chart(charts.per_label_prf(per_label, title=f"{system}: P, R, F1 per label "
                                             f"({entry.title})"),
                        key="per_label_chart")
with tab_docs:
    order = st.selectbox("Sort by", ["F1", "P", "R", "document"], key="doc_table_sort",
                         persist_state="session")
    ascending = st.toggle("Ascending", value=True, key="doc_table_asc", persist_state="session")
    # Ties broken by document id (numbers as numbers), so the first row is always the same.
    shown = results.sorted_per_doc(ws.key, ws, ref, system, metric, var, lev, order, ascending)
    st.dataframe(above_one.mark(paginate(shown, key=state.K_TABLE_PAGE)), hide_index=True,
                 key="per_doc_table", placeholder="—")
    above_one.note(shown, key="per_doc")
    download_buttons(shown, f"per_document_{system}_{metric}", key="dl_per_doc")
    first = str(shown.iloc[0]["document"]) if len(shown) else None
    st.page_link("pages/documents.py", icon="📄",
                 label=(f"Open the table's first document ({md(first)})" if first is not None
                        else "Open the table's first document"),
                 query_params={state.K_SET_A: ref, state.K_SET_B: system,
                               state.K_METRIC: metric, state.K_DOC: first}
                 if first is not None else None)

# ---- paired comparison --------------------------------------------------------------------------
st.subheader("Paired comparison")
if len(systems) < 2:
    st.caption("Load a second system to compare two systems.")
    st.stop()
p1, p2 = st.columns(2)
sys1 = p1.selectbox("System 1", systems, key=state.K_SYS1, bind="query-params")
sys2 = p2.selectbox("System 2", [s for s in systems if s != sys1], key=state.K_SYS2,
                    bind="query-params")
paired = results.paired_comparison(ws.key, ws, ref, sys1, sys2, metric, var, lev, int(n_boot),
                                   int(seed))
if paired is None:
    st.info(f"{named} cannot score both systems against {md(ref)} (see the table above), so "
            "they cannot be compared under it.", icon="ℹ️")
elif "error" in paired:
    st.error(md(paired["error"]), icon="❌")
else:
    st.markdown(f"{named}: "
                f"F1({md(sys1)}) − F1({md(sys2)}) = **{paired['F1 difference']:+.3f}**, "
                f"95% interval [{paired['low']:+.3f}, {paired['high']:+.3f}] "
                f"({paired['resamples']:,} paired resamples over documents, seed "
                f"{paired['seed']}).")
    table = pd.DataFrame([paired])
    st.dataframe(table, hide_index=True, key="paired_table", placeholder="—")
    download_buttons(table, f"paired_{sys1}_vs_{sys2}", key="dl_paired")
