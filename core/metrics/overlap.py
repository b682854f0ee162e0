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
from itertools import pairwise

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


def _key_bounds(keys: np.ndarray, n_keys: int) -> np.ndarray:
    """Where each key's rows start among ``keys`` sorted, and where the last ends: entry k is
    how many keys are below k (``0 <= key < n_keys``). Counted (``np.bincount``) rather than
    searched (``np.searchsorted`` of every key in the sorted keys): the same numbers in one pass.

    >>> _key_bounds(np.array([2, 0, 2]), 4).tolist()
    [0, 1, 1, 3, 3]
    """
    bounds = np.zeros(n_keys + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=n_keys), out=bounds[1:])
    return bounds


PAIR_CANDIDATES = 1 << 21
"""At most this many candidate pairs are enumerated at once by :func:`swept_pairs`."""

BLOCK_CANDIDATES = 1 << 24
"""Above this many candidate pairs (every prediction with every reference span of its block),
:func:`overlapping_pairs` sweeps instead (:func:`swept_pairs`): the candidates' temporaries
(about 50 bytes a pair) would pass 800 MB. One document of 15,375 spans per side (a 1.4M
character text) is 236M candidates, 12 GB, against some 15,000 pairs that overlap."""


def swept_pairs(pkey: np.ndarray, pstart: np.ndarray, pend: np.ndarray, gkey: np.ndarray,
                gstart: np.ndarray, gend: np.ndarray, n_keys: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every (prediction, reference) pair of the same key (a document, or a document and a
    label) that shares a character: prediction row, reference row, |s ∩ t|; in prediction
    order, then reference order. The reference rows must be sorted by key, then start; keys are
    ``0 <= key < n_keys``. None when offsets do not pack into one key with the keys (negative,
    or ``n_keys`` times the largest offset beyond 2**62): then pair by blocks instead.

    A prediction's candidates are not every reference span of its block but the run of them
    that can reach it: those starting before its end and after its start minus the block's
    longest reference span (a span starting earlier ends before the prediction starts); two
    ``searchsorted`` on a packed (key, start) key find the run. At ten spans per document and
    side that is about one candidate per prediction instead of ten (docs/performance.md, issue
    29). The candidates are enumerated a run of predictions at a time, at most
    :data:`PAIR_CANDIDATES` each (a prediction with more is a run of its own), so that their
    temporaries (8 bytes a candidate) stay small whatever the corpus. A block whose longest
    reference span covers most of its text still costs the block's every pair in time, not
    in memory.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(pkey) or not len(gkey):
        return empty, empty.copy(), empty.copy()
    top = max(int(pend.max()), int(gend.max())) + 2
    if min(int(pstart.min()), int(gstart.min())) < 0 or n_keys * top >= 1 << 62:
        return None
    bounds = _key_bounds(gkey, n_keys)
    held = np.flatnonzero(bounds[1:] > bounds[:-1])
    longest = np.zeros(n_keys, dtype=np.int64)
    longest[held] = np.maximum.reduceat(gend - gstart, bounds[held])
    p_base = pkey.astype(np.int64) * top
    g_packed = gkey.astype(np.int64) * top + gstart
    hi = np.searchsorted(g_packed, p_base + pend, side="left")
    lo = np.searchsorted(g_packed, p_base + np.maximum(pstart - longest[pkey], -1),
                         side="right")
    del p_base, g_packed
    counts = np.maximum(hi - lo, 0)
    ends = counts.cumsum()
    cuts = [0]
    while cuts[-1] < len(counts):
        done = int(ends[cuts[-1] - 1]) if cuts[-1] else 0
        end = int(np.searchsorted(ends, done + PAIR_CANDIDATES, side="right"))
        cuts.append(min(len(counts), max(end, cuts[-1] + 1)))
    parts = []
    for a, b in pairwise(cuts):
        n = counts[a:b]
        total = int(n.sum())
        p_idx = np.repeat(np.arange(a, b), n)
        g_idx = np.arange(total) - np.repeat(n.cumsum() - n - lo[a:b], n)
        inter = np.minimum(pend[p_idx], gend[g_idx]) - np.maximum(pstart[p_idx], gstart[g_idx])
        keep = inter > 0
        parts.append((p_idx[keep], g_idx[keep], inter[keep]))
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate(c) for c in zip(*parts, strict=True))  # type: ignore[return-value]


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
    bounds = _key_bounds(gkey, n_keys)
    lo = bounds[pkey]
    counts = bounds[pkey + 1] - lo
    total = int(counts.sum())
    swept = _swept(pred, gold, pkey, gkey, n_keys) if total > BLOCK_CANDIDATES else None
    if swept is not None:
        p_idx, g_idx, inter = swept
    else:
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


def _swept(pred: SpanArrays, gold: SpanArrays, pkey: np.ndarray, gkey: np.ndarray,
           n_keys: int) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`swept_pairs` for :func:`overlapping_pairs`: the reference rows sorted by block
    and start for the sweep, then the pairs put back in the join's order (prediction, then
    reference row within a block, the order of the rows). None when the offsets do not pack."""
    order = np.lexsort((gold.start, gkey))
    swept = swept_pairs(pkey, pred.start, pred.end, gkey[order], gold.start[order],
                        gold.end[order], n_keys)
    if swept is None:
        return None
    p_idx, g_sorted, inter = swept
    g_idx = order[g_sorted]
    back = np.lexsort((g_idx, p_idx))
    return p_idx[back], g_idx[back], inter[back]
