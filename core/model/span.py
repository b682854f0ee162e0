"""Spans: a labelled character interval, the trusted constructor the readers use, and MAFALDA's
gold span with alternative labels.

Offsets are character offsets into the document text, ``start`` inclusive and ``end`` exclusive,
so ``text[span.start:span.end]`` is the fragment (the convention of every official scorer's input,
see ``docs/formats.md``).

Gold with alternatives (Helwe et al. 2024, MAFALDA, §5.2): several spans with the *same interval*
read as one gold span (:class:`AltSpan`) whose label is a disjunction of their labels; the label
``nothing`` (⊥, :data:`NOTHING`) among them makes the span optional.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - pandas is imported only when a frame is asked for
    pass

NOTHING = "nothing"
"""MAFALDA's no-fallacy label ⊥: among a gold span's alternatives it makes the span optional."""


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
        """|self ∩ other| in characters (interval arithmetic; touching spans share nothing).

        >>> Span(0, 10, "Doubt").overlap(Span(6, 20, "Slogans"))
        4
        >>> Span(0, 10, "Doubt").overlap(Span(10, 20, "Doubt"))
        0
        """
        return max(0, min(self.end, other.end) - max(self.start, other.start))

    def fragment(self, text: str) -> str:
        """The characters the span covers (``end`` is exclusive).

        >>> Span(11, 17, "Appeal to fear").fragment("Vote no or starve.")
        'starve'
        """
        return text[self.start : self.end]


_NEW = object.__new__
_SET_START = Span.__dict__["start"].__set__  # the slots' own setters, past the frozen check
_SET_END = Span.__dict__["end"].__set__
_SET_LABEL = Span.__dict__["label"].__set__


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
