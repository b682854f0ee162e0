"""A long document drawn one passage at a time.

The Documents page draws a document's text three times (each side's lanes and the merged
view), one HTML element per span and per run of characters. A text of a few thousand
characters is drawn at once; a book chapter is not: a 1.4M-character text with 15,375 spans per
side (a public doccano export) made the browser work for over a minute on one page. Above
:data:`PASSAGE_CHARS` the page cuts the text into passages of about that many characters and
draws one of them, with the spans that reach into it clipped to its edges (:func:`clip`). The
scores, the contributions and the error categories stay the whole document's.

>>> text = "It was the best of times, it was the worst of times, it was the age of wisdom."
>>> cuts = passages(text, size=30)
>>> cuts
[(0, 29), (29, 59), (59, 78)]
>>> [text[a:b] for a, b in cuts]
['It was the best of times, it ', 'was the worst of times, it was', ' the age of wisdom.']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from core.render.highlight import SpanItem

PASSAGE_CHARS = 20_000
"""About this many characters a passage; a text up to 1.5 times as long is one passage."""


def passages(text: str, size: int = PASSAGE_CHARS) -> list[tuple[int, int]]:
    """``[start, end)`` of each passage of ``text``: consecutive, covering it, of about
    ``size`` characters each. A cut falls after the last line break (else space) in the tenth
    of a passage before it, so that words and, where possible, lines stay whole; a text up to
    1.5 × ``size`` is one passage."""
    if len(text) <= size * 3 // 2:
        return [(0, len(text))]
    cuts: list[tuple[int, int]] = []
    start = 0
    while len(text) - start > size * 3 // 2:
        end = start + size
        floor = end - size // 10
        for sep in ("\n", " "):
            at = text.rfind(sep, floor, end)
            if at >= 0:
                end = at + 1
                break
        cuts.append((start, end))
        start = end
    cuts.append((start, len(text)))
    return cuts


def passage_of(cuts: Sequence[tuple[int, int]], offset: int) -> int:
    """The index of the passage holding character ``offset`` (the last one past the end)."""
    for k, (_, end) in enumerate(cuts):
        if offset < end:
            return k
    return len(cuts) - 1


def clip(items: Sequence[SpanItem], start: int, end: int) -> list[SpanItem]:
    """The items that share a character with ``[start, end)``, their offsets made relative to
    ``start`` and cut at the passage's edges (ids and labels kept, so a span cut in two
    passages keeps its id in both)."""
    return [dataclasses.replace(it, start=max(it.start, start) - start,
                                end=min(it.end, end) - start)
            for it in items if it.start < end and it.end > start]
