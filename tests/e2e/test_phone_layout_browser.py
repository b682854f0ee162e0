"""Real browser at a desktop (1440×900) and a phone (390×844) width: the Labels heatmap is never
cut off (a matrix wider than the screen scrolls sideways, its last column reachable), and the
Annotators page shows γ's settings only when γ is the measure (issue 16 item 9). Screenshots:
``test-artifacts/screenshots/layout_*``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.e2e.conftest import VIEWPORTS

pytestmark = pytest.mark.e2e




def test_labels_heatmap_scrolls_instead_of_being_cut(app_url: str, vpage: Any,
                                                     st_ui: SimpleNamespace) -> None:
    st_ui.open_page(vpage, app_url, "labels")
    box = vpage.locator(".st-key-lab_chart")
    box.locator("path[aria-label]").first.wait_for(timeout=60_000)
    box.scroll_into_view_if_needed()
    width = VIEWPORTS[vpage.viewport_name]["width"]
    outer = box.bounding_box()
    assert outer is not None and outer["x"] + outer["width"] <= width + 1
    # The "missed" column is the first one, beside the row labels: on the screen unscrolled.
    missed = box.locator("text", has_text="missed").last
    mbox = missed.bounding_box()
    assert mbox is not None and mbox["x"] >= 0 and mbox["x"] + mbox["width"] <= width + 1
    # The last column is reached by scrolling the chart sideways: the chart's right edge.
    vpage.evaluate("() => { const e = document.querySelector('.st-key-lab_chart'); "
                   "e.scrollLeft = e.scrollWidth; }")
    chart = box.locator("svg").first.bounding_box()
    assert chart is not None and chart["x"] + chart["width"] <= width + 1
    st_ui.shot(vpage, f"layout_labels_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


def test_gamma_settings_only_with_gamma(app_url: str, vpage: Any,
                                        st_ui: SimpleNamespace) -> None:
    st_ui.open_page(vpage, app_url, "annotators?ann_measure=char-kappa")
    vpage.get_by_text("Leave-one-out majority").first.wait_for(timeout=60_000)
    assert vpage.get_by_text("γ chance samples").count() == 0  # drawn only with γ
    st_ui.open_page(vpage, app_url, "annotators?ann_measure=gamma")
    vpage.get_by_text("γ chance samples").first.wait_for(timeout=60_000)
    st_ui.shot(vpage, f"layout_annotators_gamma_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []


LABEL_CUT = ("e => { const md = e.querySelector('[data-testid=\"stMarkdownContainer\"]'); "
             "return [md.parentElement, md, ...md.querySelectorAll('*')]"
             ".some(x => x.scrollWidth > x.clientWidth + 1); }")
"""Whether the label of the page link ``e`` is cut (its text's box or the one around it; the
icon's emoji is left out: its glyph is a pixel or two wider than its box when the emoji font
has loaded)."""


def test_the_above_one_link_shows_its_whole_label(app_url: str, vpage: Any,
                                                  st_ui: SimpleNamespace) -> None:
    # bugleft21: on a phone the link read "See why on Learn: duplicate predictions push
    # recall abo" (Streamlit keeps a page link's label on one line and hides the rest)
    st_ui.open_page(vpage, app_url, "scores")
    link = vpage.locator(".st-key-above_one_systems [data-testid='stPageLink-NavLink']")
    link.wait_for(timeout=60_000)
    link.scroll_into_view_if_needed()
    # the shared style element may arrive a moment after the link (a fresh session)
    for _ in range(100):
        if not link.evaluate(LABEL_CUT):
            break
        vpage.wait_for_timeout(100)
    assert not link.evaluate(LABEL_CUT), "the link's label is cut"
    width = VIEWPORTS[vpage.viewport_name]["width"]
    box = link.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width + 1
    assert link.inner_text().strip().endswith("push recall above 1")
    lines = link.locator("p").evaluate(
        "p => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p)"
        ".lineHeight))")
    assert lines == (2 if vpage.viewport_name == "phone" else 1)  # wrapped only where needed
    st_ui.shot(vpage, f"layout_above_one_link_{vpage.viewport_name}")
    assert st_ui.app_errors(vpage) == []
