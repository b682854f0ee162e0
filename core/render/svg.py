"""SVG drawn by hand: the report's bar charts and one document's spans as a standalone image.

``core`` never imports plotly (tests/test_architecture.py), and inlining plotly.js would add
about 4 MB to every report. The charts are a few bars, so they are written here as inline SVG:
the file opens offline in any browser, prints, and carries no JavaScript at all. Every bar has
its value written on it and every series a fill pattern as well as an Okabe–Ito colour
(:mod:`core.render.palette`), so colour is never the only cue. Every string from an input is
escaped (:func:`core.render.html.esc`, :func:`core.render.html.xml_text`).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import accumulate

import numpy as np
import wcwidth

from core.model import NOTHING
from core.render.bidi import is_rtl, line_levels, reorder
from core.render.highlight import SpanItem
from core.render.html import esc, xml_text
from core.render.palette import NOTHING_COLOUR, OKABE_ITO
from core.render.segments import assign_lanes

PATTERNS = ("solid", "diag", "back", "cross", "horiz", "vert", "dots", "grid")
"""Fill pattern of each series, drawn in white over its colour (the second cue)."""

# ---- charts -------------------------------------------------------------------------------------


SERIES_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (PATTERNS[i % len(PATTERNS)], OKABE_ITO[i % len(OKABE_ITO)])
    for i in range(math.lcm(len(PATTERNS), len(OKABE_ITO))))
"""(pattern, colour) of every series :func:`svg_grouped_bars` draws (series ``s`` takes the
``s``-th of each, round)."""

_SHAPES = {
    "diag": '<path d="M0,8 L8,0" stroke="#fff" stroke-width="1.6"/>',
    "back": '<path d="M0,0 L8,8" stroke="#fff" stroke-width="1.6"/>',
    "cross": '<path d="M0,8 L8,0 M0,0 L8,8" stroke="#fff" stroke-width="1.2"/>',
    "horiz": '<path d="M0,4 L8,4" stroke="#fff" stroke-width="1.6"/>',
    "vert": '<path d="M4,0 L4,8" stroke="#fff" stroke-width="1.6"/>',
    "dots": '<circle cx="4" cy="4" r="1.5" fill="#fff"/>',
    "grid": '<path d="M0,4 L8,4 M4,0 L4,8" stroke="#fff" stroke-width="1"/>',
}


def pattern_id(pattern: str, colour: str) -> str:
    """The id of :func:`pattern_defs`'s fill of ``pattern`` over ``colour``."""
    return f"p-{pattern}-{colour.lstrip('#').lower()}"


def pattern_defs(pairs: Iterable[tuple[str, str]] = SERIES_PAIRS) -> str:
    """Fills of a pattern drawn in white over a colour, one per (pattern, colour) of
    ``pairs`` (a solid one needs none), so that a bar is one rectangle filled with both (it
    was a rectangle of the colour and a second of the pattern over it: the report's charts
    held each patterned bar twice). A chart holds them, unless its page holds them once for
    all its charts (``own_defs=False``: the report, whose every chart is drawn twice, for a
    screen and for a phone)."""
    return "<defs>" + "".join(
        f'<pattern id="{pattern_id(k, c)}" width="8" height="8" patternUnits="userSpaceOnUse">'
        f'<rect width="8" height="8" fill="{c}"/>{_SHAPES[k]}</pattern>'
        for k, c in dict.fromkeys(pairs) if k != "solid") + "</defs>"


