"""Real browser at a desktop (1440×900) and a phone (390×844) width (issue 27): the Errors page's
charts keep their title, legend and toolbars apart, "errors only" draws no correct spans, and
the HTML report fits the screen (it was 1,363 px wide on a phone). Screenshots:
``test-artifacts/screenshots/errors_*`` and ``report_*``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote_plus

import pytest

from core.analysis.report import ReportInputs, build_report
from core.formats import ReadOptions, load_path
from tests.e2e.conftest import VIEWPORTS, shot
from ui.errors import K_ERR_TAB, TABS

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"


def _box(page: Any, selector: str) -> dict[str, float] | None:
    box: dict[str, float] | None = page.locator(selector).first.bounding_box()
    return box


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("chart", ["err_chart", "err_label_chart", "err_slice_chart"])
def test_chart_title_legend_and_toolbars_do_not_overlap(app_url: str, vpage: Any,
                                                        st_ui: SimpleNamespace,
                                                        chart: str) -> None:
    tab = {"err_chart": TABS[1], "err_label_chart": TABS[2], "err_slice_chart": TABS[4]}[chart]
    st_ui.open_page(vpage, app_url, "errors?sample=propaganda&eview=errors+only"
                    f"&{K_ERR_TAB}={quote_plus(tab)}")  # lazy tabs
    plot = vpage.locator(f".st-key-{chart} .js-plotly-plot")
    plot.wait_for(timeout=60_000)
    st_ui.wait_idle(vpage)
    plot.scroll_into_view_if_needed()
    plot.hover()  # shows plotly's modebar and Streamlit's element toolbar
    vpage.wait_for_timeout(400)
    root = f".st-key-{chart}"
    title = _box(vpage, f"{root} .gtitle")
    legend = _box(vpage, f"{root} .legend")
    modebar = _box(vpage, f"{root} .modebar")
    assert title and legend and modebar
    assert not _overlap(title, legend) and not _overlap(title, modebar)
    assert not _overlap(legend, modebar)
    toolbar = vpage.locator('[data-testid="stElementToolbar"]').filter(
        has=vpage.locator("button")).last
    if toolbar.is_visible():
        tbox = toolbar.bounding_box()
        assert tbox is not None and not _overlap(title, tbox)
    width = VIEWPORTS[vpage.viewport_name]["width"]
    assert title["x"] + title["width"] <= width and legend["x"] + legend["width"] <= width
    if chart == "err_chart":  # errors only: no correct spans drawn
        names = vpage.locator(f"{root} .legendtext").all_inner_texts()
        assert names and "correct" not in names and "optional" not in names
    st_ui.shot(vpage, f"errors_{chart}_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_report_fits_the_screen(vpage: Any, st_ui: SimpleNamespace, tmp_path: Path) -> None:
    loaded = load_path(SAMPLE / "gold.json")
    systems = [load_path(SAMPLE / f"{n}.json", options=ReadOptions(role="system")).set
               for n in ("system_a", "system_b")]
    html = build_report(ReportInputs(loaded.set, systems, loaded.texts, n_resamples=50),
                        command="python -m core report ...")
    path = tmp_path / "report.html"
    path.write_text(html, encoding="utf-8")
    vpage.goto(path.as_uri())
    width = VIEWPORTS[vpage.viewport_name]["width"]
    # The page never scrolls sideways; wide tables and charts scroll inside their own box.
    assert vpage.evaluate("document.documentElement.scrollWidth") <= width
    for box in vpage.locator("table, .chart").all():
        b = box.bounding_box()
        assert b is not None and b["x"] + b["width"] <= width + 1
    st_ui.shot(vpage, f"report_top_{vpage.viewport_name}")
    vpage.locator("#categories").scroll_into_view_if_needed()
    vpage.evaluate("document.getElementById('categories').scrollIntoView()")
    st_ui.shot(vpage, f"report_categories_{vpage.viewport_name}")
    vpage.evaluate("document.getElementById('worst').scrollIntoView()")
    st_ui.shot(vpage, f"report_worst_{vpage.viewport_name}")
    # The side-by-side documents stack on a phone, each as wide as the text column.
    cols = vpage.locator("article.worst .side > div").all()[:3]
    boxes = [c.bounding_box() for c in cols]
    assert all(b is not None for b in boxes)
    if vpage.viewport_name == "phone":
        assert len({round(b["x"]) for b in boxes if b}) == 1


def test_a_page_tables_caption_stays_on_screen_beside_a_wide_table(app_url: str, vpage: Any,
                                                                   st_ui: SimpleNamespace) -> None:
    """Tour20: the categories table is wider than a phone's column (it scrolls sideways), and
    its caption, laid out at the table's width inside the scrolling region, ran off the screen
    mid-word ("... predicted spans per cate"). It wraps within the column now and stays put
    when the table is scrolled."""
    st_ui.open_page(vpage, app_url, "errors?sample=propaganda")
    region = vpage.locator(".st-key-err_table .ss-page-table")
    region.wait_for(timeout=60_000)
    st_ui.wait_idle(vpage)
    caption = vpage.locator(".st-key-err_table caption")
    box, frame = caption.bounding_box(), region.bounding_box()
    assert box is not None and frame is not None
    assert box["x"] >= frame["x"] - 1 and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
    if VIEWPORTS[vpage.viewport_name]["width"] < 500:  # the table is wider than the column
        assert region.evaluate("e => e.scrollWidth > e.clientWidth")
        region.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        vpage.wait_for_timeout(100)
        moved = caption.bounding_box()
        assert moved is not None and abs(moved["x"] - box["x"]) <= 1
    shot(vpage, f"errors_caption_{vpage.viewport_name}")
