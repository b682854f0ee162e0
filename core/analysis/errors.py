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
  (:func:`core.metrics.labels.level_namer` with :func:`core.taxonomy.for_labels` or a given
  taxonomy: MAFALDA's names at level 2, emotion / logic / credibility at level 1, ``fallacy``
  at level 0, ``nothing`` stays ⊥ and a predicted ``unknown`` is ⊥ at level 0); categories are
  computed on the projected labels. At level 2 labels therefore match case-insensitively, as in
  the MAFALDA metric.

Documents are the reference's; a prediction on a document the reference lacks is an
:class:`~core.errors.InputError`, and a reference document without predictions has its spans
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

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from core.errors import check_choice
from core.formats.docsets import check_same_documents
from core.metrics.labels import level_namer
from core.model import NOTHING, AltSpan, AnnotationSet, Interval, Span, group_alternatives
from core.taxonomy import Taxonomy, for_labels

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


@dataclass(frozen=True)
class ErrorTable:
    """Categories of every span of a (reference, system) pair, and their counts.

    ``spans`` lists reference spans then predictions, document by document in reference order,
    each side sorted by (start, end, labels). ``documents`` are the reference's documents.
    """

    reference: str
    system: str
    level: int
    taxonomy: str
    documents: tuple[str, ...]
    spans: tuple[SpanCategory, ...] = field(repr=False)

    def counts(self, side: Side, *, label: str | None = None,
               documents: Iterable[str] | None = None) -> dict[str, int]:
        """Spans of ``side`` per category (every category of that side, zeros included)."""
        cats = REFERENCE_CATEGORIES if side == "reference" else PREDICTION_CATEGORIES
        docs = None if documents is None else set(documents)
        c = Counter(s.category for s in self.spans if s.side == side
                    and (label is None or s.label == label)
                    and (docs is None or s.document in docs))
        return {k: c[k] for k in cats}

    def labels(self) -> list[str]:
        """Every label a span is counted under, sorted case-insensitively (⊥ last)."""
        return sorted({s.label for s in self.spans}, key=_label_key)

    @property
    def duplicates(self) -> dict[str, int]:
        """Spans per side that repeat an earlier span of their side (same interval, label)."""
        c = Counter(s.side for s in self.spans if s.duplicate)
        return {side: c[side] for side in SIDES}

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
        hit = {s.document for s in self.spans
               if (category is None or s.category == category)
               and (label is None or s.label == label) and (side is None or s.side == side)}
        return [d for d in self.documents if d in hit]

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

    ``taxonomy`` (for ``level``) defaults to :func:`core.taxonomy.for_labels` of both sets'
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
    check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name,
                         "pred-subset-of-gold")
    tax = taxonomy or for_labels([*gold.labels(), *pred.labels()])
    name = level_namer(tax, level)
    spans: list[SpanCategory] = []
    for doc in gold.doc_ids:
        units = _units(gold, doc, name)
        preds = sorted(Span(s.start, s.end, name(s.label)) for s in pred.get(doc))
        spans.extend(_categorise_document(doc, units, preds))
    return ErrorTable(gold.name, pred.name, level, tax.name, tuple(gold.doc_ids), tuple(spans))


def category_table(tables: Mapping[str, ErrorTable]) -> list[dict[str, Any]]:
    """Tidy rows (system, side, category, count) for several systems against one reference."""
    rows = []
    for system, t in tables.items():
        for side in SIDES:
            for cat, n in t.counts(side).items():
                rows.append({"system": system, "side": side, "category": cat, "count": n})
    return rows