def _rect(x: float, y: float, w: float, h: float, colour: str, pattern: str, title: str,
          cls: str = "bar") -> str:
    # one rectangle: the pattern's fill holds the colour under it (the colour after the url
    # is what a page without that fill shows: the bar keeps its colour)
    fill = colour if pattern == "solid" else f"url(#{pattern_id(pattern, colour)}) {colour}"
    return (f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{fill}" stroke="#333" stroke-width="0.4"><title>{esc(title)}</title></rect>')


def _defs_if(own: bool, pairs: Iterable[tuple[str, str]] = SERIES_PAIRS) -> str:
    """:func:`pattern_defs` of ``pairs`` for a chart that holds its own (``own_defs``), else
    nothing."""
    return pattern_defs(pairs) if own else ""


_NARROW = frozenset("iljtfrI.,:;'|!()[]{} ·")
_WIDE = frozenset("mwMW@%")


def text_width(text: str, size: float) -> float:
    """The width in px of ``text`` at font size ``size`` in the charts' sans-serif font, an
    estimate from each character's class that errs on the wide side (DejaVu Sans and Arial
    advances: about 0.3 em for i, l, punctuation and spaces, 0.9 em for m and w, 0.7 em for
    the other capitals, 0.6 em for the rest; a wide East Asian character or emoji a full em
    per cell), so that a margin computed from it holds the text. A chart cannot measure text
    without a browser, and drawing it in one is what the margins must survive.

    >>> text_width("il", 10) < text_width("ab", 10) < text_width("MW", 10)
    True
    >>> text_width("地", 10)
    20.0
    """
    em = 0.0
    for ch, n in zip(text, cells(text), strict=True):
        if n == 0:
            continue
        em += (0.34 if ch in _NARROW else 0.92 if ch in _WIDE else 0.72 if ch.isupper()
               else 0.62 if n == 1 else float(n))
    return round(em * size, 1)


def _clipped(text: str, size: float, room: float) -> str:
    """``text``, or its longest head that fits in ``room`` px followed by an ellipsis."""
    if text_width(text, size) <= room:
        return text
    head = text
    while head and text_width(head + "…", size) > room:
        head = head[:-1]
    return head + "…"


def _legend(items: Sequence[tuple[str, str, str]], x: float, y: float, *,
            right: float = 852.0) -> tuple[str, float]:
    """Swatch and name of each series, wrapped to a new row at ``right``: the SVG and the
    baseline of the last row."""
    out = []
    x0 = x
    for name, colour, pattern in items:
        step = 24 + text_width(name, 11)
        if x > x0 and x + step > right:
            x, y = x0, y + 18
        out.append(_rect(x, y - 9, 12, 10, colour, pattern, name, "swatch"))
        out.append(f'<text x="{x + 16:.1f}" y="{y:.1f}" font-size="11">{esc(name)}</text>')
        x += step
    return "".join(out), y


VALUE_PX = 9
"""Font size of the value written over each bar."""
GROUP_PX = 10
"""Font size of the group names under the bars."""
GROUP_ROOM = 150.0
"""A group name longer than this (px) is cut with an ellipsis under slanted bars (whole in its
tooltip)."""
PLOT_H = 200
"""Height of the grouped bars' plot area (px)."""


_STEPS = (Decimal("0.1"), Decimal("0.2"), Decimal("0.25"), Decimal("0.5"))
"""A gridline step is one of these times a power of ten."""


def value_ticks(high: float, *, most: int = 6) -> list[tuple[float, str]]:
    """The gridlines of an axis from 0 to at least ``high`` (> 0): at most ``most`` steps of the
    smallest of 0.1, 0.2, 0.25, 0.5 times a power of ten that reaches ``high``, each value
    with its label written with the decimals the step needs (0.25 as ``0.25``, never ``0.2``
    or ``0.3``; at least one decimal, as a score is written). The last value is the top of the
    axis.

    >>> [t for _, t in value_ticks(1.0)]
    ['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']
    >>> [t for _, t in value_ticks(1.3)]
    ['0.00', '0.25', '0.50', '0.75', '1.00', '1.25', '1.50']
    """
    exponent = 0
    while True:
        for base in _STEPS:
            step = base.scaleb(exponent)
            count = int(np.ceil(high / float(step) - 1e-9))
            if count <= most:
                places = max(1, -step.normalize().as_tuple().exponent)  # type: ignore[operator]
                return [(float(step * k), f"{step * k:.{places}f}") for k in range(count + 1)]
        exponent += 1


def svg_grouped_bars(groups: Sequence[str], series: Sequence[tuple[str, Sequence[float | None],
                                                                   Sequence[tuple[float, float]
                                                                            | None]]],
                     *, title: str, y_label: str, width: int = 860,
                     own_defs: bool = True) -> str:
    """Grouped bars (one series per system) with interval whiskers and values on the bars.

    The layout follows the text it must hold (:func:`text_width`): the legend wraps; the
    group names stand level when each fits its group, else slanted at 45° (every k-th when
    groups are narrower than a line of text), the bottom margin as deep as the longest; each
    value stands above its bar's whisker (level when it fits the bar's width, else upright),
    the top margin as tall as a value, so no value crosses a whisker or another value.
    ``width``: the chart's width (860 px; a phone's layout is narrower, the same rules).
    ``own_defs``: the chart holds its fill patterns (:func:`pattern_defs`), else its page does."""
    left = 48.0
    values = [v for _, vs, ivs in series for v in vs if v is not None]
    highs = [iv[1] for _, _, ivs in series for iv in ivs if iv is not None]
    ticks = value_ticks(max([1.0, *values, *highs]))
    ymax = float(ticks[-1][0])
    n_groups, n_series = max(1, len(groups)), max(1, len(series))
    gw = (width - left - 16) / n_groups
    if groups and text_width(groups[0], GROUP_PX) > gw - 4:
        # the first slanted name reaches left of its group by 0.71 of its width
        reach = text_width(_clipped(groups[0], GROUP_PX, GROUP_ROOM), GROUP_PX) * 0.71
        left = max(left, reach - gw / 2 + 8)
    plot_w = width - left - 16
    gw = plot_w / n_groups
    bw = min(60.0, gw * 0.8 / n_series)
    gap = min(2.0, bw / 4)  # between a group's bars; never wider than the bar itself
    cap = min(4.0, max(1.0, (bw - gap) / 2))  # a whisker's cap stays within its bar
    legend, legend_y = _legend([(name, OKABE_ITO[s % len(OKABE_ITO)],
                                 PATTERNS[s % len(PATTERNS)])
                                for s, (name, _, _) in enumerate(series)], left, 40,
                               right=width - 8)
    value_w = max([text_width(f"{v:.2f}", VALUE_PX) for v in values] or [0.0])
    level_values = value_w <= bw - 1  # a level value wider than its bar meets its neighbours'
    value_h = VALUE_PX + 3 if level_values else value_w + 4
    slanted = any(text_width(g, GROUP_PX) > gw - 4 for g in groups)
    shown = [_clipped(g, GROUP_PX, GROUP_ROOM) if slanted else g for g in groups]
    every = max(1, int(np.ceil(14 / gw))) if slanted else 1  # slanted names 14 px apart
    widest = max([text_width(g, GROUP_PX) for g in shown[::every]] or [0.0])
    top = legend_y + 8 + value_h
    bottom = (widest + GROUP_PX) * 0.71 + 16 if slanted else GROUP_PX + 14
    plot_h = PLOT_H
    height = int(np.ceil(top + plot_h + bottom))

    def y_of(v: float) -> float:
        return top + plot_h * (1 - v / ymax)

    parts = [f'<svg class="ss-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
             f'{height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{esc(title)}">', _defs_if(own_defs),
             f'<text x="{left}" y="18" font-size="14" font-weight="600">{esc(title)}</text>']
    for v, tick in ticks:
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y_of(v):.1f}" '
                     f'y2="{y_of(v):.1f}" stroke="#e5e5e5"/><text x="{left - 6}" '
                     f'y="{y_of(v) + 4:.1f}" font-size="10" text-anchor="end">{tick}</text>')
    parts.append(f'<text x="12" y="{top + plot_h / 2:.0f}" font-size="11" '
                 f'transform="rotate(-90 12 {top + plot_h / 2:.0f})" text-anchor="middle">'
                 f"{esc(y_label)}</text>")
    for g, group in enumerate(groups):
        x0 = left + g * gw + (gw - bw * n_series) / 2
        for s, (name, vs, ivs) in enumerate(series):
            value = vs[g] if g < len(vs) else None
            if value is None:
                continue
            v = float(value)
            colour, pattern = OKABE_ITO[s % len(OKABE_ITO)], PATTERNS[s % len(PATTERNS)]
            x = x0 + s * bw
            cx = x + (bw - gap) / 2
            parts.append(_rect(x, y_of(max(v, 0.0)), bw - gap, y_of(0) - y_of(max(v, 0.0)),
                               colour, pattern, f"{name} · {group}: {v:.3f}"))
            above = y_of(max(v, 0.0))
            iv = ivs[g] if g < len(ivs) else None
            if iv is not None:
                above = min(above, y_of(iv[1]))
                parts.append(f'<path class="ss-whisker" d="M{cx:.1f},{y_of(iv[0]):.1f} '
                             f'L{cx:.1f},{y_of(iv[1]):.1f} M{cx - cap:.1f},{y_of(iv[0]):.1f} '
                             f'L{cx + cap:.1f},{y_of(iv[0]):.1f} M{cx - cap:.1f},'
                             f'{y_of(iv[1]):.1f} L{cx + cap:.1f},{y_of(iv[1]):.1f}" '
                             f'stroke="#222" stroke-width="1.2" fill="none"/>')
            if level_values:
                parts.append(f'<text class="ss-value" x="{cx:.1f}" y="{above - 3:.1f}" '
                             f'font-size="{VALUE_PX}" text-anchor="middle">{v:.2f}</text>')
            else:  # upright, reading upwards from just above the whisker
                parts.append(f'<text class="ss-value" x="{cx + VALUE_PX * 0.35:.1f}" '
                             f'y="{above - 3:.1f}" font-size="{VALUE_PX}" '
                             f'transform="rotate(-90 {cx + VALUE_PX * 0.35:.1f} '
                             f'{above - 3:.1f})">{v:.2f}</text>')
        if g % every:
            continue
        gx, gy = left + g * gw + gw / 2, top + plot_h + 14
        if slanted:
            parts.append(f'<text class="ss-group" x="{gx:.1f}" y="{gy:.1f}" '
                         f'font-size="{GROUP_PX}" text-anchor="end" '
                         f'transform="rotate(-45 {gx:.1f} {gy:.1f})"><title>{esc(group)}</title>'
                         f"{esc(shown[g])}</text>")
        else:
            parts.append(f'<text class="ss-group" x="{gx:.1f}" y="{gy:.1f}" '
                         f'font-size="{GROUP_PX}" text-anchor="middle"><title>{esc(group)}'
                         f"</title>{esc(shown[g])}</text>")
    parts.append(legend)
    parts.append("</svg>")
    return "".join(parts)


