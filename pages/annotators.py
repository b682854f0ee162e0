"""Annotators: agreement between any number of annotation sets, pair by pair and all together."""

import streamlit as st

from core.errors import SpanScopeError
from core.metrics.agreement import MeasureView
from core.model import AnnotationSet
from ui import above_one, doc_picker, highlight, state, text_policy
from ui import annotators as ann
from ui.escape import md
from ui.widgets import download_buttons, paginate

st.title("👥 Annotators")
# Spans a reader placed past their text (MAFALDA model outputs) are clipped for agreement.
ws, clipped = text_policy.for_agreement(state.workspace())
if ws.empty or len(ws.sets) < 2:
    st.info("Agreement needs at least two annotation sets (annotators, or a gold and systems).",
            icon="ℹ️")
    st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
    st.stop()
if not ws.shareable:
    st.caption("🔗 " + state.UPLOAD_LINK_NOTE)

names = list(ws.sets)
default_sets = state.set_options(ws, "annotator")
if len(default_sets) < 2:
    default_sets = names
labels = state.all_labels(ws.key, ws)
label_options = [state.ANN_ALL_LABELS, *labels]
gold_options = [state.ANN_NO_GOLD, *names]
golds = state.set_options(ws, "gold")
# Values left from another corpus (the sidebar switches corpora) are dropped before the widgets
# are drawn, so a widget never holds a value it does not offer.
for widget, options in ((state.K_ANN_LABEL, label_options),
                        (state.K_ANN_GOLD, gold_options)):
    if st.session_state.get(widget) not in (None, *options):
        del st.session_state[widget]
if any(n not in names for n in st.session_state.get(state.K_ANN_SETS) or ()):
    del st.session_state[state.K_ANN_SETS]

# ---- what to compare ----------------------------------------------------------------------------
chosen = st.multiselect("Annotation sets", names, default=default_sets, key=state.K_ANN_SETS,
                        bind="query-params",
                        help="Two or more sets. By default the sets with the annotator role.")
c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
measure = c1.selectbox("Measure", ann.MEASURES, index=ann.MEASURES.index("char-kappa"),
                       key=state.K_ANN_MEASURE, bind="query-params",
                       help="The names of `python -m core agree --measure`.")
label_shown = c2.selectbox("Label", label_options, key=state.K_ANN_LABEL, bind="query-params",
                           help="Keep only one label's spans in every measure and drawing.")
gold = c3.selectbox("Gold (to score each annotator against)", gold_options,
                    index=gold_options.index(golds[0]) if golds else 0, key=state.K_ANN_GOLD,
                    bind="query-params")
leave_one_out = c4.toggle("Leave-one-out majority", key=state.K_ANN_LOO,
                          bind="query-params",
                          help="Off: the majority of all chosen sets (it includes the annotator "
                          "scored, which flatters it). On: the majority of the others.")
# γ's settings beside the measure when γ is chosen; otherwise folded away (they still set the
# γ tiles and the alignment below, so the widgets stay drawn and keep their values).
g1, g2, _ = (st.columns([1, 1, 4]) if measure in ann.GAMMA_MEASURES else
             st.expander("γ settings (for the γ values and the alignment below)").columns(
                 [1, 1, 2]))
seed = int(g1.number_input("γ seed", min_value=0, max_value=2**31 - 1, value=0, step=1,
                           key=state.K_ANN_SEED, bind="query-params"))
samples = int(g2.number_input("γ chance samples", min_value=1, max_value=1000, value=30,
                              step=10, key=state.K_ANN_SAMPLES, bind="query-params",
                              help="Chance continua γ is compared with; more samples: a smaller "
                              "Monte-Carlo spread, a longer wait."))
st.caption(f"**{measure}**: {ann.MEASURE_HELP[measure]}")

if len(chosen) < 2:
    st.info("Pick at least two annotation sets above to compare them.", icon="ℹ️")
    st.page_link("pages/data.py", label="Load more sets on the Data page", icon="📂")
    st.stop()
