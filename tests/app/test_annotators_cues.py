"""The Annotators page's charts never tell their series apart by colour alone (developers'
guide: colour carries meaning only with a second cue): the alignment's labels by marker
symbol, the bars against the gold and the majority by fill pattern, the matrix's cells (its
table and its chart) by the value written in each."""

from __future__ import annotations

import html
import re
from typing import Any

import pandas as pd

from core.metrics.agreement import Study, char_agreement
from core.model import AnnotationSet, Span
from core.render import highlight
from core.render.palette import CATEGORY, MARKER_SYMBOLS, ink_on
from ui import annotators


def _alignment(labels: list[str]) -> dict[str, Any]:
    """Three annotators, each with one unit of every label (overlapping units of one annotator
    included), the units of each label aligned across annotators."""
    who = ["ann1", "ann2", "ann3"]
    units = [{"annotator": w, "start": 10 * k + i, "end": 10 * k + i + 15, "label": lab}
             for i, w in enumerate(who) for k, lab in enumerate(labels)]
    rows = [{"units": {w: i * len(labels) + k for i, w in enumerate(who)}}
            for k in range(len(labels))]
    return {"annotators": who, "units": units, "alignments": rows}


def test_each_label_of_the_alignment_has_its_own_marker_symbol() -> None:
    # as many labels as there are symbols: each its own, shown in its legend entry too
    labels = [f"label {k:02d}" for k in range(len(MARKER_SYMBOLS))]
    colours = highlight.label_colours(labels)
    fig = annotators.alignment_figure(_alignment(labels), colours, title="t")
    series = [t for t in fig.data if t.name in labels]
    assert [t.name for t in series] == sorted(labels)
    symbols = [t.marker.symbol for t in series]
    assert len(set(symbols)) == len(labels)
    assert all("markers" in t.mode and max(t.marker.size) > 0 for t in series)
    # one visible mark per unit (its middle), none at its ends
    for t in series:
        marks = [x for x, size in zip(t.x, t.marker.size, strict=True) if size]
        assert len(marks) == 3
    assert fig.layout.legend.itemsizing == "constant"  # the legend's symbol at full size
    # the links between aligned units: grey and dotted, not a colour
    links = [t for t in fig.data if t.name == "aligned units"]
    assert links and links[0].line.dash == "dot"


def test_the_symbol_is_drawn_in_an_ink_that_reads_on_the_label_colour() -> None:
    labels = ["dark", "light"]
    colours = {"dark": CATEGORY[4], "light": CATEGORY[3]}  # blue, yellow
    fig = annotators.alignment_figure(_alignment(labels), colours, title="t")
    ink = {t.name: t.marker.color for t in fig.data if t.name in labels}
    assert ink == {"dark": "#ffffff", "light": "#222222"}


def test_the_bars_against_the_gold_and_the_majority_differ_by_pattern() -> None:
    table = pd.DataFrame({"annotator": ["x", "y", "x", "y"], "char-kappa": [0.5, 0.6, 0.7, 0.8],
                          "against": ["gold", "gold", "majority", "majority"]})
    fig = annotators.against_bars(table, "char-kappa", title="t")
    shapes = [bar.marker.pattern.shape or "" for bar in fig.data]
    assert len(shapes) == 2 and len(set(shapes)) == 2


def test_the_matrix_writes_every_value_in_its_cell() -> None:
    sets = [AnnotationSet(n, {"d": (Span(0, 4 + i, "A"),)}, role="annotator")
            for i, n in enumerate(("a", "b", "c"))]
    kappa, _ = char_agreement(Study.from_sets(sets, {"d": "x" * 10}))
    fig = annotators.heatmap(kappa, key=None, title="t")
    values = fig.data[1]
    for row, texts in zip(values.z, values.text, strict=True):
        for z, text in zip(row, texts, strict=True):
            assert (z is None and text == "") or text == f"{z:.3f}"
    assert values.texttemplate == "%{text}"
    assert sum(text != "" for texts in values.text for text in texts) == 6


def test_the_matrix_table_writes_every_value_on_its_colour_with_readable_ink() -> None:
    # Tenth pass: the first screen's matrix is an HTML table; the number is the second cue of
    # each cell's colour, its ink chosen for contrast, and the pair is in the row and column
    # headers (and the hover title) for a screen reader.
    sets = [AnnotationSet(n, {"d": (Span(0, 4 + i, "A"),)}, role="annotator")
            for i, n in enumerate(("a", "b", "<c>"))]
    kappa, _ = char_agreement(Study.from_sets(sets, {"d": "x" * 10}))
    body = annotators.matrix_html(kappa, kappa.annotators, key=None, title="κ <t>")
    assert "<caption>κ &lt;t&gt;</caption>" in body and "&lt;c&gt;" in body  # escaped
    assert "<c>" not in body
    cells = re.findall(r'<td style="background:(#[0-9a-f]{6});color:(#[0-9a-f]{6})"'
                       r'(?: title="([^"]*)")?(?: data-value="([^"]*)")?>([^<]*)</td>', body)
    assert len(cells) == 9
    values = kappa.matrix()
    who = kappa.annotators
    for (fill, ink, title, value, text), (a, b) in zip(
            cells, [(a, b) for a in who for b in who], strict=True):
        assert ink == ink_on(fill)
        if a == b:
            assert (fill, text, value) == ("#eeeeee", "—", "")
        else:
            assert float(value) == values[a][b] and text == f"{values[a][b]:.3f}"
            assert html.unescape(title) == f"{a} · {b}: {values[a][b]:.4f}"
    assert sum(fill != "#eeeeee" for fill, *_ in cells) == 6


def test_a_heading_and_note_drawn_in_the_tiles_and_matrix_elements_are_escaped() -> None:
    # Tenth pass, second cut: the section's heading (and the tiles' note) are in their HTML
    # element, a real <h2> (a screen reader's heading list still finds it), text escaped.
    tiles = annotators.tiles_html([("γ", "0.5", "help", [])], heading="All <2> sets",
                                  note="why <b>")
    assert tiles.count('<h2 class="ann-h">All &lt;2&gt; sets</h2>') == 1
    assert tiles.endswith('<p class="ann-why">why &lt;b&gt;</p>') and "<b>" not in tiles
    assert "<h2" not in annotators.tiles_html([("γ", "0.5", "help", [])])
    body = annotators.matrix_html(None, ["a", "b"], key=None, title="t", heading="<Pairs>")
    assert body.index('<h2 class="ann-h">&lt;Pairs&gt;</h2>') < body.index("<table>")
