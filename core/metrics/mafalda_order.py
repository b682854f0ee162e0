"""MAFALDA gold whose labels are not sorted by start: the official evaluator's file-order reading.

The official ``build_ground_truth_spans`` (Helwe et al. 2024, evaluation code; our summary in
``docs/mafalda.md``) groups a text's gold labels by interval in **file order** and then walks
those intervals in that order to add the "uncovered" ``{None}`` ranges between them
(``(current, start - 1)``, then ``current = max(current, end + 1)``). Spans are keyed by their
interval, so an uncovered range that happens to equal a gold interval replaces that gold span.
On sorted gold neither effect occurs; on unsorted gold

* a gold span can be lost: gold ``[[2, 4, ad hominem], [0, 1, straw man]]`` on ``abcd`` gives
  the uncovered range ``(0, 1)``, which overwrites the straw-man span (``metrics-py`` and
  ``repo-head``: span P/R/F1 0/0/0 at level 2 for the prediction ``[[0, 1, straw man]]``);
* the uncovered ranges differ: gold ``[[5, 6, …], [0, 8, …]]`` on a 10-character text gives
  ``(0, 4)`` and ``(9, 10)`` instead of ``(9, 10)`` (``repo-head`` recall 0.5 instead of 0.667).

The variants that claim the official code (``metrics-py``, ``repo-head``) reproduce the file-order
reading when the reader recorded the order (:class:`GoldOrder`, set by
:mod:`core.formats.mafalda`); ``paper`` keeps the sorted reading. Whenever the two readings
differ, :func:`warnings` names the document and what the official code does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from core.model.errors import KindedText

Interval = tuple[int, int]


class _Interval(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


SpanLike = TypeVar("SpanLike", bound=_Interval)


@dataclass(frozen=True)
class GoldOrder:
    """Per document, the gold's distinct intervals in file order (first sighting), and the
    zero-length spans kept for the official reading."""

    intervals: Mapping[str, tuple[Interval, ...]] = field(default_factory=dict)
    zero_length: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    """Zero-length spans ``[s, s)`` kept under ``--beyond-text official`` (the official evaluator
    scores them: a length-0 span's ratio is 0, and it counts in its denominator)."""


def uncovered_ranges(intervals: Sequence[Interval], text_length: int) -> tuple[Interval, ...]:
    """The official evaluator's "uncovered" gold ranges (``build_ground_truth_spans``), walked
    over ``intervals`` in the order given.

    Inclusive-looking ``(current, start - 1)`` ranges between intervals, the official off-by-one
    included; they matter only to the ``repo-head`` variant.

    >>> uncovered_ranges([(5, 10)], 20)
    ((0, 4), (11, 20))
    >>> uncovered_ranges([], 7)
    ((0, 7),)
    """
    if not intervals:
        return ((0, text_length),)
    out = []
    current = 0
    for start, end in intervals:
        if current < start:
            out.append((current, start - 1))
        current = max(current, end + 1)
    if current < text_length:
        out.append((current, text_length))
    return tuple(out)


def official_reading(order: Sequence[Interval], text_length: int
                     ) -> tuple[tuple[Interval, ...], set[Interval]]:
    """``(uncovered ranges, gold intervals overwritten by one of them)`` in file order."""
    uncovered = uncovered_ranges(order, text_length)
    lost = set(order) & set(uncovered)
    return uncovered, lost


def what_scores(order: GoldOrder) -> GoldOrder | None:
    """``order`` cut to what can change a score: the texts whose intervals the file lists out
    of sorted order (a sorted text's file-order reading is the sorted one, which the vectorised
    scorer computes for every text at once) and the zero-length spans; None when nothing is
    left, so a sorted gold without zero-length spans is scored as if no order were recorded.

    >>> what_scores(GoldOrder({"a": ((0, 4), (5, 9)), "b": ((5, 9), (0, 4))})).intervals
    {'b': ((5, 9), (0, 4))}
    >>> what_scores(GoldOrder({"a": ((0, 4), (5, 9))})) is None
    True
    """
    unsorted = {doc: iv for doc, iv in order.intervals.items() if list(iv) != sorted(iv)}
    if not unsorted and not order.zero_length:
        return None
    if len(unsorted) == len(order.intervals):
        return order
    return GoldOrder(unsorted, order.zero_length)


def differs(order: Sequence[Interval], text_length: int) -> bool:
    """Whether the file-order reading differs from the sorted one for this text."""
    if list(order) == sorted(order):
        return False
    file_unc, lost = official_reading(order, text_length)
    return bool(lost) or file_unc != uncovered_ranges(sorted(order), text_length)


def warnings(order: GoldOrder, texts: Mapping[str, str | None], variant: str,
             gold_name: str) -> list[str]:
    """One warning per document whose unsorted gold the official code reads differently."""
    out: list[str] = []
    for doc, intervals in order.intervals.items():
        text = texts.get(doc)
        length = len(text) if text is not None else max((e for _, e in intervals), default=0)
        if not differs(intervals, length):
            continue
        uncovered, lost = official_reading(intervals, length)
        what = []
        if lost:
            what.append("drops the gold span(s) " + ", ".join(f"[{a}, {b})" for a, b in
                                                               sorted(lost))
                        + " (overwritten by an uncovered range with the same interval)")
        sorted_unc = uncovered_ranges(sorted(intervals), length)
        if uncovered != sorted_unc:
            what.append(f"adds the uncovered ranges {list(uncovered)} instead of "
                        f"{list(sorted_unc)}")
        used = ("this variant reproduces it" if variant in ("metrics-py", "repo-head")
                else "the paper variant keeps the sorted reading")
        out.append(KindedText(f"{gold_name}: document {doc!r}: gold labels are not sorted by "
                              "start; the official evaluator walks them in file order and "
                              f"{'; '.join(what)} ({used})", "file-order"))
    return out


def unsorted_documents(order: object) -> list[str]:
    """The documents whose gold intervals ``order`` (a reader's records) lists out of sorted
    order: the ones whose file order a writer must keep, or say it loses. Empty unless
    ``order`` is a :class:`GoldOrder`."""
    if not isinstance(order, GoldOrder):
        return []
    return [doc for doc, intervals in order.intervals.items()
            if list(intervals) != sorted(intervals)]


def in_file_order(doc: str, spans: Sequence[SpanLike], order: object) -> list[SpanLike]:
    """``spans`` of ``doc`` (sorted) in the order of ``order``'s intervals (first sighting in
    the file), each interval's labels together as sorted; spans of an interval ``order`` does
    not list last. ``spans`` as they are when ``order`` is no :class:`GoldOrder` or does not
    list ``doc``: a writer keeps the file order this way (``convert`` to parquet or mafalda).

    >>> from core.model import Span
    >>> o = GoldOrder({"d": ((9, 12), (0, 4))})
    >>> [(s.start, s.label) for s in in_file_order("d", [Span(0, 4, "A"), Span(9, 12, "B")], o)]
    [(9, 'B'), (0, 'A')]
    """
    intervals = order.intervals.get(doc) if isinstance(order, GoldOrder) else None
    if not intervals:
        return list(spans)
    rank = {interval: k for k, interval in enumerate(intervals)}
    return sorted(spans, key=lambda s: rank.get((s.start, s.end), len(rank)))
