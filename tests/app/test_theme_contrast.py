"""The colours Streamlit draws in its primary colour keep WCAG 2.1's contrast on both themes
(docs/dashboard.md, "Accessibility"): text 4.5:1 (SC 1.4.3), a control 3:1 (SC 1.4.11).

Streamlit draws the selected tab's name and a slider's value in the primary colour, on the page's
background: text. The slider's track and thumb and the selected tab's underline are controls'
parts. A primary button's and a multiselect chip's white text sits on the primary colour.
``tests/e2e/test_accessibility_browser.py`` measures the same in a browser, on every page.
"""

from __future__ import annotations

import pytest

from core.render.palette import contrast_ratio
from ui import sidebar, theme


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_in_the_primary_colour_reaches_4_5_on_the_background(scheme: str) -> None:
    ratio = contrast_ratio(theme.PRIMARY_TEXT[scheme], theme.STREAMLIT_BACKGROUND[scheme])
    assert ratio >= 4.5, (scheme, round(ratio, 2))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_primary_colour_itself_serves_controls_and_white_text(scheme: str) -> None:
    primary = theme.STREAMLIT_PRIMARY[scheme]
    assert contrast_ratio(primary, theme.STREAMLIT_BACKGROUND[scheme]) >= 3  # track, underline
    assert contrast_ratio("#ffffff", primary) >= 4.5  # a primary button's, a chip's text


def test_streamlits_dark_primary_alone_was_too_faint_for_text() -> None:
    """Why :data:`ui.theme.PRIMARY_TEXT` exists: 3.9:1, and no one colour serves both the text
    on the background (4.5:1) and the white text on it (4.5:1)."""
    dark = theme.STREAMLIT_BACKGROUND["dark"]
    assert contrast_ratio(theme.STREAMLIT_PRIMARY["dark"], dark) < 4.5
    assert contrast_ratio(theme.PRIMARY_TEXT["dark"], "#ffffff") < 4.5


def test_the_primary_text_style_is_drawn_on_every_page() -> None:
    css = theme.PRIMARY_TEXT_CSS
    assert f"light-dark({theme.PRIMARY_TEXT['light']},{theme.PRIMARY_TEXT['dark']})" in css
    for element in ("[data-testid='stTab'][aria-selected='true']",
                    "[data-testid='stSliderThumbValue']"):
        assert element in css
    assert css in sidebar.SCRIPT and sidebar.HEADING_CSS in sidebar.SCRIPT


def _installed_themes() -> set[tuple[str, str]]:
    """(background, text colour) of each base theme the installed Streamlit's front end
    defines: its bundle's theme objects (``bgColor``, ``bodyText``), in lower case."""
    import re
    from pathlib import Path

    import streamlit

    bundle = Path(streamlit.__file__).parent / "static" / "static" / "js"
    pattern = re.compile(r"bgColor:`(#[0-9A-Fa-f]{6})`,(?:secondaryBg:`#[0-9A-Fa-f]{6}`,)?"
                         r"bodyText:`(#[0-9A-Fa-f]{6})`")
    found = {(bg.lower(), ink.lower()) for js in bundle.glob("*.js")
             for bg, ink in pattern.findall(js.read_text(encoding="utf-8", errors="replace"))}
    assert len(found) >= 2, f"no light and dark theme found in {bundle}: read it again"
    return found


def test_the_theme_constants_are_the_colours_the_installed_streamlit_draws() -> None:
    """Streamlit 1.67 draws its dark theme on #171614 with #edebe8 text (measured in Chromium:
    the app element's background and colour), not the #0e1117 and #fafafa of its old theme; a
    contrast checked against a background Streamlit no longer draws proves nothing. An upgrade
    that changes them fails here first."""
    from core.render import palette

    installed = _installed_themes()
    assert theme.STREAMLIT_BACKGROUND == palette.THEME_BACKGROUNDS
    assert (palette.THEME_BACKGROUNDS["light"], theme.LIGHT_INK) in installed
    assert (palette.THEME_BACKGROUNDS["dark"], theme.DARK_INK) in installed


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_inks_and_the_grey_keep_their_contrast_on_either_background(scheme: str) -> None:
    """WCAG 2.1: the theme's ink is text (4.5:1, SC 1.4.3) and draws whiskers and reference
    lines (3:1, SC 1.4.11); the grey of a figure built once for every theme keeps 3:1 on both."""
    from core.render import palette

    background = palette.THEME_BACKGROUNDS[scheme]
    ink = theme.LIGHT_INK if scheme == "light" else theme.DARK_INK
    assert contrast_ratio(ink, background) >= 4.5
    assert contrast_ratio(theme.EITHER_GREY, background) >= 3


def test_the_waterfalls_ink_style_is_drawn_on_every_page() -> None:
    """The waterfall's text and line at 1 take the theme's ink by ``light-dark()`` (the spec's
    ink is the light theme's until the browser has told the server its theme)."""
    css = theme.CHART_INK_CSS
    assert css.count(f"light-dark({theme.LIGHT_INK},{theme.DARK_INK})") == 4
    assert "[class*='_waterfall'] .vega-embed svg text" in css
    # any chart's text in either ink (the Labels heatmap's column names): the theme shown's
    assert (f".vega-embed svg text:is([fill='{theme.LIGHT_INK}' i],[fill='{theme.DARK_INK}' i])"
            in css)
    # a Plotly line in either ink (the slice chart's whiskers): an inline style, !important
    assert ".js-plotly-plot path:is([style*='stroke: rgb(47, 45, 43);']" in css
    assert css in sidebar.SCRIPT
