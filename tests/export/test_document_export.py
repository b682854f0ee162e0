"""One highlighted document as standalone HTML and SVG (core.render.highlight, core.render.svg;
the buttons in ui.export; issue 16 item 10): both annotations, a legend, no script, nothing
fetched, every file-derived string escaped (a ``<script>`` text, label, set name and document
id), and the SVG well-formed XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from core.model import NOTHING, AnnotationSet, Span
from core.render import highlight, svg
from ui import export

SCRIPT = '<script>alert("x")</script>'
TEXT = f"Hello {SCRIPT} and <img src=x onerror=alert(1)> world.\nSecond line \x07 here."
SVG_NS = "{http://www.w3.org/2000/svg}"


def _items() -> tuple[list[highlight.SpanItem], list[highlight.SpanItem], dict[str, str]]:
    gold = AnnotationSet("gold", {"d": (Span(6, 34, SCRIPT), Span(6, 34, NOTHING),
                                        Span(39, 70, "Doubt"))}, "gold", alternatives=True)
    pred = AnnotationSet("p", {"d": (Span(6, 20, SCRIPT), Span(10, 30, "Doubt"))}, "system")
    g = highlight.span_items(gold, "d", "G")
    p = highlight.span_items(pred, "d", "P")
    colours = highlight.label_colours([SCRIPT, "Doubt", NOTHING])
    return g, p, colours


def _html(text: str | None = TEXT) -> str:
    g, p, colours = _items()
    return highlight.document_html(f"d{SCRIPT}", text, g, p, colours, gold_name=f"gold{SCRIPT}",
                                pred_name="system <i>a</i>")


def _svg(text: str | None = TEXT, width: int = 30) -> str:
    g, p, colours = _items()
    return svg.document_svg(f"d{SCRIPT}", text, g, p, colours, gold_name=f"gold{SCRIPT}",
                               pred_name="system <i>a</i>", width_chars=width)


def test_html_is_standalone_with_both_annotations_and_a_legend() -> None:
    page = _html()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert 'id="export-gold"' in page and 'id="export-pred"' in page
    assert 'id="export-merged"' in page and "ss-legend" in page
    for span_id in ("G1", "G2", "P1", "P2"):
        assert f'data-span="{span_id}"' in page
    assert "Doubt" in page and "⊥ (nothing)" in page


@pytest.mark.parametrize("render", [_html, _svg])
def test_no_script_nothing_fetched_every_string_escaped(render) -> None:
    page = render()
    assert not re.search(r"<\s*script", page, re.I)
    assert not re.search(r"<\s*(img|iframe|link|object|embed)\b", page, re.I)
    # No attribute that runs or fetches anything (the escaped text may spell "src=" as text).
    assert not re.search(r"<[^>]*\s(on[a-z]+|src|href)\s*=", page, re.I)
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page  # text, label, names
    assert "&lt;i&gt;a&lt;/i&gt;" in page


def test_svg_is_well_formed_with_a_stripe_per_label_and_a_legend() -> None:
    root = ET.fromstring(_svg())
    assert root.tag == f"{SVG_NS}svg"
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]
    assert any(SCRIPT in t for t in texts)  # the escaped text reads back as the characters
    assert "\x07" not in "".join(texts) and "\ufffd" in "".join(texts)
    stripes = [r for r in root.iter(f"{SVG_NS}rect") if r.get("height") == "4"]
    # G1 has two alternatives (its stripe is split), G2, P1, P2: 5 pieces, more where a span
    # crosses a line (width 30 wraps the text).
    assert len(stripes) >= 5
    assert {SCRIPT, "Doubt", "⊥ (nothing)"} <= set(texts)  # the legend
    ids = {t.text for t in root.iter(f"{SVG_NS}text") if re.fullmatch(r"[GP]\d", t.text or "")}
    assert ids == {"G1", "G2", "P1", "P2"}


def test_without_a_text_both_formats_list_the_spans() -> None:
    assert "No text is available" in _html(None)
    root = ET.fromstring(_svg(None, width=200))
    shown = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG_NS}text"))
    assert "No text is available" in shown and "G1 [6, 34)" in shown


def test_wrap_keeps_offsets_and_breaks_at_spaces_and_newlines() -> None:
    text = "one two three four\nfive"
    lines = svg.wrap(text, 9)
    assert [text[a:b] for a, b in lines] == ["one two", "three", "four", "five"]
    assert svg.wrap("abcdefghij", 4) == [(0, 4), (4, 8), (8, 10)]


def test_file_stem_is_safe() -> None:
    assert export.file_stem("../../etc/passwd") == "document_.._.._etc_passwd"
    assert export.file_stem(SCRIPT).startswith("document__script_")



def test_html_keeps_the_category_marks_the_page_shows() -> None:
    from core.render.palette import ERROR_COLOURS, ERROR_MARKS

    g, p, colours = _items()

    def note(category: str) -> tuple[str, str, str]:
        return ERROR_MARKS[category], ERROR_COLOURS[category], category

    notes = ({"G1": note("boundary"), "G2": note("missed")},
             {"P1": note("boundary"), "P2": note("label")})
    page = highlight.document_html("d", TEXT, g, p, colours, gold_name="gold", pred_name="p",
                                   notes=notes)
    # The lanes carry the same marks as the Documents page (render_lanes with the same notes).
    for dom_id, side in (("export-gold", notes[0]), ("export-pred", notes[1])):
        lanes = highlight.render_lanes(TEXT, g if side is notes[0] else p, colours,
                                       dom_id=dom_id, notes=side)
        assert lanes in page
        for span_id, (mark, _, category) in side.items():
            assert (f'data-span="{span_id}" data-category="{category}"' in page
                    and f">{mark}</span>" in page)
    legend = page[page.index("ss-cat-legend"):]
    legend = legend[:legend.index("</div>")]
    assert [c for c in ("boundary", "missed", "label") if c in legend] == [
        "boundary", "missed", "label"]
    assert "<th>category</th>" in page and "<td>M missed</td>" in page
    # Without notes: no category legend, no category column (as before).
    plain = _html()
    assert "ss-cat" not in plain and "<th>category</th>" not in plain


def test_the_exported_page_has_a_main_landmark_and_readable_tags() -> None:
    """axe-core on an exported document (docs/dashboard.md, "Accessibility"): no main landmark
    (a screen reader's "skip to main" had nowhere to go), and a tag's ink on Tol's rose at 4.3:1
    where WCAG 2.1 SC 1.4.3 asks 4.5."""
    from core.render.palette import contrast_ratio

    page = _html()
    main_part = page.split("<main>")[1].split("</main>")[0]
    assert page.count("<main>") == 1 and "<h1>" in main_part and "<table>" in main_part
    g, p, colours = _items()
    rose = {lab: "#CC6677" for lab in colours}
    page = highlight.document_html("d", TEXT, g, p, rose, gold_name="g", pred_name="p")
    inks = set(re.findall(r"background:#CC6677;color:(#\w+)", page))
    assert inks and all(contrast_ratio("#CC6677", ink) >= 4.5 for ink in inks), inks
