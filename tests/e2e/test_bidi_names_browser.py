"""Real browser: a set name holding an explicit bidi control (U+202E RIGHT-TO-LEFT OVERRIDE) in
a caption drawn as plain HTML (``ui.plain``) no longer turns the rest of the caption (review21).

The caption is the Documents page's "Not listed" note, as ``ui.plain.caption_html`` makes it,
drawn by Chromium with the page's caption style. Left in, the override nothing closes drew
everything after it right to left, to the end of the paragraph: the words after the name
came out mirrored, "annotates" to the left of "neither". Spelt out (``\\u202e``), the words
stay in reading order and the name shows what it holds."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ui import plain, sidebar

pytestmark = pytest.mark.e2e

NAME = "exe.\u202etxt"
"""A set name with an override in it: it reads ``exe.txt`` backwards once drawn."""

BEFORE = """([a, b]) => {
  const box = document.querySelector(".ss-caption");
  const where = (word) => {
    const node = box.firstChild;
    const at = node.textContent.indexOf(word);
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    return range.getBoundingClientRect();
  };
  const [ra, rb] = [where(a), where(b)];  // a on a line above b's, or left of it on one line
  return ra.bottom <= rb.top || (Math.abs(ra.top - rb.top) < 2 && ra.right <= rb.left);
}"""
"""Whether the word ``a`` is drawn before the word ``b`` in reading order (left to right, top
to bottom); each word's first occurrence in the caption's text."""


def _caption() -> str:
    return plain.caption_html(f"Not listed: documents only other sets hold (1 of {NAME}); "
                              "neither gold nor sys annotates them.")


@pytest.mark.parametrize("viewport", [{"width": 1440, "height": 900},
                                      {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_a_name_with_an_override_leaves_the_caption_in_reading_order(
        browser: Any, st_ui: SimpleNamespace, viewport: dict[str, int]) -> None:
    with st_ui.session(browser, viewport) as page:
        page.set_content(f"<!doctype html><html><body>{sidebar.CAPTION_CSS}{_caption()}"
                         "</body></html>")
        said = page.locator(".ss-caption").inner_text()
        assert "\u202e" not in said and "exe.\\u202etxt" in said
        assert page.evaluate(BEFORE, ["neither", "annotates"])
        assert page.evaluate(BEFORE, ["documents", "neither"])
        st_ui.shot(page, f"bidi_name_caption_{viewport['width']}")
