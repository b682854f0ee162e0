"""Documents: one document, two sets side by side, span by span, with each span's contributions."""

import streamlit as st

from ui import documents
from ui.current import workspace_or_stop

st.title("📄 Documents")
ws = workspace_or_stop(1, "No annotation set is loaded yet.")
view = documents.choose(ws)
listed = documents.listing(ws, view)
documents.document(ws, view, listed)  # a fragment: a document switch reruns this part alone
