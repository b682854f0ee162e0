"""Curation: turn several annotators' sets into one curated gold, one disputed span at a time."""

from functools import partial

import streamlit as st

from core.analysis.consensus import BOUNDARIES, MATCHES, curated_set
from core.errors import SpanScopeError
from core.render import highlight
from ui import curation as cur
from ui import current, doc_picker, state, text_policy
from ui.escape import md
from ui.widgets import notes, paginate

st.title("⚖️ Curation")
source = current.source_workspace()
# Spans a reader placed past their text (MAFALDA model outputs) are clipped for the consensus.
ws, clipped = text_policy.for_agreement(source)
if ws.empty or len(ws.sets) < 2 or not ws.has_spans:
    st.info("Curation needs at least two annotation sets with spans (annotators).", icon="ℹ️")
    st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
    st.stop()
if not ws.shareable:
    st.caption("🔗 " + state.UPLOAD_LINK_NOTE)
st.caption("Propose a consensus from the annotators' spans by explicit rules, then accept, "
           "reject, relabel or re-bound each disputed span. The result is the set "
           f"**{cur.curated_name(ws)}** on every page (pick it as the gold) and downloads in any "
           "format; your decisions download as a file you can upload later to resume.")

names = list(ws.sets)
default_sets = state.set_options(ws, "annotator")
if len(default_sets) < 2:
    default_sets = names
if any(n not in names for n in st.session_state.get(cur.K_CUR_SETS) or ()):
    del st.session_state[cur.K_CUR_SETS]

# ---- the rules ---------------------------------------------------------------------------------
chosen = st.multiselect("Annotators", names, default=default_sets, key=cur.K_CUR_SETS,
                        bind="query-params", help="The sets to adjudicate (two or more).")
if len(chosen) < 2:
    st.info("Pick at least two annotation sets above.", icon="ℹ️")
    st.stop()
sets = tuple(sorted(chosen))
c1, c2, c3 = st.columns([1, 2, 2])
k_default = len(sets) // 2 + 1
if int(st.session_state.get(cur.K_CUR_K) or k_default) > len(sets):
    del st.session_state[cur.K_CUR_K]  # fewer sets than k now: back to the default
k = int(c1.number_input("Min. annotators (k)", min_value=1, max_value=len(sets),
                        value=k_default, step=1, key=cur.K_CUR_K, bind="query-params",
                        help=f"A span is kept when at least k of the {len(sets)} annotators "
                        "marked it: 1 = union, all = intersection."))
match = c2.selectbox("Match spans by", MATCHES, key=cur.K_CUR_MATCH, bind="query-params",
                     format_func=lambda m: f"{m}: {cur.MATCH_HELP[m]}")
bounds = c3.selectbox("Boundaries", BOUNDARIES, key=cur.K_CUR_BOUNDS, bind="query-params",
                      format_func=lambda b: f"{b}: {cur.BOUNDS_HELP[b]}",
                      disabled=match in ("exact", "char"),
                      help="Not used by exact and char matching.")

n_docs = max(len(ws.sets[n].spans) for n in sets)
if n_docs > cur.CONSENSUS_AUTO_DOCS and not st.toggle(
        f"Build the consensus of all {n_docs:,} documents", key=cur.K_CUR_BUILD,
        persist_state="session",
        help=f"Off by default above {cur.CONSENSUS_AUTO_DOCS:,} documents: the consensus "
        "aligns every document of every annotator (γ matching takes about 10 s per 10,000 "
        "documents; exact and char matching are faster)."):
    st.info(f"The consensus of {n_docs:,} documents is built when asked: choose the rules "
            "above, then turn on “Build the consensus”. It is computed once per set of rules "
            "and kept while the server runs.", icon="⏸️")
    st.stop()
try:
    result = cur.proposal(ws.key, ws, sets, k, match, bounds)
except SpanScopeError as exc:
    st.error("These sets cannot be adjudicated: "
             f"{md(text_policy.for_agreement_pages(str(exc)))}", icon="❌")
    st.page_link("pages/data.py", label="Change the choice on the Data page", icon="📂")
    st.stop()
notes([*clipped, *result.warnings], key="cur_warnings")
decided = cur.overrides(ws.key)
focus = st.selectbox("Step through", list(cur.FOCUS), key=cur.K_CUR_FOCUS,
                     bind="query-params", help="Which disputed spans the buttons and keys "
                     "step through: all, the ties and conflicts the rules could not settle, "
                     "the label disputes, or the spans some annotators did not mark.")
disputed = [d for d in result.decisions if d.disputed and cur.FOCUS[focus](d)]

