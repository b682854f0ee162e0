"""The Overview page's sections, which ``pages/home.py`` calls in order: the loaded corpus at a
glance, already scored with the default metrics (:mod:`ui.results`), and links onward."""

from __future__ import annotations

import streamlit as st

from core.metrics import registry
from ui import above_one, results, state, summaries
from ui import hateval as hateval_ui
from ui.escape import code, md
from ui.plain import CAPTION_CLASS, caption_html  # noqa: F401 (named here by the tests)
from ui.role_words import set_noun
from ui.small_table import NOWRAP_COLUMNS, small_table
from ui.state import Workspace

NEXT = [
    ("pages/data.py", "Data", "📂",
     "Upload your own files, check their errors and warnings, see spans per label."),
    ("pages/scores.py", "Scores", "📊",
     "Both metrics side by side, per label, per document, with bootstrap intervals."),
    ("pages/documents.py", "Documents", "📄",
     "One document, gold and prediction side by side, every span's contributions."),
    ("pages/errors.py", "Errors", "🔍",
     "What went wrong: missed, spurious, boundary and label errors, per label and per slice."),
    ("pages/differences.py", "Metric differences", "🔀",
     "From the Martino score to the MAFALDA score one rule at a time, text by text."),
    ("pages/labels.py", "Labels", "🏷️",
     "Which labels occur together and which get confused, with the spans behind each cell."),
    ("pages/annotators.py", "Annotators", "👥",
     "Agreement between annotators: κ, α, unitizing α, γ, span F1, the texts they disagree on."),
    ("pages/curation.py", "Curation", "⚖️",
     "One gold from several annotators: the rule's proposal per disputed span, your decision."),
    ("pages/learn.py", "Learn", "🎓",
     "The papers' worked examples, with predictions you can edit and every score updating."),
]
"""The pages "Where next" links to: (file, title, icon, what it shows), every page of the
sidebar but this one, in its order (``app.PAGES``)."""


def loaded(ws: Workspace) -> None:
    """The corpus at a glance and every set scored against the reference with the defaults
    (HatEval text labels: their tasks' tables); stops when nothing is loaded. Files that were
    refused come first, each with its reason."""
    refused(ws)
    if ws.empty:
        st.info("No data is loaded: there is no bundled sample corpus in this build and nothing "
                "was uploaded.", icon="ℹ️")
        st.page_link("pages/data.py", label="Upload gold and prediction files", icon="📂")
        st.stop()
    tables = summaries.summary_tables(ws.key, ws)
    st.header(f"Loaded: {md(ws.title)}")
    m = st.columns(4)
    m[0].metric("Documents", f"{tables['n_docs']:,}")
    m[1].metric("Annotation sets", f"{len(ws.sets):,}")
    m[2].metric("Spans", f"{sum(s.span_count() for s in ws.sets.values()):,}")
    m[3].metric("Labels", f"{len(state.all_labels(ws.key, ws)):,}")
    ref, _ = state.default_pair(ws)
    systems = state.compared_sets(ws, ref) if ref else []
    hev = hateval_ui.tables(ws)
    if not ws.has_spans and hev and ref in hev and hev[ref].is_gold:
        st.markdown(f"**Text labels (HatEval 2019), every prediction scored against "
                    f"{code(ref)}** (details on Scores):")
        res = hateval_ui.results(ws.key, ws, ref)
        for task in ("hateval-a", "hateval-b"):
            table = hateval_ui.summary(res, task)
            if len(table):
                st.dataframe(table, hide_index=True, key=f"home_{task}", placeholder="—")
    elif ref and systems and ws.has_spans:
        defaults = tuple((m.name, m.default_variant) for m in registry.span_metrics())
        overview = results.systems_overview(ws.key, ws, ref, tuple(systems), defaults,
                                            state.DEFAULTS[state.K_LEVEL], 0, 0)
        st.markdown(f"**Every set scored against {code(ref)}** (defaults; change them on "
                    "Scores):")
        # Markdown with headers on one line (ui.sidebar.TABLE_CSS), as Scores' systems table:
        # the data grid it was cost the browser 10-40 ms on every visit (docs/performance.md,
        # issue 29, thirteenth pass).
        # The compared sets' column says their role: three annotators were "system" (bugleft26)
        small_table(overview.table.rename(columns={"system": set_noun(ws, systems)}),
                    key="home_overview", mark=True, columns=NOWRAP_COLUMNS)
        above_one.note(overview.table, key="home")
    else:
        st.dataframe(tables["sets"], hide_index=True, key="home_sets", placeholder="—")


def refused(ws: Workspace) -> None:
    """One error per file that failed to load: it is left out of every page."""
    bad = [r for r in ws.reports if r.error is not None]
    if bad:
        st.warning(f"**{len(bad)} of {len(ws.reports)} file(s) refused**: left out of every page "
                   "(details on 📂 Data).", icon="⚠️")
    for r in bad:
        st.error(f"Refused (role {r.role}): {md(r.error)}", icon="❌")


WHERE_COLUMNS = 3
"""The "Where next" links are drawn in this many columns, each a list of links in the sidebar's
order, filled one column after the other (:data:`NEXT`'s nine pages, three in each)."""


def where_next() -> None:
    """Links to the other pages in :data:`WHERE_COLUMNS` columns, each link with what it shows.

    One row of columns, not a row per three or four links: every block is mounted again on
    every visit of the page, and rows of four drew 3 rows and 12 columns for nine links
    (docs/performance.md, issue 29, thirteenth pass). The links keep the sidebar's order, for
    the keyboard and a screen reader: down the first column, then the next. Each link's text
    is a caption of plain HTML (:func:`caption_html`): no Markdown to parse on every visit."""
    st.header("Where next")
    per_column = -(-len(NEXT) // WHERE_COLUMNS)
    for col, start in zip(st.columns(WHERE_COLUMNS), range(0, len(NEXT), per_column),
                          strict=False):
        with col:
            for page, label, icon, text in NEXT[start:start + per_column]:
                st.page_link(page, label=label, icon=icon)
                st.html(caption_html(text))
