"""The SVG export draws each line in the cells a browser gives its characters: wide CJK
characters and emoji sequences two, combining marks none; a lone CR breaks the line as the HTML
view breaks it (core/render/svg.py)."""

from __future__ import annotations

import re

from core.render import svg
from core.render.highlight import SpanItem


def _svg(text: str, *spans: tuple[int, int]) -> str:
    items = [SpanItem(f"G{k}", s, e, ("X",)) for k, (s, e) in enumerate(spans, start=1)]
    return svg.document_svg("d", text, items, [], {"X": "#0072B2"}, gold_name="gold",
                            pred_name="pred")


def _stripes(out: str) -> list[tuple[float, float]]:
    return [(float(x), float(w)) for x, w in
            re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="4"', out)]


def test_a_span_after_an_emoji_sequence_is_underlined_where_it_is_drawn() -> None:
    text = "Family 👨‍👩‍👧 says hi to Paris."
    start = text.index("Paris")
    (x, w), = _stripes(_svg(text, (start, start + 5)))
    before = len("Family ") + 2 + len(" says hi to ")  # the family: one cluster, two cells
    assert x == round(svg.MARGIN + before * svg.CHAR_PX, 1)
    assert w == round(5 * svg.CHAR_PX, 1)


def test_cjk_characters_take_two_cells_each() -> None:
    text = "東京都の知事"
    out = _svg(text, (0, 3))
    assert f'textLength="{12 * svg.CHAR_PX:.1f}"' in out
    (_, w), = _stripes(out)
    assert w == round(6 * svg.CHAR_PX, 1)


def test_a_combining_mark_takes_no_cell() -> None:
    text = "Zoe\u0308 and cafe\u0301"
    assert f'textLength="{12 * svg.CHAR_PX:.1f}"' in _svg(text, (0, 4))


def test_a_lone_cr_breaks_the_line_as_the_html_view_does() -> None:
    assert svg.wrap("one\rtwo\r\nthree", 80) == [(0, 3), (4, 7), (9, 14)]
    lines = re.findall(r'font-family="monospace"[^>]*>([^<]*)</text>', _svg("one\rtwo", (4, 7)))
    assert lines[:2] == ["one", "two"]
