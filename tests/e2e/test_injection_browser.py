"""Issue 18 §3: markup in uploaded ids, file names, set names, labels and texts stays text.

Files whose document ids, file names, annotator names, labels and texts carry ``<script>``,
``<img onerror>``, ``<svg onload>``, ``javascript:`` links and Markdown images pointing at a
listener started here on 127.0.0.1 are uploaded on the Data page; every page is visited. No
dialog may open, no injected element may appear, and the listener must receive no request.
"""

from __future__ import annotations

import http.server
import json
import socket
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

pytestmark = pytest.mark.e2e

PAGES = ("Overview", "Data", "Scores", "Documents", "Errors", "Metric differences", "Labels",
         "Annotators", "Curation", "Learn")

CHART_TABS = (("Scores", ("📊 F1 chart", "📊 Per-label chart")), ("Data", ("📊 Chart",)),
              ("Errors", ("📈 Category chart",)))
"""Pages whose charts wait behind a lazy tab, and those tabs (issue 29)."""
CHART_EXPANDERS = {"Data": "Spans per label and set"}
"""The lazy expander that holds a page's chart tabs, opened first (issue 29, seventh pass)."""


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    hits: list[str] = []
    handler = type("Recorder", (_Recorder,), {"hits": hits})
    server = http.server.HTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{port}", hits
    server.shutdown()
    server.server_close()


def payloads(host: str) -> list[str]:
    return [
        f"![](http://{host}/md-image.png)",
        f"<img src=http://{host}/img.png onerror=alert(1)>",
        f"<svg onload=\"fetch('http://{host}/svg')\">",
        "[click](javascript:alert(3))",
        "<script>alert(4)</script>",
        f"<a href=\"javascript:alert(5)\">a</a><iframe src=\"http://{host}/frame\"></iframe>",
    ]


def _files(host: str) -> list[dict[str, Any]]:
    evil = payloads(host)
    text = "The mayor's reckless plan " + " ".join(evil) + " will bankrupt every family."
    docs = [{"id": doc_id, "text": text, "labels": [
        {"start": 4, "end": 9, "technique": evil[(i + 1) % len(evil)]},
        {"start": 10, "end": 25, "technique": evil[(i + 2) % len(evil)]},
    ]} for i, doc_id in enumerate(evil)]
    pred = [{"id": d["id"], "text": text, "labels": [
        {"start": 4, "end": 12, "technique": d["labels"][0]["technique"]},
    ]} for d in docs]
    rows = ["doc_id,start,end,label,annotator"]
    for d in docs:
        for i, name in enumerate(evil[:3]):
            label = d["labels"][i % 2]["technique"]
            rows.append(",".join(json.dumps(v) if isinstance(v, str) else str(v)
                                 for v in (d["id"], 4 + i, 12 + i, label, name)))
    # File names cannot hold "/": http:host is read as http://host/ by the browser.
    return [
        {"name": "gold.json", "mimeType": "application/json",
         "buffer": json.dumps(docs).encode()},
        {"name": f"[x](javascript:alert(6))![](http:{host}).json", "mimeType":
         "application/json", "buffer": json.dumps(pred).encode()},
        {"name": f"<img src=http:{host} onerror=alert(7)>.csv", "mimeType": "text/csv",
         "buffer": ("\n".join(rows) + "\n").encode()},
    ]


def _assert_clean(page: Any, host: str, hits: list[str], dialogs: list[str], where: str) -> None:
    assert dialogs == [], (where, dialogs)
    assert hits == [], (where, hits)
    injected = page.evaluate(
        """host => {
            const bad = [];
            for (const el of document.querySelectorAll('img, iframe, svg, script, a')) {
                const src = el.getAttribute('src') || el.getAttribute('href') || '';
                const where = el.closest('[data-testid]');
                const tag = where ? where.getAttribute('data-testid') + ': ' : '';
                if (src.includes(host) || src.startsWith('javascript:'))
                    bad.push(tag + (where ? where.outerHTML.slice(0, 300) : el.outerHTML));
                if (el.getAttribute('onload') || el.getAttribute('onerror'))
                    bad.push(el.outerHTML);
                if (el.tagName === 'SCRIPT' && el.textContent.includes('alert('))
                    bad.push(el.outerHTML);
            }
            return bad;
        }""", host)
    assert injected == [], (where, injected)


_LOADED = """() => [...document.images].every(i => i.complete)
  && [...document.querySelectorAll('iframe')].every(f => {
       try { return f.contentDocument === null || f.contentDocument.readyState === 'complete'; }
       catch (e) { return true; }  // another origin's frame: its request was made already
     })"""


def _loaded(page: Any) -> None:
    """Wait until every image of the page has loaded or failed and every frame has loaded:
    then any request they would make of the listener has been made (a fixed wait before)."""
    page.wait_for_function(_LOADED, timeout=60_000)
    page.wait_for_load_state("load")


def test_markup_in_uploaded_files_stays_text_on_every_page(
    app_url: str, page: Any, st_ui: SimpleNamespace, listener: tuple[str, list[str]]
) -> None:
    host, hits = listener
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    st_ui.open_page(page, app_url, "data")
    page.locator("input[type=file]").set_input_files(_files(host))
    page.get_by_text("the uploaded files").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page, timeout=60_000)
    _loaded(page)
    _assert_clean(page, host, hits, dialogs, "Data")
    # The upload loaded: three sets shown, the gold among them, the names as text.
    page.get_by_text("javascript:alert(6)").first.wait_for(timeout=60_000)
    for title in PAGES:
        page.get_by_test_id("stSidebar").get_by_text(title, exact=True).click()
        page.get_by_role("heading").first.wait_for(timeout=60_000)
        st_ui.wait_idle(page, timeout=120_000)
        _loaded(page)  # an image or a frame a label smuggled in would have asked the host
        assert page.get_by_test_id("stException").count() == 0, title
        _assert_clean(page, host, hits, dialogs, title)
        st_ui.shot(page, f"injection_{title.lower().replace(' ', '_')}")
    # The charts that wait behind lazy tabs draw the labels too.
    for title, tabs in CHART_TABS:
        page.get_by_test_id("stSidebar").get_by_text(title, exact=True).click()
        page.get_by_role("heading").first.wait_for(timeout=60_000)
        if title in CHART_EXPANDERS:
            box = page.get_by_test_id("stExpander").filter(has_text=CHART_EXPANDERS[title])
            st_ui.click(page, box.locator("summary"), page.get_by_role("tab", name=tabs[0]))
        for tab in tabs:
            page.get_by_role("tab", name=tab).click()
            st_ui.wait_idle(page, timeout=120_000)
        page.locator(".js-plotly-plot").nth(len(tabs) - 1).wait_for(timeout=60_000)
        _loaded(page)
        assert page.get_by_test_id("stException").count() == 0, title
        _assert_clean(page, host, hits, dialogs, f"{title}: {', '.join(tabs)}")
    assert st_ui.app_errors(page) == []
