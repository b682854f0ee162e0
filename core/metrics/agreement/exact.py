"""Exact-match (instance) F1 between two annotators: a span agrees only where the other
annotator marked the same offsets with the same label.

For annotators A and B, each a *set* of (document, start, end, label) instances,
``F1 = 2 |A ∩ B| / (|A| + |B|)`` (Hripcsak & Rothschild 2005, "Agreement, the F-measure, and
reliability in information retrieval", JAMIA 12(3): the F-measure of one annotator against the
other, the same whichever is taken as the reference, and the positive specific agreement of
Cohen's κ's table without its unknowable n00). It is the instance-level agreement that brat
projects (bratiaa), INCEpTION and NER papers report. Unlike ``span-f1`` (Da San Martino et al.
2019), which gives an overlapping span the share of characters it covers, a span whose start or
end differs by one character counts here as a miss on both sides.

Conventions (``docs/agreement.md``):

* Sets: an annotator's exact duplicate span (same document, offsets and label twice) counts
  once, as in bratiaa's instance-level evaluation; the study's warning about duplicates still
  names them.
* Only the documents both annotators list count (a document missing from a set is missing, not
  "no spans"), as for every pairwise measure.
* ``position``: the label-blind variant, instances (document, start, end); two spans of one
  annotator on the same offsets with two labels are then one instance.
* Undefined (``None`` with a reason) where neither annotator marked a span: a label, a document,
  or the pair; bratiaa gives NaN there.

The instances of each annotator are packed into one integer each (document, start, end, label
as bit fields, in the order a study's table already holds them, so most often no sort) and
matched by a binary search in the other annotator's keys; per-label and per-document counts are
``bincount`` s of the matched instances.

>>> from core.model import AnnotationSet, Span
>>> a = AnnotationSet("A", {"d": (Span(0, 5, "x"), Span(6, 9, "y"))}, role="annotator")
>>> b = AnnotationSet("B", {"d": (Span(0, 5, "x"), Span(6, 8, "y"), Span(6, 9, "x"))},
...                   role="annotator")
>>> from core.metrics.agreement.study import Study
>>> pv = exact_f1(Study.from_sets([a, b])).pairs[("A", "B")]
>>> pv.overall.value, pv.overall.stats     # 2 · 1 / (2 + 3)
(0.4, {'matches': 1, 'spans_first': 2, 'spans_second': 3})
>>> round(pv.extra["position"].value, 4)   # labels ignored: (0, 5) and (6, 9) match
0.8
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from core.metrics.agreement.coefficients import Agreement, undefined
from core.metrics.agreement.measures import PairValue, PairwiseResult, _need_two
from core.metrics.agreement.study import Study

MEASURE = "exact-f1"

DocumentF1 = dict[tuple[str, str], tuple[list[str], list[float | None], list[str | None]]]
"""Per annotator pair: its documents, each document's exact F1 (None where undefined) and the
reason (None where defined): the fields of the :class:`Agreement` s ``per_document`` holds."""


@dataclass(frozen=True)
class _Instances:
    """One annotator's distinct instances as sorted int64 keys, and how to read a key's
    document and label back. ``listed``: per study document, whether the annotator's set
    lists it."""

    keys: np.ndarray[Any, Any]
    doc: np.ndarray[Any, Any]
    label: np.ndarray[Any, Any]
    listed: np.ndarray[Any, Any]


class _Packer:
    """Packs (document, start, end, label) study positions into one int64 key per instance,
    document first, so that sorted keys are in document order; one packer for every annotator
    of a study (the same instance gives the same key). Where the fields do not fit in 63 bits
    (billions of characters) the rows are numbered by ``np.unique`` over every annotator's
    rows instead."""

    def __init__(self, rows: Sequence[np.ndarray[Any, Any]], n_docs: int, n_labels: int) -> None:
        far = max((int(r[:, 2].max()) for r in rows if len(r)), default=0)
        self.label_bits = max(1, int(n_labels).bit_length())
        self.pos_bits = max(1, far.bit_length())
        doc_bits = max(1, int(n_docs).bit_length())
        self.packed = doc_bits + 2 * self.pos_bits + self.label_bits <= 63
        self.table: np.ndarray[Any, Any] | None = None
        if not self.packed:
            every = np.concatenate([r for r in rows] or [np.zeros((0, 4), np.int64)])
            self.table = np.unique(every, axis=0)

    def keys(self, rows: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        if self.table is not None:
            # the row's number in the sorted table of every annotator's distinct rows
            return _row_numbers(self.table, rows)
        p, lb = self.pos_bits, self.label_bits
        return ((((rows[:, 0] << p) | rows[:, 1]) << p | rows[:, 2]) << lb) | rows[:, 3]

    def doc(self, keys: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        if self.table is not None:
            return self.table[keys, 0]
        return keys >> (2 * self.pos_bits + self.label_bits)

    def label(self, keys: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        if self.table is not None:
            return self.table[keys, 3]
        return keys & ((1 << self.label_bits) - 1)


def _row_numbers(table: np.ndarray[Any, Any], rows: np.ndarray[Any, Any]
                 ) -> np.ndarray[Any, Any]:
    """The index of each row of ``rows`` in ``table`` (sorted, distinct, holding every row)."""
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    merged, inverse = np.unique(np.concatenate([table, rows]), axis=0, return_inverse=True)
    assert len(merged) == len(table)
    return np.asarray(inverse, dtype=np.int64).reshape(-1)[len(table):]


def _positions(names: Sequence[str], at: dict[str, int], every: Sequence[str]
               ) -> np.ndarray[Any, Any]:
    """Study position of each of ``names`` (-1: not the study's); no lookup when they are
    the study's own list (an annotator who lists every document, in the study's order)."""
    if len(names) == len(every) and list(names) == list(every):
        return np.arange(len(every), dtype=np.int64)
    return np.fromiter((at.get(x, -1) for x in names), dtype=np.int64, count=len(names))


def _rows(study: Study, who: str, blind: bool, at_doc: dict[str, int],
          at_label: dict[str, int]) -> np.ndarray[Any, Any]:
    """``who``'s spans as study positions (document, start, end, label), labels the study does
    not keep left out, every label 0 when ``blind``."""
    t = study.table(who)
    doc_pos = _positions(t.doc_ids, at_doc, study.docs)
    label_pos = _positions(t.labels, at_label, study.labels)
    d = doc_pos[t.doc] if len(t) else np.zeros(0, dtype=np.int64)
    lab = label_pos[t.label] if len(t) else np.zeros(0, dtype=np.int64)
    rows = np.stack([d, t.start.astype(np.int64), t.end.astype(np.int64),
                     np.zeros_like(lab) if blind else lab], axis=1)
    keep = (d >= 0) & (lab >= 0)
    return rows if bool(keep.all()) else rows[keep]


def _distinct(keys: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The distinct keys, sorted. A study's table is sorted by document, start, end and label
    name, and the study's labels are sorted names, so the packed keys of a table whose
    documents are in the study's order come sorted: then no sort, only the repeats dropped."""
    if len(keys) and not bool((keys[1:] >= keys[:-1]).all()):
        return np.unique(keys)
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys


