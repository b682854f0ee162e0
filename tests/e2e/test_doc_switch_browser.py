"""Real browser: the Documents page's stepper shows the next document's highlights at the click
or key, before the run it starts, and that run draws them no second time
(:mod:`ui.doc_switch`, docs/performance.md, issue 29, thirteenth pass). What a person sees: the
new document's text and heading at once, then the selector and the stepper naming it."""

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
  // Every time the component's text is replaced: the heading it then shows. The whole page is
  // watched: on a busy machine Streamlit may mount the component again, with a new box, and a
  // watch on the first box alone saw nothing after that. A new box given the text shown
  // already is that mount (nothing changes on the screen), not a draw.
  window.__drawn = [];
  let last = document.querySelector('.ss-switch');
  let shown = last?.querySelector('.ss-head')?.textContent;
  new MutationObserver(rs => { for (const r of rs) {
    const box = r.target;
    if (!r.addedNodes.length || !(box instanceof Element) || !box.classList.contains('ss-switch'))
      continue;
    const head = box.querySelector('.ss-head')?.textContent;
    const mounted = box !== last && head === shown;
    last = box;
    shown = head;
    if (!mounted) window.__drawn.push(head);
  } }).observe(document.body, {childList: true, subtree: true});
}"""


def _settled(page: Any, st_ui: SimpleNamespace, doc: str) -> None:
    """The run the switch started has drawn the stepper's caption (the sample's documents are
    numbered in order) and ended; the selector, heading and text name ``doc``."""
    page.locator(STEPPER).filter(
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


_SWITCH = "document.querySelector('.ss-switch').parentElement.__ssSwitch"


def _agree(page: Any, st_ui: SimpleNamespace, doc: str) -> None:
    """The text, its heading, the selector, the stepper's caption and the URL name ``doc``."""
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format(doc)
    assert page.locator(".ss-switch").first.get_attribute("data-doc") == doc
    assert st_ui.value(page, "Document") == doc
    assert page.locator(STEPPER).filter(
        has_text=f"Document {doc} of").count() == 1
    assert f"doc={doc}" in page.url


def _metric(page: Any, option: str) -> None:
    page.get_by_test_id("stRadio").filter(has_text="Metric").get_by_text(
        option, exact=True).click()


