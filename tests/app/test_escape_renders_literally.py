"""ui.escape.md: any string, put into Markdown, renders as its own text, with no link.

The CommonMark rendering is markdown-it-py's; GitHub-flavoured Markdown then turns ``http://``,
``www.`` and ``name@host.tld`` in the rendered text into links (the autolink-literal extension,
https://github.github.com/gfm/#autolinks-extension-). Its three patterns are restated below and
must find nothing in what :func:`ui.escape.md` produces.
"""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from ui.escape import md

_RENDER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
_JOINER = "\u2060"
_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")  # LRE ... PDI: one left open turns the line
# The GFM autolink literals: a URL starting with http(s):// or www., and an e-mail address.
_URL = re.compile(r"(?i)(?:https?://|www\.)[-.\w]")
_EMAIL = re.compile(r"[-.\w+]@[-\w]+(?:\.[-\w]+)+")
# Text that tends to hit Markdown, Streamlit or autolink syntax, mixed with any character.
_PIECES = st.sampled_from(
    ["http://", "HTTPS://", "www.", "WWW.", "@", "a@b.c", "mailto:", ":red[", "]", "$", "![",
     "](", "<", ">", "&amp;", "`", "*", "_", "~~", "#", "- ", "1. ", "|", "\\", ":smile:", ".",
     "\u202e", "\u2067", "\u202c"]
)
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=4)), max_size=12).map("".join)


def _literal(value: str) -> str:
    """What a reader should see for ``value``: one line, control characters and explicit bidi
    controls spelt out."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", _BREAKS.sub(" ", value))
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _html_text(value: str) -> str:
    return html.escape(value, quote=False).replace('"', "&quot;")


def _rendered(value: str) -> str:
    # Framed by letters so that leading spaces cannot start a code block nor be trimmed.
    return _RENDER.render(f"x{md(value)}x")


@settings(deadline=None, max_examples=400)
@given(_TEXT)
def test_escaped_text_renders_as_the_same_literal_text(value: str) -> None:
    expected = f"<p>x{_html_text(_literal(value))}x</p>\n"
    assert _rendered(value).replace(_JOINER, "") == expected.replace(_JOINER, "")


@settings(deadline=None, max_examples=400)
@given(_TEXT)
def test_escaped_text_holds_no_autolink_literal(value: str) -> None:
    shown = _rendered(value)
    assert not _URL.search(shown) and not _EMAIL.search(shown)


def test_a_document_id_with_an_at_sign_is_not_an_email_link() -> None:
    shown = _rendered("59@ayla.jsonl")
    assert shown.replace(_JOINER, "") == "<p>x59@ayla.jsonlx</p>\n"
    assert not _EMAIL.search(shown)  # failed before: "59@ayla.jsonl" became mailto:59@ayla.jsonl
