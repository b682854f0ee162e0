"""The compact rendering of the Documents page (``compact=True`` in :mod:`core.render.highlight`):
the same spans, tags, tooltips, colours and cues as the inline rendering, with classes styled by
one ``<style>`` (:func:`~core.render.highlight.compact_css`) instead of a style per span, and
every string from a file still escaped (docs/performance.md, issue 29, tenth pass)."""

from __future__ import annotations

import re

from core.render import highlight
from core.render.highlight import SpanItem
from core.render.palette import FILTER_OUTLINE, STATUS_COLOURS, STATUS_LINES

TEXT = "The <b>mayor</b>'s reckless plan will bankrupt every family & city, critics say."
GOLD = [SpanItem("G1", 4, 19, ("Loaded",)), SpanItem("G2", 6, 40, ("Doubt", "nothing")),
        SpanItem("G3", 45, 60, ("Fear",)), SpanItem("G4", 62, 68, ("Loaded",))]
PRED = [SpanItem("P1", 4, 15, ("Loaded",)), SpanItem("P2", 20, 40, ("Fear",)),
        SpanItem("P3", 70, 76, ("Doubt",))]
COLOURS = highlight.label_colours(["Loaded", "Doubt", "Fear", "nothing", "<i>x</i>"])
NOTES = {"G1": ("✓", "#009E73", "correct"), "G3": ("M", "#D55E00", "missed")}


def _lanes(compact: bool) -> str:
    return highlight.render_lanes(TEXT, GOLD, COLOURS, selected="G1", partners=("P1",),
                                  notes=NOTES, matched=("G3",), dom_id="left-doc",
                                  compact=compact)


def _tags(markup: str) -> list[tuple[str, str]]:
    """(class, data-span) of every tag and category mark, in order."""
    return re.findall(r'<span class="(ss-tag[^"]*|ss-cat)" dir="ltr" data-span="([^"]+)"', markup)


def test_compact_lanes_keep_every_tag_mark_tooltip_and_stripe() -> None:
    inline, compact = _lanes(False), _lanes(True)
    # The same tags and category marks, in the same order, with the same tooltips.
    assert [span for _, span in _tags(compact)] == [span for _, span in _tags(inline)]
    assert re.findall(r'title="([^"]*)"', compact) == re.findall(r'title="([^"]*)"', inline)
    # One stripe per label of each covering span, in its label's colour (G2's alternatives:
    # two colours on one stripe), as many as inline.
    assert compact.count("linear-gradient(") == inline.count("linear-gradient(")
    for label in ("Loaded", "Doubt", "Fear", "nothing"):
        assert (compact.count(f"linear-gradient({COLOURS[label]} 0 0)")
                == inline.count(f"linear-gradient({COLOURS[label]},{COLOURS[label]})"))
    # The text is all there, escaped (a tag of the text shows, it is not markup).
    assert compact.count("&lt;") == inline.count("&lt;") == 2 and "<b>" not in compact
    assert compact.count("&amp;") == inline.count("&amp;") == 1
    assert len(compact) < 0.75 * len(inline)  # what the classes save


def test_compact_lanes_mark_the_selected_its_partners_and_the_kept_by_class() -> None:
    markup = _lanes(True)
    tags = dict((span, cls) for cls, span in _tags(markup) if cls.startswith("ss-tag"))
    assert tags == {"G1": "ss-tag ss-on", "G2": "ss-tag", "G3": "ss-tag ss-kept",
                    "G4": "ss-tag"}
    assert markup.count("rgba(255,220,0,0.35)") >= 1  # the selected span's tint
    # G3 is kept by the filter: its segments are outlined (class), never tinted.
    g3 = markup[markup.rindex('<span class="ss-seg', 0, markup.index('data-span="G3"')):]
    assert g3.startswith('<span class="ss-seg ss-kept"')
    assert "rgba(255,220,0,0.35)" not in g3[:g3.index(">")]
    assert 'data-category="missed" title="G3: missed" style="border-color:#D55E00">M<' in markup
    assert "style=\"font-size" not in markup  # no span carries the shared styles inline


