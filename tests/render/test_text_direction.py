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
from pathlib import Path

from core.render import highlight
from ui import curation_lanes

RTL = Path(__file__).resolve().parents[1] / "data" / "rtl"


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
