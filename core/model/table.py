"""The one storage of an annotation set's spans: :class:`SpanTable` (four NumPy columns, the
document ids and label names kept once) and :class:`SpanView`, the read-only
``{document id: (Span, ...)}`` mapping over it that builds a document's :class:`~core.model.Span`
tuple when it is asked for (issue 15, target 1: ``Span`` objects exist only where a caller asks
for them). Readers feed a table through their builder (``core/formats/_columns.py``); metrics
that work on arrays read it directly (:mod:`core.metrics.overlap`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - pandas is imported only when a frame is asked for
    import pandas as pd
from core.model.span import Span, make_spans

_START = attrgetter("start")
_END = attrgetter("end")
_LABEL = attrgetter("label")


def _span_order(doc: np.ndarray, start: np.ndarray, end: np.ndarray, label: np.ndarray,
                names: Sequence[str]) -> np.ndarray | None:
    """The permutation that sorts rows by document, start, end, label name; None when they are
    sorted already."""
    if not len(doc):
        return None
    rank = np.empty(len(names), dtype=np.int64)
    rank[np.argsort(np.array(names, dtype=object), kind="stable")] = np.arange(len(names))
    lab_rank = rank[label]
    w_doc, w_start, w_end = (int(col.max()).bit_length() for col in (doc, start, end))
    w_label = max(len(names) - 1, 0).bit_length()
    if (int(start.min()) >= 0 and int(end.min()) >= 0
            and w_doc + w_start + w_end + w_label <= 63):
        # All four keys packed into one integer: one sort instead of a lexsort (10x faster).
        key = (((doc.astype(np.int64) << w_start | start) << w_end | end) << w_label) | lab_rank
        if not np.any(key[1:] < key[:-1]):
            return None
        return np.argsort(key, kind="stable")
    if (int(start.max()) < 2**32 and int(end.max()) < 2**40 and len(names) < 2**20
            and len(doc) and int(doc.max()) < 2**31):
        # Two packed keys sort faster than four.
        major = (doc.astype(np.int64) << 32) | start
        minor = (end << 20) | lab_rank
        if not np.any(major[1:] < major[:-1]):
            ties = major[1:] == major[:-1]
            if not np.any(ties & (minor[1:] < minor[:-1])):
                return None
        return np.lexsort((minor, major))
    order = np.lexsort((lab_rank, end, start, doc))
    return None if not np.any(order[1:] < order[:-1]) else order


@dataclass(frozen=True, eq=False)
class SpanTable:
    """The spans of one annotation set as columns.

    ``doc_ids``: every document of the set, once, in order (also those without spans);
    ``labels``: the label names, once; ``doc`` (int32, index into ``doc_ids``), ``start`` and
    ``end`` (int64), ``label`` (int32, index into ``labels``), one entry per span, grouped by
    document in ``doc_ids`` order. ``offsets[i]:offsets[i + 1]`` are the rows of document ``i``.
    """

    doc_ids: tuple[str, ...]
    labels: tuple[str, ...]
    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return int(self.doc.shape[0])

    def __getstate__(self) -> dict[str, Any]:
        """The columns only, read field by field: the values :func:`~functools.cached_property`
        keeps (:attr:`sorted_labels`) are left out, and the instance's ``__dict__``, to which
        another thread may add one while this table is pickled for the background worker, is
        not walked (``RuntimeError: dictionary changed size during iteration`` killed the
        dashboard's jobs thread, docs/robustness.md)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_columns(cls, doc_ids: Sequence[str], doc: Sequence[int] | np.ndarray,
                     start: Sequence[int] | np.ndarray, end: Sequence[int] | np.ndarray,
                     label: Sequence[int] | np.ndarray, labels: Sequence[str], *,
                     sort: bool = True) -> SpanTable:
        """A table from raw columns (``doc`` and ``label`` are indices into ``doc_ids`` and
        ``labels``). With ``sort`` the rows are put in document order, then by ``(start, end,
        label name)`` within a document (:func:`~core.formats._common.sorted_spans`);
        without it they must already be grouped by document in ``doc_ids`` order.

        >>> t = SpanTable.from_columns(["a", "b"], [1, 0, 0], [3, 5, 0], [4, 9, 2], [0, 1, 1],
        ...                            ["X", "Y"])
        >>> t.to_dict()
        {'a': (Span(start=0, end=2, label='Y'), Span(start=5, end=9, label='Y')), \
'b': (Span(start=3, end=4, label='X'),)}
        """
        d = np.asarray(doc, dtype=np.int32)
        s = np.asarray(start, dtype=np.int64)
        e = np.asarray(end, dtype=np.int64)
        lab = np.asarray(label, dtype=np.int32)
        names = tuple(labels)
        if sort and len(d):
            order = _span_order(d, s, e, lab, names)
            if order is not None:
                d, s, e, lab = d[order], s[order], e[order], lab[order]
        offsets = np.searchsorted(d, np.arange(len(doc_ids) + 1)).astype(np.int64)
        return cls(tuple(doc_ids), names, d, s, e, lab, offsets)

    @classmethod
    def from_spans(cls, spans: Mapping[str, Sequence[Span]]) -> SpanTable:
        """A table from ``{document id: spans}``, keeping the mapping's order exactly (labels
        indexed in order of first appearance).

        >>> t = SpanTable.from_spans({"a": (Span(5, 9, "Y"), Span(0, 2, "X")), "b": ()})
        >>> t.doc_ids, t.labels, t.start.tolist(), t.offsets.tolist()
        (('a', 'b'), ('Y', 'X'), [5, 0], [0, 2, 2])
        """
        if isinstance(spans, SpanView):
            return spans.table
        doc_ids = tuple(spans)
        counts = np.fromiter(map(len, spans.values()), dtype=np.int64, count=len(doc_ids))
        n = int(counts.sum())
        flat = [s for items in spans.values() for s in items]
        names = list(map(_LABEL, flat))
        index = {name: i for i, name in enumerate(dict.fromkeys(names))}
        label = np.fromiter(map(index.__getitem__, names), dtype=np.int32, count=n)
        start = np.fromiter(map(_START, flat), dtype=np.int64, count=n)
        end = np.fromiter(map(_END, flat), dtype=np.int64, count=n)
        doc = np.repeat(np.arange(len(doc_ids), dtype=np.int32), counts)
        offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        return cls(doc_ids, tuple(index), doc, start, end, label, offsets)

    def rows(self, i: int) -> slice:
        """The rows of the ``i``-th document."""
        return slice(int(self.offsets[i]), int(self.offsets[i + 1]))

    def spans_at(self, i: int) -> tuple[Span, ...]:
        """The ``i``-th document's spans as :class:`Span` objects."""
        rows = self.rows(i)
        names = self.labels
        return make_spans(self.start[rows].tolist(), self.end[rows].tolist(),
                          [names[k] for k in self.label[rows].tolist()])

    def to_dict(self) -> dict[str, tuple[Span, ...]]:
        """``{document id: (Span, ...)}`` (every span built)."""
        return {d: self.spans_at(i) for i, d in enumerate(self.doc_ids)}

    def used_labels(self) -> list[str]:
        """The labels of at least one span, in order of first appearance."""
        if not len(self.label):
            return []
        ids, first = np.unique(self.label, return_index=True)
        return [self.labels[int(ids[k])] for k in np.argsort(first, kind="stable")]

    @cached_property
    def sorted_labels(self) -> tuple[str, ...]:
        """The labels of at least one span, sorted (what :meth:`AnnotationSet.labels` gives),
        counted once per table and kept: ``np.bincount`` of the label column is one pass (1-2
        ms at 1M spans) where :meth:`used_labels` sorts it with ``np.unique`` for the order of
        first appearance (30 ms), an order a sorted list does not need. The table is
        immutable, so the count holds for its life (issue 29, thirteenth pass: the first page's
        run asks for every set's labels for the colours and for the taxonomy).

        >>> t = SpanTable.from_columns(["d1", "d2"], [0, 0], [0, 4], [3, 9], [3, 1],
        ...                            ["Unused", "Slogans", "Also unused", "Doubt"])
        >>> t.sorted_labels, t.used_labels()
        (('Doubt', 'Slogans'), ['Doubt', 'Slogans'])
        """
        if not len(self.label):
            return ()
        names = self.labels
        used = np.flatnonzero(np.bincount(self.label, minlength=len(names)))
        return tuple(sorted({names[k] for k in used.tolist()}))

    def label_names(self) -> list[str]:
        """One label name per span (row order)."""
        names = self.labels
        return [names[k] for k in self.label.tolist()]

    def to_frame(self) -> pd.DataFrame:
        """One row per span: ``document``, ``start``, ``end`` (exclusive), ``label``, as
        :meth:`AnnotationSet.to_frame`."""
        import pandas as pd

        docs = np.array(self.doc_ids, dtype=object)
        labels = np.array(self.labels, dtype=object)
        return pd.DataFrame({
            "document": docs[self.doc] if len(self.doc) else np.array([], dtype=object),
            "start": self.start, "end": self.end,
            "label": labels[self.label] if len(self.label) else np.array([], dtype=object),
        })




