"""Error categories: what kind of mistake each reference and each predicted span is.

What it measures
----------------
For a (reference, system) pair every reference span and every predicted span gets exactly one
category, from the overlapping pairs it forms (|s∩t| > 0, the pairs Da San Martino et al. 2019
credit; the vocabulary of MUC scoring, Chinchor & Sundheim 1993, and of SemEval-2013 Task 9.1,
Segura-Bedmar et al. 2013):

``correct``
    same boundaries, same label;
``label``
    same boundaries, another label;
``boundary``
    overlap with other boundaries, same label;
``boundary+label``
    overlap with other boundaries, another label;
``missed``
    a reference span that no prediction overlaps (reference side only);
``spurious``
    a prediction that overlaps no reference span (prediction side only);
``optional``
    a reference span that offers ⊥ and that no prediction overlaps (reference side only): not an
    error, see below.

So the reference side adds up to the number of reference spans and the prediction side to the
number of predicted spans::

    |gold| = correct + label + boundary + boundary+label + missed + optional
    |pred| = correct + label + boundary + boundary+label + spurious

Rules for the hard cases
------------------------
* **Each span is categorised by its best pair**, independently of the other spans: a span that
  overlaps several spans of the other side takes the kind of its best pair, ranked
  ``correct`` < ``boundary`` < ``label`` < ``boundary+label`` (pairs with the same label come
  first because they are the ones both span metrics credit, C(s,t,h) > 0), then by the larger
  |s∩t|, then by the earlier span (start, end, label). The category is thus a property of the
  span, not of a one-to-one alignment (for that, see the SemEval-2013 schemas in
  :mod:`core.metrics.nervaluate`).
* **A prediction overlapping several reference spans** takes one category (its best pair), and
  each of those reference spans takes its own category from *its* best pair: one long
  prediction across two gold spans of its label makes the prediction ``boundary`` and both gold
  spans ``boundary`` (or ``correct`` for a gold span another prediction matches exactly).
* **Two predictions on one reference span**: the reference span takes the better pair (one
  exact match makes it ``correct``); each prediction takes its own (the exact one ``correct``,
  the other ``boundary``).
* **Duplicates** (the same interval and label twice on one side): each copy is a span and is
  categorised alone, so two identical correct predictions are two ``correct`` predictions (and
  two identical reference spans are two reference spans, as in the SemEval-2021 scorer).
  :attr:`SpanCategory.duplicate` flags every copy after the first, and
  :attr:`ErrorTable.duplicates` counts them per side, so they can be seen without a seventh
  error kind. One-to-one schemas (nervaluate) count the copies as spurious instead.
* **Gold alternatives and ⊥** (MAFALDA, Helwe et al. 2024, Definition 6; a set with
  ``alternatives``): the spans sharing an interval are one reference span whose label is a
  disjunction. A pair has the same label when the predicted label is *one of* the alternatives,
  so a label error is counted only when no alternative matches. The reference span is counted
  under the alternative that matched, else under its alternatives joined ``"A | B"``. A
  reference span offering ⊥ (``nothing``) that no prediction overlaps is ``optional``, not
  ``missed``: the alternative choosing ⊥ leaves it out of recall, so not predicting it is no
  error. One that a prediction overlaps is categorised like any other span (⊥ is then a label
  that only a ``nothing`` prediction matches). Predicted ``nothing`` spans are predictions
  like any other.
* **MAFALDA levels 0/1/2**: every label of both sides is first projected to the level
  (:func:`core.metrics.labels.level_namer` with :func:`core.model.taxonomy.for_labels` or a given
  taxonomy: MAFALDA's names at level 2, emotion / logic / credibility at level 1, ``fallacy``
  at level 0, ``nothing`` stays ⊥ and a predicted ``unknown`` is ⊥ at level 0); categories are
  computed on the projected labels. At level 2 labels therefore match case-insensitively, as in
  the MAFALDA metric.

Documents are the reference's; a prediction on a document the reference lacks is an
:class:`~core.model.errors.InputError`, and a reference document without predictions has its spans
``missed`` (or ``optional``).

Python API
----------
:func:`categorise` returns an :class:`ErrorTable`: one :class:`SpanCategory` per span (the
evidence: which span of the other side decided it), the counts per side overall and per label,
and :meth:`ErrorTable.to_dict` (the JSON of ``python -m core errors``).

Citations: N. Chinchor, B. Sundheim. MUC-5 Evaluation Metrics. MUC-5, 1993. I. Segura-Bedmar,
P. Martínez, M. Herrero-Zazo. SemEval-2013 Task 9. SemEval 2013. G. Da San Martino et al.
Fine-Grained Analysis of Propaganda in News Articles. EMNLP 2019. C. Helwe et al. MAFALDA.
NAACL 2024.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np

from core.metrics.labels import level_namer
from core.metrics.overlap import PAIR_CANDIDATES, SpanArrays, overlapping_pairs, swept_pairs
from core.model import NOTHING, AltSpan, AnnotationSet, Interval, Span, group_alternatives
from core.model.docsets import check_same_documents
from core.model.errors import check_choice
from core.model.table import _span_order
from core.model.taxonomy import Taxonomy, for_labels

CORRECT = "correct"
LABEL = "label"
BOUNDARY = "boundary"
BOUNDARY_LABEL = "boundary+label"
MISSED = "missed"
SPURIOUS = "spurious"
OPTIONAL = "optional"

PAIR_KINDS = (CORRECT, BOUNDARY, LABEL, BOUNDARY_LABEL)
"""Kinds of an overlapping pair, best first (the ranking of the module docstring)."""
CATEGORIES = (CORRECT, LABEL, BOUNDARY, BOUNDARY_LABEL, MISSED, SPURIOUS, OPTIONAL)
"""Every category, in the order tables show them."""
REFERENCE_CATEGORIES = (CORRECT, LABEL, BOUNDARY, BOUNDARY_LABEL, MISSED, OPTIONAL)
PREDICTION_CATEGORIES = (CORRECT, LABEL, BOUNDARY, BOUNDARY_LABEL, SPURIOUS)
ERRORS = (LABEL, BOUNDARY, BOUNDARY_LABEL, MISSED, SPURIOUS)
"""The categories that are errors (``correct`` and ``optional`` are not)."""
LEVELS = (2, 1, 0)
JOIN = " | "

Side = Literal["reference", "prediction"]
SIDES: tuple[Side, ...] = ("reference", "prediction")


@dataclass(frozen=True, slots=True)
class SpanCategory(Interval):
    """The category of one span and the evidence for it.

    ``side`` says whether ``span`` is a reference or a predicted span; ``labels`` are its
    (projected) labels, several for a reference span with alternatives; ``label`` is the one it
    is counted under (module docstring). ``partner`` is the span of the other side whose pair
    decided the category (None for ``missed``, ``spurious``, ``optional``) with its labels in
    ``partner_labels`` and ``overlap`` = |s∩t|. ``duplicate``: an earlier span of the same
    side has the same interval and labels.
    """

    document: str
    side: Side
    start: int
    end: int
    labels: tuple[str, ...]
    label: str
    category: str
    partner: tuple[int, int] | None = None
    partner_labels: tuple[str, ...] = ()
    overlap: int = 0
    duplicate: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"document": self.document, "side": self.side, "start": self.start,
                "end": self.end, "labels": list(self.labels), "label": self.label,
                "category": self.category,
                "partner_start": None if self.partner is None else self.partner[0],
                "partner_end": None if self.partner is None else self.partner[1],
                "partner_labels": list(self.partner_labels), "overlap": self.overlap,
                "duplicate": self.duplicate}


@dataclass(frozen=True, eq=False)
class ErrorColumns:
    """The rows of an :class:`ErrorTable` as arrays (one entry per span, in table order).

    ``doc``: index into the table's documents; ``side``: 0 reference, 1 prediction;
    ``label``: index into ``names`` (the label the span is counted under); ``labels`` and
    ``partner_labels``: indices into ``label_sets`` (a span's labels, its partner's; ``()``
    when there is no partner); ``category``: index into :data:`CATEGORIES`; partner bounds
    -1 when there is no partner.
    """

    doc: np.ndarray
    side: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    labels: np.ndarray
    category: np.ndarray
    partner_start: np.ndarray
    partner_end: np.ndarray
    partner_labels: np.ndarray
    overlap: np.ndarray
    duplicate: np.ndarray
    names: tuple[str, ...]
    label_sets: tuple[tuple[str, ...], ...]

    @classmethod
    def from_spans(cls, documents: Sequence[str], spans: Sequence[SpanCategory]
                   ) -> ErrorColumns:
        """Columns of categorised spans built one by one."""
        doc_pos = {d: i for i, d in enumerate(documents)}
        names: dict[str, int] = {}
        sets: dict[tuple[str, ...], int] = {(): 0}
        n = len(spans)

        def col(values: Iterable[int]) -> np.ndarray:
            return np.fromiter(values, dtype=np.int64, count=n)

        return cls(
            col(doc_pos[x.document] for x in spans), col(SIDES.index(x.side) for x in spans),
            col(x.start for x in spans), col(x.end for x in spans),
            col(names.setdefault(x.label, len(names)) for x in spans),
            col(sets.setdefault(x.labels, len(sets)) for x in spans),
            col(CATEGORIES.index(x.category) for x in spans),
            col(-1 if x.partner is None else x.partner[0] for x in spans),
            col(-1 if x.partner is None else x.partner[1] for x in spans),
            col(sets.setdefault(x.partner_labels, len(sets)) for x in spans),
            col(x.overlap for x in spans), np.fromiter((x.duplicate for x in spans), bool, n),
            tuple(names), tuple(sets))

    def build(self, documents: Sequence[str]) -> tuple[SpanCategory, ...]:
        """One :class:`SpanCategory` per row."""
        sets, names = self.label_sets, self.names
        out = []
        for d, side, s, e, lab, labs, cat, ps, pe, pl, ov, dup in zip(
                self.doc.tolist(), self.side.tolist(), self.start.tolist(), self.end.tolist(),
                self.label.tolist(), self.labels.tolist(), self.category.tolist(),
                self.partner_start.tolist(), self.partner_end.tolist(),
                self.partner_labels.tolist(), self.overlap.tolist(), self.duplicate.tolist(),
                strict=True):
            out.append(SpanCategory(documents[d], SIDES[side], s, e, sets[labs], names[lab],
                                    CATEGORIES[cat], None if ps < 0 else (ps, pe), sets[pl],
                                    ov, dup))
        return tuple(out)


@dataclass(frozen=True)
class ErrorTable:
    """Categories of every span of a (reference, system) pair, and their counts.

    ``spans`` lists reference spans then predictions, document by document in reference order,
    each side sorted by (start, end, labels). ``documents`` are the reference's documents.
    The table keeps its rows as columns (:class:`ErrorColumns`); ``spans`` builds the
    :class:`SpanCategory` objects on first use, counts never need them.
    """

    reference: str
    system: str
    level: int
    taxonomy: str
    documents: tuple[str, ...]
    columns: ErrorColumns = field(repr=False, compare=False)

    @cached_property
    def spans(self) -> tuple[SpanCategory, ...]:
        return self.columns.build(self.documents)

    @cached_property
    def _cube(self) -> np.ndarray:
        """Spans per (label, side, category)."""
        c = self.columns
        n = len(c.names) * 2 * len(CATEGORIES)
        flat = np.bincount((c.label * 2 + c.side) * len(CATEGORIES) + c.category, minlength=n)
        return flat.reshape(len(c.names), 2, len(CATEGORIES))

    def counts(self, side: Side, *, label: str | None = None,
               documents: Iterable[str] | None = None) -> dict[str, int]:
        """Spans of ``side`` per category (every category of that side, zeros included)."""
        cats = REFERENCE_CATEGORIES if side == "reference" else PREDICTION_CATEGORIES
        c = self.columns
        k = SIDES.index(side)
        if label is not None and label not in c.names:
            return dict.fromkeys(cats, 0)
        if documents is None:
            cube = self._cube[:, k, :]
            got = cube.sum(axis=0) if label is None else cube[c.names.index(label)]
        else:
            pos = {d: i for i, d in enumerate(self.documents)}
            wanted = np.zeros(len(self.documents) + 1, dtype=bool)
            wanted[[pos[d] for d in documents if d in pos]] = True
            mask = (c.side == k) & wanted[c.doc]
            if label is not None:
                mask &= c.label == c.names.index(label)
            got = np.bincount(c.category[mask], minlength=len(CATEGORIES))
        return {cat: int(got[CATEGORIES.index(cat)]) for cat in cats}

    def labels(self) -> list[str]:
        """Every label a span is counted under, sorted case-insensitively (⊥ last)."""
        used = np.unique(self.columns.label).tolist()
        return sorted({self.columns.names[i] for i in used}, key=_label_key)

    @property
    def duplicates(self) -> dict[str, int]:
        """Spans per side that repeat an earlier span of their side (same interval, label)."""
        c = np.bincount(self.columns.side[self.columns.duplicate], minlength=2)
        return {side: int(c[k]) for k, side in enumerate(SIDES)}

    def table(self) -> list[dict[str, Any]]:
        """One row per category: reference and prediction counts (None where a category does
        not apply to a side), overall."""
        ref, pred = self.counts("reference"), self.counts("prediction")
        return [{"category": c, "reference": ref.get(c), "prediction": pred.get(c)}
                for c in CATEGORIES]

    def per_label_rows(self) -> list[dict[str, Any]]:
        """Tidy rows (label, side, category, count) for every label, side and category."""
        rows = []
        for lab in self.labels():
            for side in SIDES:
                for cat, n in self.counts(side, label=lab).items():
                    rows.append({"label": lab, "side": side, "category": cat, "count": n})
        return rows

    def documents_with(self, *, category: str | None = None, label: str | None = None,
                       side: Side | None = None) -> list[str]:
        """Documents (reference order) holding a span of ``category`` / ``label`` / ``side``."""
        c = self.columns
        mask = np.ones(len(c.doc), dtype=bool)
        if category is not None:
            mask &= c.category == (CATEGORIES.index(category) if category in CATEGORIES else -1)
        if label is not None:
            mask &= c.label == (c.names.index(label) if label in c.names else -1)
        if side is not None:
            mask &= c.side == SIDES.index(side)
        return [self.documents[i] for i in np.unique(c.doc[mask]).tolist()]

    def to_dict(self, *, spans: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "command": "errors", "reference": self.reference, "system": self.system,
            "level": self.level, "taxonomy": self.taxonomy, "documents": len(self.documents),
            "categories": list(CATEGORIES),
            "overall": {side: {**self.counts(side), "total": sum(self.counts(side).values())}
                        for side in SIDES},
            "per_label": {lab: {side: self.counts(side, label=lab) for side in SIDES}
                          for lab in self.labels()},
            "duplicates": self.duplicates,
        }
        if spans:
            out["spans"] = [s.as_dict() for s in self.spans]
        return out


def _label_key(label: str) -> tuple[bool, str, str]:
    return (label == NOTHING, label.lower(), label)


def _joined(labels: Iterable[str]) -> str:
    return JOIN.join(sorted(set(labels), key=_label_key))


def pair_kind(gold: tuple[int, int], gold_labels: Sequence[str], pred: tuple[int, int],
              pred_label: str) -> str:
    """The kind of an overlapping pair (module docstring).

    >>> pair_kind((0, 10), ("A", "B"), (0, 10), "B"), pair_kind((0, 10), ("A",), (2, 10), "C")
    ('correct', 'boundary+label')
    """
    same_label = pred_label in gold_labels
    if gold == pred:
        return CORRECT if same_label else LABEL
    return BOUNDARY if same_label else BOUNDARY_LABEL


def _units(aset: AnnotationSet, doc: str, name: Any) -> list[AltSpan]:
    """The document's reference spans with projected labels (alternatives grouped)."""
    spans = [Span(s.start, s.end, name(s.label)) for s in aset.get(doc)]
    if aset.alternatives:
        units = list(group_alternatives(spans))
    else:
        units = [AltSpan(s.start, s.end, (s.label,)) for s in spans]
    return sorted(units, key=lambda u: (u.start, u.end, u.labels))


