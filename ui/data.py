"""The Data page's sections, which ``pages/data.py`` calls in order.

Uploads (:mod:`ui.uploads`: the per-file format, role and name; :mod:`ui.folder_upload`), the
choice of what every page shows (the sample, the uploads or the ``--data`` files of
:mod:`ui.cli_data`), the files' table with their errors and warnings, and the summary of the
loaded workspace (:mod:`ui.summaries`). The keys of the uploader, the source and the set names
are shared (:mod:`ui.state`); the page's own keys are its tables', pagers' and downloads'.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.model.errors import warning_total
from core.model.roles import role_notes
from ui import (
    charts,
    cli_data,
    folder_upload,
    set_names,
    state,
    summaries,
    text_policy,
    uploads,
)
from ui.escape import md
from ui.lazy import lazy_expander
from ui.small_table import small_table
from ui.state import Workspace
from ui.widgets import download_buttons, paginate

K_LABELS_TAB = "labels_tab"  # the open tab of "Spans per label and set" (table, chart)
K_LABELS_LIST = "labels_list"  # the expander of "Spans per label and set" (lazy)
K_DIAG_LIST = "diag_list"  # the expander of the errors and warnings' table (lazy)
TAB_TABLE, TAB_CHART = "📋 Table", "📊 Chart"
COVERED = "✅ Every set covers every document."
SETS_SHOWN = 3
"""The set names a file's row of the Files table shows; a file with more (a Prodigy export of
42 annotators) shows their count and the first :data:`SETS_FIRST`, all of them under the
table."""
SETS_FIRST = 2
SET_NAME_CUT = 12  # characters of a set name in that cell (a UUID is 36)
"""What the summary says when no set misses a document (the sign and the words: two cues)."""

UPLOAD_HELP = (
    "Any number of files in any supported format: SemEval-2021 JSON, PTC TSV, MAFALDA JSONL, "
    "brat .ann, doccano JSONL, Label Studio (JSON, CSV, TSV), HatEval TSV, spans CSV, "
    "INCEpTION / WebAnno TSV (3 or 2), UIMA CAS XMI (with its TypeSystem.xml) or JSON, "
    "CoNLL BIO, spaCy (.spacy, JSONL), Parquet (a spans table; its .texts.parquet beside it in a "
    ".zip), or a .zip of a folder.")
"""The uploader's label: every format a file may be in."""

TAB_NOTE = ("Uploads live in this tab: a reload or another tab starts from the sample; start "
            "the app with `--data` to keep files (`spanscope app --data FOLDER`).")
"""The line above the uploads' rows: a session is one browser tab (docs/dashboard.md)."""
TAB_NOTE_CLI = ("Uploads live in this tab: a reload or another tab starts from the files given "
                "with `--data`, without the uploads.")
""":data:`TAB_NOTE` when the app was started with ``--data``."""


def plugin_notice() -> None:
    """One warning per installed plugin (``spanscope.formats``, ``spanscope.metrics`` entry
    points, ``core/plugins.py``) that could not be loaded: it is left out of the format and
    metric choices, and the message says which package and why."""
    from core import plugins
    from core.metrics import registry

    for message in [*plugins.load_formats(), *registry.load_plugins()]:
        st.warning(f"A plugin is missing: {md(message)}", icon="🧩")


def cli_notice() -> Workspace | None:
    """The ``--data`` files the app was started with (named in a notice, a refused file with
    its Format box), or None."""
    cli_ws = cli_data.cli_workspace()
    if cli_ws is not None:
        st.info("The app was started with files from disk (`--data`): "
                f"{md(cli_data.describe(cli_ws))}.", icon="💻")
        cli_data.format_boxes(cli_ws)  # a refused file: read it again in another format
        # the sub-folders whose names state no role, as the command line noted at start-up
        # (by their names: visitors never see the server's paths)
        for note in role_notes([(a.role, a.path) for a in cli_data.data_args()], paths=False):
            st.warning(md(note.removeprefix("note: ")), icon="🏷️")
    return cli_ws


