"""The overlap join of two span sets: every (prediction, gold) pair of a document that shares a
character, enumerated at once on arrays.

The Martino metric sums its contributions C(s, t, h) = |s ∩ t| / h · δ(l(s), l(t)) over these
pairs (Da San Martino et al. 2019, Eq. 1-3; :mod:`core.metrics.martino`), MAFALDA keeps each
span's best one (Helwe et al. 2024, App. D; :mod:`core.metrics.mafalda`) and the error analysis
names each span's best partner (:mod:`core.analysis.errors`). Intersections use interval
arithmetic, ``min(e1, e2) - max(s1, s2)``, on ``[start, end)`` offsets (``docs/martino.md``), so
touching spans share nothing.

Two steps: :func:`span_arrays` reads a set's :class:`~core.model.SpanTable` as
:class:`SpanArrays` (document and label as indices shared by both sides), and
:func:`overlapping_pairs` joins two of them into :class:`OverlapPairs`.

>>> from core.model import AnnotationSet, Span
>>> gold = AnnotationSet("g", {"d": (Span(0, 40, "Doubt"), Span(50, 60, "Slogans"))})
>>> pred = AnnotationSet("p", {"d": (Span(0, 10, "Doubt"), Span(55, 70, "Doubt"))})
>>> docs, labels = {"d": 0}, {}
>>> g, p = span_arrays(gold.table, docs, labels), span_arrays(pred.table, docs, labels)
>>> pairs = overlapping_pairs(p, g, n_docs=1)
>>> pairs.pred.tolist(), pairs.gold.tolist(), pairs.inter.tolist(), pairs.match.tolist()
([0, 1], [0, 1], [10, 5], [True, False])
>>> pairs.c_gold.tolist()  # C(s, t, |t|): 10/40, and 0 where the labels differ
[0.25, 0.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from core.model import Span, SpanTable, make_spans


@dataclass(frozen=True)
class SpanArrays:
    """The spans of one side as parallel arrays, ordered by document.

    ``doc`` is a document index, ``label`` an index into ``names`` (the label names; both sides
    of a join share the numbering, so equal indices are equal labels). Rows of one document
    keep the order of the table they come from (:func:`span_arrays`); the nervaluate alignment
    sorts them by start, end and label (:mod:`core.metrics.nervaluate`).
    """

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    names: list[str]

    @property
    def length(self) -> np.ndarray:
        """|s| of every row."""
        return self.end - self.start

    def to_spans(self) -> list[Span]:
        """The rows as :class:`~core.model.Span` objects (when an explanation asks for them)."""
        names = self.names
        return list(make_spans(self.start.tolist(), self.end.tolist(),
                               [names[k] for k in self.label.tolist()]))


def span_arrays(table: SpanTable, doc_index: Mapping[str, int],
                label_index: dict[str, int]) -> SpanArrays:
    """The rows of ``table`` whose document is in ``doc_index``, as :class:`SpanArrays`.

    Documents are numbered by ``doc_index`` (rows of other documents are left out) and the rows
    stably sorted by that number. ``label_index`` is shared by the sides of a join: a label not
    in it yet gets the next index, in order of first appearance in the table; ``names`` reads
    the indices back. No :class:`~core.model.Span` is built.

    >>> t = SpanTable.from_columns(["b", "a"], [0, 1, 1], [5, 0, 9], [8, 4, 12], [0, 1, 0],
    ...                            ["X", "Y"])
    >>> labels = {"Y": 0}
    >>> a = span_arrays(t, {"a": 0, "b": 1}, labels)
    >>> a.doc.tolist(), a.start.tolist(), a.label.tolist(), a.names
    ([0, 0, 1], [0, 9, 5], [0, 1, 1], ['Y', 'X'])
    """
    for name in _used_labels(table):  # new labels get the next index, in order of appearance
        label_index.setdefault(name, len(label_index))
    names = [""] * len(label_index)
    for name, i in label_index.items():
        names[i] = name
    ids = table.doc_ids
    if len(doc_index) == len(ids) and list(doc_index) == list(ids):
        # the table's documents in the numbering's order (the metrics number the gold's
        # documents): the numbers are the values as they come, no lookup per document
        doc_map = np.fromiter(doc_index.values(), dtype=np.int64, count=len(ids))
    else:
        doc_map = np.fromiter((doc_index.get(d, -1) for d in table.doc_ids), dtype=np.int64,
                              count=len(table.doc_ids))
    lab_map = np.fromiter((label_index.get(x, -1) for x in table.labels), dtype=np.int64,
                          count=len(table.labels))
    doc_arr = doc_map[table.doc] if len(table) else np.zeros(0, dtype=np.int64)
    labels = lab_map[table.label] if len(table) else np.zeros(0, dtype=np.int64)
    starts, ends = table.start, table.end
    if np.any(doc_arr < 0):  # documents outside ``doc_index`` are not joined
        keep = doc_arr >= 0
        doc_arr, labels, starts, ends = doc_arr[keep], labels[keep], starts[keep], ends[keep]
    if len(doc_arr) and np.any(doc_arr[1:] < doc_arr[:-1]):
        order = np.argsort(doc_arr, kind="stable")
        return SpanArrays(doc_arr[order], starts[order], ends[order], labels[order], names)
    return SpanArrays(doc_arr, starts, ends, labels, names)


def _used_labels(table: SpanTable) -> list[str]:
    """:meth:`SpanTable.used_labels` (the labels of at least one span, in order of first
    appearance), from one count per label and each used label's first row instead of a sort of
    every row: 0.02 → 0.005 s on 1,000,000 spans of a few dozen labels."""
    if len(table.labels) > 64 or not len(table.label):
        return table.used_labels()
    used = np.flatnonzero(np.bincount(table.label, minlength=len(table.labels)))
    first = [int(np.argmax(table.label == k)) for k in used.tolist()]
    return [table.labels[int(used[k])] for k in np.argsort(first, kind="stable")]


@dataclass(frozen=True)
class OverlapPairs:
    """Every overlapping (prediction, gold) pair of the same document, one entry per pair.

    ``pred`` and ``gold`` index the rows of the two :class:`SpanArrays`; ``inter`` is
    |s ∩ t| > 0, ``match`` is δ(l(s), l(t)) (always true when labels are ignored), ``c_pred``
    and ``c_gold`` are C(s, t, |s|) and C(s, t, |t|) (Da San Martino et al. 2019, Eq. 1).
    Pairs come in prediction order, then gold order within a prediction.
    """

    pred: np.ndarray
    gold: np.ndarray
    inter: np.ndarray
    match: np.ndarray
    c_pred: np.ndarray
    c_gold: np.ndarray


def _blocks(pred: SpanArrays, gold: SpanArrays, n_docs: int, ignore_labels: bool,
            by_label: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """The block key of every prediction and gold span, and how many keys there are."""
    if by_label and not ignore_labels:
        n_labels = int(max(pred.label.max(initial=-1), gold.label.max(initial=-1))) + 1
        return pred.doc * n_labels + pred.label, gold.doc * n_labels + gold.label, \
            n_docs * n_labels
    return pred.doc, gold.doc, n_docs


def overlapping_pairs(pred: SpanArrays, gold: SpanArrays, n_docs: int, *,
                      ignore_labels: bool = False, by_label: bool = False) -> OverlapPairs:
    """Pair every prediction with every gold span of its block, keep the overlapping pairs.

    A block is a document (``n_docs`` of them), or a (document, label) when ``by_label``
    (scoring needs only same-label pairs; explanations also list overlapping pairs whose labels
    differ). ``ignore_labels`` makes every pair a match. Vectorised: with the gold spans sorted
    by block, the candidates of prediction i are the contiguous range [lo_i, hi_i), so all pairs
    are enumerated with one ``repeat`` instead of a double loop.
    """
    pkey, gkey, n_keys = _blocks(pred, gold, n_docs, ignore_labels, by_label)
    gorder = np.argsort(gkey, kind="stable")
    bounds = np.searchsorted(gkey[gorder], np.arange(n_keys + 1))
    lo = bounds[pkey]
    counts = bounds[pkey + 1] - lo
    total = int(counts.sum())
    p_idx = np.repeat(np.arange(len(pkey)), counts)
    offsets = np.repeat(np.cumsum(counts) - counts - lo, counts)
    g_idx = gorder[np.arange(total) - offsets]
    inter = np.minimum(pred.end[p_idx], gold.end[g_idx]) - np.maximum(
        pred.start[p_idx], gold.start[g_idx]
    )
    keep = inter > 0
    p_idx, g_idx, inter = p_idx[keep], g_idx[keep], inter[keep]
    if ignore_labels:
        match = np.ones(len(p_idx), dtype=bool)
    else:
        match = pred.label[p_idx] == gold.label[g_idx]
    c_pred = np.where(match, inter / pred.length[p_idx], 0.0)
    c_gold = np.where(match, inter / gold.length[g_idx], 0.0)
    return OverlapPairs(p_idx, g_idx, inter, match, c_pred, c_gold)
