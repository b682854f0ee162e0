"""The Documents page's downloads of one highlighted document: HTML and SVG.

The files are built by :func:`core.render.highlight.document_html` and
:func:`core.render.svg.document_svg` (self-contained, no script, every file-derived string
escaped); this module names them and draws the buttons.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from core.render.highlight import Notes, SpanItem, document_html
from core.render.svg import document_svg


def file_stem(doc_id: str) -> str:
    """A file name for a document id (characters outside ``[A-Za-z0-9._-]`` become ``_``).

    >>> file_stem("../a b/<1>")
    'document_.._a_b__1_'
    """
    return "document_" + re.sub(r"[^A-Za-z0-9._-]", "_", doc_id)[:80]


def download_buttons(doc_id: str, text: str | None, gold: Sequence[SpanItem],
                     pred: Sequence[SpanItem], colours: Mapping[str, str], *, gold_name: str,
                     pred_name: str, merged: tuple[Sequence[SpanItem], Sequence[SpanItem]]
                     | None = None, notes: tuple[Notes, Notes] | None = None,
                     key: str = "dl_doc_export") -> None:
    """The Documents page's "HTML" and "SVG" download buttons for the document shown (each file
    is built when its button is clicked; a click does not rerun the page, whose redraw could
    replace the button while its file is fetched). ``notes``: the marks shown after each span's
    tag on the page (the error categories, :func:`ui.errors.notes`), kept in the HTML."""
    import streamlit as st

    stem = file_stem(doc_id)
    row = st.container(horizontal=True, gap="small")
    row.download_button(
        "⬇️ HTML", key=f"{key}_html", file_name=f"{stem}.html", mime="text/html",
        on_click="ignore",
        data=lambda: document_html(doc_id, text, gold, pred, colours, gold_name=gold_name,
                                   pred_name=pred_name, merged=merged, notes=notes),
        help="This document highlighted as one standalone HTML page (both annotations, legend, "
        "error-category marks, merged view, span tables; no script): open it offline or mail "
        "it.")
    row.download_button(
        "⬇️ SVG", key=f"{key}_svg", file_name=f"{stem}.svg", mime="image/svg+xml",
        on_click="ignore",
        data=lambda: document_svg(doc_id, text, gold, pred, colours, gold_name=gold_name,
                                  pred_name=pred_name),
        help="This document highlighted as one SVG image (both annotations in lanes, legend), "
        "for a slide or a paper.")
