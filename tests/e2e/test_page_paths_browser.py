"""Real browser: every page's address opens that page, ``/overview`` included (it showed "Page
not found": the default page is served at ``/`` whatever its url_path), at a desktop and a
phone width (issue 16 item 9)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

TITLES = {"": "🔎 SpanScope", "overview": "🔎 SpanScope", "data": "📂 Data",
          "scores": "📊 Scores", "documents": "📄 Documents", "errors": "🔍 Errors",
          "differences": "🔀 Metric differences", "labels": "🏷️ Labels",
          "annotators": "👥 Annotators", "curation": "⚖️ Curation", "learn": "🎓 Learn"}



def test_every_page_path_opens_its_page(app_url: str, vpage: Any,
                                        st_ui: SimpleNamespace) -> None:
    for path, title in TITLES.items():
        st_ui.open_page(vpage, app_url, path)
        heading = vpage.locator("h1").filter(has_text=title)
        heading.first.wait_for(timeout=60_000)
        assert vpage.get_by_text("Page not found").count() == 0, path
        assert vpage.get_by_test_id("stException").count() == 0, path
    assert st_ui.app_errors(vpage) == []