sets = tuple(chosen)
label = None if label_shown == state.ANN_ALL_LABELS else label_shown
gold_set = None if gold == state.ANN_NO_GOLD else gold

try:
    study = ann.study(ws.key, ws, sets, label)
    # The corpus γ takes minutes on thousands of documents (and a core meanwhile): above
    # GAMMA_AUTO_DOCS it is computed when asked for; otherwise it is queued first.
    many_docs = len(study.docs) > ann.GAMMA_AUTO_DOCS
    gamma_on = not many_docs or st.toggle(
        f"Compute γ and γ-cat of all {len(study.docs):,} documents", key=state.K_ANN_GAMMA_ON,
        persist_state="session",
        help=f"Off by default above {ann.GAMMA_AUTO_DOCS:,} documents: γ aligns every document "
        "with chance samples, which takes minutes here (in the background, one core).")
    gjob = ann.gamma_job(ws.key, ws, sets, label, seed, samples) if gamma_on else None
    vjob: ann.Job[MeasureView] | None
    if measure in ann.GAMMA_MEASURES:
        vjob = ann.view_job(ws.key, ws, sets, label, measure, gold_set, leave_one_out, seed,
                            samples)
        view = vjob.result() if vjob.done() and vjob.error() is None else None
        view_error = vjob.error()
    else:
        vjob, view_error = None, None
        view = ann.measure_view(ws.key, ws, sets, label, measure, gold_set, leave_one_out)
    ann.shown([gjob, vjob])
except SpanScopeError as exc:
    st.error(f"These sets cannot be compared: {md(text_policy.for_agreement_pages(str(exc)))}",
             icon="❌")
    st.page_link("pages/data.py", label="Change the choice on the Data page", icon="📂")
    st.stop()
for warning in [*clipped, *study.warnings]:
    st.caption(f"⚠️ {md(warning)}")


def wait_or_error(job: "ann.Job | None", error: str | None, *, bar: bool = False) -> None:
    """The input error that stopped a job, or (``bar``) its progress bar, or a note that it is
    running (one bar per job is enough: each bar reruns itself twice a second)."""
    if error:
        st.error(md(error), icon="❌")
    elif job is not None and not job.done():
        if bar:
            ann.progress(job)
        else:
            st.caption(f"⏳ {md(job.title)}: computing in the background (progress above).")


# ---- pairwise matrix ----------------------------------------------------------------------------
st.subheader("Pairwise agreement")
if view is None:
    wait_or_error(vjob, view_error, bar=True)
else:
    cell = "F1"
    if measure in ann.ASYMMETRIC:
        cell = st.radio("Cells show", ann.SPAN_CELLS, key=state.K_ANN_CELL, bind="query-params",
                        horizontal=True)
        st.caption("Row = reference (treated as gold), column = compared: P(row, column) = "
                   "R(column, row). Martino's F1 is the same both ways."
                   + (" In its SemEval-2021 variant P and R can exceed 1: every overlapping "
                      "same-label pair counts, as in the official scorer."
                      if measure == "span-f1" else ""))
    cell_key = ann.cell_key(measure, cell)
    pw = view.pairwise
    shown = f"{measure} ({cell})" if measure in ann.ASYMMETRIC else measure
    if measure in ann.GAMMA_MEASURES:
        shown += f" ({samples} samples, seed {seed})"
    if measure in ann.MANY_MEASURES:
        st.caption(f"{measure} is a many-annotator measure: each cell is its value for that "
                   "pair alone.")
    st.plotly_chart(ann.heatmap(pw, key=cell_key, title=f"{shown}, every pair"),
                    key="ann_matrix", width="stretch")
    undefined = ann.undefined_cells(pw, cell_key)
    if len(undefined):
        st.caption(f"{len(undefined)} cell(s) are undefined (grey, n/a); why:")
        st.dataframe(undefined, hide_index=True, key="ann_undefined", placeholder="—")
    matrix = ann.matrix_table(pw, cell_key)
    download_buttons(matrix, f"pairwise_{measure}", key="dl_ann_matrix")

