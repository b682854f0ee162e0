"""Real browser: axe-core on every page of the dashboard, the HTML report and a document's HTML
export, with no "serious" or "critical" violation of ours (docs/dashboard.md, "Accessibility").

axe-core comes bundled in ``axe-playwright-python`` (requirements-dev.txt); the rules run are
WCAG 2.1 A and AA and axe's best practices. Every page is checked in the light theme at a desktop
width and in the dark theme at a phone width (one server, one browser, the pages in turn); the
combinations that differ are those two: the dark theme's colours, the phone's scroll boxes.
What Streamlit draws itself and we cannot restyle is in :data:`ALLOWED`, by rule and by the CSS
selector of the Streamlit element the violation sits in, each with its reason: a violation
anywhere else fails, so a new one of ours does. The heading rules (:data:`ALWAYS`) fail at any
impact: axe rates a skipped heading level "moderate".
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.e2e.conftest import new_page

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"

PAGES = ["", "data", "scores", "scores?detail_tab=📄 Per document", "documents", "errors",
         "differences", "labels", "annotators", "curation", "learn", "learn?exercise=3",
         "documents?sample=mafalda&doc=0&metric=mafalda"]
"""Every page (Overview at ``/``), Scores with its per-document tab open (its page of the table
is an HTML table), Learn with an exercise, and one page on the MAFALDA sample
(its alternatives and ⊥ draw marks the propaganda sample has none of). The live class is
started from the exercise page in :func:`test_no_serious_violation_on_any_page`."""

LOOKS = {"light-desktop": ("light", {"width": 1400, "height": 900}),
         "dark-phone": ("dark", {"width": 390, "height": 844})}

ALLOWED: dict[tuple[str, str], str] = {
    ("color-contrast", '[data-testid="stRadio"]:has(input:disabled)'):
        "a disabled radio's faded label (WCAG 1.4.3 exempts inactive controls)",
}
"""(axe rule, CSS selector of the Streamlit element the violating node is in) -> why."""

ALWAYS = ["heading-order", "page-has-heading-one", "empty-heading"]
"""Rules that fail whatever the impact axe gives them: a page's outline (one ``h1``, no level
skipped, in every tab and on every page; docs/dashboard.md, "Accessibility")."""

AXE_OPTIONS = {"resultTypes": ["violations"],
               "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                                    "best-practice"]}}

# Runs axe in the page and returns its serious and critical violations' nodes, each with the
# allowed selector it sits in (or null), so the filtering needs one round trip.
_RUN = """async ([options, allowed, always]) => {
  const results = await axe.run(document, options);
  const out = [];
  for (const v of results.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical' && !always.includes(v.id)) continue;
    for (const n of v.nodes) {
      const el = document.querySelector(n.target[0]);
      const hit = allowed.find(([rule, sel]) => rule === v.id && el && el.closest(sel));
      out.push({rule: v.id, impact: v.impact, target: n.target.join(' '),
                html: n.html.slice(0, 160), why: (n.failureSummary || '').slice(0, 200),
                allowed: hit ? hit[1] : null});
    }
  }
  return out;
}"""


def _axe(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations of ``page`` outside :data:`ALLOWED`."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate(_RUN, [AXE_OPTIONS, [list(k) for k in ALLOWED], ALWAYS])
    return [f for f in found if f["allowed"] is None]


def _settled(page: Any, st_ui: SimpleNamespace) -> None:
    """Idle, and again after the page's deferred work (the work ahead, fragments) has drawn:
    the second wait gives a run the first one's output asked for 0.6 s to start, then waits
    for its end (``st_ui.wait_idle``)."""
    st_ui.wait_idle(page, 60_000)
    st_ui.wait_idle(page, 60_000)


def test_no_serious_violation_on_any_page(app_url: str, browser: Any,
                                          st_ui: SimpleNamespace) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    for look, (scheme, viewport) in LOOKS.items():
        context, page = new_page(browser, viewport)
        page.emulate_media(color_scheme=scheme)
        try:
            for path in PAGES:
                st_ui.open_page(page, app_url, path)
                _settled(page, st_ui)
                found[f"/{path} {look}"] = _axe(page)
            if look == "light-desktop":  # the live class, as its teacher sees it
                st_ui.open_page(page, app_url, "learn?exercise=3")
                page.get_by_role("button", name="Start a class").click()
                page.wait_for_url("**class=*", timeout=30_000)
                page.get_by_text("Students scan this").first.wait_for(timeout=30_000)
                _settled(page, st_ui)
                found[f"live class (teacher) {look}"] = _axe(page)
                code = page.url.split("class=")[1][:8]
                st_ui.open_page(page, app_url, f"learn?class={code}")
                page.get_by_label("Your nickname", exact=True).wait_for(timeout=30_000)
                found[f"live class (student) {look}"] = _axe(page)
        finally:
            context.close()
    bad = {where: v for where, v in found.items() if v}
    assert not bad, bad


_TABLE = """() => [...document.querySelectorAll('[data-testid="stMarkdownContainer"] > table')]
  .map(t => ({scrolls: t.scrollWidth > t.clientWidth + 1, tabindex: t.getAttribute('tabindex'),
              name: t.getAttribute('aria-label')}))"""


def test_a_markdown_table_takes_the_focus_only_when_it_scrolls(app_url: str, browser: Any,
                                                               st_ui: SimpleNamespace) -> None:
    """The Data page's Files table scrolls sideways on a phone: a keyboard reaches it (Tab) and
    scrolls it (arrows), and a screen reader names it by its heading; at a desktop width it fits
    and is no tab stop."""
    for width, scrolls in ((390, True), (1400, False)):
        context, page = new_page(browser, {"width": width, "height": 900})
        try:
            st_ui.open_page(page, app_url, "data")
            table = page.locator(".st-key-files_table table")
            table.wait_for(timeout=30_000)
            page.wait_for_function("([s, want]) => { const t = document.querySelector(s);"
                                   " return t && (t.getAttribute('tabindex') === '0') === want }",
                                   arg=[".st-key-files_table table", scrolls], timeout=10_000)
            tables = page.evaluate(_TABLE)
            assert all((t["tabindex"] == "0") is t["scrolls"] for t in tables), tables
            if scrolls:
                assert table.get_attribute("aria-label") == "Files: table, scrolls sideways"
                table.focus()
                page.keyboard.press("ArrowRight")
                page.wait_for_function("(s) => document.querySelector(s).scrollLeft > 0",
                                       arg=".st-key-files_table table", timeout=5_000)
        finally:
            context.close()


def _static_pages(tmp_path: Path) -> dict[str, Path]:
    """The HTML report of the propaganda sample and one document's HTML export."""
    from core.cli import main
    from core.formats import load_path
    from core.render import highlight

    report = tmp_path / "report.html"
    assert main(["report", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                 str(PROP / "system_b.json"), "-o", str(report), "--samples", "20"]) == 0
    read = load_path(PROP / "gold.json")
    gold, pred = read.set, load_path(PROP / "system_a.json").set
    doc = "1"
    colours = highlight.label_colours(sorted(set(gold.labels()) | set(pred.labels())))
    export = tmp_path / "export.html"
    export.write_text(highlight.document_html(
        doc, read.texts.get(doc), highlight.span_items(gold, doc, "G"),
        highlight.span_items(pred, doc, "P"), colours, gold_name="gold",
        pred_name="system_a"), encoding="utf-8")
    return {"report": report, "export": export}


def test_no_serious_violation_in_the_report_and_the_export(tmp_path: Path, browser: Any) -> None:
    found = {}
    for width in (1400, 390):
        context, page = new_page(browser, {"width": width, "height": 900})
        try:
            for name, path in _static_pages(tmp_path).items():
                page.goto(path.as_uri())
                found[f"{name} {width}"] = _axe(page)
        finally:
            context.close()
    bad = {where: v for where, v in found.items() if v}
    assert not bad, bad
