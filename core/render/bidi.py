"""Where each character of a line of text is drawn when the text mixes directions.

A browser lays out right-to-left text (Arabic, Hebrew) by the Unicode Bidirectional Algorithm
(UAX #9, https://www.unicode.org/reports/tr9/): it resolves an embedding level per character and
reverses the runs of odd levels. The HTML view leaves this to the browser (``dir="auto"``); the
SVG export draws a stripe under each span at the column its characters are shown in, so it has
to know those columns itself. :func:`visual_columns` implements the algorithm for one line of
plain text: the paragraph level of rule P2/P3 (as ``dir="auto"`` takes it), the weak types rules
W1-W7 for numbers and their separators, the neutral rules N1/N2, the implicit levels I1/I2 and
the reordering L2. Explicit embeddings and isolates (U+202A-U+202E, U+2066-U+2069) are treated as
neutral characters: text from annotation files seldom holds them, and a wrong column there
moves a stripe, never a number.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

_STRONG_RTL = frozenset({"R", "AL"})
_NUMBER = frozenset({"EN", "AN"})


def is_rtl(text: str) -> bool:
    """Whether ``text`` reads right to left: its first strong character is right-to-left (rules
    P2/P3, what ``dir="auto"`` decides in a browser); a text without one reads left to right.

    >>> is_rtl("123 שלום world"), is_rtl("hello שלום"), is_rtl("12 ...")
    (True, False, False)
    """
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind == "L":
            return False
        if kind in _STRONG_RTL:
            return True
    return False


def _weak_types(line: str) -> list[str]:
    """Each character's type after rules W1-W7 (numbers, their separators, marks), with the
    strong types reduced to ``L`` and ``R`` and every other character ``N`` (neutral)."""
    types = [unicodedata.bidirectional(ch) or "ON" for ch in line]
    for i, t in enumerate(types):  # W1: a mark takes the type of the character before it
        if t == "NSM":
            types[i] = types[i - 1] if i else "ON"
    strong = "L"  # W2: a European number after Arabic letters is an Arabic number
    for i, t in enumerate(types):
        if t in ("L", "R", "AL"):
            strong = t
        elif t == "EN" and strong == "AL":
            types[i] = "AN"
    types = ["R" if t == "AL" else t for t in types]  # W3
    for i in range(1, len(types) - 1):  # W4: one separator between two numbers of a kind
        left, mid, right = types[i - 1], types[i], types[i + 1]
        if left == right == "EN" and mid in ("ES", "CS"):
            types[i] = "EN"
        elif left == right == "AN" and mid == "CS":
            types[i] = "AN"
    for i, j in _runs(types, "ET"):  # W5: terminators (%, $, °) next to a European number
        if (i > 0 and types[i - 1] == "EN") or (j < len(types) and types[j] == "EN"):
            types[i:j] = ["EN"] * (j - i)
    strong = "L"  # W7 (after W6: other separators are neutral): a number after L text is L
    out: list[str] = []
    for t in types:
        if t in ("L", "R"):
            strong = t
            out.append(t)
        elif t == "EN":
            out.append("L" if strong == "L" else "EN")
        elif t == "AN":
            out.append("AN")
        else:
            out.append("N")
    return out


def _runs(types: list[str], kind: str) -> Iterator[tuple[int, int]]:
    """The maximal runs ``types[i:j]`` of ``kind``, left to right (a caller may rewrite the run
    it is given, as W5 does, but not what follows it).

    >>> list(_runs(["N", "L", "N", "N"], "N"))
    [(0, 1), (2, 4)]
    """
    i = 0
    while i < len(types):
        if types[i] != kind:
            i += 1
            continue
        j = i
        while j < len(types) and types[j] == kind:
            j += 1
        yield i, j
        i = j


def levels(line: str, *, rtl: bool) -> list[int]:
    """The embedding level of each character of ``line`` in a paragraph of the given direction
    (rules W1-W7, N1/N2, I1/I2).

    >>> levels("ab אב 12", rtl=False)
    [0, 0, 0, 1, 1, 1, 2, 2]
    """
    base = 1 if rtl else 0
    types = _weak_types(line)
    edge = "R" if rtl else "L"
    # N1/N2: neutrals between two strong directions that agree (a number counts as R) take it;
    # otherwise the paragraph's direction.
    resolved = list(types)
    for i, j in _runs(types, "N"):
        before = edge if i == 0 else ("R" if types[i - 1] in _NUMBER else types[i - 1])
        after = edge if j == len(types) else ("R" if types[j] in _NUMBER else types[j])
        resolved[i:j] = [before if before == after else edge] * (j - i)
    out: list[int] = []
    for t in resolved:  # I1/I2
        if base == 0:
            out.append(1 if t == "R" else 2 if t in _NUMBER else 0)
        else:
            out.append(2 if t in ("L", "EN", "AN") else 1)
    return out


def visual_columns(line: str, *, rtl: bool) -> list[int]:
    """The column, counted from the left, at which each character of ``line`` is shown (rule
    L2: from the highest level down to the lowest odd one, every run at that level or above is
    reversed; a right-to-left paragraph is one such run).

    >>> visual_columns("abc", rtl=False), visual_columns("אבג", rtl=True)
    ([0, 1, 2], [2, 1, 0])
    >>> visual_columns("אב 12", rtl=True)  # the number still reads left to right
    [4, 3, 2, 0, 1]
    """
    lv = levels(line, rtl=rtl)
    order = list(range(len(line)))  # order[column] = logical index
    if not lv:
        return []
    lowest_odd = min((v for v in lv if v % 2), default=None)
    if lowest_odd is None:
        return order
    for level in range(max(lv), lowest_odd - 1, -1):
        col = 0
        while col < len(order):
            if lv[order[col]] < level:
                col += 1
                continue
            end = col
            while end < len(order) and lv[order[end]] >= level:
                end += 1
            order[col:end] = order[col:end][::-1]
            col = end
    columns = [0] * len(line)
    for col, index in enumerate(order):
        columns[index] = col
    return columns
