"""Real browser, issue 27 at a desktop (1440×900) and a phone (390×844) width: a live class from
"Start a class" to the reveal (the teacher on a desktop, a student on a phone), the sidebar that
closes after a page link on a phone, the exercise's gold label read whole on a phone, a short
exercise, and Learn's recalls each naming their setting. Screenshots:
``test-artifacts/screenshots/live_*``, ``phone_*``, ``learn_settings_*``."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from core.teaching import exercises
from tests.e2e.conftest import VIEWPORTS, new_page

pytestmark = pytest.mark.e2e

SEED = 3  # gold "ad hominem | ⊥" and "appeal to fear | ⊥"


def _fits(page: Any) -> bool:
    """Nothing wider than the window: no sideways scrolling of the page."""
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_live_class_teacher_desktop_student_phone(app_url: str, browser: Any,
                                                  st_ui: SimpleNamespace) -> None:
    tctx, teacher = new_page(browser, VIEWPORTS["desktop"])
    sctx, student = new_page(browser, VIEWPORTS["phone"])
    try:
        st_ui.open_page(teacher, app_url, f"learn?exercise={SEED}")
        teacher.get_by_role("button", name="Start a class").click()
        st_ui.wait_idle(teacher)
        teacher.wait_for_url("**class=*", timeout=30_000)
        code = teacher.url.split("class=")[1][:8]
        teacher.get_by_text("Students scan this").first.wait_for(timeout=30_000)
        assert teacher.get_by_test_id("stImage").count() == 1  # the QR code
        expect(teacher.get_by_text(f"/learn?class={code}").first).to_be_visible()
        st_ui.shot(teacher, "live_teacher_start_desktop")

        st_ui.open_page(student, app_url, f"learn?class={code}")
        student.get_by_label("Your nickname", exact=True).fill("Ada")
        student.get_by_role("button", name="Join").click()
        st_ui.wait_idle(student)
        student.get_by_text("You are").first.wait_for(timeout=30_000)
        assert _fits(student)
        st_ui.shot(student, "live_student_joined_phone")
        form = student.locator(".st-key-live_form")
        inputs = form.get_by_test_id("stTextInput")
        sol = exercises.solve(exercises.generate(SEED))
        asked = [(k, q) for k, _ in exercises.questions("short") for q in "PR"
                 if sol.truths[k].value(q) is not None]
        expect(inputs).to_have_count(len(asked))
        for i, (k, q) in enumerate(asked):
            box = inputs.nth(i).locator("input")
            box.fill(exercises.fraction_text(sol.truths[k].value(q)).split(" ")[0])
            box.press("Tab")
            st_ui.wait_idle(student)
        form.get_by_role("button", name="Send my answers").click()
        st_ui.wait_idle(student)
        student.get_by_text("Received at").first.wait_for(timeout=30_000)
        st_ui.shot(student, "live_student_sent_phone")
        # F5 (or a phone that dropped the tab): the address brings the student back as Ada.
        assert "student=" in student.url
        student.reload()
        student.get_by_text("You are").first.wait_for(timeout=30_000)
        st_ui.wait_idle(student)
        student.get_by_text("Received at").first.wait_for(timeout=30_000)
        assert student.get_by_text("Join class").count() == 0

        # The teacher's fragment refreshes by itself: no click on the teacher's page.
        teacher.wait_for_function(
            "() => { const m = document.querySelectorAll('[data-testid=\"stMetricValue\"]');"
            " return m.length > 1 && m[1].textContent.trim() === '1'; }", timeout=30_000)
        st_ui.shot(teacher, "live_teacher_answered_desktop")
        teacher.get_by_role("button", name="Reveal the solution").click()
        st_ui.wait_idle(teacher)
        teacher.get_by_text("solution shown").first.wait_for(timeout=30_000)
        st_ui.shot(teacher, "live_teacher_revealed_desktop")
        # The student's page follows the reveal by itself, with the student's answers graded.
        student.locator("h2", has_text="The answers").first.wait_for(timeout=30_000)
        student.get_by_text(f"All {len(asked)} right").first.wait_for(timeout=30_000)
        assert _fits(student)
        st_ui.shot(student, "live_student_revealed_phone")
        assert st_ui.app_errors(teacher) == [] and st_ui.app_errors(student) == []
    finally:
        tctx.close()
        sctx.close()


def test_sidebar_closes_after_navigation_on_a_phone_only(app_url: str, vpage: Any,
                                                         st_ui: SimpleNamespace) -> None:
    st_ui.open_page(vpage, app_url, "learn")
    sidebar = vpage.get_by_test_id("stSidebar")
    # the listener is installed by the page's first run (ui/sidebar.py), as a person's tap
    # would find it
    vpage.wait_for_function("() => window.__spanscopeSidebar === true", timeout=30_000)
    if vpage.viewport_name == "phone":
        vpage.get_by_test_id("stExpandSidebarButton").click()
        vpage.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]')"
                                ".getBoundingClientRect().width > 200")
    sidebar.get_by_test_id("stPageLink-NavLink").filter(has_text="Scores").click()
    st_ui.wait_idle(vpage)
    vpage.locator("h1", has_text="Scores").first.wait_for(timeout=30_000)
    if vpage.viewport_name == "phone":  # the sidebar's closing transition (slower when loaded)
        with contextlib.suppress(PlaywrightTimeout):
            vpage.wait_for_function(
                "() => { const s = document.querySelector('[data-testid=\"stSidebar\"]');"
                " return !s || s.getBoundingClientRect().width < 50; }", timeout=10_000)
    else:
        vpage.wait_for_timeout(800)
    width = sidebar.bounding_box()["width"] if sidebar.bounding_box() else 0
    if vpage.viewport_name == "phone":
        assert width < 50, width  # closed: the page is not hidden behind it
        assert vpage.locator("h1", has_text="Scores").first.is_visible()
    else:
        assert width > 200, width  # a desktop keeps its sidebar
    st_ui.shot(vpage, f"phone_sidebar_after_link_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_exercise_gold_label_is_whole_and_exercise_is_short(app_url: str, vpage: Any,
                                                            st_ui: SimpleNamespace) -> None:
    st_ui.open_page(vpage, app_url, f"learn?exercise={SEED}")
    table = vpage.locator(".st-key-exercise_gold")
    cell = table.locator("td", has_text="ad hominem | ⊥").first
    cell.scroll_into_view_if_needed()
    box = cell.bounding_box()
    width = VIEWPORTS[vpage.viewport_name]["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # The cell shows its whole text: nothing is cut or hidden behind an ellipsis.
    assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    inputs = vpage.locator(".st-key-exercise_form").get_by_test_id("stTextInput")
    assert 2 <= inputs.count() <= 4
    st_ui.shot(vpage, f"phone_exercise_gold_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_each_recall_names_its_setting(app_url: str, vpage: Any,
                                       st_ui: SimpleNamespace) -> None:
    st_ui.open_page(vpage, app_url, "learn?scenario=mafalda-example9")
    tile = vpage.get_by_test_id("stMetric").filter(has_text="semeval2021, level 1 — recall")
    tile.first.wait_for(timeout=60_000)
    expect(tile).to_have_count(1)
    assert "1.25" in tile.inner_text()
    chart = vpage.locator(".st-key-learn_waterfall .vega-embed svg")
    chart.wait_for(timeout=60_000)
    chart.scroll_into_view_if_needed()
    names = chart.locator(".role-axis-label text")
    names.first.wait_for(timeout=30_000)
    labels = " ".join(" ".join(t.split()) for t in names.all_text_contents())
    assert "labels as written" in labels
    st_ui.shot(vpage, f"learn_settings_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_the_qr_codes_full_screen_button_leaves_the_class_code_readable_on_a_phone(
        app_url: str, browser: Any, st_ui: SimpleNamespace) -> None:
    """Tour 7 item 6: on a phone the QR image's full-screen button covered the class code's
    last letters in the teacher's heading."""
    ctx, teacher = new_page(browser, VIEWPORTS["phone"])
    try:
        st_ui.open_page(teacher, app_url, f"learn?exercise={SEED}")
        teacher.get_by_role("button", name="Start a class").click()
        st_ui.wait_idle(teacher)
        teacher.wait_for_url("**class=*", timeout=30_000)
        image = teacher.get_by_test_id("stImage").first
        image.wait_for(timeout=30_000)
        image.hover()  # shows the full-screen button
        teacher.wait_for_timeout(400)
        heading = teacher.locator("h2", has_text="Class").first.bounding_box()
        button = teacher.get_by_role("button", name="Fullscreen").first
        assert heading is not None
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None
        assert box["y"] >= heading["y"] + heading["height"], (box, heading)
        st_ui.shot(teacher, "live_teacher_qr_phone")
    finally:
        ctx.close()