NAME_PX = 11
"""Font size of the bar names of the stacked bars."""
NAME_ROOM = 420.0
"""A stacked bar's name longer than this (px) is cut with an ellipsis (whole in its
tooltip)."""


def svg_stacked_bars(bars: Sequence[tuple[str, Mapping[str, int]]], *, title: str,
                     colours: Mapping[str, str], patterns: Mapping[str, str] | None = None,
                     width: int = 860, own_defs: bool = True) -> str:
    """Horizontal stacked bars (one per system and side) of the category counts, the categories
    stacked in the order of ``colours`` (category -> colour); ``patterns`` (category -> one of
    :data:`PATTERNS`) keeps a category's pattern when a chart draws only some categories.
    The names' margin is as wide as the widest name (:func:`text_width`; past
    :data:`NAME_ROOM` a name is cut, whole in its tooltip) and the bars keep 440 px at
    least (180 px in a chart narrower than 860 px: ``width``, a phone's), the chart widening
    for them. ``own_defs`` as :func:`svg_grouped_bars`'s."""
    pattern_of = dict(patterns or {c: PATTERNS[i % len(PATTERNS)] for i, c in enumerate(colours)})
    room = NAME_ROOM if width >= 860 else width * 0.4  # a phone's names leave the bars room
    names = [_clipped(name, NAME_PX, room) for name, _ in bars]
    left = 14 + max([60.0, *(text_width(n, NAME_PX) for n in names)])
    width = max(width, int(np.ceil(left + (460 if width >= 860 else 200))))
    legend, legend_y = _legend([(c, colours[c], pattern_of[c]) for c in colours], 8, 40,
                               right=width - 8)
    row_h, top = 26, legend_y + 12
    height = int(top + row_h * len(bars) + 20)
    total = max([1, *(sum(c.values()) for _, c in bars)])
    plot_w = width - left - 20
    parts = [f'<svg class="ss-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
             f'{height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{esc(title)}">',
             _defs_if(own_defs, [(pattern_of[c], colours[c]) for c in colours]),
             f'<text x="8" y="18" font-size="14" font-weight="600">{esc(title)}</text>',
             legend]
    for r, ((name, counts), shown) in enumerate(zip(bars, names, strict=True)):
        y = top + r * row_h
        parts.append(f'<text class="ss-name" x="{left - 6:.1f}" y="{y + 16}" '
                     f'font-size="{NAME_PX}" text-anchor="end"><title>{esc(name)}</title>'
                     f"{esc(shown)}</text>")
        x = float(left)
        for cat in colours:
            n = counts.get(cat, 0)
            if not n:
                continue
            w = plot_w * n / total
            parts.append(_rect(x, y + 3, w, row_h - 6, colours[cat], pattern_of[cat],
                               f"{name}: {cat} {n}"))
            if w > text_width(str(n), 10) + 4:
                parts.append(f'<text x="{x + w / 2:.1f}" y="{y + 17}" font-size="10" '
                             f'text-anchor="middle" fill="#000" stroke="#fff" '
                             f'stroke-width="2.5" paint-order="stroke">{n}</text>')
            x += w
    parts.append("</svg>")
    return "".join(parts)


