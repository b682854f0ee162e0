"""Domain model: spans, annotation sets, documents and corpora.

Offsets are character offsets into the document text, ``start`` inclusive and ``end`` exclusive,
so ``text[span.start:span.end]`` is the fragment (the convention of every official scorer's input,
see ``docs/formats.md``).

Gold with alternatives (Helwe et al. 2024, MAFALDA, §5.2): an annotation set whose
``alternatives`` flag is set reads several spans with the *same interval* as one gold span whose
label is a disjunction of those labels; the label ``nothing`` (⊥, :data:`NOTHING`) among them makes
the span optional. Plain gold is the special case of one label per interval, and then two spans on
one interval are two gold spans (as in the SemEval-2021 scorer).

Storage: an annotation set keeps its spans in one :class:`SpanTable` (four NumPy columns, the
document ids and label names kept once); :attr:`AnnotationSet.spans` is a read-only
:class:`SpanView` of it that builds a document's :class:`Span` tuple when it is asked for (issue
15, target 1: ``Span`` objects exist only where a caller asks for them). Readers and metrics that
work on arrays read :attr:`AnnotationSet.table` directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - pandas is imported only when a frame is asked for
    import pandas as pd

FRAME_COLUMNS = ("document", "start", "end", "label")
"""Columns of :meth:`AnnotationSet.to_frame` and what :meth:`AnnotationSet.from_frame` reads."""

NOTHING = "nothing"
"""MAFALDA's no-fallacy label ⊥: among a gold span's alternatives it makes the span optional."""

Role = Literal["gold", "system", "annotator"]
ROLES: tuple[Role, ...] = ("gold", "system", "annotator")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Interval:
    """``length`` and ``interval`` of anything with ``start`` and ``end`` (end exclusive)."""

    __slots__ = ()
    start: int
    end: int

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def interval(self) -> tuple[int, int]:
        return (self.start, self.end)


@dataclass(frozen=True, slots=True, order=True)
class Span(Interval):
    """A labelled character interval ``[start, end)``.

    >>> Span(0, 5, "Doubt").length
    5
    >>> Span(5, 5, "Doubt")
    Traceback (most recent call last):
    ...
    ValueError: Span end must be greater than start: start=5, end=5
    """

    start: int
    end: int
    label: str

    def __post_init__(self) -> None:
        if not _is_int(self.start) or not _is_int(self.end):
            raise ValueError(
                f"Span offsets must be integers: start={self.start!r}, end={self.end!r}"
            )
        if self.start < 0:
            raise ValueError(f"Span start must be non-negative: start={self.start}")
        if self.end <= self.start:
            raise ValueError(
                f"Span end must be greater than start: start={self.start}, end={self.end}"
            )
        if not isinstance(self.label, str):
            raise ValueError(f"Span label must be a string: label={self.label!r}")

    def overlap(self, other: Span) -> int:
        """|self ∩ other| in characters (interval arithmetic; touching spans share nothing)."""
        return max(0, min(self.end, other.end) - max(self.start, other.start))

    def fragment(self, text: str) -> str:
        return text[self.start : self.end]


_NEW = object.__new__
_SET_START = Span.__dict__["start"].__set__  # the slots' own setters, past the frozen check
_SET_END = Span.__dict__["end"].__set__
_SET_LABEL = Span.__dict__["label"].__set__
_START = attrgetter("start")
_END = attrgetter("end")
_LABEL = attrgetter("label")


def make_spans(starts: Iterable[int], ends: Iterable[int], labels: Iterable[str]
               ) -> tuple[Span, ...]:
    """Spans from values already validated (non-negative ints, ``end > start``, str labels).

    The model's trusted constructor of :class:`Span`: it skips ``__post_init__``'s checks,
    which the table's builders and the readers' vectorised passes have made, and fills the
    slots itself (the frozen dataclass's ``__init__`` costs several times as much). The result
    compares, hashes and prints as ``Span(start, end, label)`` would.

    >>> make_spans([0, 5], [4, 9], ["A", "B"]) == (Span(0, 4, "A"), Span(5, 9, "B"))
    True
    """
    out = []
    for s, e, lab in zip(starts, ends, labels, strict=True):
        span = _NEW(Span)
        _SET_START(span, s)
        _SET_END(span, e)
        _SET_LABEL(span, lab)
        out.append(span)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class AltSpan(Interval):
    """A gold span with a disjunction of alternative labels (MAFALDA, Definition 6).

    ``labels`` keeps first-seen order; :data:`NOTHING` among them marks the span optional.
    """

    start: int
    end: int
    labels: tuple[str, ...]

    @property
    def optional(self) -> bool:
        return NOTHING in self.labels


def group_alternatives(spans: Iterable[Span]) -> tuple[AltSpan, ...]:
    """Group spans that share an interval into one :class:`AltSpan` (first-seen order kept)."""
    groups: dict[tuple[int, int], list[str]] = {}
    for span in spans:
        labels = groups.setdefault(span.interval, [])
        if span.label not in labels:
            labels.append(span.label)
    return tuple(AltSpan(s, e, tuple(labels)) for (s, e), labels in groups.items())


@dataclass(frozen=True)
class Document:
    """A document: its id and, when known, its text."""

    id: str
    text: str | None = None


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


class SpanView(Mapping[str, tuple[Span, ...]]):
    """``{document id: (Span, ...)}`` over a :class:`SpanTable`, read-only.

    A document's tuple is built on first access (:func:`make_spans`) and remembered; length,
    iteration order, ``in``, ``items()`` and equality are those of the dict it stands for. A
    document asked for right after the one before it is taken as reading in order: the next
    :data:`READ_AHEAD` documents are built with it, from one slice of each column.

    >>> t = SpanTable.from_columns(["a", "b"], [0], [0], [4], [0], ["X"])
    >>> m = SpanView(t)
    >>> list(m), m["a"], m["b"], "c" in m, m == {"a": (Span(0, 4, "X"),), "b": ()}
    (['a', 'b'], (Span(start=0, end=4, label='X'),), (), False, True)
    """

    __slots__ = ("_cache", "_index", "table")

    def __init__(self, table: SpanTable) -> None:
        self.table = table
        self._index: dict[str, int] | None = None
        self._cache: dict[str, tuple[Span, ...]] = {}

    def _positions(self) -> dict[str, int]:
        if self._index is None:
            self._index = {d: i for i, d in enumerate(self.table.doc_ids)}
        return self._index

    def __getitem__(self, doc_id: str) -> tuple[Span, ...]:
        cached = self._cache.get(doc_id)
        if cached is not None:
            return cached
        i = self._positions()[doc_id]
        ids = self.table.doc_ids
        if i and ids[i - 1] in self._cache:
            self._build(i, min(i + READ_AHEAD, len(ids)))
            return self._cache[doc_id]
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


class AnnotationSet:
    """A named mapping from document id to that document's spans.

    A gold standard, a system's predictions, or one annotator. Every document the set covers is a
    key, also when it has no span (``()``): "no annotation" differs from "not annotated".
    ``alternatives`` says that spans sharing an interval are alternatives (MAFALDA gold).

    The spans are stored once, as :attr:`table` (a :class:`SpanTable`); :attr:`spans` is a
    read-only :class:`SpanView` of it. ``spans`` may be given as ``{document id: (Span, ...)}``
    (the table is built from it, keeping its order), as a :class:`SpanTable`, or as another
    set's :attr:`spans`. Immutable, compared by value like the frozen dataclass it replaces.

    >>> s = AnnotationSet("g", {"d1": (Span(4, 9, "B"), Span(0, 4, "A")), "d2": ()})
    >>> s.doc_ids, s.get("d1")[0], s.get("d2"), s.get("d3"), s.span_count()
    (['d1', 'd2'], Span(start=4, end=9, label='B'), (), (), 2)
    >>> s == AnnotationSet("g", s.table), s == s.with_role("system")
    (True, False)
    """

    __slots__ = ("alternatives", "name", "role", "spans", "table")
    name: str
    spans: Mapping[str, tuple[Span, ...]]
    role: Role
    alternatives: bool
    table: SpanTable

    def __init__(self, name: str,
                 spans: Mapping[str, Sequence[Span]] | SpanTable,
                 role: Role = "gold", alternatives: bool = False) -> None:
        if isinstance(spans, SpanView):
            view = spans
        else:
            view = SpanView(spans if isinstance(spans, SpanTable) else SpanTable.from_spans(spans))
        init = object.__setattr__
        init(self, "name", name)
        init(self, "spans", view)
        init(self, "role", role)
        init(self, "alternatives", alternatives)
        init(self, "table", view.table)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, AnnotationSet)
        return ((self.name, self.role, self.alternatives)
                == (other.name, other.role, other.alternatives) and self.spans == other.spans)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"AnnotationSet(name={self.name!r}, spans={self.spans!r}, role={self.role!r}, "
                f"alternatives={self.alternatives!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (AnnotationSet, (self.name, self.table, self.role, self.alternatives))

    @property
    def doc_ids(self) -> list[str]:
        return list(self.table.doc_ids)

    def get(self, doc_id: str) -> tuple[Span, ...]:
        return self.spans.get(doc_id, ())

    def alt_spans(self, doc_id: str) -> tuple[AltSpan, ...]:
        """The document's gold spans as alternatives (one label each unless ``alternatives``)."""
        spans = self.get(doc_id)
        if self.alternatives:
            return group_alternatives(spans)
        return tuple(AltSpan(s.start, s.end, (s.label,)) for s in spans)

    def labels(self) -> list[str]:
        """Every label used, sorted."""
        return sorted(self.table.used_labels())

    def span_count(self) -> int:
        return len(self.table)

    def __iter__(self) -> Iterator[tuple[str, tuple[Span, ...]]]:
        return iter(self.spans.items())

    def as_alternatives(self) -> AnnotationSet:
        """This set read as MAFALDA gold (Helwe et al. 2024, Definition 6): spans that share an
        interval become one span with alternative labels. The set itself when it already is."""
        if self.alternatives:
            return self
        return AnnotationSet(self.name, self.spans, self.role, alternatives=True)

    def with_role(self, role: Role, name: str | None = None) -> AnnotationSet:
        return AnnotationSet(name or self.name, self.spans, role, self.alternatives)

    def to_frame(self) -> pd.DataFrame:
        """One row per span: ``document``, ``start``, ``end`` (exclusive), ``label``.

        A document without spans has no row; :meth:`from_frame` takes ``documents=`` to keep
        such documents.

        >>> s = AnnotationSet("g", {"d1": (Span(0, 4, "A"),), "d2": ()})
        >>> s.to_frame().to_dict("records")
        [{'document': 'd1', 'start': 0, 'end': 4, 'label': 'A'}]
        """
        import pandas as pd

        rows = [(doc, s.start, s.end, s.label) for doc, spans in self.spans.items()
                for s in spans]
        return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, name: str = "frame", role: Role = "gold",
                   alternatives: bool = False, documents: Sequence[str] | None = None
                   ) -> AnnotationSet:
        """An annotation set from a DataFrame with columns ``document``, ``start``, ``end`` and
        ``label`` (other columns are ignored; offsets are 0-based, ``end`` exclusive).

        ``documents`` lists documents to include even when they have no row (a document
        annotated with nothing); rows of other documents are kept too. A bad value raises a
        ``ValueError`` naming the row.

        >>> import pandas as pd
        >>> df = pd.DataFrame({"document": ["d1", "d1"], "start": [5, 0], "end": [9, 4],
        ...                    "label": ["B", "A"]})
        >>> AnnotationSet.from_frame(df, documents=["d1", "d2"]).spans
        {'d1': (Span(start=0, end=4, label='A'), Span(start=5, end=9, label='B')), 'd2': ()}
        """
        from core.errors import ParameterError

        missing = [c for c in FRAME_COLUMNS if c not in frame.columns]
        if missing:
            raise ParameterError("frame", f"The 'frame' parameter of from_frame must have the "
                                 f"columns {list(FRAME_COLUMNS)}; missing {missing}.")
        spans: dict[str, list[Span]] = {str(d): [] for d in documents or ()}
        for i, (doc, start, end, label) in enumerate(
                frame[list(FRAME_COLUMNS)].itertuples(index=False, name=None)):
            try:
                span = Span(int(start), int(end), str(label))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"row {i} of the frame (document {doc!r}): {exc}") from None
            spans.setdefault(str(doc), []).append(span)
        return cls(name, {d: tuple(sorted(v)) for d, v in spans.items()}, role, alternatives)



@dataclass
class Corpus:
    """The texts of a collection and any number of annotation sets over them."""

    texts: dict[str, str | None] = field(default_factory=dict)
    sets: dict[str, AnnotationSet] = field(default_factory=dict)

    @property
    def doc_ids(self) -> list[str]:
        """All document ids, texts first then any set's extra ids, in first-seen order."""
        ids = dict.fromkeys(self.texts)
        for aset in self.sets.values():
            ids.update(dict.fromkeys(aset.spans))
        return list(ids)

    def document(self, doc_id: str) -> Document:
        return Document(doc_id, self.texts.get(doc_id))

    def add_set(self, aset: AnnotationSet) -> None:
        if aset.name in self.sets:
            raise ValueError(f"an annotation set named {aset.name!r} exists already")
        self.sets[aset.name] = aset

    def by_role(self, role: Role) -> list[AnnotationSet]:
        return [s for s in self.sets.values() if s.role == role]
