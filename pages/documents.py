"""Documents: one document, two sets side by side, span by span, with each span's contributions."""

import streamlit as st

from ui import documents
from ui.current import workspace_or_stop

st.title("📄 Documents")
ws = workspace_or_stop(1, "No annotation set is loaded yet.")
view = documents.choose(ws)
doc, filters = documents.pick(ws, view)
shown = documents.select_span(ws, view, doc, filters)
documents.side_by_side(ws, view, shown)
documents.merged_view(ws, view, shown)
documents.contributions(view, shown)
documents.scores(ws, view, doc)