# ---- one document -------------------------------------------------------------------------------

FONT_PX = 14
CHAR_PX = 8.4  # the advance of a one-cell monospace glyph at FONT_PX (lines are stretched to fit)
LINE_GAP = 6
LANE_ROW = 13  # a lane: a 4 px stripe and the span id under its start
MARGIN = 16


_BREAK = re.compile(r"\r\n|\r|\n")
"""A line break as the HTML view breaks lines (``white-space: pre-wrap``): LF, CRLF and a lone
CR alike."""


def cells(text: str) -> list[int]:
    """The display cells of each code point of ``text`` in a monospace font: a grapheme cluster
    (a letter and its combining marks, an emoji sequence joined by ZWJ, a flag) takes its width
    (``wcwidth``: 2 for an East Asian wide character or an emoji, 1 otherwise, at least 1 for
    anything drawn) on its first code point, 0 on the others.

    >>> cells("a地"), cells("e\u0301"), cells("👨\u200d👩\u200d👧")
    ([1, 2], [1, 0], [2, 0, 0, 0, 0])
    """
    out = [0] * len(text)
    pos = 0
    for cluster in wcwidth.iter_graphemes(text):
        width = wcwidth.wcswidth(cluster)
        out[pos] = 1 if width < 0 else width  # a control character: one cell, as drawn
        pos += len(cluster)
    return out


