"""Errors: what kind of mistakes each system makes, on which labels, and where (slices)."""

import streamlit as st

from ui import errors
from ui.current import workspace_or_stop

st.title("🔍 Errors")
ws = workspace_or_stop(2, "Error analysis needs a reference set and at least one other set.",
                       needs_spans=True)
errors.follow_link(ws)  # a link to Documents was clicked: switch before drawing anything
setup = errors.setup(ws)
errors.follow(ws, setup)  # a click that opens Documents: switch before drawing the page
errors.categories(ws, setup)
errors.schemas(ws, setup)
errors.spans_of_category(ws, setup)
errors.per_label(ws, setup)
slice_settings = errors.slices(ws, setup)
errors.report(ws, setup, slice_settings)
