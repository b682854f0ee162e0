"""Which labels go together and which get confused: co-occurrence and gold-vs-prediction matrices.

What it measures
----------------
Two label-by-label count matrices over character-offset spans, each cell keeping the evidence
behind it (the document and the spans involved) so that a number can be traced to its spans.

**Co-occurrence within one annotation set** (:func:`cooccurrence`). An *occurrence* of a label
and what "together" means depend on ``scope``:

``"span"`` (default)
    Labels given to the same interval ``[start, end)``. An occurrence of A is an interval that
    carries A (duplicates of one (interval, label) count once). ``count(A, B)`` = intervals that
    carry both A and B. For MAFALDA gold these are a span's alternative labels, and this is what
    the paper's Figure 2 shows (Helwe et al. 2024, §4: "*Appeal to pity* has a 100% co-occurrence
    with *strawman* and *appeal to worse problem*", "*guilt by association* ... 38% of the time
    associated with *abusive ad hominem*"); on the released gold this module gives 1/1 and 3/8.
``"overlap"``
    Labels of spans that overlap (share at least one character; the same interval counts). An
    occurrence of A is a distinct (interval, A) span; ``count(A, B)`` = occurrences of A that
    overlap at least one *other* occurrence labelled B. The evidence lists every overlapping
    (A span, B span) pair, so a cell may list more pairs than its count.
``"text"``
    Labels in the same document. An occurrence of A is a document holding A; ``count(A, B)`` =
    documents holding both. The evidence lists, per document, every span of A and of B.

Row-normalised frequency (:func:`row_frequencies`): ``count(A, B) / occurrences(A)``, the share
of A's occurrences that occur with B ("how often is A accompanied by B"); it is not symmetric.
The diagonal: in the ``span`` and ``text`` scopes a label is counted once per interval or per
document, so ``count(A, A)`` is always 0 (left out); in the ``overlap`` scope ``count(A, A)`` is
the number of A spans that overlap another A span (nested or overlapping same-label spans).

**Confusion of gold against prediction** (:func:`confusion`). For every document, every
overlapping (gold span, predicted span) pair (|s∩t| > 0, the pairs Da San Martino et al. 2019
give partial credit to) counts once in (gold label, predicted label). A gold span that overlaps
no prediction counts in (its label, ``missed``) and a prediction that overlaps no gold span in
(``spurious``, its label): the "missing" and "spurious" categories of MUC scoring (Chinchor &
Sundheim 1993, *MUC-5 Evaluation Metrics*). Row-normalised, a row gives where the gold spans of
a label went.

Gold with alternatives (MAFALDA, Definition 6; :attr:`AnnotationSet.alternatives`): spans on one
interval are one gold span with a disjunction of labels. ``alternatives=`` says what it counts as:

``"match"`` (default)
    When the predicted label is one of the alternatives, the pair counts under that label (a
    hit, on the diagonal: MAFALDA's δ takes the best alternative). Otherwise, and for a missed
    span, it counts once under its alternatives joined ``"A | B"`` (sorted, ``nothing`` last).
``"joined"``
    Always under the joined label, matched or not.
``"each"``
    Once per alternative: rows then count alternatives, not spans.

⊥ (``nothing`` among the alternatives) makes a span optional: an optional gold span that
overlaps no prediction is *not* missed in MAFALDA's sense (the alternative choosing ⊥ removes it
from recall's denominator), so it counts in the column ``optional (⊥)`` instead of ``missed``.
In plain gold (no alternatives) ``nothing`` is a label like any other.
Predictions are single spans (a compared set with alternatives is read span by span, as the
scores do).

Levels: at level 1 and 0 every label of both sets is mapped with the taxonomy
(:func:`core.model.taxonomy.for_labels`: MAFALDA's when it knows every label, else one class per
label) before counting (:func:`project`); ``nothing`` stays ``nothing`` at every level, and a
predicted ``unknown`` is ``nothing`` at level 0 (MAFALDA's level 0: "no fallacy"). With one
class per label, level 1 equals level 2 and level 0 names every label ``fallacy``.

Limitations: matrices count spans, not characters; a long span overlapping many small ones
forms many pairs. A set's documents must include the compared set's (predictions on documents
the gold does not have are refused, as in NLP4IF-2019).

Citations: C. Helwe, T. Calamai, P.-H. Paris, C. Clavel, F. Suchanek. MAFALDA: A Benchmark and
Comprehensive Study of Fallacy Detection and Classification. NAACL 2024 (§4 and Figure 2;
§5.2 Definition 6). G. Da San Martino et al. Fine-Grained Analysis of Propaganda in News
Articles. EMNLP 2019 (§3, overlapping spans). N. Chinchor, B. Sundheim. MUC-5 Evaluation
Metrics. MUC-5, 1993.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from core.model import NOTHING, AnnotationSet, Span, group_alternatives
from core.model.docsets import check_same_documents
from core.model.errors import InputError, check_choice
from core.model.taxonomy import NOTHING_CODE, Taxonomy, for_labels

CARD = __doc__

SCOPES = ("span", "overlap", "text")
ALTERNATIVES = ("match", "joined", "each")
LEVELS = (2, 1, 0)
MISSED = "missed"
SPURIOUS = "spurious"
OPTIONAL = "optional (⊥)"
BUCKETS = (MISSED, OPTIONAL, SPURIOUS)
"""Row and column names of the confusion matrix that are not labels."""
JOIN = " | "
"""Separator of a gold span's alternatives joined into one row name."""

