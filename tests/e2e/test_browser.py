"""Real browser: every page opens and renders, a document and a span can be picked, a deep link
restores the view, uploaded markup stays text; no console errors. Screenshots are saved to
``test-artifacts/screenshots/``."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# Console messages that are not app errors (dashboard.md §3.9): deep links probe
# /<page>/_stcore/... and get a 404.
BENIGN = ("_stcore/health", "_stcore/host-config", "Failed to load resource: the server "
          "responded with a status of 404")

PAGES = [("Overview", "SpanScope"), ("Data", "Data"), ("Scores", "Scores"),
         ("Documents", "Documents")]
HAS_MARTINO = importlib.util.find_spec("core.metrics.martino") is not None


def app_errors(page: Any) -> list[str]:
    """Console errors of ``page`` except the benign ones listed in :data:`BENIGN`."""
    return [e for e in page.console_errors if not any(b in e for b in BENIGN)]


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def wait_idle(page: Any, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished running the script (no running indicator)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
        timeout=timeout,
    )


def _box(page: Any, label: str) -> Any:
    return page.get_by_test_id("stSelectbox").filter(has_text=label).first


def _value(page: Any, label: str) -> str:
    """The value a selectbox shows (kept in its combobox input)."""
    return str(_box(page, label).locator("input").input_value())


def _choose(page: Any, label: str, option: str, *, exact: bool = True) -> None:
    """Open the selectbox labelled ``label`` and click ``option`` (or the first option
    containing it when not ``exact``)."""
    _box(page, label).click()
    options = page.get_by_role("option")
    target = (options.get_by_text(option, exact=True) if exact
              else options.filter(has_text=option)).first
    target.click()
    wait_idle(page)


def test_every_page_opens_without_console_errors(app_url: str, page: Any) -> None:
    page.goto(app_url)
    wait_idle(page)
    for title, heading in PAGES:
        page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
        page.get_by_role("heading", name=heading).first.wait_for(timeout=30_000)
        wait_idle(page)
        if title == "Documents":
            page.locator("#left-doc .ss-seg").first.wait_for(timeout=30_000)
        if title == "Data":
            page.get_by_test_id("stDataFrame").first.wait_for(timeout=30_000)
        assert page.get_by_test_id("stException").count() == 0, title
        shot(page, f"page_{title.lower()}")
    assert app_errors(page) == []


def test_pick_a_document_and_a_span_then_see_its_pairs(app_url: str, page: Any) -> None:
    page.goto(f"{app_url}/documents")
    page.locator("#left-doc").wait_for(timeout=30_000)
    wait_idle(page)
    _choose(page, "Document", "3")
    assert "doc=3" in page.url
    _choose(page, "Select a span", "G1 [", exact=False)
    assert _value(page, "Select a span").startswith("G1 [")
    # The selected span is drawn thicker and tinted in both panes' markup.
    assert page.locator("#left-doc .ss-tag[data-span='G1']").count() == 1
    if HAS_MARTINO:
        page.get_by_text("Pairs formed by G1").wait_for(timeout=30_000)
        assert page.get_by_test_id("stDataFrame").count() >= 1
    shot(page, "documents_span_selected")
    assert app_errors(page) == []


def test_deep_link_restores_the_view(app_url: str, page: Any) -> None:
    page.goto(f"{app_url}/documents?doc=4&b=system_b&metric=mafalda&level=1")
    page.locator("#right-doc").wait_for(timeout=30_000)
    wait_idle(page)
    assert _value(page, "Right (compared)") == "system_b"
    assert _value(page, "Document (") == "4"
    assert _value(page, "Level") == "1"
    checked = page.get_by_test_id("stRadio").filter(has_text="Metric").locator(
        "input:checked").first
    assert checked.evaluate("e => e.closest('label').innerText").strip() == "mafalda"
    shot(page, "documents_deep_link")
    assert app_errors(page) == []


def test_uploaded_markup_is_shown_as_text_and_runs_nothing(app_url: str, page: Any) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{app_url}/data")
    wait_idle(page)
    data = Path(__file__).resolve().parents[1] / "app" / "data"
    page.locator("input[type=file]").set_input_files([str(data / "gold.json"),
                                                      str(data / "system_a.json")])
    page.get_by_text("the uploaded files").first.wait_for(timeout=30_000)
    wait_idle(page)
    page.get_by_test_id("stSidebarNav").get_by_text("Documents", exact=True).click()
    page.locator("#left-doc").wait_for(timeout=30_000)
    wait_idle(page)
    _choose(page, "Document", "doc10")
    left = page.locator("#left-doc")
    assert '<script>alert("x")</script>' in left.inner_text()
    assert "<img src=x onerror=alert(1)>" in left.inner_text()
    assert left.locator("script, img").count() == 0
    assert page.locator("b", has_text="bold").count() == 0  # the label <b>bold</b> is text too
    shot(page, "documents_xss_as_text")
    assert dialogs == []
    assert app_errors(page) == []
