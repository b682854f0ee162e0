"""Captions and lines of bold text drawn as plain HTML (``ui.plain``; issue 29, twentieth pass).

``st.caption`` and ``st.markdown`` are parsed as Markdown in the browser on every run of a page;
the texts below need no parser and are ``st.html``. Each test says which elements of a page are
HTML now, that the text is the one the Markdown showed, and that a name from a file is escaped
(a hostile set name on every page): never a tag of its own, shown as written.
"""

from __future__ import annotations

import html

from streamlit.testing.v1 import AppTest

from core.model import AnnotationSet, Span
from tests.app.conftest import app_on_sets, plain_texts
from ui import escape, plain, sidebar

HOSTILE = '<img src=x onerror=alert(1)>**b**&amp;'
"""A set name that is HTML, Markdown and an entity at once."""


def _sets() -> tuple[dict[str, str | None], list[AnnotationSet]]:
    texts: dict[str, str | None] = {"d1": "Fear sells: they will take everything you own.",
                                    "d2": "The quick brown fox jumps over the lazy dog."}
    gold = AnnotationSet("gold", {"d1": (Span(0, 4, "Fear"), Span(12, 22, "Loaded")),
                                  "d2": (Span(4, 9, "Doubt"),)}, "gold")
    system = AnnotationSet(HOSTILE, {"d1": (Span(0, 4, "Fear"),), "d2": (Span(4, 15, "Doubt"),)},
                           "system")
    return texts, [gold, system]


def _page(page: str) -> AppTest:
    texts, sets = _sets()
    return app_on_sets(sets, texts, page, key="test:plain-hostile", role="gold")


def _no_tag_from_the_name(at: AppTest) -> None:
    """No HTML element of the page carries the hostile name's tag; where the name is in one of
    the plain texts, it is escaped there and reads back as written."""
    for h in at.get("html"):
        assert "<img src=x" not in h.proto.body
    for h in at.main.get("html"):
        if HOSTILE in html.unescape(h.proto.body):
            assert html.escape(HOSTILE) in h.proto.body


def test_plain_html_escapes_every_part_and_marks_only_the_marked_ones() -> None:
    assert plain.caption_html("a <b> & c") == '<div class="ss-caption">a &lt;b&gt; &amp; c</div>'
    assert plain.text_html(plain.b("<x>"), " and ", plain.em("*y*")) == (
        '<div class="ss-text"><strong>&lt;x&gt;</strong> and <em>*y*</em></div>')
    # a line break and a control character as ui.escape.md shows them in Markdown
    assert plain.caption_html("a\nb\x07") == '<div class="ss-caption">a b\\x07</div>'
    # the captions' look, and Markdown's weight of bold text and its breaking of long words
    assert f".{plain.CAPTION_CLASS}{{opacity:.75}}" in sidebar.CAPTION_CSS
    assert ":is(.ss-caption,.ss-text) strong{font-weight:600}" in sidebar.CAPTION_CSS
    assert "word-break:break-word;overflow-wrap:break-word" in sidebar.CAPTION_CSS


def test_errors_categories_caption_is_html_with_the_categories_in_bold() -> None:
    at = _page("pages/errors.py")
    said = [t for t in plain_texts(at.main) if t.startswith("Every reference span")]
    assert len(said) == 1 and "correct: same boundaries, same label; label:" in said[0]
    body = next(h.proto.body for h in at.main.get("html") if "Every reference span" in h.proto.body)
    assert "<strong>correct</strong>" in body and "<strong>spurious</strong>" in body
    assert any(t.startswith("Click a link below") for t in plain_texts(at.main))
    assert not [c for c in at.caption if c.value.startswith(("Every reference", "Click a link"))]
    _no_tag_from_the_name(at)


