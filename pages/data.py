"""Data: the bundled sample or uploaded files (format, role, name per file), with a summary."""

import pandas as pd
import streamlit as st

from core.model import ROLES
from ui import charts, cli_data, folder_upload, state, summaries, text_policy
from ui.escape import md
from ui.widgets import download_buttons, paginate

st.title("📂 Data")
st.caption("Load gold, system and annotator files; every page then works on them.")
cli_ws = cli_data.cli_workspace()
if cli_ws is not None:
    st.info("The app was started with files from disk (`--data`): "
            f"{md(cli_data.describe(cli_ws))}.", icon="💻")

# ---- uploads ------------------------------------------------------------------------------------
st.subheader("Upload files")
files = st.file_uploader(
    "Any number of files in any supported format: SemEval-2021 JSON, PTC TSV, MAFALDA JSONL, "
    "brat .ann, doccano JSONL, Label Studio JSON, HatEval TSV, spans CSV, INCEpTION / WebAnno "
    "TSV, UIMA CAS XMI, CoNLL BIO, spaCy (.spacy, JSONL), or a .zip of a folder.",
    accept_multiple_files=True, key=state.K_UPLOADS,
)
st.caption(cli_data.upload_limit_note())
beyond = st.radio(
    "Spans that end past their document's text", list(text_policy.CHOICES),
    format_func=text_policy.CHOICES.get, key=text_policy.K_BEYOND_TEXT, horizontal=True,
    persist_state="session",
    help="Refuse: such a file is left out, with every offending file, document and span named. "
    "Clip: each span is cut at the end of its text, each change listed in the warnings. Keep: "
    "scored as they are, as the official scorers do (they never see the texts).")
folder_files = None
if st.toggle("Upload a whole folder", key=folder_upload.K_FOLDER_ON,
             help="An INCEpTION project export, a brat collection, CoNLL files with their texts: "
             "files that belong together. A .zip of the folder also works in the box above."):
    folder_files = st.file_uploader(
        "A folder, read as one input (e.g. an INCEpTION export: annotation/<document>/"
        "<annotator>.tsv gives one set per annotator)",
        accept_multiple_files="directory", key=folder_upload.K_FOLDER,
    )
reports: list[state.FileReport] = []
contents: list[bytes] = []
if files or folder_files:
    st.caption("Format is detected from the name and first bytes; override it if needed. "
               "Each file's display name is the set name shown on every page.")
    for f in files or ():
        c1, c2, c3, c4 = st.columns([3, 2, 2, 3])
        c1.markdown(f"**{md(f.name)}**  \n{f.size:,} bytes")
        fmt = c2.selectbox("Format", state.FORMAT_CHOICES, key=state.upload_key("fmt", f.name))
        guessed = state.guess_role(f.name)
        if guessed == "system" and f.name.lower().endswith(".zip"):
            guessed = "annotator"  # a zipped folder, like a folder, usually holds annotators
        role = c3.selectbox("Role", ROLES, index=ROLES.index(guessed),
                            key=state.upload_key("role", f.name))
        name = c4.text_input("Display name", value=state._display_name(f.name),
                             key=state.upload_key("name", f.name)).strip() or f.name
        data = f.getvalue()
        reports.append(state.parse_file(f.name, data, None if fmt == "auto" else fmt, role, name,
                                        beyond))
        contents.append(data)
    if folder_files:
        folder, by_path = folder_upload.split_folder([(f.name, f.getvalue())
                                                      for f in folder_files])
        c1, c2, c3, c4 = st.columns([3, 2, 2, 3])
        c1.markdown(f"**{md(folder)}/** (folder)  \n{len(by_path):,} files")
        fmt = c2.selectbox("Format", state.FORMAT_CHOICES, key=state.upload_key("fmt", folder))
        # A folder usually comes from an annotation tool: annotators unless its name says more.
        guessed_folder = state.guess_role(folder)
        guessed_folder = "annotator" if guessed_folder == "system" else guessed_folder
        role = c3.selectbox("Role", ROLES, index=ROLES.index(guessed_folder),
                            key=state.upload_key("role", folder))
        name = c4.text_input("Display name", value=folder,
                             key=state.upload_key("name", folder)).strip() or folder
        reports.append(folder_upload.parse_folder(folder, tuple(sorted(by_path.items())),
                                                  None if fmt == "auto" else fmt, role, name,
                                                  beyond))
        contents.append(b"".join(p.encode() + b"\0" + d for p, d in sorted(by_path.items())))
    # A file without texts is checked against the texts of the others (a prediction against
    # the gold's), under the same policy; every offending file is named at once.
    reports = text_policy.apply(reports, beyond)
    ws_upload = state.upload_workspace(reports, contents, f"beyond={beyond}")
    if st.session_state.get(state.K_UPLOAD_WS) is None or (
        st.session_state[state.K_UPLOAD_WS].key != ws_upload.key
    ):
        st.session_state[state.K_UPLOAD_WS] = ws_upload
        # A new batch is what the user wants to look at: switch to it (before the radio exists).
        st.session_state[state.K_SOURCE] = "upload"
