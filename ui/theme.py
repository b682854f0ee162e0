"""The colours of the theme the browser shows, for what a chart draws in a fixed colour.

Streamlit draws a chart's axes and titles in the theme's text colour, light or dark (its
"streamlit" theme for Plotly and Vega-Lite); a colour the code sets itself (a label colour
expression, a reference line) does not follow. :func:`theme_ink` is the colour such a mark takes
instead of a fixed dark grey, which the dark theme's background hides (a ``#555555`` line on
Streamlit 1.67's dark ``#171614`` is 2.4:1, below the 3:1 that WCAG 2.1 SC 1.4.11 asks of
graphics).

The colours are Streamlit 1.67's (its front end's theme objects, ``bgColor`` and ``bodyText``,
and what Chromium shows); ``tests/app/test_theme_contrast.py`` reads them from the installed
Streamlit, so an upgrade that changes them fails there first.
"""

from __future__ import annotations

import streamlit as st

from core.render.palette import THEME_BACKGROUNDS

LIGHT_INK = "#2f2d2b"
"""Streamlit 1.67's light theme's text colour (13.7:1 on white)."""
DARK_INK = "#edebe8"
"""Streamlit 1.67's dark theme's text colour (15.2:1 on its ``#171614`` background)."""
EITHER_GREY = "#888888"
"""A grey that keeps 3:1 on either theme's background (3.5:1 on white, 5.1:1 on ``#171614``):
the colour of a line in a figure built once for every session, whatever its theme."""


STREAMLIT_BACKGROUND: dict[str, str] = THEME_BACKGROUNDS
"""Streamlit 1.67's page background, per theme (:data:`core.render.palette.THEME_BACKGROUNDS`;
measured in Chromium)."""
STREAMLIT_PRIMARY: dict[str, str] = {"light": "#c53948", "dark": "#cf4250"}
"""Streamlit 1.67's primary colour, per theme (its ``theme.primaryColor`` defaults)."""

PRIMARY_TEXT: dict[str, str] = {"light": "#c53948", "dark": "#ec7580"}
"""The colour of the text Streamlit draws in its primary colour (the selected tab's name, a
slider's value), per theme. Streamlit 1.67's primary is ``#c53948`` on the light theme (5.2:1 on
white: kept) and ``#cf4250`` on the dark one, 3.9:1 on its ``#171614`` background: enough for
the slider's track and thumb and the selected tab's underline (WCAG 2.1 SC 1.4.11 asks 3:1 of
a control), too little for text (SC 1.4.3 asks 4.5:1). No one primary serves both: the white
text of a primary button or of a multiselect's chip needs a primary of 4.5:1 against white, so
the dark primary stays and only that text takes a lighter tint of the same red, 6.4:1 on the
dark background. The selected tab keeps its underline, a cue beside the colour."""

PRIMARY_TEXT_CSS = (
    "<style>[data-testid='stApp'] :is([data-testid='stTab'][aria-selected='true'], "
    "[data-testid='stSliderThumbValue']){color:light-dark(" + PRIMARY_TEXT["light"] + ","
    + PRIMARY_TEXT["dark"] + ")}</style>")
""":data:`PRIMARY_TEXT` as a style: ``light-dark()`` follows the ``color-scheme`` Streamlit sets on
its app element for the theme shown (a browser without ``light-dark()`` keeps Streamlit's
colour). Drawn on every page by :data:`ui.sidebar.SCRIPT`."""


def _rgb(colour: str) -> str:
    """``#rrggbb`` as Plotly writes it in an inline style: ``rgb(r, g, b)``.

    >>> _rgb("#2f2d2b")
    'rgb(47, 45, 43)'
    """
    return "rgb({}, {}, {})".format(*(int(colour[k:k + 2], 16) for k in (1, 3, 5)))


CHART_INK_CSS = (
    "<style>[data-testid='stApp'] [class*='_waterfall'] .vega-embed svg text{fill:light-dark("
    + LIGHT_INK + "," + DARK_INK + ")}[data-testid='stApp'] [class*='_waterfall'] .vega-embed "
    "svg .mark-rule.role-mark line{stroke:light-dark(" + LIGHT_INK + "," + DARK_INK
    + ")}[data-testid='stApp'] .vega-embed svg text:is([fill='" + LIGHT_INK + "' i],[fill='"
    + DARK_INK + "' i]){fill:light-dark(" + LIGHT_INK + "," + DARK_INK + ")}"
    "[data-testid='stApp'] .js-plotly-plot path:is([style*='stroke: " + _rgb(LIGHT_INK)
    + ";'],[style*='stroke: " + _rgb(DARK_INK) + ";']){stroke:light-dark(" + LIGHT_INK + ","
    + DARK_INK + ")!important}</style>")
"""The theme's ink in the charts whatever the figure says: a Vega-Lite spec takes
:func:`theme_ink`, the ink of the theme the server knows, which is the light theme's until the
browser has told it, and stays what it was when the browser's theme changes without a rerun (the
system's theme, or Streamlit's settings menu). So a waterfall opened in the dark theme drew its
first run's names and values near-black on the dark background, and the Labels heatmap's column
names stayed near-black after a switch to the dark theme. ``light-dark()`` follows the
``color-scheme`` Streamlit sets on its app element for the theme shown, from the first frame (a
CSS rule outranks the SVG's presentation attributes): every text of a chart whose fill is
either theme's ink takes the ink of the theme shown (the other colours, an outcome's orange, a
cell's number, keep theirs), and the waterfall's text and its line at 1 all of it. A Plotly
figure's line in either ink (the Errors slice chart's whiskers and bar outlines) is in an inline
style, which only an ``!important`` rule outranks. Drawn on
every page by :data:`ui.sidebar.SCRIPT`; the waterfall's containers are keyed
``..._waterfall`` (Metric differences, Learn, an exercise)."""


def theme_ink() -> str:
    """The text colour of the theme the browser shows, as Streamlit draws the axis titles: the
    configured ``theme.textColor``, else the dark theme's or the light theme's
    (``st.context.theme``, light until the browser has said)."""
    custom = st.get_option("theme.textColor")
    if custom:
        return str(custom)
    return DARK_INK if st.context.theme.type == "dark" else LIGHT_INK


def theme_type() -> str:
    """``"dark"`` or ``"light"``: the theme the browser shows, for HTML that picks its colours
    per theme (:data:`core.render.palette.FILTER_OUTLINE`). A configured
    ``theme.backgroundColor`` decides by its luminance; otherwise ``st.context.theme`` (light
    until the browser has said)."""
    from core.render.palette import contrast_ratio

    custom = st.get_option("theme.backgroundColor")
    if custom:
        try:
            return "dark" if contrast_ratio(str(custom), "#000000") < 7 else "light"
        except ValueError:  # not an #rrggbb colour (a name, rgb()): the browser's report
            pass
    return "dark" if st.context.theme.type == "dark" else "light"