def _categorise_document(doc: str, units: Sequence[AltSpan], preds: Sequence[Span]
                         ) -> list[SpanCategory]:
    # best[i] = (rank, -overlap, partner index) over the overlapping pairs of span i
    best_g: list[tuple[int, int, int] | None] = [None] * len(units)
    best_p: list[tuple[int, int, int] | None] = [None] * len(preds)
    for j, p in enumerate(preds):
        for i, u in enumerate(units):
            if u.start >= p.end:
                break  # units are sorted by start: none later overlaps p
            ov = min(u.end, p.end) - max(u.start, p.start)
            if ov <= 0:
                continue
            rank = PAIR_KINDS.index(pair_kind(u.interval, u.labels, (p.start, p.end), p.label))
            key_g = (rank, -ov, j)
            if best_g[i] is None or key_g < best_g[i]:  # type: ignore[operator]
                best_g[i] = key_g
            key_p = (rank, -ov, i)
            if best_p[j] is None or key_p < best_p[j]:  # type: ignore[operator]
                best_p[j] = key_p
    out: list[SpanCategory] = []
    seen: set[tuple[int, int, tuple[str, ...]]] = set()
    for i, u in enumerate(units):
        key = (u.start, u.end, u.labels)
        dup = key in seen
        seen.add(key)
        b = best_g[i]
        if b is None:
            cat = OPTIONAL if NOTHING in u.labels else MISSED
            label = u.labels[0] if len(u.labels) == 1 else _joined(u.labels)
            out.append(SpanCategory(doc, "reference", u.start, u.end, u.labels, label, cat,
                                    duplicate=dup))
            continue
        p = preds[b[2]]
        kind = PAIR_KINDS[b[0]]
        label = (p.label if p.label in u.labels else
                 u.labels[0] if len(u.labels) == 1 else _joined(u.labels))
        out.append(SpanCategory(doc, "reference", u.start, u.end, u.labels, label, kind,
                                (p.start, p.end), (p.label,), -b[1], dup))
    seen_p: set[Span] = set()
    for j, p in enumerate(preds):
        dup = p in seen_p
        seen_p.add(p)
        b = best_p[j]
        if b is None:
            out.append(SpanCategory(doc, "prediction", p.start, p.end, (p.label,), p.label,
                                    SPURIOUS, duplicate=dup))
            continue
        u = units[b[2]]
        out.append(SpanCategory(doc, "prediction", p.start, p.end, (p.label,), p.label,
                                PAIR_KINDS[b[0]], u.interval, u.labels, -b[1], dup))
    return out