def test_compact_css_carries_the_cues_the_inline_styles_did() -> None:
    for theme, outline in FILTER_OUTLINE.items():
        css = highlight.compact_css(theme)
        assert css.startswith("<style>") and css.endswith("</style>") and css.count("<") == 2
        assert f".ss-c .ss-seg.ss-kept{{outline:1px dashed {outline}" in css
        assert ".ss-c .ss-tag.ss-on{font-weight:800}" in css
        assert ".ss-c .ss-tag.ss-kept{text-decoration:underline dashed}" in css
        # Each merged status: its tint and, the second cue, its underline style.
        for status, colour in STATUS_COLOURS.items():
            rule = css[css.index(f".ss-c .ss-{status}{{"):]
            rule = rule[:rule.index("}")]
            assert f"background:{colour}" in rule
            line = STATUS_LINES[status]
            assert (f"border-bottom:{line}" in rule) == (line != "none")
        assert f".ss-c .ss-hidden-missed{{border-bottom:{STATUS_LINES['missed']}}}" in css
    assert highlight.compact_css("light") == highlight.compact_css()  # one text per theme


def test_compact_merged_view_has_the_same_runs_classes_and_tooltips() -> None:
    inline = highlight.render_merged(TEXT, GOLD, PRED)
    compact = highlight.render_merged(TEXT, GOLD, PRED, compact=True)
    spans = r'<span class="([^"]+)" title="([^"]*)"'
    assert re.findall(spans, compact) == re.findall(spans, inline)
    assert re.sub(r"<[^>]+>", "", compact) == re.sub(r"<[^>]+>", "", inline)  # the same text
    assert "style=" not in compact and 'class="ss-doc ss-c ss-mv"' in compact
    assert len(compact) < 0.6 * len(inline)


def test_compact_legends_draw_one_element_per_chip_with_names_escaped() -> None:
    inline = highlight.legend(COLOURS)
    compact = highlight.legend(COLOURS, compact=True)
    assert compact.count("<span") == len(COLOURS) == inline.count("<span") // 2
    assert "&lt;i&gt;x&lt;/i&gt;" in compact and "<i>" not in compact
    assert f'style="--c:{COLOURS["Loaded"]}">Loaded</span>' in compact
    assert "⊥ (nothing)" in compact
    statuses = highlight.status_legend(compact=True)
    for status, line in STATUS_LINES.items():
        name = highlight.STATUS_NAMES[status]
        chip = statuses[:statuses.index(f">{name}</span>")]
        chip = chip[chip.rindex("<span"):]
        assert f"--c:{STATUS_COLOURS[status]}" in chip
        assert (f";--l:{line}" in chip) == (line != "none")  # the underline: a second cue


def test_a_category_mark_reads_on_the_dark_theme_too() -> None:
    """The marks' ink (#222222) sat on the page's own background: about 1.2:1 on the dark
    theme's; they now sit on MARK_BACKGROUND, in the inline and the compact styles alike."""
    from core.render.palette import STATUS_TEXT, contrast_ratio

    assert contrast_ratio(STATUS_TEXT, highlight.MARK_BACKGROUND) >= 4.5
    assert f"background:{highlight.MARK_BACKGROUND}" in highlight.compact_css("dark")


def test_marks_keep_their_colours_under_forced_colours() -> None:
    """Forced colours (Windows' contrast themes; Chromium's ``forced-colors: active``) replaced
    every background with the theme's: the lanes' stripes, the tags' label colours and the
    legends' swatches were gone, and a matched span had no cue left at all (docs/dashboard.md,
    "Accessibility"). Every container of marks opts out, compact or inline."""
    keep = "forced-color-adjust:none"
    for compact in (False, True):
        merged = highlight.render_merged(TEXT, GOLD, PRED, compact=compact)
        legends = (highlight.legend(COLOURS, compact=compact)
                   + highlight.status_legend(compact=compact))
        for markup in (_lanes(compact), merged, legends):
            divs = re.findall(r"<div [^>]*>", markup)
            # compact: the class that compact_css's rule below opts out
            assert divs and all(("ss-c" if compact else keep) in d for d in divs), divs
    css = highlight.compact_css()
    assert f".ss-doc.ss-c,.ss-legend.ss-c{{{keep}}}" in css
    assert keep in highlight.notes_legend(NOTES)
