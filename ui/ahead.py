"""Work computed ahead: once a page is drawn (the end of ``app.py``), what the pages a user
likely opens next will ask for on a large corpus is started in the background, so their first
visits find it computed or computing (issue 29: "precompute what pages share once per corpus,
compute page extras lazily or in the background"). Nothing here blocks the page being drawn.
With ``--data`` the worker is started, and sent the sets of its first job, earlier still, as the
files are read (:func:`early`).

This module imports the pages' modules (Scores' results, Metric differences, Annotators); none
of them imports it, so it may: it is the one place that knows every page's defaults.
"""

from __future__ import annotations

from typing import cast

import streamlit as st

from core.metrics import registry
from ui import annotators, differences, errors, levels, results
from ui.current import workspace
from ui.state import (
    DEFAULTS,
    K_LEVEL,
    K_SET_A,
    K_SET_B,
    Workspace,
    compared_sets,
    default_pair,
)


def _choice(ws: Workspace, session: results.Session
            ) -> tuple[str, list[str], str | None, int, dict[str, str | None]] | None:
    """What the pages would show on ``ws`` with this ``session``: the reference, the sets
    compared with it, the system of Metric differences, the level and each span metric's
    variant (None when there is no pair to compare). An empty ``session`` is a fresh one's."""
    if ws.empty or len(ws.sets) < 2:
        return None
    ref = session.get(K_SET_A)
    if not isinstance(ref, str) or ref not in ws.sets:
        ref = default_pair(ws)[0]
    if ref is None:
        return None
    variants = {m.name: results.chosen_variant(m, session) for m in registry.span_metrics()}
    level = int(cast("int | str", session.get(K_LEVEL, DEFAULTS[K_LEVEL])))
    systems = compared_sets(ws, ref)
    chosen = session.get(K_SET_B)
    default = default_pair(ws)[1]
    system = (chosen if isinstance(chosen, str) and chosen in systems
              else default if default in systems else systems[0] if systems else None)
    return ref, systems, system, level, variants


def early(ws: Workspace | None) -> None:
    """As soon as the ``--data`` files are read (:func:`ui.cli_data.read_early`'s thread, as
    the server starts, while the first page's run waits for them): start the background worker
    and send it the two sets of the Metric differences path a fresh session shows, with the
    module that scores it imported there (:func:`ui.differences.sets_ahead`, above the path's
    threshold only). The worker's start and the sets it receives then overlap the first load
    instead of preceding the path's Martino part, which :func:`start` queues at the end of the
    first page's run as before: a job that now sends two keys and starts at once (issue 29,
    tenth pass). A session that chose another pair (a link's parameters) sends its sets with
    its own job, as before."""
    if ws is None:
        return
    choice = _choice(ws, {})
    if choice is None:
        return
    ref, _systems, system, _level, _variants = choice
    if system is not None:
        differences.sets_ahead(ws.key, ws, ref, system)


def start() -> None:
    """The current pair's scores under every span metric in a background thread
    (:func:`ui.results.score_ahead`), with the reference, variants and level the Scores page
    would take now. Once the first of them is computed (the path's system under MAFALDA), the
    thread queues the Martino part of the Metric differences page's rule path for the pair it
    would show on the background worker (:func:`ui.differences.path_ahead`; its MAFALDA steps
    are the pair's MAFALDA scores computed here, first); not at once, while the browser draws
    the page just run on the core the worker takes. After them,
    the thread categorises every compared system for the Errors page
    (:func:`ui.errors.error_table`: 0.3-0.4 s at 100,000 documents since the seventh pass)
    and queues the Annotators page's default view (:func:`ui.annotators.default_view`) on the
    worker. Only above :data:`ui.results.AHEAD_DOCS` documents, once per choice and process."""
    ws = workspace()
    choice = _choice(ws, st.session_state)
    if choice is None:
        return
    ref, systems, system, level, variants = choice
    view = annotators.default_view(ws)  # the session is read here, not in the thread

    # The rule path first, and at once: it runs in the worker's process (the other core) while
    # this process scores the pair, and needs nothing of those scores. Queued after them all, it
    # was ready about 5 s after the first load at 100,000 documents (2.2 s of the worker's CPU).
    # Its Martino part only (about 0.9 s of CPU since the eighth pass): the MAFALDA steps are
    # the MAFALDA scores of the pair that score_ahead computes below. With --data, early() sent
    # the worker its sets as the files were read: the job sends their keys only. The twelfth
    # pass queued it later, once the thread had its first score, to leave the other core to the
    # browser drawing the first page: the first load gained little, and Metric differences
    # opened right after it lost 0.35 s (median 2.76 against 2.41 s, one run at 3.69 s), so it
    # is queued at once again (docs/performance.md, issue 29, after the twelfth pass).
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