def categorise(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2,
               taxonomy: Taxonomy | None = None) -> ErrorTable:
    """Categorise every span of ``gold`` and ``pred`` (module docstring).

    ``taxonomy`` (for ``level``) defaults to :func:`core.model.taxonomy.for_labels` of both sets'
    labels: MAFALDA's when it knows every label, else one class per label.

    >>> g = AnnotationSet("gold", {"d": (Span(0, 10, "A"), Span(20, 30, "B"),
    ...                                  Span(40, 45, "A"))})
    >>> p = AnnotationSet("sys", {"d": (Span(0, 10, "A"), Span(22, 30, "A"),
    ...                                 Span(50, 55, "B"))}, role="system")
    >>> t = categorise(g, p)
    >>> t.counts("reference")
    {'correct': 1, 'label': 0, 'boundary': 0, 'boundary+label': 1, 'missed': 1, 'optional': 0}
    >>> t.counts("prediction")
    {'correct': 1, 'label': 0, 'boundary': 0, 'boundary+label': 1, 'spurious': 1}
    """
    check_choice("level", "errors", level, LEVELS)
    documents = gold.table.doc_ids
    if pred.table.doc_ids != documents:  # the same documents in the same order pass at once
        check_same_documents(documents, pred.table.doc_ids, gold.name, pred.name,
                             "pred-subset-of-gold")
    tax = taxonomy or for_labels([*gold.labels(), *pred.labels()])
    name = level_namer(tax, level)
    if not gold.alternatives:
        return ErrorTable(gold.name, pred.name, level, tax.name, documents,
                          _categorise_columns(gold, pred, name, documents))
    spans: list[SpanCategory] = []
    for doc in gold.doc_ids:
        units = _units(gold, doc, name)
        preds = sorted(Span(s.start, s.end, name(s.label)) for s in pred.get(doc))
        spans.extend(_categorise_document(doc, units, preds))
    table = ErrorTable(gold.name, pred.name, level, tax.name, documents,
                       ErrorColumns.from_spans(documents, spans))
    table.__dict__["spans"] = tuple(spans)  # already built: cached_property's slot
    return table


