"""Real browser: the Errors page's HTML report is written in the background with a progress bar
that names its step, then downloaded by its button (the file is the report). Screenshots:
``test-artifacts/screenshots/report_writing*`` and ``report_written*``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ui.errors import TABS

pytestmark = pytest.mark.e2e


def test_the_report_is_written_with_progress_then_downloaded(
    app_url: str, page: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    st_ui.open_page(page, app_url, "errors?sample=propaganda")
    write = page.get_by_role("button", name="📝 Write the HTML report")
    st_ui.click(page, page.get_by_role("tab", name=TABS[4]), write, timeout=60_000)
    st_ui.wait_idle(page)
    button = page.locator(".st-key-dl_err_report button")
    assert not button.count()  # nothing written before the click
    bar = page.locator("[data-testid='stProgress']").filter(has_text="Writing the report")
    write.click()
    # The bar names the step while the report is written (a second or two on the sample; it
    # may be done before the browser draws a poll, so the bar is shot only when seen).
    (bar.or_(button)).first.wait_for(timeout=60_000)
    if bar.count():
        st_ui.shot(page, "report_writing")
    button.wait_for(timeout=120_000)
    st_ui.wait_idle(page)
    st_ui.shot(page, "report_written")
    assert not st_ui.app_errors(page)
    saved = tmp_path / "report.html"
    st_ui.download(page, button).save_as(saved)
    html = saved.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "id='worst'" in html
    assert "Errors page" in html  # the command it states: the dashboard's view
