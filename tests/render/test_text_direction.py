"""Right-to-left text (Hebrew, Arabic, Urdu) keeps its direction in every text view.

Each text block carries ``dir="auto"`` (the browser takes the direction from the text's first
strong character, HTML's "auto" directionality), and the span tags and category marks are
``dir="ltr"`` with ``unicode-bidi: isolate``: neutral to the surrounding text, so a tag ``G1``
at the start of a line does not make an RTL paragraph left-to-right, and a tag between two
words does not reorder them. The texts are ``tests/data/rtl/`` (our own sentences).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from core.render import highlight, svg
from ui import curation_lanes

RTL = Path(__file__).resolve().parents[1] / "data" / "rtl"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _doc(name: str, doc_id: str) -> tuple[str, list[highlight.SpanItem]]:
    for line in (RTL / name).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["id"] == doc_id:
            items = [highlight.SpanItem(f"G{i}", a, b, (lab,))
                     for i, (a, b, lab) in enumerate(row["label"], 1)]
            return row["text"], items
    raise AssertionError(f"{doc_id} not in {name}")


def _blocks(html: str) -> list[str]:
    return re.findall(r'<div id="[^"]*" class="ss-doc"[^>]*>', html)


def _tags(html: str) -> list[str]:
    return re.findall(r'<span class="ss-(?:tag|cat)"[^>]*>', html)


def test_lanes_and_merged_view_take_the_direction_of_the_text() -> None:
    text, gold = _doc("rtl_gold.jsonl", "he1")
    _, pred = _doc("rtl_system.jsonl", "he1")
    colours = highlight.label_colours(["Place", "Date", "Person", "Organisation"])
    notes = {"G1": ("✓", "#009E73", "matched")}
    lanes = highlight.render_lanes(text, gold, colours, notes=notes)
    merged = highlight.render_merged(text, gold, pred)
    for html in (lanes, merged):
        assert _blocks(html) and all('dir="auto"' in b for b in _blocks(html))
    # Every tag (G1 starts the text) and every category mark is isolated and left-to-right.
    tags = _tags(lanes)
    assert len(tags) == len(gold) + len(notes)
    for tag in tags:
        assert 'dir="ltr"' in tag and "unicode-bidi:isolate" in tag
    assert text[:6] in lanes and text[:6] in merged


def test_curation_lanes_and_their_context_window_take_the_direction_of_the_text() -> None:
    text, gold = _doc("rtl_gold.jsonl", "ar1")
    colours = highlight.label_colours(["Place", "Date", "Person"])
    lane = curation_lanes.Lane("A", "4 span(s)", gold, ["G2"], "cur-a")
    for window in (None, curation_lanes.context_window(text, [(19, 31)])):
        html = curation_lanes.lanes_html(text, [lane], colours, window=window)
        assert [b for b in _blocks(html) if 'id="cur-a"' in b]
        assert all('dir="auto"' in b for b in _blocks(html))
        assert all("unicode-bidi:isolate" in t for t in _tags(html))


def test_the_standalone_export_keeps_the_direction_of_the_text() -> None:
    text, gold = _doc("rtl_gold.jsonl", "he2")
    _, pred = _doc("rtl_system.jsonl", "he2")
    colours = highlight.label_colours(["Place", "Date", "Organisation"])
    page = highlight.document_html("he2", text, gold, pred, colours, gold_name="gold",
                                   pred_name="system")
    blocks = _blocks(page)
    assert [b[:30] for b in blocks] == ['<div id="export-gold" class="s',
                                       '<div id="export-pred" class="s',
                                       '<div id="export-merged" class=']
    assert all('dir="auto"' in b for b in blocks)
    assert all("unicode-bidi:isolate" in t for t in _tags(page))
    # The span tables' text cells too: "אשדוד" (gold's G1) in a cell of its own direction.
    assert '<td dir="auto">אשדוד</td>' in page


# ---- the SVG export: an image, so the columns are ours to compute (core.render.bidi) ------------


def _svg_lines(text: str, gold: list[highlight.SpanItem]) -> tuple[ET.Element, list[ET.Element],
                                                                   dict[str, list[ET.Element]]]:
    colours = highlight.label_colours(sorted({lab for it in gold for lab in it.labels}))
    root = ET.fromstring(svg.document_svg("d", text, gold, [], colours, gold_name="gold",
                                          pred_name="system"))
    lines = [t for t in root.iter(f"{SVG_NS}text") if t.get("font-family") == "monospace"]
    stripes: dict[str, list[ET.Element]] = {}
    for rect in root.iter(f"{SVG_NS}rect"):
        if rect.get("height") == "4":
            title = rect.find(f"{SVG_NS}title")
            assert title is not None and title.text
            stripes.setdefault(title.text.split(" ")[0], []).append(rect)
    return root, lines, stripes


def _extent(rects: list[ET.Element]) -> list[tuple[float, float]]:
    return sorted((float(r.get("x", "")), float(r.get("x", "")) + float(r.get("width", "")))
                  for r in rects)


def test_the_svg_export_draws_a_right_to_left_text_from_the_right() -> None:
    """Hebrew: the line starts at the right margin, and the stripe under אשדוד (offsets 8-13
    of "הנמל של אשדוד ...") is 8 columns from the right edge, not 8 from the left."""
    text, gold = _doc("rtl_gold.jsonl", "he2")
    root, lines, stripes = _svg_lines(text, gold)
    right = float(root.get("width", "")) - svg.MARGIN
    assert len(lines) == 2 and lines[0].text == text
    for line in lines:  # both annotations' copies of the text
        assert line.get("direction") == "rtl" and float(line.get("x", "")) == right
    (x0, x1), = _extent(stripes["G1"])
    assert (x0, x1) == pytest.approx((right - 13 * svg.CHAR_PX, right - 8 * svg.CHAR_PX),
                                     abs=0.1)
    # the span's id stands at the span's start, which is its right end
    ids = {t.text: t for t in root.iter(f"{SVG_NS}text") if t.text in ("G1", "G2")}
    assert float(ids["G1"].get("x", "")) == pytest.approx(x1, abs=0.1)
    assert ids["G1"].get("text-anchor") == "end"


def test_the_svg_export_keeps_a_number_left_to_right_inside_arabic() -> None:
    """A number in an Arabic line reads left to right (UAX #9, W/N/I rules): a span on its
    first two digits lies at the left end of the number's block, which is itself mirrored."""
    text = "ولد في 1990 في حيفا"
    start = text.index("1990")
    items = [highlight.SpanItem("G1", start, start + 2, ("Date",)),
             highlight.SpanItem("G2", 0, 3, ("Person",))]
    root, _, stripes = _svg_lines(text, items)
    right = float(root.get("width", "")) - svg.MARGIN
    left = right - len(text) * svg.CHAR_PX
    n = len(text)
    block = n - (start + 4)  # the number's first column from the left
    assert _extent(stripes["G1"]) == [pytest.approx((left + block * svg.CHAR_PX,
                                                     left + (block + 2) * svg.CHAR_PX), abs=0.1)]
    assert _extent(stripes["G2"]) == [pytest.approx((right - 3 * svg.CHAR_PX, right), abs=0.1)]


def test_the_svg_export_reverses_a_hebrew_word_inside_english() -> None:
    """A left-to-right text stays anchored at the left margin, and a span on the first two
    letters of a Hebrew word lies at the word's right end, where a browser shows them."""
    text = "see אבגד now"
    items = [highlight.SpanItem("G1", 4, 6, ("Place",)), highlight.SpanItem("G2", 0, 3, ("X",))]
    _, lines, stripes = _svg_lines(text, items)
    assert lines[0].get("direction") is None and float(lines[0].get("x", "")) == svg.MARGIN
    assert _extent(stripes["G1"]) == [pytest.approx((svg.MARGIN + 6 * svg.CHAR_PX,
                                                     svg.MARGIN + 8 * svg.CHAR_PX), abs=0.1)]
    assert _extent(stripes["G2"]) == [pytest.approx((svg.MARGIN, svg.MARGIN + 3 * svg.CHAR_PX),
                                                    abs=0.1)]


def test_a_span_across_a_direction_change_is_drawn_as_one_stripe_per_visual_piece() -> None:
    """"ab אב": a span over "b א" covers columns 1-2 and 4 (the Hebrew is reversed): two
    stripes, never one over the letter it does not cover."""
    text = "ab אב"
    _, _, stripes = _svg_lines(text, [highlight.SpanItem("G1", 1, 4, ("X",))])
    m, c = svg.MARGIN, svg.CHAR_PX
    assert _extent(stripes["G1"]) == [pytest.approx((m + c, m + 3 * c), abs=0.1),
                                      pytest.approx((m + 4 * c, m + 5 * c), abs=0.1)]


def test_the_svg_export_keeps_a_bracketed_latin_word_with_its_brackets_in_hebrew() -> None:
    """"ג (b) a", right to left: the brackets pair up and take the Hebrew direction (UAX #9
    rule N0), so a span over "(b)" lies under columns 2-4 from the left, one stripe; without
    N0 the closing bracket joined "a" and the stripe broke in two."""
    text = "ג (b) a"
    root, _, stripes = _svg_lines(text, [highlight.SpanItem("G1", 2, 5, ("X",))])
    right = float(root.get("width", "")) - svg.MARGIN
    left, c = right - len(text) * svg.CHAR_PX, svg.CHAR_PX
    assert _extent(stripes["G1"]) == [pytest.approx((left + 2 * c, left + 5 * c), abs=0.1)]


def test_invisible_bidi_controls_take_no_cell_of_the_80_cell_wrap() -> None:
    """LRM, RLM and an RLE ... PDF embedding are drawn as nothing: a line of 70 letters and 30
    such controls fits the 80 cells and is not wrapped, and a span after the controls lies
    where its letters are drawn (bugleft12 item 2)."""
    text = "a" * 35 + "\u200f" * 28 + "\u202b\u202c" + "b" * 35
    start = text.index("b")
    _, lines, stripes = _svg_lines(text, [highlight.SpanItem("G1", start, start + 2, ("X",))])
    assert len(lines) == 2  # one line, in each annotation's copy
    (x0, x1), = _extent(stripes["G1"])
    assert (x0, x1) == pytest.approx((svg.MARGIN + 35 * svg.CHAR_PX,
                                      svg.MARGIN + 37 * svg.CHAR_PX), abs=0.1)
    assert svg.wrap("a\u200eb " * 30, 80)[0] == (0, 107)  # 26 words and "a\u200eb": 80 cells


def test_a_bracket_pair_the_wrap_splits_is_drawn_as_its_paragraph_resolves_it() -> None:
    """"x אב (גד גד ... cd) הו", left to right, wrapped inside the brackets: the pair holds
    "cd", so "(" is left to right and shown right after אב (column 5), as a browser wrapping
    the paragraph shows it; before, the first line was resolved alone and "(" moved to the
    far end of the Hebrew run after it. The drawn text carries the levels as overrides."""
    text = "x אב (" + "גד " * 30 + "cd) הו"
    start = text.index("(")
    _, lines, stripes = _svg_lines(text, [highlight.SpanItem("G1", start, start + 1, ("X",))])
    assert len(lines) == 4  # two lines, in each annotation's copy
    (x0, x1), = _extent(stripes["G1"])
    assert (x0, x1) == pytest.approx((svg.MARGIN + 5 * svg.CHAR_PX,
                                      svg.MARGIN + 6 * svg.CHAR_PX), abs=0.1)
    first = lines[0]
    assert first.get("unicode-bidi") == "bidi-override"
    # "x ", then the Hebrew word at level 1 (RLO ... PDF), then " (" at level 0
    assert (first.text or "").startswith("x \u202eאב\u202c (\u202e")


def test_the_drawn_line_leaves_out_explicit_controls_whose_effect_it_carries() -> None:
    text = "x \u202bאב\u202c y"
    _, lines, _ = _svg_lines(text, [highlight.SpanItem("G1", 0, 1, ("X",))])
    assert lines[0].text == "x \u202eאב\u202c y"
