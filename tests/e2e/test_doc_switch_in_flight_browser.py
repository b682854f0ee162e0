"""Real browser: a run already in flight when Next is clicked (a change of metric, a whole run of
the Documents page) delivered its document after the component had swapped the next one in,
and the text flickered back to the document left before the step's own run brought the new one
again (:mod:`ui.doc_switch`). The component now keeps the document it swapped to until the
step's run arrives."""

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
  // Every document the component's box shows, in order (its data-doc, as it changes). The
  // whole page is watched: on a busy machine Streamlit may mount the component again, with a
  // new box, and a watch on the first box alone saw nothing after that.
  window.__shown = [];
  const current = () => document.querySelector('.ss-switch')?.dataset.doc;
  let last = current();  // the document shown when the watch starts: not a change
  const note = () => {
    const doc = current();
    if (doc !== undefined && doc !== last) window.__shown.push(doc);
    if (doc !== undefined) last = doc;
  };
  new MutationObserver(note).observe(document.body, {
    attributes: true, attributeFilter: ['data-doc'], childList: true, subtree: true});
}"""

_METRIC_THEN_NEXT = """(option) => {
  // A change of metric (a whole run, which scores the sample under MAFALDA), then Next once
  // that run is under way: both as a person's two quick clicks. A MutationObserver sees the
  // app's script state turn to running however short the run (polling once a frame missed
  // it on a busy machine), and clicks Next in that same moment.
  const radio = [...document.querySelectorAll('[data-testid="stRadio"]')]
    .find((r) => r.textContent.includes('Metric'));
  const label = [...radio.querySelectorAll('label')].find((l) => l.textContent.trim() === option);
  const app = document.querySelector('[data-testid="stApp"]');
  return new Promise((resolve) => {
    let done = false;
    const finish = (ran) => {
      if (done) return;
      done = true;
      observer.disconnect();
      document.querySelector('.st-key-doc_next button').click();
      resolve(ran);
    };
    const observer = new MutationObserver(() => {
      if (app.getAttribute('data-test-script-state') === 'running') finish(true);
    });
    observer.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
    label.click();
    setTimeout(() => finish(false), 15000);
  });
}"""


def test_a_run_in_flight_at_next_does_not_bring_the_old_document_back(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_b&doc=2")
    page.locator(".ss-switch #left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    page.evaluate(_WATCH)
    assert page.evaluate(_METRIC_THEN_NEXT, "mafalda")  # the metric's run was under way
    page.locator(STEPPER).filter(has_text="Document 3 of").first.wait_for(
        timeout=60_000)
    st_ui.wait_idle(page)
    page.wait_for_timeout(500)
    st_ui.wait_idle(page)
    # the next document at the click, and never the one left since
    assert page.evaluate("window.__shown") == ["3"]
    assert page.locator(".ss-switch .ss-head").first.inner_text() == HEAD.format("3")
    assert st_ui.value(page, "Document") == "3" and "doc=3" in page.url
    assert page.locator("#left-doc").count() == 1
    # the metric's change holds, and a step after it moves as before
    assert "metric=mafalda" in page.url
    page.get_by_role("button", name="Next ▶").click()
    page.locator(STEPPER).filter(has_text="Document 4 of").first.wait_for(
        timeout=30_000)
    st_ui.wait_idle(page)
    assert page.evaluate("window.__shown") == ["3", "4"]
    assert st_ui.app_errors(page) == []