READ_AHEAD = 256
"""How many documents :class:`SpanView` builds at once when they are read in order."""

STREAK = 8
"""How many documents asked for one after the other make :class:`SpanView` read ahead."""


class SpanView(Mapping[str, tuple[Span, ...]]):
    """``{document id: (Span, ...)}`` over a :class:`SpanTable`, read-only.

    A document's tuple is built on first access (:func:`make_spans`) and remembered; length,
    iteration order, ``in``, ``items()`` and equality are those of the dict it stands for. After
    :data:`STREAK` documents asked for one after the other, the reading is taken to go on in
    order: the next :data:`READ_AHEAD` documents are built at once, from one slice of each
    column. A caller that visits some documents in order (MAFALDA's few texts that need a
    search) builds only those.

    >>> t = SpanTable.from_columns(["a", "b"], [0], [0], [4], [0], ["X"])
    >>> m = SpanView(t)
    >>> list(m), m["a"], m["b"], "c" in m, m == {"a": (Span(0, 4, "X"),), "b": ()}
    (['a', 'b'], (Span(start=0, end=4, label='X'),), (), False, True)
    """

    __slots__ = ("_cache", "_index", "_last", "_streak", "table")

    def __init__(self, table: SpanTable) -> None:
        self.table = table
        self._index: dict[str, int] | None = None
        self._cache: dict[str, tuple[Span, ...]] = {}
        self._last = -2  # the last document built (its index)
        self._streak = 0  # how many documents before it were built one after the other

    def _positions(self) -> dict[str, int]:
        if self._index is None:
            self._index = {d: i for i, d in enumerate(self.table.doc_ids)}
        return self._index

    def __getitem__(self, doc_id: str) -> tuple[Span, ...]:
        cached = self._cache.get(doc_id)
        if cached is not None:
            return cached
        i = self._positions()[doc_id]
        self._streak = self._streak + 1 if i == self._last + 1 else 0
        if self._streak >= STREAK:
            hi = min(i + READ_AHEAD, len(self.table.doc_ids))
            self._build(i, hi)
            self._last = hi - 1
            return self._cache[doc_id]
        self._last = i
        spans = self.table.spans_at(i)
        self._cache[doc_id] = spans
        return spans

    def _build(self, lo: int, hi: int) -> None:
        """Build documents ``lo`` to ``hi - 1`` (those not built yet) in one go."""
        t = self.table
        bounds = t.offsets[lo : hi + 1].tolist()
        first, last = bounds[0], bounds[-1]
        names = t.labels
        spans = make_spans(t.start[first:last].tolist(), t.end[first:last].tolist(),
                           [names[k] for k in t.label[first:last].tolist()])
        cache = self._cache
        for doc, a, b in zip(t.doc_ids[lo:hi], bounds, bounds[1:]):  # noqa: B905
            if doc not in cache:
                cache[doc] = spans[a - first : b - first]

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._positions()

    def __iter__(self) -> Iterator[str]:
        return iter(self.table.doc_ids)

    def __len__(self) -> int:
        return len(self.table.doc_ids)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SpanView) and other.table is self.table:
            return True
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # a mapping, as the dict it stands for

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (SpanView, (self.table,))  # the built spans are not part of the value