def _sorted_side(aset: AnnotationSet, documents: tuple[str, ...],
                 doc_pos: Callable[[], Mapping[str, int]], name: Callable[[str], str],
                 names: dict[str, int]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One side's rows (document, start, end, projected label id) as the set's table holds
    them; ``names`` grows with the labels. ``doc_pos`` (the reference's document positions) is
    asked for only when the set's documents are not the reference's, in its order."""
    t = aset.table
    lab_map = np.fromiter((names.setdefault(name(x), len(names)) for x in t.labels),
                          dtype=np.int64, count=len(t.labels))
    if not len(t):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    if t.doc_ids == documents:
        doc = t.doc.astype(np.int64)
    else:
        pos = doc_pos()
        doc = np.fromiter((pos[d] for d in t.doc_ids), dtype=np.int64,
                          count=len(t.doc_ids))[t.doc]
    return doc, t.start, t.end, lab_map[t.label]


def _in_order(doc: np.ndarray, start: np.ndarray, end: np.ndarray, lab: np.ndarray,
              names: Sequence[str]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows sorted as the categories list them (document, start, end, projected label
    name): :func:`core.model.table._span_order`, one sort of a packed key and none when the
    rows are in that order already (a set's table is sorted so, and at level 2 its labels are
    mostly their own projection). It orders as ``np.lexsort((rank, end, start, doc))`` did,
    without its 0.24 s per side at 1,000,000 spans (docs/performance.md, issue 29)."""
    order = _span_order(doc, start, end, lab, names) if len(doc) else None
    if order is None:
        return doc, start, end, lab
    return doc[order], start[order], end[order], lab[order]


def _best(owner: np.ndarray, other: np.ndarray, rank: np.ndarray, inter: np.ndarray, n: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """For every row 0..n-1 of one side: the index of its best pair (smallest rank, then
    largest overlap, then earliest partner) or -1 when it is in no pair, and its rank."""
    best = np.full(n, -1, dtype=np.int64)
    best_rank = np.full(n, -1, dtype=np.int64)
    if len(owner):
        bits = [max(1, int(x).bit_length()) for x in (owner.max(), 3, inter.max(), other.max())]
        if sum(bits) <= 62:  # one packed key sorts faster than four
            packed = owner.astype(np.int64)
            for b, col in zip(bits[1:], (rank, int(inter.max()) - inter, other), strict=True):
                packed = (packed << b) | col
            order = np.argsort(packed, kind="stable")
        else:
            order = np.lexsort((other, -inter, rank, owner))
        first = np.ones(len(order), dtype=bool)
        first[1:] = owner[order][1:] != owner[order][:-1]
        pick = order[first]
        best[owner[pick]] = pick
        best_rank[owner[pick]] = rank[pick]
    return best, best_rank


def _pairs(pred: SpanArrays, gold: SpanArrays, n_docs: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The overlapping pairs of :func:`core.metrics.overlap.overlapping_pairs` (prediction and
    reference row, |s∩t|, same label), the same arrays in the same order, for reference rows
    sorted by document, then start: the sweep of :func:`core.metrics.overlap.swept_pairs`
    (0.27 → 0.05 s CPU at 1,000,000 spans per side against every pair of a document,
    docs/performance.md, issue 29), or :func:`_pairs_by_documents` where offsets don't pack."""
    swept = swept_pairs(pred.doc, pred.start, pred.end, gold.doc, gold.start, gold.end, n_docs)
    if swept is None:
        return _pairs_by_documents(pred, gold, n_docs)
    p_idx, g_idx, inter = swept
    return p_idx, g_idx, inter, pred.label[p_idx] == gold.label[g_idx]


def _pairs_by_documents(pred: SpanArrays, gold: SpanArrays, n_docs: int
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_pairs` where offsets do not pack into one key (negative, or beyond 2**62 with
    the documents): every prediction with every reference span of its document, a run of
    documents of at most :data:`PAIR_CANDIDATES` candidates at a time (a document with more
    is a run of its own)."""
    per_doc = (np.bincount(pred.doc, minlength=n_docs)
               * np.bincount(gold.doc, minlength=n_docs)).cumsum()
    total = int(per_doc[-1]) if n_docs else 0
    if total <= PAIR_CANDIDATES:
        pairs = overlapping_pairs(pred, gold, n_docs)
        return pairs.pred, pairs.gold, pairs.inter, pairs.match
    # a run ends after the last document whose running total stays within the next budget
    cuts = [0]
    while cuts[-1] < n_docs:
        done = int(per_doc[cuts[-1] - 1]) if cuts[-1] else 0
        end = int(np.searchsorted(per_doc, done + PAIR_CANDIDATES, side="right"))
        cuts.append(min(n_docs, max(end, cuts[-1] + 1)))
    p_bounds = np.searchsorted(pred.doc, cuts)
    g_bounds = np.searchsorted(gold.doc, cuts)
    parts = []
    for k in range(len(cuts) - 1):
        d0, (p0, p1), (g0, g1) = cuts[k], p_bounds[k:k + 2], g_bounds[k:k + 2]
        run = overlapping_pairs(
            SpanArrays(pred.doc[p0:p1] - d0, pred.start[p0:p1], pred.end[p0:p1],
                       pred.label[p0:p1], pred.names),
            SpanArrays(gold.doc[g0:g1] - d0, gold.start[g0:g1], gold.end[g0:g1],
                       gold.label[g0:g1], gold.names),
            cuts[k + 1] - d0)
        parts.append((run.pred + p0, run.gold + g0, run.inter, run.match))
    return tuple(np.concatenate(c) for c in zip(*parts, strict=True))  # type: ignore[return-value]


def _categorise_columns(gold: AnnotationSet, pred: AnnotationSet, name: Callable[[str], str],
                        documents: Sequence[str]) -> ErrorColumns:
    """:func:`categorise` for a reference without alternatives, on the sets' columns: every
    overlapping pair of the corpus enumerated at once (:func:`_pairs`), each span's best pair
    picked with one sort; the same rows the per-document loop gives. Nothing is sorted when
    the tables are in order already, and no Python object is made per span or document when
    both sets list the same documents in the same order (docs/performance.md, issue 29,
    seventh pass)."""
    docs = tuple(documents)

    def doc_pos() -> dict[str, int]:
        return {d: i for i, d in enumerate(docs)}

    ids: dict[str, int] = {}
    g_side = _sorted_side(gold, docs, doc_pos, name, ids)
    p_side = _sorted_side(pred, docs, doc_pos, name, ids)
    names = tuple(ids)
    g_doc, g_start, g_end, g_lab = _in_order(*g_side, names)
    p_doc, p_start, p_end, p_lab = _in_order(*p_side, names)
    del g_side, p_side
    ga = SpanArrays(g_doc, g_start, g_end, g_lab, list(names))
    pa = SpanArrays(p_doc, p_start, p_end, p_lab, list(names))
    pi, gi, inter, match = _pairs(pa, ga, len(documents))
    exact = (p_start[pi] == g_start[gi]) & (p_end[pi] == g_end[gi])
    # PAIR_KINDS: correct 0, boundary 1, label 2, boundary+label 3
    rank = np.where(exact, np.where(match, 0, 2), np.where(match, 1, 3))
    del exact, match
    g_best, g_rank = _best(gi, pi, rank, inter, len(g_doc))
    p_best, p_rank = _best(pi, gi, rank, inter, len(p_doc))
    kind_cat = np.array([CATEGORIES.index(k) for k in PAIR_KINDS], dtype=np.int64)
    nothing = np.array([n == NOTHING for n in names], dtype=bool)

    missed = np.where(nothing[g_lab], CATEGORIES.index(OPTIONAL), CATEGORIES.index(MISSED)) \
        if len(g_lab) else np.zeros(0, dtype=np.int64)
    # Rows of one document: its reference rows, then its predictions, each side in its sorted
    # order; a row's place in the table is its place in its side plus the other side's rows
    # of earlier documents (and, for a prediction, of its own document). Each column is
    # written into place as it is made, so that one side's temporaries live at a time.
    g_at = np.arange(len(g_doc)) + np.searchsorted(p_doc, g_doc, side="left")
    p_at = np.arange(len(p_doc)) + np.searchsorted(g_doc, p_doc, side="right")
    g_partner = np.append(pi, -1)[g_best]  # index -1 (no pair) reads the appended padding
    p_partner = np.append(gi, -1)[p_best]

    def column(ref: np.ndarray, prd: np.ndarray) -> np.ndarray:
        out = np.empty(len(ref) + len(prd), dtype=np.result_type(ref, prd))
        out[g_at] = ref
        out[p_at] = prd
        return out

    def duplicate(doc: np.ndarray, start: np.ndarray, end: np.ndarray, lab: np.ndarray
                  ) -> np.ndarray:
        dup = np.zeros(len(doc), dtype=bool)
        dup[1:] = ((doc[1:] == doc[:-1]) & (start[1:] == start[:-1]) & (end[1:] == end[:-1])
                   & (lab[1:] == lab[:-1]))
        return dup

    lab = column(g_lab, p_lab)
    return ErrorColumns(
        column(g_doc, p_doc),
        column(np.zeros(len(g_doc), dtype=np.int64), np.ones(len(p_doc), dtype=np.int64)),
        column(g_start, p_start), column(g_end, p_end), lab, lab + 1,
        column(np.where(g_best >= 0, kind_cat[g_rank], missed),
               np.where(p_best >= 0, kind_cat[p_rank], CATEGORIES.index(SPURIOUS))),
        column(np.append(p_start, -1)[g_partner], np.append(g_start, -1)[p_partner]),
        column(np.append(p_end, -1)[g_partner], np.append(g_end, -1)[p_partner]),
        column(np.append(p_lab, -1)[g_partner] + 1, np.append(g_lab, -1)[p_partner] + 1),
        column(np.append(inter, 0)[g_best], np.append(inter, 0)[p_best]),
        column(duplicate(g_doc, g_start, g_end, g_lab), duplicate(p_doc, p_start, p_end, p_lab)),
        names, ((), *((n,) for n in names)))


def category_table(tables: Mapping[str, ErrorTable]) -> list[dict[str, Any]]:
    """Tidy rows (system, side, category, count) for several systems against one reference."""
    rows = []
    for system, t in tables.items():
        for side in SIDES:
            for cat, n in t.counts(side).items():
                rows.append({"system": system, "side": side, "category": cat, "count": n})
    return rows
