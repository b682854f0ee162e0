"""Annotators: agreement between any number of annotation sets, pair by pair and all together."""

import streamlit as st

from ui import annotators as ann

st.title("👥 Annotators")
ws, clipped = ann.data()  # spans a reader placed past their text are clipped for agreement
choice = ann.choose(ws)
result = ann.compute(ws, choice, clipped)
ann.progress_bars(result)
values = ann.many_results(ws, choice, result)
# Lazy tabs: only the open one is drawn, so a switch of measure redraws the matrix and the
# tiles, not the ranking of every document (docs/performance.md, issue 29, fifth pass).
who, against, documents = ann.tabs()
if who.open is not False:
    with who:
        ann.pairwise_matrix(ws, choice, result)
        ann.together(ws, choice, result, values)
if against.open is not False:
    with against:
        ann.against_reference(ws, choice, result)
if documents.open is not False:
    with documents:
        ann.documents_by_disagreement(ws, choice, result)
        doc, colours = ann.document_lanes(ws, choice, result)
        ann.document_alignment(ws, choice, result, values, doc, colours)