# ---- resume from a file ------------------------------------------------------------------------
with st.expander("📤 Resume: upload a decisions file", expanded=False):
    upload = st.file_uploader("Decisions file (CSV downloaded from this page or written by "
                              "`python -m core adjudicate --decisions`)", type=["csv"],
                              key=cur.K_CUR_UPLOAD)
    if upload is not None and st.session_state.get(cur.K_CUR_UPLOADED) != upload.file_id:
        st.session_state[cur.K_CUR_UPLOADED] = upload.file_id
        st.session_state[cur.K_CUR_NOTE] = cur.apply_upload(ws.key, result, upload.getvalue(),
                                                              upload.name)
        cur.set_inputs(disputed[0] if disputed else None, decided)
    note = st.session_state.get(cur.K_CUR_NOTE)
    if note:
        st.markdown(note)

curated = curated_set(result, decided, name=cur.curated_name(ws))
cur.publish(source, curated)  # every page's workspace adds it to the source

# ---- progress ----------------------------------------------------------------------------------
done, total = cur.progress(result, decided)
m1, m2, m3, m4 = st.columns(4)
m1.metric("Decided", f"{done} / {total}", help="Disputed spans you have decided / all disputed "
          "spans (a span is disputed when not every annotator marked it identically).")
m2.metric("Proposed spans", len(result.decisions))
m3.metric("Unanimous", len(result.decisions) - total)
m4.metric("Curated spans", curated.span_count())
st.progress(done / total if total else 1.0,
            text=f"{done} of {total} disputed spans decided" if total
            else "Nothing disputed: the annotators agree everywhere.")

# ---- the disputed span shown -------------------------------------------------------------------
docs = list(result.set.spans)
pos = int(st.session_state.get(cur.K_CUR_POS) or 0)
pos = max(0, min(pos, len(disputed) - 1)) if disputed else 0
current = disputed[pos] if disputed else None
if current is not None and cur.K_CUR_START not in st.session_state:
    cur.set_inputs(current, decided)
doc_now = st.session_state.get(cur.K_CUR_DOC)
if doc_now not in docs:
    st.session_state[cur.K_CUR_DOC] = current.doc if current is not None else docs[0]

st.subheader("Disputed spans")
if current is None:
    st.success("No disputed span: every proposal is unanimous." if not total else
               f"No disputed span is of the kind chosen in “Step through” ({focus}).", icon="✅")
else:
    text_len = len(t) if (t := ws.corpus.texts.get(current.doc)) is not None else None
    args = (ws.key, disputed, pos)
    st.caption(f"Disputed span **{pos + 1} of {len(disputed)}** ({focus}; document "
               f"{md(current.doc)}). "
               "Keys: **A** accept · **X** reject · **N** next · **P** previous · **Shift+N** next "
               "undecided · **L** relabel · **B** set bounds · **U** undo (while no text field "
               "has the focus).")
    row = st.container(horizontal=True)  # buttons at their own width, wrapping if narrow
    row.button("◀ Previous", key="cur_prev", shortcut=cur.SHORTCUTS["previous"],
                on_click=cur.go_to, args=(pos - 1, disputed, decided), disabled=pos == 0)
    row.button("Next ▶", key="cur_next", shortcut=cur.SHORTCUTS["next"],
                on_click=cur.go_to, args=(pos + 1, disputed, decided),
                disabled=pos >= len(disputed) - 1)
    row.button("✓ Accept", key="cur_accept", type="primary", shortcut=cur.SHORTCUTS["accept"],
                on_click=cur.decide, args=(*args, "accept", text_len),
                help="Keep this span (as shown) in the curated set, then go to the next.")
    row.button("✗ Reject", key="cur_reject", shortcut=cur.SHORTCUTS["reject"],
                on_click=cur.decide, args=(*args, "reject", text_len),
                help="Leave this span out of the curated set, then go to the next.")
    row.button("↺ Undo", key="cur_undo", shortcut=cur.SHORTCUTS["undo"],
                on_click=cur.decide, args=(*args, "undo", text_len),
                disabled=current.key not in decided, help="Back to the rule's proposal.")
    todo = cur.next_undecided(disputed, decided, pos)
    row.button("⏭ Next undecided", key="cur_todo", shortcut="Shift+N",
                on_click=cur.go_to, args=(todo if todo is not None else pos, disputed, decided),
                disabled=todo is None, help="Skip to the next disputed span you have not "
                "decided (from the start when none is left after this one).")
    labels = state.all_labels(ws.key, ws)
    if st.session_state.get(cur.K_CUR_LABEL) not in labels:
        st.session_state[cur.K_CUR_LABEL] = current.span.label
    e1, e2, e3, e4, e5 = st.columns([3, 1, 1, 1, 1], vertical_alignment="bottom")
    e1.selectbox("New label", labels, key=cur.K_CUR_LABEL)
    e2.button("🏷️ Relabel", key="cur_relabel", shortcut=cur.SHORTCUTS["relabel"],
              on_click=cur.decide, args=(*args, "relabel", text_len),
              help="Keep this span with the label chosen on the left.")
    e3.number_input("Start", min_value=0, step=1, key=cur.K_CUR_START)
    e4.number_input("End", min_value=1, step=1, key=cur.K_CUR_END)
    e5.button("↔ Set bounds", key="cur_bounds_btn", shortcut=cur.SHORTCUTS["bounds"],
              on_click=cur.decide, args=(*args, "bounds", text_len),
              help="Keep this span with the start and end on the left (end exclusive).")
    st.html(cur.current_card(current, ws.corpus.texts.get(current.doc), decided))
    with st.expander(f"What this decision does to each annotator's span F1 on document "
                     f"{md(current.doc)}"):
        effect = cur.decision_effect(result, decided, current, [ws.sets[n] for n in sets],
                                     ws.texts())
        st.dataframe(effect, hide_index=True, key="cur_effect",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in effect.columns if c.startswith(("span", "kept"))},
                     placeholder="—")
        st.caption("Da San Martino et al. (2019) span F1 (SemEval-2021 variant) of each "
                   "annotator on this document, against the curated document with this span "
                   "kept, then dropped: who the decision agrees with.")

