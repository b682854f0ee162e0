"""The sidebar on a phone: closed again after each navigation.

On a narrow screen Streamlit draws the sidebar over the page, and it stayed open after a page
link in it was tapped, hiding the page just opened (issue 27). :func:`close_on_phone` installs,
once per browser tab, a listener that collapses the sidebar after a tap on one of its page links
when the window is narrower than :data:`PHONE_MAX_PX` (Streamlit's own breakpoint for drawing the
sidebar over the page). Nothing is sent to the server and nothing changes on a wider screen.
The same element carries the style that lets a Markdown table scroll sideways (:data:`TABLE_CSS`),
the sidebar's keyboard focus ring (:data:`FOCUS_CSS`), the captions' contrast
(:data:`CAPTION_CSS`), the headings' sizes (:data:`HEADING_CSS`) and the colour of the text
Streamlit draws in the theme's primary colour (:data:`ui.theme.PRIMARY_TEXT_CSS`); its script
also makes a Markdown table that scrolls focusable and named (:data:`SCRIPT`).
"""

from __future__ import annotations

import streamlit as st

from ui import chart_library
from ui.results import MEASURES
from ui.theme import CHART_INK_CSS, PRIMARY_TEXT_CSS

PHONE_MAX_PX = 768

TABLE_CSS = ("<style>[data-testid='stMarkdownContainer'] table"
             "{display:block;max-width:100%;overflow-x:auto;scrollbar-width:thin;"
             "scrollbar-color:rgba(128,128,128,.7) rgba(128,128,128,.15)}"
             "[data-testid='stMarkdownContainer'] table::-webkit-scrollbar{height:8px}"
             "[data-testid='stMarkdownContainer'] table::-webkit-scrollbar-track"
             "{background:rgba(128,128,128,.15)}"
             "[data-testid='stMarkdownContainer'] table::-webkit-scrollbar-thumb"
             "{background:rgba(128,128,128,.7);border-radius:4px}"
             ":is(.st-key-overview_table,.st-key-home_overview) th{white-space:nowrap}"
             ":is(.st-key-overview_table,.st-key-home_overview) table{font-size:.875rem}"
             ":is(.st-key-overview_table,.st-key-home_overview) :is(th,td){padding:.4rem .5rem}"
             "[data-testid='stDataFrame'] .dvn-scroller{scrollbar-color:rgba(128,128,128,.7) "
             "rgba(128,128,128,.15)}"
             "[data-testid='stMarkdownContainer']>table:focus-visible"
             "{outline:2px solid #1c83e1;outline-offset:2px}</style>")
"""Markdown tables scroll sideways within the page's width, as a data grid does, instead of
running past its edge (:func:`ui.small_table.small_table` draws a few-row table as Markdown),
under a scrollbar drawn grey on a lighter track, on either theme (``scrollbar-color``; the
``::-webkit-scrollbar`` rules for Safari): Streamlit makes every scrollbar of the page
transparent (``scrollbar-color: transparent transparent`` on the whole document), so a
table cut at the page's edge gave no sign that it went on (bugleft20). The systems tables of
Scores and the Overview keep each header on one line (:data:`ui.small_table.NOWRAP_COLUMNS`)
in the type and cell padding of the page's other tables
(:data:`ui.small_table.PAGE_TABLE_CSS`), so that all their columns fit the page's column at
1,440 px. A table that scrolls takes the keyboard's focus (:data:`SCRIPT`), with the ring of
:data:`FOCUS_CSS`. A data grid's scrollbars are drawn the same way, not only while the pointer is
over the grid: the Scores page's systems grid with its intervals and Learn's scores table run
past their column at 1,440 px, and nothing showed that they went on (bugleft21; their first
columns are pinned, :mod:`ui.grid_columns`)."""

FOCUS_CSS = ("<style>[data-testid='stSidebar'] :is(a, button, summary, [role='button'], "
             "[tabindex='0']):focus-visible{outline:2px solid #1c83e1 !important;"
             "outline-offset:2px}</style>")
"""A clear keyboard focus ring on the sidebar's page links and buttons: Streamlit marks a focused
page link with a faint grey fill alone (tour finding). The blue keeps the 3:1 contrast WCAG 2.2
asks of a focus indicator (SC 1.4.11, 2.4.13) against the sidebar of both of Streamlit's themes
(3.5:1 on the light #f0f2f6, 3.8:1 on the dark #262730); the theme follows the browser."""

