"""Metric differences: from the Da San Martino score to the MAFALDA score one rule at a time."""

import streamlit as st

from ui import differences, learn
from ui.current import workspace_or_stop

st.title("🔀 Metric differences")
st.caption("The Da San Martino and MAFALDA metrics share the overlap credit C(s,t,h) = "
           "|s∩t|/|h|·δ and differ by a few rules. Below, one system's score goes from one "
           "metric to the other changing one rule per step; every bar is computed by "
           "`core.metrics.differences.rule_score`, whose end points are the official metrics "
           "(the numbers of the 📊 Scores page).")
learn.glossary(lazy_key="diff_glossary")  # drawn once opened
ws = workspace_or_stop(2, "This page compares a system with a reference: load at least two sets.",
                       needs_spans=True)
choice = differences.choose(ws)
differences.rule_path(ws, choice)
differences.text_by_text(ws, choice)