def _listed(study: Study, who: str) -> np.ndarray[Any, Any]:
    listed = study.spans[who]
    if len(listed) == len(study.docs):  # a study's documents are every set's
        return np.ones(len(study.docs), dtype=bool)
    keys = set(listed)
    return np.fromiter(map(keys.__contains__, study.docs), dtype=bool, count=len(study.docs))


def instances(study: Study, annotators: Sequence[str], *, blind: bool = False
              ) -> tuple[_Packer, dict[str, _Instances]]:
    """Each of ``annotators``' distinct instances (``blind``: labels ignored), keyed alike."""
    at_doc = {d: i for i, d in enumerate(study.docs)}
    at_label = {lab: i for i, lab in enumerate(study.labels)}
    rows = {a: _rows(study, a, blind, at_doc, at_label) for a in annotators}
    packer = _Packer(list(rows.values()), len(study.docs), 1 if blind else len(study.labels))
    out: dict[str, _Instances] = {}
    for a, r in rows.items():
        keys = _distinct(packer.keys(r))  # a set: a duplicate span is one instance
        out[a] = _Instances(keys, packer.doc(keys), packer.label(keys), _listed(study, a))
    return packer, out


def _common(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The keys of both sorted, distinct arrays (a binary search of each of ``x`` in ``y``)."""
    if not len(x) or not len(y):
        return x[:0]
    at = np.minimum(np.searchsorted(y, x), len(y) - 1)
    return x[y[at] == x]


@dataclass(frozen=True)
class PairCounts:
    """The sufficient statistics of one pair's exact F1 on the documents both list: matched
    instances and each side's instances, per document (of ``docs``) and per label; a corpus
    value is ``2 · matches / (first + second)`` of the sums, so per-document, per-label and
    corpus values come from the same counts."""

    docs: list[str]
    doc_matches: np.ndarray[Any, Any]
    doc_first: np.ndarray[Any, Any]
    doc_second: np.ndarray[Any, Any]
    label_matches: np.ndarray[Any, Any]
    label_first: np.ndarray[Any, Any]
    label_second: np.ndarray[Any, Any]


def pair_counts(study: Study, packer: _Packer, a: _Instances, b: _Instances, n_labels: int
                ) -> PairCounts:
    """:class:`PairCounts` of two annotators' instances (:func:`instances`)."""
    both = a.listed & b.listed
    every = bool(both.all())
    sides = []
    for x in (a, b):
        keep = None if every else both[x.doc]
        sides.append((x.keys, x.doc, x.label) if keep is None
                     else (x.keys[keep], x.doc[keep], x.label[keep]))
    (ka, da, la), (kb, db, lb) = sides
    # A match is in both sides' documents already: a key holds its document.
    matched = _common(ka, kb)
    dm, lm = packer.doc(matched), packer.label(matched)
    n = len(study.docs)
    where = None if every else np.flatnonzero(both)

    def per_doc(d: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        counts = np.bincount(d, minlength=n)
        return counts if where is None else counts[where]

    def per_label(lab: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.bincount(lab, minlength=n_labels)[:n_labels]

    docs = list(study.docs) if where is None else [study.docs[i] for i in where.tolist()]
    return PairCounts(docs, per_doc(dm), per_doc(da), per_doc(db), per_label(lm),
                      per_label(la), per_label(lb))


def f1_value(matches: int, first: int, second: int, what: str) -> Agreement:
    """``2 · matches / (first + second)`` with its counts; undefined when both are 0."""
    stats = {"matches": matches, "spans_first": first, "spans_second": second}
    if first + second == 0:
        return undefined(f"exact F1 is undefined for {what}: neither annotator marked a span",
                         **stats)
    return Agreement(2 * matches / (first + second), None, stats)


def document_f1_values(c: PairCounts) -> tuple[list[float | None], list[str | None]]:
    """Each document's exact F1 and reason (the fields of :func:`f1_value`'s
    :class:`Agreement`), the divisions done at once; the same floats."""
    total = c.doc_first + c.doc_second
    with np.errstate(divide="ignore", invalid="ignore"):
        value: list[float | None] = (2 * c.doc_matches / total.astype(float)).tolist()
    reason: list[str | None] = [None] * len(value)
    for i in np.flatnonzero(total == 0).tolist():
        value[i], reason[i] = None, (f"exact F1 is undefined for document {c.docs[i]!r}: "
                                     "neither annotator marked a span")
    return value, reason


def exact_f1(study: Study, *, only: Sequence[tuple[str, str]] | None = None,
             per_document: bool = True, document_f1: DocumentF1 | None = None
             ) -> PairwiseResult:
    """Exact-match (instance) F1 of every annotator pair (module docstring; ``agreement.md``).

    Symmetric: one entry per unordered pair. ``overall``: over the documents both list, with
    the counts in ``stats`` (``matches``, ``spans_first``, ``spans_second``: the pair's first
    and second annotator's distinct instances); ``per_label``: each study label's;
    ``extra["position"]``: labels ignored; ``per_document``: each document's
    (``per_document=False``: left out, every other value the same). ``only``: these pairs
    instead of every one. ``document_f1``: filled with each pair's per-document values and
    reasons instead of ``per_document`` (left empty), without an object per document.
    """
    _need_two(study)
    pairs_wanted = list(combinations(study.annotators, 2) if only is None else only)
    who = list(dict.fromkeys(x for pair in pairs_wanted for x in pair))
    packer, inst = instances(study, who)
    blind_packer, blind = instances(study, who, blind=True)
    n_labels = len(study.labels)
    pairs: dict[tuple[str, str], PairValue] = {}
    for a, b in pairs_wanted:
        c = pair_counts(study, packer, inst[a], inst[b], n_labels)
        if not c.docs:
            pairs[(a, b)] = PairValue(undefined("no document annotated by both"))
            continue
        p = pair_counts(study, blind_packer, blind[a], blind[b], 1)
        pv = PairValue(f1_value(int(c.label_matches.sum()), int(c.label_first.sum()),
                                int(c.label_second.sum()), "any label"))
        pv.extra["position"] = f1_value(int(p.label_matches.sum()), int(p.label_first.sum()),
                                        int(p.label_second.sum()), "span positions")
        for lab, m, x, y in zip(study.labels, c.label_matches.tolist(), c.label_first.tolist(),
                                c.label_second.tolist(), strict=True):
            pv.per_label[lab] = f1_value(m, x, y, repr(lab))
        if document_f1 is not None:
            document_f1[(a, b)] = (list(c.docs), *document_f1_values(c))
        elif per_document:
            pv.per_document = {
                d: f1_value(m, x, y, f"document {d!r}")
                for d, m, x, y in zip(c.docs, c.doc_matches.tolist(), c.doc_first.tolist(),
                                      c.doc_second.tolist(), strict=True)}
        pairs[(a, b)] = pv
    return PairwiseResult(MEASURE, study.annotators, pairs,
                          params={"documents": len(study.docs), "duplicates": "counted once"})
