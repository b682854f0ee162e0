"""Real browser: the HTML report opens from a file:// URL, offline, and its charts render."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from core.cli import main

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"


def test_report_charts_render_from_a_file_url(browser: Any, tmp_path: Path,
                                              st_ui: SimpleNamespace) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"),
                 str(SAMPLE / "system_b.json"), "-o", str(out), "--samples", "100"]) == 0
    with st_ui.session(browser, {"width": 1300, "height": 1000}, offline=True) as page:
        requests: list[str] = []
        page.on("request", lambda req: requests.append(req.url))
        page.goto(out.as_uri())
        charts = page.locator("svg.ss-wide")
        assert charts.count() >= 3 and page.locator("svg.ss-phone").first.bounding_box() is None
        for i in range(charts.count()):
            box = charts.nth(i).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 100
        # Bars are drawn: the score chart has a bar per system and metric, with whiskers.
        scores = page.locator("#scores svg.ss-wide")
        assert scores.locator("rect.bar[fill='#E69F00']").count() == 2
        assert scores.locator("path.ss-whisker").count() == 4
        bar = scores.locator("rect.bar[fill='#E69F00']").first.bounding_box()
        assert bar is not None and bar["height"] > 10
        page.locator("#worst").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "report.png"))
        assert page.console_errors == []
        assert all(u.startswith("file://") for u in requests)  # nothing fetched from a network


def test_on_a_phone_each_chart_fits_the_screen_at_its_own_layout(
        browser: Any, tmp_path: Path, st_ui: SimpleNamespace) -> None:
    """At 390 px the charts were 640 px wide, cut at the screen's edge; each is now shown in
    its phone layout (360 px, text at its size), within the screen, with its patterns."""
    out = tmp_path / "report.html"
    assert main(["report", str(SAMPLE / "gold.json"), str(SAMPLE / "system_a.json"),
                 str(SAMPLE / "system_b.json"), "-o", str(out), "--samples", "100"]) == 0
    with st_ui.session(browser, {"width": 390, "height": 844}, offline=True) as page:
        page.goto(out.as_uri())
        phones = page.locator("svg.ss-phone")
        assert phones.count() >= 3 and page.locator("svg.ss-wide").first.bounding_box() is None
        for i in range(phones.count()):
            box = phones.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert box["width"] >= 340  # drawn at about its own size: 360 px of text and bars
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # A hatched bar of the phone's categories chart paints its pattern's white strokes over
        # its colour: with the ids of the hidden chart it painted its colour alone.
        chart = page.locator("#categories svg.ss-phone").first
        chart.scroll_into_view_if_needed()
        hatched = chart.locator("rect[fill^='url(#p-']")
        assert hatched.count() > 0
        widest = max((hatched.nth(i).bounding_box() for i in range(hatched.count())),
                     key=lambda b: b["width"] if b else 0)
        assert widest is not None and widest["width"] > 40
        # its left end: the count written at the bar's middle has a white halo of its own
        shot = page.screenshot(clip={"x": widest["x"] + 1, "y": widest["y"] + 1, "width": 12,
                                     "height": widest["height"] - 2})
        from io import BytesIO

        from PIL import Image

        image = Image.open(BytesIO(shot)).convert("RGB")
        colours = {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}
        assert max(min(c) for c in colours) > 200  # a near-white stroke over the bar's colour
        page.screenshot(path=str(tmp_path / "report_phone.png"))