# ---- one document: annotators in lanes, the consensus below ------------------------------------
st.subheader("The document, annotator by annotator")
doc = doc_picker.pick_document(ws, docs, key=cur.K_CUR_DOC)
text = ws.corpus.texts.get(doc)
colours = highlight.label_colours(state.all_labels(ws.key, ws))
members = current.members if current is not None and current.doc == doc else ()
rule_items = cur.proposal_items(result, doc, None)
cur_items = cur.proposal_items(result, doc, decided)
used = {s.label for n in sets for s in ws.sets[n].get(doc)} | {
    lab for it in cur_items for lab in it.labels}
st.html(highlight.legend(colours, used))
st.caption("Each lane is one set; a tag (A1, P3, ✓3…) marks where a span starts and names it. "
           "The shown disputed span's spans are drawn thicker on a yellow tint. P = the rule's "
           "proposal, ✓ = the curated set (number = row # in the table below).")
for i, name in enumerate(sets):
    items, marked = cur.items_for(ws.sets[name], doc, chr(65 + i % 26), members)
    listed = "" if doc in ws.sets[name].spans else " · does not list this document"
    st.markdown(f"**{md(name)}** · {len(items)} span(s){listed}")
    st.html(highlight.render_lanes(text, items, colours, partners=marked, dom_id=f"cur-lane-{i}"))
shown_id = current.id.rsplit("#", 1)[1] if current is not None and members else None
st.markdown(f"**Proposed consensus** (k = {k}, {match}"
            + (f", {bounds} boundaries" if match not in ("exact", "char") else "")
            + f") · {len(rule_items)} span(s)")
st.html(highlight.render_lanes(text, rule_items, colours,
                               partners=[f"P{shown_id}"] if shown_id else (),
                               dom_id="cur-proposed"))
st.markdown(f"**Curated** (the proposal with your decisions) · {len(cur_items)} span(s)")
st.html(highlight.render_lanes(text, cur_items, colours,
                               partners=[f"✓{shown_id}"] if shown_id else (),
                               dom_id="cur-curated"))
table = cur.doc_table(result, doc, text, decided)
shown_rows = paginate(table, key=cur.K_CUR_PAGE)
st.caption("Select a row to show that proposal above (and decide it).")
st.dataframe(shown_rows, hide_index=True, key=cur.K_CUR_TABLE, selection_mode="single-row",
             on_select=partial(cur.pick_row, doc, list(shown_rows["#"]) if len(shown_rows)
                               else [], disputed, decided), placeholder="—")

# ---- agreement with the curated set ------------------------------------------------------------
st.subheader("Each annotator against the curated set")
st.caption("Span P/R/F1: Da San Martino et al. (2019), SemEval-2021 variant, with the curated "
           "set as the gold (partial-overlap credit). Character κ: Cohen's κ over characters × "
           "labels. Both recomputed as you decide.")
agree = cur.agreement_table(cur.digest(curated), tuple(ws.sets[n] for n in sets), curated,
                            ws.texts(), sets)
st.dataframe(agree, hide_index=True, key="cur_agreement",
             column_config={c: st.column_config.NumberColumn(format="%.3f")
                            for c in agree.columns if c != "annotator"}, placeholder="—")

# ---- downloads ---------------------------------------------------------------------------------
st.subheader("Download")
d1, d2, d3 = st.columns([2, 2, 2])
d1.download_button("⬇️ Decisions (CSV)", lambda: cur.decisions_file(result, decided),
                   file_name="decisions.csv", mime="text/csv", key="cur_dl_decisions",
                   help="Every proposal with the rule's and your decision; upload it above to "
                   "resume.")
fmt = d2.selectbox("Format of the curated set", cur.SPAN_FORMATS, key=cur.K_CUR_FORMAT)
try:
    data, fname, mime = cur.download_files(fmt, ws.texts(), curated)
except SpanScopeError as exc:
    d3.caption(f"Cannot write {fmt}: {md(exc)}")
else:
    d3.download_button(f"⬇️ Curated set ({fmt})", data, file_name=fname, mime=mime,
                       key="cur_dl_set")
st.page_link("pages/scores.py", icon="📊",
             label=f"Score the systems against “{md(curated.name)}” on the Scores page")
