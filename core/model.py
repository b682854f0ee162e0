"""Domain model: spans, annotation sets, documents and corpora.

Offsets are character offsets into the document text, ``start`` inclusive and ``end`` exclusive,
so ``text[span.start:span.end]`` is the fragment (the convention of every official scorer's input,
see ``docs/formats.md``).

Gold with alternatives (Helwe et al. 2024, MAFALDA, §5.2): an annotation set whose
``alternatives`` flag is set reads several spans with the *same interval* as one gold span whose
label is a disjunction of those labels; the label ``nothing`` (⊥, :data:`NOTHING`) among them makes
the span optional. Plain gold is the special case of one label per interval, and then two spans on
one interval are two gold spans (as in the SemEval-2021 scorer).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # pragma: no cover - pandas is imported only when a frame is asked for
    import pandas as pd

    from core.columnar import SpanTable

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


@dataclass(frozen=True)
class AnnotationSet:
    """A named mapping from document id to that document's spans.

    A gold standard, a system's predictions, or one annotator. Every document the set covers is a
    key, also when it has no span (``()``): "no annotation" differs from "not annotated".
    ``alternatives`` says that spans sharing an interval are alternatives (MAFALDA gold).

    ``spans`` may be a :class:`core.columnar.LazySpans`, a read-only mapping over a
    :class:`~core.columnar.SpanTable` that builds a document's spans when they are asked for
    (the fast readers give one); :attr:`table` is the set as columns either way.
    """

    name: str
    spans: Mapping[str, tuple[Span, ...]]
    role: Role = "gold"
    alternatives: bool = False

    @cached_property
    def table(self) -> SpanTable:
        """The spans as columns (:class:`core.columnar.SpanTable`): the backing table of a lazy
        mapping, or built once from ``spans`` in its order."""
        from core.columnar import SpanTable

        return SpanTable.from_spans(self.spans)

    @property
    def lazy(self) -> bool:
        """Whether ``spans`` is backed by a table (no :class:`Span` built until asked for)."""
        return hasattr(self.spans, "table")

    @property
    def doc_ids(self) -> list[str]:
        return list(self.spans)

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
        if self.lazy:
            return sorted(self.table.used_labels())
        return sorted({s.label for spans in self.spans.values() for s in spans})

    def span_count(self) -> int:
        if self.lazy:
            return len(self.table)
        return sum(len(v) for v in self.spans.values())

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