Cell = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one cell counted in one document: the row side's spans, the column side's spans and
    the characters they share.

    Confusion: ``row`` is the gold span (one :class:`Span` per alternative, all on one interval;
    empty for ``spurious``) and ``column`` the predicted span (empty for ``missed``/``optional``);
    ``overlap`` is |s∩t|. Co-occurrence: ``row`` holds spans of the row label and ``column`` of
    the column label (one each in the ``span`` and ``overlap`` scopes, every one of the document
    in the ``text`` scope); ``overlap`` is the number of characters covered by both sides.
    """

    document: str
    row: tuple[Span, ...]
    column: tuple[Span, ...]
    overlap: int


@dataclass(frozen=True)
class LabelMatrix:
    """A label-by-label count matrix with the evidence of every cell (module docstring).

    ``counts`` and ``evidence`` hold the non-empty cells only; ``row_totals`` are the
    denominators of the row-normalised frequencies (occurrences of the row label for
    co-occurrence, the row sum for confusion). ``kind`` is ``"cooccurrence"`` or
    ``"confusion"``; ``option`` is the scope or the alternatives mode; ``taxonomy`` names the
    taxonomy used for ``level``.
    """

    kind: Literal["cooccurrence", "confusion"]
    option: str
    level: int
    taxonomy: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    counts: Mapping[Cell, int]
    row_totals: Mapping[str, int]
    evidence: Mapping[Cell, tuple[Evidence, ...]] = field(repr=False)

    def count(self, row: str, column: str) -> int:
        return self.counts.get((row, column), 0)

    def cells(self) -> list[dict[str, Any]]:
        """Every cell of the grid, row by row: row, column, count, row total, frequency, pairs
        (the number of evidence items; frequency is None where the row total is 0)."""
        freq = row_frequencies(self.counts, self.row_totals)
        return [{"row": r, "column": c, "count": self.count(r, c),
                 "row_total": self.row_totals.get(r, 0),
                 "frequency": freq.get((r, c), 0.0 if self.row_totals.get(r, 0) else None),
                 "pairs": len(self.evidence.get((r, c), ()))}
                for r in self.rows for c in self.columns]


def row_frequencies(counts: Mapping[Cell, int], row_totals: Mapping[str, int]
                    ) -> dict[Cell, float]:
    """``count(row, column) / row_totals[row]`` for every non-zero cell.

    Counts first, one division last; a cell is never larger than its row total, so no ratio is
    ill-defined (rows whose total is 0 have no non-zero cell).

    >>> row_frequencies({("A", "B"): 3, ("A", "C"): 1}, {"A": 8})
    {('A', 'B'): 0.375, ('A', 'C'): 0.125}
    """
    out = {}
    for (row, column), n in counts.items():
        if n:
            total = row_totals[row]
            if n > total:
                raise ValueError(f"cell ({row!r}, {column!r}) counts {n} > its row total {total}")
            out[(row, column)] = n / total
    return out


# ---- labels at a level ---------------------------------------------------------------------


def _label_key(label: str) -> tuple[bool, str, str]:
    """Sort labels case-insensitively, ``nothing`` last."""
    return (label == NOTHING, label.lower(), label)


def level_namer(taxonomy: Taxonomy, level: int) -> Callable[[str], str]:
    """A function label -> its name at ``level`` (``nothing`` stays ``nothing``).

    >>> from core.model.taxonomy import mafalda
    >>> name = level_namer(mafalda(), 1)
    >>> name("Ad Hominem"), name("nothing"), level_namer(mafalda(), 0)("unknown")
    ('credibility', 'nothing', 'nothing')
    """
    check_choice("level", "labels", level, LEVELS)
    cache: dict[str, str] = {}

    def name(label: str) -> str:
        if label not in cache:
            code = taxonomy.code(label)
            projected = taxonomy.project(code, level)
            # ⊥ keeps its name; at level 0 "unknown" is "no fallacy" too (MAFALDA's level 0).
            if code == NOTHING_CODE or (level == 0 and projected == NOTHING_CODE):
                cache[label] = NOTHING
            else:
                cache[label] = taxonomy.label_name(projected, level)
        return cache[label]

    return name


def project(aset: AnnotationSet, *, level: int = 2, taxonomy: Taxonomy | None = None
            ) -> AnnotationSet:
    """The set with every label replaced by its name at ``level`` (spans and flags kept).

    ``taxonomy`` defaults to :func:`core.model.taxonomy.for_labels` of the set's labels. At level 2
    MAFALDA's names are its lower-case names (labels match case-insensitively, as in the
    metric).

    >>> s = AnnotationSet("g", {"d": (Span(0, 4, "Ad Hominem"), Span(0, 4, "tu quoque"))})
    >>> [sp.label for sp in project(s, level=1).get("d")]
    ['credibility', 'credibility']
    """
    tax = taxonomy or for_labels(aset.labels())
    name = level_namer(tax, level)
    # A span whose label keeps its name is reused (level 2 of a flat taxonomy: no copy).
    spans = {doc: tuple(s if name(s.label) == s.label else Span(s.start, s.end, name(s.label))
                        for s in v)
             for doc, v in aset.spans.items()}
    return AnnotationSet(aset.name, spans, aset.role, aset.alternatives)


# ---- overlaps ------------------------------------------------------------------------------


def _overlapping(spans: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Index pairs (i, j) of intervals that share at least one character, each pair once.

    Sorted by start, an interval overlaps exactly the later ones that start before it ends.
    """
    order = sorted(range(len(spans)), key=lambda k: spans[k])
    for a, i in enumerate(order):
        end = spans[i][1]
        for j in order[a + 1:]:
            if spans[j][0] >= end:
                break
            yield (i, j) if i < j else (j, i)


