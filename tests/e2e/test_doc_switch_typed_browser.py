"""Real browser: a document typed into the Documents page's selector and picked shows its
highlights at the click (or Enter), before the run the pick starts, once the search has asked
for them (:mod:`ui.doc_switch`, docs/performance.md, issue 29, fifteenth pass); the run then
draws them no second time, and the selector, caption and URL name the same document."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

STEPPER = "[data-testid='stCaptionContainer'], .ss-caption"
"""The Documents stepper's "Document N of M in this order": a caption drawn as plain HTML
(``ui.plain``, class ``ss-caption``) since the twentieth pass, an ``st.caption`` before."""

pytestmark = pytest.mark.e2e

HEAD = "Both annotations of document {}, side by side"

_WATCH = """() => {
  // Every document the component's box shows, in order, and every time its text is
  // replaced (a MutationObserver on the whole page: a box mounted again is seen too).
  window.__shown = [];
  window.__drawn = 0;
  const current = () => document.querySelector('.ss-switch')?.dataset.doc;
  let last = current();
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList' && r.target.classList?.contains('ss-switch')
          && r.addedNodes.length) window.__drawn++;
    }
    const doc = current();
    if (doc !== undefined && doc !== last) window.__shown.push(doc);
    if (doc !== undefined) last = doc;
  }).observe(document.body, {attributes: true, attributeFilter: ['data-doc'], childList: true,
                             subtree: true});
}"""

_HELD = """(doc) => {
  const box = document.querySelector('.ss-switch');
  const s = box && box.parentElement.__ssSwitch;
  return Boolean(s && s.data && s.data.picks && s.data.picks[doc]);
}"""


def _search(page: Any, st_ui: SimpleNamespace, typed: str, doc: str) -> None:
    """Type ``typed`` into the document selector's search; wait until the run it asked for
    has handed the component ``doc``'s highlights."""
    st_ui.selectbox(page, "Document (").locator("input").fill(typed)
    page.get_by_role("option").get_by_text(doc, exact=True).first.wait_for(timeout=30_000)
    page.wait_for_function(_HELD, arg=doc, timeout=30_000)


def _settled(page: Any, st_ui: SimpleNamespace, doc: str) -> None:
    page.locator(STEPPER).filter(
        has_text=f"Document {doc} of").first.wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert st_ui.value(page, "Document") == doc and f"doc={doc}" in page.url
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format(doc)
    assert page.locator("#left-doc").count() == 1


def test_a_typed_pick_shows_the_document_at_the_click_and_draws_it_once(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=1")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.evaluate(_WATCH)
    _search(page, st_ui, "3", "3")
    # the run the search started drew nothing: the text is still document 1's
    assert page.evaluate("[window.__shown, window.__drawn]") == [[], 0]
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format("1")
    # the option clicked: its heading and text are there when the click returns, before any
    # message of the run the pick starts can have arrived
    at_click = page.evaluate("""() => {
      const o = [...document.querySelectorAll('[role="option"]')]
        .find((x) => x.textContent.trim() === '3');
      o.click();
      return [document.querySelector('.ss-switch .ss-head').textContent,
              document.querySelector('.ss-switch').dataset.doc];
    }""")
    assert at_click == [HEAD.format("3"), "3"]
    _settled(page, st_ui, "3")
    # once replaced, at the click: the pick's run handed the same text
    assert page.evaluate("[window.__shown, window.__drawn]") == [["3"], 1]
    st_ui.shot(page, "doc_switch_typed")
    assert st_ui.app_errors(page) == []


def test_enter_in_the_search_shows_the_first_option_at_once(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=1")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.evaluate(_WATCH)
    _search(page, st_ui, "2", "2")
    field = st_ui.selectbox(page, "Document (").locator("input")
    first = page.evaluate("""() => {
      const input = document.querySelector('.st-key-doc input[role="combobox"]');
      return document.getElementById(input.getAttribute('aria-activedescendant'))
        ?.textContent.trim();
    }""")
    assert first == "2"
    field.press("Enter")
    _settled(page, st_ui, "2")
    assert page.evaluate("[window.__shown, window.__drawn]") == [["2"], 1]
    # another typed pick, held or not by the time of the click, moves the text and selector
    st_ui.selectbox(page, "Document (").locator("input").fill("3")
    page.get_by_role("option").get_by_text("3", exact=True).first.click()
    _settled(page, st_ui, "3")
    assert page.evaluate("window.__shown") == ["2", "3"]
    assert st_ui.app_errors(page) == []
