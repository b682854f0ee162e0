"""Curation: turn several annotators' sets into one curated gold, one disputed span at a time."""

import streamlit as st

from ui import curation as cur
from ui import current

st.title("⚖️ Curation")
source = current.source_workspace()
ws, clipped = cur.data(source)  # spans a reader placed past their text are clipped
rules = cur.rules(ws)
proposed = cur.propose(ws, rules, clipped)
cur.resume(ws, proposed)
cur.guide(ws)  # static: outside the fragment
cur.workbench(source, ws, rules, proposed)  # a fragment: decisions redraw it alone
cur.agreement(ws, rules, proposed)
cur.downloads(ws, proposed)