CAPTION_CSS = ("<style>[data-testid='stCaptionContainer'],.ss-caption{opacity:.75}"
               ".ss-caption{font-size:.875rem;line-height:1.6}"
               ":is(.ss-caption,.ss-text){word-break:break-word;overflow-wrap:break-word}"
               ":is(.ss-caption,.ss-text) strong{font-weight:600}</style>")
"""Captions at 4.5:1 or more on both themes: Streamlit draws ``st.caption`` at opacity 0.6, 3.9:1
on the light theme's white (WCAG 2.1 SC 1.4.3 asks 4.5:1 for text; axe-core's colour-contrast
rule on every page, docs/dashboard.md "Accessibility"). A caption drawn as HTML
(``ui.plain.caption_html``, class ``ss-caption``) gets the same size, line height and opacity,
and it and a line of text drawn as HTML (``ui.plain.text_html``, class ``ss-text``) break a long
word and weigh bold text as Streamlit's Markdown does (issue 29, twentieth pass)."""

HEADING_CSS = ("<style>[data-testid='stMain'] h2{font-size:1.75rem;padding:.75rem 0 1rem}"
               "[data-testid='stMain'] h3{font-size:1.5rem;padding:.5rem 0 1rem}"
               "[data-testid='stSidebar'] h2{font-size:1.125rem;padding:.75rem 0 1rem}</style>")
"""A page's sections are ``h2`` (``st.header``) under its ``h1`` title, their parts ``h3``, and the
sidebar's heading an ``h2``, so a screen reader's list of headings has no level missing (axe's
``heading-order``, WCAG 2.1 SC 1.3.1); each level keeps the size Streamlit gives the level below
it (1.75 and 1.5 rem in the page, 1.125 rem in the sidebar), as the sections looked when they
were ``st.subheader``: the outline is fixed, the pages look no louder (docs/dashboard.md,
"Accessibility")."""

LINK_CSS = ("<style>[data-testid='stMain'] [data-testid='stPageLink-NavLink'] "
            ":is(span, div, p){white-space:normal;overflow:visible}</style>")
"""A page link in the page wraps a label longer than the page's width onto a second line:
Streamlit keeps a page link's label on one line and hides the rest, so on a 390 px phone the
note under a table with a score above 1 read "See why on Learn: duplicate predictions push
recall abo" (bugleft21). The sidebar's links keep their one line."""

STEPS_CARDS_BELOW_REM = 40
"""Metric differences' steps table (``.st-key-diff_steps_<measure>``) narrower than this
(640 px: a phone, a narrow window with the sidebar open) draws each step as a card
(:data:`STEPS_CSS`)."""

_STEPS = "[class*='st-key-diff_steps_']"
STEPS_CSS = (
    f"<style>{_STEPS}{{container-type:inline-size}}"
    f"@container (max-width:{STEPS_CARDS_BELOW_REM}rem){{"
    f"{_STEPS} table{{display:block;overflow:visible;border:0}}"
    f"{_STEPS} thead{{display:none}}{_STEPS} tbody{{display:block}}"
    f"{_STEPS} tr{{display:grid;grid-template-columns:1fr auto auto;gap:.15rem .75rem;"
    "padding:.6rem 0;border-top:1px solid rgba(128,128,128,.3);background:none}"
    f"{_STEPS} td{{display:block;border:0;padding:0;text-align:left}}"
    f"{_STEPS} td:empty{{display:none}}"
    f"{_STEPS} td:nth-child(1){{grid-area:1/1;font-weight:600}}"
    f"{_STEPS} td:nth-child(3){{grid-area:1/2;text-align:right}}"
    f"{_STEPS} td:nth-child(4){{grid-area:1/3;text-align:right}}"
    f"{_STEPS} td:nth-child(2){{grid-area:2/1/3/-1;font-size:.875rem}}"
    f"{_STEPS} td:nth-child(5){{grid-area:3/1/4/-1;font-size:.875rem}}"
    f"{_STEPS} td:nth-child(6){{grid-area:4/1/5/-1;font-size:.875rem}}"
    f"{_STEPS} td:nth-child(4)::before{{content:'change ';opacity:.75}}"
    f"{_STEPS} td:nth-child(5)::before{{content:'Rules: ';font-weight:600}}"
    f"{_STEPS} td:nth-child(6)::before{{content:'What changes: ';font-weight:600}}"
    + "".join(f".st-key-diff_steps_{key} td:nth-child(3)::before{{content:'{shown} ';"
              "opacity:.75}" for key, shown in MEASURES.items())
    + "}</style>")