def paragraphs(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the paragraphs of ``text``: the pieces between line breaks
    (:data:`_BREAK`), which UAX #9 resolves one at a time (a break is a paragraph separator).

    >>> paragraphs("ab\\r\\ncd\\n")
    [(0, 2), (4, 6), (7, 7)]
    """
    found, start = [], 0
    for brk in _BREAK.finditer(text):
        found.append((start, brk.start()))
        start = brk.end()
    found.append((start, len(text)))
    return found


def wrap(text: str, width: int) -> list[tuple[int, int]]:
    """``text`` cut into lines at most ``width`` cells wide (:func:`cells`: an invisible
    control or a combining mark takes none, a wide character two), at spaces where possible
    and at every line break (LF, CRLF or a lone CR, :data:`_BREAK`): the (start, end) offsets
    of each line, line breaks left out.

    >>> wrap("ab cd ef\\ngh\\rij", 5)
    [(0, 5), (6, 8), (9, 11), (12, 14)]
    >>> wrap("a\\u200fb\\u200fc d", 3)  # the two RLMs take no cell
    [(0, 5), (6, 7)]
    """
    lines: list[tuple[int, int]] = []
    for start, end_para in paragraphs(text):
        # ends[k]: the cells of text[start:start + k]
        ends = list(accumulate(cells(text[start:end_para]), initial=0))
        pos = start
        while ends[end_para - start] - ends[pos - start] > width:
            # the longest piece that fits (at least one character)
            fit = bisect_right(ends, ends[pos - start] + width) - 1 + start
            fit = max(fit, pos + 1)
            cut = text.rfind(" ", pos, fit + 1)
            if cut <= pos:
                lines.append((pos, fit))
                pos = fit
            else:
                lines.append((pos, cut))
                pos = cut + 1
        lines.append((pos, end_para))
    return lines


def _colour(colours: Mapping[str, str], label: str) -> str:
    return NOTHING_COLOUR if label == NOTHING else colours.get(label, "#444444")


def _runs(columns: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted columns as runs of consecutive ones: ``[(first, past_last), ...]``.

    >>> _runs([4, 1, 2])
    [(1, 3), (4, 5)]
    """
    runs: list[tuple[int, int]] = []
    for col in sorted(columns):
        if runs and runs[-1][1] == col:
            runs[-1] = (runs[-1][0], col + 1)
        else:
            runs.append((col, col + 1))
    return runs


_EXPLICIT_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""The explicit embeddings, overrides and isolates and their ends (LRE ... PDI): invisible."""


def _line_levels(text: str, lines: Sequence[tuple[int, int]], *, rtl: bool
                 ) -> list[list[int]]:
    """The bidi levels of each line: its paragraph resolved whole, then cut into its lines
    (:func:`core.render.bidi.line_levels`, UAX #9 section 3.4); a tab counts as the space it
    is drawn as."""
    spans = paragraphs(text)
    grouped: dict[int, list[tuple[int, int]]] = {}
    k = 0
    for a, b in lines:
        while not spans[k][0] <= a <= spans[k][1]:
            k += 1
        grouped.setdefault(k, []).append((a, b))
    out: list[list[int]] = []
    for k, members in grouped.items():
        p0, p1 = spans[k]
        out.extend(line_levels(text[p0:p1].replace("\t", " "),
                               [(a - p0, b - p0) for a, b in members], rtl=rtl))
    return out


def _drawn(line: str, lv: Sequence[int], base: int) -> str:
    """``line`` as the SVG draws it: in logical order, each run above the paragraph's level
    ``base`` inside directional overrides (RLO for an odd level, LRO for an even one, one per
    level up, each closed by a PDF), in a text element that overrides at ``base``
    (``unicode-bidi="bidi-override"``). A viewer then shows every character at the level
    resolved on its whole paragraph (:func:`_line_levels`), where the stripes are drawn,
    instead of resolving the line alone. The line's own explicit controls are left out: they
    are invisible and their effect is in ``lv`` already.

    >>> _drawn("ab אב 12", [0, 0, 0, 1, 1, 1, 2, 2], 0) == "ab \u202eאב \u202d12\u202c\u202c"
    True
    """
    out: list[str] = []
    level = base
    for ch, want in zip(line, lv, strict=True):
        if _EXPLICIT_CONTROLS.match(ch):
            continue
        while level > want:
            out.append("\u202c")
            level -= 1
        while level < want:
            level += 1
            out.append("\u202e" if level % 2 else "\u202d")
        out.append(ch)
    out.append("\u202c" * (level - base))
    return "".join(out)


def _block(text: str, items: Sequence[SpanItem], colours: Mapping[str, str], lines:
           Sequence[tuple[int, int]], top: float, name: str, *, right: float,
           rtl: bool) -> tuple[list[str], float]:
    """One annotation's text with its lanes, from ``top``: the SVG elements and the new top.

    A right-to-left text (``rtl``: its first strong character, as ``dir="auto"`` decides in
    the HTML view) starts each line at ``right``; a span's stripe lies under the columns its
    characters are shown at (:func:`_line_levels`, :func:`core.render.bidi.reorder`), one
    piece per run of adjacent columns, and its id at its first character."""
    lanes = assign_lanes([it.interval for it in items])
    n_lanes = max(lanes, default=-1) + 1
    out = [f'<text x="{MARGIN}" y="{top + FONT_PX:.1f}" font-weight="700" '
           f'font-size="{FONT_PX}">{xml_text(name)} · {len(items)} span(s)</text>']
    y = top + FONT_PX + LINE_GAP + 4
    for (a, b), lv in zip(lines, _line_levels(text, lines, rtl=rtl), strict=True):
        base = y + FONT_PX
        line = text[a:b].replace("\t", " ")
        columns = reorder(lv)
        # x of each visual column, in cells: a wide character or an emoji sequence takes the
        # cells it is drawn in, a combining mark none (cells()), as the browser draws them
        at = [0] * (len(line) + 1)
        for i, width in enumerate(cells(line)):
            at[columns[i] + 1] = width
        at = list(accumulate(at))
        left = right - at[-1] * CHAR_PX if rtl else float(MARGIN)
        if line:
            anchor = (f'x="{right:.1f}" direction="rtl" text-anchor="start"' if rtl
                      else f'x="{MARGIN}"')
            drawn = _drawn(line, lv, 1 if rtl else 0)
            out.append(f'<text {anchor} y="{base:.1f}" font-family="monospace" '
                       f'font-size="{FONT_PX}" xml:space="preserve" '
                       f'unicode-bidi="bidi-override" textLength="{at[-1] * CHAR_PX:.1f}" '
                       f'lengthAdjust="spacingAndGlyphs">{xml_text(drawn)}</text>')
        for it, lane in zip(items, lanes, strict=True):
            s, e = max(it.start, a), min(it.end, b)
            if s >= e and not (it.start == it.end == s and a <= s <= b):
                continue
            if s < e:
                runs = _runs([columns[i - a] for i in range(s, e)])
            else:  # an empty span: a thin mark at the edge of the character it precedes
                col = (columns[s - a] + (1 if rtl else 0) if s < b
                       else 0 if rtl else len(line))
                runs = [(col, col)]
            row = base + 4 + lane * LANE_ROW
            tip = xml_text(f"{it.id} [{it.start}, {it.end}) {it.label_text}")
            for c0, c1 in runs:
                x = left + at[c0] * CHAR_PX
                w = max((at[c1] - at[c0]) * CHAR_PX, 2.0)
                piece = w / len(it.labels)
                for k, lab in enumerate(it.labels):  # alternatives split the stripe
                    out.append(f'<rect x="{x + k * piece:.1f}" y="{row:.1f}" '
                               f'width="{piece:.1f}" height="4" '
                               f'fill="{xml_text(_colour(colours, lab))}">'
                               f"<title>{tip}</title></rect>")
            if it.start >= a:
                # Dark ids: a light label colour (Okabe-Ito yellow) is unreadable as text; the
                # stripe above carries the colour. The id stands at the span's first character:
                # its right edge in a right-to-left run.
                first = columns[s - a] if s < b else runs[0][0]
                if s < b and lv[s - a] % 2:
                    where = f'x="{left + at[first + 1] * CHAR_PX:.1f}" text-anchor="end"'
                else:
                    where = f'x="{left + at[first] * CHAR_PX:.1f}"'
                out.append(f'<text {where} y="{row + 12:.1f}" font-size="9" '
                           f'font-weight="600" fill="#333333">'
                           f"{xml_text(it.id)}<title>{tip}</title></text>")
        y = base + 4 + n_lanes * LANE_ROW + LINE_GAP
    return out, y + 8


def document_svg(doc_id: str, text: str | None, gold: Sequence[SpanItem],
                 pred: Sequence[SpanItem], colours: Mapping[str, str], *, gold_name: str,
                 pred_name: str, width_chars: int = 80) -> str:
    """A standalone SVG: the document's text twice (the two annotations), each span a stripe in
    its lane with its id, and a legend of the labels. Without a text, the spans are listed. A
    right-to-left text (Arabic, Hebrew) is drawn from the right margin, each stripe under the
    characters it covers as a browser shows them (Unicode bidirectional algorithm,
    :mod:`core.render.bidi`)."""
    if text is None:
        listing = [f"{name}: " + "; ".join(f"{it.id} [{it.start}, {it.end}) {it.label_text}"
                                           for it in items)
                   for name, items in ((gold_name, gold), (pred_name, pred))]
        text = "No text is available for this document.\n" + "\n".join(listing)
        gold, pred = [], []
    lines = wrap(text, width_chars)
    longest = max((sum(cells(text[a:b])) for a, b in lines), default=0)
    width = max(2 * MARGIN + longest * CHAR_PX, 360)
    parts = [f'<text x="{MARGIN}" y="{MARGIN + 16}" font-size="18" font-weight="700">'
             f"Document {xml_text(doc_id)}</text>"]
    top = MARGIN + 28.0
    rtl = is_rtl(text)  # the whole text's direction, as dir="auto" takes it in the HTML view
    for name, items in ((gold_name, gold), (pred_name, pred)):
        block, top = _block(text, items, colours, lines, top, name, right=width - MARGIN,
                            rtl=rtl)
        parts.extend(block)
    used = sorted({lab for it in (*gold, *pred) for lab in it.labels})
    x, y = float(MARGIN), top + 6
    for lab in used:
        shown = "⊥ (nothing)" if lab == NOTHING else lab
        step = 26 + max(wcwidth.wcswidth(shown), len(shown)) * 7.2
        if x + step > width - MARGIN and x > MARGIN:
            x, y = float(MARGIN), y + 20
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="16" height="10" '
                     f'fill="{xml_text(_colour(colours, lab))}"/>'
                     f'<text x="{x + 20:.1f}" y="{y + 9:.1f}" font-size="12">'
                     f"{xml_text(shown)}</text>")
        x += step
    height = y + 28
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" fill="#1f1f1f">'
            f'<rect width="100%" height="100%" fill="#ffffff"/>{"".join(parts)}</svg>\n')
