"""Work computed ahead: once a page is drawn (the end of ``app.py``), what the pages a user
likely opens next will ask for on a large corpus is started in the background, so their first
visits find it computed or computing (issue 29: "precompute what pages share once per corpus,
compute page extras lazily or in the background"). Nothing here blocks the page being drawn.

This module imports the pages' modules (Scores' results, Metric differences, Annotators); none
of them imports it, so it may: it is the one place that knows every page's defaults.
"""

from __future__ import annotations

import streamlit as st

from core.metrics import registry
from ui import annotators, differences, errors, levels, results
from ui.current import workspace
from ui.state import DEFAULTS, K_LEVEL, K_SET_A, K_SET_B, compared_sets, default_pair


def start() -> None:
    """The current pair's scores under every span metric in a background thread
    (:func:`ui.results.score_ahead`), with the reference, variants and level the Scores page
    would take now. Before them, the Martino part of the Metric differences page's rule path for
    the pair it would show is queued on the background worker (:func:`ui.differences.path_ahead`;
    its MAFALDA steps are the pair's MAFALDA scores computed here, first). After them,
    the thread categorises every compared system for the Errors page
    (:func:`ui.errors.error_table`: 0.3-0.4 s at 100,000 documents since the seventh pass)
    and queues the Annotators page's default view (:func:`ui.annotators.default_view`) on the
    worker. Only above :data:`ui.results.AHEAD_DOCS` documents, once per choice and process."""
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
    view = annotators.default_view(ws)  # the session is read here, not in the thread

    # The rule path first, and at once: it runs in the worker's process (the other core) while
    # this process scores the pair, and needs nothing of those scores. Queued after them, it
    # was ready about 5 s after the first load at 100,000 documents (2.2 s of the worker's CPU).
    # Its Martino part only (about 0.9 s of CPU since the eighth pass): the MAFALDA steps are
    # the MAFALDA scores of the pair that score_ahead computes below.
    if system is not None:
        differences.path_ahead(ws, ref, system, level, variants.get("mafalda") or "paper")

    def then() -> None:  # other pages' first visits
        # The Errors page's categories of every compared system, in this thread (their cache
        # is this process's), at the level its selector takes (2 when the reference's labels
        # have no levels): before the view, whose study this thread builds first.
        err_level = level if levels.has_levels(ws, ref) else 2
        for name in systems:
            errors.error_table(ws.key, ws, ref, name, err_level)
        if view is not None:  # a job on the worker
            view()

    # MAFALDA first, and the path's system first: the Metric differences page takes its path's
    # MAFALDA steps from here, and waits for them when it is opened before they are done
    # (ui.differences.mafalda_coming); Scores and Overview wait for every system and metric, in
    # whatever order.
    ordered = sorted(systems, key=lambda s: s != system)  # stable: the others keep their order
    results.score_ahead(ws, ref, ordered, variants, level,
                        level_applies=lambda: levels.has_levels(ws), first=("mafalda",),
                        then=then)