# ---- many-annotator values ----------------------------------------------------------------------
st.subheader(f"All {len(sets)} sets together")
values = dict(ann.many_values(ws.key, ws, sets, label))
gamma_error = gjob.error() if gjob is not None else None
if gjob is not None and gjob.done() and gamma_error is None:
    values.update(gjob.result())
cols = st.columns(5)
for col, name in zip(cols, ann.MANY_NAMES, strict=True):
    res = values.get(name)
    if res is None and gjob is None:
        col.metric(ann.MANY_NAMES[name], "off", help="Turn on the γ toggle above to compute it.")
        continue
    if res is None:
        col.metric(ann.MANY_NAMES[name], "…", help="γ is computing in the background")
        continue
    value = res.overall.value
    col.metric(ann.MANY_NAMES[name], "n/a" if value is None else f"{value:.3f}",
               help=md(res.overall.reason) if res.overall.reason else ann.MEASURE_HELP[name]
               + (" ± is twice the Monte-Carlo standard deviation of γ." if name == "gamma"
                  else ""))
    if name in ann.GAMMA_MEASURES:
        sd = res.overall.stats.get("gamma_mc_sd")
        spread = f"± {2 * sd:.3f} · " if name == "gamma" and sd is not None else ""
        col.caption(f"{spread}{res.params['samples']} samples · seed {res.params['seed']}")
    elif value is None:
        col.caption(md(res.overall.reason))
wait_or_error(gjob, gamma_error, bar=True)
many = ann.many_table(values)
st.dataframe(many, hide_index=True, key="ann_many", placeholder="—")
download_buttons(many, "many_annotators", key="dl_ann_many")
per_label = ann.per_label_table(values)
if len(per_label) and label is None:
    with st.expander("Per label"):
        st.dataframe(per_label, hide_index=True, key="ann_per_label", placeholder="—")
        download_buttons(per_label, "many_annotators_per_label", key="dl_ann_per_label")

# ---- each annotator against the gold and the majority -------------------------------------------
st.subheader("Each annotator against the gold and the majority")
st.caption("Majority: the characters (per label) that more than half of the chosen sets marked, "
           "as maximal runs; a tie of an even panel is no majority"
           + (" (each annotator left out of its own majority)." if leave_one_out else "."))
if view is None:
    wait_or_error(vjob, view_error)
else:
    if gold_set is None:
        st.caption("No gold chosen: only the majority is shown.")
    table = ann.against_table(view)
    column = "F1" if measure in ann.ASYMMETRIC else measure
    if len(table):
        st.dataframe(above_one.mark(table), hide_index=True, key="ann_against", placeholder="—")
        above_one.note(table, key="ann_against")
        download_buttons(table, f"against_gold_and_majority_{measure}", key="dl_ann_against")
        st.plotly_chart(ann.against_bars(table, column, title=f"{column} of each annotator"),
                        key="ann_against_chart", width="stretch")

# ---- documents by disagreement ------------------------------------------------------------------
st.subheader("Documents by disagreement")
if view is None:
    wait_or_error(vjob, view_error)
else:
    ranking = ann.ranking_table(view.ranking, measure)
    st.caption(f"Lowest {measure} first"
               + (" (the value of all sets together; the pair is the one that agrees least)."
                  if view.many is not None else " (mean over the pairs; the pair is the one that "
                  "agrees least).") + " Select a row to draw that document below and to open it "
               "on the Documents page.")
    page_rows = paginate(ranking, key=state.K_ANN_RANK_PAGE)
    above_one.note(ranking, key="ann_ranking")
    picked = st.dataframe(above_one.mark(page_rows), hide_index=True, key=state.K_ANN_RANK_TABLE,
                          on_select="rerun", selection_mode="single-row", placeholder="—")
    download_buttons(ranking, f"documents_by_{measure}", key="dl_ann_ranking")
    rows = picked["selection"]["rows"]
    if rows:
        row = view.ranking[int(page_rows.iloc[rows[0]]["rank"]) - 1]
        if st.session_state.get(state.K_ANN_PICKED) != (row.doc, measure):
            # A newly picked row moves the drawing below to its document (once, so the selector
            # stays free to choose another).
            st.session_state[state.K_ANN_PICKED] = (row.doc, measure)
            st.session_state[state.K_ANN_DOC] = row.doc
        pair = row.pair or (sets[0], sets[1])
        st.page_link("pages/documents.py", icon="📄",
                     label=f"Open {md(row.doc)} on the Documents page: {md(pair[0])} vs "
                     f"{md(pair[1])}",
                     query_params={state.K_DOC: row.doc, state.K_SET_A: pair[0],
                                   state.K_SET_B: pair[1],
                                   **({state.K_METRIC: "mafalda"} if measure == "mafalda-f1"
                                      else {})})

