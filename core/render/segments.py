"""Overlap segmentation for drawing spans: boundaries, lanes and the merged character view.

Pure functions over intervals, used by the dashboard (``ui/highlight.py``) to draw overlapping and
nested spans so that none hides another (the displaCy "span" approach: cut the text at every span
boundary, give each piece the stack of spans covering it, and give every span a lane that no
overlapping span shares), and to mark each character of a gold/prediction pair as matched,
partially matched, label mismatch, missed, spurious or optional (gold with ⊥).

Offsets are ``[start, end)`` as everywhere in :mod:`core.model`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from core.model import NOTHING, AltSpan

Status = Literal["matched", "partial", "mismatch", "missed", "spurious", "optional", "none"]
STATUSES: tuple[Status, ...] = ("matched", "partial", "mismatch", "missed", "spurious", "optional")
"""Character statuses of the merged view, most to least agreeing (``none``: outside every span)."""

STATUS_HELP: dict[str, str] = {
    "matched": "in a gold span and a predicted span with the same label",
    "partial": "part of a span that has a same-label partner, but outside that partner",
    "mismatch": "in gold and prediction, but no covering pair agrees on the label",
    "missed": "in a gold span that no prediction of its label touches",
    "spurious": "in a predicted span that no gold span of its label touches",
    "optional": "in an unmatched gold span whose alternatives include ⊥ (nothing): not an error",
}


@dataclass(frozen=True, slots=True)
class Segment:
    """A maximal piece ``[start, end)`` of text covered by the same spans (indices, in order)."""

    start: int
    end: int
    covering: tuple[int, ...]


def boundaries(intervals: Sequence[tuple[int, int]], length: int) -> list[int]:
    """Sorted cut points: 0, ``length`` and every interval end point clipped to the text.

    >>> boundaries([(2, 5), (4, 9)], 10)
    [0, 2, 4, 5, 9, 10]
    """
    cuts = {0, length}
    for start, end in intervals:
        cuts.add(min(max(start, 0), length))
        cuts.add(min(max(end, 0), length))
    return sorted(cuts)


def segments(intervals: Sequence[tuple[int, int]], length: int) -> list[Segment]:
    """Cut ``[0, length)`` at every boundary; each piece lists the intervals that cover it.

    Intervals reaching past ``length`` are clipped (the reader warns about them); empty pieces
    are dropped. Runs in O((n + k) log n) for n intervals and k pieces.

    >>> [(s.start, s.end, s.covering) for s in segments([(2, 5), (4, 9)], 10)]
    [(0, 2, ()), (2, 4, (0,)), (4, 5, (0, 1)), (5, 9, (1,)), (9, 10, ())]
    """
    cuts = boundaries(intervals, length)
    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for i, (start, end) in enumerate(intervals):
        s, e = min(max(start, 0), length), min(max(end, 0), length)
        if e > s:
            starts.setdefault(s, []).append(i)
            ends.setdefault(e, []).append(i)
    active: set[int] = set()
    out: list[Segment] = []
    for left, right in itertools.pairwise(cuts):
        active.difference_update(ends.get(left, ()))
        active.update(starts.get(left, ()))
        if right > left:
            out.append(Segment(left, right, tuple(sorted(active))))
    return out


def assign_lanes(intervals: Sequence[tuple[int, int]]) -> list[int]:
    """Give each interval a lane (0, 1, ...) that no overlapping interval shares.

    Greedy colouring in order of start (longer first on ties, so that a nesting span sits above
    what it contains); for intervals this uses the fewest lanes possible, the maximum number of
    intervals covering one character. Touching intervals (``a.end == b.start``) may share a lane.

    >>> assign_lanes([(0, 10), (2, 4), (5, 8), (9, 12)])
    [0, 1, 1, 1]
    >>> assign_lanes([(0, 3), (0, 3)])
    [0, 1]
    """
    order = sorted(range(len(intervals)), key=lambda i: (intervals[i][0], -intervals[i][1], i))
    lane_end: list[int] = []  # per lane, the end of the last interval placed in it
    lanes = [0] * len(intervals)
    for i in order:
        start, end = intervals[i]
        for lane, last_end in enumerate(lane_end):
            if last_end <= start:
                lane_end[lane] = end
                lanes[i] = lane
                break
        else:
            lanes[i] = len(lane_end)
            lane_end.append(end)
    return lanes


@dataclass(frozen=True, slots=True)
class Run:
    """A maximal run ``[start, end)`` of characters with one merged-view status."""

    start: int
    end: int
    status: Status


def _labels_agree(gold: AltSpan, pred: AltSpan) -> bool:
    return any(label in gold.labels for label in pred.labels)


def char_status(gold: Sequence[AltSpan], pred: Sequence[AltSpan], length: int) -> list[Run]:
    """Merged view of one document: each character's agreement between gold and prediction.

    A character is *matched* when a gold span and a predicted span with a common label both
    cover it; *mismatch* when gold and prediction cover it but no covering pair shares a label;
    *partial* when only one side covers it but its span has a same-label overlapping partner
    elsewhere (the uncovered part of a partial match); *missed* / *spurious* when only gold /
    only prediction covers it and its span has no same-label partner; *optional* when it is
    otherwise missed but every covering gold span lists ⊥ (``nothing``) among its alternatives
    (MAFALDA: such a span may be left unpredicted). Precedence follows :data:`STATUSES`.

    >>> g = [AltSpan(0, 6, ("A",))]
    >>> p = [AltSpan(3, 9, ("A",)), AltSpan(12, 14, ("B",))]
    >>> [(r.start, r.end, r.status) for r in char_status(g, p, 15)]
    [(0, 3, 'partial'), (3, 6, 'matched'), (6, 9, 'partial'), (9, 12, 'none'),
     (12, 14, 'spurious'), (14, 15, 'none')]
    """
    n_gold = len(gold)
    spans: list[AltSpan] = [*gold, *pred]
    has_partner = [False] * len(spans)
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            if p.start < g.end and g.start < p.end and _labels_agree(g, p):
                has_partner[gi] = True
                has_partner[n_gold + pi] = True
    runs: list[Run] = []
    for seg in segments([s.interval for s in spans], length):
        status = _segment_status(seg.covering, spans, n_gold, has_partner)
        if runs and runs[-1].status == status and runs[-1].end == seg.start:
            runs[-1] = Run(runs[-1].start, seg.end, status)
        else:
            runs.append(Run(seg.start, seg.end, status))
    return runs


def _segment_status(
    covering: tuple[int, ...], spans: Sequence[AltSpan], n_gold: int, has_partner: list[bool]
) -> Status:
    gold_here = [i for i in covering if i < n_gold]
    pred_here = [i for i in covering if i >= n_gold]
    if gold_here and pred_here:
        if any(_labels_agree(spans[g], spans[p]) for g in gold_here for p in pred_here):
            return "matched"
        return "mismatch"
    here = gold_here or pred_here
    if not here:
        return "none"
    if any(has_partner[i] for i in here):
        return "partial"
    if pred_here:
        return "spurious"
    if all(NOTHING in spans[i].labels for i in gold_here):
        return "optional"
    return "missed"


def disagreement(gold: Sequence[AltSpan], pred: Sequence[AltSpan], length: int) -> float:
    """Share of annotated characters (covered by gold or prediction) that are not *matched*.

    0 when both sides agree character for character (or nothing is annotated), 1 when no
    character is matched; *optional* (⊥) characters are left out as they are not errors. Used
    to rank documents by how much two sets disagree; it is a display aid, not a metric.

    >>> disagreement([AltSpan(0, 4, ("A",))], [AltSpan(2, 6, ("A",))], 10)
    0.666...
    """
    counted = matched = 0
    for run in char_status(gold, pred, length):
        if run.status in ("none", "optional"):
            continue
        counted += run.end - run.start
        if run.status == "matched":
            matched += run.end - run.start
    return 0.0 if counted == 0 else 1 - matched / counted
