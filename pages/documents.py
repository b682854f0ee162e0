"""Documents: one document, two sets side by side, span by span, with each span's contributions."""

import pandas as pd
import streamlit as st

from core.metrics import registry
from core.render import highlight
from ui import above_one, documents, export, results, state, uploads
from ui import errors as err_ui
from ui.current import workspace_or_stop
from ui.escape import md
from ui.widgets import download_buttons, paginate, set_pair

st.title("📄 Documents")
ws = workspace_or_stop(1, "No annotation set is loaded yet.")

# ---- what to compare ----------------------------------------------------------------------------
c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
set_a, set_b = set_pair(ws, c1, c2, "Left (reference)", "Right (compared)")
metric = c3.radio("Metric", results.span_metric_names(), help=results.metric_help(),
                  key=state.K_METRIC, bind="query-params", horizontal=True)
entry = registry.get(metric)
variant: str | None = None
level: int | None = None
with c4:
    if entry.variants:
        variant = st.selectbox(f"{entry.title} variant", entry.variants,
                               key=state.variant_key(metric), bind="query-params")
    if entry.levels:
        level = st.selectbox("Level", state.LEVELS, key=state.K_LEVEL, bind="query-params")

gold, pred = ws.sets[set_a], ws.sets[set_b]
if llm_note := uploads.llm_note(ws, set_a, set_b):  # issue 16 item 2: why offsets drift
    st.info(llm_note, icon="ℹ️")

# ---- which document -----------------------------------------------------------------------------
d1, d2 = st.columns([3, 2])
query = d1.text_input("Search documents by id or text", key=state.K_DOC_QUERY,
                      persist_state="session", placeholder="e.g. 111111 or 'migrants'")
sort = d2.selectbox("Order", list(documents.DOC_SORTS),
                    format_func=lambda k: documents.DOC_SORTS[k], key=state.K_DOC_SORT,
                    persist_state="session")
order = documents.document_order(ws.key, ws, set_a, set_b, sort, metric, variant, level)
ids = documents.search_documents(ws.key, ws, tuple(order), query)
# Error categories (core.analysis.errors) at the level the metric compares labels at.
cat_level = int(level) if level is not None else 2
category = label_filter = err_ui.ALL
# The filters categorise every span of the corpus (seconds per 10,000 documents): on a large
# corpus only when asked, or when a link carries a filter.
n_docs = max(len(ws.corpus.texts), len(gold.spans), len(pred.spans))  # doc_ids builds a list
linked = any(st.query_params.get(k, err_ui.ALL) != err_ui.ALL
             for k in (err_ui.K_ERR_CATEGORY, err_ui.K_ERR_LABEL))
if n_docs <= err_ui.FILTER_AUTO_DOCS or st.toggle(
        f"Filter by error category and label (categorises all {n_docs:,} documents)",
        value=linked, key="doc_err_filter_on", persist_state="session"):
    e1, e2 = st.columns([3, 2])
    category = e1.selectbox("Error category", [err_ui.ALL, *err_ui.CATEGORY_STYLE],
                            key=err_ui.K_ERR_CATEGORY, bind="query-params",
                            # No format_func: a bound widget writes its shown value into the URL.
                            help="Only documents holding a span of this category (see 🔍 "
                            "Errors): " + "; ".join(f"{c}: {h}"
                                                    for c, h in err_ui.CATEGORY_HELP.items()))
    label_filter = e2.selectbox("Label", err_ui.label_options(ws, set_a, set_b, cat_level),
                                key=err_ui.K_ERR_LABEL, bind="query-params",
                                help=f"Only documents holding a span counted under this label "
                                f"(level {cat_level}).")
if category != err_ui.ALL or label_filter != err_ui.ALL:
    allowed = err_ui.documents_with(ws, set_a, set_b, cat_level, category, label_filter)
    ids = [d for d in ids if d in set(allowed or ())]
bucket = st.session_state.get(err_ui.K_ERR_DOCS)
if bucket:
    # A bucket clicked on the Errors page: its documents only, until cleared.
    b1, b2 = st.columns([5, 1])
    b1.caption(f"Showing the {len(bucket['documents'])} document(s) of the bucket "
               f"{md(bucket['what'])} (🔍 Errors).")
    if b2.button("Show all", key="err_docs_clear"):
        st.session_state[err_ui.K_ERR_DOCS] = None
        st.rerun()
    ids = [d for d in ids if d in set(bucket["documents"])]
if not ids:
    st.warning("No document matches the search and filters.")
    st.stop()
# The selector lists at most DOC_WINDOW documents (a 10,000-option list makes every rerun slow
# in the browser); the search narrows it, and the current document (URL) is always an option.
# A new order starts at its first document ("lowest score first" must show the lowest score,
# not stay on the document shown before); a deep link (first run) keeps its document.
order_seen = hash(tuple(ids))
if st.session_state.get(documents.K_ORDER_SEEN, order_seen) != order_seen:
    st.session_state[state.K_DOC] = ids[0]
st.session_state[documents.K_ORDER_SEEN] = order_seen
current = st.session_state.get(state.K_DOC) or st.query_params.get(state.K_DOC)
options = documents.document_window(ids, current)
label = f"Document ({len(ids):,} of {len(order):,})"
if len(options) < len(ids):
    label += f": the first {documents.DOC_WINDOW:,} in this order are listed, search for others"
# No format_func: a bound widget writes its *shown* value into the URL, so ids must be shown as is.
doc = st.selectbox(label, options, key=state.K_DOC, bind="query-params")
documents.stepper(ids, doc)
with st.expander(f"📋 Documents in this order: click a row to open it ({len(options):,} "
                 "listed)", expanded=True):
    documents.table_picker(ws, set_a, set_b, options, metric, variant, level)
