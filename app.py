"""SpanScope dashboard entry point: page configuration, navigation and the shared frame.

Run with ``streamlit run app.py``. Every page lives in ``pages/``; shared state keys, the
sample-data loader and the caches live in ``ui/state.py``. The sidebar shows which data the pages
are looking at, on every page.
"""

from pathlib import Path

import streamlit as st

from ui import (
    ahead,
    burst,
    cli_data,
    current,
    jobs,
    plain,
    query,
    shutdown,
    sidebar,
    state,
    uploads,
)

ROOT = Path(__file__).resolve().parent

# (file, title, icon, url path). Emoji icons: material icons would be fetched from the network.
PAGES = [
    ("pages/home.py", "Overview", "🏠", "overview"),
    ("pages/data.py", "Data", "📂", "data"),
    ("pages/scores.py", "Scores", "📊", "scores"),
    ("pages/documents.py", "Documents", "📄", "documents"),
    ("pages/errors.py", "Errors", "🔍", "errors"),
    ("pages/differences.py", "Metric differences", "🔀", "differences"),
    ("pages/labels.py", "Labels", "🏷️", "labels"),
    ("pages/annotators.py", "Annotators", "👥", "annotators"),
    ("pages/curation.py", "Curation", "⚖️", "curation"),
    ("pages/learn.py", "Learn", "🎓", "learn"),
]

# A person's run comes first: the work computed ahead on the background worker is held while a
# page runs and the browser draws it (ui.jobs.page_run_started; ended below, however it ends).
jobs.page_run_started()
try:  # the end is marked however the run ends: a bug, a stop, a rerun (st.rerun) anywhere
    st.set_page_config(page_title="SpanScope", page_icon="🔎", layout="wide")
    state.init_state()
    shutdown.install()  # Ctrl+C / SIGTERM stop the server within seconds
    burst.install()  # a run's messages sent together: fewer renders in the browser
    # Invalid or unknown link parameters are dropped from the URL before any page reads them.
    link_notices = query.check_query_params()

    pages = [
        # The default page is served at "/" whatever its url_path, so it gets "home" and a hidden
        # twin serves /overview (a link or a bookmark to it showed "Page not found").
        st.Page(str(ROOT / path), title=title, icon=icon, url_path="home" if i == 0 else url,
                default=(i == 0))
        for i, (path, title, icon, url) in enumerate(PAGES)
        if (ROOT / path).exists()
    ]
    pages.append(st.Page(str(ROOT / PAGES[0][0]), title=PAGES[0][1], icon=PAGES[0][2],
                         url_path=PAGES[0][3], visibility="hidden"))
    # The menu is drawn below, with page links: Streamlit's own (client.showSidebarNavigation off in
    # .streamlit/config.toml) listed the raw file names of pages/ on a server's first page load,
    # until this script reached st.navigation (Streamlit's pages/ convention, docs/dashboard.md).
    nav = st.navigation(pages, position="hidden")
    state.restore_view_on_back()  # Back to a page's bare URL: the view this session left there

    with st.sidebar:
        shared = query.page_link_params()  # the data on view travels with every page link
        for page in pages[:-1]:  # not the hidden twin of Overview
            st.page_link(page, query_params=shared)
        st.divider()
        st.markdown("## 🔎 SpanScope")
        samples = state.sample_names()
        if st.session_state.get(state.K_SOURCE) == "upload":
            # Which files, not just "uploaded"; the links note is on each page (once), not here.
            st.caption(uploads.sidebar_caption(current.source_workspace()))
        elif st.session_state.get(state.K_SOURCE) == cli_data.SOURCE:
            ws = current.workspace()
            # Plain HTML, not Markdown: drawn on every run of every page (ui.plain)
            plain.caption("Showing ", plain.b("files from the command line"), ": ",
                          cli_data.describe(ws) or "none", ". Change on 📂 Data.")
        elif samples:
            # Bound to ?sample= and rendered on every page: the corpus travels with every link.
            st.selectbox("Sample corpus", samples, key=state.K_SAMPLE, bind="query-params",
                         help="Bundled corpora under sample_data/. Upload your own on the Data "
                         "page.")
        else:
            plain.caption("No bundled sample corpus found; upload files on the 📂 Data page.")
        sidebar.close_on_phone()  # on a phone the sidebar covers the page: close it after a link

    for notice in link_notices:
        st.warning(notice, icon="🔗")
    nav.run()
finally:
    jobs.page_run_ended()
ahead.start()  # what the next pages ask for, in the background, once the page is drawn