# ---- one document, every annotator in its own lane ----------------------------------------------
st.subheader("One document, every annotator")
docs = study.docs
current = st.session_state.get(state.K_ANN_DOC) or st.query_params.get(state.K_ANN_DOC)
if current not in docs:
    st.session_state.pop(state.K_ANN_DOC, None)
doc = doc_picker.pick_document(ws, docs, key=state.K_ANN_DOC, bind="query-params")
text = ws.corpus.texts.get(doc)
colours = highlight.label_colours(labels)
# (name, set, what it is, DOM id, span-id prefix): the gold first when it is not a chosen set,
# then every chosen set, then their majority.
drawn: list[tuple[str, AnnotationSet, str, str, str]] = [
    (n, ws.sets[n], ws.sets[n].role, f"lane-{i}", chr(65 + i % 26)) for i, n in enumerate(sets)]
if gold_set is not None and gold_set not in sets:
    drawn.insert(0, (gold_set, ws.sets[gold_set], "gold, not a chosen set", "lane-gold", "G"))
drawn.append(("majority", ann.majority(ws.key, ws, sets, label),
              "strict majority of the chosen sets", "lane-majority", "M"))
used = {s.label for _, aset, *_ in drawn for s in ann.restricted(aset, doc, label).get(doc)}
st.html(highlight.legend(colours, used))
for name, aset, what, dom_id, prefix in drawn:
    items = highlight.span_items(ann.restricted(aset, doc, label), doc, prefix)
    listed = "" if doc in aset.spans else " · does not list this document"
    st.markdown(f"**{md(name)}** ({what}) · {len(items)} span(s){listed}")
    st.html(highlight.render_lanes(text, items, colours, dom_id=dom_id))

st.markdown(f"**γ alignment of {md(doc)}**")
# A document every chosen set lists has its γ in the corpus γ's breakdown (same chance samples,
# same value, computed in the background): the alignment itself needs no chance sample then.
everyone = gjob is not None and len(study.covering(doc)) == len(sets)
try:
    al = ann.alignment(ws.key, ws, sets, label, doc, seed, 1 if everyone else samples)
except SpanScopeError as exc:
    st.info(f"No alignment: {md(exc)}", icon="ℹ️")
else:
    shown_gamma, why = ann.document_gamma(al, values.get("gamma") if everyone else None,
                                          from_corpus=everyone)
    st.caption(f"γ of this document = {shown_gamma} ({samples} samples, seed {seed}; observed "
               f"disorder {al['observed_disorder']:.3f}; aligned in "
               f"{al['seconds'] * 1000:.0f} ms). Each unitary alignment groups at most one unit "
               "per annotator; ∅ marks an annotator without a unit there."
               + (f" Undefined: {md(why)}" if why else ""))
    if al["units"]:
        st.plotly_chart(ann.alignment_figure(al, colours, title=f"Best alignment of {doc}"),
                        key="ann_alignment_chart", width="stretch")
    align = ann.alignment_table(al)
    st.dataframe(paginate(align, key="ann_align_page"), hide_index=True, key="ann_alignment",
                 placeholder="—")
    download_buttons(align, f"alignment_{doc}", key="dl_ann_alignment")