def _shared_by_label(spans: Iterable[Span]) -> Counter[Cell]:
    """For every pair of distinct labels, the characters covered by a span of each.

    One sweep over the span boundaries: between two boundaries the same labels are active.

    >>> dict(_shared_by_label([Span(0, 5, "A"), Span(3, 8, "A"), Span(6, 12, "B"),
    ...                        Span(1, 2, "B")]))
    {('A', 'B'): 3, ('B', 'A'): 3}
    """
    events = sorted((p, delta, s.label) for s in spans
                    for p, delta in ((s.start, 1), (s.end, -1)))
    active: Counter[str] = Counter()
    shared: Counter[Cell] = Counter()
    previous = None
    for position, delta, label in events:
        if previous is not None and position > previous:
            on = [lab for lab, n in active.items() if n > 0]
            if len(on) > 1:
                for pair in itertools.permutations(on, 2):
                    shared[pair] += position - previous
        active[label] += delta
        previous = position
    return shared


def _freeze(counts: Counter[Cell], evidence: Mapping[Cell, list[Evidence]]
            ) -> tuple[dict[Cell, int], dict[Cell, tuple[Evidence, ...]]]:
    """Plain dicts in sorted cell order. Evidence keeps its order: documents and spans are
    visited sorted, so it does not depend on the input's order."""
    ev = {k: tuple(evidence[k]) for k in sorted(evidence)}
    return {k: counts[k] for k in sorted(counts) if counts[k]}, ev


