"""A document picker that stays fast on 100,000 documents: a search box and a bounded selectbox.

A selectbox of 100,000 options is sent to the browser on every rerun and filtered there a
keystroke at a time (seconds each). The pickers of the Annotators and Curation pages therefore
list at most :data:`ui.documents.DOC_WINDOW` documents (plus the current one, so a link to any
document works), and above that a search box (id or text, as on the Documents page) narrows the
list to the documents wanted.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import documents
from ui.escape import md
from ui.state import Workspace


def search_key(key: str) -> str:
    """Session key of the search box above the selectbox ``key``."""
    return f"{key}_find"


def pick_document(ws: Workspace, docs: list[str], *, key: str, **selectbox_kwargs: Any) -> str:
    """A selectbox (``key``) over at most :data:`~ui.documents.DOC_WINDOW` of ``docs``, with a
    search box above it when there are more; returns the chosen document (the first listed when
    the search matches nothing, with a warning)."""
    current = st.session_state.get(key) or st.query_params.get(key)
    found = docs
    if len(docs) > documents.DOC_WINDOW:
        query = st.text_input(
            f"Find a document among {len(docs):,} (id or text)", key=search_key(key),
            placeholder="e.g. doc4711 or a word of its text",
            help=f"The list below shows {documents.DOC_WINDOW:,} documents at a time.")
        found = documents.search_documents(ws.key, ws, tuple(docs), query) if query else docs
        if not found:
            st.warning(f"No document matches “{md(query)}”; the list shows the first ones.")
            found = docs
    options = documents.document_window(found, current if current in docs else None)
    label = f"Document ({len(docs):,})"
    if len(options) < len(found):
        label = (f"Document: the first {documents.DOC_WINDOW:,} of {len(found):,} listed, search "
                 "for others")
    if st.session_state.get(key) is not None and st.session_state[key] not in options:
        del st.session_state[key]  # another search: its first match
    return str(st.selectbox(label, options, key=key, **selectbox_kwargs))
