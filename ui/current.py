"""The workspace the pages show now, chosen by the session.

Its own module, above :mod:`ui.state`, :mod:`ui.cli_data` and :mod:`ui.curation`: the choice
needs all three (the source in the session, the command line's files, the curated set) and each
of them imports :mod:`ui.state`, which therefore imports none of them.
"""

from __future__ import annotations

import streamlit as st

from ui.cli_data import cli_workspace
from ui.curation import with_curated
from ui.escape import md
from ui.state import (
    K_SAMPLE,
    K_SOURCE,
    K_UPLOAD_WS,
    UPLOAD_LINK_NOTE,
    Workspace,
    empty_workspace,
    init_state,
    load_sample,
    sample_names,
    with_given_names,
)


def workspace() -> Workspace:
    """The data the pages show now: uploads when chosen on the Data page, else the sample; with
    the Curation page's ``curated`` set once the lead has curated one."""
    return with_curated(source_workspace())


def source_workspace() -> Workspace:
    """:func:`workspace` without the curated set, its sets named as on the Data page
    (:func:`ui.state.with_given_names`)."""
    return with_given_names(loaded_workspace())


def loaded_workspace() -> Workspace:
    """:func:`source_workspace` with the sets named as loaded (the key of the Data page's
    names, :data:`ui.state.K_SET_NAMES`)."""
    init_state()
    if st.session_state.get(K_SOURCE) == "cli":
        return cli_workspace() or empty_workspace()
    if st.session_state.get(K_SOURCE) == "upload":
        uploaded = st.session_state.get(K_UPLOAD_WS)
        return uploaded if isinstance(uploaded, Workspace) else empty_workspace()
    names = sample_names()
    if not names:
        return empty_workspace()
    chosen = st.session_state.get(K_SAMPLE) or st.query_params.get(K_SAMPLE) or names[0]
    if chosen not in names:
        chosen = names[0]
    return load_sample(chosen)


def workspace_or_stop(min_sets: int, message: str, *,
                      needs_spans: bool = False) -> Workspace:
    """The current workspace when it holds at least ``min_sets`` annotation sets (and a span,
    with ``needs_spans``); else an info ``message``, a link to the Data page, and the page
    stops. Notes under uploaded data that links do not carry it."""
    ws = workspace()
    if ws.empty or len(ws.sets) < min_sets:
        st.info(message, icon="ℹ️")
        st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
        st.stop()
    if needs_spans and not ws.has_spans and not any(r.records is not None
                                                    for r in ws.reports if r.ok):
        # no span and no text label either (an empty CAS): nothing to score anywhere
        st.info(f"No set of “{md(ws.title)}” holds a span, so this page has nothing to show: "
                "load files with spans on the Data page.", icon="ℹ️")
        st.page_link("pages/data.py", label="Load data on the Data page", icon="📂")
        st.stop()
    if needs_spans and not ws.has_spans:
        st.info(f"No set of “{md(ws.title)}” holds a span (text labels only, such as HatEval "
                "files), so this page has nothing to show; its text-level scores are on the "
                "Scores page.", icon="ℹ️")
        st.page_link("pages/scores.py", label="Scores", icon="📊")
        st.stop()
    if not ws.shareable:
        st.caption("🔗 " + UPLOAD_LINK_NOTE)
    return ws

