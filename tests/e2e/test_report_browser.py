"""Real browser: the HTML report opens from a file:// URL, offline, and its charts render."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.cli import main

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"


def test_report_charts_render_from_a_file_url(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"),
                 str(SAMPLE / "system_b.json"), "-o", str(out), "--samples", "100"]) == 0
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(out.as_uri())
    charts = page.locator("svg.ss-chart")
    assert charts.count() >= 3
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100
    # Bars are drawn: the score chart has a bar per system and metric, with whiskers.
    scores = page.locator("#scores svg.ss-chart")
    assert scores.locator("rect.bar[fill='#E69F00']").count() == 2
    assert scores.locator("path.ss-whisker").count() == 4
    bar = scores.locator("rect.bar[fill='#E69F00']").first.bounding_box()
    assert bar is not None and bar["height"] > 10
    page.locator("#worst").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "report.png"))
    assert errors == []
    assert all(u.startswith("file://") for u in requests)  # nothing fetched from a network
    context.close()
