"""Short texts drawn as plain HTML (``st.html``) instead of Markdown (issue 29).

``st.caption`` and ``st.markdown`` send their text to the browser, which parses it as Markdown
on every run of the page. A caption or a line of bold text needs no parser: as HTML the browser
only sanitises it, and the page looks the same (docs/performance.md, issue 29, twentieth pass:
the pages' screenshots byte-identical). What it saves of the browser's heap is too small to
measure: on a page of 30 captions, a rerun allocated about as much with the same texts as
``st.html`` (each element's cost is React's and its styled wrappers', not the parser's).

A text is given as parts: a ``str`` is text, always escaped (a file name, a label, a document
id can hold ``<`` and ``&``); :func:`b` and :func:`em` mark a part bold or emphasised, as
``**...**`` and ``*...*`` did, their text escaped too. Inline code stays Markdown: Streamlit
draws it in the theme's own code colours, which plain HTML does not know.
:data:`CAPTION_CLASS` gets the look of ``st.caption`` and :data:`TEXT_CLASS` that of a line of
``st.markdown`` from the sidebar's style (``ui.sidebar.CAPTION_CSS``).

>>> caption_html("Spans & <labels>")
'<div class="ss-caption">Spans &amp; &lt;labels&gt;</div>'
>>> text_html(b("3"), " of ", b("<4>"), " listed")
'<div class="ss-text"><strong>3</strong> of <strong>&lt;4&gt;</strong> listed</div>'
>>> caption_html("a\\nb\\x07")
'<div class="ss-caption">a b\\\\x07</div>'
"""

from __future__ import annotations

import streamlit as st

from ui.escape import shown as _shown

CAPTION_CLASS = "ss-caption"
"""The class of a caption drawn as plain HTML (:func:`caption_html`); ``ui.sidebar.CAPTION_CSS``
gives it the look of ``st.caption``."""

TEXT_CLASS = "ss-text"
"""The class of a line of text drawn as plain HTML (:func:`text_html`), as ``st.markdown`` draws
one paragraph."""


class Markup(str):
    """A part already escaped: :func:`b` and :func:`em` make them."""


def b(text: object) -> Markup:
    """``text`` in bold, escaped (Markdown's ``**...**``)."""
    return Markup(f"<strong>{_shown(text)}</strong>")


def em(text: object) -> Markup:
    """``text`` emphasised, escaped (Markdown's ``*...*``)."""
    return Markup(f"<em>{_shown(text)}</em>")


def join(*parts: object) -> str:
    """The parts as HTML: a :class:`Markup` part as it is, any other escaped."""
    return "".join(p if isinstance(p, Markup) else _shown(p) for p in parts)


def caption_html(*parts: object) -> str:
    """The parts (:func:`join`) as a caption for ``st.html``."""
    return f'<div class="{CAPTION_CLASS}">{join(*parts)}</div>'


def text_html(*parts: object) -> str:
    """The parts (:func:`join`) as one paragraph of text for ``st.html``."""
    return f'<div class="{TEXT_CLASS}">{join(*parts)}</div>'


def caption(*parts: object) -> None:
    """Draw the parts as a caption (:func:`caption_html`)."""
    st.html(caption_html(*parts))


def text(*parts: object) -> None:
    """Draw the parts as a paragraph of text (:func:`text_html`)."""
    st.html(text_html(*parts))
