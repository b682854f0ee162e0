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

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

NOTHING = "nothing"
"""MAFALDA's no-fallacy label ⊥: among a gold span's alternatives it makes the span optional."""

Role = Literal["gold", "system", "annotator"]
ROLES: tuple[Role, ...] = ("gold", "system", "annotator")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, order=True)
class Span:
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

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def interval(self) -> tuple[int, int]:
        return (self.start, self.end)

    def overlap(self, other: Span) -> int:
        """|self ∩ other| in characters (interval arithmetic; touching spans share nothing)."""
        return max(0, min(self.end, other.end) - max(self.start, other.start))

    def fragment(self, text: str) -> str:
        return text[self.start : self.end]


@dataclass(frozen=True, slots=True)
class AltSpan:
    """A gold span with a disjunction of alternative labels (MAFALDA, Definition 6).

    ``labels`` keeps first-seen order; :data:`NOTHING` among them marks the span optional.
    """

    start: int
    end: int
    labels: tuple[str, ...]

    @property
    def optional(self) -> bool:
        return NOTHING in self.labels

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def interval(self) -> tuple[int, int]:
        return (self.start, self.end)


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
    """

    name: str
    spans: Mapping[str, tuple[Span, ...]]
    role: Role = "gold"
    alternatives: bool = False

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
        return sorted({s.label for spans in self.spans.values() for s in spans})

    def span_count(self) -> int:
        return sum(len(v) for v in self.spans.values())

    def __iter__(self) -> Iterator[tuple[str, tuple[Span, ...]]]:
        return iter(self.spans.items())

    def with_role(self, role: Role, name: str | None = None) -> AnnotationSet:
        return AnnotationSet(name or self.name, self.spans, role, self.alternatives)


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
