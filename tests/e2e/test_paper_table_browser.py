"""Real browser: the Scores page's "Table for a paper" downloads the LaTeX table of
``python -m core table`` for the sample corpus (issue 27). Screenshots:
``test-artifacts/screenshots/scores_paper_table_*``."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from core.cli import main

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"


def test_scores_page_downloads_the_table_the_command_writes(app_url: str, vpage: Any,
                                                            st_ui: SimpleNamespace,
                                                            tmp_path: Path) -> None:
    st_ui.open_page(vpage, app_url, "scores?sample=propaganda")
    # The table's widgets wait in a closed expander (drawn only while it is open).
    vpage.get_by_text("Table for a paper", exact=False).first.click()
    button = vpage.get_by_test_id("stDownloadButton").filter(has_text="LaTeX table").first
    button.wait_for(timeout=60_000)
    button.scroll_into_view_if_needed()
    st_ui.shot(vpage, f"scores_paper_table_{vpage.viewport_name}")
    download = st_ui.download(vpage, button)
    assert download.suggested_filename == "spanscope_martino_table.tex"
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    page_tex = target.read_text(encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["table", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"),
                     str(SAMPLE / "system_b.json"), "--metric", "martino"]) == 0
    cli_tex = out.getvalue()

    def body(tex: str) -> list[str]:  # the command comment differs: the rest is the same
        return [line for line in tex.splitlines() if not line.startswith("% SpanScope")]

    assert body(page_tex) == body(cli_tex)
    assert st_ui.app_errors(vpage) == []
