"""An agreement study: several annotators over the same documents, and the items built from it.

A :class:`Study` holds one annotation set per annotator and the length of every document. The
coding measures need *items*; this module builds them the ways ``docs/agreement.md``
lists, always keeping the counts per document so that per-document values and corpus values
come from the same numbers (the corpus table is the sum of the document tables):

* character × label: is character i covered by a span with label c? (overlap- and multi-label-safe)
* character, position only: is character i covered by any span?
* document × label: does the document carry label c at all? (MAFALDA's "multi-label binary")

A document that an annotator's set does not list is *missing* for that annotator (not "no span"):
pairwise measures use the documents both annotators cover, Krippendorff's α keeps missing values,
Fleiss' κ and unitizing α use the documents every annotator covers, and each result says how many
documents it left out. In a set with MAFALDA alternatives, the ⊥ label ``nothing`` (which makes a
gold span optional) is left out, with a warning; alternative labels of one interval count as
several labels of that span.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.errors import InputError
from core.model import NOTHING, AnnotationSet, Span

POSITION = "<position>"
"""Pseudo-label of the position-only construction (span vs no span, labels ignored)."""


@dataclass
class Study:
    """Annotators × documents × spans, with document lengths.

    ``spans[a][d]`` is annotator ``a``'s spans in document ``d``; a document absent from
    ``spans[a]`` is missing for ``a``. ``lengths[d]`` is the text length when the text is known,
    otherwise the furthest span end any annotator used (the continuum must contain every span).
    """

    annotators: list[str]
    docs: list[str]
    lengths: dict[str, int]
    spans: dict[str, dict[str, tuple[Span, ...]]]
    labels: list[str] = field(default_factory=list)
    length_known: dict[str, bool] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_sets(cls, sets: Sequence[AnnotationSet],
                  texts: Mapping[str, str | None] | None = None, *,
                  label: str | None = None, unit_set: bool = False) -> Study:
        """Build a study from annotation sets (one per annotator).

        ``label`` keeps only that label's spans (the study then has that single label, even if
        nobody used it, so that every measure can say so). An annotator's exact duplicate spans
        (same interval and label twice) are kept, as two units, with a warning; ``unit_set``
        reads each annotator's units as a set instead (pygamma-agreement's reading: its
        continuum keeps units in a sorted set, so γ there counts a duplicate once). Two sets
        with one name are an error, and so is a span that ends after its document's text.

        >>> a = AnnotationSet("A", {"d1": (Span(0, 4, "x"),)}, role="annotator")
        >>> b = AnnotationSet("B", {"d1": (), "d2": (Span(1, 2, "y"),)}, role="annotator")
        >>> s = Study.from_sets([a, b], {"d1": "abcdef"})
        >>> s.docs, s.lengths, s.labels, s.covering("d2")
        (['d1', 'd2'], {'d1': 6, 'd2': 2}, ['x', 'y'], ['B'])
        """
        texts = texts or {}
        names = [s.name for s in sets]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise InputError(f"two annotation sets are both named {dupes[0]!r}; "
                             "every annotator needs a distinct name")
        spans: dict[str, dict[str, tuple[Span, ...]]] = {}
        docs: dict[str, None] = {}
        warnings: list[str] = []
        for aset in sets:
            per_doc: dict[str, tuple[Span, ...]] = {}
            optional = 0
            for doc_id, doc_spans in aset.spans.items():
                if aset.alternatives:
                    # MAFALDA's ⊥ marks a gold span optional; it is not a label annotators chose
                    optional += sum(1 for s in doc_spans if s.label == NOTHING)
                    doc_spans = tuple(s for s in doc_spans if s.label != NOTHING)
                kept = doc_spans if label is None else tuple(
                    s for s in doc_spans if s.label == label)
                dup = len(kept) - len(set(kept))
                if dup:
                    first = next(sp for sp in kept if kept.count(sp) > 1)
                    how = ("counted once (--unit-set)" if unit_set else "kept as separate "
                           "units; pygamma-agreement counts them once (--unit-set)")
                    warnings.append(f"{aset.name}: document {doc_id!r} has {dup} exact duplicate "
                                    f"span(s), e.g. [{first.start}, {first.end}) {first.label!r}: "
                                    f"{how}")
                    if unit_set:
                        kept = tuple(set(kept))
                per_doc[doc_id] = tuple(sorted(kept))
                docs[doc_id] = None
            spans[aset.name] = per_doc
            if optional:
                warnings.append(f"{aset.name}: {optional} '{NOTHING}' alternative(s) (optional "
                                "span markers) are not agreement labels and were left out")
        lengths: dict[str, int] = {}
        known: dict[str, bool] = {}
        for doc_id in docs:
            far = max((sp.end for a in names for sp in spans[a].get(doc_id, ())), default=0)
            text = texts.get(doc_id)
            if text is not None:
                if far > len(text):
                    who = next(a for a in names
                               if any(sp.end > len(text) for sp in spans[a].get(doc_id, ())))
                    raise InputError(
                        f"annotator {who!r}, document {doc_id!r}: a span ends at {far}, after "
                        f"the end of the text ({len(text)} characters)")
                lengths[doc_id] = len(text)
                known[doc_id] = True
            else:
                lengths[doc_id] = far
                known[doc_id] = False
        if label is not None:
            labels = [label]
        else:
            labels = sorted({sp.label for a in names for v in spans[a].values() for sp in v})
        return cls(names, list(docs), lengths, spans, labels, known, warnings)

    def covering(self, doc_id: str) -> list[str]:
        """The annotators whose sets list ``doc_id``."""
        return [a for a in self.annotators if doc_id in self.spans[a]]

    def common_docs(self, annotators: Sequence[str] | None = None) -> list[str]:
        """Documents listed by every one of ``annotators`` (default: all)."""
        who = list(annotators) if annotators is not None else self.annotators
        return [d for d in self.docs if all(d in self.spans[a] for a in who)]

    def get(self, annotator: str, doc_id: str) -> tuple[Span, ...]:
        return self.spans[annotator].get(doc_id, ())


def char_tables(study: Study, a: str, b: str
                ) -> dict[str, dict[str, tuple[int, int, int, int]]]:
    """Per document, per label (and :data:`POSITION`): the 2×2 counts of annotators a and b.

    Only documents both cover. Interval arithmetic on the merged spans of each label (the
    counts one would get from a yes/no mask per character, without building it); a label
    neither annotator used in a document has all its characters in ``n00``.
    """
    out: dict[str, dict[str, tuple[int, int, int, int]]] = {}
    for doc_id in study.common_docs([a, b]):
        length = study.lengths[doc_id]
        per: dict[str, tuple[int, int, int, int]] = dict.fromkeys(study.labels, (0, 0, 0, length))
        by_a = _by_label(study.get(a, doc_id))
        by_b = _by_label(study.get(b, doc_id))
        for lab in [*sorted(by_a.keys() | by_b.keys()), POSITION]:
            ua, ub = merge_intervals(by_a.get(lab, ())), merge_intervals(by_b.get(lab, ()))
            n11 = _intersection(ua, ub)
            n10 = sum(e - s for s, e in ua) - n11
            n01 = sum(e - s for s, e in ub) - n11
            per[lab] = (n11, n10, n01, length - n11 - n10 - n01)
        out[doc_id] = per
    return out


def _by_label(spans: Sequence[Span]) -> dict[str, list[tuple[int, int]]]:
    """Intervals per label, and every interval under :data:`POSITION`."""
    out: dict[str, list[tuple[int, int]]] = {POSITION: []}
    for sp in spans:
        out.setdefault(sp.label, []).append((sp.start, sp.end))
        out[POSITION].append((sp.start, sp.end))
    return out


def merge_intervals(intervals: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The covered characters as sorted maximal runs (overlapping or touching intervals join).

    >>> merge_intervals([(5, 8), (0, 3), (2, 4), (8, 9)])
    [(0, 4), (5, 9)]
    """
    merged: list[tuple[int, int]] = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def _intersection(x: Sequence[tuple[int, int]], y: Sequence[tuple[int, int]]) -> int:
    """Characters in both of two sorted disjoint interval lists (one merge pass).

    >>> _intersection([(0, 4), (5, 9)], [(3, 6), (8, 20)])
    3
    """
    i = j = total = 0
    while i < len(x) and j < len(y):
        lo, hi = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if hi > lo:
            total += hi - lo
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return total


def doc_label_matrix(study: Study, annotators: Sequence[str] | None = None
                     ) -> dict[str, dict[str, set[str] | None]]:
    """``matrix[annotator][doc]``: the set of labels the annotator used there (None: missing)."""
    who = list(annotators) if annotators is not None else study.annotators
    return {a: {d: ({sp.label for sp in study.spans[a][d]} if d in study.spans[a] else None)
                for d in study.docs} for a in who}
