"""Text-level multi-label scores of span corpora (``--metric text-labels``).

What it measures
----------------
Each text's label set is the set of labels of its spans (offsets ignored). Gold and predicted
sets are compared as a multi-label classification:

* per label L: tp = texts where both sets hold L, fp = predicted only, fn = gold only,
  tn = neither; P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2PR/(P+R), support = tp+fn;
* micro averages pool tp, fp and fn over labels; macro averages are the means of the per-label
  values (over every label of gold ∪ prediction, or of ``labels``);
* Exact Match Ratio (EMR): the fraction of texts whose sets are equal;
* Hamming loss: the fraction of wrong (text, label) decisions, Σ |G △ P| / (texts × labels).

Ill-defined ratios (a label never predicted) are 0 with a warning (scikit-learn's
``zero_division`` default). These equal ``sklearn.metrics`` ``precision_recall_fscore_support``
(micro, macro, per label), ``accuracy_score`` (EMR) and ``hamming_loss`` on the binarised label
sets.

Gold with alternatives (MAFALDA) is refused here: its label-only metric maximises over the
alternatives (``--metric mafalda`` reports it as ``label_only``).

Worked example: gold {A, B}, prediction {A}: per label A: P = R = 1; B: P = 0 (warning), R = 0;
micro P = 1, R = 0.5; EMR = 0; Hamming loss = 1/2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from core.metrics.classification import Counts, prf_from_counts
from core.model import AnnotationSet
from core.model.docsets import check_same_documents
from core.model.errors import InputError
from core.model.table import SpanTable

CARD = __doc__


def label_sets(aset: AnnotationSet) -> dict[str, frozenset[str]]:
    """Each document's set of span labels, in the set's document order.

    From the set's columns (:class:`core.model.table.SpanTable`), so that no :class:`Span` is
    built: a million spans took seconds as objects, a fraction of one as label codes.

    >>> from core.model import Span
    >>> label_sets(AnnotationSet("g", {"1": (Span(0, 3, "A"), Span(4, 6, "A")), "2": ()}))
    {'1': frozenset({'A'}), '2': frozenset()}
    """
    t = aset.table
    names, codes, bounds = t.labels, t.label.tolist(), t.offsets.tolist()
    return {doc: frozenset([names[k] for k in codes[a:b]])
            for doc, a, b in zip(t.doc_ids, bounds, bounds[1:])}  # noqa: B905 (one longer)


@dataclass
class TextLabelResult:
    """The comparison, kept as each set's (document, label) pairs: ``gold_keys`` and
    ``pred_keys`` hold ``row * len(labels) + column`` once each, sorted (``row`` indexes
    ``documents``, ``column`` indexes ``labels``). The per-text label sets are built from them
    only when asked (:attr:`gold_sets`, :meth:`per_document`)."""

    labels: list[str]
    documents: list[str]
    gold_keys: np.ndarray
    pred_keys: np.ndarray
    counts: dict[str, dict[str, int]]  # label -> tp, fp, fn, tn

    def _sets(self, keys: np.ndarray) -> dict[str, frozenset[str]]:
        k = len(self.labels) or 1
        rows, cols = np.divmod(keys, k)
        bounds = np.searchsorted(rows, np.arange(len(self.documents) + 1)).tolist()
        names, codes = self.labels, cols.tolist()
        return {d: frozenset([names[c] for c in codes[a:b]])
                for d, a, b in zip(self.documents, bounds, bounds[1:])}  # noqa: B905

    @cached_property
    def gold_sets(self) -> dict[str, frozenset[str]]:
        """Each text's gold label set, in document order."""
        return self._sets(self.gold_keys)

    @cached_property
    def pred_sets(self) -> dict[str, frozenset[str]]:
        """Each text's predicted label set, in document order."""
        return self._sets(self.pred_keys)

    def per_label(self) -> dict[str, dict[str, Any]]:
        out = {}
        for lab in self.labels:
            c = self.counts[lab]
            prf = prf_from_counts(Counts(c["tp"], c["tp"] + c["fp"], c["tp"] + c["fn"]), name=lab)
            out[lab] = {**prf.to_dict(), **c}
        return out

    def micro(self) -> dict[str, float]:
        tp = sum(c["tp"] for c in self.counts.values())
        fp = sum(c["fp"] for c in self.counts.values())
        fn = sum(c["fn"] for c in self.counts.values())
        prf = prf_from_counts(Counts(tp, tp + fp, tp + fn), name="the micro average")
        return {"precision": prf.precision, "recall": prf.recall, "f1": prf.f1}

    def macro(self) -> dict[str, float]:
        per = self.per_label()
        k = len(per) or 1
        return {m: sum(v[m] for v in per.values()) / k for m in ("precision", "recall", "f1")}

    @property
    def emr(self) -> float:
        n = len(self.documents)
        if not n:
            return 0.0
        # A text's sets are equal when both hold as many labels as they share.
        k = len(self.labels) or 1
        both = np.intersect1d(self.gold_keys, self.pred_keys, assume_unique=True)
        shared = np.bincount(both // k, minlength=n)
        equal = ((np.bincount(self.gold_keys // k, minlength=n) == shared)
                 & (np.bincount(self.pred_keys // k, minlength=n) == shared))
        return int(np.count_nonzero(equal)) / n

    @property
    def hamming(self) -> float:
        cells = len(self.documents) * len(self.labels)
        both = np.intersect1d(self.gold_keys, self.pred_keys, assume_unique=True)
        wrong = len(self.gold_keys) + len(self.pred_keys) - 2 * len(both)
        return wrong / cells if cells else 0.0

    def warnings(self) -> list[str]:
        out = []
        for lab in self.labels:
            c = self.counts[lab]
            out.extend(prf_from_counts(Counts(c["tp"], c["tp"] + c["fp"], c["tp"] + c["fn"]),
                                       name=lab).warnings)
        return out

    def per_document(self) -> list[dict[str, Any]]:
        rows = []
        for d in self.documents:
            g, p = self.gold_sets[d], self.pred_sets[d]
            union = g | p
            rows.append({"document": d, "gold": sorted(g), "pred": sorted(p), "exact": g == p,
                         "jaccard": len(g & p) / len(union) if union else 1.0,
                         "missed": sorted(g - p), "spurious": sorted(p - g)})
        return rows

    def to_dict(self, *, per_document: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric": "text-labels",
            "per_label": self.per_label(),
            "micro": self.micro(),
            "macro": self.macro(),
            "emr": self.emr,
            "hamming": self.hamming,
            "documents": len(self.documents),
            "labels": list(self.labels),
            "warnings": self.warnings(),
        }
        if per_document:
            out["per_document"] = self.per_document()
        return out


def score(gold: AnnotationSet, pred: AnnotationSet, *, labels: Sequence[str] | None = None
          ) -> TextLabelResult:
    """Compare each text's label set (module docstring).

    >>> from core.model import Span
    >>> g = AnnotationSet("g", {"1": (Span(0, 3, "A"), Span(4, 6, "B"))})
    >>> p = AnnotationSet("p", {"1": (Span(0, 2, "A"),)}, role="system")
    >>> r = score(g, p)
    >>> r.micro()["recall"], r.emr, r.hamming
    (0.5, 0.0, 0.5)
    """
    if gold.alternatives:
        raise InputError(f"{gold.name} has gold alternatives (MAFALDA); its text-level scores "
                         "are the label-only scores of the mafalda metric")
    check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name, "identical")
    documents = list(gold.doc_ids)
    gt, pt = gold.table, pred.table
    used = ({gt.labels[c] for c in np.flatnonzero(np.bincount(gt.label, minlength=1)).tolist()}
            | {pt.labels[c] for c in np.flatnonzero(np.bincount(pt.label, minlength=1)).tolist()})
    if labels is not None:
        outside = sorted(used - set(labels))
        if outside:
            raise InputError(f"labels outside the label list: {', '.join(map(repr, outside[:5]))}")
        universe = list(dict.fromkeys(labels))
    else:
        universe = sorted(used)
    # Columnar: each set's (text, label) pairs as sorted unique integer keys, then one
    # intersection; the counts are integers, so every ratio is the per-text loop's float.
    column = {lab: j for j, lab in enumerate(universe)}
    k = len(universe) or 1
    gkeys = _keys(gt, column, gold.doc_ids, k)
    pkeys = _keys(pt, column, gold.doc_ids, k)
    both = np.intersect1d(gkeys, pkeys, assume_unique=True)
    tp = np.bincount(both % k, minlength=k).tolist()
    in_gold = np.bincount(gkeys % k, minlength=k).tolist()
    in_pred = np.bincount(pkeys % k, minlength=k).tolist()
    n = len(documents)
    counts = {lab: {"tp": tp[j], "fp": in_pred[j] - tp[j], "fn": in_gold[j] - tp[j],
                    "tn": n - in_gold[j] - in_pred[j] + tp[j]} for j, lab in enumerate(universe)}
    return TextLabelResult(universe, documents, gkeys, pkeys, counts)


def _keys(t: SpanTable, column: dict[str, int], documents: Sequence[str], k: int
          ) -> np.ndarray:
    """The sorted unique ``row * k + column`` of every span of ``t``: ``row`` is its text's
    index in ``documents``, ``column`` its label's in ``column``."""
    cols = np.array([column.get(name, -1) for name in t.labels], dtype=np.int64)
    if tuple(t.doc_ids) == tuple(documents):
        rows = t.doc.astype(np.int64)
    else:
        row = {d: i for i, d in enumerate(documents)}
        rows = np.array([row[d] for d in t.doc_ids], dtype=np.int64)[t.doc]
    keys = rows * k + cols[t.label]
    # Sorted, then the repeats dropped (``np.unique`` hashes first: 5x slower here). The spans
    # come grouped by text, so the stable sort (timsort) merges presorted runs.
    keys.sort(kind="stable")
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys
