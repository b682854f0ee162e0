"""Scores: every system against the reference under both span metrics and the text-level scores."""

import streamlit as st

from ui import scores
from ui.current import workspace_or_stop

st.title("📊 Scores")
ws = workspace_or_stop(2, "Scores need a reference set and at least one other set.")
scores.text_labels_only(ws)  # HatEval files: their tables, and the page stops
setup = scores.setup(ws)
ws = scores.shared_documents(ws, setup)  # sets covering different documents: a note, an option
scores.all_systems(ws, setup)
detail = scores.one_system(ws, setup)
scores.paired(ws, setup, detail)
