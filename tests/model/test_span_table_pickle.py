"""A :class:`~core.model.table.SpanTable` pickles its columns only: what a cached property keeps
is left out, so a thread computing one while another pickles the table for the background
worker does not change the dict being pickled (docs/robustness.md, "Waits that end")."""

from __future__ import annotations

import pickle

from core.model.table import SpanTable


def test_a_table_pickles_its_columns_and_not_what_it_cached() -> None:
    table = SpanTable.from_columns(["d1", "d2"], [0, 0], [0, 4], [3, 9], [3, 1],
                                   ["Unused", "Slogans", "Also unused", "Doubt"])
    assert table.sorted_labels == ("Doubt", "Slogans")  # cached in the instance's __dict__
    state = table.__getstate__()
    assert set(state) == {"doc_ids", "labels", "doc", "start", "end", "label", "offsets"}
    copy = pickle.loads(pickle.dumps(table))
    assert "sorted_labels" not in vars(copy)
    assert copy.doc_ids == table.doc_ids and copy.labels == table.labels
    assert all((getattr(copy, c) == getattr(table, c)).all()
               for c in ("doc", "start", "end", "label", "offsets"))
    assert copy.sorted_labels == table.sorted_labels  # computed again where it is asked for
