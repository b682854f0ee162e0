"""Real browser, Learn's exercise mode at a desktop (1440×900) and a phone (390×844) width: a
student opens the teacher's link (``?exercise=SEED``), types P and R for each metric, checks,
sees which answers are right and the ladder, then moves on to the next exercise (short by
default: SemEval-2021 and MAFALDA, issue 27). The ladder's
step names do not overlap on either width (issue 16 items 6 and 9). Screenshots:
``test-artifacts/screenshots/exercise_*``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect

from core.teaching import exercises
from tests.e2e.conftest import VIEWPORTS

pytestmark = pytest.mark.e2e

SEED = 2



def _overlaps(page: Any, selector: str) -> list[tuple[str, str]]:
    """Pairs of elements matching ``selector`` whose bounding boxes intersect."""
    boxes = page.eval_on_selector_all(selector, "els => els.map(e => { const r = "
                                      "e.getBoundingClientRect(); return [e.textContent, r.left,"
                                      " r.top, r.right, r.bottom]; })")
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[1] < b[3] - 1 and b[1] < a[3] - 1 and a[2] < b[4] - 1 and b[2] < a[4] - 1:
                out.append((a[0], b[0]))
    return out


def test_one_exercise_end_to_end(app_url: str, vpage: Any, st_ui: SimpleNamespace) -> None:
    page = vpage
    sol = exercises.solve(exercises.generate(SEED))
    asked = [k for k, _ in exercises.questions("short") if sol.truths[k].precision is not None]
    st_ui.open_page(page, app_url, f"learn?exercise={SEED}")
    page.locator("#exercise-gold").wait_for(timeout=30_000)
    page.get_by_text(f"Exercise {SEED}", exact=False).first.wait_for(timeout=30_000)
    assert page.locator("h2", has_text="The answers").count() == 0  # nothing revealed yet
    inputs = page.locator(".st-key-exercise_form").get_by_test_id("stTextInput")
    expect(inputs).to_have_count(2 * len(asked), timeout=30_000)
    # Right answers everywhere (as fractions) except MAFALDA's recall, answered with 0.
    for k, metric in enumerate(asked):
        for j, q in enumerate(("P", "R")):
            value = sol.truths[metric].value(q)
            assert value is not None
            frac = exercises.exact(value)
            text = "0" if (metric, q) == ("mafalda", "R") else str(frac or f"{value:.4f}")
            box = inputs.nth(2 * k + j).locator("input")
            box.fill(text)
            box.press("Tab")
            st_ui.wait_idle(page)
    st_ui.click(page, page.get_by_role("button", name="Check my answers"),
                page.locator("h2", has_text="The answers"))
    st_ui.wait_idle(page)
    n = 2 * len(asked)
    page.get_by_text(f"{n - 1} of {n} right").first.wait_for(timeout=10_000)
    # Each wrong answer is listed under the table with the step missed (a phone's narrow grid
    # hides columns, the list does not).
    wrong = page.locator("li", has_text="❌")
    expect(wrong).to_have_count(1)
    assert "MAFALDA" in wrong.inner_text() and ", R" in wrong.inner_text()
    if page.viewport_name == "desktop":
        grade = page.get_by_test_id("stDataFrame").filter(has_text="your answer")
        expect(grade.get_by_text("❌", exact=True)).to_have_count(1)
        expect(grade.get_by_text("✅", exact=True)).to_have_count(n - 1)
    # The Metric differences page's Vega-Lite waterfall: one bar per step (SVG paths of its
    # rect mark), the steps' names its y axis's labels.
    chart = page.locator(".st-key-exercise_waterfall [data-testid='stVegaLiteChart']")
    chart.wait_for(timeout=30_000)
    chart.scroll_into_view_if_needed()
    bars = page.locator(".st-key-exercise_waterfall g.mark-rect.role-mark path")
    expect(bars).to_have_count(len(sol.steps), timeout=10_000)
    names = ".st-key-exercise_waterfall .role-axis:has(.role-axis-label) .role-axis-label text"
    assert page.locator(names).count() >= len(sol.steps)
    assert _overlaps(page, names) == []
    box = chart.bounding_box()
    assert box is not None and box["x"] + box["width"] <= VIEWPORTS[page.viewport_name]["width"]
    st_ui.shot(page, f"exercise_reveal_{page.viewport_name}")
    # The next exercise: the seed in the URL advances and the answers are hidden again.
    page.get_by_role("button", name="New exercise").click()
    st_ui.wait_idle(page)
    page.wait_for_url(f"**exercise={SEED + 1}**", timeout=10_000)
    assert page.locator("h2", has_text="The answers").count() == 0
    assert st_ui.app_errors(page) == []


def test_differences_waterfall_labels_do_not_overlap(
    app_url: str, vpage: Any, st_ui: SimpleNamespace
) -> None:
    st_ui.open_page(vpage, app_url, "differences?b=system_a")
    # A Vega-Lite chart since issue 29's fourteenth pass: the steps' names are its y axis's
    # labels, each a text of one line per tspan.
    chart = vpage.locator(".st-key-diff_waterfall [data-testid='stVegaLiteChart']")
    vpage.locator(".st-key-diff_waterfall g.mark-rect path").first.wait_for(timeout=60_000)
    chart.scroll_into_view_if_needed()
    st_ui.wait_idle(vpage)
    names = ".st-key-diff_waterfall .role-axis:has(.role-axis-label) .role-axis-label text"
    labels = vpage.locator(".st-key-diff_waterfall .role-axis-label text")
    assert labels.count() >= 6 + 2  # the steps' names and the score axis's numbers
    assert _overlaps(vpage, names) == []
    box = chart.bounding_box()
    assert box is not None and box["x"] + box["width"] <= VIEWPORTS[vpage.viewport_name]["width"]
    st_ui.shot(vpage, f"exercise_diff_waterfall_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
