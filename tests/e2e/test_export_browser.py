"""Real browser: the Documents page's "HTML" and "SVG" buttons download the document shown; the
HTML opens in Chromium on its own (no server) with both annotations highlighted, and a document
whose text and labels hold ``<script>`` shows those characters and runs nothing (issue 16 item
10). Screenshots: ``test-artifacts/screenshots/export_*``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect

from core.model import AnnotationSet, Span
from core.render import highlight, svg

pytestmark = pytest.mark.e2e

SCRIPT = '<script>window.ranScript = 1; alert("x")</script>'


def _dialogs(page: Any) -> list[str]:
    seen: list[str] = []
    page.on("dialog", lambda d: (seen.append(d.message), d.dismiss()))
    return seen


def test_download_the_document_and_open_it_offline(app_url: str, page: Any,
                                                   st_ui: SimpleNamespace,
                                                   tmp_path: Path) -> None:
    st_ui.open_page(page, app_url, "documents?b=system_a&doc=1")
    page.locator("#merged").wait_for(timeout=60_000)
    shown_marks = sorted(page.locator("#left-doc .ss-cat, #right-doc .ss-cat").all_inner_texts())
    files = {}
    for kind in ("HTML", "SVG"):
        button = page.get_by_test_id("stDownloadButton").filter(has_text=kind).first
        download = st_ui.download(page, button)
        target = tmp_path / download.suggested_filename
        download.save_as(target)
        files[kind] = target
    assert files["HTML"].name == "document_1.html" and files["SVG"].name == "document_1.svg"
    page.goto(files["HTML"].as_uri())
    gold = page.locator("#export-gold")
    expect(gold).to_be_visible()
    # Gold document 1 of the propaganda sample has 6 spans, system_a 4: each has its tag and a
    # striped (highlighted) piece of text.
    expect(gold.locator(".ss-tag")).to_have_count(6)
    expect(page.locator("#export-pred .ss-tag")).to_have_count(4)
    seg = gold.locator(".ss-seg").first
    assert "linear-gradient" in seg.evaluate("e => getComputedStyle(e).backgroundImage")
    expect(page.locator("#export-merged .ss-matched").first).to_be_visible()
    assert page.locator("script").count() == 0
    # The category marks the page showed (✓, L, B, ...) are in the file, one per span there.
    assert shown_marks and sorted(
        page.locator("#export-gold .ss-cat, #export-pred .ss-cat").all_inner_texts()
    ) == shown_marks
    expect(page.locator(".ss-cat-legend")).to_be_visible()
    st_ui.shot(page, "export_html")
    page.goto(files["SVG"].as_uri())
    expect(page.locator("svg text").filter(has_text="G1").first).to_be_visible()
    st_ui.shot(page, "export_svg")


def test_markup_in_the_document_is_shown_not_run(page: Any, st_ui: SimpleNamespace,
                                                 tmp_path: Path) -> None:
    text = f"Look {SCRIPT} here <img src=x onerror=alert(2)> end."
    gold = AnnotationSet("gold", {"d": (Span(5, 40, SCRIPT),)}, "gold")
    pred = AnnotationSet("sys", {"d": (Span(5, 20, SCRIPT),)}, "system")
    g, p = highlight.span_items(gold, "d", "G"), highlight.span_items(pred, "d", "P")
    colours = highlight.label_colours([SCRIPT])
    dialogs = _dialogs(page)
    for kind, body in (("html", highlight.document_html(SCRIPT, text, g, p, colours,
                                                     gold_name=SCRIPT, pred_name="sys")),
                       ("svg", svg.document_svg(SCRIPT, text, g, p, colours,
                                                   gold_name=SCRIPT, pred_name="sys"))):
        path = tmp_path / f"doc.{kind}"
        path.write_text(body, encoding="utf-8")
        page.goto(path.as_uri())
        # a script or an image's onerror would have run before the load event (goto waits
        # for it): every image has been tried by then
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        assert page.evaluate("() => window.ranScript") is None
        assert page.locator("script").count() == 0
        assert page.get_by_text("<script>window.ranScript").first.is_visible()
        st_ui.shot(page, f"export_markup_{kind}")
    assert dialogs == []
