"""Real browser: the Metric differences page draws its waterfall and scatter, and clicking a text
(a table row or a scatter point) opens it on the Documents page with the same sets."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from core.formats import ReadOptions, load_path
from core.metrics.differences import document_differences

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "propaganda"


def _open(page: Any, app_url: str, st_ui: SimpleNamespace, query: str) -> None:
    st_ui.open_page(page, app_url, f"differences?{query}")
    page.locator(".st-key-diff_waterfall g.mark-rect path").first.wait_for(timeout=60_000)
    page.locator(".st-key-diff_table canvas").first.wait_for(timeout=60_000)
    st_ui.wait_idle(page)


def test_waterfall_and_scatter_render_without_console_errors(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui, "b=system_a")
    bars = page.locator(".st-key-diff_waterfall g.mark-rect path")
    assert bars.count() >= 6  # merged, no merging, 2021, best match, average, ..., MAFALDA
    # A step's name on the axis, its lines one below another (a tspan each)
    names = page.evaluate("() => [...document.querySelectorAll('.st-key-diff_waterfall "
                          ".role-axis-label text')].map(t => t.querySelectorAll('tspan').length"
                          " ? [...t.querySelectorAll('tspan')].map(s => s.textContent).join(' ')"
                          " : t.textContent)")
    assert "Martino, SemEval-2021" in names and "MAFALDA, level 2" in names
    # what a screen reader says of a bar: the step, its score, its change
    said = bars.nth(1).get_attribute("aria-label") or ""
    assert "no merging: F1 " in said and (", +" in said or ", -" in said)
    # Issue 29, target 4: the browser draws the PNG (Streamlit's chart toolbar), no server
    page.locator(".st-key-diff_waterfall").hover()
    button = page.get_by_role("button", name="Download as PNG")
    with page.expect_download(timeout=10_000) as got:
        button.click()
    assert got.value.suggested_filename.endswith(".png")
    st_ui.shot(page, "page_metric_differences")
    assert st_ui.app_errors(page) == []


def test_clicking_a_table_row_opens_that_text_on_the_documents_page(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    gold = load_path(SAMPLE / "gold.json")
    system = load_path(SAMPLE / "system_b.json", options=ReadOptions(role="system")).set
    # the propaganda labels have no levels: the page compares them as written (level 2)
    first = document_differences(gold.set, system, level=2, texts=gold.texts)[0].document
    _open(page, app_url, st_ui, "b=system_b")
    table = page.locator(".st-key-diff_table")
    table.scroll_into_view_if_needed()
    box = table.bounding_box()
    # The first data row's selection box: left edge of the grid, below the 35 px header.
    page.mouse.click(box["x"] + 18, box["y"] + 35 + 17)
    page.locator("#left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert st_ui.value(page, "Document (") == first
    assert st_ui.value(page, "Right (compared)") == "system_b"
    assert page.get_by_test_id("stSelectbox").filter(has_text="Level").count() == 0
    st_ui.shot(page, "differences_row_opens_document")
    assert st_ui.app_errors(page) == []


def test_clicking_a_scatter_point_opens_that_text(
    app_url: str, page: Any, st_ui: SimpleNamespace
) -> None:
    _open(page, app_url, st_ui, "b=system_a")
    point = page.locator(".st-key-diff_scatter .js-plotly-plot .scatterlayer .points path").first
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.locator("#left-doc").wait_for(timeout=30_000)
    st_ui.wait_idle(page)
    assert "metric=mafalda" in page.url  # the Documents page opens under MAFALDA
    assert st_ui.value(page, "Document (") in {str(d) for d in range(1, 11)}
    assert st_ui.app_errors(page) == []


STEP_CARDS = """() => { const t = document.querySelector('.st-key-diff_steps_f1 table');
  const rows = [...t.querySelectorAll('tbody tr')];
  const cut = [t, ...t.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1);
  return {width: t.getBoundingClientRect().width, scroll: t.scrollWidth, cut,
          head: getComputedStyle(t.querySelector('thead')).display,
          rows: rows.map(r => ({width: r.getBoundingClientRect().width, display:
                                getComputedStyle(r).display, text: r.innerText,
                                score: getComputedStyle(r.children[2], '::before').content}))};
}"""


@pytest.mark.parametrize("width", [1440, 390])
def test_the_steps_table_is_cards_on_a_phone_and_a_table_on_a_desktop(
        app_url: str, browser: Any, st_ui: SimpleNamespace, width: int) -> None:
    # bugleft21: at 390 px the six columns left the rules and reasons a word a line
    with st_ui.session(browser, {"width": width, "height": 900}) as page:
        st_ui.open_page(page, app_url, "differences?b=system_a&measure=F1")
        table = page.locator(".st-key-diff_steps_f1 table")
        table.wait_for(timeout=60_000)
        table.scroll_into_view_if_needed()
        got = page.evaluate(STEP_CARDS)
        st_ui.shot(page, f"differences_steps_{width}px")
        assert st_ui.app_errors(page) == []
    assert len(got["rows"]) >= 6 and not got["cut"], got
    assert got["scroll"] <= got["width"] + 1, got  # nothing to scroll to
    if width == 390:  # a card per step: named score and change, rules and reasons below
        assert got["head"] == "none", got
        for row in got["rows"]:
            assert row["display"] == "grid" and row["width"] >= got["width"] - 1, row
            assert row["score"] == '"F1 "' and "Rules: " not in row["text"], row
            assert "change " not in row["text"]  # the labels are the style's, not the data's
    else:  # the table as it was
        assert got["head"] != "none" and all(r["display"] == "table-row" for r in got["rows"])


def test_why_the_texts_differ_is_read_in_full_on_a_desktop_and_a_phone(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    """tour19: the reasons' explanations were cut at the edge of a data grid's column. Now a
    table of the reasons these texts carry: every explanation's whole text is on screen inside
    the page's width (a cell wraps, none is clipped), and the other reasons wait in a closed
    expander."""
    _open(vpage, app_url, st_ui, "sample=mafalda&b=system_a")
    legend = vpage.locator(".st-key-diff_reasons table")
    legend.scroll_into_view_if_needed()
    cells = vpage.evaluate(
        "() => [...document.querySelectorAll('.st-key-diff_reasons td')].map(c => {"
        " const r = c.getBoundingClientRect();"
        " return {text: c.innerText, clipped: c.scrollWidth > c.clientWidth + 1,"
        " right: r.right}; })")
    reasons = [c["text"] for c in cells[0::3]]
    assert "alternative-labels" in reasons and "optional-span" in reasons
    width = vpage.viewport_size["width"]
    assert cells and all(not c["clipped"] and c["right"] <= width for c in cells), cells
    assert any("MAFALDA one of them" in c["text"] for c in cells[2::3])  # the words in full
    others = vpage.get_by_text("The other reasons (")
    assert others.is_visible() and not vpage.locator(".st-key-diff_reasons_other").is_visible()
    st_ui.shot(vpage, f"differences_reasons_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_the_waterfall_draws_a_title_that_names_the_pair_for_its_png(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    """tour19: the title the chart draws (and its PNG keeps) names the system, the reference,
    the level and the MAFALDA variant; its lines stay inside the chart at both widths."""
    _open(vpage, app_url, st_ui, "b=system_a")
    title = vpage.evaluate("() => [...document.querySelectorAll('.st-key-diff_waterfall "
                           ".role-title text tspan, .st-key-diff_waterfall .role-title-text "
                           "text')].map(t => t.textContent).join(' ')")
    assert "system_a against gold, level 2, MAFALDA paper" in " ".join(title.split()), title
    chart = vpage.locator(".st-key-diff_waterfall").bounding_box()
    heading = vpage.locator(".st-key-diff_waterfall .role-title").first.bounding_box()
    assert chart is not None and heading is not None
    assert heading["x"] + heading["width"] <= chart["x"] + chart["width"] + 1
    st_ui.shot(vpage, f"differences_waterfall_title_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
