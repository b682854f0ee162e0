"""Real browser: a page link of the sidebar reached with Tab shows a clear focus ring (tour
finding: a faint grey fill and no outline), in the light and the dark theme
(:data:`ui.sidebar.FOCUS_CSS`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(el);
  let under = el.parentElement, background = "rgb(255, 255, 255)";
  for (; under; under = under.parentElement) {  // the first opaque background behind the link
    const c = getComputedStyle(under).backgroundColor;
    if (!c.startsWith("rgba") || !c.endsWith(", 0)")) { background = c; break; }
  }
  const [a, b] = [lum(style.outlineColor), lum(background)];
  return {style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor,
          background,
          ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)};
}"""


def _tab_to_a_page_link(page: Any) -> Any:
    """Press Tab until a sidebar page link has the focus (at most 40 times); its locator."""
    for _ in range(40):
        page.keyboard.press("Tab")
        title = page.evaluate(
            "() => { const e = document.activeElement;"
            " return e && e.closest('[data-testid=\"stSidebar\"]')"
            " && e.matches('[data-testid=\"stPageLink-NavLink\"]') ? e.textContent : null; }")
        if title:
            return page.locator(":focus")
    raise AssertionError("Tab never reached a page link of the sidebar")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_page_link_reached_with_tab_shows_a_clear_focus_ring(
    app_url: str, browser: Any, st_ui: SimpleNamespace, scheme: str
) -> None:
    with st_ui.session(browser, {"width": 1440, "height": 900}, color_scheme=scheme) as page:
        st_ui.open_page(page, app_url, "scores")
        page.get_by_test_id("stSidebar").get_by_test_id("stPageLink-NavLink").first.wait_for(
            timeout=60_000)
        st_ui.wait_idle(page)  # the sidebar's style element comes with the frame's last elements
        page.wait_for_function(
            "() => [...document.querySelectorAll('style')]"
            ".some((e) => e.textContent.includes(':focus-visible{outline:2px'))",
            timeout=60_000)
        link = _tab_to_a_page_link(page)
        ring = link.evaluate(CONTRAST)
        assert ring["style"] == "solid" and ring["width"] == "2px", ring
        assert ring["background"] != "rgb(255, 255, 255)", ring  # the sidebar's, not a default
        assert ring["ratio"] >= 3, ring
        box = link.bounding_box()
        page.screenshot(path=str(st_ui.SHOTS / f"sidebar_focus_{scheme}.png"), clip={
            "x": 0, "y": max(0, box["y"] - 60), "width": 320, "height": box["height"] + 120})