# ---- co-occurrence -------------------------------------------------------------------------


def cooccurrence(aset: AnnotationSet, *, scope: str = "span", level: int = 2,
                 taxonomy: Taxonomy | None = None) -> LabelMatrix:
    """Label co-occurrence within one annotation set (module docstring, MAFALDA Figure 2).

    Returns a :class:`LabelMatrix` whose rows and columns are the set's labels at ``level``
    (sorted, ``nothing`` last) and whose ``row_totals`` are the occurrences of each label in the
    scope.

    >>> s = AnnotationSet("g", {"d": (Span(0, 9, "A"), Span(0, 9, "B"), Span(5, 20, "C")),
    ...                         "e": (Span(0, 3, "A"),)}, alternatives=True)
    >>> m = cooccurrence(s)
    >>> m.count("A", "B"), m.row_totals["A"], row_frequencies(m.counts, m.row_totals)[("A", "B")]
    (1, 2, 0.5)
    >>> cooccurrence(s, scope="overlap").count("A", "C"), cooccurrence(s, scope="text").count(
    ...     "C", "A")
    (1, 1)
    """
    check_choice("scope", "cooccurrence", scope, SCOPES)
    tax = taxonomy or for_labels(aset.labels())
    proj = project(aset, level=level, taxonomy=tax)
    counts: Counter[Cell] = Counter()
    totals: Counter[str] = Counter()
    evidence: dict[Cell, list[Evidence]] = defaultdict(list)
    labels: set[str] = set()
    for doc in sorted(proj.doc_ids):
        spans = sorted(set(proj.get(doc)))  # an (interval, label) occurs once
        labels.update(s.label for s in spans)
        if scope == "text":
            by_label: dict[str, list[Span]] = defaultdict(list)
            for s in spans:
                by_label[s.label].append(s)
            for lab in by_label:
                totals[lab] += 1
            if len(by_label) < 2:
                continue
            shared = _shared_by_label(spans)
            held = {lab: tuple(v) for lab, v in by_label.items()}  # one tuple per label
            pairs = list(itertools.permutations(held, 2))
            counts.update(pairs)
            for a, b in pairs:
                evidence[(a, b)].append(Evidence(doc, held[a], held[b], shared.get((a, b), 0)))
        elif scope == "span":
            for alt in group_alternatives(spans):
                for lab in alt.labels:
                    totals[lab] += 1
                for a, b in itertools.permutations(alt.labels, 2):
                    counts[(a, b)] += 1
                    evidence[(a, b)].append(Evidence(doc, (Span(alt.start, alt.end, a),),
                                                     (Span(alt.start, alt.end, b),), alt.length))
        else:
            partners: list[set[str]] = [set() for _ in spans]
            for s in spans:
                totals[s.label] += 1
            for i, j in _overlapping([s.interval for s in spans]):
                first, second = spans[i], spans[j]
                ov = first.overlap(second)
                partners[i].add(second.label)
                partners[j].add(first.label)
                evidence[(first.label, second.label)].append(
                    Evidence(doc, (first,), (second,), ov))
                evidence[(second.label, first.label)].append(
                    Evidence(doc, (second,), (first,), ov))
            for s, found in zip(spans, partners, strict=True):
                for lab in found:
                    counts[(s.label, lab)] += 1
    order = tuple(sorted(labels, key=_label_key))
    frozen_counts, frozen_ev = _freeze(counts, evidence)
    return LabelMatrix("cooccurrence", scope, level, tax.name, order, order, frozen_counts,
                       {lab: totals[lab] for lab in order}, frozen_ev)


# ---- confusion -----------------------------------------------------------------------------


def _joined(labels: Iterable[str]) -> str:
    return JOIN.join(sorted(set(labels), key=_label_key))


def _gold_rows(labels: tuple[str, ...], pred_label: str | None, mode: str) -> tuple[str, ...]:
    """The row(s) a gold span with ``labels`` counts in, paired with ``pred_label`` (None:
    unmatched)."""
    if len(labels) == 1:
        return labels
    if mode == "each":
        return labels
    if mode == "match" and pred_label in labels:
        return (pred_label,)
    return (_joined(labels),)


