"""Taxonomy levels on the pages: shown only where the data's labels have levels (issue 26, §5).

MAFALDA's fallacies have three levels (Helwe et al. 2024, §3: 23 fallacies, their 3 groups,
fallacy or not); other labels (propaganda techniques, CoNLL entity types, brat types) are one
class per label (:func:`core.model.taxonomy.flat`), where level 1 equals level 2 and level 0 only
asks "any label or none". A level control and the MAFALDA wording ("Level 2", "These labels are
not MAFALDA's") on such data only puzzle the reader, so every page asks :func:`has_levels` and
draws its level control through :func:`level_select`, which leaves it out (level 2) when the
labels have no levels.
"""

from __future__ import annotations

from typing import Any

from core.model.taxonomy import FLAT_SOURCE
from ui import state
from ui.results import taxonomy_for


def has_levels(ws: state.Workspace, *names: str) -> bool:
    """Whether the labels of the sets ``names`` (default: every set of ``ws``) form a taxonomy
    with levels (MAFALDA's; :func:`ui.results.taxonomy_for`)."""
    chosen = names or tuple(ws.sets)
    if not chosen:
        return False
    return taxonomy_for(ws, *chosen).source != FLAT_SOURCE


def level_select(container: Any, ws: state.Workspace, *names: str, label: str = "Level",
                 **kwargs: Any) -> int:
    """The level selectbox (bound to :data:`ui.state.K_LEVEL`) in ``container`` when the labels
    of ``names`` (default: every set) have levels; else nothing is drawn and the level is 2,
    the labels as they are. ``kwargs`` go to the selectbox (``help``, ``disabled``)."""
    if not has_levels(ws, *names):
        return 2
    return int(container.selectbox(label, state.LEVELS, key=state.K_LEVEL, bind="query-params",
                                   **kwargs))