PAGE_CAPTION = "Load gold, system and annotator files; every page then works on them."
"""The page's first line, under its title."""


def store_note() -> str:
    """Which store file keeps Curation's decisions and live classes (``core.store.where``: the
    default depends on how the app was started, docs/dashboard.md)."""
    from core.store import store_path, where

    return (f"💾 Curation decisions and live classes are saved in {md(where(store_path()))}; "
            "`spanscope app --store PATH` chooses the file.")


def page_caption() -> None:
    """The page's caption and the store note, one element (each element is mounted again on
    every visit of the page: docs/performance.md, issue 29)."""
    st.caption(f"{PAGE_CAPTION}\n\n{store_note()}")


def upload_files() -> None:
    """The uploaders (files, and a whole folder on request), the beyond-text policy and one row
    per kept upload; a new batch becomes the uploaded workspace."""
    st.header("Upload files")
    uploader_alive = state.K_UPLOADS in st.session_state  # False when back from another page
    files = st.file_uploader(UPLOAD_HELP, accept_multiple_files=True, key=state.K_UPLOADS)
    st.caption(cli_data.upload_limit_note())
    beyond = st.radio(
        "Spans that end past their document's text", list(text_policy.CHOICES),
        format_func=text_policy.CHOICES.get, key=text_policy.K_BEYOND_TEXT, horizontal=True,
        persist_state="session",
        help="Refuse: such a file is left out, with every offending file, document and span "
        "named. Clip: each span is cut at the end of its text, each change listed in the "
        "warnings. Keep: scored as they are, as the official scorers do (they never see the "
        "texts).")
    folder_files = None
    folder_alive = folder_upload.K_FOLDER in st.session_state
    if st.toggle("Upload a whole folder", key=folder_upload.K_FOLDER_ON,
                 help="An INCEpTION project export, a brat collection, CoNLL files with their "
                 "texts: files that belong together. A .zip of the folder also works in the box "
                 "above."):
        folder_files = st.file_uploader(
            "A folder: one tool's export is one input (e.g. an INCEpTION export: annotation/"
            "<document>/<annotator>.tsv gives one set per annotator); other files (gold.json, "
            "system.json) are read each as a file, roles from their names",
            accept_multiple_files="directory", key=folder_upload.K_FOLDER,
        )
    # Files stay listed (bytes kept in the session) when the user visits other pages and
    # comes back.
    uploads.sync(state.K_UPLOADS, uploader_alive, uploads.uploaded(files))
    if folder_files is not None:
        uploads.sync(folder_upload.K_FOLDER, folder_alive, uploads.uploaded_folder(folder_files))
    if not uploads.kept():
        return
    st.caption("Format is detected from the name and first bytes; override it if needed. "
               "Each file's display name is the set name shown on every page; a file that "
               "names its own sets (annotators, models, a curation) keeps their names and "
               "roles (**as read**). Files stay here when you visit other pages; change their "
               "format, role or name at any time.")
    st.caption("ℹ️ " + (TAB_NOTE if uploads.fallback_source() == "sample" else TAB_NOTE_CLI))
    same_name = uploads.same_name_note()
    if same_name:
        st.caption(f"ℹ️ {same_name}")
    # A file without texts is checked against the texts of the others (a prediction against
    # the gold's), under the same policy; every offending file is named at once.
    reports, contents, choices = uploads.rows(beyond)
    if uploads.store_batch(state.upload_workspace(reports, contents, choices)):
        st.rerun()  # the sidebar, drawn before this page, must name the new data
    if st.button("🗑️ Forget all uploaded files", key="forget_uploads"):
        uploads.forget()
        st.rerun()


