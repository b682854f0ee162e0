"""File-derived strings shown as text, never as Markdown or HTML.

Document ids, file names, set names and labels come from uploaded files. Streamlit renders the
strings given to ``st.markdown``, ``st.caption``, ``st.info``/``st.error``, ``st.subheader``,
widget labels and the like as GitHub-flavoured Markdown (images, links, ``:red[...]`` directives,
``$...$`` formulas), so a document id ``![](http://host/x.png)`` would make every visitor's browser
fetch that URL. Every such string goes through :func:`md` (or :func:`code` inside backticks)
before it is put into Markdown; :mod:`core.render.highlight` escapes HTML for ``st.html`` the
same way. Plotly draws its titles, tick labels, legends, hover text and bar text from a
pseudo-HTML of its own: such a string goes through :func:`plot` once, in the figure builder.

>>> md("![](http://h/e.png)") == "\\\\!\\\\[\\\\]\\\\(http\\\\:/\\u2060/h/e\\\\.png\\\\)"
True
>>> md("59@ayla.jsonl") == "59@\\u2060ayla\\\\.jsonl"
True
>>> print(code("a`b"))
`` a`b ``
>>> plot('<b>"x"</b> & %{y}')
'&lt;b&gt;"x"&lt;/b&gt; &amp; &#37;{y}'
"""

from __future__ import annotations

import html
import re

# CommonMark escapes any ASCII punctuation with a backslash; these are the characters that start
# or end Markdown, GFM or Streamlit syntax (":" for ":red[...]" and emoji shortcodes, "$" for
# formulas, "<" and ">" for HTML and autolinks, "&" for entities).
_SPECIAL = set("\\`*_{}[]()#+-.!|<>$~:&")
_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
# The explicit bidi controls (embeddings, overrides, isolates and their ends, LRE ... PDI):
# invisible, and one left open draws the rest of its paragraph in its direction (an override
# in a set name reversed the rest of a caption, and the names beside it). Spelt out as
# ``\u202e``; right-to-left text itself is left to the browser.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")

# GitHub-flavoured Markdown turns "http://...", "www...." and "name@host.tld" in plain text into
# links after parsing, escapes or not; a WORD JOINER (U+2060, invisible) between the slashes,
# after "www" or after "@" prevents it (a domain starts with a letter, digit, "-" or "_").
_SCHEME = re.compile(r"(?<=:)//")
_WWW = re.compile(r"(?i)www(?=\.)")
_AT = re.compile(r"@(?=[-\w])")


def _spelt(text: str) -> str:
    """``text`` with its control characters and explicit bidi controls spelt out."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def md(value: object) -> str:
    """``value`` as Markdown that renders as its text, on one line, with no link.

    Line breaks become spaces (a name must not start a heading or a list); control characters are
    shown as ``\\xNN``, explicit bidi controls as ``\\u202e`` (one left open reversed the rest of
    the line); an invisible word joiner keeps ``http://``, ``www.`` and ``a@b.c`` from
    becoming links.
    """
    text = _spelt(_BREAKS.sub(" ", str(value)))
    text = _WWW.sub(lambda m: m.group() + "\u2060", _SCHEME.sub("/\u2060/", text))
    text = _AT.sub("@\u2060", text)
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in text)


def literal(value: object) -> str:
    """``value`` on one line with its control characters spelt out, as :func:`md` shows it, but
    not escaped: for a text escaped as HTML (``ui.plain``)."""
    return _spelt(_BREAKS.sub(" ", str(value)))


def code(value: object) -> str:
    """``value`` as an inline code span: fenced with more backticks than it holds in a row.

    Inside a code span Markdown shows everything literally, so only backticks need care.
    """
    text = _spelt(_BREAKS.sub(" ", str(value)))
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or text.startswith(" ") or text.endswith(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def attr(value: object) -> str:
    """``value`` escaped for HTML text or a quoted attribute (``st.html``)."""
    return html.escape(str(value), quote=True)


def shown(value: object) -> str:
    """``value`` as HTML text or a quoted attribute (``st.html``) that shows it as :func:`md`
    does: on one line, its control characters and explicit bidi controls spelt out, escaped.
    For a name or a label in a sentence (``ui.plain``, the Annotators page's tiles and matrix):
    :func:`attr` alone left a right-to-left override in, which turned the rest of the line.

    >>> shown("a<b>\u202ec")
    'a&lt;b&gt;\\\\u202ec'
    """
    return attr(literal(value))


def plot(value: object) -> str:
    """``value`` as text Plotly draws as written: a title, an axis's category, a trace's name,
    hover or bar text, a ``customdata`` field a hover template shows.

    Plotly reads ``<b>``, ``<i>``, ``<br>``, ``<a href>``, ``<sup>``, ``<sub>``, ``<span
    style>`` and ``&...;`` entities in every string it draws, and fills ``%{...}`` in titles
    and templates: a label ``a<br>b`` drew on two lines, a document id ``%{x}`` drew as
    nothing in a title. ``&``, ``<``, ``>`` and ``%`` become entities, which Plotly turns back
    into the characters when it draws (after filling its templates). Not :func:`html.escape`:
    Plotly knows no ``&quot;`` and drew it as written. Numbers and None are left to the caller;
    everything is text here.
    """
    text = str(value)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("%", "&#37;"))
