"""SpanScope dashboard entry point: page configuration and navigation only.

Run with ``streamlit run app.py``. Every page lives in ``pages/``; shared state keys and the
sample-data loader live in ``ui/state.py``.
"""

from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent

# (file, title, icon, url path). Emoji icons: material icons would be fetched from the network.
PAGES = [
    ("pages/home.py", "Overview", "🏠", "overview"),
    ("pages/data.py", "Data", "📂", "data"),
    ("pages/scores.py", "Scores", "📊", "scores"),
    ("pages/documents.py", "Documents", "📄", "documents"),
    ("pages/differences.py", "Metric differences", "🔀", "differences"),
    ("pages/labels.py", "Labels", "🏷️", "labels"),
    ("pages/annotators.py", "Annotators", "👥", "annotators"),
    ("pages/learn.py", "Learn", "🎓", "learn"),
]

st.set_page_config(page_title="SpanScope", page_icon="🔎", layout="wide")

pages = [
    st.Page(str(ROOT / path), title=title, icon=icon, url_path=url, default=(i == 0))
    for i, (path, title, icon, url) in enumerate(PAGES)
    if (ROOT / path).exists()
]
st.navigation(pages, position="sidebar").run()