def test_n_on_a_focused_radio_steps_nowhere_as_streamlit_takes_no_shortcut(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """Streamlit skips a shortcut whose key is pressed on any INPUT (a radio's too): no run,
    and the component swaps nothing either. Its text follows the shortcut's own signal (the
    keydown Streamlit takes, it prevents), not a guess of which keys it takes."""
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=2")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    _metric(page, "mafalda")
    st_ui.wait_idle(page)
    assert page.evaluate("document.activeElement.type") == "radio"
    page.evaluate(_WATCH)
    page.keyboard.press("n")
    page.wait_for_timeout(1500)  # a run, were one started, has reached the caption
    st_ui.wait_idle(page)
    _agree(page, st_ui, "2")
    assert page.evaluate("window.__drawn") == []
    # the same key, the radio left (no field focused), is Streamlit's shortcut: both move
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("n")
    _settled(page, st_ui, "3")
    _agree(page, st_ui, "3")
    assert page.evaluate("window.__drawn") == [HEAD.format("3")]
    assert st_ui.app_errors(page) == []


def test_a_swap_no_run_followed_is_undone_by_the_next_run(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """The text swapped in without a run of its own (as a key the component took and
    Streamlit did not): the next run, whose data names the document shown before and whose
    text is the same, shows that document again."""
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=2")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.evaluate(f"() => {{ const s = {_SWITCH}; s.show(s.data.next.html, s.data.next.doc); }}")
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format("3")
    # a run whose data, but for its count, is what the component was handed before the swap:
    # the variant changes the scores, not the highlights nor their neighbours
    st_ui.choose(page, "Da San Martino variant", "nlp4if2019")
    st_ui.wait_idle(page)
    page.locator(".ss-switch .ss-head").filter(has_text=HEAD.format("2")).wait_for(
        timeout=10_000)
    _agree(page, st_ui, "2")
    assert page.locator("#left-doc").count() == 1
    assert st_ui.app_errors(page) == []


def test_markup_the_vetting_could_miss_runs_nothing_in_the_component(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """The component's script parses its HTML with the browser's own parser into an inert
    template and drops what is not the highlights' own before the page sees it: a CDATA
    section (a bogus comment to a browser) hiding an ``img``, an ``svg`` script, an event
    handler, a style with a URL. Nothing of it runs or loads."""
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=2")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "evil" in r.url else None)
    hostile = ('<p class="ss-cap">kept</p><![CDATA[ x ><img src=evil.png '
               'onerror="window.__ran=1">]]><svg><script>window.__ran=2</script></svg>'
               '<span onclick="window.__ran=3" style="background:url(evil.css)" '
               'title="t">span</span><?x ><img src=evil2.png onerror="window.__ran=4">'
               '<div style="background:\\75 rl(evil3.png)">d</div>')
    page.evaluate(f"html => {{ {_SWITCH}.show(html, 'x'); }}", hostile)
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__ran") is None
    box = page.locator(".ss-switch").first
    assert box.locator("img, svg, script").count() == 0
    assert box.locator("p.ss-cap").inner_text() == "kept"
    span = box.locator("span", has_text="span")
    assert span.get_attribute("onclick") is None and span.get_attribute("style") is None
    assert span.get_attribute("title") == "t"
    assert box.locator("div", has_text="d").last.get_attribute("style") is None
    assert requests == []
    page.get_by_role("button", name="Next ▶").click()  # the run shows the page's text again
    _settled(page, st_ui, "3")
    assert st_ui.app_errors(page) == []


_STALE_WATCH = """() => {
  // Every highlights text st.html draws (the copy shown until the session knows that the
  // component's script runs): its count, whenever it is added.
  window.__htmlCopies = 0;
  new MutationObserver(rs => { for (const r of rs) for (const n of r.addedNodes) {
    if (n instanceof Element && (n.matches('[data-testid="stHtml"]')
        || n.querySelector('[data-testid="stHtml"]'))
        && (n.querySelector('#left-doc, .ss-stale'))) window.__htmlCopies += 1;
  } }).observe(document.body, {childList: true, subtree: true});
}"""


def test_the_errors_page_warms_the_component_and_its_first_link_draws_the_text_once(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    """Issue 29, twentieth pass: the Errors page draws a hidden copy of the highlights'
    component (no box, ``display: none``) that reports its script in an idle moment, then
    goes; the first Errors -> Documents link of the session then draws the highlights by the
    component alone (no ``st.html`` copy ever added), as every later link did."""
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    page.locator(".st-key-err_table .ss-page-table").wait_for(timeout=60_000)
    # still there: drawing nothing and taking no room (read at once: the copy may go between
    # two calls, which then waited for it in vain)
    assert page.evaluate("""() => {
      const e = document.querySelector('.st-key-doc_switch_warm');
      if (!e) return true;
      const r = e.getBoundingClientRect();
      return getComputedStyle(e).display === 'none' && r.width === 0 && r.height === 0;
    }""")
    assert page.locator(".ss-switch").count() == 0  # no box of highlights on Errors
    # The report's run (the fragment's) removes the copy.
    page.wait_for_function("() => !document.querySelector('.st-key-doc_switch_warm')",
                           timeout=90_000)  # a busy machine: idle moments are rare
    st_ui.wait_idle(page)
    page.evaluate(_STALE_WATCH)
    page.locator("[class*='st-key-err_open_system_a_'] button").first.click()
    page.locator(".ss-switch #left-doc").wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    assert "/documents" in page.url
    assert page.evaluate("() => window.__htmlCopies") == 0
    assert page.locator("#left-doc").count() == 1  # one text: the component's
    assert st_ui.app_errors(page) == []
