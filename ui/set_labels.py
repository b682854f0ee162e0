"""The labels a set uses, counted rather than sorted (issue 29, twelfth pass).

A module of its own so that :mod:`ui.state` (kept small) and :mod:`ui.results` share it.
"""

from __future__ import annotations

import numpy as np

from core.model import AnnotationSet


def label_names(aset: AnnotationSet) -> list[str]:
    """``aset.labels()`` (every label of at least one span, sorted), from a count of the label
    column rather than its sort: :meth:`core.model.table.SpanTable.used_labels` orders the
    labels by first appearance with ``np.unique`` (a stable sort of the column, 30 ms a set of
    1M spans), an order this sorted list does not need; ``np.bincount`` is one pass (2 ms).
    The first page's run asks for every set's labels twice, the colours'
    (:func:`ui.state.all_labels`) and the taxonomy's (:func:`ui.results.taxonomy_for`).

    >>> from core.model import Span
    >>> label_names(AnnotationSet("g", {"d1": (Span(0, 3, "Slogans"), Span(4, 9, "Doubt")),
    ...                                 "d2": (Span(1, 2, "Doubt"),), "d3": ()}))
    ['Doubt', 'Slogans']
    """
    table = aset.table
    if not len(table.label):
        return []
    names = table.labels
    used = np.flatnonzero(np.bincount(table.label, minlength=len(names)))
    return sorted({names[k] for k in used.tolist()})