"""Metric differences' steps table as cards in a narrow block: each step's name, score and
change on one line, whether it is an official metric, its rules and what changes below, each
named (the header row is hidden): at 390 px the six columns left the rules a word a line
(bugleft21). A wider block keeps the table; the Markdown and its numbers are the same."""

SCRIPT = (TABLE_CSS + FOCUS_CSS + CAPTION_CSS + HEADING_CSS + LINK_CSS + PRIMARY_TEXT_CSS
          + CHART_INK_CSS + STEPS_CSS + """
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
  // A Markdown table wider than the page scrolls sideways (TABLE_CSS): it takes the focus, so
  // that a keyboard scrolls it with the arrows (WCAG 2.1 SC 2.1.1), named by the heading above
  // it; one that fits takes none (no needless tab stop). Checked after the page changes and
  // when the window is resized, at most ten times a second.
  const label = (table) => {
    let name = "";
    for (const h of w.document.querySelectorAll(
        '[data-testid="stMain"] :is(h1, h2, h3, h4, h5, h6)')) {
      if (!(h.compareDocumentPosition(table) & 4)) break;  // 4: the table follows h
      name = h.textContent.trim();
    }
    return name ? `${name}: table, scrolls sideways` : "Table, scrolls sideways";
  };
  const mark = () => {
    for (const table of w.document.querySelectorAll(
        '[data-testid="stMarkdownContainer"] > table')) {
      if (table.scrollWidth > table.clientWidth + 1) {
        const name = label(table);
        if (table.getAttribute("aria-label") !== name) table.setAttribute("aria-label", name);
        if (table.getAttribute("tabindex") !== "0") table.setAttribute("tabindex", "0");
      } else if (table.hasAttribute("tabindex")) {
        table.removeAttribute("tabindex");
        table.removeAttribute("aria-label");
      }
    }
  };
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    // In the frame's own layout: reading a table's width forces none of its own.
    w.setTimeout(() => w.requestAnimationFrame(() => { queued = false; mark(); }), 100);
  };
  new w.MutationObserver(later).observe(w.document.body, {childList: true, subtree: true});
  w.addEventListener("resize", later);
  later();
  // A tab chosen with an arrow key reruns the page (st.tabs with on_change), and Streamlit
  // disables every tab while the run it asked for has not started (aria-disabled, no
  // tabindex): the browser drops the focus of the tab just chosen to the page's body, and the
  // next arrow key did nothing. The focus goes back to the list's selected tab once it is
  // enabled again, unless the person has put it somewhere else meanwhile. Where the browser
  // drops it depends on the layout: to the body when the tab list fits (1,440 px), to the tab
  // list itself when the list scrolls sideways (a phone: Chromium makes a scrolling box
  // focusable), so a focus on the list or on anything around it is the dropped focus, not
  // the person's (bugleft22: at 390 px the listener took the list's focus for the person's).
  let lost = null;
  const regain = () => {
    if (!lost) return;
    const active = w.document.activeElement;
    if (!lost.isConnected || (active && !active.contains(lost))) { lost = null; return; }
    const tab = lost.querySelector('[role="tab"][aria-selected="true"][tabindex]');
    if (tab && tab.getAttribute("aria-disabled") !== "true") {
      lost = null;
      tab.focus({focusVisible: true});
    }
  };
  w.document.addEventListener("focusout", (event) => {
    const tab = event.target;
    if (event.relatedTarget || !tab.closest || !tab.closest('[data-testid="stTab"]')) return;
    if (tab.getAttribute("aria-disabled") === "true" || !tab.hasAttribute("tabindex")) {
      lost = tab.closest('[role="tablist"]');
    }
  }, true);
  w.document.addEventListener("pointerdown", () => { lost = null; }, true);
  new w.MutationObserver(regain).observe(w.document.body, {
    subtree: true, attributes: true, attributeFilter: ["aria-disabled", "tabindex"]});
})();
</script>
""").replace("PHONE_MAX_PX", str(PHONE_MAX_PX)).strip() + chart_library.SCRIPT
"""The listener, the one script of our own on every page, after the styles (tests that
check that no script from a file reaches the page leave this one out), and the charts'
library loaded ahead of the first chart (:data:`ui.chart_library.SCRIPT`)."""


def close_on_phone() -> None:
    """Install the listener (an invisible element; the script guards against a second copy)."""
    st.html(SCRIPT, unsafe_allow_javascript=True, width=1)
