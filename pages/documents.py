"""Documents: one document, two sets side by side, span by span, with each span's contributions."""

import pandas as pd
import streamlit as st

from ui import highlight, state
from ui.escape import md
from ui.widgets import download_buttons, paginate, set_pair, workspace_or_stop

st.title("📄 Documents")
ws = workspace_or_stop(1, "No annotation set is loaded yet.")

# ---- what to compare ----------------------------------------------------------------------------
c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
set_a, set_b = set_pair(ws, c1, c2, "Left (reference)", "Right (compared)")
metric = c3.radio("Metric", list(state.METRIC_NAMES), help=state.METRIC_HELP,
                  key=state.K_METRIC, bind="query-params", horizontal=True)
with c4:
    if metric == "martino":
        variant = st.selectbox("Martino variant", state.MARTINO_VARIANTS, key=state.K_VARIANT,
                               bind="query-params")
        level = 2
    else:
        variant = st.selectbox("MAFALDA variant", state.MAFALDA_VARIANTS,
                               key=state.K_MAF_VARIANT, bind="query-params")
        level = st.selectbox("Level", state.LEVELS, key=state.K_LEVEL, bind="query-params")

gold, pred = ws.sets[set_a], ws.sets[set_b]

# ---- which document -----------------------------------------------------------------------------
d1, d2 = st.columns([3, 2])
query = d1.text_input("Search documents by id or text", key=state.K_DOC_QUERY,
                      persist_state="session", placeholder="e.g. 111111 or 'migrants'")
sort = d2.selectbox("Order", list(state.DOC_SORTS), format_func=state.DOC_SORTS.get,
                    key=state.K_DOC_SORT, persist_state="session")
order = state.document_order(ws.key, ws, set_a, set_b, sort, metric, variant, level)
ids = state.search_documents(ws.key, ws, tuple(order), query)
if not ids:
    st.warning(f"No document matches {md(repr(query))}.")
    st.stop()
# The selector lists at most DOC_WINDOW documents (a 10,000-option list makes every rerun slow
# in the browser); the search narrows it, and the current document (URL) is always an option.
current = st.session_state.get(state.K_DOC) or st.query_params.get(state.K_DOC)
options = state.document_window(ids, current)
label = f"Document ({len(ids):,} of {len(order):,})"
if len(options) < len(ids):
    label += f": the first {state.DOC_WINDOW:,} in this order are listed, search for others"
# No format_func: a bound widget writes its *shown* value into the URL, so ids must be shown as is.
doc = st.selectbox(label, options, key=state.K_DOC, bind="query-params")
if sort in ("score", "disagreement"):
    describe = state.doc_label_func(ws.key, ws, set_a, set_b, sort, metric, variant, level)
    st.caption(f"Sorted {state.DOC_SORTS[sort]}: {md(describe(doc))}")
text = ws.corpus.texts.get(doc)
items_a = highlight.span_items(gold, doc, "G")
items_b = highlight.span_items(pred, doc, "P")
colours = highlight.label_colours(state.all_labels(ws.key, ws))

span_options = ["—"] + [it.id for it in items_a + items_b]
span_text = {it.id: f"{it.id} [{it.start}, {it.end}) {it.label_text}" for it in items_a + items_b}
selected = st.selectbox("Select a span to see every pair it forms", span_options,
                        key=state.K_SPAN, format_func=lambda s: span_text.get(s, "— none —"))
selected = None if selected == "—" else selected

explained = state.explain_document(ws.key, ws, set_a, set_b, doc, metric, variant, level)
partners = state.partners_of(explained, selected) if selected else ()

# ---- side by side -------------------------------------------------------------------------------
used = {lab for it in items_a + items_b for lab in it.labels}
st.html(highlight.legend(colours, used))
left, right = st.columns(2)
with left:
    st.markdown(f"**{md(set_a)}** ({gold.role}) · {len(items_a)} span(s)")
    st.html(highlight.render_lanes(text, items_a, colours, selected=selected, dom_id="left-doc",
                                        partners=partners))
with right:
    st.markdown(f"**{md(set_b)}** ({pred.role}) · {len(items_b)} span(s)")
    st.html(highlight.render_lanes(text, items_b, colours, selected=selected,
                                        dom_id="right-doc", partners=partners))
if gold.alternatives:
    st.caption(f"{md(set_a)} lists alternative labels: a span tagged `A | B` may be matched by "
               "either label, and ⊥ means it may also be left unpredicted. These are "
               "alternatives, not conflicts.")

st.markdown("**Merged view**")
merged_a, merged_b = items_a, items_b
if metric == "mafalda":
    # Compare what the metric compares: classes at the chosen level, without ⊥ predictions
    # (left out of precision, except by the repo-head code).
    mapping = state.level_label_map(ws, set_a, set_b, int(level))
    merged_a = highlight.relabel(items_a, mapping)
    merged_b = highlight.relabel(items_b, mapping, drop_nothing=variant != "repo-head")
    st.caption(f"As MAFALDA sees it: labels compared at level {level}"
               + ("" if variant == "repo-head" else "; ⊥ predictions left out") + ".")
st.html(highlight.status_legend())
st.html(highlight.render_merged(text, merged_a, merged_b))
counts = highlight.status_counts(text, merged_a, merged_b)
if counts:
    st.caption(" · ".join(f"{highlight.STATUS_NAMES[k]}: {v} chars" for k, v in counts.items()
                          if v))

# ---- contributions ------------------------------------------------------------------------------
st.subheader("Contributions")
if explained.error:
    st.error(md(explained.error), icon="❌")
else:
    if selected:
        st.markdown(f"**Pairs formed by {md(span_text[selected])}**")
        rows = state.rows_for_span(explained, selected)
        if len(rows):
            st.dataframe(rows, hide_index=True, key="span_pairs")
        else:
            st.caption("This span overlaps no span of the other set: it adds nothing to the "
                       "numerators.")
        best = state.best_match_for_span(explained, selected)
        if best is not None:
            st.markdown(f"MAFALDA takes from it: {md(best)}")
    st.markdown(f"**Every pair of document {md(doc)}**")
    table = explained.pairs
    st.dataframe(paginate(table, key="pairs_page"), hide_index=True, key="doc_pairs")
    download_buttons(table, f"contributions_{doc}", key="dl_pairs")

st.subheader("This document's scores")
doc_scores = state.document_scores(ws.key, ws, set_a, set_b, doc, variant=st.session_state.get(
    state.K_VARIANT, state.DEFAULTS[state.K_VARIANT]), mvariant=st.session_state.get(
    state.K_MAF_VARIANT, state.DEFAULTS[state.K_MAF_VARIANT]), level=level)
st.dataframe(doc_scores, hide_index=True, key="doc_scores")
download_buttons(pd.DataFrame(doc_scores), f"scores_{doc}", key="dl_doc_scores")
