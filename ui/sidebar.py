"""The sidebar on a phone: closed again after each navigation.

On a narrow screen Streamlit draws the sidebar over the page, and it stayed open after a page
link in it was tapped, hiding the page just opened (issue 27). :func:`close_on_phone` installs,
once per browser tab, a listener that collapses the sidebar after a tap on one of its page links
when the window is narrower than :data:`PHONE_MAX_PX` (Streamlit's own breakpoint for drawing the
sidebar over the page). Nothing is sent to the server and nothing changes on a wider screen.
The same element carries the style that lets a Markdown table scroll sideways (:data:`TABLE_CSS`).
"""

from __future__ import annotations

import streamlit as st

PHONE_MAX_PX = 768

TABLE_CSS = ("<style>[data-testid='stMarkdownContainer'] table"
             "{display:block;max-width:100%;overflow-x:auto}</style>")
"""Markdown tables scroll sideways within the page's width, as a data grid does, instead of
running past its edge (:func:`ui.small_table.small_table` draws a few-row table as Markdown)."""

SCRIPT = TABLE_CSS + """
<script>
(() => {
  const w = window.parent && window.parent.document ? window.parent : window;
  if (w.__spanscopeSidebar) return;
  w.__spanscopeSidebar = true;
  w.document.addEventListener("click", (event) => {
    const link = event.target.closest
      && event.target.closest('[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]');
    if (!link || w.innerWidth >= PHONE_MAX_PX) return;
    w.setTimeout(() => {
      const button = w.document.querySelector(
        '[data-testid="stSidebarCollapseButton"] button');
      if (button) button.click();
    }, 150);
  }, true);
})();
</script>
""".replace("PHONE_MAX_PX", str(PHONE_MAX_PX)).strip()
"""The listener, the one script of our own on every page, after the tables' style (tests that
check that no script from a file reaches the page leave this one out)."""


def close_on_phone() -> None:
    """Install the listener (an invisible element; the script guards against a second copy)."""
    st.html(SCRIPT, unsafe_allow_javascript=True, width=1)
