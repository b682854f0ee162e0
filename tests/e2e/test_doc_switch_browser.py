"""Real browser: the Documents page's stepper shows the next document's highlights at the click
or key, before the run it starts, and that run draws them no second time
(:mod:`ui.doc_switch`, docs/performance.md, issue 29, thirteenth pass). What a person sees: the
new document's text and heading at once, then the selector and the stepper naming it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

HEAD = "Both annotations of document {}, side by side"

_WATCH = """() => {
  // Every time the component's text is replaced: the heading it then shows.
  window.__drawn = [];
  const box = document.querySelector('.ss-switch');
  new MutationObserver(rs => { for (const r of rs) if (r.addedNodes.length)
    window.__drawn.push(box.querySelector('.ss-head').textContent); }
  ).observe(box, {childList: true});
}"""


def _settled(page: Any, st_ui: SimpleNamespace, doc: str) -> None:
    """The run the switch started has drawn the stepper's caption (the sample's documents are
    numbered in order) and ended; the selector, heading and text name ``doc``."""
    page.get_by_test_id("stCaptionContainer").filter(
        has_text=f"Document {doc} of").first.wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert st_ui.value(page, "Document") == doc
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format(doc)
    assert page.locator("#left-doc").count() == 1  # one text: the component's alone


def test_next_and_p_show_the_document_at_once_and_draw_it_once(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=1")
    # The component's script reports once per session; then it draws the text.
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert page.locator("#left-doc").count() == 1
    page.evaluate(_WATCH)
    # Next, clicked: the heading and text are the next document's when the click returns,
    # before any message of the run it starts can have arrived.
    at_click = page.evaluate("""() => {
      document.querySelector('.st-key-doc_next button').click();
      return [document.querySelector('.ss-switch .ss-head').textContent,
              document.querySelector('.ss-switch').dataset.doc];
    }""")
    assert at_click == [HEAD.format("2"), "2"]
    _settled(page, st_ui, "2")
    assert "doc=2" in page.url
    # P, pressed as a person does
    page.locator("body").press("p")
    _settled(page, st_ui, "1")
    # Each switch replaced the text once: the run that followed drew nothing again.
    assert page.evaluate("window.__drawn") == [HEAD.format("2"), HEAD.format("1")]
    # the buttons keep their accessible names and help
    assert page.get_by_role("button", name="Next ▶").count() == 1
    assert page.get_by_role("button", name="◀ Previous").is_disabled()
    st_ui.shot(page, "doc_switch_stepped")
    assert st_ui.app_errors(page) == []


def test_a_key_typed_into_a_field_steps_nowhere(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=2")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.evaluate(_WATCH)
    box = page.get_by_test_id("stTextInput").filter(has_text="Search documents").locator("input")
    box.focus()
    box.press("n")
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format("2")
    assert page.evaluate("window.__drawn") == []
    box.press("Escape")
    assert st_ui.app_errors(page) == []
