"""The colours of the theme the browser shows, for what a chart draws in a fixed colour.

Streamlit draws a chart's axes and titles in the theme's text colour, light or dark (its
"streamlit" theme for Plotly and Vega-Lite); a colour the code sets itself (a label colour
expression, a reference line) does not follow. :func:`theme_ink` is the colour such a mark takes
instead of a fixed dark grey, which the dark theme's background hides (a ``#555555`` line on
the dark ``#0e1117`` is 2.5:1, below the 3:1 that WCAG 2.1 SC 1.4.11 asks of graphics).
"""

from __future__ import annotations

import streamlit as st

LIGHT_INK = "#31333f"
"""Streamlit's light theme's text colour (12.5:1 on white)."""
DARK_INK = "#fafafa"
"""Streamlit's dark theme's text colour (18.1:1 on its ``#0e1117`` background)."""
EITHER_GREY = "#888888"
"""A grey that keeps 3:1 on either theme's background (3.5:1 on white, 5.3:1 on ``#0e1117``):
the colour of a line in a figure built once for every session, whatever its theme."""


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