def choose_source(cli_ws: Workspace | None) -> Workspace | None:
    """Which data every page shows (the ``--data`` files, the sample or the uploads); the
    uploaded workspace, or None."""
    upload_ws: Workspace | None = st.session_state.get(state.K_UPLOAD_WS)
    has_uploads = upload_ws is not None and not upload_ws.empty
    st.radio(
        "Pages show",
        (["cli"] if cli_ws is not None else []) + ["sample", "upload"],
        format_func=cli_data.SOURCE_LABELS.get,
        key=state.K_SOURCE, horizontal=True, disabled=not has_uploads and cli_ws is None,
        persist_state="session",
        help="Uploading switches to the uploaded files; remove them to return to the sample.",
    )
    if has_uploads:
        st.info(state.UPLOAD_LINK_NOTE, icon="🔗")
    return upload_ws


def sets_cell(names: list[str]) -> str:
    """The "sets" cell of a file's row: its set names, or, past :data:`SETS_SHOWN`, their
    count and the first :data:`SETS_FIRST` (each cut at :data:`SET_NAME_CUT` characters), so
    that a file of 42 annotators is a short cell, not a row 42 names tall.

    >>> sets_cell(["gold", "model"])
    'gold, model'
    >>> sets_cell([f"e1eec138-4623-4b5b-b555-6d1d6934{n:04d}" for n in range(42)])
    '42 sets: e1eec138-462…, e1eec138-462…, … (all below the table)'
    """
    if not names:
        return "-"
    if len(names) <= SETS_SHOWN:
        return ", ".join(names)
    cut = [n if len(n) <= SET_NAME_CUT else n[:SET_NAME_CUT] + "…" for n in names[:SETS_FIRST]]
    return f"{len(names)} sets: {', '.join(cut)}, … (all below the table)"


def files_table(ws: Workspace, loaded_ws: Workspace, upload_ws: Workspace | None) -> None:
    """One row per file (format, roles, sets, counts, status), the documents matched by their
    text, and every error and warning (a repeated warning once, with its count)."""
    given = (st.session_state.get(state.K_SET_NAMES) or {}).get(loaded_ws.key) or {}
    # The uploaded files' reports even when the pages show the sample (a batch that failed).
    file_reports = upload_ws.reports if upload_ws is not None and uploads.kept() else ws.reports
    if not file_reports:
        return
    st.header("Files")
    # documents: the file's distinct documents over all its sets (as the Summary counts them)
    file_rows = [{
        # status first after the file: what a narrow window shows before it scrolls sideways
        "file": r.file, "status": "✅ loaded" if r.ok else "❌ error", "role": r.roles,
        "sets": sets_cell([given.get(s.name, s.name) for s in r.sets]),
        "documents": r.documents, "spans": r.spans,
        "warnings": warning_total(r.diagnostics), "format": r.format or "-",
    } for r in file_reports]
    small_table(pd.DataFrame(file_rows), key="files_table")
    # A browser draws no scrollbar until the table is scrolled: say what lies to the right.
    st.caption(f"↔️ {len(file_rows[0])} columns ({', '.join(file_rows[0])}); in a narrow "
               "window the table scrolls sideways.")
    many = [r for r in file_reports if len(r.sets) > SETS_SHOWN]
    if many:
        with st.expander(f"🗂️ Every set of the files with more than {SETS_SHOWN} sets "
                         f"({', '.join(md(r.file) for r in many)})", key="all_set_names"):
            st.markdown("\n".join(
                f"- **{md(r.file)}** ({len(r.sets)} sets): "
                + ", ".join(md(given.get(s.name, s.name)) for s in r.sets) for r in many))
    matched = [d for r in file_reports for d in r.diagnostics if d.kind == text_policy.ALIGNMENT]
    if matched:  # annotators' documents matched by their text (core.model.alignment)
        st.info("**Documents matched by their text** (the annotators' files name them "
                "differently):\n\n" + "\n".join(f"- {md(d)}" for d in matched), icon="🔗")
    diags = summaries.diagnostics_table(file_reports)
    if not len(diags):
        return
    n_err = int((diags["severity"] == "error").sum())
    n_warn = int(diags["count"].sum()) - n_err
    grouped = ("; a warning that repeats is one row, its count in the last column"
               if (diags["count"] > 1).any() else "")
    st.markdown(f"**Errors and warnings**: {n_err} error(s), {n_warn:,} warning(s){grouped}. "
                "A file with an error is left out; the other files are loaded.")
    for r in file_reports:
        if r.error:
            st.error(md(r.error), icon="❌")
    # Lazy, open at once when a file was left out: a grid drawn on every visit costs the
    # browser more than any other element of the page (docs/performance.md, issue 29).
    shown = lazy_expander(f"📋 Every error and warning: file, line, field, message "
                          f"({len(diags):,} row(s))", key=K_DIAG_LIST, opened=bool(n_err))
    if shown.open is not False:
        with shown:
            st.dataframe(paginate(diags, key="diag_page"), hide_index=True, key="diag_table",
                         placeholder="—")
            download_buttons(diags, "diagnostics", key="dl_diag")


