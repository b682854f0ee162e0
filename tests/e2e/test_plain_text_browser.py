"""Real browser: a caption drawn as plain HTML (``ui.plain``, issue 29, twentieth pass) is drawn as
Streamlit draws ``st.caption`` and its bold text as Markdown's, in the light and the dark theme:
the same computed type, size, line height, opacity, colour, word breaking and weight of bold text
(``ui.sidebar.CAPTION_CSS``).

The Errors page of the sample draws its categories caption as HTML, with bold category names;
Streamlit's own caption and bold text are the Scores page's variants note and "Above 1?" note,
still Markdown."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

STYLE = """(el) => { const s = getComputedStyle(el);
  return {size: s.fontSize, line: s.lineHeight, family: s.fontFamily, weight: s.fontWeight,
          color: s.color, opacity: s.opacity, breaks: s.wordBreak, wrap: s.overflowWrap}; }"""


def _style(page: Any, selector: str) -> dict[str, str]:
    return page.locator(selector).first.evaluate(STYLE)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_plain_captions_look_like_streamlits(app_url: str, browser: Any, st_ui: SimpleNamespace,
                                             scheme: str) -> None:
    with st_ui.session(browser, {"width": 1440, "height": 900}, color_scheme=scheme) as page:
        st_ui.open_page(page, app_url, "scores")
        # the sidebar's style element comes with the frame's last elements
        page.wait_for_function("() => [...document.querySelectorAll('style')]"
                               ".some((e) => e.textContent.includes('.ss-caption{font-size'))",
                               timeout=60_000)
        theirs = _style(page, "[data-testid='stMain'] [data-testid='stCaptionContainer']")
        theirs_p = _style(page, "[data-testid='stMain'] [data-testid='stCaptionContainer'] p")
        theirs_bold = _style(page, "[data-testid='stMain'] [data-testid='stMarkdownContainer'] "
                                   "strong")
        st_ui.open_page(page, app_url, "errors")
        page.locator(".ss-caption strong").first.wait_for(timeout=60_000)
        ours = _style(page, "[data-testid='stMain'] .ss-caption")
        ours_bold = _style(page, "[data-testid='stMain'] .ss-caption strong")
        for key in ("size", "line", "family", "color", "opacity"):
            assert ours[key] == theirs[key], (key, ours, theirs)
        assert (ours["breaks"], ours["wrap"]) == (theirs_p["breaks"], theirs_p["wrap"])
        assert ours_bold["weight"] == theirs_bold["weight"] == "600", (ours_bold, theirs_bold)
        assert not st_ui.app_errors(page)