def confusion(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2,
              alternatives: str = "match", taxonomy: Taxonomy | None = None) -> LabelMatrix:
    """Gold label against predicted label over overlapping spans, with ``missed``,
    ``optional (⊥)`` and ``spurious`` (module docstring).

    Rows: labels of both sets (sorted, so the diagonal is agreement), then joined alternatives,
    then ``spurious``; columns: labels, then ``missed`` (and ``optional (⊥)`` when the gold has
    alternatives). ``row_totals`` are row sums. The documents are the gold's; a prediction on a
    document the gold lacks is an :class:`~core.model.errors.InputError`.

    >>> g = AnnotationSet("g", {"d": (Span(0, 10, "A"), Span(20, 30, "B"))})
    >>> p = AnnotationSet("p", {"d": (Span(2, 8, "A"), Span(5, 12, "B"), Span(40, 45, "A"))},
    ...                   role="system")
    >>> m = confusion(g, p)
    >>> m.count("A", "A"), m.count("A", "B"), m.count("B", "missed"), m.count("spurious", "A")
    (1, 1, 1, 1)
    >>> m.evidence[("A", "B")][0].overlap
    5
    """
    check_choice("alternatives", "confusion", alternatives, ALTERNATIVES)
    check_choice("level", "confusion", level, LEVELS)
    check_same_documents(gold.doc_ids, pred.doc_ids, gold.name, pred.name,
                         "pred-subset-of-gold")
    tax = taxonomy or for_labels([*gold.labels(), *pred.labels()])
    pg = project(gold, level=level, taxonomy=tax)
    pp = project(pred, level=level, taxonomy=tax)
    clash = sorted(set(BUCKETS) & {*pg.labels(), *pp.labels()})
    if clash:
        raise InputError(f"the label {clash[0]!r} is also the name of a confusion-matrix row "
                         f"or column ({', '.join(BUCKETS)}); rename it to see the matrix")
    counts: Counter[Cell] = Counter()
    evidence: dict[Cell, list[Evidence]] = defaultdict(list)
    labels: set[str] = set()
    joined: set[str] = set()

    def add(row: str, column: str, ev: Evidence) -> None:
        counts[(row, column)] += 1
        evidence[(row, column)].append(ev)
        if JOIN in row:
            joined.add(row)

    for doc in sorted(gold.doc_ids):
        if pg.alternatives:
            units = [tuple(Span(a.start, a.end, lab) for lab in sorted(a.labels, key=_label_key))
                     for a in group_alternatives(sorted(pg.get(doc)))]
        else:
            units = [(s,) for s in sorted(pg.get(doc))]
        preds = sorted(pp.get(doc))
        labels.update(s.label for u in units for s in u)
        labels.update(s.label for s in preds)
        intervals = [u[0].interval for u in units] + [s.interval for s in preds]
        hit = [False] * len(intervals)
        n = len(units)
        for i, j in _overlapping(intervals):
            if i >= n or j < n:
                continue  # both gold or both predicted
            unit, s = units[i], preds[j - n]
            hit[i] = hit[j] = True
            ev = Evidence(doc, unit, (s,), s.overlap(unit[0]))
            for row in _gold_rows(tuple(t.label for t in unit), s.label, alternatives):
                add(row, s.label, ev)
        for i, unit in enumerate(units):
            if not hit[i]:
                unit_labels = tuple(t.label for t in unit)
                column = OPTIONAL if NOTHING in unit_labels and pg.alternatives else MISSED
                for row in _gold_rows(unit_labels, None, alternatives):
                    add(row, column, Evidence(doc, unit, (), 0))
        for j, s in enumerate(preds):
            if not hit[n + j]:
                add(SPURIOUS, s.label, Evidence(doc, (), (s,), 0))
    order = sorted(labels, key=_label_key)
    rows = (*order, *sorted(joined, key=_label_key), SPURIOUS)
    columns = (*order, MISSED, *((OPTIONAL,) if pg.alternatives else ()))
    frozen_counts, frozen_ev = _freeze(counts, evidence)
    totals = {r: sum(n for (row, _), n in frozen_counts.items() if row == r) for r in rows}
    return LabelMatrix("confusion", alternatives, level, tax.name, rows, columns, frozen_counts,
                       totals, frozen_ev)
