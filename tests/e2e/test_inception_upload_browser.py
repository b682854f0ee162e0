"""Real browser: an INCEpTION project export of three annotators, uploaded on the Data page as a
folder and as a zip, gives three annotator sets that the Annotators page compares (issue 19).
Screenshots: ``test-artifacts/screenshots/inception_*.png``."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

EXPORT = Path(__file__).resolve().parents[2] / "sample_data" / "formats" / "inception_export"


def _to_annotators(page: Any, st_ui: SimpleNamespace) -> str:
    page.get_by_test_id("stSidebar").get_by_text("Annotators", exact=True).click()
    page.get_by_role("heading", name="👥 Annotators").wait_for(timeout=60_000)
    page.get_by_test_id("stMultiSelect").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    return str(page.get_by_test_id("stMultiSelect").first.inner_text())


def test_inception_export_folder_shows_three_annotators(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(page, app_url, "data")
    page.get_by_text("Upload a whole folder").click()
    st_ui.wait_idle(page)
    page.locator("input[type=file][webkitdirectory]").set_input_files(str(EXPORT))
    page.get_by_text("the uploaded files").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    table = page.locator(".st-key-files_table table").first  # a few rows: Markdown (small_table)
    table.wait_for(timeout=30_000)
    st_ui.shot(page, "inception_folder_data")
    body = page.locator("[data-testid=stMain]").inner_text()
    assert "inception_export/ (folder)" in body
    assert "❌" not in body
    chosen = _to_annotators(page, st_ui)
    for name in ("alice", "bob", "chloe"):
        assert name in chosen  # named as the export names them
    st_ui.shot(page, "inception_folder_annotators")
    assert st_ui.app_errors(page) == []


def test_inception_export_zip_shows_three_annotators(
    app_url: str, page: Any, st_ui: SimpleNamespace, tmp_path: Path
) -> None:
    archive = shutil.make_archive(str(tmp_path / "project"), "zip", EXPORT)
    st_ui.open_page(page, app_url, "data")
    page.locator("input[type=file]").first.set_input_files(archive)
    page.get_by_text("the uploaded files").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)
    chosen = _to_annotators(page, st_ui)
    for name in ("alice", "bob", "chloe"):
        assert name in chosen
    st_ui.shot(page, "inception_zip_annotators")
    assert st_ui.app_errors(page) == []
