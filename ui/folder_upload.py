"""A folder uploaded on the Data page read as ONE input (issue 19).

An INCEpTION project export, a brat collection or CoNLL files with their texts are folders: their
files only make sense together (``annotation/<document>/<annotator>.tsv``, ``.ann`` beside
``.txt``). Streamlit's directory upload gives every file with its path inside the chosen folder;
this module groups them back into ``{relative path: bytes}`` and reads them with
:func:`core.formats.load_files`, like ``python -m core validate FOLDER``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

import streamlit as st

from core.formats import ReadOptions
from core.model import Role
from core.model.bounds import Policy
from ui import file_reports, state
from ui.parsing import guarded_load

K_FOLDER = "upload_folder"  # st.file_uploader key of the directory upload
K_FOLDER_ON = "upload_folder_on"  # the toggle that shows the directory upload


def split_folder(named: Sequence[tuple[str, bytes]]) -> tuple[str, dict[str, bytes]]:
    """(folder name, {path inside the folder: bytes}) of uploaded ``folder/sub/file`` names.

    >>> split_folder([("exp/annotation/d/a.tsv", b"x"), ("exp/annotation/d/b.tsv", b"y")])
    ('exp', {'annotation/d/a.tsv': b'x', 'annotation/d/b.tsv': b'y'})
    """
    parts = [PurePosixPath(n.replace("\\", "/")).parts for n, _ in named]
    tops = {p[0] for p in parts if len(p) > 1}
    if len(tops) == 1 and all(len(p) > 1 for p in parts):
        top = next(iter(tops))
        return top, {"/".join(p[1:]): d for p, (_, d) in zip(parts, named, strict=True)}
    return "folder", {"/".join(p): d for p, (_, d) in zip(parts, named, strict=True)}


@st.cache_resource(max_entries=16, show_spinner="Parsing the folder…")
def parse_folder(folder: str, files: tuple[tuple[str, bytes], ...], fmt: str | None, role: Role,
                 name: str, beyond_text: Policy = "refuse", *, as_read: bool = True,
                 keep_names: bool = True) -> state.FileReport:
    """Read an uploaded folder as one input under the Data page's policy for spans past the
    text; a ``FormatError`` (or a reader bug, said as such) becomes the report's error.
    ``as_read``, ``keep_names``: how its sets are named and given roles
    (:func:`ui.file_reports.report`)."""
    loaded, error = guarded_load(dict(files), fmt=fmt, name=folder,
                                 options=ReadOptions(role=role, beyond_text=beyond_text))
    return file_reports.report(folder, loaded, role, name, error, as_read=as_read,
                         keep_names=keep_names)
