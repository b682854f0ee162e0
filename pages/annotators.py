"""Annotators: agreement between any number of annotation sets, pair by pair and all together."""

import streamlit as st

from ui import annotators as ann

st.title("👥 Annotators")
ws, clipped = ann.data()  # spans a reader placed past their text are clipped for agreement
choice = ann.choose(ws)
result = ann.compute(ws, choice, clipped)
ann.pairwise_matrix(ws, choice, result)
values = ann.together(ws, choice, result)
ann.against_reference(ws, choice, result)
ann.documents_by_disagreement(ws, choice, result)
doc, colours = ann.document_lanes(ws, choice, result)
ann.document_alignment(ws, choice, result, values, doc, colours)
