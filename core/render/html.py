"""HTML pieces shared by the report, the exported documents and the dashboard.

Every string that comes from an input (document ids and texts, labels, set names, metadata
values) goes through :func:`esc` (or :func:`xml_text` where the result must also be well-formed
XML) before it reaches the markup, so a document holding ``<script>`` shows those characters and
runs nothing.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(value: object) -> str:
    """``value`` as text that HTML shows and never runs."""
    return html.escape(str(value), quote=True)


def xml_text(value: object) -> str:
    """``value`` as text safe in HTML and XML content and attributes (quotes escaped; characters
    XML forbids replaced by U+FFFD).

    >>> xml_text('<script>alert("x")</script>\\x07')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\ufffd'
    """
    return html.escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)


def html_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None,
               *, cls: str = "") -> str:
    """``rows`` as an HTML table: numbers right-aligned (floats to 4 decimals), a missing or
    non-finite value as a dash, every other value escaped."""
    if not rows:
        return "<p><i>Nothing to show.</i></p>"
    columns = list(columns or rows[0].keys())

    def cell(v: Any) -> str:
        if v is None:
            return "<td class='na'>–</td>"
        if isinstance(v, float):
            return f"<td class='num'>{v:.4f}</td>" if np.isfinite(v) else "<td class='na'>–</td>"
        if isinstance(v, (int, np.integer)):
            return f"<td class='num'>{int(v)}</td>"
        return f"<td>{esc(v)}</td>"

    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(cell(r.get(c)) for c in columns) + "</tr>" for r in rows)
    # tabindex: a table wider than a phone scrolls sideways, and a keyboard can scroll it only
    # when it takes focus (WCAG 2.1 SC 2.1.1; axe-core's scrollable-region-focusable).
    return (f"<table class='{esc(cls)}' tabindex='0'><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")