if sort in ("score", "disagreement"):
    describe = documents.doc_label_func(ws.key, ws, set_a, set_b, sort, metric, variant, level)
    st.caption(f"Sorted {documents.DOC_SORTS[sort]}: {md(describe(doc))}")
text = ws.corpus.texts.get(doc)
items_a = highlight.span_items(gold, doc, "G")
items_b = highlight.span_items(pred, doc, "P")
colours = highlight.label_colours(state.all_labels(ws.key, ws))

span_options = ["—"] + [it.id for it in items_a + items_b]
span_text = {it.id: f"{it.id} [{it.start}, {it.end}) {it.label_text}" for it in items_a + items_b}
picked = st.selectbox("Select a span to see every pair it forms", span_options,
                      key=state.K_SPAN, format_func=lambda s: span_text.get(s, "— none —"))
selected = None if picked == "—" else picked

explained = results.explain_document(ws.key, ws, set_a, set_b, doc, metric, variant, level)
partners = results.partners_of(explained, selected) if selected else ()
cats_a, cats_b = err_ui.span_categories(ws, set_a, set_b, cat_level, doc, items_a, items_b)
if category != err_ui.ALL or label_filter != err_ui.ALL:
    # The spans behind the filter are marked like a selected span's partners.
    behind = {it.id for items, cats in ((items_a, cats_a), (items_b, cats_b)) for it in items
              if category in (err_ui.ALL, cats.get(it.id))
              and (label_filter == err_ui.ALL or label_filter in err_ui.item_labels(
                  ws, set_a, set_b, cat_level, it))}
    partners = (*partners, *sorted(behind))
partners = (*partners, *err_ui.bucket_marks(bucket, doc, items_a, items_b))

# ---- side by side -------------------------------------------------------------------------------
used = {lab for it in items_a + items_b for lab in it.labels}
st.html(highlight.legend(colours, used))
st.html(err_ui.category_legend())
left, right = st.columns(2)
with left:
    st.markdown(f"**{md(set_a)}** ({gold.role}) · {len(items_a)} span(s)")
    st.html(highlight.render_lanes(text, items_a, colours, selected=selected, dom_id="left-doc",
                                   partners=partners, notes=err_ui.notes(cats_a)))
with right:
    st.markdown(f"**{md(set_b)}** ({pred.role}) · {len(items_b)} span(s)")
    st.html(highlight.render_lanes(text, items_b, colours, selected=selected,
                                   dom_id="right-doc", partners=partners,
                                   notes=err_ui.notes(cats_b)))
if gold.alternatives:
    st.caption(f"{md(set_a)} lists alternative labels: a span tagged `A | B` may be matched by "
               "either label, and ⊥ means it may also be left unpredicted. These are "
               "alternatives, not conflicts.")

st.markdown("**Merged view**")
merged_a, merged_b = items_a, items_b
if level is not None:
    # Compare what the metric compares: classes at the chosen level, without ⊥ predictions
    # (left out of precision, except by MAFALDA's repo-head code).
    mapping = results.level_label_map(ws, set_a, set_b, int(level))
    merged_a = highlight.relabel(items_a, mapping)
    merged_b = highlight.relabel(items_b, mapping, drop_nothing=variant != "repo-head")
    st.caption(f"As {entry.title} sees it: labels compared at level {level}"
               + ("" if variant == "repo-head" else "; ⊥ predictions left out") + ".")
st.html(highlight.status_legend())
st.html(highlight.render_merged(text, merged_a, merged_b))
counts = highlight.status_counts(text, merged_a, merged_b)
if counts:
    st.caption(" · ".join(f"{highlight.STATUS_NAMES[k]}: {v} chars" for k, v in counts.items()
                          if v))
st.caption("Export this document, both annotations highlighted, as a standalone file:")
export.download_buttons(doc, text, items_a, items_b, colours, gold_name=set_a, pred_name=set_b,
                        merged=(merged_a, merged_b))

# ---- contributions ------------------------------------------------------------------------------
st.subheader("Contributions")
if explained.error:
    st.error(md(explained.error), icon="❌")
else:
    if selected:
        st.markdown(f"**Pairs formed by {md(span_text[selected])}**")
        rows = results.rows_for_span(explained, selected)
        if len(rows):
            st.dataframe(rows, hide_index=True, key="span_pairs", placeholder="—")
        else:
            st.caption("This span overlaps no span of the other set: it adds nothing to the "
                       "numerators.")
        best = results.best_match_for_span(explained, selected)
        if best is not None:
            st.markdown(f"{entry.title} takes from it: {md(best)}")
    st.markdown(f"**Every pair of document {md(doc)}**")
    table = explained.pairs
    st.dataframe(paginate(table, key="pairs_page"), hide_index=True, key="doc_pairs",
                 placeholder="—")
    download_buttons(table, f"contributions_{doc}", key="dl_pairs")

st.subheader("This document's scores")
doc_scores = results.document_scores(
    ws.key, ws, set_a, set_b, doc,
    variants={m.name: results.chosen_variant(m) for m in registry.span_metrics()},
    level=int(level if level is not None else state.DEFAULTS[state.K_LEVEL]))
st.dataframe(above_one.mark(pd.DataFrame(doc_scores)), hide_index=True, key="doc_scores",
             placeholder="—")
above_one.note(pd.DataFrame(doc_scores), key="doc_scores")
download_buttons(pd.DataFrame(doc_scores), f"scores_{doc}", key="dl_doc_scores")
