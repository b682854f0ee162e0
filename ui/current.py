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
    DEFAULTS,
    K_LEVEL,
    K_SAMPLE,
    K_SET_A,
    K_SET_B,
    K_SOURCE,
    K_UPLOAD_WS,
    UPLOAD_LINK_NOTE,
    Workspace,
    compared_sets,
    default_pair,
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
    if needs_spans and not ws.has_spans:
        st.info(f"No set of “{md(ws.title)}” holds a span (text labels only, such as HatEval "
                "files), so this page has nothing to show; its text-level scores are on the "
                "Scores page.", icon="ℹ️")
        st.page_link("pages/scores.py", label="Scores", icon="📊")
        st.stop()
    if not ws.shareable:
        st.caption("🔗 " + UPLOAD_LINK_NOTE)
    return ws


def score_ahead() -> None:
    """Once a page is drawn (``app.py``): the current pair's scores under every span metric in
    the background (:func:`ui.results.score_ahead`), with the reference, variants and level the
    Scores page would take now, so that its first visit finds them computed; then the Metric
    differences page's rule path for the pair it would show (:func:`ui.differences.path_ahead`)
    and the Annotators page's default view (:func:`ui.annotators.default_view`), both queued on
    the background worker."""
    from core.metrics import registry
    from ui import levels, results

    ws = workspace()
    if ws.empty or len(ws.sets) < 2:
        return
    ref = st.session_state.get(K_SET_A)
    if ref not in ws.sets:
        ref = default_pair(ws)[0]
    if ref is None:
        return
    variants = {m.name: results.chosen_variant(m) for m in registry.span_metrics()}
    level = int(st.session_state.get(K_LEVEL, DEFAULTS[K_LEVEL]))
    systems = compared_sets(ws, ref)
    chosen = st.session_state.get(K_SET_B)
    default = default_pair(ws)[1]
    system = (chosen if chosen in systems else default if default in systems
              else systems[0] if systems else None)

    from ui import annotators

    view = annotators.default_view(ws)

    def then() -> None:  # other pages' first visits, in the background worker
        from ui import differences

        if system is not None:
            differences.path_ahead(ws, ref, system, level, variants.get("mafalda") or "paper")
        if view is not None:
            view()

    results.score_ahead(ws, ref, systems, variants, level,
                        level_applies=lambda: levels.has_levels(ws), then=then)
