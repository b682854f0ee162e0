"""One highlighted document as a standalone file: HTML (the Documents page's view) and SVG.

Both show the two annotations of one document, each span a coloured stripe in its own lane
(overlaps never hide each other) with its id, a legend of the labels, and for HTML the merged
view and a table of the spans: the way displaCy's span visualiser shows spans (stripes under
the text, a label at the start), built here from our own :mod:`ui.highlight` pieces.

The files are self-contained (inline styles, no script, no external font, image or link), so
they open offline and can be mailed or put in a slide. Every string that comes from a file
(text, labels, set names, document id) is escaped: :mod:`ui.highlight` escapes what it draws,
and :func:`xml_text` escapes the rest, also dropping the characters XML 1.0 forbids (control
characters, lone surrogates), so that a document holding ``<script>`` shows those characters and
runs nothing, and the SVG stays well-formed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

from core.model import NOTHING
from core.segments import assign_lanes
from ui import highlight
from ui.highlight import SpanItem
from ui.palette import NOTHING_COLOUR

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: object) -> str:
    """``value`` as text safe in HTML and XML content and attributes (quotes escaped; characters
    XML forbids replaced by U+FFFD).

    >>> xml_text('<script>alert("x")</script>\\x07')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\ufffd'
    """
    return html.escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)


# ---- HTML ------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f1f1f;
background:#fff;max-width:980px;margin:24px auto;padding:0 16px}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
.ss-doc{max-height:none !important;overflow:visible !important}
table{border-collapse:collapse;font-size:0.9em}td,th{border:1px solid #ddd;padding:3px 8px;
text-align:left;vertical-align:top}
footer{margin-top:2em;color:#666;font-size:0.85em}
"""


def _span_table(items: Sequence[SpanItem], text: str | None) -> str:
    rows = "".join(
        f"<tr><td>{xml_text(it.id)}</td><td>{it.start}</td><td>{it.end}</td>"
        f"<td>{xml_text(it.label_text)}</td>"
        f"<td>{'' if text is None else xml_text(text[it.start:it.end])}</td></tr>"
        for it in items)
    return ("<table><thead><tr><th>span</th><th>start</th><th>end</th><th>label</th>"
            f"<th>text</th></tr></thead><tbody>{rows}</tbody></table>")


def document_html(doc_id: str, text: str | None, gold: Sequence[SpanItem],
                  pred: Sequence[SpanItem], colours: Mapping[str, str], *, gold_name: str,
                  pred_name: str, merged: tuple[Sequence[SpanItem], Sequence[SpanItem]]
                  | None = None) -> str:
    """A standalone HTML page: the legend, both annotations in lanes, the merged view
    (``merged``: the items as the metric compares them; default ``gold`` and ``pred``) and the
    spans of each side in a table. No script; every file-derived string escaped."""
    used = {lab for it in (*gold, *pred) for lab in it.labels}
    m_gold, m_pred = merged if merged is not None else (gold, pred)
    body = [
        f"<h1>Document {xml_text(doc_id)}</h1>",
        f"<p><b>{xml_text(gold_name)}</b> ({len(gold)} spans) and <b>{xml_text(pred_name)}</b> "
        f"({len(pred)} spans). Offsets are characters, [start, end).</p>",
        highlight.legend(colours, used),
        f"<h2>{xml_text(gold_name)}</h2>",
        highlight.render_lanes(text, gold, colours, dom_id="export-gold"),
        f"<h2>{xml_text(pred_name)}</h2>",
        highlight.render_lanes(text, pred, colours, dom_id="export-pred"),
        "<h2>Merged view</h2>",
        highlight.status_legend(),
        highlight.render_merged(text, m_gold, m_pred, dom_id="export-merged"),
        f"<h2>Spans of {xml_text(gold_name)}</h2>",
        _span_table(gold, text),
        f"<h2>Spans of {xml_text(pred_name)}</h2>",
        _span_table(pred, text),
        "<footer>Exported by SpanScope. A span tagged <code>A | B</code> may be matched by "
        "either label; ⊥ means it may be left unannotated.</footer>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>SpanScope: document {xml_text(doc_id)}</title><style>{_CSS}</style>"
            f"</head><body>{''.join(body)}</body></html>\n")


# ---- SVG -------------------------------------------------------------------------------------

FONT_PX = 14
CHAR_PX = 8.4  # the advance of a monospace glyph at FONT_PX (each line is stretched to fit)
LINE_GAP = 6
LANE_ROW = 13  # a lane: a 4 px stripe and the span id under its start
MARGIN = 16


def wrap(text: str, width: int) -> list[tuple[int, int]]:
    """``text`` cut into lines of at most ``width`` characters, at spaces where possible and at
    every line break: the (start, end) offsets of each line, line breaks left out.

    >>> wrap("ab cd ef\\ngh", 5)
    [(0, 5), (6, 8), (9, 11)]
    """
    lines: list[tuple[int, int]] = []
    start = 0
    for para in text.split("\n"):
        end_para = start + len(para)
        pos = start
        while end_para - pos > width:
            cut = text.rfind(" ", pos, pos + width + 1)
            if cut <= pos:
                lines.append((pos, pos + width))
                pos += width
            else:
                lines.append((pos, cut))
                pos = cut + 1
        lines.append((pos, end_para))
        start = end_para + 1
    return lines


def _colour(colours: Mapping[str, str], label: str) -> str:
    return NOTHING_COLOUR if label == NOTHING else colours.get(label, "#444444")


