"""Labels: which labels occur together and which get confused, and the spans behind each cell."""

import streamlit as st

from ui import labels
from ui.current import workspace_or_stop

st.title("🏷️ Labels")
ws = workspace_or_stop(1, "No annotation set is loaded yet.", needs_spans=True)
choice = labels.choose(ws)
matrix = labels.matrix(ws, choice)
cell_options = labels.heatmap_view(ws, choice, matrix)
labels.spans_behind(ws, choice, matrix, cell_options)