def test_differences_texts_are_html_and_the_names_escaped() -> None:
    at = _page("pages/differences.py")
    texts = plain_texts(at.main)
    # the set names from the file, read back as written (HTML-escaped in the element)
    assert f"The labels of gold and {HOSTILE} have no taxonomy" in " ".join(texts)
    assert "Why the texts differ" in texts
    assert any(t.startswith("The texts where the two metrics differ most (|MAFALDA F1")
               for t in texts)
    assert any(t.startswith("weight pooled: the text's share") for t in texts)
    assert any("texts score differently" in t for t in texts)
    assert not [m for m in at.markdown if "Why the texts differ" in m.value]
    # the page's caption holds inline code: still Markdown (the theme's code colours)
    assert any("`core.metrics.differences.rule_score`" in c.value for c in at.caption)
    _no_tag_from_the_name(at)


def test_scores_overall_line_is_html_with_the_same_numbers() -> None:
    at = _page("pages/scores.py")
    overall = [t for t in plain_texts(at.main) if t.startswith("P ")]
    assert len(overall) == 1 and " · R " in overall[0] and " · F1 " in overall[0]
    assert not [c for c in at.caption if c.value.startswith("P ")]
    _no_tag_from_the_name(at)


def test_labels_captions_are_html() -> None:
    at = _page("pages/labels.py")
    texts = plain_texts(at.main)
    assert "Choose a cell above, or click one in the heatmap." in texts
    assert any(t.endswith("Click a cell to list its spans.") for t in texts)
    assert not [c for c in at.caption if c.value.startswith("Choose a cell")]
    _no_tag_from_the_name(at)


def test_documents_stepper_caption_is_html() -> None:
    at = _page("pages/documents.py")
    assert "Document 1 of 2 in this order" in plain_texts(at.main)
    assert not [c for c in at.caption if "in this order" in c.value]
    _no_tag_from_the_name(at)


RLO = "\u202e"
"""RIGHT-TO-LEFT OVERRIDE: invisible, it draws everything after it right to left, to the end
of its paragraph when nothing closes it."""


def test_a_bidi_override_in_a_name_is_spelt_out_not_obeyed() -> None:
    """A set name holding an explicit bidi control (an override, an embedding, an isolate or
    their ends, U+202A-U+202E and U+2066-U+2069) is shown with it spelt out, as a control
    character is: left in, an unclosed override drew the rest of the caption right to left
    ("... neither gold nor ‮txt.exe annotates them." read backwards), in plain HTML as in
    Markdown, and the two names on either side of it looked like other names."""
    for control in ("\u202a", "\u202b", "\u202c", "\u202d", RLO, "\u2066", "\u2067",
                    "\u2068", "\u2069"):
        shown = plain.caption_html(f"neither a{control}b nor c")
        assert control not in shown, repr(control)
        assert f"a\\u{ord(control):04x}b" in shown
        assert control not in escape.md(f"a{control}b")
        assert escape.md(f"a{control}b") == f"a\\\\u{ord(control):04x}b"
        assert control not in escape.code(f"a{control}b")
    # right-to-left text itself is left as it is: its direction is the browser's to find
    assert plain.caption_html("ספר") == '<div class="ss-caption">ספר</div>'
    assert escape.md("ספר") == "ספר"


def test_a_name_with_a_bidi_override_is_spelt_out_on_the_page() -> None:
    """The Documents page's caption of the documents only other sets hold, with a set so named:
    the element holds no override, and reads back with it spelt out."""
    texts: dict[str, str | None] = {"d1": "Fear sells: they will take everything you own.",
                                    "d2": "The quick brown fox jumps over the lazy dog."}
    gold = AnnotationSet("gold", {"d1": (Span(0, 4, "Fear"),)}, "gold")
    system = AnnotationSet("sys", {"d1": (Span(0, 4, "Fear"),)}, "system")
    other = AnnotationSet(f"exe.{RLO}txt", {"d2": (Span(4, 9, "Doubt"),)}, "system")
    at = app_on_sets([gold, system, other], texts, "pages/documents.py",
                     key="test:plain-bidi", role="gold")
    assert not at.exception, [e.value for e in at.exception]
    said = [t for t in plain_texts(at.main) if t.startswith("Not listed")]
    assert len(said) == 1, plain_texts(at.main)
    assert "exe.\\u202etxt" in said[0] and RLO not in said[0]
    assert not [h for h in at.get("html") if RLO in h.proto.body]