elif st.session_state.get(state.K_UPLOAD_WS) is not None:
    # The uploader forgets its files when the user visits another page; the parsed data stays.
    kept = st.session_state[state.K_UPLOAD_WS]
    st.caption(f"Kept from earlier: {len(kept.reports)} uploaded file(s). Upload again to change "
               "formats, roles or names.")
    if st.button("🗑️ Forget the uploaded files", key="forget_uploads"):
        st.session_state[state.K_UPLOAD_WS] = None
        st.session_state[state.K_SOURCE] = "cli" if cli_ws is not None else "sample"
        st.rerun()
has_uploads = st.session_state.get(state.K_UPLOAD_WS) is not None

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

ws = state.workspace()
if ws.reports:
    st.subheader("Files")
    file_rows = [{
        "file": r.file, "format": r.format or "-", "role": r.role, "sets": ", ".join(
            s.name for s in r.sets) or "-", "documents": sum(len(s.spans) for s in r.sets),
        "spans": sum(s.span_count() for s in r.sets),
        "status": "✅ loaded" if r.ok else "❌ error",
        "warnings": len(r.diagnostics),
    } for r in ws.reports]
    st.dataframe(pd.DataFrame(file_rows), hide_index=True, key="files_table")
    diags = summaries.diagnostics_table(ws.reports)
    if len(diags):
        n_err = int((diags["severity"] == "error").sum())
        st.markdown(f"**Errors and warnings**: {n_err} error(s), {len(diags) - n_err} warning(s). "
                    "A file with an error is left out; the other files are loaded.")
        for r in ws.reports:
            if r.error:
                st.error(md(r.error), icon="❌")
        st.dataframe(paginate(diags, key="diag_page"), hide_index=True, key="diag_table")
        download_buttons(diags, "diagnostics", key="dl_diag")

if ws.empty:
    st.info("No annotation set is loaded: upload files above, or choose a sample corpus.")
    st.stop()

# ---- summary ------------------------------------------------------------------------------------
tables = summaries.summary_tables(ws.key, ws)
st.subheader(f"Summary: {md(ws.title)}")
m1, m2, m3 = st.columns(3)
m1.metric("Documents", f"{tables['n_docs']:,}")
m2.metric("With text", f"{tables['n_texts']:,}")
m3.metric("Annotation sets", len(ws.sets))
st.markdown("**Sets**")
st.dataframe(tables["sets"], hide_index=True, key="sets_table")
download_buttons(tables["sets"], "sets", key="dl_sets")

st.markdown("**Spans per label and set**")
labels = tables["labels"]
left, right = st.columns([2, 3])
with left:
    st.dataframe(labels, hide_index=True, key="labels_table")
    download_buttons(labels, "spans_per_label", key="dl_labels")
with right:
    if len(labels):
        st.plotly_chart(charts.spans_per_label(labels), key="labels_chart")

st.markdown("**Documents missing from a set**")
missing = tables["missing"]
if len(missing):
    st.dataframe(paginate(missing, key="missing_page"), hide_index=True, key="missing_table")
    download_buttons(missing, "missing_documents", key="dl_missing")
else:
    st.success("Every set covers every document.", icon="✅")