@st.cache_resource(max_entries=16, show_spinner=False)
def labels_chart(ws_key: str, _labels: pd.DataFrame) -> go.Figure:
    """:func:`ui.charts.spans_per_label` of the summary's label table of workspace ``ws_key``
    (:func:`ui.summaries.summary_tables`), built once per workspace, not on every visit
    (docs/performance.md, issue 29, sixth pass). Shared: ``st.plotly_chart`` only reads it."""
    return charts.spans_per_label(_labels)


def summary(ws: Workspace, loaded_ws: Workspace) -> None:
    """Counts of the shown workspace: documents, texts, sets (with their renaming), spans per
    label and set, and the documents a set misses."""
    tables = summaries.summary_tables(ws.key, ws)
    st.header(f"Summary: {md(ws.title)}")
    m1, m2, m3 = st.columns(3)
    m1.metric("Documents", f"{tables['n_docs']:,}")
    m2.metric("With text", f"{tables['n_texts']:,}")
    m3.metric("Annotation sets", len(ws.sets))
    st.markdown("**Sets**")
    small_table(tables["sets"], key="sets_table")
    download_buttons(tables["sets"], "sets", key="dl_sets")
    set_names.rename_control(loaded_ws, ws)

    labels = tables["labels"]
    # Lazy: a table and a chart a visit need not draw (each grid 45 ms, each Plotly chart
    # 0.1-0.2 s of the browser's main thread on every visit; docs/performance.md, issue 29).
    shown = lazy_expander(f"📊 Spans per label and set: {len(labels):,} label(s), as a table "
                          "or a chart", key=K_LABELS_LIST)
    if shown.open is not False:
        with shown:
            spans_per_label(ws, labels)

    missing = tables["missing"]
    if len(missing):
        st.markdown("**Documents missing from a set**")
        st.dataframe(paginate(missing, key="missing_page"), hide_index=True,
                     key="missing_table", placeholder="—")
        download_buttons(missing, "missing_documents", key="dl_missing")
    else:  # one element, not a heading and an alert (each is mounted again on every visit)
        st.markdown(f"**Documents missing from a set**: none. {COVERED}")


def spans_per_label(ws: Workspace, labels: pd.DataFrame) -> None:
    """The spans per label and set: a table, and the heatmap in a second lazy tab (it repeats
    the table)."""
    tabs = list(st.tabs([TAB_TABLE, TAB_CHART] if len(labels) else [TAB_TABLE],
                        key=K_LABELS_TAB, on_change="rerun"))
    if tabs[0].open is not False:
        with tabs[0]:
            st.dataframe(labels, hide_index=True, key="labels_table", placeholder="—")
            download_buttons(labels, "spans_per_label", key="dl_labels")
    if len(tabs) > 1 and tabs[1].open is not False:
        with tabs[1]:
            st.plotly_chart(labels_chart(ws.key, labels), key="labels_chart")