def _block(text: str, items: Sequence[SpanItem], colours: Mapping[str, str], lines:
           Sequence[tuple[int, int]], top: float, name: str) -> tuple[list[str], float]:
    """One annotation's text with its lanes, from ``top``: the SVG elements and the new top."""
    lanes = assign_lanes([it.interval for it in items])
    n_lanes = max(lanes, default=-1) + 1
    out = [f'<text x="{MARGIN}" y="{top + FONT_PX:.1f}" font-weight="700" '
           f'font-size="{FONT_PX}">{xml_text(name)} · {len(items)} span(s)</text>']
    y = top + FONT_PX + LINE_GAP + 4
    for a, b in lines:
        base = y + FONT_PX
        line = text[a:b].replace("\t", " ")
        if line:
            out.append(f'<text x="{MARGIN}" y="{base:.1f}" font-family="monospace" '
                       f'font-size="{FONT_PX}" xml:space="preserve" '
                       f'textLength="{len(line) * CHAR_PX:.1f}" '
                       f'lengthAdjust="spacingAndGlyphs">{xml_text(line)}</text>')
        for it, lane in zip(items, lanes, strict=True):
            s, e = max(it.start, a), min(it.end, b)
            if s >= e and not (it.start == it.end == s and a <= s <= b):
                continue
            x = MARGIN + (s - a) * CHAR_PX
            w = max((e - s) * CHAR_PX, 2.0)
            row = base + 4 + lane * LANE_ROW
            piece = w / len(it.labels)
            tip = xml_text(f"{it.id} [{it.start}, {it.end}) {it.label_text}")
            for k, lab in enumerate(it.labels):  # alternatives split the stripe
                out.append(f'<rect x="{x + k * piece:.1f}" y="{row:.1f}" width="{piece:.1f}" '
                           f'height="4" fill="{xml_text(_colour(colours, lab))}">'
                           f"<title>{tip}</title></rect>")
            if it.start >= a:
                # Dark ids: a light label colour (Okabe-Ito yellow) is unreadable as text; the
                # stripe above carries the colour.
                out.append(f'<text x="{x:.1f}" y="{row + 12:.1f}" font-size="9" '
                           f'font-weight="600" fill="#333333">'
                           f"{xml_text(it.id)}<title>{tip}</title></text>")
        y = base + 4 + n_lanes * LANE_ROW + LINE_GAP
    return out, y + 8


def document_svg(doc_id: str, text: str | None, gold: Sequence[SpanItem],
                 pred: Sequence[SpanItem], colours: Mapping[str, str], *, gold_name: str,
                 pred_name: str, width_chars: int = 80) -> str:
    """A standalone SVG: the document's text twice (the two annotations), each span a stripe in
    its lane with its id, and a legend of the labels. Without a text, the spans are listed."""
    if text is None:
        listing = [f"{name}: " + "; ".join(f"{it.id} [{it.start}, {it.end}) {it.label_text}"
                                           for it in items)
                   for name, items in ((gold_name, gold), (pred_name, pred))]
        text = "No text is available for this document.\n" + "\n".join(listing)
        gold, pred = [], []
    lines = wrap(text, width_chars)
    longest = max((b - a for a, b in lines), default=0)
    width = max(2 * MARGIN + longest * CHAR_PX, 360)
    parts = [f'<text x="{MARGIN}" y="{MARGIN + 16}" font-size="18" font-weight="700">'
             f"Document {xml_text(doc_id)}</text>"]
    top = MARGIN + 28.0
    for name, items in ((gold_name, gold), (pred_name, pred)):
        block, top = _block(text, items, colours, lines, top, name)
        parts.extend(block)
    used = sorted({lab for it in (*gold, *pred) for lab in it.labels})
    x, y = float(MARGIN), top + 6
    for lab in used:
        shown = "⊥ (nothing)" if lab == NOTHING else lab
        step = 26 + len(shown) * 7.2
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


def file_stem(doc_id: str) -> str:
    """A file name for a document id (characters outside ``[A-Za-z0-9._-]`` become ``_``).

    >>> file_stem("../a b/<1>")
    'document_.._a_b__1_'
    """
    return "document_" + re.sub(r"[^A-Za-z0-9._-]", "_", doc_id)[:80]


def download_buttons(doc_id: str, text: str | None, gold: Sequence[SpanItem],
                     pred: Sequence[SpanItem], colours: Mapping[str, str], *, gold_name: str,
                     pred_name: str, merged: tuple[Sequence[SpanItem], Sequence[SpanItem]]
                     | None = None, key: str = "dl_doc_export") -> None:
    """The Documents page's "HTML" and "SVG" download buttons for the document shown (each file
    is built when its button is clicked)."""
    import streamlit as st

    stem = file_stem(doc_id)
    row = st.container(horizontal=True, gap="small")
    row.download_button(
        "⬇️ HTML", key=f"{key}_html", file_name=f"{stem}.html", mime="text/html",
        data=lambda: document_html(doc_id, text, gold, pred, colours, gold_name=gold_name,
                                   pred_name=pred_name, merged=merged),
        help="This document highlighted as one standalone HTML page (both annotations, legend, "
        "merged view, span tables; no script): open it offline or mail it.")
    row.download_button(
        "⬇️ SVG", key=f"{key}_svg", file_name=f"{stem}.svg", mime="image/svg+xml",
        data=lambda: document_svg(doc_id, text, gold, pred, colours, gold_name=gold_name,
                                  pred_name=pred_name),
        help="This document highlighted as one SVG image (both annotations in lanes, legend), "
        "for a slide or a paper.")
