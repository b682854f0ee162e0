"""Overview: what SpanScope is, the loaded corpus at a glance (already scored), links onward."""

import streamlit as st

from ui import current, home

st.title("🔎 SpanScope")
st.markdown(
    "Score, debug and teach **span-level annotation metrics**: compare gold annotations with "
    "system predictions or other annotators, character span by character span, under the "
    "Da San Martino et al. (2019) metric used by NLP4IF-2019, SemEval-2020 Task 11 and "
    "SemEval-2021 Task 6, and the MAFALDA metric (Helwe et al. 2024), which accepts alternative "
    "gold labels. See exactly which pair of spans earns which share of precision and recall."
)
home.loaded(current.workspace())
home.where_next()
