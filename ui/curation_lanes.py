"""The Curation page's lanes: each annotator's spans, the rule's proposal and the curated set, one
above the other, as one HTML block (:func:`lanes_html`).

A key press redraws the disputed span's neighbourhood only (:func:`context_window`: the span,
its members and :data:`CONTEXT_CHARS` characters on either side, cut at a space), so a decision
costs the browser a few dozen elements instead of five whole documents (docs/performance.md,
"Curation: a key redraws the card and the span's neighbourhood"); the whole document is drawn
on demand. Span ids (``A3``, ``P7``, ``✓7``) are numbered over the whole document in either
view, so a tag names the same span in both and in the proposals table. Every piece of text and
every name is escaped (:func:`core.render.html.esc`; :func:`core.render.highlight.render_lanes`
escapes the text and labels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.render import highlight
from core.render.html import esc

STACK_BELOW_REM = 36
"""A block narrower than this (576 px: a phone, or a narrow window with the sidebar open) draws
each lane's name above its text instead of beside it: beside it, the name's column of 7 em left
the text some 140 px of a 390 px phone, two or three words a line (bugleft21)."""

LANES_CSS = (
    "<style>.cur-lanes-box{container-type:inline-size}"
    ".cur-lanes{display:grid;grid-template-columns:minmax(7em,11em) 1fr;gap:4px 10px;"
    "align-items:start}"
    f"@container (max-width:{STACK_BELOW_REM}rem){{.cur-lanes{{grid-template-columns:1fr;"
    "gap:0}.cur-lanes>.cur-lane-name{padding-top:10px}"
    ".cur-lanes>.cur-lane-name br{display:none}"
    ".cur-lanes>.cur-lane-name span::before{content:' · '}}</style>")
"""The lanes' grid: name beside text, or above it in a block narrower than
:data:`STACK_BELOW_REM` (a container query on the block, so the sidebar's width counts), the
name and its note then on one line."""

CONTEXT_CHARS = 160
"""Characters drawn on either side of the shown disputed span and its members' spans: a
sentence or two, enough to judge the span, few enough that a key redraws little."""


@dataclass(frozen=True)
class Lane:
    """One row of the block: a set's name, a note under it (its span count) and its items
    (numbered over the whole document), those drawn thicker (``marked``) and its DOM id."""

    name: str
    note: str
    items: Sequence[highlight.SpanItem]
    marked: Sequence[str]
    dom_id: str


def context_window(text: str | None, intervals: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The characters ``[a, b)`` drawn around ``intervals`` (the shown span, its members' spans
    and its decided span): :data:`CONTEXT_CHARS` more on either side, cut after a space.

    >>> text = "one two three four five six seven eight nine ten " * 10
    >>> a, b = context_window(text, [(250, 255)])
    >>> (a, b, text[a:a + 4], text[b - 4:b])
    (94, 410, 'ten ', 'four')
    """
    lo = min(a for a, _ in intervals)
    hi = max(b for _, b in intervals)
    if text is None:
        return lo, hi
    a, b = max(0, lo - CONTEXT_CHARS), min(len(text), hi + CONTEXT_CHARS)
    if a > 0:
        cut = text.find(" ", a, lo)
        a = cut + 1 if cut >= 0 else a
    if b < len(text):
        cut = text.rfind(" ", hi, b)
        b = cut if cut >= 0 else b
    return a, b


def window_items(items: Sequence[highlight.SpanItem], a: int, b: int
                 ) -> list[highlight.SpanItem]:
    """The items that overlap ``[a, b)``, cut to it and counted from ``a`` (ids unchanged)."""
    return [highlight.SpanItem(it.id, max(it.start, a) - a, min(it.end, b) - a, it.labels)
            for it in items if it.start < b and it.end > a]


def lanes_html(text: str | None, lanes: Sequence[Lane], colours: dict[str, str], *,
               window: tuple[int, int] | None = None, dom_id: str = "cur-lanes",
               caption: str = "") -> str:
    """One HTML block: ``caption`` (already HTML), the label legend (labels drawn only), then
    each lane as a row, its name on the left. With ``window`` only ``text[a:b]`` is drawn, with
    "…" where it cuts the text."""
    a, b = window if window is not None else (0, len(text) if text is not None else 0)
    shown = text[a:b] if text is not None else None
    rows: list[str] = []
    used: set[str] = set()
    for lane in lanes:
        items = window_items(lane.items, a, b) if window is not None else list(lane.items)
        used.update(lab for it in items for lab in it.labels)
        body = highlight.render_lanes(shown, items, colours, partners=lane.marked,
                                      dom_id=lane.dom_id)
        rows.append(f'<div class="cur-lane-name" style="font-size:0.85em;padding-top:6px">'
                    f'<b>{esc(lane.name)}</b><br><span style="opacity:0.75">{esc(lane.note)}'
                    f'</span></div><div>{body}</div>')
    cut = ""
    if window is not None and text is not None and (a > 0 or b < len(text)):
        cut = (f'<div style="font-size:0.8em;opacity:0.75">Characters {a:,}–{b:,} of '
               f'{len(text):,} (the whole document: “Show the whole document” below)</div>')
    return (f'{LANES_CSS}<div id="{esc(dom_id)}" class="cur-lanes-box">{caption}{cut}'
            f'{highlight.legend(colours, used)}<div class="cur-lanes">{"".join(rows)}</div>'
            '</div>')
