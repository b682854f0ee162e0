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

Computation: the counts come from the sets' :class:`~core.model.SpanTable` columns, with no
:class:`Span` built: the spans sorted by (document, start, end, label), one ``searchsorted`` for
every span's overlapping successors (the pairs), ``bincount`` for the cells (0.1 to 0.5 s CPU
for 1M spans per set, against 2 to 15 s for the per-document loop they replace;
docs/performance.md). The sweep, not :func:`core.metrics.overlap.overlapping_pairs`: that join
pairs every prediction with every gold span of a document before keeping the overlapping ones
(ten times the pairs on crowded texts) and lists them by prediction, while the sweep enumerates
overlapping pairs only, in the order the evidence lists them, and serves the within-set scopes
too. The evidence of a cell (:class:`CellEvidence`) is built from the same
arrays and pairs when that cell is asked for, in the order the per-document loop listed it
(documents sorted, then spans by interval); a property test checks counts and evidence against
counting one pair of spans at a time.

Citations: C. Helwe, T. Calamai, P.-H. Paris, C. Clavel, F. Suchanek. MAFALDA: A Benchmark and
Comprehensive Study of Fallacy Detection and Classification. NAACL 2024 (§4 and Figure 2;
§5.2 Definition 6). G. Da San Martino et al. Fine-Grained Analysis of Propaganda in News
Articles. EMNLP 2019 (§3, overlapping spans). N. Chinchor, B. Sundheim. MUC-5 Evaluation
Metrics. MUC-5, 1993.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from core.model import NOTHING, AnnotationSet, Span, SpanTable, make_spans
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

    def pairs(self, row: str, column: str) -> int:
        """How many pieces of evidence cell (row, column) lists (without building them)."""
        if isinstance(self.evidence, CellEvidence):
            return self.evidence.size((row, column))
        return len(self.evidence.get((row, column), ()))

    def evidence_part(self, row: str, column: str, rows: slice) -> tuple[Evidence, ...]:
        """``evidence[(row, column)][rows]``, building only those pieces (one page of a table)."""
        if isinstance(self.evidence, CellEvidence):
            return self.evidence.part((row, column), rows)
        return self.evidence.get((row, column), ())[rows]

    def cells(self) -> list[dict[str, Any]]:
        """Every cell of the grid, row by row: row, column, count, row total, frequency, pairs
        (the number of evidence items; frequency is None where the row total is 0)."""
        freq = row_frequencies(self.counts, self.row_totals)
        return [{"row": r, "column": c, "count": self.count(r, c),
                 "row_total": self.row_totals.get(r, 0),
                 "frequency": freq.get((r, c), 0.0 if self.row_totals.get(r, 0) else None),
                 "pairs": self.pairs(r, c)}
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


# ---- the spans as sorted columns -----------------------------------------------------------


@dataclass(frozen=True)
class _Columns:
    """Spans as parallel arrays in the order the matrices visit them: by document (its rank
    among the sorted ids), then ``sorted(spans)`` order (start, end, label name). ``label`` is
    the rank of the label's name at the level among every name, so sorting by it sorts by name.
    """

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray

    def __len__(self) -> int:
        return int(self.doc.shape[0])

    def take(self, rows: np.ndarray) -> _Columns:
        return _Columns(self.doc[rows], self.start[rows], self.end[rows], self.label[rows])

    def spans(self, rows: np.ndarray, names: Sequence[str]) -> tuple[Span, ...]:
        """The ``rows`` as :class:`Span` objects (only those a cell's evidence shows)."""
        return make_spans(self.start[rows].tolist(), self.end[rows].tolist(),
                          [names[k] for k in self.label[rows].tolist()])


_EMPTY = np.zeros(0, dtype=np.int64)


def _names(tables: Iterable[SpanTable], name: Callable[[str], str]) -> list[str]:
    """Every label name at the level, sorted as ``Span`` sorts labels."""
    return sorted({name(x) for t in tables for x in t.labels})


def _columns(table: SpanTable, doc_rank: Mapping[str, int], index: Mapping[str, int],
             name: Callable[[str], str]) -> _Columns:
    """The rows of ``table`` on the documents of ``doc_rank``, labels renamed at the level, as
    sorted :class:`_Columns` (no :class:`Span` is built)."""
    if not len(table):
        return _Columns(_EMPTY, _EMPTY, _EMPTY, _EMPTY)
    ranks = np.fromiter(map(doc_rank.get, table.doc_ids, itertools.repeat(-1)),
                        dtype=np.int64, count=len(table.doc_ids))
    renamed = np.fromiter((index[name(x)] for x in table.labels), dtype=np.int64,
                          count=len(table.labels))
    doc, label = ranks[table.doc], renamed[table.label]
    start, end = table.start.astype(np.int64), table.end.astype(np.int64)
    if np.any(doc < 0):
        keep = doc >= 0
        doc, start, end, label = doc[keep], start[keep], end[keep], label[keep]
    order = _sort_order(doc, start, end, label)
    return _Columns(doc[order], start[order], end[order], label[order])


def _sort_order(*keys: np.ndarray) -> np.ndarray:
    """The stable permutation that sorts rows by ``keys`` (integer columns, the first the most
    significant). Packed into one integer when they fit in 63 bits: one sort instead of a
    lexsort, several times faster (as :func:`core.model.table._span_order` does)."""
    if not len(keys[0]):
        return _EMPTY
    low = [int(k.min()) for k in keys]
    widths = [(int(k.max()) - lo).bit_length() for k, lo in zip(keys, low, strict=True)]
    if sum(widths) > 63:
        return np.lexsort(keys[::-1])
    packed = np.zeros(len(keys[0]), dtype=np.int64)
    for k, lo, w in zip(keys, low, widths, strict=True):
        packed = (packed << w) | (k - lo)
    return np.argsort(packed, kind="stable")


def _run_starts(*keys: np.ndarray) -> np.ndarray:
    """True where a row starts a run of rows equal on every key (rows sorted on the keys)."""
    n = len(keys[0])
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = np.logical_or.reduce([k[1:] != k[:-1] for k in keys])
    return new


def _distinct(c: _Columns) -> _Columns:
    """One row per (document, interval, label): an (interval, label) occurs once."""
    new = _run_starts(c.doc, c.start, c.end, c.label)
    return c if new.all() else c.take(np.flatnonzero(new))


def _distinct_keys(keys: np.ndarray, size: int) -> np.ndarray:
    """The distinct values of ``keys`` (non-negative, below ``size``), sorted.

    A presence array when it is small, else a sort (``np.unique`` hashes, and took seconds on
    the 10 million keys of 100,000 crowded documents).
    """
    if size <= max(64 * len(keys), 1 << 20):
        seen = np.zeros(size, dtype=bool)
        seen[keys] = True
        return np.flatnonzero(seen)
    ordered = np.sort(keys)
    return ordered[_run_starts(ordered)]


def _overlapping(doc: np.ndarray, start: np.ndarray, end: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Row pairs (i, j), i < j, of one document that share at least one character, ordered by
    i then j; rows sorted by document then start.

    Sorted by start, row i overlaps exactly the later rows of its document that start before it
    ends: rows i + 1 to ``hi[i] - 1``, found for all rows with one ``searchsorted`` on a
    (document, start) key; the pairs are then enumerated with one ``repeat``.

    >>> i, j = _overlapping(np.array([0, 0, 0, 1]), np.array([0, 2, 9, 0]),
    ...                     np.array([5, 4, 12, 3]))
    >>> i.tolist(), j.tolist()
    ([0], [1])
    """
    n = len(doc)
    if n == 0:
        return _EMPTY, _EMPTY
    low = int(start.min())
    width = int(end.max()) - low + 1
    s, e = start - low, end - low
    if (int(doc.max()) + 1) * width < 2**62:
        key = doc * width + s
        hi = np.searchsorted(key, doc * width + e, side="left")
    else:  # offsets too large to pack with the document: one search per document
        hi = np.empty(n, dtype=np.int64)
        bounds = [*np.flatnonzero(_run_starts(doc)).tolist(), n]
        for a, b in itertools.pairwise(bounds):
            hi[a:b] = a + np.searchsorted(s[a:b], e[a:b], side="left")
    counts = hi - np.arange(n) - 1
    total = int(counts.sum())
    first = np.repeat(np.arange(n), counts)
    step = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    return first, first + 1 + step


def _same_group(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ordered row pairs (x, y), x ≠ y, of the same group (rows sorted by group), ordered by x
    then y."""
    n = len(group)
    if n == 0:
        return _EMPTY, _EMPTY
    bounds = np.flatnonzero(_run_starts(group))
    sizes = np.diff(np.append(bounds, n))
    first = np.repeat(bounds, sizes)  # first row of each row's group
    size = np.repeat(sizes, sizes)
    x = np.repeat(np.arange(n), size)
    y = np.repeat(first, size) + np.arange(len(x)) - np.repeat(np.cumsum(size) - size, size)
    keep = x != y
    return x[keep], y[keep]


def _cell_counts(rows: np.ndarray, columns: np.ndarray, n: int) -> np.ndarray:
    """An n × n matrix of how often each (row, column) index pair occurs."""
    return np.bincount(rows * n + columns, minlength=n * n).reshape(n, n)


def _shared(a: Sequence[Span], b: Sequence[Span]) -> int:
    """Characters covered by a span of ``a`` and by a span of ``b`` (the text scope's overlap).

    One sweep over the span boundaries: between two boundaries the same spans are active.

    >>> _shared([Span(0, 5, "A"), Span(3, 8, "A")], [Span(6, 12, "B"), Span(1, 2, "B")])
    3
    """
    events = sorted((p, delta, side) for side, spans in enumerate((a, b)) for s in spans
                    for p, delta in ((s.start, 1), (s.end, -1)))
    active = [0, 0]
    shared = 0
    previous = None
    for position, delta, side in events:
        if previous is not None and position > previous and active[0] and active[1]:
            shared += position - previous
        active[side] += delta
        previous = position
    return shared


class CellEvidence(Mapping[Cell, tuple[Evidence, ...]]):
    """``{cell: (Evidence, ...)}`` of a :class:`LabelMatrix`, built one cell at a time when the
    cell is asked for (the counts are computed on arrays; issue 29 target 3).

    Keys, length and :meth:`size` (how many pieces of evidence a cell lists) are known at once;
    a cell's tuple is built from the arrays kept by the matrix's computation on first access
    and remembered. :meth:`part` builds a slice of a cell (one page of a table).
    """

    def __init__(self, sizes: Mapping[Cell, int], build: Callable[[Cell, slice], list[Evidence]]
                 ) -> None:
        self._sizes = {k: sizes[k] for k in sorted(sizes) if sizes[k]}
        self._build = build
        self._built: dict[Cell, tuple[Evidence, ...]] = {}

    def size(self, cell: Cell) -> int:
        return self._sizes.get(cell, 0)

    def part(self, cell: Cell, rows: slice) -> tuple[Evidence, ...]:
        """``self[cell][rows]``, building only those pieces."""
        if cell in self._built or cell not in self._sizes:
            return self.get(cell, ())[rows]
        return tuple(self._build(cell, rows))

    def __getitem__(self, cell: Cell) -> tuple[Evidence, ...]:
        built = self._built.get(cell)
        if built is None:
            if cell not in self._sizes:
                raise KeyError(cell)
            built = self._built[cell] = tuple(self._build(cell, slice(None)))
        return built

    def __contains__(self, cell: object) -> bool:
        return cell in self._sizes

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._sizes)

    def __len__(self) -> int:
        return len(self._sizes)

    def __repr__(self) -> str:
        return f"CellEvidence({self._sizes!r})"


def _counts_dict(matrix: np.ndarray, names: Sequence[str]) -> dict[Cell, int]:
    rows, columns = np.nonzero(matrix)
    return {(names[r], names[c]): int(matrix[r, c])
            for r, c in zip(rows.tolist(), columns.tolist(), strict=True)}


# ---- co-occurrence -------------------------------------------------------------------------


def cooccurrence(aset: AnnotationSet, *, scope: str = "span", level: int = 2,
                 taxonomy: Taxonomy | None = None) -> LabelMatrix:
    """Label co-occurrence within one annotation set (module docstring, MAFALDA Figure 2).

    Returns a :class:`LabelMatrix` whose rows and columns are the set's labels at ``level``
    (sorted, ``nothing`` last) and whose ``row_totals`` are the occurrences of each label in the
    scope. Counted on the set's :class:`~core.model.SpanTable` columns; the evidence of a cell
    is built when it is asked for (:class:`CellEvidence`).

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
    name = level_namer(tax, level)
    names = _names([aset.table], name)
    docs = sorted(aset.doc_ids)
    c = _distinct(_columns(aset.table, {d: i for i, d in enumerate(docs)},
                           {x: i for i, x in enumerate(names)}, name))
    n = len(names)
    totals = np.bincount(c.label, minlength=n)
    build: Callable[[Cell, slice], list[Evidence]]
    if scope == "text":
        # One row per (document, label), sorted by document then label.
        pair = _distinct_keys(c.doc * n + c.label, len(docs) * n)
        zero = np.zeros(len(pair), dtype=np.int64)
        held = _Columns(pair // n, zero, zero, pair % n)
        totals = np.bincount(held.label, minlength=n)
        x, y = _same_group(held.doc)
        counts = _cell_counts(held.label[x], held.label[y], n)
        sizes = counts
        build = _text_evidence(c, held, names, docs)
    elif scope == "span":
        group = np.cumsum(_run_starts(c.doc, c.start, c.end))
        x, y = _same_group(group)
        counts = sizes = _cell_counts(c.label[x], c.label[y], n)
        build = _span_evidence(c, x, y, names, docs)
    else:
        i, j = _overlapping(c.doc, c.start, c.end)
        # A span counts once per partner label, however many spans of that label it overlaps.
        src, dst = np.concatenate((i, j)), np.concatenate((j, i))
        partner = _distinct_keys(src * n + c.label[dst], len(c) * n)
        counts = _cell_counts(c.label[partner // n], partner % n, n)
        sizes = _cell_counts(c.label[src], c.label[dst], n)
        build = _overlap_evidence(c, i, j, names, docs)
    present = np.flatnonzero(totals)
    order = tuple(sorted((names[k] for k in present.tolist()), key=_label_key))
    return LabelMatrix("cooccurrence", scope, level, tax.name, order, order,
                       dict(sorted(_counts_dict(counts, names).items())),
                       {lab: int(totals[names.index(lab)]) for lab in order},
                       CellEvidence(_counts_dict(sizes, names), build))


def _label_pairs(names: Sequence[str], cell: Cell) -> tuple[int, int]:
    index = {x: i for i, x in enumerate(names)}
    return index[cell[0]], index[cell[1]]


def _span_evidence(c: _Columns, x: np.ndarray, y: np.ndarray, names: Sequence[str],
                   docs: Sequence[str]) -> Callable[[Cell, slice], list[Evidence]]:
    """The ``span`` scope's evidence of a cell: one piece per interval carrying both labels."""

    def build(cell: Cell, rows: slice) -> list[Evidence]:
        a, b = _label_pairs(names, cell)
        pick = x[(c.label[x] == a) & (c.label[y] == b)][rows]
        row, column = cell
        return [Evidence(docs[d], (Span(s, e, row),), (Span(s, e, column),), e - s)
                for d, s, e in zip(c.doc[pick].tolist(), c.start[pick].tolist(),
                                   c.end[pick].tolist(), strict=True)]

    return build


def _overlap_evidence(c: _Columns, i: np.ndarray, j: np.ndarray, names: Sequence[str],
                      docs: Sequence[str]) -> Callable[[Cell, slice], list[Evidence]]:
    """The ``overlap`` scope's evidence of a cell: every overlapping pair of a span of the row
    label with one of the column label, in the order the pairs are found (an earlier span and a
    later one; the pair read both ways when both labels are the same)."""

    def build(cell: Cell, rows: slice) -> list[Evidence]:
        a, b = _label_pairs(names, cell)
        li, lj = c.label[i], c.label[j]
        # Each pair is read as (i, j) then (j, i): keys 2p and 2p + 1 keep that order.
        forward = np.flatnonzero((li == a) & (lj == b)) * 2
        backward = np.flatnonzero((lj == a) & (li == b)) * 2 + 1
        keys = np.sort(np.concatenate((forward, backward)))[rows]
        pair = keys // 2
        first = np.where(keys % 2 == 0, i[pair], j[pair])
        second = np.where(keys % 2 == 0, j[pair], i[pair])
        inter = (np.minimum(c.end[first], c.end[second])
                 - np.maximum(c.start[first], c.start[second])).tolist()
        left, right = c.spans(first, names), c.spans(second, names)
        return [Evidence(docs[d], (s,), (t,), ov)
                for d, s, t, ov in zip(c.doc[first].tolist(), left, right, inter, strict=True)]

    return build


def _text_evidence(c: _Columns, held: _Columns, names: Sequence[str], docs: Sequence[str]
                   ) -> Callable[[Cell, slice], list[Evidence]]:
    """The ``text`` scope's evidence of a cell: per document holding both labels, every span of
    each and the characters they share."""

    def build(cell: Cell, rows: slice) -> list[Evidence]:
        a, b = _label_pairs(names, cell)
        # ``held`` has one row per (document, label), sorted: the documents of each label are
        # sorted and distinct, and so is their intersection.
        both = np.intersect1d(held.doc[held.label == a], held.doc[held.label == b],
                              assume_unique=True)[rows]
        out = []
        for d in both.tolist():
            lo, hi = np.searchsorted(c.doc, [d, d + 1])
            span_rows = np.arange(lo, hi)
            mine = c.spans(span_rows[c.label[lo:hi] == a], names)
            theirs = c.spans(span_rows[c.label[lo:hi] == b], names)
            out.append(Evidence(docs[d], mine, theirs, _shared(mine, theirs)))
        return out

    return build


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


def _units(g: _Columns, n: int, alternatives: bool
           ) -> tuple[_Columns, np.ndarray, list[tuple[int, ...]] | None]:
    """The gold spans as the confusion counts them: with ``alternatives`` one unit per interval
    (its labels deduplicated) and the index of its label set, else one unit per span (its label
    is its set). Returns the units (first row of each), the label set of every unit and, with
    alternatives, the label indices of each set."""
    if not alternatives:
        return g, g.label, None
    g = _distinct(g)
    first = _run_starts(g.doc, g.start, g.end)
    starts = np.flatnonzero(first)
    # A unit's label set as a bit mask, 63 labels per word; equal masks are equal sets.
    words = max(1, -(-n // 63))
    masks = np.zeros((len(starts), words), dtype=np.int64)
    if len(starts):
        for w in range(words):
            bits = np.where(g.label // 63 == w, np.left_shift(1, g.label % 63), 0)
            masks[:, w] = np.bitwise_or.reduceat(bits, starts)
    if words == 1:  # one integer per set: a sort finds the distinct ones (np.unique hashes)
        order = np.argsort(masks[:, 0], kind="stable")
        ordered = masks[order, 0]
        new = _run_starts(ordered)
        sets = ordered[new].reshape(-1, 1)
        combo = np.empty(len(order), dtype=np.int64)
        combo[order] = np.cumsum(new) - 1
    else:
        sets, combo = np.unique(masks, axis=0, return_inverse=True)
    members = [tuple(w * 63 + b for w in range(words) for b in range(63)
                     if int(row[w]) >> b & 1) for row in sets.tolist()]
    return g.take(starts), combo.reshape(-1), members


def confusion(gold: AnnotationSet, pred: AnnotationSet, *, level: int = 2,
              alternatives: str = "match", taxonomy: Taxonomy | None = None) -> LabelMatrix:
    """Gold label against predicted label over overlapping spans, with ``missed``,
    ``optional (⊥)`` and ``spurious`` (module docstring).

    Rows: labels of both sets (sorted, so the diagonal is agreement), then joined alternatives,
    then ``spurious``; columns: labels, then ``missed`` (and ``optional (⊥)`` when the gold has
    alternatives). ``row_totals`` are row sums. The documents are the gold's; a prediction on a
    document the gold lacks is an :class:`~core.model.errors.InputError`. Counted on the sets'
    :class:`~core.model.SpanTable` columns (one sweep finds every overlapping pair); the
    evidence of a cell is built when it is asked for (:class:`CellEvidence`).

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
    name = level_namer(tax, level)
    docs = sorted(gold.doc_ids)
    rank = {d: i for i, d in enumerate(docs)}
    names = _names([gold.table, pred.table], name)
    index = {x: i for i, x in enumerate(names)}
    n = len(names)
    g = _columns(gold.table, rank, index, name)
    p = _columns(pred.table, rank, index, name)
    present = np.flatnonzero(np.bincount(g.label, minlength=n)
                             + np.bincount(p.label, minlength=n)).tolist()
    clash = sorted(set(BUCKETS) & {names[k] for k in present})
    if clash:
        raise InputError(f"the label {clash[0]!r} is also the name of a confusion-matrix row "
                         f"or column ({', '.join(BUCKETS)}); rename it to see the matrix")
    units, combo, members = _units(g, n, gold.alternatives)
    unit_labels = ([tuple(sorted((names[k] for k in m), key=_label_key)) for m in members]
                   if members is not None else [(x,) for x in names])
    # Gold units and predictions in one list, sorted by interval, units first on a tie: the
    # order in which the pairs are listed.
    n_units = len(units)
    side = np.concatenate((np.zeros(n_units, dtype=np.int64), np.ones(len(p), dtype=np.int64)))
    doc = np.concatenate((units.doc, p.doc))
    start = np.concatenate((units.start, p.start))
    end = np.concatenate((units.end, p.end))
    order = _sort_order(doc, start, end, side)  # stable: each side keeps its order on a tie
    i, j = _overlapping(doc[order], start[order], end[order])
    a, b = order[i], order[j]
    mixed = (a < n_units) != (b < n_units)
    a, b = a[mixed], b[mixed]
    unit = np.minimum(a, b)
    guess = np.maximum(a, b) - n_units
    hit_unit = np.zeros(n_units, dtype=bool)
    hit_unit[unit] = True
    hit_pred = np.zeros(len(p), dtype=bool)
    hit_pred[guess] = True

    counts: Counter[Cell] = Counter()
    n_sets = len(unit_labels)
    paired = np.bincount(combo[unit] * n + p.label[guess], minlength=n_sets * n)
    for key in np.flatnonzero(paired).tolist():
        k, label = divmod(key, n)
        for row in _gold_rows(unit_labels[k], names[label], alternatives):
            counts[(row, names[label])] += int(paired[key])

    def missed_column(k: int) -> str:
        return OPTIONAL if NOTHING in unit_labels[k] and gold.alternatives else MISSED

    alone = np.bincount(combo[~hit_unit], minlength=n_sets)
    for k in np.flatnonzero(alone).tolist():
        for row in _gold_rows(unit_labels[k], None, alternatives):
            counts[(row, missed_column(k))] += int(alone[k])
    spurious = np.bincount(p.label[~hit_pred], minlength=n)
    for label in np.flatnonzero(spurious).tolist():
        counts[(SPURIOUS, names[label])] += int(spurious[label])

    order_labels = sorted((names[k] for k in present), key=_label_key)
    joined = {row for row, _ in counts if JOIN in row}
    rows = (*order_labels, *sorted(joined, key=_label_key), SPURIOUS)
    columns = (*order_labels, MISSED, *((OPTIONAL,) if gold.alternatives else ()))
    frozen = {k: counts[k] for k in sorted(counts) if counts[k]}
    totals = {r: sum(v for (row, _), v in frozen.items() if row == r) for r in rows}

    def unit_spans(u: int) -> tuple[Span, ...]:
        s, e = int(units.start[u]), int(units.end[u])
        return tuple(Span(s, e, x) for x in unit_labels[int(combo[u])])

    def build(cell: Cell, rows: slice) -> list[Evidence]:
        row, column = cell
        if row == SPURIOUS:
            pick = np.flatnonzero(~hit_pred & (p.label == index[column]))[rows]
            return [Evidence(docs[d], (), (s,), 0)
                    for d, s in zip(p.doc[pick].tolist(), p.spans(pick, names), strict=True)]
        if column in (MISSED, OPTIONAL):
            sets = [k for k in range(n_sets) if missed_column(k) == column
                    and row in _gold_rows(unit_labels[k], None, alternatives)]
            pick = np.flatnonzero(~hit_unit & np.isin(combo, sets))[rows]
            return [Evidence(docs[int(units.doc[u])], unit_spans(u), (), 0)
                    for u in pick.tolist()]
        sets = [k for k in range(n_sets) if row in _gold_rows(unit_labels[k], column,
                                                               alternatives)]
        pick = np.flatnonzero(np.isin(combo[unit], sets)
                              & (p.label[guess] == index[column]))[rows]
        us, ps = unit[pick], guess[pick]
        inter = (np.minimum(units.end[us], p.end[ps])
                 - np.maximum(units.start[us], p.start[ps])).tolist()
        return [Evidence(docs[int(units.doc[u])], unit_spans(u), (s,), ov)
                for u, s, ov in zip(us.tolist(), p.spans(ps, names), inter, strict=True)]

    return LabelMatrix("confusion", alternatives, level, tax.name, rows, columns, frozen,
                       totals, CellEvidence(frozen, build))
