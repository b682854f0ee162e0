"""Data: the bundled sample or uploaded files (format, role, name per file), with a summary."""

import streamlit as st

from ui import current, data

st.title("📂 Data")
data.page_caption()  # and which file keeps the decisions
data.plugin_notice()
cli_ws = data.cli_notice()
data.upload_files()
upload_ws = data.choose_source(cli_ws)
ws = current.workspace()
loaded_ws = current.loaded_workspace()
data.files_table(ws, loaded_ws, upload_ws)
if ws.empty:
    st.info("No annotation set is loaded: upload files above, or choose a sample corpus.")
    st.stop()
data.summary(ws, loaded_ws)
