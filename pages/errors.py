"""Errors: what kind of mistakes each system makes, on which labels, and where (slices)."""

import streamlit as st

from ui import documents, errors
from ui.current import workspace_or_stop

st.title("🔍 Errors")
ws = workspace_or_stop(2, "Error analysis needs a reference set and at least one other set.",
                       needs_spans=True)
errors.follow_link(ws)  # a callback could not switch at once (a test's run): switch now
setup = errors.setup(ws)
errors.follow(ws, setup)  # a click that opens Documents: switch before drawing the page
# Lazy tabs: only the open one is drawn, so a return to the page redraws the category table,
# not every chart and table of the page (docs/performance.md, issue 29, sixth and seventh
# passes).
categories, chart, per_label, spans, slices = errors.tabs()
if categories.open is not False:
    with categories, st.container(key="err_categories"):
        errors.categories(ws, setup)
        # their links' Documents lists filled ahead, in the background (docs/performance.md,
        # issue 29, eighteenth pass)
        documents.errors_ahead(ws, setup)
        errors.schemas(ws, setup)
if chart.open is not False:
    with chart:
        errors.category_chart_tab(ws, setup)
if per_label.open is not False:
    with per_label:
        errors.per_label(ws, setup)
if spans.open is not False:
    with spans:
        errors.spans_of_category(ws, setup)
if slices.open is not False:
    with slices:
        slice_settings = errors.slices(ws, setup)
        errors.report(ws, setup, slice_settings)
# Last, below everything: the highlights' component warmed for the first click of a category's
# link (a hidden copy drawing nothing, until the session knows its script runs)
documents.warm_highlights()
